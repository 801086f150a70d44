"""1-D, 3-D and transposed convolutions and patch extraction, built on the 2-D convolution
primitives of ``conv.py`` (so they differentiate, and differentiate again, through those):

* ``conv1d``: a 2-D convolution over a height-1 image;
* ``conv3d``: one 2-D convolution per kernel depth over the output depths folded into the
  batch, summed;
* ``conv_transpose2d``: the adjoint of a 2-D convolution, which is exactly the
  convolution's input gradient (``conv2d_input_grad``) for the output shape;
* ``unfold`` (PyTorch / ``ops.unfold`` layout) and ``extract_patches`` (``nn.Unfold``'s
  layout) from the window-extraction primitive.
"""
import math

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import shape as _shape
from .conv import (conv2d, conv2d_input_grad_p, unfold_p, resolve_padding, _pair,
                   _check_positive, _check_float)


def _tuple(value, n, name, op):
    if isinstance(value, int):
        return (value,) * n
    value = tuple(int(v) for v in value)
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise ValueError(f"{op}: {name} must be an int or {n} ints, got {value}")
    return value


def _bias_shape(ndim):
    return (1, -1) + (1,) * (ndim - 2)


def conv1d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """``ops.conv1d``: (N, C, L) input, (out, in/groups, k) weight (or MindSpore's
    ``nn.Conv1d`` layout (out, in/groups, 1, k))."""
    x = coerce.as_tensor(input, op="conv1d")
    w = coerce.as_tensor(weight, op="conv1d")
    if x.ndim != 3:
        raise ValueError(f"conv1d: expected an (N, C, L) input, got shape {tuple(x.shape)}")
    if w.ndim == 3:
        w = _shape.expand_dims(w, 2)
    elif w.ndim != 4 or w.shape[2] != 1:
        raise ValueError(f"conv1d: expected an (out, in/groups, k) weight, got shape "
                         f"{tuple(w.shape)}")
    if isinstance(padding, (tuple, list)):
        if len(padding) not in (1, 2):
            raise ValueError(f"conv1d: padding must be an int or 2 ints, got {padding}")
        padding = (0, 0) + tuple(padding) * (3 - len(padding))
    else:
        padding = (0, 0, padding, padding)
    stride = _tuple(stride, 1, "stride", "conv1d")[0]
    dilation = _tuple(dilation, 1, "dilation", "conv1d")[0]
    out = conv2d(_shape.expand_dims(x, 2), w, bias, (1, stride), pad_mode,
                 padding if pad_mode == "pad" else 0, (1, dilation), groups)
    return _shape.squeeze(out, 2)


def _same_pads(sizes, kernel, stride, dilation):
    pads = []
    for size, k, s, d in zip(sizes, kernel, stride, dilation):
        total = max((math.ceil(size / s) - 1) * s + (k - 1) * d + 1 - size, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def conv3d(input, weight, bias=None, stride=1, pad_mode="valid", padding=0, dilation=1,
           groups=1):
    """``ops.conv3d``: (N, C, D, H, W) input, (out, in/groups, kd, kh, kw) weight."""
    x = coerce.as_tensor(input, op="conv3d")
    w = coerce.as_tensor(weight, op="conv3d")
    if x.ndim != 5 or w.ndim != 5:
        raise ValueError(f"conv3d: expected a 5-D NCDHW input and a 5-D weight, got shapes "
                         f"{tuple(x.shape)} and {tuple(w.shape)}")
    if x.dtype != w.dtype:
        d = dt.promote_types(x.dtype, w.dtype)
        x, w = _ew.cast(x, d), _ew.cast(w, d)
    stride = _tuple(stride, 3, "stride", "conv3d")
    dilation = _tuple(dilation, 3, "dilation", "conv3d")
    _check_positive("conv3d", stride=stride, dilation=dilation)
    kernel = tuple(w.shape[2:])
    if pad_mode == "same":
        pads = _same_pads(tuple(x.shape[2:]), kernel, stride, dilation)
    elif pad_mode == "valid":
        pads = [(0, 0)] * 3
    elif pad_mode == "pad":
        p = _tuple(padding, 3, "padding", "conv3d") if not (
            isinstance(padding, (tuple, list)) and len(padding) == 6) else padding
        pads = [(p[0], p[0]), (p[1], p[1]), (p[2], p[2])] if len(p) == 3 else \
            [(p[0], p[1]), (p[2], p[3]), (p[4], p[5])]
    else:
        raise ValueError(f"conv3d: pad_mode must be 'pad', 'same' or 'valid', got "
                         f"{pad_mode!r}")
    (d0, d1), hw_pads = pads[0], (pads[1][0], pads[1][1], pads[2][0], pads[2][1])
    if d0 or d1:
        x = _shape.pad(x, (0, 0, 0, 0, d0, d1))
    n, c, depth = x.shape[0], x.shape[1], x.shape[2]
    kd, sd, dd = kernel[0], stride[0], dilation[0]
    out_depth = (depth - dd * (kd - 1) - 1) // sd + 1
    if out_depth <= 0:
        raise ValueError(f"conv3d: kernel depth {kd} (dilation {dd}) is larger than the "
                         f"padded input depth {depth}")
    total = None
    for i in range(kd):
        start = i * dd
        planes = _shape.slice_axis(x, 2, start, start + sd * (out_depth - 1) + 1, sd)
        batch = _shape.reshape(_shape.movedim(planes, 2, 1),
                               (n * out_depth, c) + tuple(x.shape[3:]))
        part = conv2d(batch, w[:, :, i], None, stride[1:], "pad", hw_pads, dilation[1:],
                      groups)
        total = part if total is None else _ew.add(total, part)
    out = _shape.movedim(_shape.reshape(total, (n, out_depth) + tuple(total.shape[1:])), 1, 2)
    if bias is not None:
        out = _ew.add(out, _shape.reshape(coerce.as_tensor(bias, out.dtype), _bias_shape(5)))
    return out


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0,
                     groups=1, dilation=1):
    """Transposed 2-D convolution (the adjoint of ``conv2d``): (N, C_in, H, W) input,
    (C_in, C_out/groups, kh, kw) weight. ``padding`` is an int, (ph, pw) or
    (top, bottom, left, right); the output is
    ``(H - 1) * stride - top - bottom + dilation * (kh - 1) + 1 + output_padding``."""
    x = coerce.as_tensor(input, op="conv_transpose2d")
    w = coerce.as_tensor(weight, op="conv_transpose2d")
    _check_float("conv_transpose2d", x, w)
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"conv_transpose2d: expected a 4-D NCHW input and a 4-D weight, got "
                         f"shapes {tuple(x.shape)} and {tuple(w.shape)}")
    if x.dtype != w.dtype:
        d = dt.promote_types(x.dtype, w.dtype)
        x, w = _ew.cast(x, d), _ew.cast(w, d)
    if x.shape[1] != w.shape[0]:
        raise ValueError(f"conv_transpose2d: input has {x.shape[1]} channels but the weight "
                         f"{tuple(w.shape)} expects {w.shape[0]}")
    stride = _pair(stride, "stride", "conv_transpose2d")
    dilation = _pair(dilation, "dilation", "conv_transpose2d")
    extra = _pair(output_padding, "output_padding", "conv_transpose2d")
    _check_positive("conv_transpose2d", stride=stride, dilation=dilation)
    if isinstance(padding, int):
        padding = (padding,) * 4
    padding = tuple(int(p) for p in padding)
    if len(padding) == 2:
        padding = (padding[0], padding[0], padding[1], padding[1])
    if len(padding) != 4 or min(padding) < 0:
        raise ValueError(f"conv_transpose2d: padding must be non-negative: an int, 2 or 4 "
                         f"ints, got {padding}")
    if any(e < 0 or e >= max(s, d) for e, s, d in zip(extra, stride, dilation)):
        raise ValueError(f"conv_transpose2d: output_padding {extra} must be smaller than "
                         f"the stride {stride} or the dilation {dilation}")
    kh, kw = w.shape[2], w.shape[3]
    out_h = (x.shape[2] - 1) * stride[0] - padding[0] - padding[1] + dilation[0] * (kh - 1) \
        + 1 + extra[0]
    out_w = (x.shape[3] - 1) * stride[1] - padding[2] - padding[3] + dilation[1] * (kw - 1) \
        + 1 + extra[1]
    if out_h <= 0 or out_w <= 0:
        raise ValueError(f"conv_transpose2d: the padding {padding} leaves no output for input "
                         f"shape {tuple(x.shape)}")
    out_shape = (x.shape[0], w.shape[1] * int(groups), out_h, out_w)
    # the conv whose input gradient this is pads the *output* of the transpose
    out = conv2d_input_grad_p.bind(x, w, x_shape=out_shape, stride=stride, padding=padding,
                                   dilation=dilation, groups=int(groups))
    if bias is not None:
        out = _ew.add(out, _shape.reshape(coerce.as_tensor(bias, out.dtype), _bias_shape(4)))
    return out


def _windows(x, kernel_size, dilation, padding, stride, op):
    kernel = _pair(kernel_size, "kernel_size", op)
    dilation = _pair(dilation, "dilation", op)
    stride = _pair(stride, "stride", op)
    _check_positive(op, kernel_size=kernel, stride=stride, dilation=dilation)
    if isinstance(padding, int):
        padding = (padding, padding)
    padding = tuple(int(p) for p in padding)
    pads = padding if len(padding) == 4 else (padding[0], padding[0], padding[1], padding[1])
    return unfold_p.bind(x, kernel=kernel, stride=stride, padding=pads, dilation=dilation,
                         pad_value=0)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding local blocks (im2col): (N, C, H, W) -> (N, C * kh * kw, L), the channel
    slowest in the second axis (``ops.unfold``, ``torch.nn.functional.unfold``)."""
    x = coerce.as_tensor(input, op="unfold")
    if x.ndim != 4:
        raise ValueError(f"unfold: expected a 4-D NCHW input, got shape {tuple(x.shape)}")
    win = _windows(x, kernel_size, dilation, padding, stride, "unfold")   # N C OH OW KH KW
    n, c, oh, ow, kh, kw = win.shape
    return _shape.reshape(_shape.transpose(win, (0, 1, 4, 5, 2, 3)), (n, c * kh * kw, oh * ow))


def extract_patches(input, ksizes, strides, rates, padding="valid"):
    """MindSpore ``nn.Unfold`` / ExtractImagePatches: (N, C, H, W) ->
    (N, kh * kw * C, OH, OW), the channel fastest in the second axis. ``ksizes``,
    ``strides`` and ``rates`` are [1, h, w, 1]; ``padding`` 'same' or 'valid'."""
    x = coerce.as_tensor(input, op="Unfold")
    if x.ndim != 4:
        raise ValueError(f"Unfold: expected a 4-D NCHW input, got shape {tuple(x.shape)}")
    kernel, stride, rate = (tuple(v[1:3]) for v in (ksizes, strides, rates))
    pads = resolve_padding(padding, 0, tuple(x.shape[2:]), kernel, stride, rate, "Unfold")
    win = unfold_p.bind(x, kernel=kernel, stride=stride, padding=pads, dilation=rate,
                        pad_value=0)
    n, c, oh, ow, kh, kw = win.shape
    return _shape.reshape(_shape.transpose(win, (0, 4, 5, 1, 2, 3)), (n, kh * kw * c, oh, ow))

