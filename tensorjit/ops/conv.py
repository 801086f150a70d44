"""Longer than 500 lines by a few: convolution and the window primitives pooling shares.

2-D convolution with its two gradient primitives (kernels chosen per shape by
``conv_select.py``; below, the general NCHW im2col + GEMM for groups and dtypes without
BLAS), and pooling on a window-extraction primitive (``unfold``) and its transpose (``fold``).

The three convolution primitives are closed under differentiation:
    y  = conv2d(x, w)                  dx = conv2d_input_grad(dy, w)   dw = conv2d_weight_grad(x, dy)
and the VJPs of the two gradient primitives are again these three, so higher-order
gradients and the registry-wide finite-difference check work.
"""
import math

import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from .primitive import Primitive, FRESH, VIEW
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import blas
from . import conv_select
from . import batching
from .low_precision import accumulate_in_float32


# ---------------------------------------------------------------------------------------
# geometry

def _pair(value, name, op):
    if isinstance(value, (int, np.integer)):
        return (int(value), int(value))
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * 2
    if len(value) != 2:
        raise ValueError(f"{op}: {name} must be an int or a pair of ints, got {value}")
    return value


def _out_size(size, kernel, stride, dilation, pad_before, pad_after):
    return (size + pad_before + pad_after - dilation * (kernel - 1) - 1) // stride + 1


def _check_positive(op, **pairs):
    for name, value in pairs.items():
        if any(v < 1 for v in value):
            raise ValueError(f"{op}: {name} must be positive, got {value}")


def _check_window(op, in_hw, kernel, stride, dilation, pads):
    """The (dilated) window must fit in the padded input at least once."""
    oh = _out_size(in_hw[0], kernel[0], stride[0], dilation[0], pads[0], pads[1])
    ow = _out_size(in_hw[1], kernel[1], stride[1], dilation[1], pads[2], pads[3])
    if oh <= 0 or ow <= 0:
        raise ValueError(f"{op}: kernel {kernel[0]}x{kernel[1]} (dilation {dilation}) is "
                         f"larger than the padded input {in_hw[0]}x{in_hw[1]} (padding {pads})")


def resolve_padding(pad_mode, padding, in_hw, kernel, stride, dilation, op):
    """(top, bottom, left, right) from MindSpore's pad_mode / padding arguments."""
    pad_mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if pad_mode == "valid":
        if padding not in (0, (0, 0), (0, 0, 0, 0)):
            raise ValueError(f"{op}: padding must be 0 when pad_mode is 'valid', got {padding}")
        return (0, 0, 0, 0)
    if pad_mode == "same":
        pads = []
        for size, k, s, d in zip(in_hw, kernel, stride, dilation):
            total = max((math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size, 0)
            pads += [total // 2, total - total // 2]
        return tuple(pads)
    if pad_mode == "pad":
        if isinstance(padding, (int, np.integer)):
            padding = (int(padding),) * 4
        padding = tuple(int(p) for p in padding)
        if len(padding) == 2:
            padding = (padding[0], padding[0], padding[1], padding[1])
        if len(padding) != 4:
            raise ValueError(f"{op}: padding must be an int, 2 ints or 4 ints, got {padding}")
        if any(p < 0 for p in padding):
            raise ValueError(f"{op}: padding must be non-negative, got {padding}")
        return padding
    raise ValueError(f"{op}: pad_mode must be 'pad', 'same' or 'valid', got {pad_mode!r}")


def window_view(x, kernel, stride, padding, dilation, pad_value=0):
    """(N, C, OH, OW, KH, KW) strided view of the (padded) input: no copy."""
    top, bottom, left, right = padding
    if any(padding):
        x = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)),
                   constant_values=pad_value)
    n, c, h, w = x.shape
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    oh = (h - dh * (kh - 1) - 1) // sh + 1
    ow = (w - dw * (kw - 1) - 1) // sw + 1
    if oh <= 0 or ow <= 0:
        raise ValueError("the window is larger than the padded input")
    s = x.strides
    return np.lib.stride_tricks.as_strided(
        x, (n, c, oh, ow, kh, kw), (s[0], s[1], s[2] * sh, s[3] * sw, s[2] * dh, s[3] * dw),
        writeable=False)


def _col2im(cols, x_shape, kernel, stride, padding, dilation):
    """Sum (N, C, OH, OW, KH, KW) windows back into an (N, C, H, W) array."""
    n, c, h, w = x_shape
    top, bottom, left, right = padding
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    oh, ow = cols.shape[2], cols.shape[3]
    out = np.zeros((n, c, h + top + bottom, w + left + right), cols.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                j * dw:j * dw + sw * (ow - 1) + 1:sw] += cols[:, :, :, :, i, j]
    return out[:, :, top:top + h, left:left + w]


# ---------------------------------------------------------------------------------------
# convolution kernels

def _padded(x, padding):
    top, bottom, left, right = padding
    if not any(padding):
        return x
    n, c, h, w = x.shape
    xp = np.zeros((n, c, h + top + bottom, w + left + right), x.dtype)
    xp[:, :, top:top + h, left:left + w] = x
    return xp


def _im2col(x, kernel, stride, padding, dilation):
    """(N, C*KH*KW, OH*OW) columns, built with KH*KW strided slice copies (rows of the
    result are contiguous, so the GEMM reads them at full speed)."""
    xp = _padded(x, padding)
    n, c, hp, wp = xp.shape
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    oh = (hp - dh * (kh - 1) - 1) // sh + 1
    ow = (wp - dw * (kw - 1) - 1) // sw + 1
    if kh == kw == 1 and sh == sw == 1:
        return xp.reshape(n, c, hp * wp), oh, ow
    cols = np.empty((n, c, kh, kw, oh, ow), x.dtype)
    for i in range(kh):
        for j in range(kw):
            cols[:, :, i, j] = xp[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                                  j * dw:j * dw + sw * (ow - 1) + 1:sw]
    return cols.reshape(n, c * kh * kw, oh * ow), oh, ow


def _col2im_rows(cols, x_shape, kernel, stride, padding, dilation, oh, ow):
    """Transpose of ``_im2col``: sum (N, C*KH*KW, OH*OW) columns into (N, C, H, W)."""
    n, c, h, w = x_shape
    top, bottom, left, right = padding
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    cols = cols.reshape(n, c, kh, kw, oh, ow)
    if kh == kw == 1 and sh == sw == 1 and not any(padding):
        return cols.reshape(n, c, h, w)
    out = np.zeros((n, c, h + top + bottom, w + left + right), cols.dtype)
    for i in range(kh):
        for j in range(kw):
            out[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                j * dw:j * dw + sw * (ow - 1) + 1:sw] += cols[:, :, i, j]
    return out[:, :, top:top + h, left:left + w]


@accumulate_in_float32
def _conv_impl(x, w, stride, padding, dilation, groups):
    if conv_select.fast_path(x, w, groups):
        return conv_select.forward(x, w, stride, padding, dilation)
    n = x.shape[0]
    o, cg, kh, kw = w.shape
    cols, oh, ow = _im2col(x, (kh, kw), stride, padding, dilation)
    og = o // groups
    k = cg * kh * kw
    if groups == 1:
        out = blas.matmul(w.reshape(o, k), cols)
    else:
        out = np.empty((n, o, oh * ow), x.dtype)
        for g in range(groups):
            out[:, g * og:(g + 1) * og] = blas.matmul(w[g * og:(g + 1) * og].reshape(og, k),
                                                      cols[:, g * k:(g + 1) * k])
    return out.reshape(n, o, oh, ow).astype(x.dtype, copy=False)


@accumulate_in_float32
def _conv_input_grad_impl(dy, w, x_shape, stride, padding, dilation, groups):
    if conv_select.fast_path(dy, w, groups):
        return conv_select.input_grad(dy, w, x_shape, stride, padding, dilation)
    n, _, oh, ow = dy.shape
    o, cg, kh, kw = w.shape
    og = o // groups
    k = cg * kh * kw
    rows = dy.reshape(n, o, oh * ow)
    if groups == 1:
        cols = blas.matmul(w.reshape(o, k).T, rows)
    else:
        cols = np.empty((n, groups * k, oh * ow), dy.dtype)
        for g in range(groups):
            cols[:, g * k:(g + 1) * k] = blas.matmul(w[g * og:(g + 1) * og].reshape(og, k).T,
                                                     rows[:, g * og:(g + 1) * og])
    dx = _col2im_rows(cols.astype(dy.dtype, copy=False), x_shape, (kh, kw), stride, padding,
                      dilation, oh, ow)
    return np.ascontiguousarray(dx)


@accumulate_in_float32
def _conv_weight_grad_impl(x, dy, w_shape, stride, padding, dilation, groups):
    if conv_select.fast_path(x, dy, groups):
        return conv_select.weight_grad(x, dy, w_shape, stride, padding, dilation)
    n, _, oh, ow = dy.shape
    o, cg, kh, kw = w_shape
    og = o // groups
    k = cg * kh * kw
    cols, _, _ = _im2col(x, (kh, kw), stride, padding, dilation)
    rows = dy.reshape(n, o, oh * ow)
    dw = np.empty((o, k), x.dtype)
    for g in range(groups):
        part = blas.matmul(rows[:, g * og:(g + 1) * og],
                           cols[:, g * k:(g + 1) * k].transpose(0, 2, 1))
        dw[g * og:(g + 1) * og] = part[0] if n == 1 else part.sum(axis=0, dtype=x.dtype)
    return dw.reshape(w_shape)


def _conv_out_shape(op, x_shape, w_shape, stride, padding, dilation, groups):
    n, c, h, w = x_shape
    o, cg, kh, kw = w_shape
    if groups < 1 or c % groups or o % groups or cg != c // groups:
        raise ValueError(f"{op}: input with {c} channels, weight {tuple(w_shape)} and "
                         f"groups={groups} do not fit (weight must be (out, in/groups, kh, kw))")
    _check_window(op, (h, w), (kh, kw), stride, dilation, padding)
    oh = _out_size(h, kh, stride[0], dilation[0], padding[0], padding[1])
    ow = _out_size(w, kw, stride[1], dilation[1], padding[2], padding[3])
    return (n, o, oh, ow)


def _check_conv_operands(op, x, w):
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"{op}: expected a 4-D NCHW input and a 4-D weight, got {x} and {w}")
    if x.dtype != w.dtype:
        raise TypeError(f"{op}: input and weight dtypes differ ({x} and {w})")


def _conv_rule(x, w, stride, padding, dilation, groups):
    _check_conv_operands("conv2d", x, w)
    return ShapedArray(_conv_out_shape("conv2d", x.shape, w.shape, stride, padding, dilation,
                                       groups), x.dtype)


def _conv_input_grad_rule(dy, w, x_shape, stride, padding, dilation, groups):
    _check_conv_operands("conv2d_input_grad", dy, w)
    expected = _conv_out_shape("conv2d_input_grad", x_shape, w.shape, stride, padding,
                               dilation, groups)
    if tuple(dy.shape) != expected:
        raise ValueError(f"conv2d_input_grad: gradient {dy} does not match output {expected}")
    return ShapedArray(x_shape, dy.dtype)


def _conv_weight_grad_rule(x, dy, w_shape, stride, padding, dilation, groups):
    _check_conv_operands("conv2d_weight_grad", x, dy)
    expected = _conv_out_shape("conv2d_weight_grad", x.shape, w_shape, stride, padding,
                               dilation, groups)
    if tuple(dy.shape) != expected:
        raise ValueError(f"conv2d_weight_grad: gradient {dy} does not match output {expected}")
    return ShapedArray(w_shape, x.dtype)


def _conv_vjp(ct, out, x, w, **geometry):
    return (conv2d_input_grad_p.bind(ct, w, x_shape=tuple(x.shape), **geometry),
            conv2d_weight_grad_p.bind(x, ct, w_shape=tuple(w.shape), **geometry))


def _conv_input_grad_vjp(ct, out, dy, w, x_shape, **geometry):
    return (conv2d_p.bind(ct, w, **geometry),
            conv2d_weight_grad_p.bind(ct, dy, w_shape=tuple(w.shape), **geometry))


def _conv_weight_grad_vjp(ct, out, x, dy, w_shape, **geometry):
    return (conv2d_input_grad_p.bind(dy, ct, x_shape=tuple(x.shape), **geometry),
            conv2d_p.bind(x, ct, **geometry))


# Batching: a batch of inputs with one weight folds into the images axis N; a batch of
# weights (ensembles, per-example weight gradients) becomes B times the groups, the batch
# laid out in the channel axis: (N, B*C, H, W) with weights (B*O, C/groups, kh, kw).

def _batch_into_channels(t, dim, size):
    t = batching.moveaxis(batching.materialize(t, dim, size), 0, 1)
    shape = tuple(t.shape)
    return t.reshape((shape[0], shape[1] * shape[2]) + shape[3:])


def _split_channels(t, size):
    """(N, B*C, ...) -> (N, B, C, ...): the batch at axis 1."""
    shape = tuple(t.shape)
    return t.reshape((shape[0], size, shape[1] // size) + shape[2:])


def _batch_into_outputs(w, dim, size):
    w = batching.materialize(w, dim, size)
    shape = tuple(w.shape)
    return w.reshape((shape[0] * shape[1],) + shape[2:])


def _conv_batch(prim, dims, x, w, groups, **geometry):
    dx, dw = dims
    if dw is None:
        rows, size = batching.fold_leading(x, dx)
        return batching.unfold_leading(prim.bind(rows, w, groups=groups, **geometry), size), 0
    size = batching.batch_size((x, w), dims)
    out = prim.bind(_batch_into_channels(x, dx, size), _batch_into_outputs(w, dw, size),
                    groups=groups * size, **geometry)
    return _split_channels(out, size), 1


def _conv_input_grad_batch(prim, dims, dy, w, x_shape, groups, **geometry):
    ddy, dw = dims
    if dw is None:
        rows, size = batching.fold_leading(dy, ddy)
        x_shape = (size * x_shape[0],) + tuple(x_shape[1:])
        out = prim.bind(rows, w, x_shape=x_shape, groups=groups, **geometry)
        return batching.unfold_leading(out, size), 0
    size = batching.batch_size((dy, w), dims)
    n, c, h, wd = x_shape
    out = prim.bind(_batch_into_channels(dy, ddy, size), _batch_into_outputs(w, dw, size),
                    x_shape=(n, size * c, h, wd), groups=groups * size, **geometry)
    return _split_channels(out, size), 1


def _conv_weight_grad_batch(prim, dims, x, dy, w_shape, groups, **geometry):
    size = batching.batch_size((x, dy), dims)
    out = prim.bind(_batch_into_channels(x, dims[0], size),
                    _batch_into_channels(dy, dims[1], size),
                    w_shape=(size * w_shape[0],) + tuple(w_shape[1:]), groups=groups * size,
                    **geometry)
    return out.reshape((size,) + tuple(w_shape)), 0


conv2d_p = Primitive("conv2d", _conv_impl, _conv_rule, _conv_vjp, shape_generic=False,
                     aliasing=FRESH, batch=_conv_batch)
conv2d_input_grad_p = Primitive("conv2d_input_grad", _conv_input_grad_impl,
                                _conv_input_grad_rule, _conv_input_grad_vjp,
                                shape_generic=False, aliasing=FRESH,
                                batch=_conv_input_grad_batch)
conv2d_weight_grad_p = Primitive("conv2d_weight_grad", _conv_weight_grad_impl,
                                 _conv_weight_grad_rule, _conv_weight_grad_vjp,
                                 shape_generic=False, aliasing=FRESH,
                                 batch=_conv_weight_grad_batch)


def conv2d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """MindSpore ``ops.conv2d`` (NCHW input, (out, in/groups, kh, kw) weight)."""
    x = coerce.as_tensor(input, op="conv2d")
    w = coerce.as_tensor(weight, op="conv2d")
    _check_float("conv2d", x, w)
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"conv2d: expected a 4-D NCHW input and a 4-D weight, got shapes "
                         f"{tuple(x.shape)} and {tuple(w.shape)}")
    if x.dtype != w.dtype:
        d = dt.promote_types(x.dtype, w.dtype)
        x, w = _ew.cast(x, d), _ew.cast(w, d)
    stride = _pair(stride, "stride", "conv2d")
    dilation = _pair(dilation, "dilation", "conv2d")
    _check_positive("conv2d", stride=stride, dilation=dilation)
    kernel = tuple(w.shape[2:])
    pads = resolve_padding(pad_mode, padding, tuple(x.shape[2:]), kernel, stride, dilation,
                           "conv2d")
    _conv_out_shape("conv2d", x.shape, w.shape, stride, pads, dilation, int(groups))
    if bias is not None:
        bias = coerce.as_tensor(bias, op="conv2d")
        if tuple(bias.shape) != (w.shape[0],):
            raise ValueError(f"conv2d: bias must have shape ({w.shape[0]},) for weight of "
                             f"shape {tuple(w.shape)}, got {tuple(bias.shape)}")
    out = conv2d_p.bind(x, w, stride=stride, padding=pads, dilation=dilation,
                        groups=int(groups))
    if bias is not None:
        from .shape import reshape
        out = _ew.add(out, reshape(bias, (1, -1, 1, 1)))
    return out


# ---------------------------------------------------------------------------------------
# window extraction (unfold) and its transpose (fold), for pooling

def _unfold_rule(x, kernel, stride, padding, dilation, pad_value):
    if x.ndim != 4:
        raise ValueError(f"pool: expected a 4-D NCHW input, got {x}")
    n, c, h, w = x.shape
    oh = _out_size(h, kernel[0], stride[0], dilation[0], padding[0], padding[1])
    ow = _out_size(w, kernel[1], stride[1], dilation[1], padding[2], padding[3])
    if oh <= 0 or ow <= 0:
        raise ValueError(f"pool: window {kernel} is larger than the padded input {h}x{w}")
    return x.update(shape=(n, c, oh, ow) + tuple(kernel))


def _unfold_impl(x, kernel, stride, padding, dilation, pad_value):
    return window_view(x, kernel, stride, padding, dilation, pad_value)


def _unfold_vjp(ct, out, x, kernel, stride, padding, dilation, pad_value):
    return (fold_p.bind(ct, x_shape=tuple(x.shape), kernel=kernel, stride=stride,
                        padding=padding, dilation=dilation),)


def _fold_rule(cols, x_shape, kernel, stride, padding, dilation):
    return ShapedArray(x_shape, cols.dtype)


def _fold_impl(cols, x_shape, kernel, stride, padding, dilation):
    return np.ascontiguousarray(_col2im(cols, x_shape, kernel, stride, padding, dilation))


def _fold_vjp(ct, out, cols, x_shape, kernel, stride, padding, dilation):
    return (unfold_p.bind(ct, kernel=kernel, stride=stride, padding=padding,
                          dilation=dilation, pad_value=0),)


# sliding windows: a strided view of the (padded) input
def _unfold_batch(prim, dims, x, **params):
    rows, size = batching.fold_leading(x, dims[0])
    return batching.unfold_leading(prim.bind(rows, **params), size), 0


def _fold_batch(prim, dims, cols, x_shape, **params):
    rows, size = batching.fold_leading(cols, dims[0])
    out = prim.bind(rows, x_shape=(size * x_shape[0],) + tuple(x_shape[1:]), **params)
    return batching.unfold_leading(out, size), 0


unfold_p = Primitive("unfold", _unfold_impl, _unfold_rule, _unfold_vjp, shape_generic=False,
                     aliasing=VIEW, batch=_unfold_batch)
fold_p = Primitive("fold", _fold_impl, _fold_rule, _fold_vjp, shape_generic=False,
                   aliasing=FRESH, batch=_fold_batch)


def _pool_geometry(x, kernel_size, stride, pad_mode, padding, dilation, op):
    kernel = _pair(kernel_size, "kernel_size", op)
    stride = kernel if stride is None else _pair(stride, "stride", op)
    dilation = _pair(dilation, "dilation", op)
    if x.ndim != 4:
        raise ValueError(f"{op}: expected a 4-D NCHW input, got shape {tuple(x.shape)}")
    _check_positive(op, kernel_size=kernel, stride=stride, dilation=dilation)
    pads = resolve_padding(pad_mode, padding, tuple(x.shape[2:]), kernel, stride, dilation, op)
    _check_window(op, tuple(x.shape[2:]), kernel, stride, dilation, pads)
    return dict(kernel=kernel, stride=stride, padding=pads, dilation=dilation)


def _check_float(op, *tensors):
    """Convolution and average pooling are defined on floats (MindSpore, PyTorch)."""
    for t in tensors:
        if not dt.is_float(t.dtype):
            raise TypeError(f"{op}: expected floating-point tensors, got {t.dtype}")


def max_pool2d(x, kernel_size=1, stride=None, pad_mode="valid", padding=0, dilation=1):
    x = coerce.as_tensor(x, op="max_pool2d")
    if x.dtype == dt.bool_:
        raise TypeError("max_pool2d: not defined for bool tensors")
    geometry = _pool_geometry(x, kernel_size, stride, pad_mode, padding, dilation, "max_pool2d")
    pad_value = -np.inf if dt.is_float(x.dtype) else np.iinfo(x.dtype).min
    windows = unfold_p.bind(x, pad_value=pad_value, **geometry)
    return _red.amax(windows, (-2, -1))


def avg_pool2d(x, kernel_size=1, stride=None, pad_mode="valid", padding=0,
               count_include_pad=True, divisor_override=None):
    x = coerce.as_tensor(x, op="avg_pool2d")
    _check_float("avg_pool2d", x)
    geometry = _pool_geometry(x, kernel_size, stride, pad_mode, padding, 1, "avg_pool2d")
    windows = unfold_p.bind(x, pad_value=0, **geometry)
    total = _red.sum(windows, (-2, -1))
    if divisor_override:
        return _ew.div(total, float(divisor_override))
    if count_include_pad or not any(geometry["padding"]):
        kh, kw = geometry["kernel"]
        return _ew.mul(total, 1.0 / (kh * kw))
    ones = np.ones((1, 1) + tuple(x.shape[2:]), x.dtype)
    counts = window_view(ones, geometry["kernel"], geometry["stride"], geometry["padding"],
                      geometry["dilation"]).sum(axis=(-2, -1))
    return _ew.div(total, coerce.constant(counts, x.dtype))


def adaptive_avg_pool2d(input, output_size):
    """Average an (N, C, H, W) or (C, H, W) float tensor to ``output_size`` (an int or
    2 ints / None: None keeps that size): output (i, j) averages rows floor(i * H / oh)
    to ceil((i + 1) * H / oh) - 1 and likewise columns.

    >>> import tensorjit as ms
    >>> print(ms.ops.adaptive_avg_pool2d(ms.ops.ones((1, 2, 5, 7)), (2, None)).shape)
    (1, 2, 2, 7)
    """
    x = coerce.as_tensor(input, op="adaptive_avg_pool2d")
    _check_float("adaptive_avg_pool2d", x)
    sizes = output_size if isinstance(output_size, (tuple, list)) else (output_size,)
    if x.ndim == 4 and None not in sizes:
        oh, ow = _pair(output_size, "output_size", "adaptive_avg_pool2d")
        h, w = x.shape[2], x.shape[3]
        if (oh, ow) == (1, 1):
            return _red.mean(x, (2, 3), keep_dims=True)
        if h % oh == 0 and w % ow == 0:
            return avg_pool2d(x, (h // oh, w // ow), (h // oh, w // ow))
    # uneven windows, None sizes, an unbatched input: pooling of any rank, axis by axis
    from .adaptive_pooling import adaptive_pool
    return adaptive_pool("adaptive_avg_pool2d", x, output_size, 2, "avg", unbatched=True)
