"""Array manipulation: reordering (flip, roll, rot90, tile, repeat) and padding, built from
ops so that it runs under ``jit`` and differentiates."""
import numpy as np

from .. import dtype as dt
from .. import ops
from ..ops import coerce
from ..tensor import Tensor
from ._common import norm_axes, norm_axis, static_values, to_tensor
from .manipulation import swapaxes


def _t(x, name):
    return to_tensor(x, name=name)


def _index(values):
    return coerce.constant(np.asarray(values, dtype=np.int32))



# ---- reordering

def flip(m, axis=None):
    """``m`` with the order of elements reversed along ``axis`` (every axis by default).

    >>> import tensorjit.numpy as mnp
    >>> mnp.flip(mnp.array([1, 2, 3])).asnumpy().tolist()
    [3, 2, 1]
    """
    m = _t(m, "flip")
    axes = norm_axes(axis, m.ndim)
    if not axes:
        return m
    index = tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(m.ndim))
    return ops.getitem(m, index)


def fliplr(m):
    """``m`` reversed along axis 1 (left / right).

    >>> import tensorjit.numpy as mnp
    >>> mnp.fliplr(mnp.array([[1, 2]])).asnumpy().tolist()
    [[2, 1]]
    """
    m = _t(m, "fliplr")
    if m.ndim < 2:
        raise ValueError("fliplr: the input must be at least 2-D")
    return flip(m, 1)


def flipud(m):
    """``m`` reversed along axis 0 (up / down).

    >>> import tensorjit.numpy as mnp
    >>> mnp.flipud(mnp.array([1, 2])).asnumpy().tolist()
    [2, 1]
    """
    return flip(m, 0)


def roll(a, shift, axis=None):
    """``a`` with elements shifted cyclically by ``shift`` along ``axis`` (the flattened
    tensor when None); shift and axis may be tuples.

    >>> import tensorjit.numpy as mnp
    >>> mnp.roll(mnp.array([1, 2, 3]), 1).asnumpy().tolist()
    [3, 1, 2]
    """
    a = _t(a, "roll")
    if axis is None:
        return ops.reshape(roll(ops.reshape(a, (-1,)), shift, 0), tuple(a.shape))
    shifts = (shift,) if isinstance(shift, int) else tuple(shift)
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(shifts) == 1:
        shifts = shifts * len(axes)
    if len(axes) == 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError("roll: shift and axis must have the same length")
    for s, ax in zip(shifts, axes):
        ax = norm_axis(ax, a.ndim)
        n = a.shape[ax]
        s = s % n if n else 0
        if s:
            a = ops.concat([ops.slice_axis(a, ax, n - s, n), ops.slice_axis(a, ax, 0, n - s)], ax)
    return a


def rot90(a, k=1, axes=(0, 1)):
    """``a`` rotated by 90 degrees ``k`` times in the plane of ``axes`` (from the first
    axis towards the second).

    >>> import tensorjit.numpy as mnp
    >>> mnp.rot90(mnp.array([[1, 2], [3, 4]])).asnumpy().tolist()
    [[2, 4], [1, 3]]
    """
    a = _t(a, "rot90")
    if len(axes) != 2 or a.ndim < 2:
        raise ValueError("rot90: axes must be two different axes of a tensor of rank >= 2")
    first, second = norm_axis(axes[0], a.ndim, "axes"), norm_axis(axes[1], a.ndim, "axes")
    if first == second:
        raise ValueError("rot90: the two axes must be different")
    k %= 4
    if k == 0:
        return a
    if k == 2:
        return flip(a, (first, second))
    if k == 1:       # a quarter turn: reverse the second axis, then swap the two
        return swapaxes(flip(a, second), first, second)
    return flip(swapaxes(a, first, second), second)


def tile(a, reps):
    """``a`` repeated ``reps`` times along each axis.

    >>> import tensorjit.numpy as mnp
    >>> mnp.tile(mnp.array([1, 2]), 2).asnumpy().tolist()
    [1, 2, 1, 2]
    """
    a = _t(a, "tile")
    reps = (reps,) if isinstance(reps, int) else tuple(reps)
    if len(reps) > a.ndim:
        a = ops.reshape(a, (1,) * (len(reps) - a.ndim) + tuple(a.shape))
    reps = (1,) * (a.ndim - len(reps)) + reps
    return ops.tile(a, reps)


def repeat(a, repeats, axis=None):
    """Each element of ``a`` repeated ``repeats`` times (an int, or one count per element)
    along ``axis`` (the flattened tensor when None).

    >>> import tensorjit.numpy as mnp
    >>> mnp.repeat(mnp.array([1, 2]), [1, 2]).asnumpy().tolist()
    [1, 2, 2]
    """
    a = _t(a, "repeat")
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    axis = norm_axis(axis, a.ndim)
    counts = static_values(repeats, "repeat") if not isinstance(repeats, int) else repeats
    counts = np.broadcast_to(np.asarray(counts), (a.shape[axis],))
    if (counts < 0).any():
        raise ValueError("repeat: repeats may not contain negative values")
    return ops.gather(a, _index(np.repeat(np.arange(a.shape[axis]), counts)), axis)


# ---- padding

_INDEX_MODES = ("edge", "reflect", "symmetric", "wrap")
_STAT_MODES = ("maximum", "minimum", "mean", "median")


def _pairs(value, ndim, name):
    """NumPy's per-axis (before, after) spelling: a number, (n,), (a, b) or ((a, b), ...)."""
    if isinstance(value, Tensor):
        value = static_values(value, "pad").tolist()
    try:
        return np.broadcast_to(np.asarray(value), (ndim, 2)).tolist()
    except ValueError:
        raise ValueError(f"pad: {name} {value!r} does not fit a tensor of rank {ndim}") from None


def pad(arr, pad_width, mode="constant", stat_length=None, constant_values=0, end_values=0,
        reflect_type="even", **kwargs):
    """``arr`` padded along every axis by ``pad_width`` (NumPy's spelling).

    mindspore.numpy.pad: mode 'constant' (constant_values), 'edge', 'reflect',
    'symmetric', 'wrap', 'maximum' / 'minimum' / 'mean' / 'median' (over stat_length
    edge values), 'linear_ramp' (towards end_values), 'empty' (zeros here), or a callable
    (not supported: a ValueError). reflect_type 'odd' is not supported (ValueError).

    >>> import tensorjit.numpy as mnp
    >>> mnp.pad(mnp.array([1, 2]), 1, mode="edge").asnumpy().tolist()
    [1, 1, 2, 2]
    """
    arr = _t(arr, "pad")
    widths = [[int(w) for w in pair] for pair in _pairs(pad_width, arr.ndim, "pad_width")]
    if any(w < 0 for pair in widths for w in pair):
        raise ValueError(f"pad: pad_width must be non-negative, got {pad_width!r}")
    if reflect_type != "even":
        raise ValueError("pad: only reflect_type='even' is supported")
    if callable(mode) or mode not in ("constant", "empty", "linear_ramp") + _INDEX_MODES + \
            _STAT_MODES:
        raise ValueError(f"pad: mode {mode!r} is not supported")
    if mode in ("constant", "empty"):
        values = _pairs(constant_values if mode == "constant" else 0, arr.ndim,
                        "constant_values")
    elif mode == "linear_ramp":
        values = _pairs(end_values, arr.ndim, "end_values")
    else:
        values = _pairs(stat_length if stat_length is not None else 0, arr.ndim,
                        "stat_length")
    for axis, ((before, after), axis_values) in enumerate(zip(widths, values)):
        if before == 0 and after == 0:
            continue
        n = arr.shape[axis]
        if mode in _INDEX_MODES:
            if n == 0:
                raise ValueError(f"pad: cannot pad an empty axis in mode {mode!r}")
            index = np.pad(np.arange(n), (before, after), mode=mode)
            arr = ops.gather(arr, _index(index), axis)
            continue
        parts = [arr]
        for side, width, value in ((0, before, axis_values[0]), (1, after, axis_values[1])):
            if width == 0:
                continue
            shape = list(arr.shape)
            shape[axis] = width
            if mode in ("constant", "empty"):
                block = ops.full(tuple(shape), value, dtype=arr.dtype)
            elif mode == "linear_ramp":
                edge = ops.slice_axis(arr, axis, 0, 1) if side == 0 else \
                    ops.slice_axis(arr, axis, n - 1, n)
                steps = np.arange(width, 0, -1) / width if side == 0 else \
                    np.arange(1, width + 1) / width
                frac = np.reshape(steps, [-1 if i == axis else 1 for i in range(arr.ndim)])
                # integer ramps are computed in float64, then rounded down as NumPy's
                ramp_dtype = arr.dtype if dt.is_float(arr.dtype) else np.float64
                edge = ops.cast(edge, ramp_dtype)
                block = edge + (float(value) - edge) * coerce.constant(frac.astype(ramp_dtype))
                block = ops.cast(block if dt.is_float(arr.dtype) else ops.floor(block),
                                 arr.dtype)
            else:
                count = int(value) if value else n
                count = max(min(count, n), 1)
                edge = ops.slice_axis(arr, axis, 0, count) if side == 0 else \
                    ops.slice_axis(arr, axis, n - count, n)
                block = ops.broadcast_to(_edge_stat(edge, axis, mode, arr.dtype), tuple(shape))
            parts.insert(0 if side == 0 else len(parts), block)
        arr = ops.concat(parts, axis)
    return arr


def _edge_stat(edge, axis, mode, dtype):
    if mode == "maximum":
        return ops.amax(edge, axis, keepdims=True)
    if mode == "minimum":
        return ops.amin(edge, axis, keepdims=True)
    if mode == "mean":
        stat = ops.mean(ops.cast(edge, dt.float32) if not dt.is_float(dtype) else edge, axis,
                        keepdims=True)
    else:
        ordered = ops.sort(edge, axis)[0]
        n = edge.shape[axis]
        low = ops.slice_axis(ordered, axis, (n - 1) // 2, (n - 1) // 2 + 1)
        high = ops.slice_axis(ordered, axis, n // 2, n // 2 + 1)
        stat = (ops.cast(low, dt.float32) + ops.cast(high, dt.float32)) / 2 \
            if not dt.is_float(dtype) else (low + high) / 2
    return ops.cast(ops.round(stat), dtype) if not dt.is_float(dtype) else stat
