"""Order statistics and NaN-aware reductions of MindSpore's ``ops``: ``median`` /
``nanmedian`` (values and int64 indices), ``quantile`` / ``nanquantile``, ``nansum`` /
``nanmean``, ``count_nonzero``, ``std_mean`` / ``var_mean``, ``aminmax``, ``vecdot``,
``vector_norm``. Values are gathered from a sort, so they differentiate."""
import math

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from .creation import full
from .indexing import take_along_axis
from .shape import reshape, squeeze, stack
from .sorting import argsort_p

_MEDIAN = (dt.int16, dt.int32, dt.int64, dt.float32, dt.float64)


def _sorted_order(x, axis):
    return argsort_p.bind(x, axis=axis, descending=False)    # stable; NaN last


def _count_valid(x, axis, ignore_nan=True):
    """The non-NaN elements along ``axis`` (``ignore_nan=False``: all of them), int64 with
    the axis kept."""
    if not ignore_nan or not dt.is_float(x.dtype):
        shape = tuple(1 if a == axis else d for a, d in enumerate(x.shape))
        return full(shape, x.shape[axis], dtype=dt.int64)
    return _red.sum(_ew.cast(_ew.logical_not(_ew.isnan(x)), dt.int64), axis, keepdims=True)


def _median(x, axis, keepdims, ignore_nan, op):
    x = coerce.as_tensor(x, op=op)
    if x.dtype not in _MEDIAN:
        raise TypeError(f"For 'Median', the input dtype {x.dtype} is not supported")
    if x.ndim == 0:
        return x, coerce.constant(np.array(0, np.int64))
    axis = coerce.normalize_axis(axis, x.ndim, op)
    order = _sorted_order(x, axis)
    valid = _count_valid(x, axis)
    n = x.shape[axis]
    if ignore_nan:    # the lower median of the non-NaN elements; all NaN: the first
        position = _ew.floor_div(_ew.maximum(_ew.sub(valid, 1), 0), 2)
    else:             # a NaN anywhere makes the median NaN, at the first NaN's index
        position = _ew.where(_ew.lt(valid, n), valid, (n - 1) // 2)
    index = take_along_axis(order, position, axis)
    values = take_along_axis(x, index, axis)
    if not keepdims:
        values, index = squeeze(values, axis), squeeze(index, axis)
    return values, index


def median(input, axis=-1, keepdims=False):
    """(the lower median along ``axis``, its int64 index); NaN if the row holds one."""
    return _median(input, axis, keepdims, False, "median")


def nanmedian(input, axis=-1, keepdims=False):
    """(the lower median of the non-NaN elements along ``axis``, its int64 index)."""
    return _median(input, axis, keepdims, True, "nanmedian")


def _quantile(x, q, axis, keepdims, ignore_nan, op):
    x = coerce.as_tensor(x, op=op)
    if x.dtype not in (dt.float32, dt.float64):
        raise TypeError(f"For 'Quantile', the input must be float32 or float64, got {x.dtype}")
    scalar_q = not isinstance(q, Tensor)
    q_values = np.asarray(q.asnumpy() if isinstance(q, Tensor) else q, np.float64)
    if q_values.ndim > 1 or np.any((q_values < 0) | (q_values > 1)):
        raise ValueError(f"For 'Quantile', 'q' must be a number or a 1-D tensor in [0, 1], "
                         f"got {q_values.tolist()}")
    if axis is None:
        x, axis, keep_shape = reshape(x, (-1,)), 0, (1,) * x.ndim
    else:
        axis = coerce.normalize_axis(axis, x.ndim, op)
        keep_shape = None
    ordered = take_along_axis(x, _sorted_order(x, axis), axis)
    valid = _count_valid(x, axis, ignore_nan)
    last = _ew.cast(_ew.maximum(_ew.sub(valid, 1), 0), x.dtype)
    results = []
    for fraction in q_values.reshape(-1):
        position = _ew.mul(last, float(fraction))
        low = _ew.floor(position)
        high = _ew.minimum(_ew.add(low, 1), last)
        a = take_along_axis(ordered, _ew.cast(low, dt.int64), axis)
        b = take_along_axis(ordered, _ew.cast(high, dt.int64), axis)
        value = _ew.add(a, _ew.mul(_ew.sub(b, a), _ew.sub(position, low)))
        if not ignore_nan:    # NaN sorts last: a row holding one has a NaN quantile
            has_nan = _red.any(_ew.isnan(x), axis, keep_dims=True)
            value = _ew.where(has_nan, float("nan"), value)
        if keep_shape is not None:
            value = reshape(value, keep_shape) if keepdims else reshape(value, ())
        elif not keepdims:
            value = squeeze(value, axis)
        results.append(value)
    if scalar_q:
        return results[0]
    return stack(results, 0)


def quantile(input, q, axis=None, keepdims=False):
    """The ``q``-th quantiles along ``axis`` (all elements when None), interpolating
    linearly between order statistics; a tensor ``q`` adds a leading axis."""
    return _quantile(input, q, axis, keepdims, False, "quantile")


def nanquantile(input, q, axis=None, keepdims=False):
    """``quantile`` of the non-NaN elements."""
    return _quantile(input, q, axis, keepdims, True, "nanquantile")


def _nan_as_zero(x):
    return _ew.where(_ew.isnan(x), _ew.zeros_like(x), x) if dt.is_float(x.dtype) else x


def nansum(input, axis=None, keepdims=False, *, dtype=None):
    """The sum treating NaN as 0: integers in their own dtype, bool in int64."""
    x = coerce.as_tensor(input, op="nansum")
    if dtype is not None:
        x = _ew.cast(x, dtype)
    total = _red.sum(_nan_as_zero(x), axis, keepdims)
    if dt.is_int(x.dtype):
        total = _ew.cast(total, x.dtype)
    return total


def nanmean(input, axis=None, keepdims=False, *, dtype=None):
    """The mean of the non-NaN elements (floats only; no such element: NaN)."""
    x = coerce.as_tensor(input, op="nanmean")
    if dtype is not None:
        x = _ew.cast(x, dtype)
    if not dt.is_float(x.dtype):
        raise TypeError(f"For 'nanmean', the input must be a float tensor, got {x.dtype}")
    count = _red.sum(_ew.cast(_ew.logical_not(_ew.isnan(x)), x.dtype), axis, keepdims)
    return _ew.div(_red.sum(_nan_as_zero(x), axis, keepdims), count)


def count_nonzero(x, axis=(), keep_dims=False, dtype=dt.int32):
    """The number of non-zero elements over ``axis`` (``()``: all), as ``dtype``."""
    x = coerce.as_tensor(x, op="count_nonzero")
    if x.dtype == dt.bool_:
        raise TypeError("For 'count_nonzero', a bool input is not supported")
    axes = None if axis == () or axis is None else axis
    counts = _red.sum(_ew.cast(_ew.ne(x, 0), dt.int64), axes, keep_dims)
    return _ew.cast(counts, dtype)


def _float_input(op, x):
    x = coerce.as_tensor(x, op=op)
    if not dt.is_float(x.dtype):
        raise TypeError(f"For '{op}', the input must be a float tensor, got {x.dtype}")
    return x


def std_mean(input, axis=None, ddof=0, keepdims=False):
    """(the standard deviation with ``ddof`` degrees of freedom removed -- a bool:
    unbiased or not --, the mean)."""
    x = _float_input("std_mean", input)
    return _red.std(x, axis, int(ddof), keepdims), _red.mean(x, axis, keepdims)


def var_mean(input, axis=None, ddof=0, keepdims=False):
    """(the variance with ``ddof`` degrees of freedom removed, the mean)."""
    x = _float_input("var_mean", input)
    return _red.var(x, axis, int(ddof), keepdims), _red.mean(x, axis, keepdims)


def aminmax(input, *, axis=0, keepdims=False):
    """(the minimum, the maximum) along ``axis`` (None: of all elements)."""
    x = coerce.as_tensor(input, op="aminmax")
    return _red.amin(x, axis, keepdims), _red.amax(x, axis, keepdims)


def vecdot(x, y, *, axis=-1):
    """The dot products of ``x`` and ``y``'s vectors along ``axis`` (broadcast together)."""
    x, y = coerce.as_tensor(x, op="vecdot"), coerce.as_tensor(y, op="vecdot")
    if dt.bool_ in (x.dtype, y.dtype):
        raise TypeError("For 'vecdot', bool inputs are not supported")
    return _red.sum(_ew.mul(x, y), axis)


def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):
    """The ``ord``-norm of ``x`` over ``axis`` (all elements when None): ``inf``,
    ``-inf``, 0 (the count of non-zeros) or any real ``p``; integers in float32; its
    gradient at 0 is 0."""
    x = coerce.as_tensor(x, op="vector_norm")
    if x.dtype == dt.bool_:
        raise TypeError("For 'vector_norm', a bool input is not supported")
    if isinstance(ord, (str, bool)) or not isinstance(ord, (int, float, np.number)):
        raise ValueError(f"For 'vector_norm', 'ord' must be a number, got {ord!r}")
    if dtype is not None:
        x = _ew.cast(x, dtype)
    if not dt.is_float(x.dtype):
        x = _ew.cast(x, dt.float32)
    return abs_power_sum(x, float(ord), axis, keepdims)


def abs_power_sum(x, p, axis, keepdims):
    """``sum(|x|**p) ** (1/p)`` over ``axis``, with its limits (max, min, non-zero count)."""
    if p == math.inf:
        return _red.amax(_ew.abs(x), axis, keepdims)
    if p == -math.inf:
        return _red.amin(_ew.abs(x), axis, keepdims)
    if p == 0:
        return _red.sum(_ew.cast(_ew.ne(x, 0), x.dtype), axis, keepdims)
    if p == 1:
        return _red.sum(_ew.abs(x), axis, keepdims)
    if p == 2:
        return _red._safe_sqrt(_red.sum(_ew.mul(x, x), axis, keepdims))
    return _ew.pow(_red.sum(_ew.pow(_ew.abs(x), p), axis, keepdims), 1.0 / p)
