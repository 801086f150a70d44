"""Differences and integrals (mindspore.numpy): diff, ediff1d, gradient, trapz, interp,
unwrap, built from ops so that they run under ``jit`` and differentiate."""
import builtins
import math

from .. import dtype as dt
from .. import ops
from ._common import float_of, is_number, norm_axes, norm_axis, to_tensor
from .reductions import _t


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
