"""Joining, splitting and reorienting tensors (MindSpore's ``hstack``, ``tensor_split``,
``rot90``, ...): reshapes, concats, slices and transposes, so each differentiates and
compiles as those do. Tensors of different dtypes are joined in their promoted dtype
(``concat``'s rule)."""
import numpy as np

from ..tensor import Tensor
from . import coerce
from .shape import concat, reshape, slice_axis, flip, transpose


def at_least(x, ndim):
    """``x`` with at least ``ndim`` axes: 0-d -> (1,)*ndim, (n,) -> (1, n) / (1, n, 1),
    (m, n) -> (m, n, 1) (NumPy's rule, which MindSpore follows)."""
    if x.ndim >= ndim:
        return x
    shape = tuple(x.shape)
    if x.ndim == 0:
        return reshape(x, (1,) * ndim)
    if ndim == 2 or x.ndim == 2:
        return reshape(x, (1,) + shape if ndim == 2 else shape + (1,))
    return reshape(x, (1,) + shape + (1,))


def _at_least_all(inputs, ndim, op):
    if isinstance(inputs, Tensor):
        return at_least(inputs, ndim)
    if not isinstance(inputs, (list, tuple)):
        raise TypeError(f"For '{op}', the input must be a Tensor or a list / tuple of "
                        f"Tensors, got {type(inputs).__name__}")
    return [at_least(coerce.as_tensor(x, op=op), ndim) for x in inputs]


def atleast_1d(inputs):
    """A tensor (or each of a list of tensors) with at least one axis."""
    return _at_least_all(inputs, 1, "atleast_1d")


def atleast_2d(inputs):
    """A tensor (or each of a list of tensors) with at least two axes."""
    return _at_least_all(inputs, 2, "atleast_2d")


def atleast_3d(inputs):
    """A tensor (or each of a list of tensors) with at least three axes."""
    return _at_least_all(inputs, 3, "atleast_3d")


def _joined(tensors, ndim, axis, op):
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError(f"For '{op}', expected a non-empty list or tuple of Tensors")
    items = [at_least(coerce.as_tensor(t, op=op), ndim) for t in tensors]
    return concat(items, axis(items) if callable(axis) else axis)


def hstack(tensors):
    """Tensors joined along axis 1 (axis 0 for 1-D ones; 0-d ones become 1-D)."""
    return _joined(tensors, 1, lambda items: 0 if items[0].ndim == 1 else 1, "hstack")


def vstack(inputs):
    """Tensors joined along axis 0, 1-D ones as rows."""
    return _joined(inputs, 2, 0, "vstack")


def row_stack(tensors):
    """``vstack``."""
    return vstack(tensors)


def dstack(tensors):
    """Tensors joined along axis 2 (after ``atleast_3d``)."""
    return _joined(tensors, 3, 2, "dstack")


def column_stack(tensors):
    """1-D tensors as columns of a 2-D tensor; others joined along axis 1."""
    if not isinstance(tensors, (list, tuple)) or not tensors:
        raise TypeError("For 'column_stack', expected a non-empty list or tuple of Tensors")
    columns = []
    for t in tensors:
        t = coerce.as_tensor(t, op="column_stack")
        columns.append(reshape(t, (-1, 1)) if t.ndim < 2 else t)
    return concat(columns, 1)


# ---- splitting ---------------------------------------------------------------------------

def _split_points(length, indices_or_sections, op):
    if isinstance(indices_or_sections, bool):
        raise TypeError(f"For '{op}', 'indices_or_sections' must be an int or a sequence of "
                        f"ints, got a bool")
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError(f"For '{op}', the number of sections must be positive, got "
                             f"{sections}")
        size, extra = divmod(length, sections)
        sizes = [size + 1] * extra + [size] * (sections - extra)
        return list(np.cumsum([0] + sizes))
    if not isinstance(indices_or_sections, (list, tuple)):
        raise TypeError(f"For '{op}', 'indices_or_sections' must be an int, list or tuple, "
                        f"got {type(indices_or_sections).__name__}")
    points = [min(max(int(i) + length if i < 0 else int(i), 0), length)
              for i in indices_or_sections]
    return [0] + points + [length]


def tensor_split(input, indices_or_sections, axis=0):
    """``input`` split along ``axis`` into ``n`` near-equal parts (the first ones one
    longer) or at the given indices."""
    x = coerce.as_tensor(input, op="tensor_split")
    axis = coerce.normalize_axis(axis, x.ndim, "tensor_split")
    points = _split_points(x.shape[axis], indices_or_sections, "tensor_split")
    return tuple(slice_axis(x, axis, int(a), int(max(a, b))) for a, b in zip(points, points[1:]))


def _split_on(x, indices_or_sections, axis, min_ndim, op):
    x = coerce.as_tensor(x, op=op)
    if x.ndim < min_ndim:
        raise ValueError(f"For '{op}', the input must have at least {min_ndim} dimensions, "
                         f"got {x.ndim}")
    return tensor_split(x, indices_or_sections, axis)


def hsplit(input, indices_or_sections):
    """``tensor_split`` along axis 1 (axis 0 of a 1-D tensor)."""
    return _split_on(input, indices_or_sections, 1 if input.ndim > 1 else 0, 1, "hsplit")


def vsplit(input, indices_or_sections):
    """``tensor_split`` along axis 0 of a tensor of at least 2 axes."""
    return _split_on(input, indices_or_sections, 0, 2, "vsplit")


def dsplit(input, indices_or_sections):
    """``tensor_split`` along axis 2 of a tensor of at least 3 axes."""
    return _split_on(input, indices_or_sections, 2, 3, "dsplit")


# ---- reorienting -------------------------------------------------------------------------

def fliplr(input):
    """``input`` with its axis 1 reversed (at least 2-D)."""
    x = coerce.as_tensor(input, op="fliplr")
    if x.ndim < 2:
        raise ValueError(f"For 'fliplr', the input must be at least 2-D, got {x.ndim}-D")
    return flip(x, (1,))


def flipud(input):
    """``input`` with its axis 0 reversed (at least 1-D)."""
    x = coerce.as_tensor(input, op="flipud")
    if x.ndim < 1:
        raise ValueError("For 'flipud', the input must be at least 1-D")
    return flip(x, (0,))


def rot90(input, k, dims):
    """``input`` rotated by 90 degrees ``k`` times in the plane of ``dims`` (from the
    first axis towards the second)."""
    x = coerce.as_tensor(input, op="rot90")
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool):
        raise TypeError(f"For 'rot90', 'k' must be an int, got {type(k).__name__}")
    if not isinstance(dims, (list, tuple)) or len(dims) != 2:
        raise ValueError(f"For 'rot90', 'dims' must hold two axes, got {dims!r}")
    a, b = (coerce.normalize_axis(d, x.ndim, "rot90") for d in dims)
    if a == b:
        raise ValueError(f"For 'rot90', the rotation axes must differ, got {dims!r}")
    k %= 4
    if k == 0:
        return x
    if k == 2:
        return flip(x, (a, b))
    perm = list(range(x.ndim))
    perm[a], perm[b] = perm[b], perm[a]
    # k == 1: reverse the second axis, then swap; k == 3: swap, then reverse it
    return transpose(flip(x, (b,)), tuple(perm)) if k == 1 else \
        flip(transpose(x, tuple(perm)), (b,))


def moveaxis(x, source, destination):
    """``x`` with axes ``source`` moved to ``destination`` (ints or sequences of ints);
    the other axes keep their order."""
    x = coerce.as_tensor(x, op="moveaxis")
    src = [source] if isinstance(source, (int, np.integer)) else list(source)
    dst = [destination] if isinstance(destination, (int, np.integer)) else list(destination)
    if len(src) != len(dst):
        raise ValueError(f"For 'moveaxis', 'source' {source!r} and 'destination' "
                         f"{destination!r} must have the same number of axes")
    src = [coerce.normalize_axis(a, x.ndim, "moveaxis") for a in src]
    dst = [coerce.normalize_axis(a, x.ndim, "moveaxis") for a in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError(f"For 'moveaxis', repeated axes in {source!r} / {destination!r}")
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return transpose(x, tuple(order))
