"""Diagonals, bands and index structure of matrices (MindSpore's ``diagonal``, ``diag``,
``diag_embed``, ``trace``, ``tril_indices``, ``block_diag``, ``cartesian_prod``,
``combinations``, ``adjoint``), composed of registry ops: a diagonal is read or written
with integer index tensors made from the static shapes, so every function differentiates
(the gradient of a read is a scatter-add, of a write a gather) and compiles.
TensorFlow's banded forms (``matrix_diag``, ``matrix_band_part``, ...) are in
``matrix_bands.py``."""
import itertools

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import indexing as _idx

__all__ = ["diagonal", "diag", "diagflat", "diag_embed", "diagonal_scatter", "trace",
           "tril_indices", "triu_indices", "block_diag", "cartesian_prod", "combinations",
           "adjoint", "check_dtype", "REAL", "INTEGER_AND_FLOAT"]

# dtype groups of MindSpore 2.10's CPU kernels
_FLOAT = (dt.float16, dt.float32, dt.float64)
INTEGER_AND_FLOAT = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32,
                     dt.uint64) + _FLOAT
REAL = INTEGER_AND_FLOAT + (dt.bool_,)
_DIAG = (dt.int16, dt.int32, dt.int64) + _FLOAT


def check_dtype(x, allowed, op):
    if x.dtype not in allowed:
        names = ", ".join(str(d) for d in allowed)
        raise TypeError(f"{op}: the input's dtype must be one of [{names}], got {x.dtype}")
    return x


def _tensor(x, op):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: the input must be a Tensor, got {type(x).__name__}")
    return x


def diagonal_positions(rows, cols, offset):
    """Row and column indices of the ``offset``-th diagonal of a (rows, cols) matrix."""
    length = max(min(rows + min(offset, 0), cols - max(offset, 0)), 0)
    start = np.arange(length)
    return start - min(offset, 0), start + max(offset, 0)


def _axes_last(x, dim1, dim2, op):
    """``x`` with axes dim1, dim2 moved to the end (in that order), and the permutation."""
    d1 = coerce.normalize_axis(dim1, x.ndim, op)
    d2 = coerce.normalize_axis(dim2, x.ndim, op)
    if d1 == d2:
        raise ValueError(f"{op}: dim1 and dim2 cannot be identical, got dim1={dim1} and "
                         f"dim2={dim2}")
    perm = tuple(i for i in range(x.ndim) if i not in (d1, d2)) + (d1, d2)
    return _shape.transpose(x, perm), perm


def _on_diagonal(x, offset):
    """The index (..., rows, cols) of ``x``'s last two axes on the ``offset``-th diagonal."""
    rows, cols = diagonal_positions(x.shape[-2], x.shape[-1], offset)
    return (Ellipsis, coerce.constant(rows), coerce.constant(cols))


def diagonal(input, offset=0, dim1=0, dim2=1):
    """``ops.diagonal``: the ``offset``-th diagonal of the planes (dim1, dim2), as the last
    axis of the result (every dtype).

    >>> import tensorjit as ms
    >>> ms.ops.diagonal(ms.Tensor([[1, 2], [3, 4]])).asnumpy().tolist()
    [1, 4]
    """
    x = _tensor(input, "diagonal")
    if x.ndim < 2:
        raise ValueError(f"diagonal: the input must have rank >= 2, got shape {tuple(x.shape)}")
    moved, _ = _axes_last(x, dim1, dim2, "diagonal")
    return _idx.getitem(moved, _on_diagonal(moved, offset))


def _embed(values, offset):
    """Square matrices (..., n, n), n = len + |offset|, zero but for ``values`` (..., len)
    on the ``offset``-th diagonal."""
    n = values.shape[-1] + abs(offset)
    zeros = _ew.zeros_like(_shape.broadcast_to(_shape.expand_dims(values, -1),
                                               tuple(values.shape) + (n,)))
    pads = ((0, 0),) * (values.ndim - 1) + ((0, abs(offset)), (0, 0))
    zeros = _shape.pad_p.bind(zeros, pads=pads, value=0)
    return _idx.setitem_value(zeros, _on_diagonal(zeros, offset), values)


def diag(input):
    """``ops.diag``: for a tensor of shape (D1, ..., Dk), the tensor (D1, ..., Dk, D1, ...,
    Dk) holding it on its diagonal (a 1-D input gives the diagonal matrix).

    >>> import tensorjit as ms
    >>> ms.ops.diag(ms.Tensor([1, 2])).asnumpy().tolist()
    [[1, 0], [0, 2]]
    """
    x = check_dtype(_tensor(input, "diag"), _DIAG, "diag")
    if x.ndim < 1:
        raise ValueError("diag: the input's rank must be >= 1, got a 0-d tensor")
    square = _embed(_shape.reshape(x, (-1,)), 0)
    return _shape.reshape(square, tuple(x.shape) * 2)


def diagflat(input, offset=0):
    """``ops.diagflat``: a 2-D tensor with the flattened input on its ``offset``-th
    diagonal.

    >>> import tensorjit as ms
    >>> ms.ops.diagflat(ms.Tensor([1, 2]), 1).asnumpy().tolist()
    [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    """
    x = check_dtype(_tensor(input, "diagflat"), _DIAG, "diagflat")
    if not isinstance(offset, int) or isinstance(offset, bool):
        raise TypeError(f"diagflat: offset must be an int, got {type(offset).__name__}")
    return _embed(_shape.reshape(x, (-1,)), offset)


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """``ops.diag_embed``: each vector of the last axis placed on the ``offset``-th
    diagonal of a square plane (dim1, dim2) of the result, zeros elsewhere.

    >>> import tensorjit as ms
    >>> ms.ops.diag_embed(ms.Tensor([1.0, 2.0])).asnumpy().tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """
    x = check_dtype(_tensor(input, "diag_embed"), INTEGER_AND_FLOAT, "diag_embed")
    for name, value in (("offset", offset), ("dim1", dim1), ("dim2", dim2)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"diag_embed: {name} must be an int, got {type(value).__name__}")
    if x.ndim < 1:
        raise ValueError("diag_embed: the input must have rank >= 1")
    out_ndim = x.ndim + 1
    d1 = coerce.normalize_axis(dim1, out_ndim, "diag_embed")
    d2 = coerce.normalize_axis(dim2, out_ndim, "diag_embed")
    if d1 == d2:
        raise ValueError(f"diag_embed: dim1 and dim2 cannot be identical, got {dim1}, {dim2}")
    out = _embed(x, offset)                     # (..., n, n): the plane is last
    # the plane's axes go to d1 and d2, the batch axes keep their order around them
    rest = iter(range(out_ndim - 2))
    perm = tuple(out_ndim - 2 if i == d1 else out_ndim - 1 if i == d2 else next(rest)
                 for i in range(out_ndim))
    return _shape.transpose(out, perm)


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    """``ops.diagonal_scatter``: ``input`` with its ``offset``-th diagonal of the planes
    (dim1, dim2) replaced by ``src`` (whose shape is that diagonal's, as ``diagonal``
    returns it).

    >>> import tensorjit as ms
    >>> ms.ops.diagonal_scatter(ms.ops.zeros((2, 2)), ms.Tensor([1.0, 2.0])).asnumpy().tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """
    x = check_dtype(_tensor(input, "diagonal_scatter"), INTEGER_AND_FLOAT, "diagonal_scatter")
    src = _tensor(src, "diagonal_scatter")
    if x.ndim < 2:
        raise ValueError("diagonal_scatter: the input must have rank >= 2")
    moved, perm = _axes_last(x, dim1, dim2, "diagonal_scatter")
    index = _on_diagonal(moved, offset)
    want = tuple(moved.shape[:-2]) + (len(index[1].asnumpy()),)
    if tuple(src.shape) != want:
        raise ValueError(f"diagonal_scatter: the shape of src must equal the shape of the "
                         f"input's diagonal, got src.shape {tuple(src.shape)} and diagonal "
                         f"shape {want}")
    out = _idx.setitem_value(moved, index, src)
    return _shape.transpose(out, tuple(int(i) for i in np.argsort(perm)))


_TRACE = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32,
          dt.uint64) + _FLOAT


def trace(input):
    """``ops.trace``: the sum of a 2-D tensor's main diagonal, in the input's dtype.

    >>> import tensorjit as ms
    >>> int(ms.ops.trace(ms.Tensor([[1, 2], [3, 4]])))
    5
    """
    x = check_dtype(_tensor(input, "trace"), _TRACE, "trace")
    if x.ndim != 2:
        raise RuntimeError(f"trace: the rank of the input must be 2, got {x.ndim}")
    return _red.sum(diagonal(x), dtype=x.dtype)


def _triangle_indices(which, row, col, offset, dtype):
    op = f"{which}_indices"
    for name, value in (("row", row), ("col", col), ("offset", offset)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
            raise TypeError(f"{op}: {name} must be an int, got {type(value).__name__}")
    if row < 0 or col < 0:
        raise ValueError(f"{op}: row and col must be non-negative, got {row} and {col}")
    dtype = dt.as_dtype(dtype)
    if dtype not in (dt.int32, dt.int64):
        raise TypeError(f"{op}: dtype must be int32 or int64, got {dtype}")
    fn = np.tril_indices if which == "tril" else np.triu_indices
    return coerce.constant(np.stack(fn(row, offset, col)).astype(dtype).reshape(2, -1))


def _indices_function(which, where):
    def indices(row, col, offset=0, *, dtype=dt.int64):
        return _triangle_indices(which, row, col, offset, dtype)
    indices.__name__ = indices.__qualname__ = f"{which}_indices"
    indices.__doc__ = (f"""``ops.{which}_indices``: the (row, column) coordinates, as a (2, N)
    tensor, of the {where} of a row x col matrix, row by row (int64, or ``dtype`` int32).

    >>> import tensorjit as ms
    >>> ms.ops.{which}_indices(2, 2).asnumpy().tolist()
    {np.stack(getattr(np, f"{which}_indices")(2, 0, 2)).tolist()}
    """)
    return indices


tril_indices = _indices_function("tril", "lower triangle (at and below diagonal ``offset``)")
triu_indices = _indices_function("triu", "upper triangle (at and above diagonal ``offset``)")


def _common_dtype(tensors):
    out = tensors[0].dtype
    for t in tensors[1:]:
        out = dt.promote_types(out, t.dtype)
    return [t if t.dtype == out else _ew.cast(t, out) for t in tensors]


def block_diag(*inputs):
    """``ops.block_diag``: the block-diagonal matrix of 0-, 1- or 2-D tensors (a 0-d
    tensor is a 1x1 block, a 1-D one a row); mixed dtypes are promoted.

    >>> import tensorjit as ms
    >>> ms.ops.block_diag(ms.Tensor([[1]]), ms.Tensor([2, 3])).asnumpy().tolist()
    [[1, 0, 0], [0, 2, 3]]
    """
    if not inputs:
        raise RuntimeError("block_diag: the input is empty")
    blocks = []
    for t in inputs:
        t = _tensor(t, "block_diag")
        if t.ndim > 2:
            raise ValueError(f"block_diag: each input must have rank 0, 1 or 2, got shape "
                             f"{tuple(t.shape)}")
        blocks.append(_shape.reshape(t, (1,) * (2 - t.ndim) + tuple(t.shape)))
    blocks = _common_dtype(blocks)
    width = sum(b.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        right = width - left - b.shape[1]
        rows.append(_shape.pad_p.bind(b, pads=((0, 0), (left, right)), value=0))
        left += b.shape[1]
    return _shape.concat(rows, 0)


def cartesian_prod(*inputs):
    """``ops.cartesian_prod``: the Cartesian product of 1-D tensors, one row per
    combination (the last input varies fastest), shape (N1 * ... * Nk, k).

    >>> import tensorjit as ms
    >>> ms.ops.cartesian_prod(ms.Tensor([1, 2]), ms.Tensor([5])).asnumpy().tolist()
    [[1, 5], [2, 5]]
    """
    if not inputs:
        raise ValueError("cartesian_prod: at least one tensor is required")
    tensors = [check_dtype(_tensor(t, "cartesian_prod"), REAL, "cartesian_prod")
               for t in inputs]
    for t in tensors:
        if t.ndim != 1:
            raise ValueError(f"cartesian_prod: the inputs must be 1-D, got shape "
                             f"{tuple(t.shape)}")
    tensors = _common_dtype(tensors)
    sizes = tuple(t.shape[0] for t in tensors)
    columns = []
    for k, t in enumerate(tensors):
        along = [1] * len(sizes)
        along[k] = sizes[k]
        grid = _shape.broadcast_to(_shape.reshape(t, tuple(along)), sizes)
        columns.append(_shape.reshape(grid, (-1,)))
    return _shape.stack(columns, -1)


def combinations(input, r=2, with_replacement=False):
    """``ops.combinations``: the length-``r`` combinations of a 1-D tensor's elements
    (``itertools.combinations`` order), one per row; with replacement, elements may
    repeat. No combination (r > N) gives an empty 1-D tensor, as MindSpore's.

    >>> import tensorjit as ms
    >>> ms.ops.combinations(ms.Tensor([1, 2, 3])).asnumpy().tolist()
    [[1, 2], [1, 3], [2, 3]]
    """
    x = _tensor(input, "combinations")
    if x.ndim != 1:
        raise ValueError(f"combinations: the input must be 1-D, got shape {tuple(x.shape)}")
    if not isinstance(r, int) or isinstance(r, bool):
        raise TypeError(f"combinations: r must be an int, got {type(r).__name__}")
    if r <= 0:
        raise ValueError(f"combinations: r must be positive, got {r}")
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    rows = np.array(list(pick(range(x.shape[0]), r)), np.int64).reshape(-1, r)
    if rows.size == 0:
        return _idx.getitem(x, (slice(0, 0),))
    return _idx.getitem(x, (coerce.constant(rows),))


def adjoint(x):
    """``ops.adjoint``: the conjugate transpose of the last two axes (a transpose: real
    tensors have nothing to conjugate).

    >>> import tensorjit as ms
    >>> ms.ops.adjoint(ms.Tensor([[1, 2]])).asnumpy().tolist()
    [[1], [2]]
    """
    x = _tensor(x, "adjoint")
    if x.ndim < 2:
        raise ValueError(f"adjoint: the input must have rank >= 2, got shape {tuple(x.shape)}")
    return _shape.swapaxes(x, -1, -2)
