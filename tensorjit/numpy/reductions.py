"""Reductions and scans (mindspore.numpy's reductions, first part): sum / mean / max ...,
their nan-ignoring forms, cumulative sums. Differences and integrals: ``differences.py``.

Result dtypes are MindSpore 2.10's: ``sum`` of an integer or bool tensor is int64,
``mean`` / ``average`` keep an integer tensor's dtype (the mean truncated, as
mindspore.numpy's), ``std`` / ``var`` of integers are float32, ``argmax`` is int64 and
``argmin`` int32 (as MindSpore's CPU kernels give them).
"""
import numpy as np

from .. import dtype as dt
from .. import ops
from ._common import float_of, norm_axes, norm_axis, to_tensor, with_dtype


def _t(x, name):
    return to_tensor(x, name=name)


def _axes(a, axis):
    return norm_axes(axis, a.ndim)


def _keep(result, a, axes, keepdims):
    """``result`` reduced over ``axes`` without keepdims, reshaped to keep them."""
    if not keepdims:
        return result
    return ops.reshape(result, tuple(1 if i in axes else d for i, d in enumerate(a.shape)))


def sum(a, axis=None, dtype=None, keepdims=False, initial=None):  # noqa: A001
    """Sum of elements over ``axis`` (all when None).

    mindspore.numpy.sum: dtype (default: the input's for floats; int64 for integer and
    bool tensors, as MindSpore's); keepdims; initial is added to the sum.

    >>> import tensorjit.numpy as mnp
    >>> s = mnp.sum(mnp.array([[1, 2], [3, 4]]), axis=0)
    >>> s.asnumpy().tolist(), s.dtype
    ([4, 6], dtype('int64'))
    """
    a = _t(a, "sum")
    axes = _axes(a, axis)
    if dtype is not None:
        a = ops.cast(a, dt.as_dtype(dtype))
    elif not dt.is_float(a.dtype):
        a = ops.cast(a, dt.int64)
    result = ops.sum(a, axes, keepdims=keepdims) if axes else a
    if initial is not None:
        result = result + initial
    return ops.cast(result, a.dtype) if result.dtype != a.dtype else result


def mean(a, axis=None, keepdims=False, dtype=None):
    """Arithmetic mean over ``axis`` (all when None).

    mindspore.numpy.mean: dtype (default the input's: an integer tensor's mean is
    truncated to its dtype, as MindSpore's; NumPy gives float64); keepdims.

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.mean(mnp.array([1.0, 2.0])))
    1.5
    """
    a = _t(a, "mean")
    out_dtype = dt.as_dtype(dtype) if dtype is not None else a.dtype
    axes = _axes(a, axis)
    # integer means are computed in float64, then truncated to the integer dtype
    compute_dtype = out_dtype if dt.is_float(out_dtype) else dt.float64
    x = a if a.dtype == compute_dtype else ops.cast(a, compute_dtype)
    result = ops.mean(x, axes, keepdims=keepdims) if axes else x
    if not dt.is_float(out_dtype):
        result = _trunc(result)
    return ops.cast(result, out_dtype) if result.dtype != out_dtype else result


def _trunc(x):
    return ops.where(x < 0, ops.ceil(x), ops.floor(x))


def average(x, axis=None, weights=None, returned=False):
    """Weighted average over ``axis`` (all when None).

    mindspore.numpy.average: weights (the shape of x, or 1-D along one axis); returned
    also gives the sum of weights. Without weights an integer tensor's average keeps its
    dtype, as ``mean``.

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.average(mnp.array([1.0, 2.0, 4.0]), weights=mnp.array([1.0, 1.0, 2.0])))
    2.75
    """
    x = _t(x, "average")
    if weights is None:
        result = mean(x, axis)
        count = x.size if axis is None else int(np.prod([x.shape[a] for a in _axes(x, axis)]))
        total = ops.full(tuple(result.shape), count, dtype=result.dtype)
        return (result, total) if returned else result
    w = _t(weights, "average")
    axes = _axes(x, axis)
    if tuple(w.shape) != tuple(x.shape):
        if axis is None or w.ndim != 1 or len(axes) != 1 or w.shape[0] != x.shape[axes[0]]:
            raise ValueError("average: weights must have the shape of x, or be 1-D with the "
                             "length of x along a single axis")
        w = ops.reshape(w, tuple(-1 if i == axes[0] else 1 for i in range(x.ndim)))
    xf = float_of(x)
    w = ops.cast(w, xf.dtype) if w.dtype != xf.dtype else w
    w = ops.broadcast_to(w, tuple(x.shape))
    total = ops.sum(w, axes)
    result = ops.sum(xf * w, axes) / total
    return (result, total) if returned else result


def _extreme(name, reduce_fn):
    def function(a, axis=None, keepdims=False, initial=None, where=True):
        a = _t(a, name)
        axes = _axes(a, axis)
        if where is not True:
            if initial is None:
                raise ValueError(f"{name}: reducing with 'where' needs an 'initial' value")
            a = ops.where(_t(where, name), a, ops.full_like(a, initial))
        if a.size == 0 and initial is None:
            raise ValueError(f"{name}: zero-size tensor to reduction operation which has no "
                             f"identity")
        result = reduce_fn(a, axes, keepdims=keepdims) if axes else a
        if initial is not None:
            result = (ops.maximum if name in ("amax", "max") else ops.minimum)(
                result, ops.cast(_t(initial, name), result.dtype))
        return result
    word = "maximum" if "max" in name else "minimum"
    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"The {word} over ``axis`` (all when None); nan propagates.\n\n"
        f"    mindspore.numpy.{name}: keepdims; initial (also the value for an empty "
        f"tensor); where (a bool mask, needs initial).\n\n"
        f"    >>> import tensorjit.numpy as mnp\n"
        f"    >>> mnp.{name}(mnp.array([[1, 5], [3, 2]]), axis=0).asnumpy().tolist()\n"
        f"    {[3, 5] if word == 'maximum' else [1, 2]}\n")
    return function


amax = _extreme("amax", ops.amax)
amin = _extreme("amin", ops.amin)
max = _extreme("max", ops.amax)  # noqa: A001
min = _extreme("min", ops.amin)  # noqa: A001


def _arg(name, fn, out_dtype):
    def function(a, axis=None):
        a = _t(a, name)
        if axis is None:
            a, axis = ops.reshape(a, (-1,)), 0
        axis = norm_axis(axis, a.ndim)
        if a.shape[axis] == 0:
            raise ValueError(f"{name}: attempt to get {name} of an empty sequence")
        return ops.cast(fn(a, axis), out_dtype)
    function.__name__ = function.__qualname__ = name
    word = "largest" if name == "argmax" else "smallest"
    function.__doc__ = (
        f"Index of the {word} element along ``axis`` (of the flattened tensor when None); "
        f"the first one on ties.\n\n    mindspore.numpy.{name}: the result is "
        f"{out_dtype.name}, as MindSpore 2.10's CPU kernel gives it.\n\n"
        f"    >>> import tensorjit.numpy as mnp\n"
        f"    >>> int(mnp.{name}(mnp.array([3, 1, 4])))\n    {2 if name == 'argmax' else 1}\n")
    return function


argmax = _arg("argmax", lambda a, axis: ops.argmax(a, axis=axis), dt.int64)
argmin = _arg("argmin", lambda a, axis: ops.argmin(a, axis=axis), dt.int32)


def _moments(a, axes, ddof, keepdims, ignore_nan):
    x = float_of(a)
    if ignore_nan:
        valid = ops.logical_not(ops.isnan(x))
        zero = ops.zeros_like(x)
        count = ops.sum(ops.cast(valid, x.dtype), axes, keepdims=True)
        centre = ops.sum(ops.where(valid, x, zero), axes, keepdims=True) / count
        deviation = ops.where(valid, x - centre, zero)
    else:
        count = float(np.prod([x.shape[ax] for ax in axes])) if axes else 1.0
        centre = ops.mean(x, axes, keepdims=True) if axes else x
        deviation = x - centre
    squares = ops.sum(deviation * deviation, axes, keepdims=keepdims) if axes else \
        deviation * deviation
    if ignore_nan and not keepdims:
        count = ops.reshape(count, tuple(squares.shape))
    return squares / (count - ddof)


def var(x, axis=None, ddof=0, keepdims=False):
    """Variance over ``axis``: mean((x - mean(x)) ** 2) * n / (n - ddof).

    mindspore.numpy.var: integer inputs give float32.

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.var(mnp.array([1.0, 2.0])))
    0.25
    """
    x = _t(x, "var")
    return _moments(x, _axes(x, axis), ddof, keepdims, False)


def std(x, axis=None, ddof=0, keepdims=False):
    """Standard deviation over ``axis``: sqrt(var(x, axis, ddof)).

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.std(mnp.array([1.0, 3.0])))
    1.0
    """
    return ops.sqrt(var(x, axis, ddof, keepdims))


def ptp(x, axis=None, keepdims=False):
    """Range of values (maximum - minimum) over ``axis``.

    >>> import tensorjit.numpy as mnp
    >>> int(mnp.ptp(mnp.array([1, 5, 3])))
    4
    """
    return amax(x, axis, keepdims) - amin(x, axis, keepdims)


# ---- nan-ignoring forms

def _without_nan(a, fill):
    if not dt.is_float(a.dtype):
        return a
    return ops.where(ops.isnan(a), ops.full_like(a, fill), a)


def nansum(a, axis=None, dtype=None, keepdims=False):
    """Sum over ``axis`` treating nan as zero (integer tensors keep their dtype, as
    MindSpore's).

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.nansum(mnp.array([1.0, float("nan"), 3.0])))
    4.0
    """
    a = _t(a, "nansum")
    out = dt.as_dtype(dtype) if dtype is not None else a.dtype
    return ops.cast(sum(_without_nan(a, 0), axis, out, keepdims), out)


def nanmean(a, axis=None, dtype=None, keepdims=False):
    """Mean over ``axis`` ignoring nan (nan where every value is nan).

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.nanmean(mnp.array([1.0, float("nan"), 3.0])))
    2.0
    """
    a = _t(a, "nanmean")
    if not dt.is_float(a.dtype):
        return mean(a, axis, keepdims, dtype)
    axes = _axes(a, axis)
    valid = ops.cast(ops.logical_not(ops.isnan(a)), a.dtype)
    result = ops.sum(_without_nan(a, 0), axes, keepdims=keepdims) / ops.sum(
        valid, axes, keepdims=keepdims)
    return with_dtype(result, dtype)


def _nan_extreme(name, reduce_fn, fill):
    def function(a, axis=None, dtype=None, keepdims=False):
        a = _t(a, name)
        if not dt.is_float(a.dtype):
            return with_dtype(reduce_fn(a, axis, keepdims), dtype)
        axes = _axes(a, axis)
        all_nan = ops.all(ops.isnan(a), axes, keepdims=keepdims)
        result = reduce_fn(_without_nan(a, fill), axis, keepdims)
        return with_dtype(ops.where(all_nan, ops.full_like(result, float("nan")), result), dtype)
    word = "maximum" if "max" in name else "minimum"
    function.__name__ = function.__qualname__ = name
    function.__doc__ = (
        f"The {word} over ``axis`` ignoring nan (nan where every value is nan).\n\n"
        f"    >>> import tensorjit.numpy as mnp\n"
        f"    >>> float(mnp.{name}(mnp.array([1.0, float('nan'), 3.0])))\n"
        f"    {3.0 if word == 'maximum' else 1.0}\n")
    return function


nanmax = _nan_extreme("nanmax", lambda a, axis, k: amax(a, axis, k), float("-inf"))
nanmin = _nan_extreme("nanmin", lambda a, axis, k: amin(a, axis, k), float("inf"))


def nanvar(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """Variance over ``axis`` ignoring nan.

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.nanvar(mnp.array([1.0, float("nan"), 3.0])))
    1.0
    """
    a = _t(a, "nanvar")
    return with_dtype(_moments(a, _axes(a, axis), ddof, keepdims, True), dtype)


def nanstd(a, axis=None, dtype=None, ddof=0, keepdims=False):
    """Standard deviation over ``axis`` ignoring nan.

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.nanstd(mnp.array([1.0, float("nan"), 3.0])))
    1.0
    """
    return ops.sqrt(nanvar(a, axis, dtype, ddof, keepdims))


# ---- scans

def cumsum(a, axis=None, dtype=None):
    """Cumulative sum along ``axis`` (of the flattened tensor when None).

    mindspore.numpy.cumsum: dtype (default: the input's for floats and int32 / int64;
    int32 for smaller integers and bools, as MindSpore's).

    >>> import tensorjit.numpy as mnp
    >>> mnp.cumsum(mnp.array([1, 2, 3])).asnumpy().tolist()
    [1, 3, 6]
    """
    return _scan(a, axis, dtype, ops.cumsum, "cumsum")


def cumprod(a, axis=None, dtype=None):
    """Cumulative product along ``axis`` (of the flattened tensor when None).

    >>> import tensorjit.numpy as mnp
    >>> mnp.cumprod(mnp.array([1, 2, 3])).asnumpy().tolist()
    [1, 2, 6]
    """
    return _scan(a, axis, dtype, ops.cumprod, "cumprod")


def _scan(a, axis, dtype, fn, name):
    a = _t(a, name)
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    axis = norm_axis(axis, a.ndim)
    if dtype is not None:
        out = dt.as_dtype(dtype)
    elif dt.is_float(a.dtype) or a.dtype in (dt.int32, dt.int64):
        out = a.dtype
    else:
        out = dt.int32
    result = fn(ops.cast(a, out) if a.dtype != out else a, axis)
    return ops.cast(result, out) if result.dtype != out else result


def nancumsum(a, axis=None, dtype=None):
    """Cumulative sum treating nan as zero.

    >>> import tensorjit.numpy as mnp
    >>> mnp.nancumsum(mnp.array([1.0, float("nan"), 2.0])).asnumpy().tolist()
    [1.0, 1.0, 3.0]
    """
    return cumsum(_without_nan(_t(a, "nancumsum"), 0), axis, dtype)
