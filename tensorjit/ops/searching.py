"""Searching and counting: ``searchsorted``, ``bucketize``, ``bincount``, ``histc``,
``unique`` and its variants, ``argwhere``, ``top_k``, ``intopk``, ``msort``.

Comparisons and segment sums compile; the functions whose result's length depends on
the values (``unique``, ``bincount``, ``argwhere``) read them, as ``nonzero`` does."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from .creation import ones, zeros
from .indexing import gather, gather_elements, nonzero
from .segments import unsorted_segment_sum
from .shape import reshape, movedim, expand_dims, squeeze, slice_axis
from .sorting import sort, topk


def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
                 sorter=None):
    """Insertion points keeping each innermost row of ``sorted_sequence`` sorted: the
    count of its elements below each value (``right`` / ``side='right'``: at or below);
    int64, or int32 with ``out_int32``."""
    if side is not None:
        if side not in ("left", "right"):
            raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', got "
                             f"{side!r}")
        if right and side == "left":
            raise ValueError("For 'searchsorted', side='left' contradicts right=True")
        right = side == "right"
    sequence = coerce.as_tensor(sorted_sequence, op="searchsorted")
    if sequence.dtype == dt.bool_:
        raise TypeError("For 'SearchSorted', a bool sequence is not supported")
    if sorter is not None:
        sequence = gather_elements(sequence, -1, coerce.as_tensor(sorter))
    scalar = not isinstance(values, Tensor)
    values = coerce.as_tensor(values, sequence.dtype if scalar else None)
    if scalar:
        values = reshape(values, (1,) * max(sequence.ndim, 1))
    compare = _ew.le if right else _ew.lt
    if sequence.ndim == 1:
        below = compare(sequence, expand_dims(values, -1))
    else:
        below = compare(expand_dims(sequence, -2), expand_dims(values, -1))
    out = _red.sum(_ew.cast(below, dt.int64), -1)
    if scalar:
        out = reshape(out, ())
    return _ew.cast(out, dt.int32) if out_int32 else out


_BUCKETIZE = (dt.int16, dt.int32, dt.int64, dt.float16, dt.float32, dt.float64)


def bucketize(input, boundaries, *, right=False):
    """The int32 index of the bucket of each element between the sorted ``boundaries`` (a
    list of numbers): the count of boundaries below it (``right``: at or below)."""
    x = coerce.as_tensor(input, op="bucketize")
    if x.dtype not in _BUCKETIZE:
        raise TypeError(f"For 'bucketize', the input dtype {x.dtype} is not supported")
    if isinstance(boundaries, Tensor):
        boundaries = boundaries.asnumpy().tolist()
    if not isinstance(boundaries, (list, tuple)):
        raise TypeError(f"For 'bucketize', 'boundaries' must be a list of numbers, got "
                        f"{type(boundaries).__name__}")
    edges = coerce.constant(np.asarray(boundaries, np.float64).reshape(-1))
    below = (_ew.le if right else _ew.lt)(edges, expand_dims(_ew.cast(x, dt.float64), -1))
    return _ew.cast(_red.sum(_ew.cast(below, dt.int32), -1), dt.int32)


def bincount(input, weights=None, minlength=0):
    """How often each value of the 1-D integer ``input`` occurs (``weights``: the sum of
    their weights), as float32; ``max(input) + 1`` or ``minlength`` bins, negative values
    dropped. The number of bins is read from the values."""
    x = coerce.as_tensor(input, op="bincount")
    if x.ndim != 1:
        raise ValueError(f"For 'bincount', 'input' must be 1-D, got {x.ndim}-D")
    if not dt.is_int(x.dtype):
        raise TypeError(f"For 'bincount', 'input' must be an integer tensor, got {x.dtype}")
    if not isinstance(minlength, (int, np.integer)) or minlength < 0:
        raise ValueError(f"For 'bincount', 'minlength' must be a non-negative int, got "
                         f"{minlength!r}")
    values = x.asnumpy()
    length = max(int(values.max()) + 1 if values.size else 0, int(minlength))
    if length == 0:
        return zeros((0,), dt.float32)
    counted = ones(tuple(x.shape), dt.float32) if weights is None else \
        _ew.cast(coerce.as_tensor(weights), dt.float32)
    return unsorted_segment_sum(counted, x, length)


def histc(input, bins=100, min=0.0, max=0.0):
    """The histogram of ``input`` in ``bins`` equal bins over [min, max] (both 0: the
    data's range, read from it); elements outside are not counted, the last bin holds
    ``max``. float32 counts for float inputs, int32 for int32."""
    x = coerce.as_tensor(input, op="histc")
    if x.dtype not in (dt.float16, dt.float32, dt.int32):
        raise TypeError(f"For 'Histogram', the input dtype {x.dtype} is not supported")
    if not isinstance(bins, (int, np.integer)) or bins <= 0:
        raise ValueError(f"For 'Histogram', 'bins' must be a positive int, got {bins!r}")
    low, high = float(min), float(max)
    if low > high:
        raise ValueError(f"For 'Histogram', 'min' {low} must not exceed 'max' {high}")
    if low == high:
        data = x.asnumpy().astype(np.float64)
        low, high = (float(data.min()), float(data.max())) if data.size else (0.0, 0.0)
        if low == high:
            low, high = low - 1, high + 1
    v = _ew.cast(reshape(x, (-1,)), dt.float64)
    position = _ew.floor(_ew.mul(_ew.sub(v, low), bins / (high - low)))
    position = _ew.where(_ew.eq(v, high), bins - 1.0, position)
    inside = _ew.logical_and(_ew.ge(v, low), _ew.le(v, high))
    ids = _ew.cast(_ew.where(inside, position, -1.0), dt.int64)
    counts = unsorted_segment_sum(ones(tuple(v.shape), dt.float32), ids, int(bins))
    return _ew.cast(counts, dt.int32 if x.dtype == dt.int32 else dt.float32)


def _first_appearance(values):
    """NumPy's unique values in order of first appearance, and each element's index."""
    uniques, first, inverse = np.unique(values, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    return uniques[order], rank[inverse.reshape(-1)].reshape(values.shape)


def _index_dtype(x):
    return np.int64 if x.dtype == dt.int64 else np.int32


def unique(input):
    """(the distinct values in order of first appearance, each element's index into
    them): int32 indices (int64 for an int64 input). Reads the values."""
    x = coerce.as_tensor(input, op="unique")
    if x.dtype == dt.bool_:
        raise TypeError("For 'Unique', a bool input is not supported")
    uniques, where = _first_appearance(x.asnumpy())
    return coerce.constant(uniques), coerce.constant(where.astype(_index_dtype(x)))


def unique_with_pad(x, pad_num):
    """``unique`` of the 1-D ``x`` with the values padded by ``pad_num`` to ``x``'s
    length."""
    x = coerce.as_tensor(x, op="unique_with_pad")
    if x.dtype not in (dt.float32, dt.int32, dt.int64):
        raise TypeError(f"For 'UniqueWithPad', the input dtype {x.dtype} is not supported")
    if x.ndim != 1:
        raise ValueError(f"For 'UniqueWithPad', the input must be 1-D, got {x.ndim}-D")
    uniques, where = _first_appearance(x.asnumpy())
    padded = np.full(x.shape, pad_num, x.dtype)
    padded[:uniques.size] = uniques
    return coerce.constant(padded), coerce.constant(where.astype(_index_dtype(x)))


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """Runs of equal consecutive elements (of the flattened input when ``dim`` is None;
    else of slices along ``dim``) collapsed to one; optionally the int64 inverse indices
    and run lengths. Reads the values."""
    x = coerce.as_tensor(input, op="unique_consecutive")
    flat = reshape(x, (-1,)) if dim is None else movedim(x, dim, 0)
    n = flat.shape[0]
    starts = np.zeros(0, np.int64)
    if n:
        changed = _ew.ne(slice_axis(flat, 0, 1, n), slice_axis(flat, 0, 0, n - 1))
        if changed.ndim > 1:
            changed = _red.any(changed, tuple(range(1, changed.ndim)))
        starts = np.concatenate([[0], np.nonzero(changed.asnumpy())[0] + 1]).astype(np.int64)
    output = gather(flat, coerce.constant(starts), 0)
    result = [output if dim is None else movedim(output, 0, dim)]
    if return_inverse:
        run = np.zeros(n, np.int64)
        run[starts[1:]] = 1
        inverse = np.cumsum(run)
        result.append(coerce.constant(inverse.reshape(x.shape) if dim is None else inverse))
    if return_counts:
        result.append(coerce.constant(np.diff(np.append(starts, n)).astype(np.int64)))
    return result[0] if len(result) == 1 else tuple(result)


def argwhere(input):
    """The int64 coordinates (one row each) of the non-zero elements."""
    x = coerce.as_tensor(input, op="argwhere")
    if x.ndim == 0:
        raise ValueError("For 'argwhere', the input must be at least 1-D")
    return nonzero(x)


def top_k(input_x, k, sorted=True):
    """(the ``k`` largest values along the last axis, their int32 indices), largest
    first; ties keep the lower index first."""
    x = coerce.as_tensor(input_x, op="top_k")
    if x.dtype == dt.bool_:
        raise TypeError("For 'TopK', a bool input is not supported")
    if x.ndim == 0:
        raise ValueError("For 'TopK', the input must be at least 1-D")
    if not 0 < int(k) <= x.shape[-1]:
        raise ValueError(f"For 'TopK', k must be in (0, {x.shape[-1]}], got {k}")
    return topk(x, int(k), -1, True, sorted)


def intopk(x1, x2, k):
    """Whether the target class ``x2[i]`` of each row of the (N, C) scores ``x1`` is among
    its ``k`` largest (ties count in; NaN ranks above numbers; a NaN target score or a
    class out of range: False)."""
    scores, targets = coerce.as_tensor(x1, op="intopk"), coerce.as_tensor(x2, op="intopk")
    if scores.dtype not in (dt.float16, dt.float32):
        raise TypeError(f"For 'InTopK', 'x1' must be float16 or float32, got {scores.dtype}")
    if targets.dtype not in (dt.int32, dt.int64):
        raise TypeError(f"For 'InTopK', 'x2' must be int32 or int64, got {targets.dtype}")
    if scores.ndim != 2 or targets.shape != (scores.shape[0],):
        raise ValueError(f"For 'InTopK', expected x1 of shape (N, C) and x2 of shape (N,), "
                         f"got {tuple(scores.shape)} and {tuple(targets.shape)}")
    valid = _ew.logical_and(_ew.ge(targets, 0), _ew.lt(targets, scores.shape[1]))
    safe = _ew.where(valid, targets, _ew.zeros_like(targets))
    target = gather_elements(scores, 1, expand_dims(safe, -1))
    # NaN scores rank above every number
    above = _red.sum(_ew.cast(_ew.logical_or(_ew.gt(scores, target), _ew.isnan(scores)),
                              dt.int32), 1)
    target = squeeze(target, 1)
    return _ew.logical_and(_ew.logical_and(valid, _ew.logical_not(_ew.isnan(target))),
                           _ew.lt(above, int(k)))


def msort(input):
    """``input`` sorted along its first axis."""
    x = coerce.as_tensor(input, op="msort")
    if x.dtype == dt.bool_:
        raise TypeError("For 'msort', a bool input is not supported")
    return sort(x, 0)[0]
