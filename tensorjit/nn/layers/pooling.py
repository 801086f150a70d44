"""MaxPool2d, AvgPool2d and AdaptiveAvgPool2d (NCHW). The options the window primitive's
2-D pooling does not take (``return_indices``, ``ceil_mode``, an unbatched (C, H, W) input)
go through ``ops.pooling``'s pooling of any rank; the rest keep the 2-D ops (their graphs
export as MaxPool / AveragePool)."""
from ... import ops
from ...ops import pooling as _pool
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
        self.ceil_mode = _checks.boolean(bool(ceil_mode) if ceil_mode is None else ceil_mode,
                                         "ceil_mode", name)
        if data_format != "NCHW":
            raise ValueError(f"{name}: only data_format='NCHW' is supported, got "
                             f"{data_format!r}")

    def _check_input(self, x):
        if x.ndim not in (3, 4):
            raise ValueError(f"{type(self).__name__}: expected a 4-D NCHW (or 3-D CHW) input, "
                             f"got shape {tuple(x.shape)}")

    def extend_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}")


class MaxPool2d(_Pool2d):
    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False, data_format="NCHW"):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, data_format)
        self.dilation = _checks.int_pair(dilation, "dilation", "MaxPool2d")
        self.return_indices = _checks.boolean(return_indices, "return_indices", "MaxPool2d")
        if self.pad_mode != "pad" and (self.return_indices or self.ceil_mode):
            raise ValueError(f"MaxPool2d: 'return_indices' and 'ceil_mode' need "
                             f"pad_mode='pad', got pad_mode={self.pad_mode!r}")

    def construct(self, x):
        self._check_input(x)
        if self.return_indices or self.ceil_mode or x.ndim == 3:
            x, unbatched = _pool.spatial("MaxPool2d", x, 2, unbatched=True)
            out = _pool.max_pool(x, self.kernel_size, self.stride, self.padding, self.dilation,
                                 self.ceil_mode, self.return_indices, "MaxPool2d",
                                 pad_mode=self.pad_mode)
            return _pool.unbatch(out, unbatched)
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
        if self.ceil_mode or x.ndim == 3:
            x, unbatched = _pool.spatial("AvgPool2d", x, 2, unbatched=True)
            out = _pool.avg_pool(x, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                                 self.count_include_pad and self.pad_mode != "same",
                                 self.divisor_override, "AvgPool2d", pad_mode=self.pad_mode)
            return _pool.unbatch(out, unbatched)
        # MindSpore 2.10 leaves 'same' padding out of the divisor (its kernel's SAME rule)
        include = self.count_include_pad and self.pad_mode != "same"
        return ops.avg_pool2d(x, self.kernel_size, self.stride, self.pad_mode, self.padding,
                              include, self.divisor_override)


class AdaptiveAvgPool2d(Cell):
    """Average-pool an (N, C, H, W) or (C, H, W) input to ``output_size`` (int, or (h, w)
    where None keeps that input size); windows as ``ops.adaptive_avg_pool2d``'s."""

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
        if x.ndim not in (3, 4):
            raise ValueError(f"AdaptiveAvgPool2d: expected a 4-D NCHW (or 3-D CHW) input, got "
                             f"shape {tuple(x.shape)}")
        size = tuple(x.shape[x.ndim - 2 + i] if s is None else s
                     for i, s in enumerate(self.output_size))
        return ops.adaptive_avg_pool2d(x, size)

    def extend_repr(self):
        return f"output_size={self.output_size}"
