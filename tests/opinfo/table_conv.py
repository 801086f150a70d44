"""Table entries: convolutions beyond 2-D (conv1d, conv3d, the transposed conv2d), window
extraction (unfold, extract_patches) and group / instance normalisation. The references
are the defining sums written out in NumPy for any number of spatial axes."""
import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, ALL, FLOATS
from .samples import random, specials

_TOL = {dt.float16: (8e-3, 8e-3), dt.bfloat16: (6e-2, 6e-2), dt.float32: (1e-5, 1e-5)}
_F = lambda torch: torch.nn.functional  # noqa: E731


def _tuple(v, n):
    return (v,) * n if isinstance(v, int) else tuple(v) * (n if len(v) == 1 else 1)


def _conv_nd(x, w, bias, stride, pads, dilation, groups):
    """out[n, o, p] = sum over the group's channels c and kernel offsets k of
    x_padded[n, c, p * stride + k * dilation] * w[o, c, k], any number of spatial axes;
    ``pads``: (before, after) per spatial axis."""
    nd = x.ndim - 2
    xp = np.pad(x, [(0, 0), (0, 0)] + list(pads))
    kernel = w.shape[2:]
    out_sp = [(xp.shape[2 + i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
              for i in range(nd)]
    cg, og = x.shape[1] // groups, w.shape[0] // groups
    out = np.zeros((x.shape[0], w.shape[0]) + tuple(out_sp))
    for g in range(groups):
        for k in np.ndindex(*kernel):
            window = tuple(slice(k[i] * dilation[i],
                                 k[i] * dilation[i] + stride[i] * (out_sp[i] - 1) + 1, stride[i])
                           for i in range(nd))
            patch = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + window]
            out[:, g * og:(g + 1) * og] += np.einsum(
                "nc...,oc->no...", patch, w[(slice(g * og, (g + 1) * og), slice(None)) + k])
    return out if bias is None else out + bias.reshape((1, -1) + (1,) * nd)


def _pads(pad_mode, padding, sizes, kernel, stride, dilation):
    """(before, after) per spatial axis: 'same' puts the odd pixel after (MindSpore)."""
    nd = len(sizes)
    if pad_mode == "valid":
        return [(0, 0)] * nd
    if pad_mode == "same":
        out = []
        for size, k, s, d in zip(sizes, kernel, stride, dilation):
            total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
            out.append((total // 2, total - total // 2))
        return out
    p = _tuple(padding, nd) if isinstance(padding, int) or len(padding) != 2 * nd else padding
    return [(p[i], p[i]) for i in range(nd)] if len(p) == nd else \
        [(p[2 * i], p[2 * i + 1]) for i in range(nd)]


def _conv_ref(nd):
    def ref(x, w, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1, groups=1):
        if w.ndim == nd + 3:          # conv1d's (out, in, 1, k) weight layout
            w = w[:, :, 0]
        stride, dilation = _tuple(stride, nd), _tuple(dilation, nd)
        pads = _pads(pad_mode, padding, x.shape[2:], w.shape[2:], stride, dilation)
        return _conv_nd(x, w, bias, stride, pads, dilation, groups)
    return ref


def _torch_conv(nd):
    def run(torch, x, w, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
            groups=1):
        if w.ndim == nd + 3:
            w = w[:, :, 0]
        stride, dilation = _tuple(stride, nd), _tuple(dilation, nd)
        pads = _pads(pad_mode, padding, x.shape[2:], w.shape[2:], stride, dilation)
        flat = [p for pair in reversed(pads) for p in pair]      # torch: last axis first
        fn = getattr(_F(torch), f"conv{nd}d")
        return fn(_F(torch).pad(x, flat), w, bias, stride, 0, dilation, groups)
    return run


def _conv1d_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -1, 1)
    return [Sample(r(2, 3, 7), r(4, 3, 3), label="valid"),
            Sample(r(1, 2, 6), r(3, 2, 2), r(3), 1, "same", label="same, bias"),
            Sample(r(2, 4, 9), r(6, 2, 3), None, 2, "pad", (1, 2), 2, 2,
                   label="stride, padding, dilation, groups"),
            Sample(r(1, 2, 5), r(3, 2, 1, 2), label="(out, in, 1, k) weight"),
            Sample(r(0, 3, 5), r(4, 3, 3), label="empty batch"),
            Sample(r(2, 3, 5, 5), r(4, 3, 3), label="4-d input", raises=ValueError)]


def _conv3d_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -1, 1)
    return [Sample(r(1, 2, 4, 5, 4), r(3, 2, 2, 3, 2), label="valid"),
            Sample(r(1, 2, 4, 4, 3), r(2, 2, 3, 3, 2), r(2), 1, "same", label="same, bias"),
            Sample(r(2, 4, 5, 4, 4), r(4, 2, 2, 2, 2), None, (2, 1, 2), "pad", (1, 0, 1), 1, 2,
                   label="stride, padding, groups"),
            Sample(r(1, 2, 6, 4, 4), r(2, 2, 2, 2, 2), None, 1, "pad",
                   (1, 0, 0, 1, 1, 1), (2, 1, 1), label="6 paddings, dilation"),
            Sample(r(0, 2, 3, 3, 3), r(3, 2, 2, 2, 2), label="empty batch")]


_CONV_NOTE = {"padding": "pad_mode 'pad' takes one padding per spatial axis or a (before, "
                         "after) pair for each, as MindSpore; 'same' puts the odd pixel after",
              "dtypes": "floats only (MindSpore, PyTorch)"}
op("conv1d", prims=(), ref=_conv_ref(1), dtypes=FLOATS, samples=_conv1d_samples,
   torch=_torch_conv(1), tol=_TOL, notes=_CONV_NOTE)
op("conv3d", prims=(), ref=_conv_ref(3), dtypes=FLOATS, samples=_conv3d_samples,
   torch=_torch_conv(3), tol=_TOL, notes=_CONV_NOTE | {
       "construction": "one 2-D convolution per kernel depth over the output depths folded "
                       "into the batch, summed"})


def _conv_transpose_ref(x, w, bias=None, stride=1, padding=0, output_padding=0, groups=1,
                        dilation=1):
    """The adjoint of conv2d: each input pixel scatters x[n, c, i, j] * w[c, o] to
    out[n, o, i * stride + k * dilation - pad_before], cropped to the output size."""
    stride, dilation, extra = _tuple(stride, 2), _tuple(dilation, 2), _tuple(output_padding, 2)
    p = (padding,) * 4 if isinstance(padding, int) else tuple(padding)
    p = (p[0], p[0], p[1], p[1]) if len(p) == 2 else p
    n, cin, h, wd = x.shape
    kh, kw = w.shape[2:]
    cg, og = cin // groups, w.shape[1]
    full = (np.zeros((n, og * groups, (h - 1) * stride[0] + dilation[0] * (kh - 1) + 1 + extra[0],
                      (wd - 1) * stride[1] + dilation[1] * (kw - 1) + 1 + extra[1])))
    for g in range(groups):
        for ki in range(kh):
            for kj in range(kw):
                rows = slice(ki * dilation[0], ki * dilation[0] + stride[0] * (h - 1) + 1,
                             stride[0])
                cols = slice(kj * dilation[1], kj * dilation[1] + stride[1] * (wd - 1) + 1,
                             stride[1])
                full[:, g * og:(g + 1) * og, rows, cols] += np.einsum(
                    "nchw,co->nohw", x[:, g * cg:(g + 1) * cg], w[g * cg:(g + 1) * cg, :, ki, kj])
    out = full[:, :, p[0]:full.shape[2] - p[1], p[2]:full.shape[3] - p[3]]
    return out if bias is None else out + bias.reshape(1, -1, 1, 1)


def _torch_conv_transpose(torch, x, w, bias=None, stride=1, padding=0, output_padding=0,
                          groups=1, dilation=1):
    """PyTorch pads symmetrically: the full transpose, then (top, bottom, left, right)
    cropped and output_padding added (F.pad with negative widths crops)."""
    stride, dilation, extra = _tuple(stride, 2), _tuple(dilation, 2), _tuple(output_padding, 2)
    p = (padding,) * 4 if isinstance(padding, int) else tuple(padding)
    p = (p[0], p[0], p[1], p[1]) if len(p) == 2 else p
    full = _F(torch).conv_transpose2d(x, w, None, stride, 0, 0, groups, dilation)
    out = _F(torch).pad(full, (-p[2], extra[1] - p[3], -p[0], extra[0] - p[1]))
    return out if bias is None else out + bias.reshape(1, -1, 1, 1)


def _conv_transpose_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -1, 1)
    return [Sample(r(2, 3, 4, 4), r(3, 2, 3, 3), label="stride 1"),
            Sample(r(1, 2, 3, 4), r(2, 3, 3, 2), r(3), 2, 1, 1, label="stride 2, bias, "
                                                                       "output_padding"),
            Sample(r(1, 4, 3, 3), r(4, 1, 2, 3), None, (2, 1), (1, 0, 2, 1), 0, 2, (1, 2),
                   label="4 paddings, groups, dilation"),
            Sample(r(0, 3, 4, 4), r(3, 2, 3, 3), label="empty batch"),
            Sample(r(1, 2, 3, 3), r(3, 2, 2, 2), label="channel mismatch", raises=ValueError)]


op("conv_transpose2d", prims=("conv2d_input_grad",), ref=_conv_transpose_ref, dtypes=FLOATS,
   samples=_conv_transpose_samples, torch=_torch_conv_transpose, tol=_TOL, notes={
       "construction": "exactly conv2d's input gradient (the adjoint) for the output shape",
       "padding": "an int, (ph, pw) or (top, bottom, left, right), cropped from the full "
                  "transpose; output_padding adds rows / columns at the bottom / right",
       "dtypes": "floats only (PyTorch; conv2d's rule)"})


# ---- windows ---------------------------------------------------------------------------------

def _windows(x, kernel, stride, pads, dilation):
    """(N, C, kh, kw, OH, OW): x_padded[n, c, i * s + ki * d, j * s + kj * d]."""
    xp = np.pad(x, ((0, 0), (0, 0), pads[:2], pads[2:]))
    kh, kw = kernel
    oh = (xp.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    ow = (xp.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros(x.shape[:2] + (kh, kw, oh, ow), x.dtype)
    for ki in range(kh):
        for kj in range(kw):
            out[:, :, ki, kj] = xp[:, :, ki * dilation[0]:ki * dilation[0] + stride[0] * (oh - 1)
                                   + 1:stride[0], kj * dilation[1]:kj * dilation[1]
                                   + stride[1] * (ow - 1) + 1:stride[1]]
    return out


def _unfold_ref(x, kernel_size, dilation=1, padding=0, stride=1):
    p = (padding,) * 4 if isinstance(padding, int) else tuple(padding)
    p = (p[0], p[0], p[1], p[1]) if len(p) == 2 else p
    win = _windows(x, _tuple(kernel_size, 2), _tuple(stride, 2), p, _tuple(dilation, 2))
    n, c, kh, kw, oh, ow = win.shape
    return win.reshape(n, c * kh * kw, oh * ow)


def _window_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -3, 3)
    out = [Sample(r(2, 3, 4, 5), 2, label="2x2"),
           Sample(r(1, 2, 5, 6), (3, 2), (1, 2), 1, (2, 1), label="dilation, padding, stride"),
           Sample(r(1, 2, 4, 4), 2, 1, (1, 0), label="(ph, pw) padding"),
           Sample(r(0, 2, 4, 4), 2, label="empty batch"),
           Sample(r(2, 4, 4), 2, label="3-d input", raises=ValueError)]
    if dt.is_float(dtype):
        out.append(Sample(specials(dtype).reshape(1, 1, 4, 4), 2, 1, 1, 2, label="edge",
                          smooth=False))
    return out


op("unfold", prims=("unfold",), ref=_unfold_ref, dtypes=ALL, samples=_window_samples,
   torch=lambda torch, x, k, dilation=1, padding=0, stride=1: _F(torch).unfold(
       x, k, dilation, padding, stride),
   notes={"layout": "(N, C * kh * kw, L), the channel slowest (PyTorch's unfold)",
          "dtypes": "every dtype: it only moves data (padding is 0 / False)"})


def _extract_patches_ref(x, ksizes, strides, rates, padding="valid"):
    kernel, stride, rate = tuple(ksizes[1:3]), tuple(strides[1:3]), tuple(rates[1:3])
    pads = [(0, 0), (0, 0)]
    if padding.lower() == "same":
        pads = _pads("same", 0, x.shape[2:], kernel, stride, rate)
    win = _windows(x, kernel, stride, pads[0] + pads[1], rate)       # N C kh kw OH OW
    n, c, kh, kw, oh, ow = win.shape
    return win.transpose(0, 2, 3, 1, 4, 5).reshape(n, kh * kw * c, oh, ow)


def _patch_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -3, 3)
    out = [Sample(r(2, 3, 5, 5), [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], label="valid"),
           Sample(r(1, 2, 5, 6), [1, 3, 2, 1], [1, 2, 2, 1], [1, 1, 2, 1], "same",
                  label="same, stride, rate"),
           Sample(r(0, 2, 4, 4), [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], label="empty batch")]
    if dt.is_float(dtype):
        out.append(Sample(specials(dtype).reshape(1, 1, 4, 4), [1, 2, 2, 1], [1, 2, 2, 1],
                          [1, 1, 1, 1], label="edge", smooth=False))
    return out


op("extract_patches", prims=("unfold",), ref=_extract_patches_ref, dtypes=ALL,
   samples=_patch_samples, torch=None, ms=None, notes={
       "layout": "(N, kh * kw * C, OH, OW), the channel fastest (MindSpore's nn.Unfold / "
                 "ExtractImagePatches)",
       "dtypes": "every dtype: it only moves data"})


# ---- group and instance normalisation ---------------------------------------------------------

def _group_norm_ref(x, num_groups, weight=None, bias=None, eps=1e-5):
    n, c = x.shape[:2]
    g = x.reshape(n, num_groups, x[0].size // num_groups if n else 0)
    y = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return y * (1 if weight is None else weight.reshape(shape)) + \
        (0 if bias is None else bias.reshape(shape))


def _group_norm_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    return [Sample(r(2, 4, 3, 3), 2, r(4), r(4), label="2 groups, affine"),
            Sample(r(3, 6, 5), 3, label="3-d, no affine"),
            Sample(r(2, 4, 3), 4, r(4), r(4), 1e-3, label="a group per channel, eps"),
            Sample(r(2, 3), 1, label="2-d, one group"),
            Sample(np.full((2, 2, 3), 1.5, dtype), 2, label="constant groups"),
            Sample(r(0, 4, 3), 2, label="empty batch"),
            Sample(r(2, 6, 3), 4, label="groups do not divide the channels", raises=ValueError)]


_NORM_NOTE = {"constant groups": "a constant group normalises to 0 (its variance is 0; eps "
                                 "keeps it finite)",
              "variance": "biased (divided by the count), as MindSpore and PyTorch",
              "dtypes": "floats only"}
op("group_norm", prims=("layer_norm",), ref=_group_norm_ref, dtypes=FLOATS,
   samples=_group_norm_samples, tol=_TOL, notes=_NORM_NOTE,
   torch=lambda torch, x, g, w=None, b=None, eps=1e-5: _F(torch).group_norm(x, g, w, b, eps))


def _instance_norm_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    return [Sample(r(2, 3, 4, 4), r(3), r(3), label="affine"),
            Sample(r(2, 3, 5), label="3-d"), Sample(r(1, 2, 3, 3), None, None, 1e-2, label="eps"),
            Sample(np.full((1, 2, 4), -0.5, dtype), label="constant channels"),
            Sample(r(0, 3, 4), label="empty batch"),
            Sample(r(2, 3), label="2-d input", raises=ValueError)]


op("instance_norm", prims=("layer_norm",), ref=lambda x, w=None, b=None, eps=1e-5:
   _group_norm_ref(x, x.shape[1], w, b, eps), dtypes=FLOATS, samples=_instance_norm_samples,
   tol=_TOL, notes=_NORM_NOTE | {"statistics": "each sample's own (no running statistics)"},
   ms=None, torch=lambda torch, x, w=None, b=None, eps=1e-5: _F(torch).instance_norm(
       x, weight=w, bias=b, eps=eps))
