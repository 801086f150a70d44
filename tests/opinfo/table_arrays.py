"""Table entries: array manipulation (stacking, splitting, flips, slices, space <-> batch),
searching and counting (searchsorted, bucketize, bincount, histc, unique, top_k, ...) and
statistics (median, quantile, nansum, std_mean, vector_norm, ...)."""
import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, Differs, ALL, FLOATS, NUMERIC, INTS, int64_result, bool_result
from .samples import random, structural, case, mixed
from .table_scatter import _first      # the result has the first input's dtype

NO_BOOL = NUMERIC


def _i32(*values):
    return np.array(values, np.int32)


def _i64(*values):
    return np.array(values, np.int64)


# ---- stacking and splitting -----------------------------------------------------------------

for _name, _ndim in (("atleast_1d", 1), ("atleast_2d", 2), ("atleast_3d", 3)):
    op(_name, prims=(), ref=lambda x, _n=_ndim: getattr(np, f"atleast_{_n}d")(x), dtypes=ALL,
       result=_first, torch=lambda torch, x, _n=_ndim: getattr(torch, f"atleast_{_n}d")(x),
       **structural(lambda a, full: [case("0-d", a()), case("1-d", a(3)), case("2-d", a(2, 3)),
                                     case("3-d", a(1, 2, 2))]))
for _name in ("hstack", "vstack", "dstack", "column_stack", "row_stack"):
    # NumPy 2.4 removed row_stack, its alias of vstack
    op(_name, prims=(), ref=lambda xs, _n=_name.replace("row_", "v"): getattr(np, _n)(xs), dtypes=ALL,
       result=_first, torch=lambda torch, xs, _n=_name: getattr(torch, _n)(xs),
       **structural(lambda a, full: [case("1-d", [a(2), a(2)]), case("2-d", [a(2, 1), a(2, 1)]),
                                     case("0-d", (a(), a()))]))


def _split_ref(fn):
    return lambda x, s, *axis: tuple(fn(x, s if isinstance(s, int) else list(s), *axis))


op("tensor_split", prims=(), ref=_split_ref(np.array_split), dtypes=ALL, result=_first,
   torch=lambda torch, x, s, axis=0: torch.tensor_split(x, s, axis),
   **structural(lambda a, full: [case("uneven sections", a(3, 4), 3, 1),
                                 case("indices, past the end", a(3, 4), (1, 5), 1),
                                 case("negative index", a(5), (-2,))]))
for _name, _np, _shape in (("hsplit", np.array_split, (3, 4)), ("vsplit", np.array_split, (4, 2)),
                           ("dsplit", np.array_split, (1, 2, 4))):
    _axis = {"hsplit": 1, "vsplit": 0, "dsplit": 2}[_name]
    op(_name, prims=(), ref=lambda x, s, _a=_axis: tuple(np.array_split(
        x, s if isinstance(s, int) else list(s), _a if x.ndim > 1 else 0)), dtypes=ALL,
       result=_first, **structural(lambda a, full, _s=_shape: [case("sections", a(*_s), 2),
                                                               case("indices", a(*_s), [1, 3])]),
       notes={"sections": "sections need not divide the axis equally (MindSpore's "
                          "tensor_split rule; NumPy's hsplit refuses that)"})
op("fliplr", prims=(), ref=np.fliplr, dtypes=ALL, result=_first,
   torch=lambda torch, x: torch.fliplr(x), **structural(lambda a, full: [case("2-d", a(3, 4))]))
op("flipud", prims=(), ref=np.flipud, dtypes=ALL, result=_first,
   torch=lambda torch, x: torch.flipud(x), **structural(lambda a, full: [case("2-d", a(3, 4)),
                                                                          case("1-d", a(3))]))
op("rot90", prims=(), ref=lambda x, k, dims: np.rot90(x, k, dims), dtypes=ALL, result=_first,
   torch=lambda torch, x, k, dims: torch.rot90(x, k, dims),
   **structural(lambda a, full: [case(f"k={k}", a(3, 4), k, (0, 1)) for k in (1, 2, -1)] +
                [case("3-d, other plane", a(2, 3, 4), 1, [2, 0])]))
op("moveaxis", prims=(), ref=np.moveaxis, dtypes=ALL, result=_first,
   torch=lambda torch, x, s, d: torch.moveaxis(x, s, d),
   **structural(lambda a, full: [case("one", a(2, 3, 4), 0, -1),
                                 case("two", a(2, 3, 4), (0, 1), (2, 0))]))
op("narrow", prims=(), ref=lambda x, axis, start, length: np.take(
    x, np.arange(start, start + length), axis), dtypes=ALL, result=_first,
   torch=lambda torch, x, axis, start, length: torch.narrow(x, axis, start, length),
   **structural(lambda a, full: [case("axis 1", a(3, 4), 1, 1, 2),
                                 case("negative axis", a(3, 4), -1, 0, 4)]))
op("take", prims=(), ref=lambda x, idx: np.take(x, idx), dtypes=ALL, result=_first,
   nondiff=(1,), torch=lambda torch, x, idx: torch.take(x, idx.long()),
   **structural(lambda a, full: [case("2-d index", a(3, 4), _i64([0, 11], [5, 5])),
                                 case("negative", a(3, 4), _i32(-1, 0))]))
op("t", prims=(), ref=lambda x: x.T, dtypes=ALL, result=_first, torch=lambda torch, x: torch.t(x),
   **structural(lambda a, full: [case("2-d", a(3, 4)), case("1-d", a(3)), case("0-d", a())]))
op("expand", prims=(), ref=lambda x, size: np.broadcast_to(
    x, tuple(x.shape[i - (len(size) - x.ndim)] if d == -1 else d for i, d in enumerate(size))),
   dtypes=ALL, result=_first, nondiff=(1,), fuzz=False,
   **structural(lambda a, full: [case("size tensor", a(2, 1), _i32(2, 3)),
                                 case("-1 keeps, new axis", a(2, 1), _i64(4, -1, 3))]),
   notes={"size": "a tensor whose values are the shape: read from it (a guard under capture)"})
op("expand_as", prims=(), ref=lambda x, other: np.broadcast_to(x, other.shape), dtypes=ALL,
   result=_first, torch=lambda torch, x, other: x.expand_as(other), nondiff=(1,),
   **structural(lambda a, full: [case("2-d", a(2, 1), a(2, 3)), case("new axis", a(3), a(2, 3))]))


def _meshgrid_samples(dtype, rng, full):
    return [Sample(mixed(rng, (2,), dtype), mixed(rng, (3,), dtype), label="xy", smooth=False),
            Sample(mixed(rng, (2,), dtype), mixed(rng, (3,), dtype), mixed(rng, (1,), dtype),
                   indexing="ij", label="ij, three", smooth=False)]


op("meshgrid", prims=(), ref=lambda *xs, indexing="xy": tuple(np.meshgrid(*xs, indexing=indexing)),
   dtypes=ALL, result=lambda *d, **kw: d[:1] * len(d), samples=_meshgrid_samples,
   grad_samples=lambda rng, full: [Sample(rng.standard_normal(2), rng.standard_normal(3))],
   torch=lambda torch, *xs, indexing="xy": torch.meshgrid(*xs, indexing=indexing))


def _diff_ref(x, n=1, axis=-1, prepend=None, append=None):
    pieces = [p for p in (prepend, x, append) if p is not None]
    x = np.concatenate(pieces, axis) if len(pieces) > 1 else x
    for _ in range(n):
        x = np.diff(x, axis=axis) if x.dtype != np.bool_ else \
            np.not_equal(np.take(x, range(1, x.shape[axis]), axis),
                         np.take(x, range(x.shape[axis] - 1), axis))
    return x


op("diff", prims=(), ref=_diff_ref, dtypes=ALL, result=_first,
   **structural(lambda a, full: [case("last axis", a(3, 4)), case("twice", a(5), 2),
                                 case("prepend", a(2, 3), 1, 1, a(2, 1)),
                                 case("append", a(3), 1, 0, None, a(2))]),
   notes={"n": "any n >= 0 (MindSpore 2.10's CPU kernel takes only n=1)"})
op("vander", prims=(), ref=lambda x, N=None: np.vander(x, N), dtypes=NO_BOOL,
   result=lambda x: x if dt.is_float(x) else dt.int64, samples=lambda dtype, rng, full: [
       Sample(random(rng, (3,), dtype, -2, 3), label="square"),
       Sample(random(rng, (3,), dtype, -2, 3), 2, label="N=2")],
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)},
   grad_samples=lambda rng, full: [Sample(rng.standard_normal(3))])


def _trapz_ref(y, x=None, *, dx=1.0, dim=-1):
    return np.trapezoid(y, x, dx, dim) if hasattr(np, "trapezoid") else np.trapz(y, x, dx, dim)


op("trapz", prims=(), ref=_trapz_ref, dtypes=NUMERIC, result=lambda y, *x: y if dt.is_float(y)
   else dt.float32, samples=lambda dtype, rng, full: [
       Sample(random(rng, (2, 4), dtype), label="dx"),
       Sample(random(rng, (2, 4), dtype), dx=0.5, dim=0, label="dx, axis 0"),
       Sample(random(rng, (3,), dtype), np.array([0.0, 1.0, 3.0], np.float32), label="x")],
   grad_samples=lambda rng, full: [Sample(rng.standard_normal((2, 4)), label="dx")],
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)},
   ms_differs={"dtype": "float64 stays float64 (MindSpore 2.10's CPU result is float32)"})


def _numel_check(entry, sample, got):
    x = sample.tensors()[0]
    value = entry.op(x)
    want = int(np.prod(x.shape, dtype=np.int64))
    return None if type(value) is int and value == want else f"{value!r}, expected {want}"


op("numel", prims=(), check=_numel_check, dtypes=ALL, grad=False, fuzz=False, torch=None,
   ms_differs={"dtype": "both give a Python int; the recording turns MindSpore's into int32, "
                        "ours into NumPy's default int64"},
   samples=lambda dtype, rng, full: [Sample(random(rng, (2, 3), dtype)),
                                     Sample(random(rng, (), dtype))])


# ---- searching and counting -----------------------------------------------------------------

def _searchsorted_ref(seq, values, *, out_int32=False, right=False, side=None, sorter=None):
    side = side or ("right" if right else "left")
    if seq.ndim == 1:
        out = np.searchsorted(seq, values, side)
    else:
        out = np.stack([np.searchsorted(s, v, side) for s, v in zip(seq, values)])
    return out.astype(np.int32 if out_int32 else np.int64)


def _searchsorted_samples(dtype, rng, full):
    seq = np.sort(random(rng, (5,), dtype, -3, 3))
    return [Sample(seq, random(rng, (2, 3), dtype, -3, 3), label="1-d sequence"),
            Sample(seq, random(rng, (4,), dtype, -3, 3), right=True, out_int32=True,
                   label="right, int32"),
            Sample(np.sort(random(rng, (2, 4), dtype, -3, 3), -1), random(rng, (2, 3), dtype),
                   side="right", label="rows")]


op("searchsorted", prims=(), ref=_searchsorted_ref, dtypes=NO_BOOL, grad=False,
   samples=_searchsorted_samples, result=lambda *d, out_int32=False: dt.int32 if out_int32
   else dt.int64, torch=lambda torch, s, v, **kw: torch.searchsorted(s, v, **kw))
_BUCKETIZE = (dt.int16, dt.int32, dt.int64, dt.float16, dt.float32, dt.float64)
op("bucketize", prims=(), ref=lambda x, b, right=False: np.searchsorted(
    np.asarray(b, np.float64), x, "right" if right else "left").astype(np.int32),
   dtypes=_BUCKETIZE, grad=False, result=lambda x: dt.int32,
   samples=lambda dtype, rng, full: [Sample(random(rng, (2, 3), dtype, -3, 3), [-1.0, 0.0, 2.0]),
                                     Sample(random(rng, (4,), dtype, -3, 3), (0, 1), right=True,
                                            label="right")])
op("bincount", prims=(), ref=lambda x, w=None, minlength=0: np.bincount(
    x[x >= 0].astype(np.int64), None if w is None else w[x >= 0], minlength).astype(np.float32),
   dtypes=INTS, grad=False, fuzz=False, result=lambda *d, **kw: dt.float32,
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (6,), dtype, 0, 4), label="counts"),
       Sample(random(rng, (4,), dtype, 0, 3), np.array([0.5, 1, 2, 4], np.float32), 6,
              label="weights, minlength")],
   notes={"dtype": "float32 counts (MindSpore 2.10)", "length": "read from the values"})


def _histc_ref(x, bins=100, min=0.0, max=0.0):
    low, high = (float(min), float(max)) if min != max else (float(x.min()), float(x.max()))
    counts = np.histogram(x, bins, (low, high))[0]
    return counts.astype(np.int32 if x.dtype.kind == "i" else np.float32)


op("histc", prims=(), ref=_histc_ref, dtypes=(dt.float16, dt.float32, dt.int32), grad=False,
   fuzz=False, result=lambda x, **kw: dt.int32 if x == dt.int32 else dt.float32,
   samples=lambda dtype, rng, full: [Sample(random(rng, (10,), dtype, -3, 3), 4, -2, 2,
                                            label="range, outside dropped"),
                                     Sample(random(rng, (3, 4), dtype, -3, 3), 5,
                                            label="data range")])


def _unique_ref(x):
    values, first, inverse = np.unique(x, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    index = rank[inverse.reshape(-1)].reshape(x.shape)
    return values[order], index.astype(np.int64 if x.dtype == np.int64 else np.int32)


def _small(dtype, rng, shape):
    return random(rng, shape, dtype, -2, 2) if not dt.is_float(dtype) else \
        np.round(rng.uniform(-2, 2, shape)).astype(dtype)


op("unique", prims=(), ref=_unique_ref, dtypes=NO_BOOL, grad=False, fuzz=False,
   result=lambda x: (x, dt.int64 if x == dt.int64 else dt.int32),
   samples=lambda dtype, rng, full: [Sample(_small(dtype, rng, (7,))),
                                     Sample(_small(dtype, rng, (2, 3)), label="2-d")],
   notes={"order": "the values in order of first appearance (MindSpore 2.10's CPU kernel)"})
op("unique_with_pad", prims=(), ref=lambda x, pad: (
    np.concatenate([_unique_ref(x)[0], np.full(x.size - _unique_ref(x)[0].size, pad, x.dtype)]),
    _unique_ref(x)[1]), dtypes=(dt.float32, dt.int32, dt.int64), grad=False, fuzz=False,
   result=lambda x: (x, dt.int64 if x == dt.int64 else dt.int32),
   samples=lambda dtype, rng, full: [Sample(_small(dtype, rng, (6,)), 0),
                                     Sample(_small(dtype, rng, (5,)), -9, label="pad -9")])


def _unique_consecutive_ref(x, return_inverse=False, return_counts=False, dim=None):
    flat = x.reshape(-1) if dim is None else np.moveaxis(x, dim, 0)
    n = flat.shape[0]
    change = [i for i in range(1, n) if np.any(flat[i] != flat[i - 1])]
    starts = np.array([0] + change if n else [], np.int64)
    out = [flat[starts] if dim is None else np.moveaxis(flat[starts], 0, dim)]
    if return_inverse:
        inverse = np.cumsum(np.isin(np.arange(n), starts[1:])).astype(np.int64)
        out.append(inverse.reshape(x.shape) if dim is None else inverse)
    if return_counts:
        out.append(np.diff(np.append(starts, n)).astype(np.int64))
    return out[0] if len(out) == 1 else tuple(out)


op("unique_consecutive", prims=(), ref=_unique_consecutive_ref, dtypes=ALL, fuzz=False,
   grad_samples=lambda rng, full: [Sample(rng.standard_normal(5), label="distinct")], result=lambda x, return_inverse=False, return_counts=False, dim=None: (
       x, dt.int64, dt.int64)[:1 + bool(return_inverse) + bool(return_counts)],
   samples=lambda dtype, rng, full: [
       Sample(_small(dtype, rng, (8,)), return_inverse=True, return_counts=True,
              label="flat, all"),
       Sample(_small(dtype, rng, (2, 5)), label="values only"),
       Sample(np.repeat(_small(dtype, rng, (2, 3)), 2, 0), return_inverse=True,
              return_counts=True, dim=0, label="rows")],
   torch=lambda torch, x, **kw: torch.unique_consecutive(x, **kw), torch_grad=False)
op("argwhere", prims=(), ref=lambda x: np.argwhere(x).astype(np.int64), dtypes=ALL, grad=False,
   fuzz=False, result=int64_result, torch=lambda torch, x: torch.argwhere(x),
   ms_differs={"value:2-d": "MindSpore 2.10's CPU kernel counts subnormal numbers and the "
                            "smallest normal one (float32's 1.2e-38) as zero; any x != 0 "
                            "counts here (NumPy, PyTorch)"},
   **structural(lambda a, full: [case("2-d", a(3, 4)), case("1-d", a(5))]))


def _top_k_ref(x, k, sorted=True):
    order = np.argsort(-x.astype(np.float64), -1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, -1), order.astype(np.int32)


op("top_k", prims=(), ref=_top_k_ref, dtypes=NO_BOOL, result=lambda x: (x, dt.int32),
   samples=lambda dtype, rng, full: [Sample(random(rng, (3, 5), dtype, -20, 20), 2),
                                     Sample(random(rng, (4,), dtype, -20, 20), 4, label="all")],
   grad_samples=lambda rng, full: [Sample(rng.permutation(12).reshape(3, 4) * 0.3, 2)],
   notes={"ties": "equal values keep the lower index first"})


def _intopk_ref(x1, x2, k):
    rows = np.arange(x1.shape[0])
    valid = (x2 >= 0) & (x2 < x1.shape[1])
    target = x1[rows, np.where(valid, x2, 0)]
    above = ((x1 > target[:, None]) | np.isnan(x1)).sum(1)
    return valid & ~np.isnan(target) & (above < k)


op("intopk", prims=(), ref=_intopk_ref, dtypes=(dt.float16, dt.float32), grad=False,
   result=bool_result, samples=lambda dtype, rng, full: [
       Sample(_small(dtype, rng, (4, 5)), _i32(0, 4, 2, 1), 2, label="ties"),
       Sample(np.array([[np.nan, 3, 1], [1, 2, 3]]).astype(dtype), _i64(1, 5), 1,
              label="NaN, out of range")],
   notes={"rule": "ties count in; NaN ranks above every number; a class out of range "
                  "is False"})
op("msort", prims=(), ref=lambda x: np.sort(x, 0), dtypes=NO_BOOL, result=_first,
   torch=lambda torch, x: torch.msort(x),
   samples=lambda dtype, rng, full: [Sample(random(rng, (4, 3), dtype, -9, 9)),
                                     Sample(random(rng, (5,), dtype, -9, 9), label="1-d")],
   grad_samples=lambda rng, full: [Sample(rng.permutation(12).reshape(4, 3) * 0.3)])


# ---- statistics -----------------------------------------------------------------------------

_MEDIAN = (dt.int16, dt.int32, dt.int64, dt.float32, dt.float64)


def _median_ref(ignore_nan):
    def ref(x, axis=-1, keepdims=False):
        rows = np.moveaxis(x, axis, -1)
        values, index = np.zeros(rows.shape[:-1], x.dtype), np.zeros(rows.shape[:-1], np.int64)
        for pos in np.ndindex(rows.shape[:-1]):
            row = rows[pos]
            order = np.argsort(row, kind="stable")          # NaN last
            nan = np.isnan(row).astype(bool) if row.dtype.kind == "f" else np.zeros(row.shape, bool)
            valid = int((~nan).sum())
            if ignore_nan:
                k = max(valid - 1, 0) // 2
            else:
                k = valid if valid < row.size else (row.size - 1) // 2
            index[pos] = order[k]
            values[pos] = row[order[k]]
        if keepdims:
            values, index = np.expand_dims(values, axis), np.expand_dims(index, axis)
        return values, index
    return ref


def _median_samples(dtype, rng, full):
    out = [Sample(_small(dtype, rng, (3, 4)), label="ties"),
           Sample(random(rng, (3, 5), dtype, -9, 9), 0, True, label="axis 0, keepdims")]
    if dt.is_float(dtype):
        out.append(Sample(np.array([[3, np.nan, 2, 4], [1, 2, np.nan, np.nan]], dtype),
                          label="NaN", smooth=False))
    return out


for _name, _ignore in (("median", False), ("nanmedian", True)):
    op(_name, prims=(), ref=_median_ref(_ignore), dtypes=_MEDIAN, samples=_median_samples,
       result=lambda x, **kw: (x, dt.int64),
       grad_samples=lambda rng, full: [Sample(rng.permutation(12).reshape(3, 4) * 0.3)],
       notes={"median": "the lower median; its index is the first such element's in "
                        "sorted (stable) order" + ("; a NaN in the row makes it NaN, at the "
                                                   "first NaN" if not _ignore else "")})


def _quantile_ref(ignore_nan):
    def ref(x, q, axis=None, keepdims=False):
        fn = np.nanquantile if ignore_nan else np.quantile
        out = fn(x, q, axis=axis, keepdims=keepdims)
        return np.asarray(out, x.dtype)
    return ref


def _quantile_samples(dtype, rng, full):
    return [Sample(random(rng, (3, 4), dtype), 0.3, label="all elements"),
            Sample(random(rng, (3, 4), dtype), np.array([0.0, 0.5, 1.0], dtype), 1, True,
                   label="q tensor, keepdims"),
            Sample(np.array([[3, np.nan, 2, 4], [1, 2, 5, 7]]).astype(dtype), 0.25, 1,
                   label="NaN", smooth=False)]


for _name, _ignore in (("quantile", False), ("nanquantile", True)):
    op(_name, prims=(), ref=_quantile_ref(_ignore), dtypes=(dt.float32, dt.float64),
       samples=_quantile_samples, result=_first, ms=None, nondiff=(1,),
       torch_differs={"grad:NaN": Differs("a NaN quantile sends no gradient to the row (the "
                                          "value is a constant NaN); PyTorch's does")},
       torch=lambda torch, x, q, axis=None, keepdims=False, _n=_name: getattr(torch, _n)(
           x, q, axis, keepdims),
       notes={"mindspore": "MindSpore 2.10's CPU kernel fails on every input: NumPy's "
                           "linear interpolation is the reference"})
op("nansum", prims=(), ref=lambda x, axis=None, keepdims=False: np.asarray(
    np.nansum(x, axis, keepdims=keepdims)).astype(x.dtype if x.dtype != np.bool_ else np.int64),
   dtypes=ALL, result=lambda x, **kw: dt.int64 if x == dt.bool_ else x,
   samples=lambda dtype, rng, full: [Sample(mixed(rng, (3, 4), dtype), label="all", smooth=False),
                                     Sample(random(rng, (3, 4), dtype), 1, True, label="keepdims")],
   grad_samples=lambda rng, full: [Sample(rng.standard_normal((3, 4)), 1)],
   torch=lambda torch, x, axis=None, keepdims=False: torch.nansum(x, axis, keepdims),
   ref_differs={"all": Differs("sums of values near the dtype's maximum overflow in the "
                               "dtype")},
   notes={"dtype": "integers sum in their own dtype (MindSpore 2.10), bool in int64"})
op("nanmean", prims=(), ref=lambda x, axis=None, keepdims=False: np.nanmean(
    x, axis, keepdims=keepdims), dtypes=FLOATS, result=_first,
   samples=lambda dtype, rng, full: [
       Sample(np.array([[1, np.nan, 2], [np.nan, np.nan, np.nan]]).astype(dtype), 1,
              label="NaN rows", smooth=False),
       Sample(random(rng, (3, 4), dtype), label="all")],
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)},
   torch=lambda torch, x, axis=None, keepdims=False: torch.nanmean(x, axis, keepdims),
   torch_differs={"grad:NaN rows": Differs("a row of NaN only gets 0 gradients (PyTorch: NaN)")})
op("count_nonzero", prims=(), ref=lambda x, axis=(), keep_dims=False, dtype=dt.int32: np.asarray(
    np.count_nonzero(x, None if axis == () else axis, keepdims=keep_dims)).astype(dtype),
   dtypes=NO_BOOL, grad=False, result=lambda x, dtype=dt.int32: dtype,
   samples=lambda dtype, rng, full: [Sample(mixed(rng, (3, 4), dtype)),
                                     Sample(random(rng, (3, 4), dtype), axis=1, keep_dims=True,
                                            dtype=dt.int64, label="axis, int64")])
for _name in ("std_mean", "var_mean"):
    op(_name, prims=(), ref=lambda x, axis=None, ddof=0, keepdims=False, _n=_name: (
        getattr(np, _n[:3])(x, axis, ddof=ddof, keepdims=keepdims),
        np.mean(x, axis, keepdims=keepdims)), dtypes=FLOATS, result=lambda x, **kw: (x, x),
       samples=lambda dtype, rng, full: [Sample(random(rng, (3, 4), dtype)),
                                         Sample(random(rng, (3, 4), dtype), 1, 1, True,
                                                label="axis, ddof 1, keepdims")],
       tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)})
op("aminmax", prims=(), ref=lambda x, axis=0, keepdims=False: (
    np.amin(x, axis, keepdims=keepdims), np.amax(x, axis, keepdims=keepdims)),
   dtypes=ALL, result=lambda x, **kw: (x, x),
   samples=lambda dtype, rng, full: [Sample(random(rng, (3, 4), dtype), label="axis 0"),
                                     Sample(random(rng, (3, 4), dtype), axis=1, keepdims=True,
                                            label="axis 1, keepdims"),
                                     Sample(random(rng, (3, 4), dtype), axis=None, label="all")],
   grad_samples=lambda rng, full: [Sample(rng.permutation(12).reshape(3, 4) * 0.3)])
op("vecdot", prims=(), ref=lambda x, y, axis=-1: np.sum(x * y, axis), dtypes=NO_BOOL,
   result=lambda x, y, **kw: dt.int64 if x in (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8)
   else x, samples=lambda dtype, rng, full: [
       Sample(random(rng, (3, 4), dtype), random(rng, (3, 4), dtype)),
       Sample(random(rng, (3, 4), dtype), random(rng, (4,), dtype), axis=-1, label="broadcast"),
       Sample(random(rng, (3, 4), dtype), random(rng, (3, 4), dtype), axis=0, label="axis 0")],
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)})


def _norm_ref(x, ord=2, axis=None, keepdims=False, dtype=None):
    a = np.abs(x.astype(np.float64))
    if ord == np.inf:
        return a.max(axis, keepdims=keepdims)
    if ord == -np.inf:
        return a.min(axis, keepdims=keepdims)
    if ord == 0:
        return (a != 0).sum(axis, keepdims=keepdims).astype(np.float64)
    return (a ** ord).sum(axis, keepdims=keepdims) ** (1.0 / ord)


op("vector_norm", prims=(), ref=_norm_ref, dtypes=NO_BOOL,
   result=lambda x, **kw: x if dt.is_float(x) else dt.float32,
   samples=lambda dtype, rng, full: [Sample(random(rng, (3, 4), dtype), label="2-norm"),
                                     Sample(random(rng, (3, 4), dtype), 1, 1, True, label="1"),
                                     Sample(random(rng, (3, 4), dtype), np.inf, label="inf"),
                                     Sample(random(rng, (3, 4), dtype), 0, 0, label="0"),
                                     Sample(random(rng, (3, 4), dtype), 3, label="3")],
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)},
   grad_samples=lambda rng, full: [Sample(rng.uniform(0.5, 2, (3, 4)) * rng.choice([-1, 1],
                                                                                 (3, 4)))],
   torch=lambda torch, x, ord=2, axis=None, keepdims=False: torch.linalg.vector_norm(
       x, ord, axis, keepdims) if x.is_floating_point() else torch.linalg.vector_norm(
       x.float(), ord, axis, keepdims))
