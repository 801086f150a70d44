"""Table entries: neural-network ops -- softmax, normalisation, convolution and pooling,
activations built from primitives, losses."""
import math

import numpy as np
from scipy import special

from tensorjit import dtype as dt

from .core import op, Sample, Kink, Differs, ALL, NUMERIC, FLOATS, float_result
from .samples import random, specials, unary, grad_unary, edge_rows

_TOL16 = {dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)}


# ---- softmax ---------------------------------------------------------------------------

def _softmax_samples(dtype, rng, full):
    out = [Sample(random(rng, (3, 4, 5), dtype), 1, label="axis 1"),
           Sample(random(rng, (2, 6), dtype), label="last axis"),
           Sample(random(rng, (4,), dtype), 0, label="vector"),
           Sample(np.zeros((2, 0), dtype), 1, label="empty axis"),
           Sample(np.zeros((0, 3), dtype), -1, label="empty batch")]
    if dt.is_float(dtype):
        out.append(Sample(edge_rows(dtype), 1, label="edge rows", smooth=False))
    if full:
        out.append(Sample(random(rng, (4, 64), dtype, -30, 30), label="wide range"))
    return out


_SOFTMAX_NOTE = {"empty": "over an axis of size 0 the result is empty (MindSpore, PyTorch)",
                 "dtypes": "bool and integers compute in float32 (MindSpore 2.10's CPU kernel "
                           "refuses them)",
                 "edges": "a row holding +inf gives NaN (inf - inf), as in NumPy, PyTorch, "
                          "MindSpore"}
def _scipy_over_axis(fn):
    """SciPy's softmax refuses an empty axis; the softmax of nothing is nothing."""
    return lambda x, axis=-1: x.copy() if x.shape[axis] == 0 else fn(x, axis=axis)


op("softmax", ref=_scipy_over_axis(special.softmax), dtypes=ALL,
   result=float_result, samples=_softmax_samples, notes=_SOFTMAX_NOTE,
   torch=lambda torch, x, axis=-1: torch.softmax(x, axis), tol=_TOL16)
op("log_softmax", ref=_scipy_over_axis(special.log_softmax), dtypes=ALL, ref_differs={
    "edge rows": Differs("in a row holding +inf every entry is NaN (inf - inf), as in "
                         "PyTorch; SciPy gives -inf to the finite entries",
                         lambda x, *axis: np.isposinf(x).any(-1, keepdims=True))},
   result=float_result, samples=_softmax_samples, notes=_SOFTMAX_NOTE,
   torch=lambda torch, x, axis=-1: torch.log_softmax(x, axis), tol=_TOL16)


# ---- normalisation -----------------------------------------------------------------------

def _bn_ref(x, mean, var, weight, bias, training=False, momentum=0.1, eps=1e-5):
    if training:
        axes = (0,) + tuple(range(2, x.ndim))
        mean, var = x.mean(axis=axes), x.var(axis=axes)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return ((x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * weight.reshape(shape)
            + bias.reshape(shape))


def _bn_samples(dtype, rng, full):
    def r(*shape, lo=-2, hi=2):
        return random(rng, shape, dtype, lo, hi)
    out = []
    for training in (False, True):
        out += [Sample(r(4, 3, 2, 2), r(3), r(3, lo=0.5), r(3), r(3), training,
                       label=f"4-d training={training}"),
                Sample(r(5, 3), r(3), r(3, lo=0.5), r(3), r(3), training, 0.1, 1e-3,
                       label=f"2-d training={training}")]
    return out


op("batch_norm", ref=_bn_ref, dtypes=FLOATS, samples=_bn_samples, tol=_TOL16,
   torch=lambda torch, x, m, v, w, b, training=False, momentum=0.1, eps=1e-5:
   torch.nn.functional.batch_norm(x, m.clone(), v.clone(), w, b, training, momentum, eps),
   nondiff=(1, 2), notes={"running statistics": "updated in place in training (unbiased "
                                                "variance), as MindSpore and PyTorch"})


def _ln_ref(x, shape, weight=None, bias=None, eps=1e-5):
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    y = (x - x.mean(axis=axes, keepdims=True)) / np.sqrt(x.var(axis=axes, keepdims=True) + eps)
    return y * (1 if weight is None else weight) + (0 if bias is None else bias)


def _ln_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype)
    return [Sample(r(2, 3, 4), (3, 4), r(3, 4), r(3, 4), label="2 axes"),
            Sample(r(4, 5), (5,), r(5), r(5), 1e-3, label="1 axis"),
            Sample(r(4, 5), (5,), label="no weight"),
            Sample(np.full((2, 3), 1.5, dtype), (3,), label="constant rows")]


op("layer_norm", ref=_ln_ref, dtypes=FLOATS, samples=_ln_samples, tol=_TOL16,
   torch=lambda torch, x, shape, w=None, b=None, eps=1e-5: torch.nn.functional.layer_norm(
       x, shape, w, b, eps), notes={"constant rows": "a constant row normalises to 0 "
                                                    "(the variance is 0; eps keeps it finite)"})


# ---- convolution and pooling ---------------------------------------------------------------

def _pads(pad_mode, padding, hw, kernel, stride, dilation):
    if pad_mode == "valid":
        return (0, 0, 0, 0)
    if pad_mode == "same":
        out = []
        for size, k, s, d in zip(hw, kernel, stride, dilation):
            total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
            out += [total // 2, total - total // 2]
        return tuple(out)
    p = (padding,) * 4 if isinstance(padding, int) else tuple(padding)
    return (p[0], p[0], p[1], p[1]) if len(p) == 2 else p


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _conv_ref(x, w, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
    """out[n, o, i, j] = sum over the group's channels and the kernel of
    x_padded[n, c, i*s + ki*d, j*s + kj*d] * w[o, c, ki, kj]."""
    stride, dilation = _pair(stride), _pair(dilation)
    kh, kw = w.shape[2:]
    t, b, lft, r = _pads(pad_mode, padding, x.shape[2:], (kh, kw), stride, dilation)
    xp = np.pad(x, ((0, 0), (0, 0), (t, b), (lft, r)))
    oh = (xp.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (xp.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    cg, og = x.shape[1] // groups, w.shape[0] // groups
    out = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for g in range(groups):
        for ki in range(kh):
            for kj in range(kw):
                i0, j0 = ki * dilation[0], kj * dilation[1]
                patch = xp[:, g * cg:(g + 1) * cg, i0:i0 + stride[0] * (oh - 1) + 1:stride[0],
                           j0:j0 + stride[1] * (ow - 1) + 1:stride[1]]
                out[:, g * og:(g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, ki, kj])
    return out if bias is None else out + bias.reshape(1, -1, 1, 1)


def _conv_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -1, 1)
    return [Sample(r(2, 3, 5, 5), r(4, 3, 3, 3), label="valid"),
            Sample(r(1, 2, 5, 6), r(3, 2, 3, 2), r(3), 1, "same", label="same, bias"),
            Sample(r(2, 4, 7, 6), r(6, 2, 3, 2), None, (2, 1), "pad", (1, 0, 2, 1), (1, 2), 2,
                   label="stride, padding, dilation, groups"),
            Sample(r(0, 3, 5, 5), r(4, 3, 3, 3), label="empty batch"),
            Sample(r(1, 2, 4, 4), r(2, 2, 1, 1), label="1x1")]


def _torch_conv(torch, x, w, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
                groups=1):
    t, b, lft, r = _pads(pad_mode, padding, x.shape[2:], w.shape[2:], _pair(stride),
                         _pair(dilation))
    x = torch.nn.functional.pad(x, (lft, r, t, b))
    return torch.nn.functional.conv2d(x, w, bias, stride, 0, dilation, groups)


op("conv2d", ref=_conv_ref, dtypes=FLOATS, samples=_conv_samples, torch=_torch_conv,
   errors=[],
   prims=("conv2d", "conv2d_input_grad", "conv2d_weight_grad"),
   tol={dt.float16: (8e-3, 8e-3), dt.bfloat16: (6e-2, 6e-2), dt.float32: (1e-5, 1e-5)},
   notes={"padding": "pad_mode 'pad' takes 1, 2 or 4 paddings (top, bottom, left, right), "
                     "as MindSpore; 'same' puts the odd pixel at the bottom / right"})


def _windows(x, kernel, stride, pads, dilation, fill):
    xp = np.pad(x, ((0, 0), (0, 0), pads[:2], pads[2:]), constant_values=fill)
    kh, kw = kernel
    oh = (xp.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (xp.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    return np.stack([xp[:, :, i * dilation[0]:i * dilation[0] + stride[0] * (oh - 1) + 1:stride[0],
                        j * dilation[1]:j * dilation[1] + stride[1] * (ow - 1) + 1:stride[1]]
                     for i in range(kh) for j in range(kw)], -1)


def _max_pool_ref(x, kernel_size=1, stride=None, pad_mode="valid", padding=0, dilation=1):
    kernel = _pair(kernel_size)
    stride = kernel if stride is None else _pair(stride)
    pads = _pads(pad_mode, padding, x.shape[2:], kernel, stride, _pair(dilation))
    fill = -np.inf if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    return _windows(x, kernel, stride, pads, _pair(dilation), fill).max(-1)


def _pool_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -3, 3)
    out = [Sample(r(2, 3, 6, 6), 2, label="2x2"),
           Sample(r(1, 2, 5, 7), (3, 2), (2, 1), "pad", 1, label="stride, padding"),
           Sample(r(1, 2, 5, 5), 3, 1, "same", label="same"),
           Sample(r(0, 2, 4, 4), 2, label="empty batch")]
    if dt.is_float(dtype):
        out.append(Sample(specials(dtype)[:16].reshape(1, 1, 4, 4), 2, label="edge",
                          smooth=False))
    return out


op("max_pool2d", prims=("unfold", "fold"), ref=_max_pool_ref, dtypes=NUMERIC,
   samples=_pool_samples, grad_samples=lambda rng, full: [
       Sample(rng.permutation(72).reshape(2, 1, 6, 6) * 0.1, 2, label="distinct")],
   torch=lambda torch, x, k=1, s=None, mode="valid", padding=0, dilation=1: _torch_pool(
       torch, torch.nn.functional.max_pool2d, x, k, s, mode, padding, -float("inf")),
   torch_differs={"grad:edge": Differs(
       "a window holding NaN gets a NaN gradient (NaN equals no element); PyTorch routes it "
       "to the NaN")},
   kinks=[Kink(Sample(np.array([[[[1.0, 1.0], [0.0, 1.0]]]]), 2),
               [np.array([[[[1 / 3, 1 / 3], [0.0, 1 / 3]]]])],
               "tied maxima of a window share its gradient evenly (PyTorch gives it all to "
               "the first)", torch=False)],
   notes={"ties": "tied maxima of a window share its gradient evenly (the reduction's rule; "
                  "PyTorch gives it to one of them)",
          "dtypes": "bool is refused (PyTorch refuses it)"})


def _torch_pool(torch, fn, x, k, s, mode, padding, fill, **kw):
    kernel = _pair(k)
    stride = kernel if s is None else _pair(s)
    t, b, lft, r = _pads(mode, padding, x.shape[2:], kernel, stride, (1, 1))
    x = torch.nn.functional.pad(x, (lft, r, t, b), value=fill)
    return fn(x, kernel, stride, **kw)


def _avg_pool_ref(x, kernel_size=1, stride=None, pad_mode="valid", padding=0,
                  count_include_pad=True, divisor_override=None):
    kernel = _pair(kernel_size)
    stride = kernel if stride is None else _pair(stride)
    pads = _pads(pad_mode, padding, x.shape[2:], kernel, stride, (1, 1))
    total = _windows(x, kernel, stride, pads, (1, 1), 0).sum(-1)
    if divisor_override:
        return total / divisor_override
    if count_include_pad or not any(pads):
        return total / (kernel[0] * kernel[1])
    counts = _windows(np.ones((1, 1) + x.shape[2:]), kernel, stride, pads, (1, 1), 0).sum(-1)
    return total / counts


def _avg_samples(dtype, rng, full):
    out = _pool_samples(dtype, rng, full)
    x = random(rng, (1, 2, 5, 5), dtype)
    return out + [Sample(x, 3, 2, "pad", 1, False, label="padding not counted"),
                  Sample(x, 2, None, "valid", 0, True, 3, label="divisor")]


op("avg_pool2d", prims=(), ref=_avg_pool_ref, dtypes=FLOATS, samples=_avg_samples,
   tol=_TOL16, torch=None, notes={"dtypes": "floats only (MindSpore, PyTorch)"})
op("adaptive_avg_pool2d", prims=(), dtypes=FLOATS, tol=_TOL16,
   ref=lambda x, size: x.reshape(x.shape[:2] + (_pair(size)[0], x.shape[2] // _pair(size)[0],
                                                _pair(size)[1], x.shape[3] // _pair(size)[1])
                                 ).mean(axis=(3, 5)),
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (2, 3, 4, 6), dtype), (2, 3), label="2x3"),
       Sample(random(rng, (2, 3, 4, 6), dtype), 1, label="global")],
   torch=lambda torch, x, size: torch.nn.functional.adaptive_avg_pool2d(x, size))


# ---- activations made of primitives ----------------------------------------------------------

def _at_bounds(low, high):
    return {"grad:edge": Differs(
        "at a bound and at NaN the gradient passes to the input (clamp's rule, as "
        "MindSpore's clamp and PyTorch's clamp); PyTorch's relu6 / hardtanh give 0 there",
        lambda x: np.isnan(x) | (x == low) | (x == high))}
_INT_ACT = ("bool and integers give float32 (the float constants of the definition promote "
            "them; MindSpore 2.10 keeps integer dtypes for hardtanh / leaky_relu)")
op("relu6", prims=(), ref=lambda x: np.minimum(np.maximum(x, 0), 6), dtypes=NUMERIC,
   result=float_result, samples=unary((-3, 9)), grad_samples=grad_unary((-3, 9)),
   torch=lambda torch, x: torch.nn.functional.relu6(x), signed_zeros=False,
   torch_differs=_at_bounds(0, 6),
   notes={"dtypes": _INT_ACT})
op("hardtanh", prims=(), ref=lambda x, lo=-1.0, hi=1.0: np.minimum(np.maximum(x, lo), hi),
   dtypes=NUMERIC, result=float_result, samples=unary((-3, 3)), signed_zeros=False,
   torch=lambda torch, x: torch.nn.functional.hardtanh(x), notes={"dtypes": _INT_ACT},
   torch_differs=_at_bounds(-1, 1))
op("leaky_relu", prims=(), ref=lambda x, alpha=0.2: np.where(x > 0, x, x * alpha),
   dtypes=ALL, result=float_result, samples=unary((-3, 3)),
   torch=lambda torch, x: torch.nn.functional.leaky_relu(x, 0.2), notes={"dtypes": _INT_ACT})
op("elu", prims=(), ref=lambda x, alpha=1.0: np.where(x > 0, x, alpha * np.expm1(x)),
   dtypes=ALL, result=float_result, samples=unary((-3, 3)),
   torch=lambda torch, x: torch.nn.functional.elu(x), notes={"dtypes": _INT_ACT},
   kinks=[Kink(Sample(np.array([1000.0, np.inf, -np.inf])), [np.array([1.0, 1.0, 0.0])],
               "large inputs keep gradient 1 (the unused branch expm1 is computed on 0)")])
op("mish", prims=(), ref=lambda x: x * np.tanh(np.logaddexp(0, x)), dtypes=ALL,
   result=float_result, samples=unary((-4, 4)),
   torch=lambda torch, x: torch.nn.functional.mish(x), notes={"dtypes": _INT_ACT})
