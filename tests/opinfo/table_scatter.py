"""Table entries: scatter and gather (gather_nd, tensor_scatter_*, scatter_nd*, scatter_*,
tensor_scatter_elements, inplace_*), segment reductions, selections along an axis and
slices (slice, strided_slice, reverse, space <-> batch).

The references apply each row of ``indices`` in order with NumPy (``out[tuple(row)] =
f(out[tuple(row)], update)``), as MindSpore's CPU kernels do."""
import numpy as np

import tensorjit as tj
from tensorjit import dtype as dt

from .core import op, Sample, ALL
from .samples import random, structural, case

NUMBERS = tuple(d for d in ALL if d not in (dt.bool_, dt.bfloat16))
NO_BYTES = tuple(d for d in NUMBERS if d not in (dt.int8, dt.uint8))


def _first(x, *rest, **kw):
    return x


def _i32(*rows):
    return np.array(rows, np.int32)


def _i64(*rows):
    return np.array(rows, np.int64)


def _trunc_div(a, b):
    if isinstance(a, np.ndarray) and a.dtype.kind == "f" or isinstance(a, float):
        with np.errstate(all="ignore"):
            return a / b
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


_COMBINE = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": _trunc_div,
            "max": np.maximum, "min": np.minimum, "update": lambda old, new: new}


def scatter_rows(x, indices, updates, combine):
    """``x`` with each row of ``indices`` combined, in order, with its update."""
    out = np.array(x)
    rows = indices.reshape(-1, indices.shape[-1])
    values = updates.reshape((rows.shape[0],) + x.shape[indices.shape[-1]:])
    for row, value in zip(rows, values):
        at = tuple(row)
        out[at] = combine(out[at], value)
    return out


def _scatter_ref(reduction):
    return lambda x, indices, updates: scatter_rows(x, indices, updates, _COMBINE[reduction])


def _scatter_samples(reduction):
    """Repeated rows (they combine in order), a depth-2 index, an empty index; updates
    away from 0 for division."""
    def make(dtype, rng, full):
        def r(*shape):
            if reduction == "div":
                v = random(rng, shape, dtype, 1, 3)
                return v if not dt.is_float(dtype) else (v + 0.5).astype(dtype)
            return random(rng, shape, dtype, -3, 3)
        return [Sample(r(4, 3), _i32([0], [2], [0]), r(3, 3), label="repeated rows"),
                Sample(r(4, 4), _i64([1, 2], [3, 0]), r(2), label="depth 2"),
                Sample(r(2, 3), np.zeros((0, 1), np.int32), r(0, 3), label="no rows")]
    return make


def _scatter_grads(reduction):
    """Distinct rows (the product and quotient rules hold only there) and distinct values
    (no ties for max / min)."""
    def make(rng, full):
        x = rng.permutation(12).reshape(4, 3) * 0.37 + 0.5
        updates = rng.permutation(6).reshape(2, 3) * 0.41 + 0.6
        if reduction == "min":
            updates = updates - 2.0
        return [Sample(x, _i32([3], [1]), updates, label="distinct rows"),
                Sample(x, _i64([1, 2], [3, 0]), updates[0, :2], label="depth 2")]
    return make


_ERRORS = {"indices": "a row out of range, negative ones included, raises RuntimeError when the "
                      "kernel runs (MindSpore's CPU kernels); NumPy would count negative "
                      "indices from the end",
           "repeats": "repeated rows combine in order (update: the last one wins)"}
_GRAD_NOTE = {"gradient": "MindSpore's rules: mul / div differentiate each update as if its "
                          "row were the only one; max / min share the cotangent among the "
                          "input and updates equal to the result"}
for _reduction in ("add", "sub", "mul", "div", "max", "min", "update"):
    _name = f"tensor_scatter_{_reduction}"
    op(_name, prims=(f"tensor_scatter_{'add' if _reduction == 'sub' else _reduction}",
                     "gather_nd") if _reduction != "sub" else ("tensor_scatter_add",),
       ref=_scatter_ref(_reduction), result=_first, samples=_scatter_samples(_reduction),
       dtypes=NUMBERS + ((dt.bool_,) if _reduction == "update" else ()) if _reduction != "div"
       else NO_BYTES, grad_samples=_scatter_grads(_reduction), nondiff=(1,),
       notes=_ERRORS | _GRAD_NOTE)


def _gather_nd_samples(a, full):
    # every coordinate fits every axis: the fuzz feed shuffles index values too
    return [case("elements", a(4, 4), _i32([0, 1], [2, 3], [0, 1])),
            case("rows", a(3, 4), _i64([2], [0])),
            case("batched index", a(3, 4), _i32([[1], [0]], [[2], [2]])),
            case("depth 0", a(3, 2), np.zeros((2, 0), np.int64)),
            case("no rows", a(3, 4), np.zeros((0, 1), np.int32))]


op("gather_nd", ref=lambda x, indices: x[tuple(np.moveaxis(indices, -1, 0))] if
   indices.shape[-1] else np.broadcast_to(x, indices.shape[:-1] + x.shape), dtypes=ALL,
   result=_first, notes=_ERRORS, nondiff=(1,), **structural(_gather_nd_samples))


def _scatter_nd_samples(dtype, rng, full):
    return [Sample(_i32([0], [2], [0]), random(rng, (3, 2), dtype), (4, 2), label="repeats add"),
            Sample(_i64([1, 1], [0, 1]), random(rng, (2,), dtype), (2, 3), label="depth 2")]


op("scatter_nd", ref=lambda indices, updates, shape: scatter_rows(
    np.zeros(shape, updates.dtype), indices, updates,
    np.logical_or if updates.dtype == np.bool_ else np.add),
   dtypes=NUMBERS + (dt.bool_,), result=lambda indices, updates: updates,
   samples=_scatter_nd_samples, nondiff=(0,), prims=("tensor_scatter_add",),
   grad_samples=lambda rng, full: [Sample(_i32([0], [2]), rng.standard_normal((2, 2)), (4, 2))],
   notes={"bool": "bool updates combine by or"})


# ---- in place: the Parameter's value afterwards ------------------------------------------

def _in_place(name):
    """``ops.<name>`` on a Parameter holding ``x``; its value afterwards (it must be
    returned)."""
    def run(x, *args):
        param = tj.Parameter(x)
        out = getattr(tj.ops, name)(param, *args)
        assert out is param, f"{name} must return its Parameter"
        return tj.Tensor(param.asnumpy())
    run.__name__ = name
    return run


def _row_samples(reduction):
    """``scatter_*``: 1-D and 2-D indices of rows of the first axis, repeats included."""
    def make(dtype, rng, full):
        def r(*shape):
            lo = 1 if reduction == "div" else -3
            return random(rng, shape, dtype, lo, 3)
        return [Sample(r(4, 3), _i32(0, 2, 0), r(3, 3), label="repeated rows"),
                Sample(r(4, 3), _i64([1, 3]), r(1, 2, 3), label="2-d indices")]
    return make


_IN_PLACE = dict(grad=False, fuzz=False, result=_first,
                 notes={"in place": "the Parameter is updated and returned (MindSpore's "
                                    "ref semantics)"})
for _reduction in ("add", "sub", "mul", "div", "max", "min", "update"):
    _name = f"scatter_nd_{_reduction}"
    op(_name, op=_in_place(_name), prims=(), ref=_scatter_ref(_reduction),
       samples=_scatter_samples(_reduction), dtypes=NO_BYTES if _reduction == "div" else
       NUMBERS, **_IN_PLACE)
    if _reduction != "sub":      # MindSpore 2.10 has no ops.scatter_sub function
        _name = f"scatter_{_reduction}"
        op(_name, op=_in_place(_name), prims=(), samples=_row_samples(_reduction),
           ref=lambda x, indices, updates, _r=_reduction: scatter_rows(
               x, indices[..., None], updates, _COMBINE[_r]),
           dtypes=NO_BYTES if _reduction == "div" else NUMBERS, **_IN_PLACE)


# ---- elements along an axis ---------------------------------------------------------------

def _elements_ref(x, indices, updates, axis=0, reduction="none"):
    out = np.array(x)
    for pos in np.ndindex(indices.shape):
        at = list(pos)
        at[axis] = indices[pos]
        target = tuple(at)
        out[target] = out[target] + updates[pos] if reduction == "add" else updates[pos]
    return out


op("tensor_scatter_elements", prims=("tensor_scatter_update",), ref=_elements_ref,
   dtypes=NUMBERS + (dt.bool_,), result=_first, nondiff=(1,),
   **structural(lambda a, full: [
       case("axis 0", a(3, 3), _i32([1, 0, 2]), a(1, 3)),
       case("axis 1", a(3, 3), _i64([1, 2], [0, 2]), a(2, 2), 1),
       case("negative indices", a(3, 3), _i32([-1], [0]), a(2, 1), 1)]),
   notes={"indices": "negative indices count from the end; one out of range raises "
                     "RuntimeError (MindSpore 2.10's CPU kernel skips it)"})
op("scatter", prims=(), ref=lambda x, axis, idx, src: _elements_ref(x, idx, src, axis),
   dtypes=NUMBERS + (dt.bool_,), result=_first, nondiff=(2,),
   **structural(lambda a, full: [case("axis 1", a(3, 3), 1, _i32([1, 0]), a(1, 2)),
                                 case("axis 0", a(3, 3), 0, _i64([2, 1, 0]), a(1, 3))]),
   torch=lambda torch, x, axis, idx, src: torch.scatter(x, axis, idx, src))


def _rows_ref(combine):
    def ref(x, v, indices):
        rows = (indices,) if isinstance(indices, int) else tuple(np.asarray(indices).reshape(-1))
        return scatter_rows(x, np.asarray(rows).reshape(-1, 1), v, combine)
    return ref


for _name, _combine, _dtypes in (("inplace_add", np.add, NUMBERS),
                                 ("inplace_sub", np.subtract, NUMBERS),
                                 ("inplace_update", _COMBINE["update"],
                                  (dt.float16, dt.float32, dt.int32))):
    _samples = structural(lambda a, full: [case("tuple, repeated", a(3, 4), a(2, 4), (0, 0)),
                                           case("int", a(3, 4), a(1, 4), 2)])
    if dt.float64 not in _dtypes:      # inplace_update: MindSpore's dtypes, no float64
        _samples["grad_samples"] = lambda rng, full: []
    op(_name, prims=(), ref=_rows_ref(_combine), dtypes=_dtypes, result=_first,
       grad=dt.float64 in _dtypes, **_samples,
       notes={"in place": "despite the name, a new tensor: MindSpore 2.10 leaves x as it is"})


def _index_add_ref(x, indices, updates, axis):
    out = np.array(x)
    moved = np.moveaxis(out, axis, 0)
    np.add.at(moved, indices, np.moveaxis(updates, axis, 0))
    return out


op("inplace_index_add", op=_in_place("inplace_index_add"), prims=(), ref=_index_add_ref,
   dtypes=NUMBERS, grad=False, fuzz=False, result=_first,
   **structural(lambda a, full: [case("axis 0, repeats", a(3, 2), _i32(0, 2, 0), a(3, 2), 0),
                                 case("axis 1", a(2, 3), _i32(1), a(2, 1), 1)]))


# ---- segments -----------------------------------------------------------------------------

def _segment_ref(reduction):
    identity = {"sum": lambda d: 0, "prod": lambda d: 1,
                "max": lambda d: np.finfo(d).min if d.kind == "f" else np.iinfo(d).min,
                "min": lambda d: np.finfo(d).max if d.kind == "f" else np.iinfo(d).max}
    combine = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}

    def ref(x, ids, n, _dtype=None):
        out = np.full((n,) + x.shape[ids.ndim:], identity[reduction](x.dtype), x.dtype)
        for pos in np.ndindex(ids.shape):
            if ids[pos] >= 0:
                out[ids[pos]] = combine[reduction](out[ids[pos]], x[pos])
        return out
    return ref


def _segment_samples(dtype, rng, full):
    # an empty segment of a float input holds the dtype's lowest / highest value, which
    # the float64 reference cannot know: integer dtypes check it
    ids = _i32(0, -1, 0, 2) if not dt.is_float(dtype) else _i32(0, -1, 1, 2)
    return [Sample(random(rng, (4, 3), dtype, -3, 3), ids, 3,
                   label="negative id dropped"),
            Sample(random(rng, (2, 3), dtype, -3, 3), _i64([0, 1, 0], [1, 1, 1]), 2,
                   label="2-d ids")]


def _segment_grads(rng, full):
    return [Sample(rng.permutation(12).reshape(4, 3) * 0.3 + 0.4, _i32(0, -1, 1, 2), 3,
                   label="distinct")]


for _reduction in ("sum", "max", "min", "prod"):
    op(f"unsorted_segment_{_reduction}", prims=(), ref=_segment_ref(_reduction),
       dtypes=NUMBERS, result=_first, samples=_segment_samples, grad_samples=_segment_grads,
       nondiff=(1,), tol={dt.float16: (4e-3, 4e-3)},
       notes={"ids": "rows with a negative id are dropped; an id at or past num_segments "
                     "raises RuntimeError",
              "empty": "an empty segment holds 0, 1, or the dtype's lowest / highest finite "
                       "value (max / min)"})


# ---- selections along an axis -------------------------------------------------------------

op("index_select", prims=(), ref=lambda x, axis, idx: np.take(x, idx, axis), dtypes=ALL,
   result=_first, nondiff=(2,), torch=lambda torch, x, axis, idx: torch.index_select(
       x, axis, idx % x.shape[axis]),
   **structural(lambda a, full: [case("axis 1, repeats", a(3, 4), 1, _i32(0, 2, 0)),
                                 case("negative axis and index", a(3, 4), -1, _i64(-1))]))
op("masked_select", prims=(), ref=lambda x, mask: np.broadcast_to(x, np.broadcast_shapes(
    x.shape, mask.shape))[np.broadcast_to(mask, np.broadcast_shapes(x.shape, mask.shape))],
   dtypes=ALL, result=_first, fuzz=False, torch=lambda torch, x, m: torch.masked_select(x, m),
   **structural(lambda a, full: [case("broadcast mask", a(3, 4),
                                      np.array([True, False, True, False])),
                                 case("nothing", a(2, 2), np.zeros((2, 2), bool))]),
   notes={"capture": "the result's length depends on the mask's values (as nonzero)"})


def _index_fill_ref(x, axis, index, value):
    out = np.array(x)
    moved = np.moveaxis(out, axis, 0)
    moved[np.asarray(index).reshape(-1)] = value
    return out


op("index_fill", prims=(), ref=_index_fill_ref, dtypes=NUMBERS + (dt.bfloat16,),
   result=_first, nondiff=(2,),
   **structural(lambda a, full: [case("axis 1", a(3, 4), 1, _i32(0, 2), 7.0),
                                 case("negative index", a(3, 4), 0, _i32(-1), 2.0)]),
   notes={"index": "int32 (MindSpore); negative indices count from the end, out-of-range "
                   "ones fill nothing (MindSpore raises RuntimeError)"})
def _select_scatter_ref(x, src, axis, index):
    out = np.array(x)
    np.moveaxis(out, axis, 0)[index] = src
    return out


op("select_scatter", prims=(), ref=_select_scatter_ref, dtypes=ALL, result=_first,
   **structural(lambda a, full: [case("axis 1", a(3, 4), a(3), 1, 0),
                                 case("negative index", a(3, 4), a(4), 0, -1)]),
   torch=lambda torch, x, src, axis, index: torch.select_scatter(x, src, axis, index))


def _slice_scatter_ref(x, src, axis=0, start=None, end=None, step=1):
    out = np.array(x)
    np.moveaxis(out, axis, 0)[start:end:step] = np.moveaxis(src, axis, 0)
    return out


op("slice_scatter", prims=(), ref=_slice_scatter_ref, dtypes=ALL, result=_first,
   **structural(lambda a, full: [case("step 2", a(3, 4), a(3, 2), 1, 0, 4, 2),
                                 case("whole", a(2, 3), a(2, 3)),
                                 case("negative start", a(3, 4), a(3, 1), 1, -1)]),
   torch=lambda torch, x, src, axis=0, start=None, end=None, step=1: torch.slice_scatter(
       x, src, axis, start, end, step))


# ---- slices -------------------------------------------------------------------------------

op("slice", prims=(), ref=lambda x, begin, size: x[tuple(
    slice(b, None if s == -1 else b + s) for b, s in zip(begin, size))], dtypes=ALL,
   result=_first, **structural(lambda a, full: [case("2-d", a(3, 4), (0, 1), (2, -1)),
                                                case("empty", a(3, 4), (1, 0), (0, 2))]))


def _strided_ref(x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                 new_axis_mask=0, shrink_axis_mask=0):
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        if shrink_axis_mask >> i & 1:
            index.append(b)
        else:
            index.append(slice(None if begin_mask >> i & 1 else b,
                               None if end_mask >> i & 1 else e, s))
    return x[tuple(index)]


op("strided_slice", prims=(), ref=_strided_ref, dtypes=ALL, result=_first,
   **structural(lambda a, full: [case("strides", a(2, 3, 4), (0, 1, 0), (2, 3, 4), (1, 1, 2)),
                                 case("masks", a(2, 3, 4), (1, 1, 0), (2, 3, 4), (1, 1, 1), 1,
                                      2, 0, 0, 4),
                                 case("negative stride", a(4, 3), (3, 0), (0, 3), (-1, 1))]),
   notes={"masks": "TensorFlow's begin / end / shrink masks; ellipsis and new-axis masks "
                   "follow TensorFlow too (MindSpore 2.10's CPU kernel places them otherwise)"})
op("reverse", prims=(), ref=lambda x, axis: np.flip(x, tuple(axis)), dtypes=ALL, result=_first,
   **structural(lambda a, full: [case("one axis", a(3, 4), [1]),
                                 case("two axes", a(3, 4), (0, -1))]))


def _reverse_sequence_ref(x, lengths, seq_dim, batch_dim=0):
    out = np.array(x)
    for b, n in enumerate(lengths):
        src = np.take(x, [b], batch_dim)
        part = np.take(src, np.arange(n)[::-1], seq_dim)
        index = [slice(None)] * x.ndim
        index[batch_dim], index[seq_dim] = slice(b, b + 1), slice(0, n)
        out[tuple(index)] = part
    return out


op("reverse_sequence", prims=(), ref=_reverse_sequence_ref, dtypes=ALL, result=_first,
   nondiff=(1,), **structural(lambda a, full: [
       case("batch 0", a(3, 4), _i32(1, 3, 0), 1),
       case("batch 1", a(4, 3, 2), _i64(2, 4, 1), 0, 1)]))


def _s2b_ref(x, block, pads):
    block = (block,) * 2 if isinstance(block, int) else tuple(block)
    x = np.pad(x, [(0, 0)] * (x.ndim - len(block)) + [tuple(p) for p in pads])
    n, c = x.shape[:2]
    h, w = x.shape[2] // block[0], x.shape[3] // block[1]
    x = x.reshape(n, c, h, block[0], w, block[1]).transpose(3, 5, 0, 1, 2, 4)
    return x.reshape(block[0] * block[1] * n, c, h, w)


def _b2s_ref(x, block, crops):
    block = (block,) * 2 if isinstance(block, int) else tuple(block)
    n = x.shape[0] // (block[0] * block[1])
    c, h, w = x.shape[1:]
    x = x.reshape(block[0], block[1], n, c, h, w).transpose(2, 3, 4, 0, 5, 1)
    x = x.reshape(n, c, h * block[0], w * block[1])
    return x[:, :, crops[0][0]:x.shape[2] - crops[0][1], crops[1][0]:x.shape[3] - crops[1][1]]


op("space_to_batch_nd", prims=(), ref=_s2b_ref, dtypes=ALL, result=_first,
   **structural(lambda a, full: [case("block 2", a(1, 2, 4, 4), 2, [[0, 0], [0, 0]]),
                                 case("padded", a(2, 1, 2, 3), [2, 2], [[0, 0], [0, 1]])]))
op("batch_to_space_nd", prims=(), ref=_b2s_ref, dtypes=ALL, result=_first,
   **structural(lambda a, full: [case("block 2, crop", a(4, 1, 2, 2), 2, [[0, 0], [0, 1]]),
                                 case("two images", a(8, 2, 1, 2), [2, 2], [[1, 0], [0, 0]])]))
