"""Average, max and LP pooling over 1, 2 or 3 spatial axes (MindSpore's ``ops.avg_pool1d``,
``avg_pool3d``, ``max_pool3d``, ``lp_pool1d``, ``lp_pool2d``), all on ``pool_windows``'
window tensor: a max or a sum over its last axis, so they differentiate and compile as
the window primitive and the reductions do.

``avg_pool`` and ``max_pool`` (any rank, 'same' padding too) are what the layers and the
operator classes call; the public functions check MindSpore's argument rules first.
"""
import math

import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
# ``ops.shape`` is a function once the package is imported: import the names
from .shape import expand_dims, squeeze
from . import pool_windows as _pw


def spatial(op, x, rank, unbatched=False):
    """``x`` as a batched (N, C, *spatial) tensor, and whether to drop the batch axis
    again (an unbatched (C, *spatial) input, where the op takes one)."""
    x = coerce.as_tensor(x, op=op)
    if x.ndim == rank + 2:
        return x, False
    if unbatched and x.ndim == rank + 1:
        return expand_dims(x, 0), True
    want = f"{rank + 1}-D or {rank + 2}-D" if unbatched else f"{rank + 2}-D"
    raise ValueError(f"{op}: expected a {want} input (N, C{', D' * (rank == 3)}"
                     f"{', H' * (rank >= 2)}, {'W' if rank > 1 else 'L'}), got shape "
                     f"{tuple(x.shape)}")


def unbatch(out, unbatched):
    if not unbatched:
        return out
    if isinstance(out, tuple):
        return tuple(squeeze(o, 0) for o in out)
    return squeeze(out, 0)


def check_float(op, x):
    if not dt.is_float(x.dtype):
        raise TypeError(f"{op}: the input must be a float16, bfloat16, float32 or float64 "
                        f"tensor, got {x.dtype}")


def _same(pad_mode, x, kernel_size, stride, dilation, op):
    """(before, after) pads for pad_mode 'same', None for 'pad' / 'valid' (checked)."""
    mode = pad_mode.lower() if isinstance(pad_mode, str) else pad_mode
    if mode not in ("same", "valid", "pad"):
        raise ValueError(f"{op}: 'pad_mode' must be 'same', 'valid' or 'pad', got {pad_mode!r}")
    if mode != "same":
        return None
    rank = x.ndim - 2
    kernel = _pw.ints(kernel_size, rank, "kernel_size", op)
    stride = kernel if stride is None else _pw.ints(stride, rank, "stride", op)
    return _pw.same_pads(tuple(x.shape[2:]), kernel, stride,
                         _pw.ints(dilation, rank, "dilation", op))


def avg_pool(x, kernel_size, stride, padding, ceil_mode=False, count_include_pad=True,
             divisor_override=None, op="avg_pool", pad_mode="pad"):
    """Average pooling of a batched (N, C, *spatial) float tensor over 1-3 axes."""
    check_float(op, x)
    sizes = tuple(x.shape[2:])
    pads = _same(pad_mode, x, kernel_size, stride, 1, op)
    g = _pw.geometry(op, sizes, kernel_size, stride, padding, 1, bool(ceil_mode), pads=pads)
    total = _red.sum(_pw.windows(x, g, 0), -1)
    if divisor_override:
        return _ew.div(total, float(divisor_override))
    counts = _pw.counts(g, sizes, bool(count_include_pad))
    if counts is None:
        return _ew.mul(total, 1.0 / g.size)
    return _ew.div(total, coerce.constant(counts.astype(x.dtype)))


def max_pool(x, kernel_size, stride, padding, dilation=1, ceil_mode=False,
             return_indices=False, op="max_pool", pad_mode="pad", index_dtype=dt.int64):
    """Max pooling of a batched (N, C, *spatial) tensor over 1-3 axes; with
    ``return_indices`` also each maximum's flat position over the input's spatial axes
    (the first maximum of a window in row-major order)."""
    if x.dtype == dt.bool_:
        raise TypeError(f"{op}: not defined for bool tensors")
    sizes = tuple(x.shape[2:])
    pads = _same(pad_mode, x, kernel_size, stride, dilation, op)
    g = _pw.geometry(op, sizes, kernel_size, stride, padding, dilation, bool(ceil_mode),
                     pads=pads)
    win = _pw.windows(x, g, _pw.lowest(x.dtype))
    values = _red.amax(win, -1)
    if not return_indices:
        return values
    index = _pw.flat_index(_pw.first_max(win, g, sizes), g, sizes)
    return values, _ew.cast(index, index_dtype)


def divisor_arg(value, op):
    if value is None or value is False or value == 0:
        return None
    if not _pw.is_int(value) or value < 0:
        raise ValueError(f"{op}: 'divisor_override' must be a non-negative int (0: none), "
                         f"got {value!r}")
    return int(value)


def avg_pool1d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True):
    """Average pooling of an (N, C, L) float tensor over windows of ``kernel_size``.

    ``stride`` (default 1), ``padding`` (zeros on both sides, at most half the kernel),
    ``ceil_mode`` (a last, partial window), ``count_include_pad`` (the padding counts in
    the divisor). float16 / bfloat16 / float32 / float64; ints and tuples of one int.

    >>> import tensorjit as ms
    >>> x = ms.Tensor([[[1., 2., 3., 4., 5.]]])
    >>> print(ms.ops.avg_pool1d(x, 2, 2))
    [[[1.5 3.5]]]
    """
    x, _ = spatial("avg_pool1d", input_x, 1)
    return avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad, None,
                    "avg_pool1d")


def avg_pool3d(input_x, kernel_size=1, stride=1, padding=0, ceil_mode=False,
               count_include_pad=True, divisor_override=0):
    """Average pooling of an (N, C, D, H, W) float tensor.

    ``kernel_size`` / ``stride``: an int or 3 ints; ``padding``: an int, 3 ints or 6
    (front, back, top, bottom, left, right), each side at most half the kernel;
    ``ceil_mode``, ``count_include_pad`` as avg_pool1d; ``divisor_override`` (0: none)
    replaces the window size as divisor. Difference from MindSpore: 3 paddings are
    accepted too.

    >>> import tensorjit as ms
    >>> x = ms.ops.ones((1, 1, 2, 2, 2))
    >>> print(ms.ops.avg_pool3d(x, 2).shape)
    (1, 1, 1, 1, 1)
    """
    x, _ = spatial("avg_pool3d", input_x, 3)
    return avg_pool(x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                    divisor_arg(divisor_override, "avg_pool3d"), "avg_pool3d")


def max_pool3d(x, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
               return_indices=False):
    """Max pooling of an (N, C, D, H, W) tensor (any dtype but bool).

    ``stride`` defaults to ``kernel_size``; ``padding`` (-inf on both sides, at most half
    the kernel) and ``dilation``: an int or 3 ints. With ``return_indices`` also the int64
    flat index over D*H*W of each maximum (the first in a tie). Gradient: tied maxima of a
    window share it evenly (PyTorch gives it all to one).

    >>> import tensorjit as ms
    >>> x = ms.ops.arange(8.).reshape(1, 1, 2, 2, 2)
    >>> out, index = ms.ops.max_pool3d(x, 2, return_indices=True)
    >>> print(out.reshape(-1), index.reshape(-1))
    [7.] [7]
    """
    x, _ = spatial("max_pool3d", x, 3)
    return max_pool(x, kernel_size, stride, padding, dilation, ceil_mode, return_indices,
                    "max_pool3d")


def lp_pool(op, x, norm_type, kernel_size, stride, ceil_mode, rank):
    """``(sum of x ** p over each window) ** (1 / p)`` on a batched input: the average of
    ``x ** p`` times the window size, as MindSpore and PyTorch compute it (a ceil_mode
    window at the edge is scaled by the full kernel size too)."""
    if isinstance(norm_type, bool) or not isinstance(norm_type, (int, float, np.number)):
        raise TypeError(f"{op}: 'norm_type' must be a float or an int, got "
                        f"{type(norm_type).__name__}")
    p = float(norm_type)
    if p == 0:
        raise ValueError(f"{op}: 'norm_type' can not be 0")
    if x.dtype == dt.bool_:
        raise TypeError(f"{op}: not defined for bool tensors")
    if not dt.is_float(x.dtype):
        x = _ew.cast(x, dt.float32)
    kernel = _pw.ints(kernel_size, rank, "kernel_size", op)
    mean = avg_pool(_ew.pow(x, p), kernel, stride, 0, ceil_mode, True, None, op)
    # sign(s) * |s| is s, with gradient 0 where s is 0 (where s ** (1/p) has none)
    total = _ew.mul(_ew.mul(_ew.sign(mean), _ew.abs(mean)), float(math.prod(kernel)))
    return _ew.pow(total, 1.0 / p)


def lp_pool1d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling of an (N, C, L) or (C, L) tensor:
    ``(sum over each window of x ** norm_type) ** (1 / norm_type)``.

    ``norm_type``: a nonzero number (1: sum pooling; large: close to max pooling);
    ``stride`` defaults to ``kernel_size``; no padding. Integer inputs give float32.
    Where ``x ** norm_type`` is NaN (a fractional power of a negative number) the result
    is NaN (MindSpore 2.10 gives 0 there); ``norm_type=inf`` follows the same formula.

    >>> import tensorjit as ms
    >>> print(ms.ops.lp_pool1d(ms.Tensor([[[3., 4., 1., 1.]]]), 2, 2))
    [[[5.        1.4142135]]]
    """
    x, unbatched = spatial("lp_pool1d", x, 1, unbatched=True)
    return unbatch(lp_pool("lp_pool1d", x, norm_type, kernel_size, stride, ceil_mode, 1),
                    unbatched)


def lp_pool2d(x, norm_type, kernel_size, stride=None, ceil_mode=False):
    """Power-average pooling of an (N, C, H, W) or (C, H, W) tensor (see ``lp_pool1d``);
    ``kernel_size`` / ``stride``: an int or 2 ints. Difference from MindSpore: an
    unbatched (C, H, W) input is accepted.

    >>> import tensorjit as ms
    >>> print(ms.ops.lp_pool2d(ms.ops.ones((1, 1, 2, 2)), 1, 2).reshape(-1))
    [4.]
    """
    x, unbatched = spatial("lp_pool2d", x, 2, unbatched=True)
    return unbatch(lp_pool("lp_pool2d", x, norm_type, kernel_size, stride, ceil_mode, 2),
                    unbatched)
