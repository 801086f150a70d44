"""MindSpore's scatter and gather functions over the primitives of ``scatter.py``.

Three kinds, as MindSpore's:
* ``tensor_scatter_*`` / ``scatter_nd`` / ``gather_nd`` / ``tensor_scatter_elements``:
  functional (a new tensor) and differentiable;
* ``scatter_nd_*`` and ``scatter_*``: write into ``input_x`` (a Parameter) in place and
  return it, as MindSpore's ref-semantics operators (``Parameter.assign_value``, so they
  also work inside compiled graphs);
* ``inplace_add`` / ``_sub`` / ``_update``: despite the name, a new tensor (MindSpore
  2.10 leaves ``x`` unchanged); ``inplace_index_add`` writes into its Parameter.
"""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from .shape import broadcast_to, expand_dims, reshape, stack
from . import indexing as _idx
from .creation import zeros, full
from .scatter import (NUMBERS, NO_BYTES, gather_nd_p, scatter_add_p, scatter_update_p,
                      scatter_mul_p, scatter_div_p, scatter_max_p, scatter_min_p)

_PRIMS = {"add": scatter_add_p, "sub": scatter_add_p, "mul": scatter_mul_p,
          "div": scatter_div_p, "max": scatter_max_p, "min": scatter_min_p,
          "update": scatter_update_p}


def _tensor(value, op, name):
    if not isinstance(value, Tensor):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor, got {type(value).__name__}")
    return value


def _check_dtype(op, x, allowed):
    if x.dtype not in allowed:
        raise TypeError(f"For '{op}', the input dtype {x.dtype} is not supported (supported: "
                        f"{', '.join(str(d) for d in allowed)})")


def _allowed(reduction):
    if reduction == "update":
        return NUMBERS + (dt.bool_,)
    return NO_BYTES if reduction == "div" else NUMBERS


def _scatter(reduction, op, input_x, indices, updates):
    x = _tensor(input_x, op, "input_x")
    indices, updates = _tensor(indices, op, "indices"), _tensor(updates, op, "updates")
    _check_dtype(op, x, _allowed(reduction))
    if reduction == "sub":      # x - u == x + (-u), wrapping alike for unsigned integers
        updates = _ew.neg(updates) if updates.dtype == x.dtype else updates
    return _PRIMS[reduction].bind(x, indices, updates)


def _tensor_scatter(reduction):
    op = "TensorScatter" + reduction.capitalize()

    def tensor_scatter(input_x, indices, updates):
        return _scatter(reduction, op, input_x, indices, updates)
    tensor_scatter.__name__ = f"tensor_scatter_{reduction}"
    tensor_scatter.__doc__ = (
        f"``input_x`` with the slices at ``indices`` (rows of its last axis) combined with "
        f"``updates`` by {reduction} (a new tensor; differentiable).")
    return tensor_scatter


tensor_scatter_add = _tensor_scatter("add")
tensor_scatter_sub = _tensor_scatter("sub")
tensor_scatter_mul = _tensor_scatter("mul")
tensor_scatter_div = _tensor_scatter("div")
tensor_scatter_max = _tensor_scatter("max")
tensor_scatter_min = _tensor_scatter("min")
tensor_scatter_update = _tensor_scatter("update")


def _in_place(reduction, op, first_axis):
    def scatter_in_place(input_x, indices, updates, use_locking=False):
        indices = _tensor(indices, op, "indices")
        if first_axis:     # scatter_*: indices address the first axis
            indices = expand_dims(indices, -1)
        _check_dtype(op, _tensor(input_x, op, "input_x"),
                     NUMBERS if reduction != "div" else NO_BYTES)
        return input_x.assign_value(_scatter(reduction, op, input_x, indices, updates))
    return scatter_in_place


def _in_place_functions(prefix, op_prefix, first_axis):
    out = {}
    for reduction in ("add", "sub", "mul", "div", "max", "min", "update"):
        fn = _in_place(reduction, op_prefix + reduction.capitalize(), first_axis)
        fn.__name__ = f"{prefix}{reduction}"
        where = "rows ``indices`` of its first axis" if first_axis else \
            "the slices at ``indices`` (rows of its last axis)"
        fn.__doc__ = (f"Write ``{reduction}`` of ``input_x``'s {where} and ``updates`` into "
                      f"``input_x`` (a Parameter) in place; returns ``input_x``.")
        out[reduction] = fn
    return out


IN_PLACE_ND = _in_place_functions("scatter_nd_", "ScatterNd", first_axis=False)
IN_PLACE_ROWS = _in_place_functions("scatter_", "Scatter", first_axis=True)
scatter_nd_add, scatter_nd_sub, scatter_nd_mul, scatter_nd_div, scatter_nd_max, \
    scatter_nd_min, scatter_nd_update = IN_PLACE_ND.values()
scatter_add, scatter_sub, scatter_mul, scatter_div, scatter_max, scatter_min, \
    scatter_update = IN_PLACE_ROWS.values()


def scatter_nd(indices, updates, shape):
    """A zero tensor of ``shape`` with ``updates`` added at ``indices`` (repeated indices
    accumulate; bool updates combine by or). ``shape`` is a tuple of ints."""
    indices, updates = _tensor(indices, "ScatterNd", "indices"), \
        _tensor(updates, "ScatterNd", "updates")
    if not isinstance(shape, tuple) or not all(isinstance(d, (int, np.integer)) for d in shape):
        raise TypeError(f"For 'ScatterNd', 'shape' must be a tuple of ints, got {shape!r}")
    if any(d <= 0 for d in shape):
        raise ValueError(f"For 'ScatterNd', every dimension of 'shape' must be positive, got "
                         f"{shape}")
    _check_dtype("ScatterNd", updates, NUMBERS + (dt.bool_,))
    return scatter_add_p.bind(zeros(tuple(int(d) for d in shape), updates.dtype), indices,
                              updates)


def gather_nd(input_x, indices):
    """The slices of ``input_x`` at the rows of ``indices``' last axis: shape
    ``indices.shape[:-1] + input_x.shape[indices.shape[-1]:]`` (differentiable)."""
    x, indices = _tensor(input_x, "GatherNd", "input_x"), _tensor(indices, "GatherNd", "indices")
    if dt.is_int(indices.dtype) and indices.dtype not in (dt.int32, dt.int64):
        indices = _ew.cast(indices, dt.int64)
    return gather_nd_p.bind(x, indices)


def _element_coordinates(x, indices, axis, op):
    """``indices`` along ``axis`` with every other coordinate its own position, as the
    rows of an n-d index (``out[i][indices[i][j]]`` for axis 1)."""
    if indices.ndim != x.ndim:
        raise ValueError(f"For '{op}', 'indices' must have the rank of the input ({x.ndim}), "
                         f"got {indices.ndim}")
    if any(i > n for i, n in zip(indices.shape, x.shape)):
        raise ValueError(f"For '{op}', 'indices' {tuple(indices.shape)} cannot be larger "
                         f"than the input {tuple(x.shape)}")
    indices = _ew.cast(indices, dt.int64)
    # negative indices count from the end along ``axis`` (MindSpore's elements scatter)
    indices = _ew.where(_ew.less(indices, 0), _ew.add(indices, x.shape[axis]), indices)
    coords = []
    for a in range(x.ndim):
        if a == axis:
            coords.append(indices)
        else:
            shape = [1] * x.ndim
            shape[a] = indices.shape[a]
            position = coerce.constant(np.arange(indices.shape[a], dtype=np.int64).reshape(shape))
            coords.append(broadcast_to(position, tuple(indices.shape)))
    return stack(coords, -1)


def tensor_scatter_elements(input_x, indices, updates, axis=0, reduction="none"):
    """``out[i][indices[i][j]] = updates[i][j]`` along ``axis`` (``reduction='add'``:
    ``+=``, repeated indices accumulating); a new tensor, differentiable."""
    op = "TensorScatterElements"
    x = _tensor(input_x, op, "input_x")
    indices, updates = _tensor(indices, op, "indices"), _tensor(updates, op, "updates")
    if reduction not in ("none", "add"):
        raise ValueError(f"For '{op}', 'reduction' must be 'none' or 'add', got {reduction!r}")
    if indices.dtype not in (dt.int32, dt.int64):
        raise TypeError(f"For '{op}', 'indices' must be int32 or int64, got {indices.dtype}")
    if tuple(updates.shape) != tuple(indices.shape):
        raise ValueError(f"For '{op}', 'updates' {tuple(updates.shape)} must have the shape "
                         f"of 'indices' {tuple(indices.shape)}")
    axis = coerce.normalize_axis(axis, x.ndim, op)
    _check_dtype(op, x, NUMBERS + (dt.bool_,) if reduction == "none" else NUMBERS)
    coords = _element_coordinates(x, indices, axis, op)
    return (scatter_update_p if reduction == "none" else scatter_add_p).bind(x, coords, updates)


def scatter(input, axis, index, src):
    """``tensor_scatter_elements(input, index, src, axis)``; ``src`` may be a number."""
    if not isinstance(src, Tensor):
        src = full(tuple(index.shape), src, dtype=input.dtype)
    return tensor_scatter_elements(input, index, src, axis)


# ---- rows of the first axis: inplace_add / inplace_sub / inplace_update -----------------

def _row_indices(op, x, indices, tensors_allowed):
    if isinstance(indices, Tensor) and tensors_allowed:
        rows = indices
    elif isinstance(indices, (int, np.integer)) and not isinstance(indices, bool):
        rows = (int(indices),)
    elif isinstance(indices, tuple) and all(isinstance(i, (int, np.integer)) for i in indices):
        rows = tuple(int(i) for i in indices)
    else:
        raise TypeError(f"For '{op}', 'indices' must be an int or a tuple of ints, got "
                        f"{type(indices).__name__}")
    if not isinstance(rows, Tensor):
        bad = [i for i in rows if not 0 <= i < x.shape[0]]
        if bad:
            raise ValueError(f"For '{op}', the value of indices must be in [0, {x.shape[0]}), "
                             f"but got {bad[0]}")
        rows = coerce.constant(np.asarray(rows, np.int64))
    return reshape(rows, (-1, 1))


def _rows(reduction, op, x, v, indices, allowed, tensors_allowed=False):
    x, v = _tensor(x, op, "x"), _tensor(v, op, "v")
    _check_dtype(op, x, allowed)
    if v.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'x' ({x.dtype}) and 'v' ({v.dtype}) must have the same "
                        f"dtype")
    rows = _row_indices(op, x, indices, tensors_allowed)
    if x.ndim == 0 or tuple(v.shape) != (rows.shape[0],) + tuple(x.shape[1:]):
        raise ValueError(f"For '{op}', 'v' must have shape {(rows.shape[0],) + tuple(x.shape[1:])}"
                         f", got {tuple(v.shape)}")
    if reduction == "sub":
        v = _ew.neg(v)
    return _PRIMS[reduction].bind(x, rows, v)


_INPLACE_DTYPES = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32,
                   dt.uint64, dt.float16, dt.float32, dt.float64)


def inplace_add(x, v, indices):
    """``x`` with ``v``'s rows added to rows ``indices`` (an int or a tuple of ints) of its
    first axis; a new tensor."""
    return _rows("add", "InplaceAdd", x, v, indices, _INPLACE_DTYPES)


def inplace_sub(x, v, indices):
    """``x`` with ``v``'s rows subtracted from rows ``indices``; a new tensor."""
    return _rows("sub", "InplaceSub", x, v, indices, _INPLACE_DTYPES)


def inplace_update(x, v, indices):
    """``x`` with rows ``indices`` (an int, a tuple of ints or an int tensor) replaced by
    ``v``'s rows; a new tensor."""
    return _rows("update", "InplaceUpdate", x, v, indices,
                 (dt.float16, dt.float32, dt.int32), tensors_allowed=True)


def inplace_index_add(var, indices, updates, axis):
    """Add ``updates`` into the Parameter ``var`` at the int32 ``indices`` along ``axis``
    (repeated indices accumulate), in place; returns ``var``."""
    op = "InplaceIndexAdd"
    _tensor(var, op, "var")
    indices, updates = _tensor(indices, op, "indices"), _tensor(updates, op, "updates")
    if indices.dtype != dt.int32 or indices.ndim != 1:
        raise TypeError(f"For '{op}', 'indices' must be a 1-D int32 tensor, got "
                        f"{indices.ndim}-D {indices.dtype}")
    _check_dtype(op, var, NUMBERS)
    if updates.dtype != var.dtype:
        raise TypeError(f"For '{op}', 'updates' ({updates.dtype}) must have the dtype of "
                        f"'var' ({var.dtype})")
    axis = coerce.normalize_axis(axis, var.ndim, op)
    want = tuple(var.shape[:axis]) + (indices.shape[0],) + tuple(var.shape[axis + 1:])
    if tuple(updates.shape) != want:
        raise ValueError(f"For '{op}', 'updates' must have shape {want}, got "
                         f"{tuple(updates.shape)}")
    region = (slice(None),) * axis + (indices,)
    return var.assign_value(_idx.index_add(var, region, updates))
