"""Array manipulation (mindspore.numpy's manipulation page, first part): shapes, joining and
splitting. Reordering and padding: ``reordering.py``; indexing: ``indexing.py``.

Everything is built from ops (reshape, transpose, concat, slices, gathers), so it runs
under ``jit`` and differentiates; index tensors are computed on the host from shapes."""
import numpy as np

from .. import dtype as dt
from .. import ops
from ..ops import coerce
from ..tensor import Tensor
from ._common import as_shape, norm_axes, norm_axis, static_values, to_tensor


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
    # a tuple, as MindSpore's mindspore.numpy returns (NumPy's own split returns a list)
    return tuple(ops.slice_axis(x, axis, int(a), int(max(a, b))) for a, b in zip(points, points[1:]))


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
