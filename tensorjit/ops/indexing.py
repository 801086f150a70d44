"""Indexing: ``x[index]``, ``x[index] = v`` and gathers, as three primitives.

An index is normalised to a hashable *spec* (one entry per index item) plus the list of
integer index tensors it mentions, so the same primitive serves basic slicing, integer
array indexing, ``gather`` and embedding lookup:

    ('i', k)          an int          ('s', start, stop, step)   a slice
    ('n',)            None (newaxis)  ('e',)                     Ellipsis
    ('t',)            the next integer index tensor

A boolean mask index has a data-dependent result shape; it is turned into integer indices
with ``nonzero``, which reads the mask's value (a guard or graph break under capture).
"""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from ..tensor import Tensor
from .primitive import Primitive, FRESH, VIEW
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import batching


def _build_index(spec, tensors):
    items, it = [], iter(tensors)
    for entry in spec:
        kind = entry[0]
        if kind == "i":
            items.append(entry[1])
        elif kind == "s":
            items.append(slice(entry[1], entry[2], entry[3]))
        elif kind == "n":
            items.append(None)
        elif kind == "e":
            items.append(Ellipsis)
        else:
            items.append(next(it))
    return tuple(items)


def _dummy(aval):
    """A zero-stride stand-in with ``aval``'s shape: indexing it costs no data."""
    return np.broadcast_to(np.zeros((), np.int8), aval.shape)


def _index_result_shape(x, idx_avals, spec):
    fake_indices = [np.zeros(a.shape, np.intp) for a in idx_avals]
    try:
        return np.shape(_dummy(x)[_build_index(spec, fake_indices)])
    except IndexError as exc:
        raise IndexError(f"getitem: index {format_spec(spec)} is invalid for {x}: {exc}") from None


def _check_index_dtypes(op, idx_avals):
    for a in idx_avals:
        if not dt.is_int(a.dtype):
            raise TypeError(f"{op}: index tensors must be integer, got {a}")


def _index_rule(x, *idx, spec):
    _check_index_dtypes("getitem", idx)
    return ShapedArray(_index_result_shape(x, idx, spec), x.dtype)


def _index_impl(x, *idx, spec):
    return x[_build_index(spec, idx)]


def _index_vjp(ct, out, x, *idx, spec):
    zeros = _ew.zeros_like(x)
    return (index_add_p.bind(zeros, ct, *idx, spec=spec),) + (None,) * len(idx)


# ---- batching: one index for the whole batch -------------------------------------------
#
# Basic indexing (no index tensors) takes every example with a leading full slice. With
# index tensors, the batch becomes one more index tensor, ``arange(B)`` in front, and the
# index tensors get the batch as their leading axis, so example b reads its own row with
# its own indices. NumPy puts the broadcast index axes R first when advanced entries (index
# tensors, and ints among them) are not adjacent, else where the run of them starts; with
# ``arange`` in front the batched result is (B, R, other axes...), which is the example's
# layout unless the example's run started later: then R moves behind the axes before it.

_FULL = ("s", None, None, None)


def _example_shape(t, dim):
    shape = tuple(t.shape)
    return shape if dim is None else shape[:dim] + shape[dim + 1:]


def _axes_before_run(spec, start, ndim):
    """How many result axes the entries before the first advanced entry make."""
    consumed = sum(1 for e in spec if e[0] in "ist")
    return sum(max(ndim - consumed, 0) if e[0] == "e" else 1 for e in spec[:start])


def _batched_index(x, x_dim, idx, idx_dims, spec, size):
    """(x with the batch first, index tensors, spec, permutation from the batched result
    to batch-first example layout or None)."""
    x = batching.materialize(x, x_dim, size)
    if not any(e[0] == "t" for e in spec):
        return x, list(idx), (_FULL,) + spec, None
    rank = len(np.broadcast_shapes(*[_example_shape(t, d) for t, d in zip(idx, idx_dims)]))
    rows = coerce.constant(np.arange(size, dtype=np.int64).reshape((size,) + (1,) * rank))
    tensors = [rows] + [t if d is None else batching.pad_rank(batching.to_front(t, d), rank)
                        for t, d in zip(idx, idx_dims)]
    advanced = [i for i, e in enumerate(spec) if e[0] in "ti"]
    adjacent = advanced == list(range(advanced[0], advanced[-1] + 1))
    new_spec = (("t",),) + spec
    if not adjacent or advanced[0] == 0:
        return x, tensors, new_spec, None
    before = _axes_before_run(spec, advanced[0], x.ndim - 1)
    out_ndim = len(_index_result_shape(x.aval, [t.aval for t in tensors], new_spec))
    perm = ((0,) + tuple(range(1 + rank, 1 + rank + before)) + tuple(range(1, 1 + rank))
            + tuple(range(1 + rank + before, out_ndim)))
    return x, tensors, new_spec, perm


def _index_batch(prim, dims, x, *idx, spec):
    size = batching.batch_size((x,) + idx, dims)
    x, tensors, spec, perm = _batched_index(x, dims[0], idx, dims[1:], spec, size)
    out = prim.bind(x, *tensors, spec=spec)
    return (out if perm is None else _shape.transpose_p.bind(out, perm=perm)), 0


def _update_batch(prim, dims, x, value, *idx, spec):
    """setitem / index_add: the value arranged like the batched region."""
    size = batching.batch_size((x, value) + idx, dims)
    x, tensors, spec, perm = _batched_index(x, dims[0], idx, dims[2:], spec, size)
    region = len(_index_result_shape(x.aval, [t.aval for t in tensors], spec)) - 1
    if dims[1] is not None:
        value = batching.pad_rank(batching.to_front(value, dims[1]), region)
    if perm is not None:
        if dims[1] is None:
            value = _shape.reshape(value, (1,) * (region + 1 - value.ndim) + tuple(value.shape))
        inverse = tuple(int(i) for i in np.argsort(perm))
        value = _shape.transpose_p.bind(value, perm=inverse)
    return prim.bind(x, value, *tensors, spec=spec), 0


# basic indexing returns a view, advanced indexing a copy
index_p = Primitive("getitem", _index_impl, _index_rule, _index_vjp, shape_generic=False,
                    aliasing=VIEW, batch=_index_batch)


def _update_rule(op):
    def rule(x, value, *idx, spec):
        _check_index_dtypes(op, idx)
        target = _index_result_shape(x, idx, spec)
        if value.dtype != x.dtype:
            raise TypeError(f"{op}: value dtype {value.dtype} differs from tensor dtype "
                            f"{x.dtype}")
        try:
            np.broadcast_shapes(value.shape, target)
        except ValueError:
            raise ValueError(f"{op}: value of shape {value.shape} cannot be broadcast to the "
                             f"indexed region of shape {target}") from None
        if len(np.broadcast_shapes(value.shape, target)) > len(target):
            raise ValueError(f"{op}: value of shape {value.shape} has more dimensions than "
                             f"the indexed region {target}")
        return x
    return rule


def _put_impl(x, value, *idx, spec):
    out = np.array(x)
    out[_build_index(spec, idx)] = value
    return out


def _put_vjp(ct, out, x, value, *idx, spec):
    ct_x = index_put_p.bind(ct, _ew.zeros_like(value), *idx, spec=spec)
    ct_value = _red.sum_to(index_p.bind(ct, *idx, spec=spec), value.shape)
    return (ct_x, ct_value) + (None,) * len(idx)


def _add_impl(x, value, *idx, spec):
    out = np.array(x)
    index = _build_index(spec, idx)
    if not idx:
        out[index] += value
    elif spec == (("t",),) and out.dtype.kind in "fiuc":      # bool: add.at's logical or
        _add_rows(out, idx[0], value)
    else:
        np.add.at(out, index, value)     # repeated indices accumulate
    return out


_MAX_LEVELS = 16    # more repeats of one row than this: segment sums instead


def _add_rows(out, rows, value):
    """``out[rows] += value`` where ``rows`` may repeat (an embedding's gradient), in the
    order ``np.add.at`` adds (each row's values first to last), several times faster: a
    stable sort groups equal rows; the k-th occurrences of all rows are added together by
    one buffered ``out[rows_k] += values_k`` (no row twice in it), k = 0, 1, ... When a
    row repeats more than ``_MAX_LEVELS`` times, each run of equal rows is summed first
    (``np.add.reduceat``, equal within rounding) and added once."""
    flat = rows.reshape(-1)
    if flat.size == 0:
        return
    n = out.shape[0]
    low, high = flat.min(), flat.max()
    if low < -n or high >= n:
        bad = low if low < -n else high
        raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
    if low < 0:
        flat = np.where(flat < 0, flat + n, flat)
    values = np.broadcast_to(value, rows.shape + out.shape[1:]).reshape(
        (flat.size,) + out.shape[1:])
    order = np.argsort(flat, kind="stable")
    ordered = flat[order]
    first = np.concatenate(([True], ordered[1:] != ordered[:-1]))
    starts = np.flatnonzero(first)
    # occurrence number of each sorted entry within its run of equal rows
    level = np.arange(flat.size) - np.repeat(starts, np.diff(np.append(starts, flat.size)))
    levels = int(level.max()) + 1
    if levels > _MAX_LEVELS:
        out[ordered[starts]] += np.add.reduceat(values[order], starts, axis=0)
        return
    for k in range(levels):
        at = order[level == k]
        out[flat[at]] += values[at]


def _add_vjp(ct, out, x, value, *idx, spec):
    ct_value = _red.sum_to(index_p.bind(ct, *idx, spec=spec), value.shape)
    return (ct, ct_value) + (None,) * len(idx)


index_put_p = Primitive("setitem", _put_impl, _update_rule("setitem"), _put_vjp,
                        shape_generic=False, aliasing=FRESH, batch=_update_batch)
index_add_p = Primitive("index_add", _add_impl, _update_rule("index_add"), _add_vjp,
                        shape_generic=False, aliasing=FRESH, batch=_update_batch)


# ---------------------------------------------------------------------------------------
# normalising a Python index

def format_spec(spec):
    parts = []
    for entry in spec:
        kind = entry[0]
        if kind == "i":
            parts.append(str(entry[1]))
        elif kind == "s":
            a, b, c = ("" if v is None else str(v) for v in entry[1:])
            parts.append(f"{a}:{b}" + (f":{c}" if c else ""))
        elif kind == "n":
            parts.append("None")
        elif kind == "e":
            parts.append("...")
        else:
            parts.append("<tensor>")
    return "[" + ", ".join(parts) + "]"


def _slice_bound(value):
    if value is None:
        return None
    if isinstance(value, Tensor):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    raise TypeError(f"slice indices must be integers or None, got {type(value).__name__}")


def _index_array(item):
    array = np.asarray(item)
    if array.dtype == object or array.dtype.kind not in "iub":
        raise TypeError(f"index list must hold ints or bools, got {item!r}")
    return coerce.constant(array)


def normalize_index(index, x, op="getitem"):
    """Python index -> (spec, [int index tensors])."""
    if not isinstance(index, tuple):
        index = (index,)
    index = tuple(_index_array(i) if isinstance(i, (list, tuple, np.ndarray)) else i
                  for i in index)
    # axes of x consumed by the items (a bool mask consumes as many as it has dimensions)
    used = sum(0 if i is None or i is Ellipsis else
               i.ndim if isinstance(i, Tensor) and i.dtype == dt.bool_ else 1 for i in index)
    spec, tensors, axis = [], [], 0
    for item in index:
        if item is None:
            spec.append(("n",))
        elif item is Ellipsis:
            spec.append(("e",))
            axis += max(x.ndim - used, 0)
        elif isinstance(item, slice):
            spec.append(("s", _slice_bound(item.start), _slice_bound(item.stop),
                         _slice_bound(item.step)))
            axis += 1
        elif isinstance(item, (bool, np.bool_)):
            raise TypeError("indexing with a Python bool is not supported; use a bool tensor")
        elif isinstance(item, (int, np.integer)):
            spec.append(("i", int(item)))
            axis += 1
        else:
            if not isinstance(item, Tensor):
                raise TypeError(f"invalid index item of type {type(item).__name__}; use "
                                f"ints, slices, None, ..., or integer/bool tensors")
            if item.dtype == dt.bool_:
                covered = tuple(x.shape[axis:axis + item.ndim])
                if tuple(item.shape) != covered:
                    raise IndexError(f"{op}: bool index of shape {tuple(item.shape)} does not "
                                     f"match the indexed axes {covered} (from axis {axis}) of "
                                     f"a tensor of shape {tuple(x.shape)}")
                axis += item.ndim
                for coord in nonzero(item, as_tuple=True):
                    spec.append(("t",))
                    tensors.append(coord)
            elif dt.is_int(item.dtype):
                spec.append(("t",))
                tensors.append(item)
                axis += 1
            else:
                raise TypeError(f"index tensors must be integer or bool, got {item.dtype}")
    return tuple(spec), tensors


def getitem(x, index):
    x = coerce.as_tensor(x, op="getitem")
    spec, tensors = normalize_index(index, x)
    if all(e == ("s", None, None, None) for e in spec) and len(spec) <= x.ndim:
        return x
    return index_p.bind(x, *tensors, spec=spec)


def _mask_like(index, x):
    return (isinstance(index, Tensor) and index.dtype == dt.bool_
            and tuple(index.shape) == tuple(x.shape))


def setitem_value(x, index, value):
    """The tensor ``x`` would become after ``x[index] = value`` (functional form)."""
    x = coerce.as_tensor(x, op="setitem")
    value = coerce.as_tensor(value, op="setitem")
    if value.dtype != x.dtype:
        value = _ew.cast(value, x.dtype)
    if _mask_like(index, x) and value.ndim == 0:
        return _ew.where(index, value, x)         # masked fill: no data-dependent shape
    spec, tensors = normalize_index(index, x, "setitem")
    extra = value.ndim - len(_index_result_shape(x, [t.aval for t in tensors], spec))
    if extra > 0 and all(d == 1 for d in value.shape[:extra]):
        value = _shape.reshape(value, value.shape[extra:])   # NumPy drops leading 1s
    return index_put_p.bind(x, value, *tensors, spec=spec)


def index_add(x, index, value):
    x = coerce.as_tensor(x, op="index_add")
    value = coerce.as_tensor(value, x.dtype, op="index_add")
    spec, tensors = normalize_index(index, x, "index_add")
    return index_add_p.bind(x, value, *tensors, spec=spec)


def nonzero(input, as_tuple=False):
    """Indices of non-zero elements; reads the tensor's value (data-dependent shape)."""
    x = coerce.as_tensor(input, op="nonzero")
    values = x.asnumpy()
    if values.ndim == 0:     # no axes to index (PyTorch's rule; NumPy 2 refuses 0-d)
        hits = int(values != 0)
        if as_tuple:
            return (coerce.constant(np.zeros(hits, np.int64)),)
        return coerce.constant(np.zeros((hits, 0), np.int64))
    coords = np.nonzero(values)
    if as_tuple:
        return tuple(coerce.constant(c.astype(np.int64)) for c in coords)
    return coerce.constant(np.stack(coords, axis=-1).astype(np.int64))


def masked_fill(input_x, mask, value):
    x = coerce.as_tensor(input_x, op="masked_fill")
    return _ew.where(mask, coerce.as_tensor(value, x.dtype, op="masked_fill"), x)


def gather(input_params, input_indices, axis, batch_dims=0):
    """MindSpore ``ops.gather``: take slices along ``axis`` at ``input_indices``."""
    if batch_dims:
        raise ValueError("gather: batch_dims other than 0 is not supported")
    x = coerce.as_tensor(input_params, op="gather")
    indices = coerce.as_tensor(input_indices, op="gather")
    axis = coerce.normalize_axis(axis, x.ndim, "gather")
    spec = (("s", None, None, None),) * axis + (("t",),)
    return index_p.bind(x, indices, spec=spec)


def gather_elements(input, dim, index):
    """``out[i][j] = input[i][index[i][j]]`` along ``dim`` (torch.gather / GatherD)."""
    x = coerce.as_tensor(input, op="gather_elements")
    index = coerce.as_tensor(index, op="gather_elements")
    dim = coerce.normalize_axis(dim, x.ndim, "gather_elements")
    if index.ndim != x.ndim:
        raise ValueError(f"gather_elements: index rank {index.ndim} differs from input rank "
                         f"{x.ndim}")
    coords = []
    for axis in range(x.ndim):
        if axis == dim:
            coords.append(index)
        else:
            shape = [1] * x.ndim
            shape[axis] = index.shape[axis]
            coords.append(coerce.constant(np.arange(index.shape[axis]).reshape(shape)))
    return index_p.bind(x, *coords, spec=(("t",),) * x.ndim)


def take_along_axis(arr, indices, axis):
    return gather_elements(arr, axis, indices)
