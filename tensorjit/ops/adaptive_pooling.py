"""Adaptive average / max pooling over 1, 2 or 3 spatial axes (MindSpore's
``ops.adaptive_avg_pool1d``, ``adaptive_avg_pool3d``, ``adaptive_max_pool1d``,
``adaptive_max_pool2d``, ``adaptive_max_pool3d``).

Output position ``o`` of an axis of size ``L`` pooled to ``O`` covers the input range
``[floor(o * L / O), ceil((o + 1) * L / O))`` (PyTorch's and MindSpore's windows). A window
of several axes is the product of such ranges, and a mean or a max over a product of ranges
is the mean or max along one axis after the other, so each axis is pooled on its own: a
reshape when ``O`` divides ``L``, else a gather of a constant (O, K) table of positions
(K: the longest window; shorter windows repeat their last position, which changes no max
and is weighted 0 in a mean). The positions of the maxima are carried from axis to axis.
"""
import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from .indexing import gather, gather_elements
from .pooling import spatial, check_float, unbatch
# ``ops.shape`` is a function once the package is imported: import the names
from .shape import reshape


def output_sizes(op, output_size, sizes):
    """``output_size`` (an int, or one int or None per axis: None keeps the input size)
    as a tuple of ints."""
    rank = len(sizes)
    if isinstance(output_size, (int, np.integer)) and not isinstance(output_size, bool):
        output_size = (output_size,) * rank
    if not isinstance(output_size, (tuple, list)) or len(output_size) not in (1, rank):
        raise TypeError(f"{op}: 'output_size' must be an int or a tuple of {rank} ints (or "
                        f"None), got {output_size!r}")
    output_size = tuple(output_size) * (rank if len(output_size) == 1 else 1)
    out = []
    for size, o in zip(sizes, output_size):
        if o is None:
            out.append(int(size))
            continue
        if isinstance(o, bool) or not isinstance(o, (int, np.integer)):
            raise TypeError(f"{op}: 'output_size' must hold ints or None, got {output_size!r}")
        if o < 1:
            raise ValueError(f"{op}: 'output_size' must be positive, got {output_size!r}")
        out.append(int(o))
    return tuple(out)


def _table(size, out):
    """(O, K) input positions of each output's window, and each window's length."""
    o = np.arange(out)
    starts, ends = (o * size) // out, -((-(o + 1) * size) // out)
    k = int((ends - starts).max())
    table = np.minimum(starts[:, None] + np.arange(k), ends[:, None] - 1)
    return table.astype(np.int64), ends - starts


def _axis_windows(x, axis, out):
    """(..., O, K, ...) windows along ``axis``, and the table (None: regular windows)."""
    size = x.shape[axis]
    if size % out == 0:
        shape = tuple(x.shape)
        return reshape(x, shape[:axis] + (out, size // out) + shape[axis + 1:]), None
    table, _ = _table(size, out)
    return gather(x, coerce.constant(table), axis), table


def _mean_along(x, axis, out):
    win, table = _axis_windows(x, axis, out)
    if table is None:
        return _red.mean(win, axis + 1)
    _, lengths = _table(x.shape[axis], out)
    trailing = (1,) * (x.ndim - axis - 1)
    # the repeated positions drop out by a select, not a 0 weight (inf * 0 is NaN)
    own = (np.arange(table.shape[1]) < lengths[:, None]).reshape(table.shape + trailing)
    total = _red.sum(_ew.where(coerce.constant(own), win, _ew.zeros_like(win)), axis + 1)
    return _ew.div(total, coerce.constant(lengths.reshape((out,) + trailing).astype(x.dtype)))


def _max_along(x, axis, out, carried, inner):
    """The max along ``axis`` and, when ``carried`` is not False, the flat index of each
    maximum: its position along ``axis`` times ``inner`` plus the index carried from the
    later axes (None at the last one)."""
    win, table = _axis_windows(x, axis, out)
    values = _red.amax(win, axis + 1)
    if carried is False:
        return values, False
    k = _red.argmax(win, axis + 1)
    k_len = win.shape[axis + 1]
    starts = np.arange(out, dtype=np.int64).reshape((out,) + (1,) * (x.ndim - axis - 1))
    at = _ew.add(coerce.constant(starts * k_len), k)         # o * K + k
    pos = at if table is None else gather(coerce.constant(table.reshape(-1)), at, 0)
    index = _ew.mul(pos, inner)
    if carried is not None:
        index = _ew.add(gather_elements(carried, axis, pos), index)
    return values, index


def adaptive_pool(op, x, output_size, rank, how, return_indices=False, unbatched=False,
                  index_dtype=dt.int64):
    """Adaptive mean (``how='avg'``) or max pooling of the last ``rank`` axes."""
    x, drop = spatial(op, x, rank, unbatched)
    sizes = tuple(x.shape[2:])
    out = output_sizes(op, output_size, sizes)
    if how == "avg":
        check_float(op, x)
        for d in range(rank):
            if out[d] != sizes[d]:
                x = _mean_along(x, 2 + d, out[d])
        return unbatch(x, drop)
    if x.dtype == dt.bool_:
        raise TypeError(f"{op}: not defined for bool tensors")
    index = None if return_indices else False
    for d in reversed(range(rank)):     # the last axis first: ties keep row-major order
        inner = int(np.prod(sizes[d + 1:], dtype=np.int64))
        x, index = _max_along(x, 2 + d, out[d], index, inner)
    if not return_indices:
        return unbatch(x, drop)
    return unbatch((x, _ew.cast(index, index_dtype)), drop)


def adaptive_avg_pool1d(input, output_size):
    """Average an (N, C, L) float tensor down (or up) to ``output_size`` positions: output
    ``o`` averages input positions ``floor(o * L / out)`` to ``ceil((o + 1) * L / out) - 1``.

    Difference from MindSpore: L need not be a multiple of ``output_size`` (MindSpore
    2.10 refuses it; the windows are PyTorch's), float64 and bfloat16 are accepted.

    >>> import tensorjit as ms
    >>> print(ms.ops.adaptive_avg_pool1d(ms.Tensor([[[1., 2., 3., 4.]]]), 2))
    [[[1.5 3.5]]]
    """
    return adaptive_pool("adaptive_avg_pool1d", input, output_size, 1, "avg")


def adaptive_avg_pool3d(input, output_size):
    """Average an (N, C, D, H, W) or (C, D, H, W) float tensor to ``output_size`` (an int
    or 3 ints / None: None keeps that size); windows as in ``adaptive_avg_pool1d``.

    >>> import tensorjit as ms
    >>> print(ms.ops.adaptive_avg_pool3d(ms.ops.ones((1, 2, 4, 4, 4)), (2, None, 1)).shape)
    (1, 2, 2, 4, 1)
    """
    return adaptive_pool("adaptive_avg_pool3d", input, output_size, 3, "avg",
                         unbatched=True)


def adaptive_max_pool1d(input, output_size):
    """The max over each of ``output_size`` windows of an (N, C, L) tensor (windows as in
    ``adaptive_avg_pool1d``); any dtype but bool.

    Difference from MindSpore: L need not be a multiple of ``output_size`` and every
    non-bool dtype is accepted (MindSpore 2.10: float16 / float32).

    >>> import tensorjit as ms
    >>> print(ms.ops.adaptive_max_pool1d(ms.Tensor([[[1., 5., 3., 4.]]]), 2))
    [[[5. 4.]]]
    """
    return adaptive_pool("adaptive_max_pool1d", input, output_size, 1, "max")


def adaptive_max_pool2d(input, output_size, return_indices=False):
    """Adaptive max pooling of an (N, C, H, W) or (C, H, W) tensor to ``output_size`` (an
    int or 2 ints / None); with ``return_indices`` also the int64 flat index over H*W of
    each maximum (the first in row-major order in a tie). Any dtype but bool (MindSpore
    2.10's CPU kernel takes floats only).

    >>> import tensorjit as ms
    >>> x = ms.ops.arange(16.).reshape(1, 1, 4, 4)
    >>> out, index = ms.ops.adaptive_max_pool2d(x, 2, True)
    >>> print(out.reshape(-1), index.reshape(-1))
    [ 5.  7. 13. 15.] [ 5  7 13 15]
    """
    return adaptive_pool("adaptive_max_pool2d", input, output_size, 2, "max",
                         bool(return_indices), unbatched=True)


def adaptive_max_pool3d(input, output_size, return_indices=False):
    """Adaptive max pooling of an (N, C, D, H, W) or (C, D, H, W) tensor to
    ``output_size`` (an int or 3 ints / None); with ``return_indices`` also the flat index
    over D*H*W of each maximum, int32 as MindSpore 2.10 returns it.

    >>> import tensorjit as ms
    >>> x = ms.ops.arange(8.).reshape(1, 1, 2, 2, 2)
    >>> out, index = ms.ops.adaptive_max_pool3d(x, 1, True)
    >>> print(out.reshape(-1), index.reshape(-1), index.dtype)
    [7.] [7] int32
    """
    return adaptive_pool("adaptive_max_pool3d", input, output_size, 3, "max",
                         bool(return_indices), unbatched=True, index_dtype=dt.int32)
