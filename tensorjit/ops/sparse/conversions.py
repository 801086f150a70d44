"""Between the sparse formats and dense tensors, and MindSpore's make / get functions.

Dense results are scatter-adds of the values into zeros and sparse values are gathers,
so gradients reach the values. The CSR row of each stored value comes from ``indptr`` by
a search (no reading of index values), so these compile too; ``dense_to_sparse_*`` and
``coalesce`` read the data (their result sizes depend on it), as ``nonzero`` does.
"""
import numpy as np

from ... import dtype as dt
from ...tensor import Tensor
from .. import coerce
from .. import elementwise as _ew
from .. import shape as _shape
from ..creation import zeros, arange
from ..cumulative import cumsum
from ..indexing import getitem, nonzero
from ..scattering import gather_nd, tensor_scatter_add, tensor_scatter_update
from ..searching import searchsorted
from ..segments import unsorted_segment_sum
from ..sorting import argsort
from .tensors import COOTensor, CSRTensor, RowTensorInner, RowTensor, SparseTensor

__all__ = ["coo2csr", "csr2coo", "csr_to_coo", "csr_to_dense", "dense_to_sparse_coo",
           "dense_to_sparse_csr", "coalesce", "make_coo_tensor", "make_csr_tensor",
           "make_sparse_tensor", "make_row_tensor", "make_row_tensor_inner",
           "coo_tensor_get_indices", "coo_tensor_get_values", "coo_tensor_get_dense_shape",
           "csr_tensor_get_indptr", "csr_tensor_get_indices", "csr_tensor_get_values",
           "csr_tensor_get_dense_shape", "row_tensor_get_indices", "row_tensor_get_values",
           "row_tensor_get_dense_shape", "sparse_to_dense"]


def expect(value, kind, message):
    if not isinstance(value, kind):
        raise TypeError(message)
    return value


def _index_tensor(value, op, name):
    value = expect(value, Tensor, f"For '{op}', '{name}' must be a Tensor, but got "
                                  f"{type(value).__name__}.")
    if not dt.is_int(value.dtype) or value.dtype == dt.bool_:
        raise TypeError(f"For '{op}', '{name}' must be an integer tensor, but got {value.dtype}.")
    return value


def rows_of(indptr, nnz):
    """The row of each of the ``nnz`` stored values: how many rows end at or before it
    (in ``indptr``'s dtype)."""
    ends = getitem(indptr, slice(1, None))
    return _ew.cast(searchsorted(ends, arange(nnz, dtype=ends.dtype), right=True),
                    indptr.dtype)


def coo2csr(row_indices, height):
    """``ops.coo2csr(row_indices, height)``: the ``indptr`` (``height + 1`` entries, the
    indices' dtype) of sorted COO row indices: the running count of values per row."""
    rows = _index_tensor(row_indices, "COO2CSR", "row_indices")
    if isinstance(height, Tensor):
        height = height.item()
    if isinstance(height, bool) or not isinstance(height, (int, np.integer)) or height < 0:
        raise TypeError(f"For 'COO2CSR', 'height' must be a non-negative int, got {height!r}")
    counts = unsorted_segment_sum(_ew.ones_like(rows), rows, int(height)) if height else \
        zeros((0,), rows.dtype)
    return _ew.cast(_shape.concat([zeros((1,), counts.dtype), cumsum(counts, 0)]),
                    rows.dtype)


def csr2coo(indptr, nnz):
    """``ops.csr2coo(indptr, nnz)``: the row index of each of the ``nnz`` values."""
    indptr = _index_tensor(indptr, "CSR2COO", "indptr")
    if isinstance(nnz, Tensor):
        nnz = nnz.item()
    return rows_of(indptr, int(nnz))


def coo_to_dense(coo):
    """The dense tensor of a COOTensor: zeros with the values added at their indices
    (repeated indices add up; an index outside ``shape`` raises RuntimeError)."""
    if coo.indices.ndim != 2:         # the empty COOTensor: indices of shape (0,)
        return zeros(coo.shape, coo.dtype)
    return tensor_scatter_add(zeros(coo.shape, coo.dtype), coo.indices, coo.values)


def coo_to_csr(coo):
    """A COOTensor's CSR form: values ordered by row (stable), ``indptr`` from the rows."""
    rows = getitem(coo.indices, (slice(None), 0))
    cols = getitem(coo.indices, (slice(None), 1))
    order = argsort(rows)
    rows = getitem(rows, order)
    indptr = coo2csr(rows, coo.shape[0])
    return CSRTensor(indptr, getitem(cols, order), getitem(coo.values, order), coo.shape)


def csr_to_coo(tensor):
    """``ops.csr_to_coo``: the COOTensor of a 2-D CSRTensor (``[row, col]`` indices)."""
    expect(tensor, CSRTensor, "For functional operator csr_to_coo, input argument must be a "
                              "CSRTensor.")
    if tensor.ndim > 2:
        raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
    nnz = tensor.indices.shape[0]
    rows = _ew.cast(rows_of(tensor.indptr, nnz), tensor.indices.dtype)
    return COOTensor(_shape.stack([rows, tensor.indices], 1), tensor.values, tensor.shape)


def _csr_coordinates(tensor):
    nnz = tensor.indices.shape[0]
    rows = rows_of(_ew.cast(tensor.indptr, dt.int64), nnz)
    return _shape.stack([rows, _ew.cast(tensor.indices, dt.int64)], 1)


def csr_to_dense(csr_tensor):
    """``ops.csr_to_dense``: the dense tensor of a 2-D CSRTensor."""
    expect(csr_tensor, CSRTensor, "For functional operator csr_to_dense, input argument must "
                                  "be a CSRTensor.")
    if csr_tensor.ndim > 2:
        raise ValueError("Currently only support 2-D CSRTensor when converting to COOTensor.")
    return tensor_scatter_add(zeros(csr_tensor.shape, csr_tensor.dtype),
                              _csr_coordinates(csr_tensor), csr_tensor.values)


def _nonzero_2d(tensor, name):
    expect(tensor, Tensor, f"For functional operator {name}, input argument must be a Tensor.")
    if tensor.ndim > 2:
        kind = "COOTensor" if name.endswith("coo") else "CSRTensor"
        raise ValueError(f"Currently only support 2-D Tensor when converting to {kind}.")
    indices = _ew.cast(nonzero(tensor), dt.int32)       # row-major order
    return indices, gather_nd(tensor, indices)


def dense_to_sparse_coo(tensor):
    """``ops.dense_to_sparse_coo``: the non-zero elements of a 2-D tensor as a COOTensor
    (int32 indices in row-major order; reads the values)."""
    indices, values = _nonzero_2d(tensor, "dense_to_sparse_coo")
    return COOTensor(indices, values, tuple(tensor.shape))


def dense_to_sparse_csr(tensor):
    """``ops.dense_to_sparse_csr``: the non-zero elements of a 2-D tensor as a CSRTensor
    (int32 ``indptr`` / ``indices``; float32 / float64 values; reads the values)."""
    if isinstance(tensor, Tensor) and tensor.dtype not in (dt.float32, dt.float64):
        raise TypeError(f"For primitive[DenseToCSRSparseMatrix], the input argument"
                        f"[dense_input] must be a float32 or float64 tensor, but got "
                        f"{tensor.dtype}.")
    indices, values = _nonzero_2d(tensor, "dense_to_sparse_csr")
    indptr = coo2csr(getitem(indices, (slice(None), 0)), tensor.shape[0])
    return CSRTensor(indptr, getitem(indices, (slice(None), 1)), values, tuple(tensor.shape))


def coalesce(x_indices, x_values, x_shape):
    """``ops.coalesce(x_indices, x_values, x_shape)``: indices ``(ndim, n)`` made unique and
    sorted (row-major), the values of repeated ones summed: ``(y_indices, y_values,
    y_shape)``. int64 indices and shape, float values (MindSpore's CPU kernel)."""
    op = "Coalesce"
    for name, t in (("x_indices", x_indices), ("x_values", x_values), ("x_shape", x_shape)):
        expect(t, Tensor, f"For '{op}', '{name}' must be a Tensor, but got {type(t).__name__}.")
    if x_values.dtype not in (dt.float16, dt.float32, dt.float64):
        raise TypeError(f"For '{op}', the dtype of 'x_values' must be float16, float32 or "
                        f"float64, but got {x_values.dtype}.")
    for name, t in (("x_indices", x_indices), ("x_shape", x_shape)):
        if t.dtype != dt.int64:
            raise TypeError(f"For '{op}', the dtype of '{name}' must be int64, but got "
                            f"{t.dtype}.")
    if x_values.ndim != 1 or x_shape.ndim != 1 or x_indices.ndim != 2:
        raise ValueError(f"For '{op}', 'x_values' and 'x_shape' must be 1-D and 'x_indices' "
                         f"2-D, got {x_values.ndim}-D, {x_shape.ndim}-D and {x_indices.ndim}-D.")
    if x_indices.shape[1] != x_values.shape[0] or x_indices.shape[0] != x_shape.shape[0]:
        raise ValueError(f"For '{op}', 'x_indices' {tuple(x_indices.shape)} must be (len of "
                         f"'x_shape', len of 'x_values'), got {tuple(x_shape.shape)} and "
                         f"{tuple(x_values.shape)}.")
    index, bounds = x_indices.asnumpy(), x_shape.asnumpy()   # the result's size: read
    if index.size and (index.min() < 0 or np.any(index >= bounds[:, None])):
        raise ValueError(f"For {op}, values of elements of x_indices can not be negative or "
                         f"exceed the limit set by x_shape {bounds.tolist()}.")
    linear = np.ravel_multi_index(tuple(index), tuple(bounds)) if index.size else \
        np.zeros(0, np.int64)
    unique, inverse = np.unique(linear, return_inverse=True)
    y_indices = np.stack(np.unravel_index(unique, tuple(bounds))) if unique.size else \
        np.zeros((len(bounds), 0), np.int64)
    y_values = unsorted_segment_sum(x_values, coerce.constant(inverse.reshape(-1)),
                                    unique.size) if unique.size else x_values
    return coerce.constant(y_indices.astype(np.int64)), y_values, x_shape


def coo_coalesce(coo):
    """``COOTensor.coalesce``: unique sorted indices, repeated ones' values summed (int64
    indices, as MindSpore's kernel)."""
    shape = coerce.constant(np.array(coo.shape, np.int64))
    indices, values, _ = coalesce(_shape.transpose(coo.indices, (1, 0)),
                                  coo.values, shape)
    return COOTensor(_shape.transpose(indices, (1, 0)), values, coo.shape)


def sparse_to_dense(indices, values, sparse_shape):
    """``ops.SparseToDense()(indices, values, sparse_shape)``: the dense tensor of shape
    ``sparse_shape`` holding ``values`` at ``indices`` (int32 / int64, ``(n, rank)``; a
    repeated index keeps its last value)."""
    op = "SparseToDense"
    expect(indices, Tensor, f"For '{op}', 'indices' must be a Tensor.")
    expect(values, Tensor, f"For '{op}', 'values' must be a Tensor.")
    if indices.dtype not in (dt.int32, dt.int64):
        raise TypeError(f"For '{op}', the dtype of 'indices' must be int32 or int64, but got "
                        f"{indices.dtype}.")
    shape = tuple(sparse_shape.asnumpy().tolist()) if isinstance(sparse_shape, Tensor) \
        else sparse_shape
    if not isinstance(shape, tuple) or any(isinstance(d, bool) or not isinstance(
            d, (int, np.integer)) or d <= 0 for d in shape):
        raise ValueError(f"For '{op}', 'sparse_shape' must be a tuple of positive ints, got "
                         f"{sparse_shape!r}.")
    if indices.ndim != 2 or values.ndim != 1 or indices.shape[0] != values.shape[0] or \
            indices.shape[1] != len(shape):
        raise ValueError(f"For '{op}', 'indices' must be (n, {len(shape)}) and 'values' (n,), "
                         f"got {tuple(indices.shape)} and {tuple(values.shape)}.")
    if indices._var is None and indices.size:        # eager: MindSpore's check and error
        index = indices.asnumpy()
        if index.min() < 0 or np.any(index >= np.array(shape)):
            raise ValueError(f"For '{op}', an index of 'indices' is out of bounds of the "
                             f"output's shape {shape}.")
    # a repeated index holds its last value (MindSpore's kernel assigns)
    return tensor_scatter_update(zeros(shape, values.dtype), indices, values)


# ---- MindSpore's make / get primitives (graph-mode helpers, plain calls here) ----------

def make_coo_tensor(indices, values, dense_shape):
    """``ops.make_coo_tensor(indices, values, dense_shape)``: a COOTensor."""
    return COOTensor(indices, values, dense_shape)


def make_csr_tensor(indptr, indices, values, dense_shape):
    """``ops.make_csr_tensor(indptr, indices, values, dense_shape)``: a CSRTensor."""
    return CSRTensor(indptr, indices, values, dense_shape)


def make_sparse_tensor(indices, values, dense_shape):
    """``ops.make_sparse_tensor``: ``make_coo_tensor``'s deprecated name."""
    return make_coo_tensor(indices, values, dense_shape)


def make_row_tensor_inner(indices, values, dense_shape):
    """``ops.make_row_tensor_inner(indices, values, dense_shape)``: a RowTensorInner."""
    return RowTensorInner(indices, values, dense_shape)


def make_row_tensor(indices, values, dense_shape):
    """``ops.make_row_tensor``: a RowTensor (deprecated in MindSpore)."""
    return RowTensor(indices, values, dense_shape)


def _getter(kind, attribute, name):
    kinds = kind if isinstance(kind, tuple) else (kind,)

    def get(x):
        expect(x, kinds, f"For '{name}', the input must be a {kinds[0].__name__}, but got "
                         f"{type(x).__name__}.")
        return getattr(x, attribute)
    get.__name__ = name
    get.__doc__ = f"``ops.{name}(x)``: the {attribute} of a {kinds[0].__name__}."
    return get


_COO = (COOTensor, SparseTensor)
coo_tensor_get_indices = _getter(_COO, "indices", "coo_tensor_get_indices")
coo_tensor_get_values = _getter(_COO, "values", "coo_tensor_get_values")
coo_tensor_get_dense_shape = _getter(_COO, "shape", "coo_tensor_get_dense_shape")
csr_tensor_get_indptr = _getter(CSRTensor, "indptr", "csr_tensor_get_indptr")
csr_tensor_get_indices = _getter(CSRTensor, "indices", "csr_tensor_get_indices")
csr_tensor_get_values = _getter(CSRTensor, "values", "csr_tensor_get_values")
csr_tensor_get_dense_shape = _getter(CSRTensor, "shape", "csr_tensor_get_dense_shape")
row_tensor_get_indices = _getter(RowTensorInner, "indices", "row_tensor_get_indices")
row_tensor_get_values = _getter(RowTensorInner, "values", "row_tensor_get_values")
row_tensor_get_dense_shape = _getter(RowTensorInner, "dense_shape",
                                     "row_tensor_get_dense_shape")
