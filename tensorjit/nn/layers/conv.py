"""Convolution layers: Conv1d, Conv2d, Conv3d (NCW / NCHW / NCDHW) and Conv2dTranspose,
with MindSpore's ``pad_mode`` ('same', 'valid', 'pad'), weight layouts and default
initialisation (HeUniform(sqrt(5)) weights, U(+-1/sqrt(fan_in)) biases)."""
import math

from ... import dtype as dt
from ... import ops
from ...tensor import Tensor, Parameter
from ..cell import Cell
from ..initializer import initializer, HeUniform, Uniform
from .. import _checks

__all__ = ["Conv1d", "Conv2d", "Conv3d", "Conv2dTranspose"]

PAD_MODES = ("same", "valid", "pad")


def _int_tuple(value, n, name, layer, minimum=1):
    if n == 2:
        return _checks.int_pair(value, name, layer, minimum)
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,) * n
    if not (isinstance(value, (tuple, list)) and len(value) == n
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise TypeError(f"{layer}: '{name}' must be an int or a tuple of {n} ints, got "
                        f"{value!r}")
    if any(v < minimum for v in value):
        raise ValueError(f"{layer}: '{name}' must be >= {minimum}, got {value!r}")
    return tuple(value)


class _Conv(Cell):
    """What the convolution layers share: argument checks, parameters and their repr.
    ``_spatial`` is the number of spatial axes; ``_weight_shape`` the kernel's layout."""
    _spatial = 2
    _data_format = "NCHW"

    def __init__(self, in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                 dilation, group, has_bias, weight_init, bias_init, data_format, dtype):
        super().__init__()
        name = type(self).__name__
        n = self._spatial
        self.in_channels = _checks.positive_int(in_channels, "in_channels", name)
        self.out_channels = _checks.positive_int(out_channels, "out_channels", name)
        self.kernel_size = _int_tuple(kernel_size, n, "kernel_size", name)
        self.stride = _int_tuple(stride, n, "stride", name)
        self.dilation = _int_tuple(dilation, n, "dilation", name)
        self.pad_mode = _checks.one_of(pad_mode, PAD_MODES, "pad_mode", name)
        self.padding = self._padding_arg(padding, name)
        if self.pad_mode != "pad" and not _checks.is_zero_padding(self.padding):
            raise ValueError(f"{name}: 'padding' must be 0 when pad_mode is "
                             f"{self.pad_mode!r}, got {padding!r} (use pad_mode='pad')")
        self.group = _checks.positive_int(group, "group", name)
        if self.in_channels % self.group or self.out_channels % self.group:
            raise ValueError(f"{name}: in_channels ({self.in_channels}) and out_channels "
                             f"({self.out_channels}) must be divisible by group ({self.group})")
        if data_format != self._data_format:
            raise ValueError(f"{name}: only data_format={self._data_format!r} is supported, "
                             f"got {data_format!r}")
        self.data_format = data_format
        self.has_bias = _checks.boolean(has_bias, "has_bias", name)
        weight_shape = self._weight_shape()
        weight_init = self._adapt_weight_init(weight_init)
        if isinstance(weight_init, Tensor) and tuple(weight_init.shape) != weight_shape:
            raise ValueError(f"{name}: weight_init has shape {tuple(weight_init.shape)}, "
                             f"expected {weight_shape}")
        if weight_init is None:
            weight_init = HeUniform(math.sqrt(5))
        self.weight = Parameter(initializer(weight_init, weight_shape, dtype), name="weight")
        self.bias = None
        if self.has_bias:
            if bias_init is None:
                fan_in = weight_shape[1] * math.prod(weight_shape[2:])
                bias_init = Uniform(1.0 / math.sqrt(fan_in))
            self.bias = Parameter(initializer(bias_init, (self.out_channels,), dtype),
                                  name="bias")

    def _padding_arg(self, padding, name):
        if self._spatial == 2:
            return _checks.padding_arg(padding, name)
        if isinstance(padding, int) and not isinstance(padding, bool):
            return _checks.non_negative_int(padding, "padding", name)
        if isinstance(padding, (tuple, list)) and len(padding) == 2 * self._spatial:
            return tuple(_checks.non_negative_int(p, "padding", name) for p in padding)
        raise TypeError(f"{name}: 'padding' must be an int or a tuple of "
                        f"{2 * self._spatial} ints, got {padding!r}")

    def _weight_shape(self):
        return (self.out_channels, self.in_channels // self.group) + self.kernel_size

    def _adapt_weight_init(self, weight_init):
        return weight_init

    def _check_input(self, x):
        rank = self._spatial + 2
        if x.ndim != rank or x.shape[1] != self.in_channels:
            raise ValueError(f"{type(self).__name__}: expected a {rank}-D "
                             f"{self._data_format} input with {self.in_channels} channels, "
                             f"got shape {tuple(x.shape)}")

    def extend_repr(self):
        return (f"input_channels={self.in_channels}, output_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, dilation={self.dilation}, "
                f"group={self.group}, has_bias={self.has_bias}")


class Conv2d(_Conv):
    """2-D convolution with MindSpore's ``pad_mode``: 'same' (output size ceil(in/stride)),
    'valid' (no padding) or 'pad' (explicit ``padding``). Weight shape:
    (out_channels, in_channels // group, kernel_h, kernel_w)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCHW", dtype=dt.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, data_format, dtype)

    def construct(self, x):
        self._check_input(x)
        return ops.conv2d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                          self.dilation, self.group)


class Conv1d(_Conv):
    """1-D convolution of (N, C, L) inputs. Weight shape, as in MindSpore:
    (out_channels, in_channels // group, 1, kernel_size); ``padding`` is an int or a
    (left, right) pair."""
    _spatial = 1
    _data_format = "NCW"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, dtype=dt.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, "NCW", dtype)

    def _weight_shape(self):
        return (self.out_channels, self.in_channels // self.group, 1) + self.kernel_size

    def _adapt_weight_init(self, weight_init):
        """A weight given as (out, in/group, k), as MindSpore accepts it, gets its unit
        height axis."""
        if isinstance(weight_init, Tensor) and weight_init.ndim == 3:
            return ops.expand_dims(weight_init, 2)
        return weight_init

    def construct(self, x):
        self._check_input(x)
        return ops.conv1d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                          self.dilation, self.group)


class Conv3d(_Conv):
    """3-D convolution of (N, C, D, H, W) inputs; weight shape
    (out_channels, in_channels // group, kd, kh, kw); ``padding`` an int or 6 ints
    (head, tail, top, bottom, left, right)."""
    _spatial = 3
    _data_format = "NCDHW"

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, weight_init=None,
                 bias_init=None, data_format="NCDHW", dtype=dt.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, data_format, dtype)

    def construct(self, x):
        self._check_input(x)
        return ops.conv3d(x, self.weight, self.bias, self.stride, self.pad_mode, self.padding,
                          self.dilation, self.group)


class Conv2dTranspose(_Conv):
    """Transposed 2-D convolution (the adjoint of Conv2d; 'deconvolution'). Weight shape
    (in_channels, out_channels // group, kh, kw). Output size per spatial axis:
    'same' ``in * stride``; 'valid' ``(in - 1) * stride + dilation * (k - 1) + 1``;
    'pad' ``(in - 1) * stride - pad_before - pad_after + dilation * (k - 1) + 1 +
    output_padding``, the ``output_padding`` rows and columns being zeros (as MindSpore
    computes them; PyTorch computes the convolution there)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, output_padding=0, dilation=1, group=1, has_bias=False,
                 weight_init=None, bias_init=None, dtype=dt.float32):
        super().__init__(in_channels, out_channels, kernel_size, stride, pad_mode, padding,
                         dilation, group, has_bias, weight_init, bias_init, "NCHW", dtype)
        self.output_padding = _checks.int_pair(output_padding, "output_padding",
                                               "Conv2dTranspose", minimum=0)

    def _weight_shape(self):
        return (self.in_channels, self.out_channels // self.group) + self.kernel_size

    def _geometry(self):
        """(top, bottom, left, right) padding of the transposed conv, and its extra output."""
        if self.pad_mode == "pad":
            p = self.padding
            pads = (p,) * 4 if isinstance(p, int) else \
                (p[0], p[0], p[1], p[1]) if len(p) == 2 else tuple(p)
            return pads, self.output_padding
        if self.pad_mode == "valid":
            return (0, 0, 0, 0), (0, 0)
        pads, extra = [], []           # 'same': output = input * stride
        for k, s, d in zip(self.kernel_size, self.stride, self.dilation):
            total = d * (k - 1) + 1 - s
            before = max(total, 0) // 2
            after = total - before
            pads += [before, max(after, 0)]
            extra.append(max(-after, 0))
        return tuple(pads), tuple(extra)

    def construct(self, x):
        self._check_input(x)
        pads, extra = self._geometry()
        out = ops.conv_transpose2d(x, self.weight, self.bias, self.stride, pads, 0,
                                   self.group, self.dilation)
        if any(extra):
            # MindSpore fills the output padding (bottom rows, right columns) with zeros
            # (PyTorch's ConvTranspose2d computes values there)
            out = ops.pad(out, (0, extra[1], 0, extra[0]))
        return out
