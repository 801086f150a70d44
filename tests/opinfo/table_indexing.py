"""Table entries: indexing and gathers (``x[i]``, the functional ``x[i] = v``, scatter-add,
gather, take_along_axis, masked_fill, nonzero, embedding), matrix products and tensor
creation."""
import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, Differs, ErrorCase, ALL, NUMERIC, INTS, int64_result
from .samples import structural, case, random, specials


def _first(x, *rest, **kw):
    return x


def _i(*values):
    return np.array(values, np.int64)


# ---- x[index] ---------------------------------------------------------------------------

def _torch_getitem(torch, x, index):
    """PyTorch has no negative slice steps: such a slice becomes the index tensor of the
    positions it selects."""
    items = index if isinstance(index, tuple) else (index,)
    axis, out = 0, []
    for item in items:
        if isinstance(item, slice) and item.step is not None and item.step < 0:
            item = torch.from_numpy(np.arange(x.shape[axis])[item].copy())
        out.append(item)
        axis += item is not None and item is not Ellipsis
    return x[tuple(out) if isinstance(index, tuple) else out[0]]


op("getitem", ref=lambda x, index: x[index], dtypes=ALL, result=_first,
   torch=_torch_getitem, ms=None, **structural(lambda a, full: [
       case("int", a(4, 5), 1), case("negative int", a(4, 5), -1),
       case("slice with a step", a(4, 5), (slice(None, None, -2), 1)),
       case("None and Ellipsis", a(3, 4), (None, Ellipsis, slice(1, None))),
       case("int tensor, repeated", a(4, 5, 2), (slice(None), _i(3, 0, 3, 1))),
       case("two int tensors broadcast", a(4, 5), (_i(0, 2)[:, None], _i(1, 4, 4))),
       case("negative index tensor", a(4, 5), _i(-1, 0)),
       case("bool mask", a(3, 4), a(3, 4) != a(3, 4)),
       case("bool mask of rows", a(3, 4), np.array([True, False, True])),
       case("empty slice", a(4, 5), slice(2, 2)), case("0-d", a(), ()),
       case("out of range", a(3, 4), _i(5), raises=IndexError)]))


def _setitem_ref(x, index, value):
    out = x.copy()
    out[index] = value
    return out


op("setitem_value", prims=("setitem",), ref=_setitem_ref, dtypes=ALL, result=_first, ms=None,
   torch=lambda torch, x, index, value: _torch_setitem(torch, x, index, value),
   **structural(lambda a, full: [
       case("slice", a(4, 5), slice(1, 3), a(2, 5)),
       case("broadcast value", a(4, 5), slice(None, None, 2), a(5)),
       case("int tensor", a(4, 5), _i(3, 0, 2), a(3, 5)),
       case("Python number", a(4, 5), (0, 1), 7),
       case("bool mask, scalar", a(3, 4), a(3, 4) != a(3, 4), 0),
       case("leading unit axes", a(3, 2), 0, a(1, 2))]))


def _torch_setitem(torch, x, index, value):
    out = x.clone()
    out[index] = value if not isinstance(value, torch.Tensor) else value.to(out.dtype)
    return out


def _index_add_ref(x, index, value):
    out = x.copy()
    np.add.at(out, index, value)
    return out


op("index_add", ref=_index_add_ref, dtypes=ALL, result=_first, ms=None,
   torch=lambda torch, x, index, value: _torch_index_add(torch, x, index, value),
   **structural(lambda a, full: [
       case("repeated indices accumulate", a(4, 3), _i(0, 2, 0, 3, 2), a(5, 3)),
       case("slice", a(4, 3), slice(1, None), a(3)),
       case("empty index", a(4, 3), _i(), a(0, 3))]),
   notes={"repeated indices": "values at a repeated index all add up (np.add.at, PyTorch's "
                              "index_put with accumulate)",
          "bool": "adding bools is or, as add is"})


def _torch_index_add(torch, x, index, value):
    out = x.clone()
    if isinstance(index, torch.Tensor):
        return out.index_put((index,), value.expand(index.shape + out.shape[1:]).to(out.dtype),
                             accumulate=True)
    out[index] = out[index] + value
    return out


def _gather_samples(a, full):
    return [case("axis 0", a(4, 3), _i(3, 0, 3), 0), case("axis 1", a(4, 3), _i(2, 0), 1),
            case("2-d indices", a(4, 3), _i(0, 1, 2, 3).reshape(2, 2), 0),
            case("negative axis", a(4, 3), _i(1), -1), case("no indices", a(4, 3), _i(), 0)]


op("gather", ref=lambda x, idx, axis: np.take(x, idx, axis), dtypes=ALL, result=_first,
   errors=[ErrorCase(Sample(np.ones((3, 2)), _i(5), 0), IndexError, "getitem(",
                     "an index out of range (the kernel fails at run time in ast)")],
   torch=lambda torch, x, idx, axis: torch.index_select(x, axis, idx.reshape(-1)).reshape(
       x.shape[:axis % x.ndim] + tuple(idx.shape) + x.shape[axis % x.ndim + 1:]),
   method="gather", **structural(_gather_samples))


def _along(a, full):
    return [case("dim 1", a(3, 4), 1, _i(0, 3, 3, 1, 2, 0).reshape(3, 2)),
            case("dim 0", a(3, 4), 0, _i(2, 0, 1, 1).reshape(1, 4)),
            case("negative indices", a(3, 4), 1, _i(-1, 0, -2).reshape(3, 1))]


op("gather_elements", ref=lambda x, dim, idx: np.take_along_axis(x, idx, dim), dtypes=ALL,
   result=_first, torch=lambda torch, x, dim, idx: torch.gather(x, dim, idx % x.shape[dim]),
   method="gather_elements", **structural(_along))
op("take_along_axis", ref=lambda x, idx, axis: np.take_along_axis(x, idx, axis), dtypes=ALL,
   result=_first, ms=None, torch=lambda torch, x, idx, axis: torch.take_along_dim(
       x, idx % x.shape[axis], axis),
   **structural(lambda a, full: [(label, (x, idx, dim), kw)
                                 for label, (x, dim, idx), kw in _along(a, full)]))
op("masked_fill", ref=lambda x, mask, value: np.where(mask, np.asarray(value, x.dtype), x),
   dtypes=ALL, result=_first, method="masked_fill",
   torch=lambda torch, x, mask, value: x.masked_fill(mask, value), **structural(
       lambda a, full: [case("scalar", a(3, 4), a(3, 4) != a(3, 4), 1),
                        case("broadcast mask", a(3, 4), np.array([True, False, True, False]), 0),
                        case("empty", a(2, 0), np.zeros((2, 0), bool), 1)]))
def _nonzero_ref(x, as_tuple=False):
    if x.ndim == 0:         # PyTorch's rule: a 0-d tensor has no axes to index
        hits = int(x != 0)
        return [np.zeros(hits, np.int64)] if as_tuple else np.zeros((hits, 0), np.int64)
    coords = np.nonzero(x)
    return [c.astype(np.int64) for c in coords] if as_tuple else \
        np.stack(coords, -1).astype(np.int64)


op("nonzero", ref=_nonzero_ref, dtypes=ALL, result=int64_result,
   grad=False, method="nonzero", fuzz=False,
   torch=lambda torch, x, as_tuple=False: torch.nonzero(x, as_tuple=as_tuple),
   **structural(lambda a, full: [case("2-d", a(3, 4)), case("as tuple", a(3, 4), as_tuple=True),
                                 case("0-d", a()), case("empty", a(2, 0))]),
   notes={"capture": "the result's shape depends on the values: a guard in trace capture, a "
                     "graph break in bytecode, a fallback in ast",
          "0-d": "a 0-d tensor gives (1, 0) or (0, 0) indices (PyTorch; NumPy 2 refuses it)"})
op("embedding", prims=(), ref=lambda ids, weight, **kw: weight[ids], dtypes=INTS,
   result=lambda ids, w: w,
   samples=lambda dtype, rng, full: [
       Sample(rng.integers(0, 5, (2, 3)).astype(dtype), rng.standard_normal((5, 4)).astype(
           np.float32), label="ids"),
       Sample(np.zeros((0,), dtype), rng.standard_normal((5, 4)).astype(np.float32),
              label="no ids")],
   grad_samples=lambda rng, full: [Sample(rng.integers(0, 5, (2, 3)), rng.standard_normal(
       (5, 4)), label="ids")],
   torch=lambda torch, ids, w, **kw: torch.nn.functional.embedding(ids, w),
   notes={"dtypes": "the declared dtypes are those of the ids; the table's dtype is the "
                    "weight's"})


# ---- matrix products -------------------------------------------------------------------

def _mat_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    out = [Sample(r(3, 4), r(4, 2), label="2-d"), Sample(r(2, 1, 3, 4), r(5, 4, 2),
                                                          label="batched broadcast"),
           Sample(r(4), r(4, 3), label="vector @ matrix"),
           Sample(r(3, 4), r(4), label="matrix @ vector"),
           Sample(r(4), r(4), label="vector @ vector"),
           Sample(r(2, 0), r(0, 3), label="empty contraction"),
           Sample(r(0, 4), r(4, 3), label="no rows")]
    if dt.is_float(dtype):
        e = specials(dtype)
        out.append(Sample(e[:12].reshape(3, 4), r(4, 2), label="edge", smooth=False))
    return out


_PARTIAL_SUMS = {"edge": Differs(
    "rows holding values near the dtype's maximum overflow in the products or partial sums "
    "(computed in the dtype, as NumPy and PyTorch do; the reference sums in float64)",
    lambda x, y: np.broadcast_to(np.abs(np.asarray(x, np.float64)) > 1e30, x.shape).any(
        axis=-1, keepdims=True))}
MATMUL_NOTE = {"dtypes": "bool is refused; integers multiply in their dtype and wrap (NumPy)",
               "empty": "an empty contraction gives zeros"}
op("matmul", ref=np.matmul, dtypes=NUMERIC, samples=_mat_samples, promotes=True,
   errors=[ErrorCase(Sample(np.ones((3, 2)), np.ones((3, 2))), ValueError, "matmul:",
                     "contraction dimensions differ")],
   weak_scalars=False,
   method="matmul", torch=lambda torch, x, y: torch.matmul(x, y), notes=MATMUL_NOTE,
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)}, ref_differs=_PARTIAL_SUMS)
op("bmm", prims=(), ref=np.matmul, dtypes=NUMERIC, samples=_mat_samples, aliases=("mm",),
   ref_differs=_PARTIAL_SUMS,
   torch=lambda torch, x, y: torch.matmul(x, y), notes=MATMUL_NOTE,
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)})
op("dot", prims=(), ref=np.dot, dtypes=NUMERIC, samples=_mat_samples,
   ref_differs=_PARTIAL_SUMS, torch=lambda torch, x, y: torch.tensordot(
       x, y, dims=([-1], [-2 if y.ndim > 1 else -1])) if x.ndim > 2 or y.ndim > 2 else
   torch.matmul(x, y), notes=MATMUL_NOTE | {
       "semantics": "NumPy's dot (MindSpore's): the last axis of x against the second-to-"
                    "last of y, all other axes kept, not matmul's batch broadcasting"},
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)})


def _dense_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    return [Sample(r(3, 4), r(5, 4), r(5), label="with bias"),
            Sample(r(2, 3, 4), r(5, 4), label="no bias, batched"),
            Sample(r(0, 4), r(5, 4), r(5), label="empty batch")]


op("dense", prims=(), ref=lambda x, w, b=None: x @ w.T + (0 if b is None else b),
   dtypes=NUMERIC, samples=_dense_samples,
   torch=lambda torch, x, w, b=None: torch.nn.functional.linear(x, w, b),
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)})
op("outer", prims=(), ref=np.outer, dtypes=ALL, method="outer",
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (3,), dtype), random(rng, (4,), dtype), label="vectors"),
       Sample(random(rng, (0,), dtype), random(rng, (4,), dtype), label="empty"),
       Sample(random(rng, (2, 2), dtype), random(rng, (3,), dtype), label="flattens")],
   torch=lambda torch, x, y: torch.outer(x.reshape(-1), y.reshape(-1)))


def _tensor_dot_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    return [Sample(r(2, 3, 4), r(3, 4, 5), 2, label="axes=2"),
            Sample(r(2, 3, 4), r(4, 3, 5), ((1, 2), (1, 0)), label="axis lists"),
            Sample(r(3, 4), r(4, 2), 1, label="matrix product"),
            Sample(r(3), r(4), 0, label="outer product"),
            Sample(r(2, 0), r(0, 3), 1, label="empty contraction")]


op("tensor_dot", prims=(), ref=lambda x, y, axes: np.tensordot(x, y, axes), dtypes=NUMERIC,
   samples=_tensor_dot_samples, tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)},
   torch=lambda torch, x, y, axes: torch.tensordot(x, y, dims=axes), notes=MATMUL_NOTE)
