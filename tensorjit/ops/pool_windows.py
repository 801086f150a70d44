"""The window mechanism every pooling of ``pooling.py`` runs on, for 1, 2 or 3 spatial axes.

* ``geometry(...)``: MindSpore's / PyTorch's pooling arguments (kernel, stride, padding,
  dilation, ceil_mode) checked and resolved into a ``Geometry``: per spatial axis the
  kernel, stride, dilation, output size and the (before, after) padding, ``after`` holding
  the extra right padding ``ceil_mode`` needs for its last, partial window.
* ``windows(x, g, pad_value)``: the (N, C, *out, K) tensor of every window's K = prod(kernel)
  elements in row-major kernel order, built on conv.py's window primitive ``unfold`` (a
  strided view whose gradient is its transpose ``fold``): a 1-D input is a height-1 image;
  a 3-D input is one 2-D unfold per kernel depth over the strided depth planes folded into
  the batch (as conv3d folds them).
* ``counts(...)``: how many elements each window averages over (a constant: only shapes
  decide it).
* ``flat_index(k, g, sizes)``: the flat input position (over the spatial axes) of window
  element ``k``, the index ``return_indices`` gives.
"""
import math
from dataclasses import dataclass

import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
# ``ops.shape`` is a function once the package is imported: import the names
from .shape import expand_dims, movedim, pad_p, reshape, slice_axis, stack
from .conv import unfold_p


@dataclass(frozen=True)
class Geometry:
    kernel: tuple
    stride: tuple
    dilation: tuple
    pads: tuple          # (before, after) per spatial axis, ``after`` with ceil_mode's extra
    user_pads: tuple     # (before, after) as the caller asked, without the extra
    out: tuple

    @property
    def size(self):
        return math.prod(self.kernel)


def is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def ints(value, rank, name, op, allowed=None):
    """An int or a tuple / list of ints (1 or ``rank`` of them, or any count in
    ``allowed``) as a tuple of ``rank`` ints (or of the given count)."""
    if is_int(value):
        return (int(value),) * rank
    if isinstance(value, (tuple, list)) and all(map(is_int, value)):
        counts = allowed or (1, rank)
        if len(value) in counts:
            value = tuple(int(v) for v in value)
            return value * rank if len(value) == 1 else value
    raise TypeError(f"{op}: '{name}' must be an int or a tuple of {rank} ints, got {value!r}")


def same_pads(sizes, kernel, stride, dilation=None):
    """MindSpore's 'same': output ceil(size / stride), the odd padding element after."""
    dilation = dilation or (1,) * len(sizes)
    pads = []
    for size, k, s, d in zip(sizes, kernel, stride, dilation):
        total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


def geometry(op, sizes, kernel_size, stride, padding, dilation=1, ceil_mode=False,
             pads=None, check_half=True):
    """Check and resolve pooling arguments for an input of spatial ``sizes``.

    ``padding``: an int, one per axis, or (before, after) per axis (2 * rank ints);
    ``pads`` ((before, after) per axis) replaces it when given ('same' padding).
    ``check_half``: padding at most half the kernel (MindSpore and PyTorch), so that no
    window lies wholly in the padding."""
    rank = len(sizes)
    kernel = ints(kernel_size, rank, "kernel_size", op)
    stride = kernel if stride is None else ints(stride, rank, "stride", op)
    dilation = ints(dilation, rank, "dilation", op)
    for name, values in (("kernel_size", kernel), ("stride", stride), ("dilation", dilation)):
        if any(v < 1 for v in values):
            raise ValueError(f"{op}: '{name}' must be positive, got {values}")
    if pads is None:
        flat = ints(padding, rank, "padding", op, allowed=(1, rank, 2 * rank))
        if any(p < 0 for p in flat):
            raise ValueError(f"{op}: 'padding' must be non-negative, got {padding!r}")
        pads = tuple((flat[i], flat[i]) for i in range(rank)) if len(flat) == rank else \
            tuple((flat[2 * i], flat[2 * i + 1]) for i in range(rank))
        if check_half and any(b + a > k for (b, a), k in zip(pads, kernel)):
            raise ValueError(f"{op}: the padding on each side must be at most half the "
                             f"kernel size, got padding {padding!r} for kernel {kernel}")
    out, full = [], []
    for size, k, s, d, (before, after) in zip(sizes, kernel, stride, dilation, pads):
        span = size + before + after - d * (k - 1) - 1
        if span < 0:
            raise ValueError(f"{op}: the kernel {kernel} (dilation {dilation}) is larger "
                             f"than the padded input {tuple(sizes)} (padding {pads})")
        n = span // s + 1
        if ceil_mode:
            n = -(-span // s) + 1
            if (n - 1) * s >= size + before:    # the last window must start in the input
                n -= 1
        extra = max((n - 1) * s + d * (k - 1) + 1 - (size + before + after), 0)
        out.append(n)
        full.append((before, after + extra))
    return Geometry(kernel, stride, dilation, tuple(full), tuple(pads), tuple(out))


def lowest(dtype):
    """The padding value max pooling never picks."""
    if dt.is_float(dtype):
        return -np.inf
    if dtype == dt.bool_:
        return False
    return int(np.iinfo(dtype).min)


def _unfold2d(x, kernel, stride, pads, dilation, pad_value):
    (top, bottom), (left, right) = pads
    return unfold_p.bind(x, kernel=tuple(kernel), stride=tuple(stride),
                         padding=(top, bottom, left, right), dilation=tuple(dilation),
                         pad_value=pad_value)


def windows(x, g, pad_value=0):
    """(N, C, *out, K): every window's elements, ``pad_value`` where it covers padding."""
    rank = len(g.kernel)
    n, c = x.shape[0], x.shape[1]
    if rank == 1:
        win = _unfold2d(expand_dims(x, 2), (1,) + g.kernel, (1,) + g.stride,
                        ((0, 0),) + g.pads, (1,) + g.dilation, pad_value)
        return reshape(win, (n, c) + g.out + (g.size,))
    if rank == 2:
        win = _unfold2d(x, g.kernel, g.stride, g.pads, g.dilation, pad_value)
        return reshape(win, (n, c) + g.out + (g.size,))
    if rank != 3:
        raise ValueError(f"pooling: 1, 2 or 3 spatial axes, got {rank}")
    before, after = g.pads[0]
    if before or after:
        x = pad_p.bind(x, pads=((0, 0), (0, 0), (before, after), (0, 0), (0, 0)),
                              value=pad_value)
    kd, sd, dd = g.kernel[0], g.stride[0], g.dilation[0]
    od = g.out[0]
    plane = tuple(x.shape[3:])
    parts = []
    for i in range(kd):
        planes = slice_axis(x, 2, i * dd, i * dd + sd * (od - 1) + 1, sd)
        batch = reshape(movedim(planes, 2, 1), (n * od, c) + plane)
        win = _unfold2d(batch, g.kernel[1:], g.stride[1:], g.pads[1:], g.dilation[1:],
                        pad_value)
        parts.append(reshape(win, (n, od, c) + g.out[1:] + (g.size // kd,)))
    win = stack(parts, -2) if kd > 1 else expand_dims(parts[0], -2)
    win = reshape(win, (n, od, c) + g.out[1:] + (g.size,))
    return movedim(win, 1, 2)


def _axis_counts(size, k, s, out, before, after, include_pad):
    """How many elements each window along one axis averages over (PyTorch's and
    MindSpore's rule: the padding counts when ``include_pad``, ceil_mode's extra never)."""
    low, high = (-before, size + after) if include_pad else (0, size)
    starts = np.arange(out) * s - before
    return np.minimum(starts + k, high) - np.maximum(starts, low)


def counts(g, sizes, include_pad):
    """(*out) window element counts of an average (no dilation), or None when every window
    counts the whole kernel."""
    per_axis = [_axis_counts(size, k, s, o, b, a, include_pad)
                for size, k, s, o, (b, a) in zip(sizes, g.kernel, g.stride, g.out, g.user_pads)]
    total = per_axis[0]
    for c in per_axis[1:]:
        total = np.multiply.outer(total, c)
    return None if np.all(total == g.size) else total


def inside(g, sizes):
    """(*out, K) bool: which window elements lie in the input (not in its padding), or
    None when all do."""
    rank = len(sizes)
    per_axis = []
    for size, k, s, d, o, (before, _) in zip(sizes, g.kernel, g.stride, g.dilation, g.out,
                                             g.pads):
        at = np.arange(o)[:, None] * s - before + np.arange(k)[None, :] * d
        per_axis.append((at >= 0) & (at < size))
    if all(m.all() for m in per_axis):
        return None
    total = per_axis[0]
    for m in per_axis[1:]:
        total = np.multiply.outer(total, m)      # (o1, k1, o2, k2, ...)
    order = tuple(range(0, 2 * rank, 2)) + tuple(range(1, 2 * rank, 2))
    return total.transpose(order).reshape(g.out + (g.size,))


def first_max(win, g, sizes):
    """The row-major position in each window of its first maximum that lies in the input
    (a NaN counts as the maximum): padding equal to the maximum (-inf, an integer
    dtype's minimum) is never chosen."""
    mask = inside(g, sizes)
    if mask is None:
        return _red.argmax(win, -1)
    top = _red.amax(win, -1, keepdims=True)
    hit = _ew.equal(win, top)
    if dt.is_float(win.dtype):
        hit = _ew.logical_or(hit, _ew.isnan(win))
    hit = _ew.logical_and(hit, coerce.constant(mask))
    return _red.argmax(_ew.cast(hit, dt.int32), -1)


def flat_index(k, g, sizes):
    """The flat position over the spatial axes of the input (row-major) of each window's
    element ``k`` (an int64 tensor (N, C, *out) of row-major kernel offsets)."""
    rank = len(g.kernel)
    index = None
    for d in range(rank):
        inner_k = math.prod(g.kernel[d + 1:])
        offset = _ew.floor_mod(_ew.floor_div(k, inner_k), g.kernel[d]) if rank > 1 else k
        starts = np.arange(g.out[d], dtype=np.int64) * g.stride[d] - g.pads[d][0]
        starts = starts.reshape((g.out[d],) + (1,) * (rank - 1 - d))
        coord = _ew.add(_ew.mul(offset, g.dilation[d]), coerce.constant(starts))
        term = _ew.mul(coord, math.prod(sizes[d + 1:]))
        index = term if index is None else _ew.add(index, term)
    return index
