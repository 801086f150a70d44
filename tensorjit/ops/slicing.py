"""Slices and their scatters, selections along an axis, reversal, and the
space <-> batch rearrangements: MindSpore's functions, composed of ``getitem`` /
``setitem_value`` / gathers / reshapes, so each differentiates and compiles as those do."""
import builtins

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from .creation import arange
from .indexing import getitem, setitem_value, gather, gather_elements, nonzero
from .shape import reshape, transpose, broadcast_to, flip, pad


def slice_tensor(input_x, begin, size):
    """``input_x[begin[i] : begin[i] + size[i]]`` on every axis (size -1: to the end)."""
    x = coerce.as_tensor(input_x, op="slice")
    begin, size = coerce.as_shape(begin, "slice"), coerce.as_shape(size, "slice")
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise ValueError(f"For 'Slice', 'begin' {begin} and 'size' {size} must have one entry "
                         f"per axis of the input {tuple(x.shape)}")
    for b, s, n in zip(begin, size, x.shape):
        if b < 0 or s < -1 or (s != -1 and b + s > n):
            raise ValueError(f"For 'Slice', begin {begin} and size {size} do not fit the input "
                             f"shape {tuple(x.shape)}")
    return getitem(x, tuple(builtins.slice(b, None if s == -1 else b + s)
                            for b, s in zip(begin, size)))


def narrow(input, axis, start, length):
    """``length`` elements of ``input`` along ``axis`` from ``start``."""
    x = coerce.as_tensor(input, op="narrow")
    axis = coerce.normalize_axis(axis, x.ndim, "narrow")
    n = x.shape[axis]
    if not 0 <= start < builtins.max(n, 1) or not 0 <= length <= n - start:
        raise ValueError(f"For 'narrow', start {start} and length {length} do not fit axis "
                         f"{axis} of length {n}")
    return getitem(x, (builtins.slice(None),) * axis + (builtins.slice(start, start + length),))


def _bit(mask, i):
    return (mask >> i) & 1


def strided_slice(input_x, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0):
    """``input_x[begin:end:strides]`` per axis, TensorFlow's masks (bit i concerns entry
    i): begin / end ignored, an ellipsis, a new axis, or the axis indexed by ``begin[i]``
    and removed."""
    x = coerce.as_tensor(input_x, op="strided_slice")
    begin, end, strides = (coerce.as_shape(v, "strided_slice") for v in (begin, end, strides))
    if not len(begin) == len(end) == len(strides):
        raise ValueError(f"For 'StridedSlice', 'begin', 'end' and 'strides' must have the same "
                         f"length, got {begin}, {end}, {strides}")
    if 0 in strides:
        raise ValueError("For 'StridedSlice', 'strides' cannot contain 0")
    index = []
    for i, (b, e, s) in enumerate(zip(begin, end, strides)):
        if _bit(ellipsis_mask, i):
            index.append(Ellipsis)
        elif _bit(new_axis_mask, i):
            index.append(None)
        elif _bit(shrink_axis_mask, i):
            index.append(b)
        else:
            index.append(builtins.slice(None if _bit(begin_mask, i) else b,
                                        None if _bit(end_mask, i) else e, s))
    return getitem(x, tuple(index))


def _same_dtype(op, x, src):
    if src.dtype != x.dtype:
        raise TypeError(f"For '{op}', 'src' ({src.dtype}) must have the dtype of 'input' "
                        f"({x.dtype})")


def select_scatter(input, src, axis, index):
    """``input`` with its slice at ``index`` along ``axis`` replaced by ``src``."""
    x, src = coerce.as_tensor(input, op="select_scatter"), coerce.as_tensor(src)
    _same_dtype("select_scatter", x, src)
    axis = coerce.normalize_axis(axis, x.ndim, "select_scatter")
    n = x.shape[axis]
    if not -n <= index < n:
        raise ValueError(f"For 'select_scatter', index {index} is out of range for axis "
                         f"{axis} of length {n}")
    want = tuple(x.shape[:axis]) + tuple(x.shape[axis + 1:])
    if tuple(src.shape) != want:
        raise ValueError(f"For 'select_scatter', 'src' must have shape {want}, got "
                         f"{tuple(src.shape)}")
    return setitem_value(x, (builtins.slice(None),) * axis + (index % n,), src)


def slice_scatter(input, src, axis=0, start=None, end=None, step=1):
    """``input`` with its slice ``start:end:step`` along ``axis`` replaced by ``src``."""
    x, src = coerce.as_tensor(input, op="slice_scatter"), coerce.as_tensor(src)
    _same_dtype("slice_scatter", x, src)
    axis = coerce.normalize_axis(axis, x.ndim, "slice_scatter")
    index = (builtins.slice(None),) * axis + (builtins.slice(start, end, step),)
    want = np.empty(x.shape, np.int8)[index].shape
    if tuple(src.shape) != want:
        raise ValueError(f"For 'slice_scatter', 'src' must have the slice's shape {want}, got "
                         f"{tuple(src.shape)}")
    return setitem_value(x, index, src)


def reverse(x, axis):
    """``x`` with the axes in ``axis`` reversed (MindSpore's ReverseV2)."""
    x = coerce.as_tensor(x, op="reverse")
    axes = [coerce.normalize_axis(a, x.ndim, "reverse") for a in axis]
    if len(set(axes)) != len(axes):
        raise ValueError(f"For 'ReverseV2', 'axis' cannot repeat an axis, got {axis!r}")
    return flip(x, tuple(axes))


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """For each example ``b`` along ``batch_dim``, its first ``seq_lengths[b]`` elements
    along ``seq_dim`` reversed (the rest kept)."""
    x = coerce.as_tensor(x, op="reverse_sequence")
    lengths = coerce.as_tensor(seq_lengths, op="reverse_sequence")
    if lengths.dtype not in (dt.int32, dt.int64):
        raise TypeError(f"For 'ReverseSequence', 'seq_lengths' must be int32 or int64, got "
                        f"{lengths.dtype}")
    seq = coerce.normalize_axis(seq_dim, x.ndim, "reverse_sequence")
    batch = coerce.normalize_axis(batch_dim, x.ndim, "reverse_sequence")
    if seq == batch or lengths.shape != (x.shape[batch],):
        raise ValueError(f"For 'ReverseSequence', 'seq_dim' and 'batch_dim' must differ and "
                         f"'seq_lengths' must have shape ({x.shape[batch]},), got "
                         f"{tuple(lengths.shape)}")
    steps = arange(x.shape[seq], dtype=dt.int64)                   # (T,)
    limit = reshape(_ew.cast(lengths, dt.int64), (-1, 1))          # (B, 1)
    source = _ew.where(_ew.less(steps, limit), _ew.sub(_ew.sub(limit, 1), steps), steps)
    shape = [1] * x.ndim
    shape[batch], shape[seq] = x.shape[batch], x.shape[seq]
    if batch > seq:
        source = transpose(source, (1, 0))
    source = broadcast_to(reshape(source, tuple(shape)), tuple(x.shape))
    return gather_elements(x, seq, source)


def index_select(input, axis, index):
    """The entries of ``input`` at the 1-D integer ``index`` along ``axis``."""
    x, index = coerce.as_tensor(input, op="index_select"), coerce.as_tensor(index)
    if not dt.is_int(index.dtype):
        raise TypeError(f"For 'index_select', 'index' must be an integer tensor, got "
                        f"{index.dtype}")
    if index.ndim != 1:
        raise ValueError(f"For 'index_select', 'index' must be 1-D, got {index.ndim}-D")
    return gather(x, index, axis)


def index_fill(x, axis, index, value):
    """``x`` with the entries at the int32 ``index`` along ``axis`` set to ``value`` (a
    number or a 0-d tensor)."""
    x = coerce.as_tensor(x, op="index_fill")
    index = coerce.as_tensor(index, op="index_fill")
    if x.dtype == dt.bool_:
        raise TypeError("For 'IndexFill', a bool input is not supported")
    if index.dtype != dt.int32 or index.ndim > 1:
        raise TypeError(f"For 'IndexFill', 'index' must be a 0-d or 1-D int32 tensor, got "
                        f"{index.ndim}-D {index.dtype}")
    if isinstance(value, Tensor) and value.ndim != 0:
        raise ValueError(f"For 'IndexFill', 'value' must be 0-d, got shape {tuple(value.shape)}")
    axis = coerce.normalize_axis(axis, x.ndim, "index_fill")
    n = x.shape[axis]
    # negative indices count from the end; out-of-range ones choose nothing
    index = reshape(index, (-1, 1))
    positions = arange(n, dtype=dt.int32)
    chosen = _red.any(_ew.logical_or(_ew.equal(index, positions),
                                     _ew.equal(_ew.add(index, n), positions)), 0)   # (n,)
    shape = [1] * x.ndim
    shape[axis] = n
    value = _ew.cast(coerce.as_tensor(value), x.dtype)
    return _ew.where(reshape(chosen, tuple(shape)), value, x)


def masked_select(input, mask):
    """The 1-D tensor of ``input``'s elements where the bool ``mask`` holds (broadcast
    together). Its length depends on the mask's values, which are read (as ``nonzero``)."""
    x, mask = coerce.as_tensor(input, op="masked_select"), coerce.as_tensor(mask)
    if mask.dtype != dt.bool_:
        raise TypeError(f"For 'MaskedSelect', 'mask' must be bool, got {mask.dtype}")
    shape = np.broadcast_shapes(tuple(x.shape), tuple(mask.shape))
    flat = reshape(broadcast_to(x, shape), (-1,))
    where = nonzero(reshape(broadcast_to(mask, shape), (-1,)), as_tuple=True)[0]
    return gather(flat, where, 0)


def take(input, index):
    """The elements of the flattened ``input`` at ``index`` (the result has its shape)."""
    return gather(reshape(coerce.as_tensor(input, op="take"), (-1,)), index, 0)


# ---- space <-> batch (NCHW: the last len(block) axes are the spatial ones) --------------

def _blocks(block, m_default, op):
    block = (block,) * m_default if isinstance(block, (int, np.integer)) else tuple(block)
    if not block or any(b < 1 for b in block):
        raise ValueError(f"For '{op}', block sizes must be at least 1, got {block!r}")
    return tuple(int(b) for b in block)


def _pairs(pairs, m, op):
    pairs = [[int(v) for v in p] for p in (pairs.tolist() if isinstance(pairs, Tensor) else pairs)]
    if len(pairs) != m or any(len(p) != 2 or min(p) < 0 for p in pairs):
        raise ValueError(f"For '{op}', expected {m} pairs of non-negative ints, got {pairs!r}")
    return pairs


def space_to_batch_nd(input_x, block_size, paddings):
    """Zero-pad the spatial axes, cut them into ``block_size`` blocks and move each offset
    within a block into the batch: (N, C, H, W) -> (N * bh * bw, C, H' / bh, W' / bw)."""
    op = "SpaceToBatchND"
    x = coerce.as_tensor(input_x, op=op)
    block = _blocks(block_size, 2, op)
    m = len(block)
    pads = _pairs(paddings, m, op)
    if x.ndim < m + 1:
        raise ValueError(f"For '{op}', the input needs at least {m + 1} axes, got {x.ndim}")
    x = pad(x, tuple(v for p in reversed(pads) for v in p)) if any(map(any, pads)) else x
    lead, spatial = tuple(x.shape[:-m]), tuple(x.shape[-m:])
    if any(s % b for s, b in zip(spatial, block)):
        raise ValueError(f"For '{op}', the padded spatial shape {spatial} must be divisible "
                         f"by the block {block}")
    split = lead + sum(((s // b, b) for s, b in zip(spatial, block)), ())
    x = reshape(x, split)
    k = len(lead)
    offsets = tuple(k + 2 * i + 1 for i in range(m))
    outer = tuple(k + 2 * i for i in range(m))
    x = transpose(x, offsets + tuple(range(k)) + outer)
    return reshape(x, (int(np.prod(block)) * lead[0],) + lead[1:] +
                   tuple(s // b for s, b in zip(spatial, block)))


def batch_to_space_nd(input_x, block_shape, crops):
    """The inverse of ``space_to_batch_nd``: batch blocks back into the spatial axes, then
    ``crops`` cut from their starts and ends."""
    op = "BatchToSpaceND"
    x = coerce.as_tensor(input_x, op=op)
    block = _blocks(block_shape, 2, op)
    m = len(block)
    cut = _pairs(crops, m, op)
    count = int(np.prod(block))
    if x.ndim < m + 1 or x.shape[0] % count:
        raise ValueError(f"For '{op}', the batch {x.shape[0]} must be divisible by the block "
                         f"{block}")
    lead, spatial = tuple(x.shape[1:-m]), tuple(x.shape[-m:])
    n = x.shape[0] // count
    x = reshape(x, block + (n,) + lead + spatial)
    k = 1 + len(lead)                     # the batch and channel axes of an example
    order = tuple(range(m, m + k)) + sum(((m + k + i, i) for i in range(m)), ())
    x = reshape(transpose(x, order), (n,) + lead + tuple(s * b for s, b in zip(spatial, block)))
    index = (builtins.slice(None),) * k + tuple(
        builtins.slice(a, x.shape[k + i] - b) for i, (a, b) in enumerate(cut))
    return getitem(x, index)
