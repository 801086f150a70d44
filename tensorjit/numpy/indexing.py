"""Array manipulation: indexing (take, choose, diagonal, where, select, piecewise, the
apply_* helpers, index conversions), built from ops (gathers on index tensors computed on
the host from shapes) so that it runs under ``jit`` and differentiates."""
import numpy as np

from .. import dtype as dt
from .. import ops
from ..ops import coerce
from ..tensor import Tensor
from ._common import as_shape, is_number, norm_axis, static_values, to_tensor
from .manipulation import _common_dtype, moveaxis


def _t(x, name):
    return to_tensor(x, name=name)


def _index(values):
    return coerce.constant(np.asarray(values, dtype=np.int32))



# ---- indexing

def _indices_by_mode(indices, n, mode, name):
    if mode == "clip":     # a negative index counts from the end once, then clipping
        indices = ops.where(indices < 0, indices + n, indices)
        return ops.clip(indices, 0, max(n - 1, 0))
    if mode == "wrap":
        return ops.floor_mod(indices, n)
    if mode == "raise":
        values = static_values(indices, name)
        if values.size and (values.min() < -n or values.max() >= n):
            raise IndexError(f"{name}: index out of range for an axis of size {n}")
        return ops.floor_mod(indices, n)
    raise ValueError(f"{name}: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")


def take(a, indices, axis=None, mode="clip"):
    """Elements of ``a`` at ``indices`` along ``axis`` (the flattened tensor when None).

    mindspore.numpy.take: mode 'clip' (default: a negative index counts from the end,
    then out-of-range indices go to the nearer end, as MindSpore's), 'wrap', or 'raise'
    (checked eagerly).

    >>> import tensorjit.numpy as mnp
    >>> mnp.take(mnp.array([4, 3, 5]), mnp.array([0, 2])).asnumpy().tolist()
    [4, 5]
    """
    a = _t(a, "take")
    if not isinstance(indices, Tensor) and not isinstance(indices, (list, tuple)):
        raise TypeError(f"take: indices must be a Tensor or a list, got "
                        f"{type(indices).__name__}")
    indices = _t(indices, "take")
    if not dt.is_int(indices.dtype):
        raise TypeError(f"take: indices must be integers, got {indices.dtype}")
    if axis is None:
        a, axis = ops.reshape(a, (-1,)), 0
    axis = norm_axis(axis, a.ndim)
    return ops.gather(a, _indices_by_mode(indices, a.shape[axis], mode, "take"), axis)


def take_along_axis(arr, indices, axis):
    """Values of ``arr`` at ``indices`` matched along ``axis`` (the flattened tensor when
    None).

    >>> import tensorjit.numpy as mnp
    >>> x = mnp.array([[10, 30, 20]])
    >>> mnp.take_along_axis(x, mnp.array([[0, 2]]), 1).asnumpy().tolist()
    [[10, 20]]
    """
    arr = _t(arr, "take_along_axis")
    indices = _t(indices, "take_along_axis")
    if axis is None:
        arr, axis = ops.reshape(arr, (-1,)), 0
    if indices.ndim != arr.ndim:
        raise ValueError("take_along_axis: indices and arr must have the same rank")
    axis = norm_axis(axis, arr.ndim)
    shape = list(np.broadcast_shapes(
        tuple(d for i, d in enumerate(arr.shape) if i != axis),
        tuple(d for i, d in enumerate(indices.shape) if i != axis)))
    arr = ops.broadcast_to(arr, tuple(shape[:axis] + [arr.shape[axis]] + shape[axis:]))
    indices = ops.broadcast_to(indices, tuple(shape[:axis] + [indices.shape[axis]] + shape[axis:]))
    return ops.take_along_axis(arr, ops.floor_mod(indices, arr.shape[axis]), axis)


def choose(a, choices, mode="clip"):
    """Elements picked from ``choices[a]`` (``a`` an integer tensor, broadcast with the
    choices).

    mindspore.numpy.choose: mode 'clip' (default), 'wrap' or 'raise'.

    >>> import tensorjit.numpy as mnp
    >>> mnp.choose(mnp.array([0, 1]), [mnp.array([1, 2]), mnp.array([3, 4])]).asnumpy().tolist()
    [1, 4]
    """
    a = _t(a, "choose")
    options = [_t(c, "choose") for c in choices] if not isinstance(choices, Tensor) else list(
        ops.unstack(choices, 0))
    shape = np.broadcast_shapes(tuple(a.shape), *(tuple(c.shape) for c in options))
    stacked = ops.stack([ops.broadcast_to(c, shape) for c in _common_dtype(options)], 0)
    index = _indices_by_mode(ops.broadcast_to(a, shape), len(options), mode, "choose")
    picked = ops.take_along_axis(stacked, ops.expand_dims(index, 0), 0)
    return ops.reshape(picked, tuple(shape))


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The ``offset``-th diagonal of the planes given by ``axis1`` and ``axis2`` (the
    diagonal becomes the last axis).

    >>> import tensorjit.numpy as mnp
    >>> mnp.diagonal(mnp.array([[1, 2], [3, 4]])).asnumpy().tolist()
    [1, 4]
    """
    a = _t(a, "diagonal")
    if a.ndim < 2:
        raise ValueError("diagonal: the input must be at least 2-D")
    first, second = norm_axis(axis1, a.ndim, "axis1"), norm_axis(axis2, a.ndim, "axis2")
    if first == second:
        raise ValueError("diagonal: axis1 and axis2 cannot be the same")
    a = moveaxis(a, (first, second), (-2, -1))
    rows, cols = a.shape[-2], a.shape[-1]
    row0, col0 = max(-offset, 0), max(offset, 0)
    length = max(min(rows - row0, cols - col0), 0)
    if length == 0:
        return ops.zeros(tuple(a.shape[:-2]) + (0,), dtype=a.dtype)
    picked_rows = ops.gather(a, _index(np.arange(length) + row0), a.ndim - 2)
    cols_index = _index((np.arange(length) + col0).reshape(length, 1))
    cols_index = ops.broadcast_to(cols_index, tuple(picked_rows.shape[:-1]) + (1,))
    return ops.reshape(ops.take_along_axis(picked_rows, cols_index, a.ndim - 1),
                       tuple(picked_rows.shape[:-1]))


def trace(a, offset=0, axis1=0, axis2=1, dtype=None):
    """The sum along a diagonal (see ``diagonal``).

    mindspore.numpy.trace: dtype (optional) of the result.

    >>> import tensorjit.numpy as mnp
    >>> int(mnp.trace(mnp.array([[1, 2], [3, 4]])))
    5
    """
    d = diagonal(a, offset, axis1, axis2)
    # integer traces are int64, as MindSpore's (a sum)
    result = ops.sum(d if dt.is_float(d.dtype) else ops.cast(d, dt.int64), -1)
    return result if dtype is None else ops.cast(result, dt.as_dtype(dtype))


def where(condition, x=None, y=None):
    """Elements of ``x`` where ``condition`` holds, else of ``y`` (broadcast together);
    with only ``condition``, the indices of its non-zero elements (a tuple of tensors,
    computed eagerly: the size depends on the data).

    >>> import tensorjit.numpy as mnp
    >>> mnp.where(mnp.array([True, False]), 1, 2).asnumpy().tolist()
    [1, 2]
    """
    if x is None and y is None:
        values = static_values(condition, "where")
        return tuple(coerce.constant(i.astype(np.int64)) for i in np.nonzero(values))
    if x is None or y is None:
        raise ValueError("where: either both or neither of x and y should be given")
    condition = _t(condition, "where")
    if condition.dtype != dt.bool_:
        condition = condition != 0
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        x = _t(x, "where")
    if not isinstance(x, Tensor) and not is_number(x):
        x = _t(x, "where")
    if not isinstance(y, Tensor) and not is_number(y):
        y = _t(y, "where")
    return ops.where(condition, x, y)


def select(condlist, choicelist, default=0):
    """Elements from ``choicelist`` by the first true condition of ``condlist``, else
    ``default``.

    >>> import tensorjit.numpy as mnp
    >>> mnp.select([mnp.array([True, False])], [mnp.array([1, 2])]).asnumpy().tolist()
    [1, 0]
    """
    if len(condlist) != len(choicelist):
        raise ValueError("select: list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select: select with an empty condition list is not possible")
    choices = _common_dtype([_t(c, "select") for c in choicelist])
    result = ops.cast(_t(default, "select"), choices[0].dtype)
    for cond, choice in reversed(list(zip(condlist, choices))):
        cond = _t(cond, "select")
        result = ops.where(cond if cond.dtype == dt.bool_ else cond != 0, choice, result)
    return result


def piecewise(x, condlist, funclist, *args, **kw):
    """A function defined piece by piece: ``funclist[i]`` (a callable or a value) where
    ``condlist[i]`` holds; one extra function gives the value where none holds (else 0).

    The result has x's dtype (NumPy's rule).

    >>> import tensorjit.numpy as mnp
    >>> x = mnp.array([-1.0, 2.0])
    >>> mnp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 2]).asnumpy().tolist()
    [1.0, 4.0]
    """
    x = _t(x, "piecewise")
    if isinstance(condlist, Tensor) or not isinstance(condlist, (list, tuple)):
        condlist = [condlist]
    conds = [_t(c, "piecewise") for c in condlist]
    conds = [c if c.dtype == dt.bool_ else c != 0 for c in conds]
    if len(funclist) not in (len(conds), len(conds) + 1):
        raise ValueError(f"piecewise: with {len(conds)} condition(s), {len(conds)} or "
                         f"{len(conds) + 1} functions are expected, got {len(funclist)}")
    if len(funclist) == len(conds) + 1:
        none_hold = ops.logical_not(ops.any(ops.stack(conds, 0), 0)) if conds else None
        conds = conds + [none_hold]
    result = ops.zeros_like(x)
    for cond, fn in zip(conds, funclist):
        value = fn(x, *args, **kw) if callable(fn) else fn
        value = ops.cast(_t(value, "piecewise"), x.dtype)
        result = ops.where(cond, value, result)
    return result


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``func1d`` applied to every 1-D slice of ``arr`` along ``axis`` (a Python loop over
    the slices: it runs under ``jit`` as one graph per shape).

    >>> import tensorjit.numpy as mnp
    >>> mnp.apply_along_axis(mnp.sum, 0, mnp.ones((2, 3))).asnumpy().tolist()
    [2.0, 2.0, 2.0]
    """
    arr = _t(arr, "apply_along_axis")
    axis = norm_axis(axis, arr.ndim)
    moved = moveaxis(arr, axis, -1)
    outer = tuple(moved.shape[:-1])
    rows = ops.reshape(moved, (-1, moved.shape[-1]))
    results = [_t(func1d(ops.getitem(rows, i), *args, **kwargs), "apply_along_axis")
               for i in range(rows.shape[0])]
    if not results:
        raise ValueError("apply_along_axis: cannot apply the function to an empty tensor")
    out = ops.stack(_common_dtype(results), 0)
    out = ops.reshape(out, outer + tuple(results[0].shape))
    # the function's own axes take the place of the consumed axis
    return moveaxis(out, tuple(range(len(outer), out.ndim)),
                    tuple(range(axis, axis + results[0].ndim))) if results[0].ndim else out


def apply_over_axes(func, a, axes):
    """``func(a, axis)`` applied for each axis in turn; a result losing the axis gets it
    back as a 1-sized one.

    >>> import tensorjit.numpy as mnp
    >>> mnp.apply_over_axes(mnp.sum, mnp.ones((2, 3)), [0, 1]).asnumpy().tolist()
    [[6.0]]
    """
    a = _t(a, "apply_over_axes")
    for axis in ((axes,) if isinstance(axes, int) else axes):
        axis = norm_axis(axis, a.ndim)
        result = _t(func(a, axis), "apply_over_axes")
        if result.ndim == a.ndim - 1:
            result = ops.expand_dims(result, axis)
        elif result.ndim != a.ndim:
            raise ValueError("apply_over_axes: the function must keep the number of "
                             "dimensions or remove one")
        a = result
    return a


def ravel_multi_index(multi_index, dims, mode="clip", order="C"):
    """Flat indices of the coordinate tensors ``multi_index`` in a tensor of shape ``dims``.

    mindspore.numpy.ravel_multi_index: mode 'clip' (default), 'wrap' or 'raise'; order
    'C' or 'F'. Difference: the result is int32 (MindSpore 2.10's CPU result is float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.ravel_multi_index((mnp.array([1]), mnp.array([1])), (2, 2)).asnumpy().tolist()
    [3]
    """
    dims = as_shape(dims, "dims")
    if len(multi_index) != len(dims):
        raise ValueError(f"ravel_multi_index: {len(multi_index)} index tensors for "
                         f"{len(dims)} dimensions")
    if order not in ("C", "F"):
        raise ValueError(f"ravel_multi_index: order must be 'C' or 'F', got {order!r}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    strides = np.cumprod((1,) + (dims[::-1] if order == "C" else dims)[:-1])
    strides = strides[::-1] if order == "C" else strides
    flat = None
    for index, n, m, stride in zip(multi_index, dims, modes, strides):
        index = ops.cast(_t(index, "ravel_multi_index"), dt.int32)
        term = _indices_by_mode(index, n, m, "ravel_multi_index") * int(stride)
        flat = term if flat is None else flat + term
    return flat


def unravel_index(indices, shape, order="C"):
    """Coordinate tensors of the flat ``indices`` in a tensor of ``shape`` (int32).

    Indices out of range are clipped to the last element (MindSpore's CPU behaviour;
    NumPy raises).

    >>> import tensorjit.numpy as mnp
    >>> [t.asnumpy().tolist() for t in mnp.unravel_index(mnp.array([3]), (2, 2))]
    [[1], [1]]
    """
    shape = as_shape(shape)
    if order not in ("C", "F"):
        raise ValueError(f"unravel_index: order must be 'C' or 'F', got {order!r}")
    rest = ops.cast(_t(indices, "unravel_index"), dt.int32)
    rest = ops.clip(rest, 0, max(int(np.prod(shape)) - 1, 0))
    dims = shape[::-1] if order == "C" else shape
    coords = []
    for n in dims:
        coords.append(ops.floor_mod(rest, n))
        rest = ops.floor_div(rest, n)
    return tuple(coords[::-1] if order == "C" else coords)


def size(a, axis=None):
    """The number of elements of ``a`` (along ``axis`` when given), a Python int.

    >>> import tensorjit.numpy as mnp
    >>> mnp.size(mnp.ones((2, 3))), mnp.size(mnp.ones((2, 3)), 1)
    (6, 3)
    """
    a = _t(a, "size")
    if axis is None:
        return int(np.prod(a.shape, dtype=np.int64))
    return a.shape[norm_axis(axis, a.ndim)]


def array_str(a):
    """The string NumPy prints for ``a``'s values (eager: it reads the data).

    >>> import tensorjit.numpy as mnp
    >>> mnp.array_str(mnp.ones(2))
    '[1. 1.]'
    """
    if not isinstance(a, Tensor):
        raise TypeError(f"array_str: expected a Tensor, got {type(a).__name__}")
    return np.array_str(static_values(a, "array_str"))
