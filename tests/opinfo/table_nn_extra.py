"""Table entries: more nn functions (shrinks, cosine similarity, RMS / fused-add
normalisation, local response normalisation, norm clipping, the bilinear layer, rotary
position embedding, swiglu, padding); their formulas written out in NumPy, PyTorch as the
second reference where it has the op."""
import numpy as np
from scipy import special

from tensorjit import dtype as dt

from .core import (op, Sample, ErrorCase, Differs, ALL, NUMERIC, FLOATS, SIGNED, float_result,
                   accumulate)
from .samples import random

_TOL16 = {dt.float16: (5e-3, 5e-3), dt.bfloat16: (4e-2, 4e-2), dt.float32: (1e-5, 1e-5)}
_F = lambda torch: torch.nn.functional  # noqa: E731
_HALF = (np.dtype(dt.float16), np.dtype(dt.bfloat16))
_ASCEND = {"platform": "MindSpore 2.10 has only an Ascend kernel: the documented formula, "
                       "float64 accepted as well"}


def _r(rng, dtype, *shape, lo=-2.0, hi=2.0):
    return random(rng, shape, dtype, lo, hi)


def _reduce(loss, reduction):
    return loss if reduction == "none" else loss.sum() if reduction == "sum" else loss.mean()


# ---- shrinks, similarity, losses -------------------------------------------------------------

def _softshrink_ref(x, lambd=0.5):
    return np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0.0))


op("soft_shrink", ref=_softshrink_ref, dtypes=FLOATS, tol=_TOL16,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), label="random"),
       Sample(_r(rng, dtype, 5), 1.2, label="lambd 1.2"),
       Sample(_r(rng, dtype, 3), -1.0, label="negative lambd", raises=RuntimeError)],
   torch=lambda torch, x, lambd=0.5: _F(torch).softshrink(x, lambd),
   torch_differs={f"value:{label}": Differs(
       "inside [-lambd, lambd] the result is +0.0; PyTorch keeps the sign of a negative x",
       lambda x, *r: (x < 0) & (x >= -1.2))
                  for label in ("random", "lambd 1.2")},
   notes={"alias": "MindSpore's deprecated spelling of softshrink (the same function)"})


def _int_or_float(dtype, rng, *shape):
    if np.dtype(dtype) == np.bool_:
        return rng.random(shape) > 0.5
    if dt.is_float(dtype):
        return _r(rng, dtype, *shape, lo=-3, hi=3)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -5), min(info.max, 5), shape).astype(dtype)


op("tanhshrink", ref=lambda x: x - np.tanh(x), dtypes=NUMERIC, result=float_result,
   tol=_TOL16, samples=lambda dtype, rng, full: [
       Sample(_int_or_float(dtype, rng, 3, 4), label="random"),
       Sample(_int_or_float(dtype, rng, 0), label="empty")],
   torch=lambda torch, x: _F(torch).tanhshrink(x),
   notes={"dtypes": "integers compute in float32 (MindSpore 2.10); bool raises TypeError"})


def _cosine_ref(x1, x2, dim=1, eps=1e-8):
    dot = np.sum(x1 * x2, dim)
    norms = np.sqrt(np.sum(x1 * x1, dim)) * np.sqrt(np.sum(x2 * x2, dim))
    return dot / np.maximum(norms, eps)


op("cosine_similarity", ref=_cosine_ref, dtypes=FLOATS, tol=_TOL16,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 3, 4), label="dim 1"),
       Sample(_r(rng, dtype, 4, 3), _r(rng, dtype, 1, 3), 0, label="dim 0, broadcast"),
       Sample(_r(rng, dtype, 2, 3), _r(rng, dtype, 2, 3), dim=-1, eps=0.5, label="eps 0.5"),
       Sample(np.array([1, 2], np.int32), np.array([1, 2], np.int32), 0, label="int",
              raises=TypeError)],
   torch=lambda torch, x1, x2, dim=1, eps=1e-8: _F(torch).cosine_similarity(x1, x2, dim, eps),
   torch_differs={"value:eps 0.5": Differs("PyTorch clamps each norm by eps; MindSpore "
                                           "their product"),
                  "value:dim 0, broadcast": Differs("MindSpore takes each operand's norm "
                                                    "before broadcasting; PyTorch after"),
                  "grad:eps 0.5": Differs("PyTorch clamps each norm by eps"),
                  "grad:dim 0, broadcast": Differs("norms before broadcasting (MindSpore)")},
   notes={"eps": "the product of the two norms is clamped by eps (MindSpore 2.10); PyTorch "
                 "clamps each norm"})


op("mse_loss_ext", ref=lambda x, y, reduction="mean": _reduce((x - y) ** 2, reduction),
   dtypes=FLOATS, tol=_TOL16, notes=_ASCEND,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 3, 4), label="mean"),
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 4), "none", label="broadcast, none"),
       Sample(_r(rng, dtype, 2, 3), _r(rng, dtype, 2, 3), reduction="sum", label="sum"),
       Sample(_r(rng, dtype, 2), _r(rng, dtype, 2), "avg", label="bad reduction",
              raises=ValueError)],
   torch=lambda torch, x, y, reduction="mean": _F(torch).mse_loss(
       *torch.broadcast_tensors(x, y), reduction=reduction))


def _swiglu_ref(x, dim=-1):
    a, b = np.split(x, 2, axis=dim)
    return a * special.expit(a) * b


op("swiglu", ref=_swiglu_ref, dtypes=FLOATS, tol=_TOL16, notes=_ASCEND,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), label="last axis"),
       Sample(_r(rng, dtype, 4, 3), 0, label="axis 0"),
       Sample(_r(rng, dtype, 3, 3), label="odd length", raises=RuntimeError)])


# ---- normalisation -------------------------------------------------------------------------------

def _rms_ref(x, gamma, epsilon=1e-6):
    axes = tuple(range(x.ndim - gamma.ndim, x.ndim))
    rstd = 1.0 / np.sqrt(np.mean(x * x, axes, keepdims=True) + epsilon)
    return x * rstd * gamma, rstd


def _rms_result(x, *rest):
    return x, (dt.float32 if np.dtype(x) in _HALF else x)


op("rms_norm", ref=_rms_ref, dtypes=FLOATS, tol=_TOL16, result=_rms_result, notes=_ASCEND,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 4, lo=0.5), label="last axis"),
       Sample(_r(rng, dtype, 2, 2, 3), _r(rng, dtype, 2, 3, lo=0.5), 1e-3, label="2 axes"),
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 3), label="gamma mismatch",
              raises=ValueError),
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 4), 2.0, label="epsilon > 1",
              raises=ValueError)])


def _add_rms_ref(x1, x2, gamma, epsilon=1e-6):
    y, rstd = _rms_ref(x1 + x2, gamma, epsilon)
    return y, rstd, x1 + x2


# rstd (float32) of a half-precision x1 + x2, rounded to half first: the reference adds
# exactly, hence a float32 tolerance of a few half-precision units
op("add_rms_norm", ref=_add_rms_ref, dtypes=FLOATS, notes=_ASCEND,
   tol=_TOL16 | {dt.float32: (2e-3, 2e-3)},
   result=lambda x1, *rest: _rms_result(x1) + (x1,),
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 3, 4), _r(rng, dtype, 4, lo=0.5),
              label="random"),
       Sample(_r(rng, dtype, 2, 4), _r(rng, dtype, 4), _r(rng, dtype, 4, lo=0.5), 1e-2,
              label="broadcast x2")])


def _add_layer_norm_ref(x1, x2, gamma, beta, epsilon=1e-5, additional_output=False):
    x = x1 + x2
    mean = x.mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt(((x - mean) ** 2).mean(-1, keepdims=True) + epsilon)
    return (x - mean) * rstd * gamma + beta, mean, rstd, x


op("add_layer_norm", ref=_add_layer_norm_ref, dtypes=FLOATS, notes=_ASCEND,
   tol={dt.float16: (1e-2, 1e-2), dt.bfloat16: (6e-2, 6e-2), dt.float32: (1e-5, 1e-5)},
   result=lambda x1, *rest: (x1,) * 4,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 3, 4), _r(rng, dtype, 4, lo=0.5),
              _r(rng, dtype, 4), label="random"),
       Sample(_r(rng, dtype, 2, 2, 3), _r(rng, dtype, 2, 2, 3), _r(rng, dtype, 3, lo=0.5),
              _r(rng, dtype, 3), 1e-3, True, label="3-d, additional output"),
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 3, 4), _r(rng, dtype, 3),
              _r(rng, dtype, 3), label="gamma mismatch", raises=ValueError)])


def _lrn_ref(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
    sq = np.pad(x * x, ((0, 0), (depth_radius, depth_radius), (0, 0), (0, 0)))
    window = sum(sq[:, i:i + x.shape[1]] for i in range(2 * depth_radius + 1))
    return x / (bias + alpha * window) ** beta


op("lrn", ref=_lrn_ref, dtypes=FLOATS, tol=_TOL16,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 2, 7, 2, 2), label="defaults"),
       Sample(_r(rng, dtype, 1, 5, 3, 2), 2, 2.0, 0.5, 0.75, label="radius 2"),
       Sample(_r(rng, dtype, 1, 3, 2, 2), 0, 1.0, 1e-3, 0.75, label="radius 0"),
       Sample(_r(rng, dtype, 2, 3, 2), label="3-d", raises=ValueError),
       Sample(_r(rng, dtype, 1, 3, 2, 2), 1, 1.0, 1.0, 0.5, "WITHIN_CHANNEL",
              label="norm region", raises=ValueError)],
   notes={"formula": "TensorFlow's: alpha multiplies the plain sum of squares over the "
                     "2 * depth_radius + 1 channels (PyTorch's local_response_norm divides it "
                     "by the window size)"})


def _clip_ref(x, max_norm, norm_type=2.0, error_if_nonfinite=False):
    tensors = list(x) if isinstance(x, (list, tuple)) else [x]
    if norm_type == np.inf:
        total = max(np.abs(t).max() for t in tensors)
    else:
        total = sum(np.sum(np.abs(t) ** norm_type) for t in tensors) ** (1 / norm_type)
    coef = min(max_norm / (total + 1e-6), 1.0)
    out = [t * coef for t in tensors]
    return out if isinstance(x, (list, tuple)) else out[0]


op("clip_by_norm", ref=_clip_ref, dtypes=FLOATS, tol=_TOL16,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), 1.0, label="clipped"),
       Sample(_r(rng, dtype, 3, 4), 100.0, label="within the norm"),
       Sample(_r(rng, dtype, 2, 3), 0.5, float("inf"), label="inf norm"),
       Sample([_r(rng, dtype, 2, 3), _r(rng, dtype, 4)], 1.0, 1.0, label="list, 1-norm")],
   ms_differs={"value:list, 1-norm": "MindSpore 2.10 sums x ** p without |x| (a signed "
                                     "'norm' for odd p); this is the p-norm the "
                                     "documentation names"},
   notes={"norm": "the p-norm of |x| (MindSpore 2.10's code raises x to p without the "
                  "absolute value, which gives a signed total for odd p)",
          "error_if_nonfinite": "raises RuntimeError when the norm is known (outside a "
                                "capture)"})


def _bidense_ref(x1, x2, w, bias=None):
    out = np.einsum("...i,oij,...j->...o", x1, w, x2)
    return out if bias is None else out + bias


def _bidense_result(x1, x2, w, bias=None):
    if bias is not None:
        return bias
    return accumulate(x1)


op("bidense", ref=_bidense_ref, dtypes=FLOATS + SIGNED + (dt.uint8,), result=_bidense_result,
   tol={dt.float16: (1e-2, 1e-2), dt.bfloat16: (8e-2, 8e-2), dt.float32: (1e-5, 1e-5)},
   samples=lambda dtype, rng, full: [
       Sample(_int_or_float(dtype, rng, 2, 3), _int_or_float(dtype, rng, 2, 4),
              _int_or_float(dtype, rng, 5, 3, 4), _int_or_float(dtype, rng, 5), label="bias"),
       Sample(_int_or_float(dtype, rng, 2, 2, 3), _int_or_float(dtype, rng, 2, 2, 4),
              _int_or_float(dtype, rng, 3, 3, 4), label="3-d"),
       Sample(_int_or_float(dtype, rng, 2, 3), _int_or_float(dtype, rng, 3, 4),
              _int_or_float(dtype, rng, 5, 3, 4), label="batch mismatch", raises=ValueError)],
   torch=lambda torch, x1, x2, w, bias=None: _F(torch).bilinear(x1, x2, w, bias),
   notes={"dtypes": "floats, signed integers and uint8 (MindSpore's CPU MatMul); integers "
                    "accumulate in int64 (MindSpore's sum), cast to the bias's dtype when there "
                    "is one"})


def _rope_ref(x, cos, sin, mode=0):
    d = x.shape[-1]
    if mode == 0:
        rotated = np.concatenate([-x[..., d // 2:], x[..., :d // 2]], -1)
    else:
        rotated = np.stack([-x[..., 1::2], x[..., 0::2]], -1).reshape(x.shape)
    return x * cos + rotated * sin


def _rope_samples(dtype, rng, full):
    def angles(*shape):
        return _r(rng, dtype, *shape, lo=-1, hi=1)
    return [Sample(_r(rng, dtype, 1, 2, 3, 4), angles(1, 1, 3, 4), angles(1, 1, 3, 4),
                   label="rotate half"),
            Sample(_r(rng, dtype, 2, 1, 3, 4), angles(2, 1, 3, 4), angles(2, 1, 3, 4), 1,
                   label="interleaved"),
            Sample(_r(rng, dtype, 1, 1, 2, 3), angles(1, 1, 2, 3), angles(1, 1, 2, 3),
                   label="odd last axis", raises=ValueError)]


op("rotary_position_embedding", ref=_rope_ref, dtypes=FLOATS, tol=_TOL16,
   samples=_rope_samples, notes=_ASCEND)


def _padding_ref(x, pad_dim_size=8):
    return np.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, pad_dim_size - 1)])


op("padding", ref=_padding_ref, dtypes=ALL, grad=True,
   samples=lambda dtype, rng, full: [
       Sample(_int_or_float(dtype, rng, 3, 1), label="default"),
       Sample(_int_or_float(dtype, rng, 2, 2, 1), 3, label="3"),
       Sample(np.zeros((2, 2), dtype), label="last axis not 1", raises=ValueError)],
   errors=[ErrorCase(Sample(np.zeros((2, 2), np.float32)), ValueError, "Padding:",
                     "the last axis must have size 1")],
   notes={"deprecated": "MindSpore 2.8 deprecates it for ops.pad"})
