"""MindSpore's COO arithmetic and the sparse operators on ``(indices, values, shape)``
triples: ``coo_add``, ``coo_concat``, a COOTensor with a dense tensor, ``row_tensor_add``,
``SparseTensorDenseAdd`` / ``SparseTensorDenseMatmul``, ``SparseSlice`` and
``sparse_segment_mean``.

The values are computed with dense ops (scatter-add, gather_nd, segment sums) and so
differentiate; where the result's pattern depends on the indices (a union, a slice, a
threshold on the sums) the indices are read, as ``nonzero`` reads its input.
"""
import numpy as np

from ... import dtype as dt
from ...tensor import Tensor
from .. import coerce
from .. import elementwise as _ew
from .. import shape as _shape
from ..indexing import getitem
from ..scattering import gather_nd, tensor_scatter_add
from ..segments import unsorted_segment_sum
from .conversions import expect
from .tensors import COOTensor, RowTensorInner

__all__ = ["coo_add", "coo_concat", "row_tensor_add", "sparse_tensor_dense_add",
           "sparse_tensor_dense_matmul", "sparse_slice", "sparse_segment_mean"]


def coo_dense_add(coo, dense):
    """``COOTensor + Tensor``: the dense tensor with the stored values added (a Tensor)."""
    return tensor_scatter_add(dense, coo.indices, coo.values)


def coo_dense_combine(coo, dense, how):
    """``COOTensor * Tensor`` / ``/``: the stored values combined with the dense elements
    at their indices (a COOTensor of the same pattern)."""
    other = gather_nd(dense, coo.indices)
    return coo._with_values((_ew.mul if how == "mul" else _ew.div)(coo.values, other))


_ADD_DTYPES = (dt.int8, dt.int16, dt.int32, dt.int64, dt.float32, dt.float64)


def _int64_indices(op, *named):
    """MindSpore's kernels (SparseAdd, SparseConcat) take int64 indices only."""
    for name, coo in named:
        if coo.indices.dtype != dt.int64:
            raise TypeError(f"For primitive[{op}], the input argument[{name}] must be a type "
                            f"of {{Tensor[Int64]}}, but got {coo.indices.dtype}.")


def coo_add(x1, x2, thresh):
    """``ops.coo_add(x1, x2, thresh)``: the sum of two COOTensors on the union of their
    indices (sorted row-major, repeated ones summed), dropping sums whose magnitude is below
    ``thresh`` (a 0-D Tensor)."""
    expect(x1, COOTensor, "For 'coo_add', 'x1' must be a COOTensor.")
    expect(x2, COOTensor, "For 'coo_add', 'x2' must be a COOTensor.")
    expect(thresh, Tensor, "For 'coo_add', 'thresh' must be a Tensor.")
    if thresh.ndim != 0:
        raise ValueError(f"For 'coo_add', 'thresh' must be 0-D, got {thresh.ndim}-D.")
    if x1.shape != x2.shape:
        raise ValueError(f"For 'coo_add', the shapes {x1.shape} and {x2.shape} must be equal.")
    _int64_indices("SparseAdd", ("x1_indices", x1), ("x2_indices", x2))
    common = dt.promote_types(x1.dtype, x2.dtype)
    if common not in _ADD_DTYPES:
        raise TypeError(f"For primitive[SparseAdd], the values must be int8 / int16 / int32 / "
                        f"int64 / float32 / float64, but got {common}.")
    first, second = x1.indices.asnumpy(), x2.indices.asnumpy()   # the union: read
    keys = np.concatenate([first[:, 0] * x1.shape[1] + first[:, 1],
                           second[:, 0] * x1.shape[1] + second[:, 1]]).astype(np.int64)
    values = _shape.concat([_ew.cast(x1.values, common), _ew.cast(x2.values, common)])
    unique, inverse = np.unique(keys, return_inverse=True)
    inverse = inverse.reshape(-1)
    if unique.size:
        values = unsorted_segment_sum(values, coerce.constant(inverse), unique.size)
    # as TensorFlow's SparseAdd: only sums of an index present in both inputs meet the
    # threshold (kept when |sum| >= thresh); an index of one input is always kept
    in_both = np.zeros(unique.size, bool)
    in_both[np.intersect1d(inverse[:len(first)], inverse[len(first):])] = True
    summed = np.abs(values.asnumpy().astype(np.float64)) if in_both.any() else \
        np.zeros(unique.size)
    keep = np.nonzero(~in_both | ~(summed < float(thresh.asnumpy())))[0]
    rows, cols = unique[keep] // x1.shape[1], unique[keep] % x1.shape[1]
    out = np.stack([rows, cols], 1).astype(np.int64) if keep.size else np.zeros((0, 2), np.int64)
    kept = getitem(values, coerce.constant(keep)) if keep.size < unique.size else values
    return COOTensor(coerce.constant(out), kept, x1.shape)


def coo_concat(sp_input, concat_dim=0):
    """``ops.coo_concat(sp_input, concat_dim=0)``: COOTensors joined along ``concat_dim``
    (their indices shifted there), entries sorted row-major."""
    if not isinstance(sp_input, (tuple, list)) or len(sp_input) < 2:
        raise ValueError("For coo_concat, not support COOTensor input number < 2.")
    for item in sp_input:
        expect(item, COOTensor, "For 'coo_concat', every input must be a COOTensor.")
    _int64_indices("SparseConcat", *((f"indices{k}", item) for k, item in enumerate(sp_input)))
    if isinstance(concat_dim, bool) or not isinstance(concat_dim, (int, np.integer)) or \
            not -2 <= concat_dim < 2:
        raise ValueError(f"For 'coo_concat', 'concat_dim' must be in [-2, 2), got "
                         f"{concat_dim!r}.")
    axis, other = int(concat_dim) % 2, 1 - int(concat_dim) % 2
    if len({item.shape[other] for item in sp_input}) != 1:
        raise ValueError(f"For 'coo_concat', the inputs' shapes {[i.shape for i in sp_input]} "
                         f"differ outside 'concat_dim'.")
    offsets = np.cumsum([0] + [item.shape[axis] for item in sp_input[:-1]])
    indices = []
    for item, offset in zip(sp_input, offsets):
        index = item.indices.asnumpy().astype(np.int64)
        index[:, axis] += offset
        indices.append(index)
    index = np.concatenate(indices)
    order = np.lexsort((index[:, 1], index[:, 0]))
    common = sp_input[0].dtype
    for item in sp_input[1:]:
        common = dt.promote_types(common, item.dtype)
    values = _shape.concat([_ew.cast(item.values, common) for item in sp_input])
    shape = list(sp_input[0].shape)
    shape[axis] = int(sum(item.shape[axis] for item in sp_input))
    return COOTensor(coerce.constant(index[order]), getitem(values, coerce.constant(order)),
                     tuple(shape))


def row_tensor_add(x, y):
    """``ops.row_tensor_add(x, y)``: the RowTensor ``x`` with ``y`` added to its values
    (broadcast to them)."""
    expect(x, RowTensorInner, "For 'row_tensor_add', 'x' must be a RowTensor.")
    expect(y, Tensor, "For 'row_tensor_add', 'y' must be a Tensor.")
    return x._with_values(_ew.add(x.values, y))


def _static_shape(shape, op):
    if isinstance(shape, Tensor):
        shape = tuple(shape.asnumpy().tolist())
    if not isinstance(shape, (tuple, list)) or any(
            isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d <= 0 for d in shape):
        raise ValueError(f"For '{op}', the shape must be a tuple of positive ints, got "
                         f"{shape!r}.")
    return tuple(int(d) for d in shape)


def _sparse_operands(op, indices, values, rank=None):
    expect(indices, Tensor, f"For '{op}', 'indices' must be a Tensor.")
    expect(values, Tensor, f"For '{op}', 'values' must be a Tensor.")
    if indices.dtype not in (dt.int32, dt.int64):
        raise TypeError(f"For '{op}', the dtype of 'indices' must be int32 or int64, but got "
                        f"{indices.dtype}.")
    if indices.ndim != 2 or values.ndim != 1 or indices.shape[0] != values.shape[0] or \
            (rank is not None and indices.shape[1] != rank):
        raise ValueError(f"For '{op}', 'indices' must be (n, {rank or 'rank'}) and 'values' "
                         f"(n,), got {tuple(indices.shape)} and {tuple(values.shape)}.")


def sparse_tensor_dense_add(x1_indices, x1_values, x1_shape, x2):
    """``ops.SparseTensorDenseAdd()(x1_indices, x1_values, x1_shape, x2)``: the dense
    ``x2`` with the sparse values added at their indices."""
    op = "SparseTensorDenseAdd"
    _sparse_operands(op, x1_indices, x1_values)
    if not isinstance(x1_shape, Tensor) or x1_shape.dtype != x1_indices.dtype:
        raise TypeError(f"The primitive[{op}]'s input arguments[indices, shape] must be all "
                        f"tensor and those type must be same. But got input argument[shape]: "
                        f"{x1_shape!r}")
    expect(x2, Tensor, f"For '{op}', 'x2' must be a Tensor.")
    # the shape's values are only checked: a graph knows them when it runs (x2's shape)
    shape = tuple(x2.shape) if x1_shape._var is not None else _static_shape(x1_shape, op)
    if tuple(x2.shape) != shape or x1_indices.shape[1] != len(shape):
        raise ValueError(f"For '{op}', 'x2' {tuple(x2.shape)} and the indices must match "
                         f"'x1_shape' {shape}.")
    if x2.dtype != x1_values.dtype:
        raise TypeError(f"For '{op}', 'x2' ({x2.dtype}) must have the dtype of 'x1_values' "
                        f"({x1_values.dtype}).")
    return tensor_scatter_add(x2, x1_indices, x1_values)


def sparse_tensor_dense_matmul(indices, values, sparse_shape, dense, *, adjoint_st=False,
                               adjoint_dt=False):
    """``ops.SparseTensorDenseMatmul(adjoint_st, adjoint_dt)(indices, values, sparse_shape,
    dense)``: the sparse matrix (transposed with ``adjoint_st``) times ``dense``
    (transposed with ``adjoint_dt``)."""
    op = "SparseTensorDenseMatmul"
    if not isinstance(adjoint_st, bool) or not isinstance(adjoint_dt, bool):
        raise TypeError(f"For '{op}', 'adjoint_st' and 'adjoint_dt' must be bool.")
    _sparse_operands(op, indices, values, 2)
    shape = _static_shape(sparse_shape, op)
    expect(dense, Tensor, f"For '{op}', 'dense' must be a Tensor.")
    if values.dtype not in (dt.float16, dt.float32, dt.float64, dt.int32, dt.int64) or \
            dense.dtype != values.dtype:
        raise TypeError(f"For '{op}', 'values' must be float16/32/64 or int32/64 and 'dense' "
                        f"of its dtype, got {values.dtype} and {dense.dtype}.")
    if len(shape) != 2 or dense.ndim != 2:
        raise ValueError(f"For '{op}', the sparse and the dense matrix must be 2-D.")
    rows = getitem(indices, (slice(None), 1 if adjoint_st else 0))
    cols = getitem(indices, (slice(None), 0 if adjoint_st else 1))
    n, inner = (shape[1], shape[0]) if adjoint_st else shape
    if adjoint_dt:
        dense = _shape.transpose(dense, (1, 0))
    if dense.shape[0] != inner:
        raise ValueError(f"For '{op}', the sparse shape {shape} and the dense "
                         f"{tuple(dense.shape)} cannot be multiplied.")
    terms = _ew.mul(_shape.expand_dims(values, -1), getitem(dense, _ew.cast(cols, dt.int64)))
    return unsorted_segment_sum(terms, rows, n)


def sparse_slice(indices, values, shape, start, size):
    """``ops.SparseSlice()(indices, values, shape, start, size)``: the entries inside the
    box ``[start, start + size)`` (clipped to ``shape``), their indices relative to
    ``start``: ``(y_indices, y_values, y_shape)``, int64 (reads the indices)."""
    op = "SparseSlice"
    for name, t in (("indices", indices), ("shape", shape), ("start", start), ("size", size)):
        expect(t, Tensor, f"For '{op}', '{name}' must be a Tensor.")
        if t.dtype != dt.int64:
            raise TypeError(f"For '{op}', the dtype of '{name}' must be int64, but got "
                            f"{t.dtype}.")
    expect(values, Tensor, f"For '{op}', 'values' must be a Tensor.")
    if indices.ndim != 2:
        raise ValueError(f"For '{op}', 'indices' must be a 2-D tensor.")
    if any(t.ndim != 1 for t in (values, shape, start, size)):
        raise ValueError(f"For '{op}', 'values', 'shape', 'start' and 'size' must be 1-D.")
    if indices.shape[0] != values.shape[0]:
        raise ValueError(f"For '{op}', the number of 'indices' must be that of 'values'.")
    if not (indices.shape[1] == shape.shape[0] == start.shape[0] == size.shape[0]):
        raise ValueError(f"For '{op}', 'indices.shape[1]', 'shape', 'start' and 'size' must "
                         f"have the same length.")
    index, bounds = indices.asnumpy(), shape.asnumpy()
    low = start.asnumpy()
    high = np.minimum(low + size.asnumpy(), bounds)
    inside = np.nonzero(np.all((index >= low) & (index < high), axis=1))[0]
    y_shape = np.maximum(high - low, 0).astype(np.int64)
    return (coerce.constant((index[inside] - low).astype(np.int64).reshape(-1, index.shape[1])),
            getitem(values, coerce.constant(inside)), coerce.constant(y_shape))


def sparse_segment_mean(x, indices, segment_ids):
    """``ops.sparse_segment_mean(x, indices, segment_ids)``: row ``i`` is the mean of the
    rows ``x[indices[j]]`` with ``segment_ids[j] == i`` (sorted ids; a missing id gives
    zeros); as many rows as the last id + 1."""
    op = "SparseSegmentMean"
    for name, t in (("x", x), ("indices", indices), ("segment_ids", segment_ids)):
        expect(t, Tensor, f"For '{op}', '{name}' must be a Tensor.")
    if not dt.is_float(x.dtype):
        raise TypeError(f"For '{op}', the dtype of 'x' must be a float, but got {x.dtype}.")
    for name, t in (("indices", indices), ("segment_ids", segment_ids)):
        if t.dtype not in (dt.int32, dt.int64):
            raise TypeError(f"For '{op}', the dtype of '{name}' must be int32 or int64, but "
                            f"got {t.dtype}.")
    if x.ndim < 1 or indices.ndim != 1 or segment_ids.ndim != 1 or \
            indices.shape[0] != segment_ids.shape[0]:
        raise ValueError(f"For '{op}', 'x' must have an axis and 'indices' and 'segment_ids' "
                         f"be 1-D of one length, got {tuple(x.shape)}, "
                         f"{tuple(indices.shape)} and {tuple(segment_ids.shape)}.")
    ids, rows = segment_ids.asnumpy(), indices.asnumpy()     # the result's size: read
    # MindSpore's CPU kernel fails at launch on these: RuntimeError
    if ids.size and (ids[0] < 0 or np.any(np.diff(ids) < 0)):
        raise RuntimeError(f"For '{op}', 'segment_ids' must be sorted and non-negative.")
    if rows.size and (rows.min() < 0 or rows.max() >= x.shape[0]):
        raise RuntimeError(f"For '{op}', 'indices' must be in [0, {x.shape[0]}).")
    n = int(ids[-1]) + 1 if ids.size else 0
    if n == 0:
        return coerce.constant(np.zeros((0,) + tuple(x.shape[1:]), x.dtype))
    picked = getitem(x, _ew.cast(indices, dt.int64))
    total = unsorted_segment_sum(picked, segment_ids, n)
    counts = np.maximum(np.bincount(ids, minlength=n), 1).astype(x.dtype)
    return _ew.div(total, coerce.constant(counts.reshape((n,) + (1,) * (x.ndim - 1))))
