"""MaxPool2d, AvgPool2d and AdaptiveAvgPool2d (NCHW)."""
from ... import ops
from ..cell import Cell
from .. import _checks

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d"]

PAD_MODES = ("same", "valid", "pad")


class _Pool2d(Cell):
    def __init__(self, kernel_size, stride, pad_mode, padding, ceil_mode, data_format):
        super().__init__()
        name = type(self).__name__
        self.kernel_size = _checks.int_pair(kernel_size, "kernel_size", name)
        self.stride = _checks.int_pair(stride, "stride", name)
        self.pad_mode = _checks.one_of(pad_mode, PAD_MODES, "pad_mode", name)
        self.padding = _checks.padding_arg(padding, name)
        if self.pad_mode != "pad" and not _checks.is_zero_padding(self.padding):
            raise ValueError(f"{name}: 'padding' must be 0 when pad_mode is "
                             f"{self.pad_mode!r}, got {padding!r} (use pad_mode='pad')")
        if ceil_mode not in (False, None):
            raise ValueError(f"{name}: ceil_mode=True is not supported, got {ceil_mode!r}")
        if data_format != "NCHW":
            raise ValueError(f"{name}: only data_format='NCHW' is supported, got "
                             f"{data_format!r}")

    def _check_input(self, x):
        if x.ndim != 4:
            raise ValueError(f"{type(self).__name__}: expected a 4-D NCHW input, got shape "
                             f"{tuple(x.shape)}")

    def extend_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}")


class MaxPool2d(_Pool2d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        self.dilation = _checks.int_pair(dilation, "dilation", "MaxPool2d")
        if return_indices:
            raise ValueError("MaxPool2d: return_indices=True is not supported")

    def construct(self, x):
        self._check_input(x)
        return ops.max_pool2d(x, self.kernel_size, self.stride, self.pad_mode, self.padding,
                              self.dilation)


class AvgPool2d(_Pool2d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        self.count_include_pad = _checks.boolean(count_include_pad, "count_include_pad",
                                                 "AvgPool2d")
        if divisor_override is not None:
            divisor_override = _checks.positive_int(divisor_override, "divisor_override",
                                                    "AvgPool2d")
        self.divisor_override = divisor_override

    def construct(self, x):
        self._check_input(x)
        return ops.avg_pool2d(x, self.kernel_size, self.stride, self.pad_mode, self.padding,
                              self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool2d(Cell):
    """Average-pool to ``output_size`` (int, or (h, w) where None keeps that input size).
    The input size must be a multiple of the output size."""

    def __init__(self, output_size):
        super().__init__()
        if isinstance(output_size, int) and not isinstance(output_size, bool):
            output_size = (output_size, output_size)
        if not isinstance(output_size, (tuple, list)) or len(output_size) != 2:
            raise TypeError(f"AdaptiveAvgPool2d: 'output_size' must be an int or a pair, got "
                            f"{output_size!r}")
        self.output_size = tuple(
            None if s is None else _checks.positive_int(s, "output_size", "AdaptiveAvgPool2d")
            for s in output_size)

    def construct(self, x):
        if x.ndim != 4:
            raise ValueError(f"AdaptiveAvgPool2d: expected a 4-D NCHW input, got shape "
                             f"{tuple(x.shape)}")
        size = tuple(x.shape[2 + i] if s is None else s for i, s in enumerate(self.output_size))
        return ops.adaptive_avg_pool2d(x, size)

    def extend_repr(self):
        return f"output_size={self.output_size}"
