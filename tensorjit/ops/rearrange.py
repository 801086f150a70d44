"""Ops that rearrange elements of image tensors with a reshape and a transpose (pixel
shuffle and unshuffle, channel shuffle) or a broadcast (repeat_elements). Any dtype;
gradients are those of the reshapes and transposes."""
import operator

from .. import dtype as dt
from ..tensor import Tensor
from .shape import reshape, transpose, repeat_interleave

__all__ = ["pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "repeat_elements"]


def _positive_int(value, name, op):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{op}: '{name}' must be an int, got {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{op}: '{name}' must be an int > 0, got {value}")
    return value


def _tensor(x, op, min_rank, exc=ValueError):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: 'input' must be a Tensor, got {type(x).__name__}")
    if x.ndim < min_rank:
        raise exc(f"{op}: the input must have at least {min_rank} dimensions, got "
                  f"{x.ndim}")
    return x


def pixel_shuffle(input, upscale_factor):
    """Move channel blocks into space: (*, C * r * r, H, W) -> (*, C, H * r, W * r)
    (MindSpore's ``ops.pixel_shuffle``; ``r``: ``upscale_factor``, a positive int).

    >>> import tensorjit as ms
    >>> print(ms.ops.pixel_shuffle(ms.ops.arange(4).reshape(1, 4, 1, 1), 2).shape)
    (1, 1, 2, 2)
    """
    r = _positive_int(upscale_factor, "upscale_factor", "pixel_shuffle")
    x = _tensor(input, "pixel_shuffle", 3)
    *lead, c, h, w = x.shape
    if c % (r * r):
        raise ValueError(f"pixel_shuffle: the channel axis ({c}) is not divisible by "
                         f"upscale_factor squared ({r * r})")
    n = len(lead)
    blocks = reshape(x, tuple(lead) + (c // (r * r), r, r, h, w))
    # (..., c, r_h, r_w, h, w) -> (..., c, h, r_h, w, r_w)
    moved = transpose(blocks, tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))
    return reshape(moved, tuple(lead) + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    """Move space blocks into channels: (*, C, H * r, W * r) -> (*, C * r * r, H, W), the
    inverse of :func:`pixel_shuffle` (MindSpore's ``ops.pixel_unshuffle``).

    >>> import tensorjit as ms
    >>> print(ms.ops.pixel_unshuffle(ms.ops.ones((1, 1, 4, 4)), 2).shape)
    (1, 4, 2, 2)
    """
    r = _positive_int(downscale_factor, "downscale_factor", "pixel_unshuffle")
    x = _tensor(input, "pixel_unshuffle", 3)
    *lead, c, h, w = x.shape
    if h % r or w % r:
        raise ValueError(f"pixel_unshuffle: the last two axes ({h}, {w}) must be divisible "
                         f"by downscale_factor {r}")
    n = len(lead)
    blocks = reshape(x, tuple(lead) + (c, h // r, r, w // r, r))
    # (..., c, h, r_h, w, r_w) -> (..., c, r_h, r_w, h, w)
    moved = transpose(blocks, tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3))
    return reshape(moved, tuple(lead) + (c * r * r, h // r, w // r))


def channel_shuffle(x, groups):
    """Interleave the channel groups of an (N, C, ...) tensor: channel ``g * (C / groups)
    + i`` moves to ``i * groups + g`` (MindSpore's ``ops.channel_shuffle``; at least 4-D,
    as MindSpore: a TypeError otherwise).

    >>> import tensorjit as ms
    >>> y = ms.ops.channel_shuffle(ms.ops.arange(4.).reshape(1, 4, 1, 1), 2)
    >>> print(y.reshape(-1))
    [0. 2. 1. 3.]
    """
    g = _positive_int(groups, "groups", "channel_shuffle")
    x = _tensor(x, "channel_shuffle", 4, exc=TypeError)
    n, c, *rest = x.shape
    if c % g:
        raise ValueError(f"channel_shuffle: the number of channels ({c}) must be divisible "
                         f"by groups ({g})")
    grouped = reshape(x, (n, g, c // g) + tuple(rest))
    moved = transpose(grouped, (0, 2, 1) + tuple(range(3, x.ndim + 1)))
    return reshape(moved, tuple(x.shape))


def repeat_elements(x, rep, axis=0):
    """Repeat each element ``rep`` times along ``axis`` (MindSpore's
    ``ops.repeat_elements``: numbers only, ``rep`` > 0, rank <= 7).

    >>> import tensorjit as ms
    >>> print(ms.ops.repeat_elements(ms.Tensor([[1, 2]]), 2, axis=1))
    [[1 1 2 2]]
    """
    if not isinstance(x, Tensor):
        raise TypeError(f"repeat_elements: 'x' must be a Tensor, got {type(x).__name__}")
    if x.dtype == dt.bool_:
        raise TypeError("repeat_elements: the input must be a number tensor, got Bool")
    rep = _positive_int(rep, "rep", "repeat_elements")
    axis = operator.index(axis)
    if not 1 <= x.ndim <= 7:
        raise ValueError(f"repeat_elements: the input's rank must be in [1, 7], got {x.ndim}")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"repeat_elements: 'axis' must be in [{-x.ndim}, {x.ndim}), got {axis}")
    return repeat_interleave(x, rep, axis)
