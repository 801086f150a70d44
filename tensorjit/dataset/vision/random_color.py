"""Random colour operations (MindSpore's ``dataset.vision``): each draws its parameters
from the op's seeded stream, then applies the deterministic op of ``color``."""
import numbers

import numpy as np

from ..transforms import RandomOp
from . import color

__all__ = ["RandomColorAdjust", "RandomEqualize", "RandomAutoContrast", "RandomInvert",
           "RandomPosterize", "RandomSolarize", "RandomSharpness"]


def check_prob(prob, who):
    return float(color.check_number(prob, "prob", 0, 1, who))


def factor_range(value, name, who, center=1.0, bound=None):
    """A number ``v`` gives [max(0, center - v), center + v] (hue: [-v, v]); a pair is
    [min, max]."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"{who}: the input value of {name} cannot be negative, got {value}")
        if bound is not None and value > bound:
            raise ValueError(f"{who}: input {name} is not within the required interval of "
                             f"[0, {bound}], got {value}")
        low, high = (max(0.0, center - value) if center else -value), center + value
    elif isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in value):
        low, high = value
        floor = -bound if bound is not None else 0
        ceiling = bound if bound is not None else 16777216
        if not floor <= low <= high <= ceiling:
            raise ValueError(f"{who}: {name} must be in order of (min, max) within "
                             f"[{floor}, {ceiling}], got {value!r}")
    else:
        raise TypeError(f"{who}: {name} must be a number or a sequence of two numbers, got "
                        f"{value!r}")
    return float(low), float(high)


class RandomColorAdjust(RandomOp):
    """Brightness, contrast, saturation and hue each by a factor drawn uniformly from its
    range, in that order; a range holding only the identity is skipped."""

    def __init__(self, brightness=(1, 1), contrast=(1, 1), saturation=(1, 1), hue=(0, 0)):
        super().__init__()
        who = "RandomColorAdjust"
        self.brightness = factor_range(brightness, "brightness", who)
        self.contrast = factor_range(contrast, "contrast", who)
        self.saturation = factor_range(saturation, "saturation", who)
        self.hue = factor_range(hue, "hue", who, center=0.0, bound=0.5)

    def _draw(self, low, high):
        return low + (high - low) * self._uniform()

    def __call__(self, image):
        image = color.rgb_image(image, "RandomColorAdjust")
        steps = ((self.brightness, 1.0, color.adjust_brightness),
                 (self.contrast, 1.0, color.adjust_contrast),
                 (self.saturation, 1.0, color.adjust_saturation),
                 (self.hue, 0.0, color.adjust_hue))
        for (low, high), identity, adjust in steps:
            if low == high == identity:
                continue
            image = adjust(image, self._draw(low, high))
        return image


class _RandomApplied(RandomOp):
    """Applies ``self.op`` with probability ``prob``."""

    def __init__(self, op, prob):
        super().__init__()
        self.op, self.prob = op, check_prob(prob, type(self).__name__)

    def __call__(self, image):
        return self.op(image) if self._uniform() < self.prob else np.asarray(image)


class RandomEqualize(_RandomApplied):
    def __init__(self, prob=0.5):
        super().__init__(color.Equalize(), prob)


class RandomAutoContrast(_RandomApplied):
    def __init__(self, cutoff=0.0, ignore=None, prob=0.5):
        super().__init__(color.AutoContrast(cutoff, ignore), prob)


class RandomInvert(_RandomApplied):
    def __init__(self, prob=0.5):
        super().__init__(color.Invert(), prob)


class RandomPosterize(RandomOp):
    """Posterize to a number of bits drawn from [min, max]."""

    def __init__(self, bits=(8, 8)):
        super().__init__()
        who = "RandomPosterize"
        if isinstance(bits, numbers.Integral) and not isinstance(bits, bool):
            bits = (bits, bits)
        if not isinstance(bits, (list, tuple)) or len(bits) != 2:
            raise TypeError(f"{who}: bits must be an int or a sequence of two ints, got {bits!r}")
        for b in bits:
            color.check_number(b, "bits", 1, 8, who, integer=True)
        if bits[0] > bits[1]:
            raise ValueError(f"{who}: bits must be in order of (min, max), got {bits!r}")
        self.bits = (int(bits[0]), int(bits[1]))

    def __call__(self, image):
        low, high = self.bits
        return color.Posterize(low + self._integer(high - low + 1))(image)


class RandomSolarize(RandomOp):
    """Solarize with a threshold interval whose ends are drawn from ``threshold``."""

    def __init__(self, threshold=(0, 255)):
        super().__init__()
        who = "RandomSolarize"
        if not isinstance(threshold, (list, tuple)) or len(threshold) != 2:
            raise TypeError(f"{who}: threshold must be a sequence of two numbers, got "
                            f"{threshold!r}")
        self.threshold = color._threshold_pair(threshold, who)

    def __call__(self, image):
        low, high = (int(t) for t in self.threshold)
        first = low + self._integer(high - low + 1)
        second = low + self._integer(high - low + 1)
        return color.Solarize((min(first, second), max(first, second)))(image)


class RandomSharpness(RandomOp):
    """AdjustSharpness by a factor drawn uniformly from ``degrees`` = (min, max)."""

    def __init__(self, degrees=(0.1, 1.9)):
        super().__init__()
        if not isinstance(degrees, (list, tuple)):
            raise TypeError(f"RandomSharpness: degrees must be either a tuple or a list, got "
                            f"{degrees!r}")
        self.degrees = factor_range(degrees, "degrees", "RandomSharpness")

    def __call__(self, image):
        low, high = self.degrees
        return color.AdjustSharpness(low + (high - low) * self._uniform())(image)
