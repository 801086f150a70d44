"""Resizing and rearranging layers: ``nn.Upsample`` (``ops.interpolate``),
``nn.PixelShuffle``, ``nn.PixelUnshuffle`` and ``nn.ChannelShuffle``."""
from ... import ops
from ..cell import Cell
from .. import _checks

__all__ = ["Upsample", "PixelShuffle", "PixelUnshuffle", "ChannelShuffle"]


class Upsample(Cell):
    """Resize the spatial axes of an (N, C, [D, [H,]] W) tensor (MindSpore's
    ``nn.Upsample``): ``ops.interpolate`` with these arguments.

    Args:
        size (int or tuple of ints): the output's spatial size; or
        scale_factor (float or tuple of floats): its ratio to the input's (exactly one).
        mode (str): "nearest" (default), "nearest-exact", "linear", "bilinear",
            "bicubic", "trilinear" or "area".
        align_corners (bool): linear modes and bicubic only. Default None (False).
        recompute_scale_factor (bool): resize to the size computed from scale_factor.

    Difference from MindSpore: ``scale_factor`` works with every mode (MindSpore 2.10's
    interpolate refuses it for 3-D / 4-D inputs in most modes).

    >>> import tensorjit as ms
    >>> up = ms.nn.Upsample(scale_factor=2.0, mode="bilinear")
    >>> print(up(ms.ops.ones((1, 3, 4, 4))).shape)
    (1, 3, 8, 8)
    """

    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=None,
                 recompute_scale_factor=None):
        super().__init__()
        self.size = size
        self.scale_factor = scale_factor
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def construct(self, x):
        return ops.interpolate(x, self.size, self.scale_factor, self.mode,
                               self.align_corners, self.recompute_scale_factor)


class PixelShuffle(Cell):
    """(*, C * r * r, H, W) -> (*, C, H * r, W * r) (MindSpore's ``nn.PixelShuffle``;
    ``upscale_factor`` r a positive int; see ``ops.pixel_shuffle``).

    >>> import tensorjit as ms
    >>> print(ms.nn.PixelShuffle(2)(ms.ops.ones((1, 8, 3, 3))).shape)
    (1, 2, 6, 6)
    """

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = _checks.positive_int(upscale_factor, "upscale_factor",
                                                   "PixelShuffle")

    def construct(self, input):
        return ops.pixel_shuffle(input, self.upscale_factor)


class PixelUnshuffle(Cell):
    """(*, C, H * r, W * r) -> (*, C * r * r, H, W) (MindSpore's ``nn.PixelUnshuffle``;
    ``downscale_factor`` r a positive int; see ``ops.pixel_unshuffle``).

    >>> import tensorjit as ms
    >>> print(ms.nn.PixelUnshuffle(2)(ms.ops.ones((1, 2, 6, 6))).shape)
    (1, 8, 3, 3)
    """

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = _checks.positive_int(downscale_factor, "downscale_factor",
                                                     "PixelUnshuffle")

    def construct(self, input):
        return ops.pixel_unshuffle(input, self.downscale_factor)


class ChannelShuffle(Cell):
    """Interleave ``groups`` channel groups of an (N, C, ...) tensor, at least 4-D
    (MindSpore's ``nn.ChannelShuffle``; see ``ops.channel_shuffle``).

    >>> import tensorjit as ms
    >>> y = ms.nn.ChannelShuffle(2)(ms.ops.arange(4.).reshape(1, 4, 1, 1))
    >>> print(y.reshape(-1))
    [0. 2. 1. 3.]
    """

    def __init__(self, groups):
        super().__init__()
        self.groups = _checks.positive_int(groups, "groups", "ChannelShuffle")

    def construct(self, x):
        return ops.channel_shuffle(x, self.groups)
