"""Longer than 500 lines for now: mindspore.numpy's manipulation page in one module; to
be split (shapes / joining and splitting / reordering / indexing and padding).

Array manipulation: shapes, joining and splitting, reordering, indexing, padding.

Everything is built from ops (reshape, transpose, concat, slices, gathers), so it runs
under ``jit`` and differentiates; index tensors are computed on the host from shapes."""
import numpy as np

from .. import dtype as dt
from .. import ops
from ..ops import coerce
from ..tensor import Tensor
from ._common import as_shape, is_number, norm_axes, norm_axis, static_values, to_tensor


def _t(x, name):
    return to_tensor(x, name=name)


def _index(values):
    return coerce.constant(np.asarray(values, dtype=np.int32))


# ---- shapes

def reshape(x, new_shape):
    """``x`` with a new shape of the same size (one entry may be -1).

    mindspore.numpy.reshape: x (Tensor); new_shape (int or tuple of ints). A size that
    does not match raises ValueError, as in MindSpore.

    >>> import tensorjit.numpy as mnp
    >>> mnp.reshape(mnp.arange(6), (2, -1)).shape
    (2, 3)
    """
    x = _t(x, "reshape")
    shape = (new_shape,) if isinstance(new_shape, (int, np.integer)) else tuple(new_shape)
    known = int(np.prod([d for d in shape if d != -1]))
    if shape.count(-1) > 1 or any(d < -1 for d in shape) or (
            -1 not in shape and known != x.size) or (
            -1 in shape and (known == 0 or x.size % known)):
        raise ValueError(f"reshape: cannot reshape a tensor of shape {tuple(x.shape)} "
                         f"(size {x.size}) to {shape}")
    return ops.reshape(x, shape)


def ravel(x):
    """``x`` flattened to 1-D.

    >>> import tensorjit.numpy as mnp
    >>> mnp.ravel(mnp.ones((2, 2))).shape
    (4,)
    """
    return ops.reshape(_t(x, "ravel"), (-1,))


def transpose(a, axes=None):
    """``a`` with its axes permuted (reversed by default).

    >>> import tensorjit.numpy as mnp
    >>> mnp.transpose(mnp.ones((2, 3))).shape
    (3, 2)
    """
    a = _t(a, "transpose")
    if axes is None:
        axes = tuple(range(a.ndim - 1, -1, -1))
    axes = tuple(norm_axis(ax, a.ndim, "axes") for ax in axes)
    if sorted(axes) != list(range(a.ndim)):
        raise ValueError(f"transpose: axes {axes} are not a permutation of {a.ndim} axes")
    return ops.transpose(a, axes)


def swapaxes(x, axis1, axis2):
    """``x`` with two axes interchanged.

    >>> import tensorjit.numpy as mnp
    >>> mnp.swapaxes(mnp.ones((2, 3, 4)), 0, 2).shape
    (4, 3, 2)
    """
    x = _t(x, "swapaxes")
    a, b = norm_axis(axis1, x.ndim, "axis1"), norm_axis(axis2, x.ndim, "axis2")
    perm = list(range(x.ndim))
    perm[a], perm[b] = perm[b], perm[a]
    return ops.transpose(x, tuple(perm))


def moveaxis(a, source, destination):
    """``a`` with axes moved from ``source`` to ``destination`` (ints or sequences).

    >>> import tensorjit.numpy as mnp
    >>> mnp.moveaxis(mnp.ones((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    a = _t(a, "moveaxis")
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination must have the same number of "
                         "elements")
    src = [norm_axis(s, a.ndim, "source") for s in src]
    dst = [norm_axis(d, a.ndim, "destination") for d in dst]
    order = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return ops.transpose(a, tuple(order))


def rollaxis(x, axis, start=0):
    """``x`` with ``axis`` moved to come just before position ``start``.

    >>> import tensorjit.numpy as mnp
    >>> mnp.rollaxis(mnp.ones((2, 3, 4)), 2).shape
    (4, 2, 3)
    """
    x = _t(x, "rollaxis")
    axis = norm_axis(axis, x.ndim)
    if not isinstance(start, int) or not -x.ndim <= start <= x.ndim:
        raise ValueError(f"rollaxis: start must be in [{-x.ndim}, {x.ndim}], got {start}")
    start = start % (x.ndim + 1) if start < 0 else start
    if axis < start:
        start -= 1
    return moveaxis(x, axis, start)


def expand_dims(a, axis):
    """``a`` with new 1-sized axes at ``axis`` (an int or a tuple of ints).

    >>> import tensorjit.numpy as mnp
    >>> mnp.expand_dims(mnp.ones((2,)), (0, 2)).shape
    (1, 2, 1)
    """
    a = _t(a, "expand_dims")
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    ndim = a.ndim + len(axes)
    axes = norm_axes(axes, ndim)
    shape = list(a.shape)
    for ax in axes:
        shape.insert(ax, 1)
    return ops.reshape(a, tuple(shape))


def squeeze(a, axis=None):
    """``a`` without 1-sized axes (all of them, or those in ``axis``).

    A named axis that is not 1-sized raises ValueError.

    >>> import tensorjit.numpy as mnp
    >>> mnp.squeeze(mnp.ones((1, 2, 1))).shape
    (2,)
    """
    a = _t(a, "squeeze")
    if axis is None:
        axes = tuple(i for i, d in enumerate(a.shape) if d == 1)
    else:
        axes = norm_axes(axis, a.ndim)
        bad = [ax for ax in axes if a.shape[ax] != 1]
        if bad:
            raise ValueError(f"squeeze: cannot select an axis to squeeze out which has size "
                             f"not equal to one (axes {bad} of shape {tuple(a.shape)})")
    return ops.reshape(a, tuple(d for i, d in enumerate(a.shape) if i not in axes))


def broadcast_to(array, shape):
    """``array`` broadcast to ``shape``.

    >>> import tensorjit.numpy as mnp
    >>> mnp.broadcast_to(mnp.array([1, 2]), (2, 2)).asnumpy().tolist()
    [[1, 2], [1, 2]]
    """
    array = _t(array, "broadcast_to")
    shape = as_shape(shape)
    try:
        np.broadcast_shapes(tuple(array.shape), shape)
    except ValueError:
        raise ValueError(f"broadcast_to: cannot broadcast shape {tuple(array.shape)} to "
                         f"{shape}") from None
    return ops.broadcast_to(array, shape)


def broadcast_arrays(*args):
    """The inputs broadcast against each other (a list of tensors, as MindSpore's).

    >>> import tensorjit.numpy as mnp
    >>> [t.shape for t in mnp.broadcast_arrays(mnp.ones((2, 1)), mnp.ones(3))]
    [(2, 3), (2, 3)]
    """
    tensors = [_t(a, "broadcast_arrays") for a in args]
    try:
        shape = np.broadcast_shapes(*(tuple(t.shape) for t in tensors))
    except ValueError:
        raise ValueError("broadcast_arrays: shapes "
                         f"{[tuple(t.shape) for t in tensors]} do not broadcast") from None
    return [ops.broadcast_to(t, shape) for t in tensors]


def _atleast(arys, ndim, name):
    out = []
    for a in arys:
        t = _t(a, name)
        if t.ndim < ndim:
            shape = tuple(t.shape)
            if ndim == 2 or t.ndim == 0:
                shape = (1,) * (ndim - t.ndim) + shape
            elif t.ndim == 1:          # atleast_3d: (n,) -> (1, n, 1)
                shape = (1,) + shape + (1,)
            else:                     # (m, n) -> (m, n, 1)
                shape = shape + (1,)
            t = ops.reshape(t, shape)
        out.append(t)
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys):
    """The inputs with at least one dimension (one tensor, or a list for several).

    >>> import tensorjit.numpy as mnp
    >>> mnp.atleast_1d(1).shape
    (1,)
    """
    return _atleast(arys, 1, "atleast_1d")


def atleast_2d(*arys):
    """The inputs with at least two dimensions (leading 1-sized axes added).

    >>> import tensorjit.numpy as mnp
    >>> mnp.atleast_2d(mnp.ones(3)).shape
    (1, 3)
    """
    return _atleast(arys, 2, "atleast_2d")


def atleast_3d(*arys):
    """The inputs with at least three dimensions ((n,) -> (1, n, 1), (m, n) -> (m, n, 1)).

    >>> import tensorjit.numpy as mnp
    >>> mnp.atleast_3d(mnp.ones(3)).shape
    (1, 3, 1)
    """
    return _atleast(arys, 3, "atleast_3d")


# ---- joining

def _common_dtype(tensors):
    common = tensors[0].dtype
    for t in tensors[1:]:
        common = dt.promote_types(common, t.dtype)
    return [t if t.dtype == common else ops.cast(t, common) for t in tensors]


def concatenate(arrays, axis=0):
    """Tensors joined along an existing axis (flattened first when ``axis`` is None).

    All inputs must have the same rank (ValueError otherwise, as MindSpore's); dtypes are
    promoted to a common one.

    >>> import tensorjit.numpy as mnp
    >>> mnp.concatenate((mnp.ones((1, 2)), mnp.zeros((1, 2)))).shape
    (2, 2)
    """
    if isinstance(arrays, Tensor):
        arrays = list(ops.unstack(arrays, 0))
    tensors = [_t(a, "concatenate") for a in arrays]
    if not tensors:
        raise ValueError("concatenate: need at least one array to concatenate")
    if axis is None:
        tensors, axis = [ops.reshape(t, (-1,)) for t in tensors], 0
    ranks = {t.ndim for t in tensors}
    if len(ranks) != 1 or 0 in ranks:
        raise ValueError(f"For primitive[Concat], element rank must be same and non-zero, got "
                         f"shapes {[tuple(t.shape) for t in tensors]}")
    axis = norm_axis(axis, tensors[0].ndim)
    for t in tensors[1:]:
        if any(a != b for i, (a, b) in enumerate(zip(t.shape, tensors[0].shape)) if i != axis):
            raise ValueError(f"concatenate: shapes {[tuple(t.shape) for t in tensors]} differ "
                             f"outside axis {axis}")
    return ops.concat(_common_dtype(tensors), axis)


def stack(arrays, axis=0):
    """Tensors of one shape joined along a new axis.

    >>> import tensorjit.numpy as mnp
    >>> mnp.stack([mnp.ones(2), mnp.zeros(2)], axis=1).shape
    (2, 2)
    """
    tensors = [_t(a, "stack") for a in arrays]
    if not tensors:
        raise ValueError("stack: need at least one array to stack")
    if len({tuple(t.shape) for t in tensors}) != 1:
        raise ValueError(f"stack: all input arrays must have the same shape, got "
                         f"{[tuple(t.shape) for t in tensors]}")
    axis = norm_axis(axis, tensors[0].ndim + 1)
    return ops.stack(_common_dtype(tensors), axis)


def hstack(tup):
    """Tensors joined column-wise (along axis 1; axis 0 for 1-D inputs).

    >>> import tensorjit.numpy as mnp
    >>> mnp.hstack((mnp.array([1, 2]), mnp.array([3]))).asnumpy().tolist()
    [1, 2, 3]
    """
    tensors = [atleast_1d(a) for a in tup]
    return concatenate(tensors, 0 if tensors[0].ndim == 1 else 1)


def vstack(tup):
    """Tensors joined row-wise (1-D inputs become rows).

    >>> import tensorjit.numpy as mnp
    >>> mnp.vstack((mnp.array([1, 2]), mnp.array([3, 4]))).shape
    (2, 2)
    """
    return concatenate([atleast_2d(a) for a in tup], 0)


def dstack(tup):
    """Tensors joined depth-wise (along axis 2, after ``atleast_3d``).

    >>> import tensorjit.numpy as mnp
    >>> mnp.dstack((mnp.array([1, 2]), mnp.array([3, 4]))).shape
    (1, 2, 2)
    """
    return concatenate([atleast_3d(a) for a in tup], 2)


def column_stack(tup):
    """1-D tensors as the columns of a 2-D tensor (2-D inputs are joined as they are).

    >>> import tensorjit.numpy as mnp
    >>> mnp.column_stack((mnp.array([1, 2]), mnp.array([3, 4]))).asnumpy().tolist()
    [[1, 3], [2, 4]]
    """
    cols = []
    for a in tup:
        t = _t(a, "column_stack")
        cols.append(ops.reshape(t, (-1, 1)) if t.ndim < 2 else t)
    return concatenate(cols, 1)


def append(arr, values, axis=None):
    """``values`` appended to the end of ``arr`` (both flattened when ``axis`` is None).

    >>> import tensorjit.numpy as mnp
    >>> mnp.append(mnp.array([1, 2]), mnp.array([[3]])).asnumpy().tolist()
    [1, 2, 3]
    """
    return concatenate((_t(arr, "append"), _t(values, "append")), axis)


# ---- splitting

def _split_points(n, indices_or_sections, even, name):
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(
            indices_or_sections, bool):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError(f"{name}: the number of sections must be larger than 0")
        if even and n % sections:
            raise ValueError(f"{name}: array split does not result in an equal division "
                             f"({n} into {sections})")
        size, extra = divmod(n, sections)
        sizes = [size + 1] * extra + [size] * (sections - extra)
        return list(np.cumsum([0] + sizes))
    if isinstance(indices_or_sections, Tensor):
        indices_or_sections = static_values(indices_or_sections, name).tolist()
    if not isinstance(indices_or_sections, (list, tuple)):
        raise TypeError(f"{name}: indices_or_sections must be an int or a list / tuple of "
                        f"ints, got {type(indices_or_sections).__name__}")
    points = [min(max(int(i) if i >= 0 else int(i) + n, 0), n) for i in indices_or_sections]
    return [0] + points + [n]


def _split(x, indices_or_sections, axis, even, name):
    x = _t(x, name)
    axis = norm_axis(axis, x.ndim)
    points = _split_points(x.shape[axis], indices_or_sections, even, name)
    return [ops.slice_axis(x, axis, int(a), int(max(a, b))) for a, b in zip(points, points[1:])]


def split(x, indices_or_sections, axis=0):
    """``x`` split into equal sections (an int) or at the given indices (a list).

    An int that does not divide the axis evenly raises ValueError (see ``array_split``).

    >>> import tensorjit.numpy as mnp
    >>> [t.shape for t in mnp.split(mnp.arange(6), 3)]
    [(2,), (2,), (2,)]
    """
    return _split(x, indices_or_sections, axis, True, "split")


def array_split(x, indices_or_sections, axis=0):
    """``x`` split into sections, allowing unequal ones (the first ones one larger).

    >>> import tensorjit.numpy as mnp
    >>> [t.shape for t in mnp.array_split(mnp.arange(5), 2)]
    [(3,), (2,)]
    """
    return _split(x, indices_or_sections, axis, False, "array_split")


def hsplit(x, indices_or_sections):
    """``split`` along axis 1 (axis 0 for 1-D tensors).

    >>> import tensorjit.numpy as mnp
    >>> [t.shape for t in mnp.hsplit(mnp.ones((2, 4)), 2)]
    [(2, 2), (2, 2)]
    """
    x = _t(x, "hsplit")
    return _split(x, indices_or_sections, 1 if x.ndim > 1 else 0, True, "hsplit")


def vsplit(x, indices_or_sections):
    """``split`` along axis 0 of a tensor of rank >= 2.

    >>> import tensorjit.numpy as mnp
    >>> [t.shape for t in mnp.vsplit(mnp.ones((4, 2)), 2)]
    [(2, 2), (2, 2)]
    """
    x = _t(x, "vsplit")
    if x.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return _split(x, indices_or_sections, 0, True, "vsplit")


def dsplit(x, indices_or_sections):
    """``split`` along axis 2 of a tensor of rank >= 3.

    >>> import tensorjit.numpy as mnp
    >>> [t.shape for t in mnp.dsplit(mnp.ones((1, 1, 4)), 2)]
    [(1, 1, 2), (1, 1, 2)]
    """
    x = _t(x, "dsplit")
    if x.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return _split(x, indices_or_sections, 2, True, "dsplit")


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
