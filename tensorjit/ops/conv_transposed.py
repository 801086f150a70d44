"""The 3-D transposed convolution and MindSpore's convolution classes over the existing
convolutions (``Conv3D``, ``Conv2DTranspose`` / ``Conv2DBackpropInput``,
``Conv3DTranspose``):

* ``conv3d_transpose`` is the adjoint of ``conv3d``: the input spread by the stride (zeros
  between its elements), padded by ``dilation * (k - 1) - pad`` on each side, convolved
  (stride 1) with the flipped kernel whose in / out channels are swapped -- so it
  differentiates through ``conv3d`` and the layout ops;
* ``Conv2DTranspose`` is the input gradient of the 2-D convolution (``conv2d_input_grad``)
  for the given input size.
"""
from . import coerce
from . import elementwise as _ew
from . import shape as _shape
from .conv import conv2d, conv2d_input_grad_p, resolve_padding, _check_float
from .convolutions import conv3d, _tuple

__all__ = ["conv3d_transpose", "compute_conv3d", "compute_conv2d_transpose",
           "compute_conv3d_transpose", "compute_depthwise_conv2d_native"]

_FORMAT = {2: "NCHW", 3: "NCDHW"}


def _check_format(op, data_format, rank):
    if data_format != _FORMAT[rank]:
        raise ValueError(f"{op}: only data_format='{_FORMAT[rank]}' is supported, got "
                         f"{data_format!r}")


def _spatial(value, rank, name, op):
    """An int, ``rank`` ints or ``rank + 2`` ints (MindSpore's (1, 1, ...) form)."""
    if isinstance(value, (tuple, list)) and len(value) == rank + 2:
        value = tuple(value[2:])
    values = _tuple(value, rank, name, op)
    if min(values) < 1:
        raise ValueError(f"{op}: '{name}' must be positive, got {value!r}")
    return values


def _pads(pad_mode, pad, rank, op):
    """(before, after) per spatial axis for 'pad'; 'same' / 'valid' need pad 0."""
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode not in ("pad", "same", "valid"):
        raise ValueError(f"{op}: 'pad_mode' must be 'pad', 'same' or 'valid', got {pad_mode!r}")
    values = (pad,) * (2 * rank) if isinstance(pad, int) else tuple(pad)
    if len(values) != 2 * rank or min(values) < 0:
        raise ValueError(f"{op}: 'pad' must be a non-negative int or {2 * rank} of them, got "
                         f"{pad!r}")
    if mode != "pad" and any(values):
        raise ValueError(f"{op}: 'pad' must be 0 when 'pad_mode' is not 'pad', got {pad!r}")
    return mode, [(values[2 * i], values[2 * i + 1]) for i in range(rank)]


def _spread(x, axis, stride):
    """Insert ``stride - 1`` zeros between the elements along ``axis``."""
    if stride == 1 or x.shape[axis] == 0:
        return x
    moved = _shape.movedim(x, axis, -1)
    zeros = _ew.zeros_like(moved)
    parts = [_shape.expand_dims(moved, -1)] + [_shape.expand_dims(zeros, -1)] * (stride - 1)
    woven = _shape.reshape(_shape.concat(parts, -1), tuple(moved.shape[:-1]) +
                           (moved.shape[-1] * stride,))
    woven = _shape.slice_axis(woven, woven.ndim - 1, 0, (moved.shape[-1] - 1) * stride + 1)
    return _shape.movedim(woven, -1, axis)


def _pad_or_crop(x, axis, before, after):
    """Pad (positive) or crop (negative) the two ends of ``axis``."""
    if before < 0 or after < 0:
        x = _shape.slice_axis(x, axis, max(-before, 0), x.shape[axis] - max(-after, 0))
        before, after = max(before, 0), max(after, 0)
    if before or after:
        widths = [0, 0] * (x.ndim - 1 - axis) + [before, after]
        x = _shape.pad(x, tuple(widths))
    return x


def _transposed_conv3d(x, w, stride, pads, dilation, groups, output_padding, op):
    """The 3-D transposed convolution (see the module's docstring)."""
    _check_float(op, x, w)
    if x.ndim != 5 or w.ndim != 5:
        raise ValueError(f"{op}: expected a 5-D NCDHW input and a 5-D weight, got shapes "
                         f"{tuple(x.shape)} and {tuple(w.shape)}")
    if x.dtype != w.dtype:
        raise TypeError(f"{op}: the input and the weight must have one dtype, got {x.dtype} "
                        f"and {w.dtype}")
    c_in = x.shape[1]
    if w.shape[0] != c_in or c_in % groups:
        raise ValueError(f"{op}: the weight {tuple(w.shape)} must have the input's {c_in} "
                         f"channels first, divisible by group {groups}")
    kernel = tuple(w.shape[2:])
    if any(e < 0 or e >= max(s, d) for e, s, d in zip(output_padding, stride, dilation)):
        raise ValueError(f"{op}: 'output_padding' {output_padding} must be smaller than the "
                         f"stride {stride} or the dilation {dilation}")
    out = x
    for i in range(3):
        out = _spread(out, 2 + i, stride[i])
        edge = dilation[i] * (kernel[i] - 1)
        out = _pad_or_crop(out, 2 + i, edge - pads[i][0], edge - pads[i][1] + output_padding[i])
        if out.shape[2 + i] < edge + 1:
            raise ValueError(f"{op}: the padding {pads} leaves no output for input shape "
                             f"{tuple(x.shape)}")
    # (C_in, C_out/g, k) -> (C_out, C_in/g, k), flipped: the kernel of the adjoint
    c_out_g = w.shape[1]
    grouped = _shape.reshape(w, (groups, c_in // groups, c_out_g) + kernel)
    swapped = _shape.reshape(_shape.transpose(grouped, (0, 2, 1, 3, 4, 5)),
                             (groups * c_out_g, c_in // groups) + kernel)
    return conv3d(out, _shape.flip(swapped, (2, 3, 4)), None, 1, "valid", 0, dilation, groups)


def conv3d_transpose(inputs, weight, pad_mode="valid", padding=0, stride=1, dilation=1,
                     group=1, output_padding=0):
    """``ops.conv3d_transpose``: (N, C_in, D, H, W) input, (C_in, C_out / group, kd, kh,
    kw) weight; each output size is ``(in - 1) * stride + dilation * (k - 1) + 1 -
    pad_before - pad_after + output_padding`` ('same': ``in * stride``)."""
    x = coerce.as_tensor(inputs, op="conv3d_transpose")
    w = coerce.as_tensor(weight, op="conv3d_transpose")
    if x.ndim != 5 or w.ndim != 5:
        raise ValueError(f"conv3d_transpose: the rank of inputs and weight must be 5, got "
                         f"shapes {tuple(x.shape)} and {tuple(w.shape)}")
    return compute_conv3d_transpose(
        x, w, in_channel=x.shape[1], out_channel=w.shape[1] * group,
        kernel_size=tuple(w.shape[2:]), mode=1, pad_mode=pad_mode, pad=padding, stride=stride,
        dilation=dilation, group=group, output_padding=output_padding, data_format="NCDHW",
        op="conv3d_transpose")


def compute_conv3d_transpose(dout, weight, *, in_channel, out_channel, kernel_size, mode,
                             pad_mode, pad, stride, dilation, group, output_padding,
                             data_format, op="Conv3DTranspose"):
    """``Conv3DTranspose``: the transposed 3-D convolution of ``dout`` (N, in_channel, D,
    H, W) with ``weight`` (in_channel, out_channel / group, kd, kh, kw)."""
    _check_format(op, data_format, 3)
    x = coerce.as_tensor(dout, op=op)
    w = coerce.as_tensor(weight, op=op)
    stride = _spatial(stride, 3, "stride", op)
    dilation = _spatial(dilation, 3, "dilation", op)
    kernel = _spatial(kernel_size, 3, "kernel_size", op)
    extra = _tuple(output_padding, 3, "output_padding", op) if not (
        isinstance(output_padding, (tuple, list)) and len(output_padding) == 5) else \
        tuple(output_padding[2:])
    mode, pads = _pads(pad_mode, pad, 3, op)
    if dilation[0] != 1:
        raise ValueError(f"{op}: the depth of 'dilation' must be 1, got {dilation[0]}")
    if x.ndim == 5 and x.shape[1] != in_channel:
        raise ValueError(f"{op}: 'in_channel' {in_channel} differs from the input's "
                         f"{x.shape[1]} channels")
    if w.ndim == 5 and (tuple(w.shape[2:]) != kernel or w.shape[1] * group != out_channel):
        raise ValueError(f"{op}: the weight {tuple(w.shape)} does not match kernel_size "
                         f"{kernel} and out_channel {out_channel} / group {group}")
    if mode == "same":     # the output is in * stride; the padding that gives it
        pads = []
        for size, k, s, d in zip(x.shape[2:], kernel, stride, dilation):
            total = max(0, (size - 1) * s + d * (k - 1) + 1 - size * s)
            pads.append((total // 2, total - total // 2))
    return _transposed_conv3d(x, w, stride, pads, dilation, int(group), extra, op)


def compute_conv3d(x, weight, bias=None, *, out_channel, kernel_size, mode, pad_mode, pad,
                   stride, dilation, group, data_format):
    """``Conv3D``: 3-D convolution of an NCDHW input with an (out_channel, in / group, kd,
    kh, kw) weight (float16 / bfloat16 / float32 / float64)."""
    op = "Conv3D"
    _check_format(op, data_format, 3)
    x = coerce.as_tensor(x, op=op)
    w = coerce.as_tensor(weight, op=op)
    _check_float(op, x, w)
    if x.dtype != w.dtype:
        raise TypeError(f"{op}: the input and the weight must have one dtype, got {x.dtype} "
                        f"and {w.dtype}")
    kernel = _spatial(kernel_size, 3, "kernel_size", op)
    if w.ndim == 5 and (tuple(w.shape[2:]) != kernel or w.shape[0] != out_channel):
        raise ValueError(f"{op}: the weight {tuple(w.shape)} does not match out_channel "
                         f"{out_channel} and kernel_size {kernel}")
    mode, pads = _pads(pad_mode, pad, 3, op)
    flat = tuple(p for pair in pads for p in pair)
    return conv3d(x, w, bias, _spatial(stride, 3, "stride", op), mode, flat,
                  _spatial(dilation, 3, "dilation", op), int(group))


def compute_conv2d_transpose(dout, weight, input_size, *, out_channel, kernel_size, pad_mode,
                             pad, pad_list, mode, stride, dilation, group, data_format):
    """``Conv2DTranspose`` / ``Conv2DBackpropInput``: the gradient, with respect to its
    input of shape ``input_size``, of the 2-D convolution with ``weight`` (out, in /
    group, kh, kw) whose output gradient is ``dout``."""
    op = "Conv2DTranspose"
    _check_format(op, data_format, 2)
    dy = coerce.as_tensor(dout, op=op)
    w = coerce.as_tensor(weight, op=op)
    _check_float(op, dy, w)
    if dy.dtype != w.dtype:
        raise TypeError(f"{op}: 'dout' and 'weight' must have one dtype, got {dy.dtype} and "
                        f"{w.dtype}")
    if dy.ndim != 4 or w.ndim != 4:
        raise ValueError(f"{op}: expected a 4-D 'dout' and a 4-D weight, got shapes "
                         f"{tuple(dy.shape)} and {tuple(w.shape)}")
    size = tuple(int(v) for v in (input_size.tolist() if hasattr(input_size, "tolist")
                                  else input_size))
    if len(size) != 4:
        raise ValueError(f"{op}: 'input_size' must be 4 ints, got {size}")
    kernel = _spatial(kernel_size, 2, "kernel_size", op)
    stride = _spatial(stride, 2, "stride", op)
    dilation = _spatial(dilation, 2, "dilation", op)
    if tuple(w.shape[2:]) != kernel:
        raise ValueError(f"{op}: the weight {tuple(w.shape)} does not match kernel_size "
                         f"{kernel}")
    if pad_list is not None and any(pad_list):
        pads = tuple(int(p) for p in pad_list)
    else:
        pads = resolve_padding(pad_mode, pad, size[2:], kernel, stride, dilation, op)
    oh = (size[2] + pads[0] + pads[1] - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    ow = (size[3] + pads[2] + pads[3] - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    if (dy.shape[0], dy.shape[1], dy.shape[2], dy.shape[3]) != (size[0], w.shape[0], oh, ow):
        raise ValueError(f"{op}: 'dout' {tuple(dy.shape)} is not the output shape "
                         f"{(size[0], w.shape[0], oh, ow)} of the convolution of {size}")
    return conv2d_input_grad_p.bind(dy, w, x_shape=size, stride=stride, padding=pads,
                                    dilation=dilation, groups=int(group))



def compute_depthwise_conv2d_native(x, weight, *, channel_multiplier, kernel_size, mode,
                                    pad_mode, pad, stride, dilation, group):
    """``DepthwiseConv2dNative``: each input channel convolved with its own (kh, kw) filter
    ``weight[0, c]`` (weight (1, C, kh, kw)). The output has ``channel_multiplier * C``
    channels in MindSpore's shape rule while the weight holds one filter per channel, so
    only ``channel_multiplier`` 1 is computable (others raise ValueError). MindSpore 2.10
    has no CPU kernel for it."""
    op = "DepthwiseConv2dNative"
    if mode != 3:
        raise ValueError(f"{op}: 'mode' must be 3, got {mode!r}")
    if channel_multiplier != 1:
        raise ValueError(f"{op}: a weight of batch 1 holds one filter per channel: only "
                         f"channel_multiplier 1 is computable, got {channel_multiplier!r}")
    stride, dilation = _spatial(stride, 2, "stride", op), _spatial(dilation, 2, "dilation", op)
    if stride[0] != stride[1] or dilation[0] != dilation[1]:
        raise ValueError(f"{op}: the height and width of 'stride' and of 'dilation' must be "
                         f"equal, got {stride} and {dilation}")
    x = coerce.as_tensor(x, op=op)
    w = coerce.as_tensor(weight, op=op)
    _check_float(op, x, w)
    if x.dtype != w.dtype or x.ndim != 4 or w.ndim != 4:
        raise TypeError(f"{op}: 'x' and 'weight' must be 4-D of one dtype, got "
                        f"{x.dtype}{list(x.shape)} and {w.dtype}{list(w.shape)}")
    if w.shape[0] != 1 or w.shape[1] != x.shape[1] or \
            tuple(w.shape[2:]) != _spatial(kernel_size, 2, "kernel_size", op):
        raise ValueError(f"{op}: the weight must be (1, {x.shape[1]}, kh, kw) with kernel_size "
                         f"{kernel_size}, got {tuple(w.shape)}")
    mode_name, pads = _pads(pad_mode, pad, 2, op)
    flat = tuple(p for pair in pads for p in pair)
    return conv2d(x, _shape.transpose(w, (1, 0, 2, 3)), None, stride, mode_name, flat,
                  dilation, x.shape[1])
