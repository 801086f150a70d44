"""TensorFlow's banded-matrix forms in MindSpore (``matrix_band_part``, ``matrix_diag``,
``matrix_diag_part``, ``matrix_set_diag``: MatrixDiagV3 and friends). A band of diagonals
k[0]..k[1] is stored as rows of a (..., num_diags, max_diag_len) tensor, the highest
diagonal first, each row aligned left or right (``align``). Every function is a gather
(or a where) with index tensors computed from the static shapes, so it differentiates
and compiles; the band limits and sizes are read as Python values."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import shape as _shape
from . import indexing as _idx
from .matrix_structure import check_dtype, INTEGER_AND_FLOAT, REAL

__all__ = ["matrix_band_part", "matrix_diag", "matrix_diag_part", "matrix_set_diag"]

_ALIGNS = ("RIGHT_LEFT", "LEFT_RIGHT", "LEFT_LEFT", "RIGHT_RIGHT")


def _int_value(value, name, op):
    """A Python int from an int or a 0-d / 1-element integer tensor."""
    if isinstance(value, Tensor):
        if not dt.is_int(value.dtype):
            raise TypeError(f"{op}: {name} must be an integer, got a {value.dtype} tensor")
        coerce.shape_decision()
        return [int(v) for v in np.ravel(value.asnumpy())]
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return [int(value)]
    if isinstance(value, (tuple, list)) and all(isinstance(v, (int, np.integer)) for v in value):
        return [int(v) for v in value]
    raise TypeError(f"{op}: {name} must be an int or an integer tensor, got "
                    f"{type(value).__name__}")


def _band(k, op):
    """(k[0], k[1], whether the diagonals have their own axis)."""
    values = _int_value(k, "k", op)
    if len(values) not in (1, 2):
        raise ValueError(f"{op}: k must hold one or two values, got {values}")
    low, high = values[0], values[-1]
    if low > high:
        raise ValueError(f"{op}: k[0] must not be greater than k[1], got {values}")
    return low, high, low != high


def _check_align(align, op):
    if align not in _ALIGNS:
        raise ValueError(f"{op}: align must be one of {list(_ALIGNS)}, got {align!r}")


def _diag_len(rows, cols, d):
    return min(cols - max(d, 0), rows + min(d, 0))


def _band_layout(rows, cols, low, high, align):
    """For each (row, column) of a rows x cols matrix: the flat position in the
    (num_diags * max_diag_len) storage of its diagonal's element, and whether it lies in
    the band and in its stored diagonal (else the padding)."""
    max_len = max(_diag_len(rows, cols, d) for d in range(low, high + 1))
    i, j = np.indices((rows, cols))
    d = j - i
    right_aligned = np.where(d >= 0, align.split("_")[0] == "RIGHT",
                             align.split("_")[1] == "RIGHT")
    lengths = np.minimum(cols - np.maximum(d, 0), rows + np.minimum(d, 0))
    offset = np.where(right_aligned, max_len - lengths, 0)
    along = i + np.minimum(d, 0) + offset
    inside = (d >= low) & (d <= high) & (along >= 0) & (along < max_len)
    flat = np.where(inside, (high - d) * max_len + along, 0)
    return flat, inside, max_len


def matrix_band_part(x, lower, upper):
    """``ops.matrix_band_part``: each matrix of the last two axes with the entries more
    than ``lower`` diagonals below or ``upper`` above the main one set to zero (a negative
    bound keeps that whole triangle).

    >>> import tensorjit as ms
    >>> ms.ops.matrix_band_part(ms.Tensor([[1, 2], [3, 4]]), 0, -1).asnumpy().tolist()
    [[1, 2], [0, 4]]
    """
    x = check_dtype(coerce.as_tensor(x, op="matrix_band_part"), REAL, "matrix_band_part")
    if x.ndim < 2:
        raise ValueError(f"matrix_band_part: the input's rank must be >= 2, got shape "
                         f"{tuple(x.shape)}")
    i, j = np.indices(tuple(x.shape[-2:]))
    # the bounds may be tensors: compared in the graph, their values are never read here
    below, above = coerce.constant(i - j), coerce.constant(j - i)
    keep = None
    for bound, distance, name in ((lower, below, "lower"), (upper, above, "upper")):
        if isinstance(bound, Tensor):
            if not dt.is_int(bound.dtype) or bound.ndim != 0:
                raise TypeError(f"matrix_band_part: {name} must be an int or a 0-d integer "
                                f"tensor, got {bound.dtype} of shape {tuple(bound.shape)}")
            bound = _ew.cast(bound, distance.dtype)
            inside = _ew.logical_or(_ew.lt(bound, 0), _ew.le(distance, bound))
        else:
            (value,) = _int_value(bound, name, "matrix_band_part")
            inside = coerce.constant((value < 0) | (distance.asnumpy() <= value))
        keep = inside if keep is None else _ew.logical_and(keep, inside)
    return _ew.where(keep, x, _ew.zeros_like(x))


def _gather_band(diagonals, rows, cols, low, high, align, padding):
    """The rows x cols matrices holding ``diagonals`` (..., num_diags, max_len) as the
    band low..high, the padding elsewhere; also the in-band mask."""
    flat, inside, max_len = _band_layout(rows, cols, low, high, align)
    lead = tuple(diagonals.shape[:-2])
    stored = _shape.reshape(diagonals, lead + (-1,))
    gathered = _idx.getitem(stored, (Ellipsis, coerce.constant(flat.astype(np.int64))))
    mask = coerce.constant(inside)
    return _ew.where(mask, gathered, padding), mask


def _diagonals_with_axis(x, low, high, op):
    """``x`` as (..., num_diags, max_len): a single diagonal gets its axis."""
    if low == high:
        return _shape.expand_dims(x, -2)
    if x.ndim < 2 or x.shape[-2] != high - low + 1:
        raise ValueError(f"{op}: for k = [{low}, {high}] the input's second-to-last axis "
                         f"must be {high - low + 1}, got shape {tuple(x.shape)}")
    return x


def matrix_diag(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """``ops.matrix_diag``: matrices with the given diagonals (MatrixDiagV3): ``x`` holds
    diagonal k (shape (..., max_diag_len)) or the band k = [low, high] (shape (...,
    num_diags, max_diag_len), the highest diagonal first); ``num_rows`` / ``num_cols``
    default to the smallest fitting sizes (a square matrix when both are -1); the rest is
    ``padding_value``.

    >>> import tensorjit as ms
    >>> ms.ops.matrix_diag(ms.Tensor([1, 2]), k=1).asnumpy().tolist()
    [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    """
    op = "matrix_diag"
    x = check_dtype(coerce.as_tensor(x, op=op), INTEGER_AND_FLOAT, op)
    _check_align(align, op)
    low, high, _ = _band(k, op)
    if x.ndim < 1:
        raise ValueError(f"{op}: the input must have rank >= 1")
    diagonals = _diagonals_with_axis(x, low, high, op)
    max_len = x.shape[-1]
    (rows,) = _int_value(num_rows, "num_rows", op)
    (cols,) = _int_value(num_cols, "num_cols", op)
    min_rows, min_cols = max_len - min(high, 0), max_len + max(low, 0)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    rows = min_rows if rows == -1 else rows
    cols = min_cols if cols == -1 else cols
    if rows < min_rows or cols < min_cols or (
            max(_diag_len(rows, cols, d) for d in range(low, high + 1)) != max_len):
        raise ValueError(f"{op}: a {rows} x {cols} matrix cannot hold diagonals {low}..{high}"
                         f" of length {max_len}")
    padding = coerce.as_tensor(padding_value, x.dtype, op=op)
    out, _ = _gather_band(diagonals, rows, cols, low, high, align, padding)
    return out


def matrix_diag_part(x, k, padding_value, align="RIGHT_LEFT"):
    """``ops.matrix_diag_part``: diagonal k, or the band k = [low, high] (the highest
    diagonal first), of each matrix of the last two axes (MatrixDiagPartV3), shorter
    diagonals padded with ``padding_value`` on the side ``align`` says.

    >>> import tensorjit as ms
    >>> ms.ops.matrix_diag_part(ms.Tensor([[1, 2], [3, 4]]), 0, 0).asnumpy().tolist()
    [1, 4]
    """
    op = "matrix_diag_part"
    x = check_dtype(coerce.as_tensor(x, op=op), INTEGER_AND_FLOAT, op)
    _check_align(align, op)
    low, high, several = _band(k, op)
    if x.ndim < 2:
        raise ValueError(f"{op}: the input's rank must be >= 2, got shape {tuple(x.shape)}")
    rows, cols = x.shape[-2], x.shape[-1]
    if not (-rows < low <= high < cols) and (rows and cols):
        raise ValueError(f"{op}: k = [{low}, {high}] is outside a {rows} x {cols} matrix")
    max_len = max(_diag_len(rows, cols, d) for d in range(low, high + 1))
    # where each stored element comes from: the transpose of matrix_diag's layout
    flat, inside, _ = _band_layout(rows, cols, low, high, align)
    source = np.zeros(((high - low + 1) * max_len,), np.int64)
    present = np.zeros(source.shape, bool)
    source[flat[inside]] = np.flatnonzero(inside)
    present[flat[inside]] = True
    matrices = _shape.reshape(x, tuple(x.shape[:-2]) + (-1,))
    picked = _idx.getitem(matrices, (Ellipsis, coerce.constant(source)))
    padding = coerce.as_tensor(padding_value, x.dtype, op=op)
    out = _ew.where(coerce.constant(present), picked, padding)
    shape = tuple(x.shape[:-2]) + ((high - low + 1,) if several else ()) + (max_len,)
    return _shape.reshape(out, shape)


def matrix_set_diag(x, diagonal, k=0, align="RIGHT_LEFT"):
    """``ops.matrix_set_diag``: ``x`` with diagonal k, or the band k = [low, high], replaced
    by ``diagonal`` (laid out as ``matrix_diag_part`` returns it).

    >>> import tensorjit as ms
    >>> ms.ops.matrix_set_diag(ms.ops.zeros((2, 2)), ms.Tensor([1.0, 2.0])).asnumpy().tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    """
    op = "matrix_set_diag"
    x = check_dtype(coerce.as_tensor(x, op=op), INTEGER_AND_FLOAT, op)
    diagonal = coerce.as_tensor(diagonal, op=op)
    if diagonal.dtype != x.dtype:
        raise TypeError(f"{op}: diagonal's dtype {diagonal.dtype} differs from the input's "
                        f"{x.dtype}")
    _check_align(align, op)
    low, high, _ = _band(k, op)
    if x.ndim < 2:
        raise ValueError(f"{op}: the input's rank must be >= 2, got shape {tuple(x.shape)}")
    rows, cols = x.shape[-2], x.shape[-1]
    max_len = max(_diag_len(rows, cols, d) for d in range(low, high + 1))
    diagonals = _diagonals_with_axis(diagonal, low, high, op)
    want = tuple(x.shape[:-2]) + (high - low + 1, max_len)
    if tuple(diagonals.shape) != want:
        raise ValueError(f"{op}: diagonal of shape {tuple(diagonal.shape)} does not fit the "
                         f"band {low}..{high} of an input of shape {tuple(x.shape)}")
    band, mask = _gather_band(diagonals, rows, cols, low, high, align, x)
    return band
