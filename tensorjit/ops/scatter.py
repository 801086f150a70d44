"""N-dimensional gathers and scatters (MindSpore's ``gather_nd`` / ``tensor_scatter_*``).

``indices`` has shape ``(..., depth)``: each row of its last axis is the coordinate of one
slice ``x[i_0, ..., i_depth-1]``; ``updates`` has shape ``indices.shape[:-1] +
x.shape[depth:]``. One primitive per reduction (``tensor_scatter_add``, ``_update``,
``_mul``, ``_div``, ``_max``, ``_min``) takes ``(x, indices, updates)`` whole, so a
scatter is one node whatever the depth; ``gather_nd`` is its transpose. Coordinates out of
range (negative ones included) raise RuntimeError when the kernel runs, as MindSpore's
CPU kernels do; repeated coordinates combine in order (update: the last one wins).
"""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from .primitive import Primitive, FRESH
from . import batching
from . import coerce
from . import elementwise as _ew
from .shape import broadcast_to, concat

INDEX_DTYPES = (dt.int32, dt.int64)
# MindSpore's CPU kernels: every number dtype but bfloat16 (bool: update and scatter_nd)
NUMBERS = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32, dt.uint64,
           dt.float16, dt.float32, dt.float64)
NO_BYTES = tuple(d for d in NUMBERS if d not in (dt.int8, dt.uint8))   # TensorScatterDiv


def check_indices(op, indices, x_ndim):
    if indices.dtype not in INDEX_DTYPES:
        raise TypeError(f"For '{op}', 'indices' must be int32 or int64, got {indices.dtype}")
    if indices.ndim < 1 or indices.shape[-1] > x_ndim:
        raise ValueError(f"For '{op}', the last axis of 'indices' {tuple(indices.shape)} must "
                         f"be at most the rank of the input ({x_ndim})")


def _coordinates(op, shape, indices):
    """The index tuple of ``indices``' rows into ``shape``; RuntimeError if one is out of
    range (MindSpore does not count negative coordinates from the end)."""
    depth = indices.shape[-1]
    bounds = np.asarray(shape[:depth], np.int64)
    bad = (indices < 0) | (indices >= bounds)
    if bad.any():
        row = indices.reshape(-1, depth)[bad.reshape(-1, depth).any(-1)][0]
        raise RuntimeError(f"For '{op}', the index {row.tolist()} is out of range for the "
                           f"input of shape {tuple(shape)}")
    return tuple(np.moveaxis(indices, -1, 0))


# ---- gather_nd -----------------------------------------------------------------------

def _gather_nd_impl(x, indices):
    index = _coordinates("GatherNd", x.shape, indices)
    if not index:       # depth 0: the whole input for every row
        return np.array(np.broadcast_to(x, indices.shape[:-1] + x.shape))
    return x[index]


def _gather_nd_rule(x, indices):
    check_indices("GatherNd", indices, x.ndim)
    return ShapedArray(tuple(indices.shape[:-1]) + tuple(x.shape[indices.shape[-1]:]), x.dtype)


def _gather_nd_vjp(ct, out, x, indices):
    return scatter_add_p.bind(_ew.zeros_like(x), indices, ct), None


def _batch_coordinates(indices, dim, size):
    """Batched indices with the example's number as the first coordinate of every row."""
    indices = batching.materialize(indices, dim, size)
    shape = tuple(indices.shape[:-1]) + (1,)
    rows = coerce.constant(np.arange(size, dtype=indices.dtype).reshape(
        (size,) + (1,) * (len(shape) - 1)))
    return concat([broadcast_to(rows, shape), indices], -1)


def _gather_nd_batch(prim, dims, x, indices):
    size = batching.batch_size((x, indices), dims)
    x = batching.materialize(x, dims[0], size)
    return prim.bind(x, _batch_coordinates(indices, dims[1], size)), 0


gather_nd_p = Primitive("gather_nd", _gather_nd_impl, _gather_nd_rule, _gather_nd_vjp,
                        aliasing=FRESH, batch=_gather_nd_batch)


# ---- tensor_scatter_<reduction> ---------------------------------------------------------

def _apply_in_levels(out, index, updates, combine):
    """``out[index] = combine(out[index], updates)`` one occurrence of each coordinate at a
    time, in order, for combinations NumPy has no ``ufunc.at`` for."""
    flat = np.ravel_multi_index(index, out.shape[:len(index)]).reshape(-1)
    if flat.size == 0:
        return
    values = updates.reshape((flat.size,) + out.shape[len(index):])
    order = np.argsort(flat, kind="stable")
    ordered = flat[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    # occurrence number of each coordinate among the rows with the same coordinate
    level = np.empty(flat.size, np.int64)
    level[order] = np.arange(flat.size) - np.repeat(starts, np.diff(np.append(starts,
                                                                               flat.size)))
    rows = out.reshape((-1,) + out.shape[len(index):])     # a view: out is contiguous
    for k in range(int(level.max()) + 1):
        at = np.flatnonzero(level == k)
        rows[flat[at]] = combine(rows[flat[at]], values[at])


def _divide(a, b):
    """MindSpore's division in the dtype: IEEE for floats, truncation for integers (and 0
    where the divisor is 0, where MindSpore's kernel stops the process)."""
    if a.dtype.kind == "f":
        with np.errstate(all="ignore"):
            return np.divide(a, b).astype(a.dtype)
    safe = np.where(b == 0, 1, b)
    quotient = np.abs(a.astype(np.int64)) // np.abs(safe.astype(np.int64)) \
        if a.dtype.kind == "i" else a // safe
    if a.dtype.kind == "i":
        quotient = np.where((a < 0) != (safe < 0), -quotient, quotient)
    return np.where(b == 0, 0, quotient).astype(a.dtype)


_KERNELS = {
    "add": lambda out, index, u: np.add.at(out, index, u),
    "mul": lambda out, index, u: np.multiply.at(out, index, u),
    "max": lambda out, index, u: np.maximum.at(out, index, u),
    "min": lambda out, index, u: np.minimum.at(out, index, u),
    "div": lambda out, index, u: _apply_in_levels(out, index, u, _divide),
    "update": lambda out, index, u: _apply_in_levels(out, index, u, lambda old, new: new),
}
_CLASS = {"add": "TensorScatterAdd", "mul": "TensorScatterMul", "max": "TensorScatterMax",
          "min": "TensorScatterMin", "div": "TensorScatterDiv",
          "update": "TensorScatterUpdate"}


def _scatter_impl(reduction):
    def impl(x, indices, updates):
        out = np.array(x, order="C")     # C order: _apply_in_levels writes through a reshape
        index = _coordinates(_CLASS[reduction], x.shape, indices)
        if not index:    # depth 0: every row combines with the whole tensor
            _KERNELS[reduction](out[None], (np.zeros(indices.shape[:-1], np.intp),), updates)
        else:
            _KERNELS[reduction](out, index, updates)
        return out
    return impl


def check_updates(op, x, indices, updates):
    check_indices(op, indices, x.ndim)
    if updates.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'updates' ({updates.dtype}) must have the dtype of "
                        f"'input_x' ({x.dtype})")
    want = tuple(indices.shape[:-1]) + tuple(x.shape[indices.shape[-1]:])
    if tuple(updates.shape) != want:
        raise ValueError(f"For '{op}', 'updates' must have shape indices.shape[:-1] + "
                         f"input_x.shape[indices.shape[-1]:] = {want}, got "
                         f"{tuple(updates.shape)}")


def _scatter_rule(reduction):
    def rule(x, indices, updates):
        check_updates(_CLASS[reduction], x, indices, updates)
        return x
    return rule


def _scatter_batch(prim, dims, x, indices, updates):
    size = batching.batch_size((x, indices, updates), dims)
    x = batching.materialize(x, dims[0], size)
    updates = batching.materialize(updates, dims[2], size)
    return prim.bind(x, _batch_coordinates(indices, dims[1], size), updates), 0


def _add_vjp(ct, out, x, indices, updates):
    return ct, None, gather_nd_p.bind(ct, indices)


def _update_vjp(ct, out, x, indices, updates):
    return (scatter_update_p.bind(ct, indices, _ew.zeros_like(updates)), None,
            gather_nd_p.bind(ct, indices))


def _mul_vjp(ct, out, x, indices, updates):
    # MindSpore's rule, exact where no coordinate repeats
    return (scatter_mul_p.bind(ct, indices, updates), None,
            gather_nd_p.bind(_ew.mul(ct, x), indices))


def _div_vjp(ct, out, x, indices, updates):
    # d(x / u)/du = -x / u**2, exact where no coordinate repeats (MindSpore's rule)
    ct_updates = _ew.neg(_ew.div(gather_nd_p.bind(_ew.mul(ct, x), indices),
                                 _ew.mul(updates, updates)))
    return scatter_div_p.bind(ct, indices, updates), None, ct_updates


def _extremum_vjp(ct, out, x, indices, updates):
    """MindSpore's rule for a max / min that may replace values: the cotangent goes to the
    input and the updates that equal the result, shared equally among ties."""
    from_x = _ew.cast(_ew.equal(x, out), ct.dtype)
    from_updates = _ew.cast(_ew.equal(updates, gather_nd_p.bind(out, indices)), ct.dtype)
    count = _ew.add(from_x, scatter_add_p.bind(_ew.zeros_like(ct), indices, from_updates))
    share = _ew.div(ct, _ew.maximum(count, _ew.ones_like(count)))
    return (_ew.mul(share, from_x), None,
            _ew.mul(gather_nd_p.bind(share, indices), from_updates))


def _scatter_primitive(reduction, vjp):
    return Primitive(f"tensor_scatter_{reduction}", _scatter_impl(reduction),
                     _scatter_rule(reduction), vjp, aliasing=FRESH, batch=_scatter_batch)


scatter_add_p = _scatter_primitive("add", _add_vjp)
scatter_update_p = _scatter_primitive("update", _update_vjp)
scatter_mul_p = _scatter_primitive("mul", _mul_vjp)
scatter_div_p = _scatter_primitive("div", _div_vjp)
scatter_max_p = _scatter_primitive("max", _extremum_vjp)
scatter_min_p = _scatter_primitive("min", _extremum_vjp)
