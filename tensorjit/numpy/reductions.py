"""Longer than 500 lines for now: mindspore.numpy's reduction page in one module; to be
split (plain reductions / nan-ignoring ones / differences and integration).

Reductions, scans and differences: sum / mean / max ..., their nan-ignoring forms,
cumulative sums, diff, gradient, trapz, interp, unwrap.

Result dtypes are MindSpore 2.10's: ``sum`` of an integer or bool tensor is int64,
``mean`` / ``average`` keep an integer tensor's dtype (the mean truncated, as
mindspore.numpy's), ``std`` / ``var`` of integers are float32, ``argmax`` is int64 and
``argmin`` int32 (as MindSpore's CPU kernels give them).
"""
import builtins
import math

import numpy as np

from .. import dtype as dt
from .. import ops
from ._common import float_of, is_number, norm_axes, norm_axis, to_tensor, with_dtype


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


# ---- differences and integrals

def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th discrete difference along ``axis`` (bool tensors give xor).

    mindspore.numpy.diff: prepend / append (numbers or tensors) are joined to ``a``
    along ``axis`` first.

    >>> import tensorjit.numpy as mnp
    >>> mnp.diff(mnp.array([1, 4, 9])).asnumpy().tolist()
    [3, 5]
    """
    a = _t(a, "diff")
    if not isinstance(n, int) or n < 0:
        raise ValueError(f"diff: order n must be non-negative but got {n!r}")
    if a.ndim == 0:
        raise ValueError("diff: the input must be at least 1-D")
    axis = norm_axis(axis, a.ndim)
    parts = [_edge_values(prepend, a, axis), a, _edge_values(append, a, axis)]
    parts = [p for p in parts if p is not None]
    if len(parts) > 1:
        a = ops.concat(parts, axis)
    for _ in range(n):
        m = a.shape[axis]
        high = ops.slice_axis(a, axis, 1, m)
        low = ops.slice_axis(a, axis, 0, builtins.max(m - 1, 0))
        a = ops.logical_xor(high, low) if a.dtype == dt.bool_ else high - low
    return a


def _edge_values(extra, a, axis):
    """diff's prepend / append as a tensor to join along ``axis`` (a number spans it)."""
    if extra is None:
        return None
    e = ops.cast(_t(extra, "diff"), a.dtype)
    if e.ndim == 0:
        shape = list(a.shape)
        shape[axis] = 1
        e = ops.broadcast_to(e, tuple(shape))
    return e


def ediff1d(ary, to_end=None, to_begin=None):
    """Differences between consecutive elements of the flattened tensor, with optional
    values joined before and after.

    >>> import tensorjit.numpy as mnp
    >>> mnp.ediff1d(mnp.array([1, 4, 9]), to_begin=0).asnumpy().tolist()
    [0, 3, 5]
    """
    flat = ops.reshape(_t(ary, "ediff1d"), (-1,))
    result = diff(flat)
    parts = [result]
    if to_begin is not None:
        parts.insert(0, ops.reshape(ops.cast(_t(to_begin, "ediff1d"), result.dtype), (-1,)))
    if to_end is not None:
        parts.append(ops.reshape(ops.cast(_t(to_end, "ediff1d"), result.dtype), (-1,)))
    return ops.concat(parts, 0) if len(parts) > 1 else result


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient of ``f`` by central differences inside and one-sided ones at the ends.

    mindspore.numpy.gradient: varargs are the spacings (one number or one coordinate
    tensor per axis); edge_order 1 or 2. One axis gives a tensor, several a list; integer
    inputs give float32.

    >>> import tensorjit.numpy as mnp
    >>> mnp.gradient(mnp.array([1.0, 2.0, 4.0])).asnumpy().tolist()
    [1.0, 1.5, 2.0]
    """
    f = float_of(_t(f, "gradient"))
    axes = list(range(f.ndim)) if axis is None else list(norm_axes(axis, f.ndim)) \
        if not isinstance(axis, int) else [norm_axis(axis, f.ndim)]
    if edge_order not in (1, 2):
        raise ValueError("gradient: edge_order must be 1 or 2")
    if len(varargs) == 0:
        spacings = [1.0] * len(axes)
    elif len(varargs) == 1 and is_number(varargs[0]):
        spacings = [float(varargs[0])] * len(axes)
    elif len(varargs) == len(axes):
        spacings = list(varargs)
    else:
        raise TypeError("gradient: invalid number of spacing arguments")
    out = [_gradient_axis(f, ax, h, edge_order) for ax, h in zip(axes, spacings)]
    return out[0] if len(out) == 1 else out


def _gradient_axis(f, axis, h, edge_order):
    n = f.shape[axis]
    if n < edge_order + 1:
        raise ValueError("gradient: shape of the array too small to calculate a numerical "
                         "gradient, at least (edge_order + 1) elements are required")

    def s(start, stop):
        return ops.slice_axis(f, axis, start, stop)

    if is_number(h):
        h = float(h)
        inner = (s(2, n) - s(0, n - 2)) / (2 * h)
        if edge_order == 1:
            first = (s(1, 2) - s(0, 1)) / h
            last = (s(n - 1, n) - s(n - 2, n - 1)) / h
        else:
            first = (-1.5 * s(0, 1) + 2 * s(1, 2) - 0.5 * s(2, 3)) / h
            last = (0.5 * s(n - 3, n - 2) - 2 * s(n - 2, n - 1) + 1.5 * s(n - 1, n)) / h
        return ops.concat([first, inner, last], axis)
    # coordinates: second-order accurate differences on an uneven grid, from the
    # spacings as tensors (so coordinates computed in a graph work too)
    x = ops.cast(to_tensor(h, name="gradient"), f.dtype)
    if x.ndim != 1 or x.shape[0] != n:
        raise ValueError("gradient: a coordinate array must be 1-D with the axis' length")
    d = diff(x)
    shape = tuple(-1 if i == axis else 1 for i in range(f.ndim))
    h1 = ops.reshape(ops.getitem(d, slice(0, n - 2)), shape)
    h2 = ops.reshape(ops.getitem(d, slice(1, n - 1)), shape)
    inner = (-h2 / (h1 * (h1 + h2)) * s(0, n - 2) + (h2 - h1) / (h1 * h2) * s(1, n - 1)
             + h1 / (h2 * (h1 + h2)) * s(2, n))
    if edge_order == 1:
        first = (s(1, 2) - s(0, 1)) / d[0]
        last = (s(n - 1, n) - s(n - 2, n - 1)) / d[n - 2]
    else:
        a, b = d[0], d[1]
        first = (-(2 * a + b) / (a * (a + b)) * s(0, 1) + (a + b) / (a * b) * s(1, 2)
                 - a / (b * (a + b)) * s(2, 3))
        a, b = d[n - 3], d[n - 2]
        last = (b / (a * (a + b)) * s(n - 3, n - 2) - (a + b) / (a * b) * s(n - 2, n - 1)
                + (a + 2 * b) / (b * (a + b)) * s(n - 1, n))
    return ops.concat([first, inner, last], axis)


def trapz(y, x=None, dx=1.0, axis=-1):
    """The integral of ``y`` along ``axis`` by the trapezoidal rule (at ``x`` or with
    spacing ``dx``); integer inputs give float32.

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.trapz(mnp.array([1.0, 2.0, 3.0])))
    4.0
    """
    y = float_of(_t(y, "trapz"))
    axis = norm_axis(axis, y.ndim)
    n = y.shape[axis]
    if x is None:
        widths = dx
    else:
        x = float_of(_t(x, "trapz"))
        if x.ndim == 1:
            widths = ops.reshape(diff(x), tuple(-1 if i == axis else 1 for i in range(y.ndim)))
        else:
            widths = diff(x, axis=axis)
    heights = (ops.slice_axis(y, axis, 1, n) +
               ops.slice_axis(y, axis, 0, builtins.max(n - 1, 0))) / 2
    return ops.sum(heights * widths, axis)


def interp(x, xp, fp, left=None, right=None):
    """One-dimensional linear interpolation of the points (xp, fp) at ``x``.

    mindspore.numpy.interp: xp increasing; left / right are the values below / above the
    range (default fp's ends); the result is float32 (float64 for float64 inputs).

    >>> import tensorjit.numpy as mnp
    >>> xp, fp = mnp.array([0.0, 1.0]), mnp.array([0.0, 2.0])
    >>> mnp.interp(mnp.array([0.5, 3.0]), xp, fp).asnumpy().tolist()
    [1.0, 2.0]
    """
    x, xp, fp = (float_of(_t(v, "interp")) for v in (x, xp, fp))
    if xp.ndim != 1 or fp.ndim != 1 or xp.shape[0] != fp.shape[0] or xp.shape[0] == 0:
        raise ValueError("interp: xp and fp must be 1-D sequences of the same, non-zero "
                         "length")
    dtype = dt.promote_types(dt.promote_types(x.dtype, xp.dtype), fp.dtype)
    x, xp, fp = (ops.cast(v, dtype) for v in (x, xp, fp))
    n = xp.shape[0]
    # index of the segment each x falls in, by counting the knots at or below it
    below = ops.sum(ops.cast(ops.expand_dims(x, -1) >= xp, dt.int32), -1)
    upper = ops.clip(below, 1, builtins.max(n - 1, 1))
    lower = upper - 1
    x0, x1 = ops.gather(xp, lower, 0), ops.gather(xp, upper, 0)
    y0, y1 = ops.gather(fp, lower, 0), ops.gather(fp, upper, 0)
    span = x1 - x0
    safe = ops.where(span == 0, ops.ones_like(span), span)
    result = y0 + (x - x0) * (y1 - y0) / safe if n > 1 else ops.broadcast_to(y0, tuple(x.shape))
    left = fp[0] if left is None else left
    right = fp[n - 1] if right is None else right
    result = ops.where(x < xp[0], ops.cast(_t(left, "interp"), dtype) * ops.ones_like(result),
                       result)
    result = ops.where(x > xp[n - 1], ops.cast(_t(right, "interp"), dtype) *
                       ops.ones_like(result), result)
    return ops.where(x == xp[n - 1], ops.broadcast_to(fp[n - 1], tuple(x.shape)), result)


def unwrap(p, discont=math.pi, axis=-1):
    """``p`` with jumps larger than ``discont`` between neighbours replaced by their
    2*pi complement (a phase unwrapped along ``axis``); integer inputs give float32.

    >>> import tensorjit.numpy as mnp
    >>> [round(v, 4) for v in mnp.unwrap(mnp.array([0.0, 4.0])).asnumpy().tolist()]
    [0.0, -2.2832]
    """
    p = float_of(_t(p, "unwrap"))
    axis = norm_axis(axis, p.ndim)
    n = p.shape[axis]
    if n < 2:
        return p
    d = diff(p, axis=axis)
    period = 2 * math.pi
    dd = ops.floor_mod(d + math.pi, period) - math.pi
    dd = ops.where(ops.logical_and(dd == -math.pi, d > 0), ops.full_like(dd, math.pi), dd)
    correction = dd - d
    correction = ops.where(ops.abs(d) < discont, ops.zeros_like(correction), correction)
    shifts = ops.cumsum(correction, axis)
    return ops.concat([ops.slice_axis(p, axis, 0, 1), ops.slice_axis(p, axis, 1, n) + shifts],
                      axis)
