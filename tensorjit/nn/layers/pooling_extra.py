"""The pooling layers beyond 2-D max / average pooling: 1-D and 3-D max / average pooling,
adaptive pooling of 1, 2 and 3 axes, LP pooling and max unpooling. Each layer checks its
arguments when built (errors name the layer) and calls the functions of
``ops.pooling`` / ``ops.adaptive_pooling`` / ``ops.unpooling``; inputs may leave out the
batch axis where MindSpore's layer allows it."""
from ...ops import pooling as _pool
from ...ops import adaptive_pooling as _adaptive
from ...ops import unpooling as _unpool
from ...ops import fractional_pooling as _fractional
from ...ops import pool_windows as _pw
from ... import dtype as dt
from ..cell import Cell
from .. import _checks

__all__ = ["AvgPool1d", "MaxPool1d", "AvgPool3d", "MaxPool3d", "AdaptiveAvgPool1d",
           "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
           "LPPool1d", "LPPool2d", "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
           "FractionalMaxPool2d", "FractionalMaxPool3d"]

PAD_MODES = ("same", "valid", "pad")


def _ints(value, rank, name, layer, minimum=1, allowed=None):
    values = _pw.ints(value, rank, name, layer, allowed)
    if any(v < minimum for v in values):
        raise ValueError(f"{layer}: '{name}' must be >= {minimum}, got {value!r}")
    return values


class _PoolNd(Cell):
    """kernel_size, stride, pad_mode, padding and ceil_mode of an N-d pooling layer."""
    rank = 1

    def __init__(self, kernel_size, stride, pad_mode, padding, ceil_mode):
        super().__init__()
        name = type(self).__name__
        self.kernel_size = _ints(kernel_size, self.rank, "kernel_size", name)
        self.stride = _ints(stride, self.rank, "stride", name)
        self.pad_mode = _checks.one_of(pad_mode, PAD_MODES, "pad_mode", name)
        self.padding = _ints(padding, self.rank, "padding", name, minimum=0)
        self.ceil_mode = _checks.boolean(ceil_mode, "ceil_mode", name)
        if self.pad_mode != "pad" and any(self.padding):
            raise ValueError(f"{name}: 'padding' must be 0 when pad_mode is "
                             f"{self.pad_mode!r}, got {padding!r} (use pad_mode='pad')")

    def _batched(self, x):
        return _pool.spatial(type(self).__name__, x, self.rank, unbatched=True)

    def extend_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, padding={self.padding}, ceil_mode={self.ceil_mode}")


class _AvgPoolNd(_PoolNd):
    # whether 'same' padding counts in the divisor: MindSpore 2.10's AvgPool1d leaves it
    # out (its 2-D kernel's 'SAME' rule), AvgPool3d counts it
    same_counts_padding = True

    def __init__(self, kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad,
                 divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode)
        name = type(self).__name__
        self.count_include_pad = _checks.boolean(count_include_pad, "count_include_pad", name)
        if divisor_override is not None:
            divisor_override = _checks.positive_int(divisor_override, "divisor_override", name)
        self.divisor_override = divisor_override

    def construct(self, x):
        x, unbatched = self._batched(x)
        include = self.count_include_pad and (self.pad_mode != "same"
                                              or self.same_counts_padding)
        out = _pool.avg_pool(x, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                             include, self.divisor_override,
                             type(self).__name__, pad_mode=self.pad_mode)
        return _pool.unbatch(out, unbatched)


class _MaxPoolNd(_PoolNd):
    def __init__(self, kernel_size, stride, pad_mode, padding, dilation, return_indices,
                 ceil_mode):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode)
        name = type(self).__name__
        self.dilation = _ints(dilation, self.rank, "dilation", name)
        self.return_indices = _checks.boolean(return_indices, "return_indices", name)
        if self.pad_mode != "pad" and (self.return_indices or self.ceil_mode
                                       or any(d != 1 for d in self.dilation)):
            raise ValueError(f"{name}: 'dilation', 'return_indices' and 'ceil_mode' need "
                             f"pad_mode='pad', got pad_mode={self.pad_mode!r}")

    def construct(self, x):
        x, unbatched = self._batched(x)
        out = _pool.max_pool(x, self.kernel_size, self.stride, self.padding, self.dilation,
                             self.ceil_mode, self.return_indices, type(self).__name__,
                             pad_mode=self.pad_mode)
        return _pool.unbatch(out, unbatched)


class AvgPool1d(_AvgPoolNd):
    """Average pooling over the last axis of an (N, C, L) or (C, L) float tensor.

    ``kernel_size`` (default 1), ``stride`` (default 1), ``pad_mode`` 'valid' / 'same'
    (output ceil(L / stride); the padding, the odd element after, is not counted in the
    divisor, as in MindSpore 2.10) / 'pad' with ``padding`` zeros each side (at most half
    the kernel), ``ceil_mode``, ``count_include_pad``.

    >>> import tensorjit as ms
    >>> pool = ms.nn.AvgPool1d(kernel_size=2, stride=2)
    >>> print(pool(ms.Tensor([[[1., 2., 3., 4.]]])))
    [[[1.5 3.5]]]
    """
    same_counts_padding = False

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad)


class AvgPool3d(_AvgPoolNd):
    """Average pooling of an (N, C, D, H, W) or (C, D, H, W) float tensor.

    As ``AvgPool1d`` with ints or 3 ints for ``kernel_size`` / ``stride`` / ``padding``,
    and ``divisor_override`` (a positive int replacing the window size as divisor).

    >>> import tensorjit as ms
    >>> print(ms.nn.AvgPool3d(2, 2)(ms.ops.ones((1, 1, 4, 4, 4))).shape)
    (1, 1, 2, 2, 2)
    """
    rank = 3

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, ceil_mode=False,
                 count_include_pad=True, divisor_override=None):
        super().__init__(kernel_size, stride, pad_mode, padding, ceil_mode, count_include_pad,
                         divisor_override)


class MaxPool1d(_MaxPoolNd):
    """Max pooling over the last axis of an (N, C, L) or (C, L) tensor.

    ``kernel_size`` / ``stride`` (default 1), ``pad_mode`` 'valid' / 'same' / 'pad';
    with 'pad': ``padding`` (-inf each side, at most half the kernel), ``dilation``,
    ``ceil_mode`` and ``return_indices`` (also the int64 index of each maximum along L).

    >>> import tensorjit as ms
    >>> pool = ms.nn.MaxPool1d(kernel_size=2, stride=2)
    >>> print(pool(ms.Tensor([[[1., 5., 3., 2.]]])))
    [[[5. 3.]]]
    """

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices,
                         ceil_mode)


class MaxPool3d(_MaxPoolNd):
    """Max pooling of an (N, C, D, H, W) or (C, D, H, W) tensor; arguments as
    ``MaxPool1d`` with ints or 3 ints (indices: flat over D*H*W).

    >>> import tensorjit as ms
    >>> x = ms.ops.arange(8.).reshape(1, 1, 2, 2, 2)
    >>> print(ms.nn.MaxPool3d(2, 2)(x).reshape(-1))
    [7.]
    """
    rank = 3

    def __init__(self, kernel_size=1, stride=1, pad_mode="valid", padding=0, dilation=1,
                 return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, pad_mode, padding, dilation, return_indices,
                         ceil_mode)


class _AdaptiveNd(Cell):
    rank, how, unbatched, index_dtype = 1, "avg", False, None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        name = type(self).__name__
        # checked against a stand-in input size: None entries are resolved per call
        _adaptive.output_sizes(name, output_size, (1,) * self.rank)
        self.output_size = output_size
        self.return_indices = _checks.boolean(return_indices, "return_indices", name)

    def construct(self, input):
        kwargs = {} if self.index_dtype is None else {"index_dtype": self.index_dtype}
        return _adaptive.adaptive_pool(type(self).__name__, input, self.output_size,
                                       self.rank, self.how, self.return_indices,
                                       self.unbatched, **kwargs)

    def extend_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptiveNd):
    """Average an (N, C, L) float tensor to ``output_size`` positions (windows
    ``[floor(o * L / out), ceil((o + 1) * L / out))``; L need not be a multiple, unlike
    MindSpore 2.10).

    >>> import tensorjit as ms
    >>> print(ms.nn.AdaptiveAvgPool1d(2)(ms.Tensor([[[1., 2., 3., 4.]]])))
    [[[1.5 3.5]]]
    """


class AdaptiveAvgPool3d(_AdaptiveNd):
    """Average an (N, C, D, H, W) or (C, D, H, W) float tensor to ``output_size`` (an int
    or 3 ints / None: None keeps that size).

    >>> import tensorjit as ms
    >>> print(ms.nn.AdaptiveAvgPool3d((1, None, 2))(ms.ops.ones((1, 1, 3, 4, 4))).shape)
    (1, 1, 1, 4, 2)
    """
    rank, unbatched = 3, True


class AdaptiveMaxPool1d(_AdaptiveNd):
    """The max over each of ``output_size`` windows of an (N, C, L) tensor (any dtype but
    bool; L need not be a multiple of ``output_size``, unlike MindSpore 2.10).

    >>> import tensorjit as ms
    >>> print(ms.nn.AdaptiveMaxPool1d(2)(ms.Tensor([[[1., 5., 3., 4.]]])))
    [[[5. 4.]]]
    """
    how = "max"

    def __init__(self, output_size):
        super().__init__(output_size)


class AdaptiveMaxPool2d(_AdaptiveNd):
    """Adaptive max pooling of an (N, C, H, W) or (C, H, W) tensor to ``output_size`` (an
    int or 2 ints / None); ``return_indices``: also the int64 flat index over H*W.

    >>> import tensorjit as ms
    >>> x = ms.ops.arange(16.).reshape(1, 1, 4, 4)
    >>> print(ms.nn.AdaptiveMaxPool2d(2)(x).reshape(-1))
    [ 5.  7. 13. 15.]
    """
    rank, how, unbatched = 2, "max", True


class AdaptiveMaxPool3d(_AdaptiveNd):
    """Adaptive max pooling of an (N, C, D, H, W) or (C, D, H, W) tensor to
    ``output_size``; ``return_indices``: also the flat index over D*H*W (int32, as
    MindSpore 2.10's).

    >>> import tensorjit as ms
    >>> x = ms.ops.arange(8.).reshape(1, 1, 2, 2, 2)
    >>> print(ms.nn.AdaptiveMaxPool3d(1)(x).reshape(-1))
    [7.]
    """
    rank, how, unbatched, index_dtype = 3, "max", True, dt.int32


class _LPPoolNd(Cell):
    rank = 1

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        name = type(self).__name__
        if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float)):
            raise TypeError(f"{name}: 'norm_type' must be a float or an int, got "
                            f"{type(norm_type).__name__}")
        if norm_type == 0:
            raise ValueError(f"{name}: 'norm_type' can not be 0")
        self.norm_type = norm_type
        self.kernel_size = _ints(kernel_size, self.rank, "kernel_size", name)
        self.stride = None if stride is None else _ints(stride, self.rank, "stride", name)
        self.ceil_mode = _checks.boolean(ceil_mode, "ceil_mode", name)

    def construct(self, x):
        name = type(self).__name__
        x, unbatched = _pool.spatial(name, x, self.rank, unbatched=True)
        out = _pool.lp_pool(name, x, self.norm_type, self.kernel_size, self.stride,
                            self.ceil_mode, self.rank)
        return _pool.unbatch(out, unbatched)

    def extend_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """Power-average pooling of an (N, C, L) or (C, L) tensor:
    ``(sum over each window of x ** norm_type) ** (1 / norm_type)`` (see ops.lp_pool1d).

    >>> import tensorjit as ms
    >>> print(ms.nn.LPPool1d(2, 2)(ms.Tensor([[[3., 4., 1., 1.]]])))
    [[[5.        1.4142135]]]
    """


class LPPool2d(_LPPoolNd):
    """Power-average pooling of an (N, C, H, W) or (C, H, W) tensor (see ops.lp_pool2d;
    MindSpore 2.10 refuses the unbatched form).

    >>> import tensorjit as ms
    >>> print(ms.nn.LPPool2d(1, 2)(ms.ops.ones((1, 1, 2, 2))).reshape(-1))
    [4.]
    """
    rank = 2


class _MaxUnpoolNd(Cell):
    rank = 1

    def __init__(self, kernel_size, stride=None, padding=0):
        super().__init__()
        name = type(self).__name__
        self.kernel_size = _ints(kernel_size, self.rank, "kernel_size", name)
        self.stride = self.kernel_size if stride is None else \
            _ints(stride, self.rank, "stride", name)
        self.padding = _ints(padding, self.rank, "padding", name, minimum=0)

    def construct(self, x, indices, output_size=None):
        return _unpool.max_unpool(type(self).__name__, x, indices, self.kernel_size,
                                  self.stride, self.padding, output_size, self.rank)

    def extend_repr(self):
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"padding={self.padding}")


class MaxUnpool1d(_MaxUnpoolNd):
    """Max unpooling of an (N, C, L) or (C, L) tensor at ``indices`` (from max pooling
    with ``return_indices``) into zeros; ``construct(x, indices, output_size=None)``
    (see ops.max_unpool1d).

    >>> import tensorjit as ms
    >>> unpool = ms.nn.MaxUnpool1d(2)
    >>> print(unpool(ms.Tensor([[[5., 7.]]]), ms.Tensor([[[1, 2]]])))
    [[[0. 5. 7. 0.]]]
    """


class MaxUnpool2d(_MaxUnpoolNd):
    """Max unpooling of an (N, C, H, W) or (C, H, W) tensor (see ops.max_unpool2d).

    >>> import tensorjit as ms
    >>> out = ms.nn.MaxUnpool2d(2)(ms.Tensor([[[[9.]]]]), ms.Tensor([[[[3]]]]))
    >>> print(out.reshape(-1))
    [0. 0. 0. 9.]
    """
    rank = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """Max unpooling of an (N, C, D, H, W) or (C, D, H, W) tensor (see ops.max_unpool3d).

    >>> import tensorjit as ms
    >>> out = ms.nn.MaxUnpool3d(2)(ms.Tensor([[[[[9.]]]]]), ms.Tensor([[[[[7]]]]]))
    >>> print(out.shape)
    (1, 1, 2, 2, 2)
    """
    rank = 3


class _FractionalMaxPoolNd(Cell):
    rank = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                 _random_samples=None):
        super().__init__()
        name = type(self).__name__
        self.kernel_size = _ints(kernel_size, self.rank, "kernel_size", name)
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name}: 'output_size' and 'output_ratio' can not both be None")
        self.output_size = None if output_size is None else \
            _ints(output_size, self.rank, "output_size", name)
        self.output_ratio = output_ratio
        self.return_indices = _checks.boolean(return_indices, "return_indices", name)
        self._random_samples = _random_samples

    def construct(self, input):
        return _fractional.fractional_max_pool(
            type(self).__name__, input, self.kernel_size, self.output_size, self.output_ratio,
            self.return_indices, self._random_samples, self.rank)

    def extend_repr(self):
        return (f"kernel_size={self.kernel_size}, output_size={self.output_size}, "
                f"output_ratio={self.output_ratio}")


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling of an (N, C, H, W) or (C, H, W) tensor to ``output_size`` or
    ``output_ratio`` of the input size, with pseudo-random windows of ``kernel_size`` (see
    ops.fractional_max_pool2d; ``_random_samples`` fixes them, else each call draws from
    tensorjit's generator).

    >>> import tensorjit as ms
    >>> pool = ms.nn.FractionalMaxPool2d(2, output_size=(2, 2))
    >>> print(pool(ms.ops.arange(25.).reshape(1, 1, 5, 5)).shape)
    (1, 1, 2, 2)
    """


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling of an (N, C, D, H, W) or (C, D, H, W) tensor (see
    ops.fractional_max_pool3d).

    >>> import tensorjit as ms
    >>> pool = ms.nn.FractionalMaxPool3d(2, output_ratio=0.5)
    >>> print(pool(ms.ops.ones((1, 1, 4, 4, 4))).shape)
    (1, 1, 2, 2, 2)
    """
    rank = 3
