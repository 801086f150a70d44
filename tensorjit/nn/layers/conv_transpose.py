"""Conv1dTranspose and Conv3dTranspose, as MindSpore's (weights (in_channels,
out_channels // group, *kernel); output size per spatial axis: 'same' ``in * stride``,
'valid' ``(in - 1) * stride + dilation * (k - 1) + 1``, 'pad' that minus the two paddings
plus ``output_padding`` (3-D only)).

Conv1dTranspose is Conv2dTranspose over a unit height. Conv3dTranspose is the convolution
of the stride-dilated, padded input with the flipped kernel (in and out channels swapped
within each group): the adjoint of Conv3d, built from ``ops.conv3d`` and ``ops.pad`` so
that it differentiates and compiles like them.
"""
from ... import dtype as dt
from ... import ops
from ...tensor import Tensor
from .conv import Conv2dTranspose, _Conv, _int_tuple

__all__ = ["Conv1dTranspose", "Conv3dTranspose"]


def _same_padding(kernel, stride, dilation):
    """MindSpore's 'same' split of a transposed convolution's padding: (before, after)
    per axis, and the zeros appended where the kernel is shorter than the stride."""
    pads, extra = [], []
    for k, s, d in zip(kernel, stride, dilation):
        total = d * (k - 1) + 1 - s
        before = max(total, 0) // 2
        after = total - before
        pads.append((before, max(after, 0)))
        extra.append(max(-after, 0))
    return pads, extra


class Conv1dTranspose(Conv2dTranspose):
    """Transposed 1-D convolution of (N, C, L) input; weight (in, out // group, 1, k)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=dt.float32):
        name = "Conv1dTranspose"
        for arg, value in (("kernel_size", kernel_size), ("stride", stride),
                           ("dilation", dilation), ("padding", padding)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name}: '{arg}' must be an int, got {value!r}")
        super().__init__(in_channels, out_channels, (1, kernel_size), (1, stride), pad_mode,
                         (0, 0, padding, padding), 0, (1, dilation), group, has_bias,
                         weight_init, bias_init, dtype)

    def _adapt_weight_init(self, weight_init):
        """A (in, out // group, k) weight Tensor (MindSpore's form) gains the unit axis."""
        if isinstance(weight_init, Tensor) and weight_init.ndim == 3:
            return ops.expand_dims(weight_init, 2)
        return weight_init

    def _check_input(self, x):
        if x.ndim == 4:            # the unit-height 2-D input built from a checked 1-D one
            return
        if x.ndim != 3 or x.shape[1] != self.in_channels:
            raise ValueError(f"Conv1dTranspose: expected a 3-D NCL input with "
                             f"{self.in_channels} channels, got shape {tuple(x.shape)}")

    def construct(self, x):
        self._check_input(x)
        return ops.squeeze(super().construct(ops.expand_dims(x, 2)), 2)

    def _padding_arg(self, padding, name):
        return padding if isinstance(padding, tuple) else super()._padding_arg(padding, name)


def _dilate(x, axis, stride):
    """Insert ``stride - 1`` zeros between neighbours along ``axis``."""
    if stride == 1:
        return x
    length = x.shape[axis]
    spread = ops.expand_dims(x, axis + 1)
    widths = [0] * (2 * spread.ndim)
    widths[2 * (spread.ndim - 1 - (axis + 1)) + 1] = stride - 1     # after, on the new axis
    spread = ops.pad(spread, tuple(widths))
    shape = tuple(x.shape[:axis]) + (length * stride,) + tuple(x.shape[axis + 1:])
    merged = ops.reshape(spread, shape)
    index = [slice(None)] * x.ndim
    index[axis] = slice(0, (length - 1) * stride + 1)
    return merged[tuple(index)]


class Conv3dTranspose(_Conv):
    _spatial = 3
    _data_format = "NCDHW"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, output_padding=0, has_bias=False,
                 weight_init=None, bias_init=None, data_format="NCDHW", dtype=dt.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, data_format, dtype)
        self.output_padding = _int_tuple(output_padding, 3, "output_padding",
                                         "Conv3dTranspose", minimum=0)

    def _weight_shape(self):
        return (self.in_channels, self.out_channels // self.group) + self.kernel_size

    def _pads(self):
        """(before, after) padding and appended zeros per spatial axis."""
        if self.pad_mode == "same":
            return _same_padding(self.kernel_size, self.stride, self.dilation)
        if self.pad_mode == "valid":
            return [(0, 0)] * 3, [0, 0, 0]
        p = self.padding
        p = (p,) * 6 if isinstance(p, int) else p
        return [(p[0], p[1]), (p[2], p[3]), (p[4], p[5])], [0, 0, 0]

    def construct(self, x):
        self._check_input(x)
        pads, extra = self._pads()
        output_padding = self.output_padding if self.pad_mode == "pad" else (0, 0, 0)
        for axis, s in enumerate(self.stride):
            x = _dilate(x, axis + 2, s)
        widths = []
        for (before, after), k, d, op in reversed(list(zip(pads, self.kernel_size,
                                                           self.dilation, output_padding))):
            reach = d * (k - 1)
            widths += [reach - before, reach - after + op]
        x = ops.pad(x, tuple(widths))
        g, cin, cout = self.group, self.in_channels, self.out_channels
        kernel = ops.reshape(self.weight, (g, cin // g, cout // g) + self.kernel_size)
        kernel = ops.transpose(kernel, (0, 2, 1, 3, 4, 5))
        kernel = ops.flip(ops.reshape(kernel, (cout, cin // g) + self.kernel_size), (2, 3, 4))
        out = ops.conv3d(x, ops.cast(kernel, x.dtype), None, 1, "valid", 0, self.dilation, g)
        if self.bias is not None:
            out = ops.add(out, ops.reshape(ops.cast(self.bias, out.dtype), (1, cout, 1, 1, 1)))
        if any(extra):
            out = ops.pad(out, (0, extra[2], 0, extra[1], 0, extra[0]))
        return out

    def extend_repr(self):
        return super().extend_repr() + f", output_padding={self.output_padding}"
