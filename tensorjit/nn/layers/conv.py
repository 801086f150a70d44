"""Conv2d (NCHW)."""
import math

from ... import dtype as dt
from ... import ops
from ...tensor import Tensor, Parameter
from ..cell import Cell
from ..initializer import initializer, HeUniform, Uniform
from .. import _checks

__all__ = ["Conv2d"]

PAD_MODES = ("same", "valid", "pad")


class Conv2d(Cell):
    """2-D convolution with MindSpore's ``pad_mode``: 'same' (output size ceil(in/stride)),
    'valid' (no padding) or 'pad' (explicit ``padding``). Weight shape:
    (out_channels, in_channels // group, kernel_h, kernel_w)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype=dt.float32):
        super().__init__()
        name = "Conv2d"
        self.in_channels = _checks.positive_int(in_channels, "in_channels", name)
        self.out_channels = _checks.positive_int(out_channels, "out_channels", name)
        self.kernel_size = _checks.int_pair(kernel_size, "kernel_size", name)
        self.stride = _checks.int_pair(stride, "stride", name)
        self.dilation = _checks.int_pair(dilation, "dilation", name)
        self.pad_mode = _checks.one_of(pad_mode, PAD_MODES, "pad_mode", name)
        self.padding = _checks.padding_arg(padding, name)
        if self.pad_mode != "pad" and not _checks.is_zero_padding(self.padding):
            raise ValueError(f"{name}: 'padding' must be 0 when pad_mode is "
                             f"{self.pad_mode!r}, got {padding!r} (use pad_mode='pad')")
        self.group = _checks.positive_int(group, "group", name)
        if self.in_channels % self.group or self.out_channels % self.group:
            raise ValueError(f"{name}: in_channels ({self.in_channels}) and out_channels "
                             f"({self.out_channels}) must be divisible by group ({self.group})")
        if data_format != "NCHW":
            raise ValueError(f"{name}: only data_format='NCHW' is supported, got "
                             f"{data_format!r}")
        self.data_format = data_format
        self.has_bias = _checks.boolean(has_bias, "has_bias", name)
        weight_shape = (self.out_channels, self.in_channels // self.group) + self.kernel_size
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != weight_shape:
            raise ValueError(f"{name}: weight_init has shape {tuple(weight_init.shape)}, "
                             f"expected {weight_shape}")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, weight_shape, dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                fan_in = (self.in_channels // self.group) * math.prod(self.kernel_size)
                bias_init = Uniform(1.0 / math.sqrt(fan_in))
            self.bias = Parameter(initializer(bias_init, (self.out_channels,), dtype),
                                  name="bias")

    def construct(self, x):
        if x.ndim != 4 or x.shape[1] != self.in_channels:
            raise ValueError(f"Conv2d: expected an NCHW input with {self.in_channels} "
                             f"channels, got shape {tuple(x.shape)}")
        return ops.conv2d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                          self.dilation, self.group)

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}")
