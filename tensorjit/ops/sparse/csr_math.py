"""MindSpore's CSR arithmetic: products with dense tensors, row sums, gathers, the row-wise
softmax, linear combinations and sparse products of two CSRTensors.

Values are computed with dense ops (gather_nd at each stored value's ``[row, col]``,
segment sums over rows), so they differentiate with respect to the values and the dense
operands. The results whose sparsity pattern depends on the indices (``csr_add``,
``csr_mm``) read the index tensors, as ``nonzero`` reads its input.
"""
import numpy as np

from ... import dtype as dt
from ...tensor import Tensor
from .. import coerce
from .. import elementwise as _ew
from .. import shape as _shape
from ..indexing import getitem
from ..scattering import gather_nd
from ..segments import unsorted_segment_sum, unsorted_segment_max
from .conversions import expect, rows_of, _csr_coordinates
from .tensors import CSRTensor

__all__ = ["csr_mul", "csr_div", "csr_mv", "csr_mm", "csr_reduce_sum", "csr_gather",
           "csr_softmax", "csr_add"]


def _promote(a, b):
    common = dt.promote_types(a.dtype, b.dtype)
    return _ew.cast(a, common), _ew.cast(b, common)


def _is_scalar(tensor):
    return tensor.size == 1 and tensor.ndim <= 2


def _with_dense(x, y, combine, name):
    expect(x, CSRTensor, f"For '{name}', 'x' must be a CSRTensor, but got {type(x).__name__}.")
    if isinstance(y, (int, float, bool)):
        y = coerce.as_tensor(y)
    expect(y, Tensor, f"For '{name}', 'y' must be a Tensor, but got {type(y).__name__}.")
    if _is_scalar(y):     # MindSpore returns the dense values then, not a CSRTensor
        if y.ndim > x.ndim:
            raise ValueError("dense tensor cannot broadcast to the sparse tensor.")
        return _shape.reshape(combine(x.values, y), tuple(x.values.shape))
    values, y = _promote(x.values, y)
    dense = _shape.broadcast_to(y, x.shape)
    return x._with_values(combine(values, gather_nd(dense, _csr_coordinates(x))))


def csr_mul(x, y):
    """``ops.csr_mul(x, y)``: the CSRTensor ``x`` times the dense ``y`` (broadcast to its
    shape) at its stored values; a scalar ``y`` gives the product's values (a Tensor)."""
    return _with_dense(x, y, _ew.mul, "csr_mul")


def csr_div(x, y):
    """``ops.csr_div(x, y)``: the stored values of ``x`` divided by the dense ``y`` there
    (the zeros of ``x`` are not divided); a scalar ``y`` gives the values (a Tensor)."""
    return _with_dense(x, y, _ew.div, "csr_div")


def _rows_times(csr_tensor, dense, name):
    """Row sums of ``values[k] * dense[col[k]]``: the CSR matrix times ``dense`` (2-D)."""
    if csr_tensor.ndim != 2 or dense.ndim != 2:
        raise ValueError(f"Currently, only support 2-D inputs! But csr tensor has "
                         f"{csr_tensor.ndim} dimensions, and dense tensor has {dense.ndim} "
                         f"dimension(s). ")
    if dense.shape[0] != csr_tensor.shape[1]:
        raise ValueError(f"For '{name}', the CSRTensor's shape {csr_tensor.shape} and the "
                         f"dense tensor's {tuple(dense.shape)} cannot be multiplied.")
    values, dense = _promote(csr_tensor.values, dense)
    nnz = csr_tensor.indices.shape[0]
    rows = rows_of(_ew.cast(csr_tensor.indptr, dt.int64), nnz)
    picked = getitem(dense, _ew.cast(csr_tensor.indices, dt.int64))
    terms = _ew.mul(_shape.expand_dims(values, -1), picked)
    return unsorted_segment_sum(terms, rows, csr_tensor.shape[0])


def csr_mv(csr_tensor, dense):
    """``ops.csr_mv(csr_tensor, dense)``: the CSR matrix ``(M, N)`` times the 2-D dense
    ``(N, 1)``: a dense ``(M, 1)`` tensor."""
    expect(csr_tensor, CSRTensor, "For 'csr_mv', 'csr_tensor' must be a CSRTensor.")
    expect(dense, Tensor, "For 'csr_mv', 'dense' must be a Tensor.")
    return _rows_times(csr_tensor, dense, "csr_mv")


def csr_dense_mm(csr_tensor, matrix):
    """``CSRTensor.mm(matrix)`` with a dense ``(N, K)`` matrix: a dense ``(M, K)`` tensor."""
    return _rows_times(csr_tensor, matrix, "CSRTensor.mm")


def csr_reduce_sum(csr_tensor, axis):
    """``ops.csr_reduce_sum(csr_tensor, axis)``: the dense row sums ``(M, 1)`` of a 2-D
    CSRTensor; MindSpore's kernel reduces axis 1 (or -1) only."""
    expect(csr_tensor, CSRTensor, "For 'csr_reduce_sum', 'csr_tensor' must be a CSRTensor.")
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)) or \
            axis not in (1, -1) or csr_tensor.ndim != 2:
        raise ValueError(f"For CSRReduceSum, `axis` should be 1 or 1-dim. But got `axis`: "
                         f"{axis!r} and a {csr_tensor.ndim}-D CSRTensor.")
    rows = rows_of(_ew.cast(csr_tensor.indptr, dt.int64), csr_tensor.indices.shape[0])
    sums = unsorted_segment_sum(csr_tensor.values, rows, csr_tensor.shape[0])
    return _shape.expand_dims(sums, 1)


def csr_gather(indptr, indices, dense, sparse_shape):
    """``ops.csr_gather(indptr, indices, dense, sparse_shape)``: the elements of ``dense``
    at the positions of a CSR pattern: the values of a CSRTensor of that pattern."""
    for name, t in (("indptr", indptr), ("indices", indices), ("dense", dense)):
        expect(t, Tensor, f"For 'CSRGather', '{name}' must be a Tensor.")
    pattern = CSRTensor(indptr, indices, _ew.cast(_shape.reshape(indices, (-1,)), dt.float32),
                        tuple(sparse_shape))
    if tuple(dense.shape[:2]) != tuple(sparse_shape[:2]):
        raise ValueError(f"For 'CSRGather', 'dense' {tuple(dense.shape)} must have the shape "
                         f"'sparse_shape' {tuple(sparse_shape)}.")
    return gather_nd(dense, _csr_coordinates(pattern))


def csr_softmax(logits, dtype):
    """``ops.csr_softmax(logits, dtype)``: the softmax of each row's stored values (the
    implicit zeros take no part), a CSRTensor of the same pattern. float32 / float64."""
    expect(logits, CSRTensor, "For functional operator sparse_matrix_softmax, logits must be "
                              "type of CSRTensor.")
    if logits.dtype not in (dt.float32, dt.float64) or np.dtype(dtype) != logits.dtype:
        raise TypeError(f"For 'SparseMatrixSoftmax', the logits must be float32 or float64 "
                        f"and 'dtype' theirs, got {logits.dtype} and {dtype}.")
    rows = rows_of(_ew.cast(logits.indptr, dt.int64), logits.indices.shape[0])
    n = logits.shape[0]
    top = getitem(unsorted_segment_max(logits.values, rows, n), rows)
    shifted = _ew.exp(_ew.sub(logits.values, _ew.stop_gradient(top)))
    total = getitem(unsorted_segment_sum(shifted, rows, n), rows)
    return logits._with_values(_ew.div(shifted, total))


def _structure(t):
    """The stored ``[row, col]`` of a CSRTensor as NumPy arrays (read from its indices)."""
    indptr = t.indptr.asnumpy().astype(np.int64)
    return np.repeat(np.arange(len(indptr) - 1), np.diff(indptr)), \
        t.indices.asnumpy().astype(np.int64)


def _from_entries(rows, cols, values, shape, like):
    """A CSRTensor of the entries ``(rows, cols)`` (row-major sorted) and ``values``."""
    indptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=shape[0]))])
    return CSRTensor(coerce.constant(indptr.astype(like.dtype)),
                     coerce.constant(cols.astype(like.dtype)), values, shape)


def _combine_entries(keys, values, count, shape, like):
    """Values summed into ``count`` unique row-major keys (sorted): a CSRTensor."""
    unique, inverse = np.unique(keys, return_inverse=True)
    summed = unsorted_segment_sum(values, coerce.constant(inverse.reshape(-1)), unique.size)
    return _from_entries(unique // count, unique % count, summed, shape, like)


def csr_add(a, b, alpha, beta):
    """``ops.csr_add(a, b, alpha, beta)``: the CSRTensor ``alpha * a + beta * b`` on the
    union of the two patterns (sorted by row, then column)."""
    if not isinstance(a, CSRTensor) or not isinstance(b, CSRTensor):
        raise TypeError("For functional operator csr_add, both inputs a and b must be type of "
                        "CSRTensor.")
    if not isinstance(alpha, Tensor) or not isinstance(beta, Tensor):
        raise TypeError("For functional operator csr_add, both inputs alpha and beta must be "
                        "Tensor.")
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError(f"For 'csr_add', a and b must be 2-D with the same shape, got "
                         f"{a.shape} and {b.shape}.")
    a_values, b_values = _promote(a.values, b.values)
    alpha, beta = _ew.cast(alpha, a_values.dtype), _ew.cast(beta, a_values.dtype)
    (ra, ca), (rb, cb) = _structure(a), _structure(b)
    keys = np.concatenate([ra * a.shape[1] + ca, rb * a.shape[1] + cb])
    values = _shape.concat([_ew.mul(a_values, alpha), _ew.mul(b_values, beta)])
    if keys.size == 0:
        return a._with_values(values)
    return _combine_entries(keys, values, a.shape[1], a.shape, a.indptr)


def csr_mm(a, b, trans_a=False, trans_b=False, adjoint_a=False, adjoint_b=False):
    """``ops.csr_mm(a, b, ...)``: the product of two 2-D CSRTensors (each optionally
    transposed; adjoint is the transpose for real values) as a CSRTensor holding every
    structurally non-zero entry, sorted by row then column."""
    if not isinstance(a, CSRTensor) or not isinstance(b, CSRTensor):
        raise TypeError("For functional operator csr_mm, inputs a and b must be type of "
                        "CSRTensor currently.")
    (ra, ca), (rb, cb) = _structure(a), _structure(b)
    a_shape, b_shape = a.shape, b.shape
    if trans_a or adjoint_a:
        ra, ca, a_shape = ca, ra, a_shape[::-1]
    if trans_b or adjoint_b:
        rb, cb, b_shape = cb, rb, b_shape[::-1]
    if a_shape[1] != b_shape[0]:
        raise ValueError(f"For 'csr_mm', the shapes {a_shape} and {b_shape} cannot be "
                         f"multiplied.")
    # every pair (i, k) of a with (k, j) of b gives a term of out[i, j]
    pairs_a, pairs_b = np.nonzero(ca[:, None] == rb[None, :])
    a_values, b_values = _promote(a.values, b.values)
    shape = (a_shape[0], b_shape[1])
    terms = _ew.mul(getitem(a_values, coerce.constant(pairs_a)),
                    getitem(b_values, coerce.constant(pairs_b)))
    if pairs_a.size == 0:
        empty = coerce.constant(np.zeros(0, np.int64))
        return _from_entries(empty, empty, terms, shape, a.indptr)
    keys = ra[pairs_a] * shape[1] + cb[pairs_b]
    return _combine_entries(keys, terms, shape[1], shape, a.indptr)
