"""Policy augmentations (MindSpore's ``dataset.vision``): AutoAugment with the ImageNet,
CIFAR-10 and SVHN policies of Cubuk et al. (2019), RandAugment, TrivialAugmentWide and
RandomSelectSubpolicy. Each named step maps to the same deterministic op MindSpore's
``ApplyAugment`` runs, with MindSpore's magnitude tables. Like MindSpore, a translation
step scales its pixel magnitude by the image size again (Affine takes fractions), so any
translation of a pixel or more moves the image out of the frame."""
import enum
import math
import numbers

import numpy as np

from ..transforms import RandomOp
from . import color, geometry
from .transforms import Inter

__all__ = ["AutoAugmentPolicy", "AutoAugment", "RandAugment", "TrivialAugmentWide",
           "RandomSelectSubpolicy"]


class AutoAugmentPolicy(str, enum.Enum):
    IMAGENET = "imagenet"
    CIFAR10 = "cifar10"
    SVHN = "svhn"


def _pairs(text):
    """'Op prob magnitude, Op prob magnitude; ...' -> [((op, p, m), (op, p, m)), ...];
    magnitude -1: the op takes none."""
    policy = []
    for sub in text.split(";"):
        steps = []
        for step in sub.split(","):
            name, prob, magnitude = step.split()
            steps.append((name, float(prob), int(magnitude)))
        policy.append(tuple(steps))
    return policy


_POLICIES = {
    AutoAugmentPolicy.IMAGENET: _pairs(
        "Posterize .4 8, Rotate .6 9; Solarize .6 5, AutoContrast .6 -1;"
        "Equalize .8 -1, Equalize .6 -1; Posterize .6 7, Posterize .6 6;"
        "Equalize .4 -1, Solarize .2 4; Equalize .4 -1, Rotate .8 8;"
        "Solarize .6 3, Equalize .6 -1; Posterize .8 5, Equalize 1 -1;"
        "Rotate .2 3, Solarize .6 8; Equalize .6 -1, Posterize .4 6;"
        "Rotate .8 8, Color .4 0; Rotate .4 9, Equalize .6 -1;"
        "Equalize 0 -1, Equalize .8 -1; Invert .6 -1, Equalize 1 -1;"
        "Color .6 4, Contrast 1 8; Rotate .8 8, Color 1 2;"
        "Color .8 8, Solarize .8 7; Sharpness .4 7, Invert .6 -1;"
        "ShearX .6 5, Equalize 1 -1; Color .4 0, Equalize .6 -1;"
        "Equalize .4 -1, Solarize .2 4; Solarize .6 5, AutoContrast .6 -1;"
        "Invert .6 -1, Equalize 1 -1; Color .6 4, Contrast 1 8;"
        "Equalize .8 -1, Equalize .6 -1"),
    AutoAugmentPolicy.CIFAR10: _pairs(
        "Invert .1 -1, Contrast .2 6; Rotate .7 2, TranslateX .3 9;"
        "Sharpness .8 1, Sharpness .9 3; ShearY .5 8, TranslateY .7 9;"
        "AutoContrast .5 -1, Equalize .9 -1; ShearY .2 7, Posterize .3 7;"
        "Color .4 3, Brightness .6 7; Sharpness .3 9, Brightness .7 9;"
        "Equalize .6 -1, Equalize .5 -1; Contrast .6 7, Sharpness .6 5;"
        "Color .7 7, TranslateX .5 8; Equalize .3 -1, AutoContrast .4 -1;"
        "TranslateY .4 3, Sharpness .2 6; Brightness .9 6, Color .2 8;"
        "Solarize .5 2, Invert 0 -1; Equalize .2 -1, AutoContrast .6 -1;"
        "Equalize .2 -1, Equalize .6 -1; Color .9 9, Equalize .6 -1;"
        "AutoContrast .8 -1, Solarize .2 8; Brightness .1 3, Color .7 0;"
        "Solarize .4 5, AutoContrast .9 -1; TranslateY .9 9, TranslateY .7 9;"
        "AutoContrast .9 -1, Solarize .8 3; Equalize .8 -1, Invert .1 -1;"
        "TranslateY .7 9, AutoContrast .9 -1"),
    AutoAugmentPolicy.SVHN: _pairs(
        "ShearX .9 4, Invert .2 -1; ShearY .9 8, Invert .7 -1;"
        "Equalize .6 -1, Solarize .6 6; Invert .9 -1, Equalize .6 -1;"
        "Equalize .6 -1, Rotate .9 3; ShearX .9 4, AutoContrast .8 -1;"
        "ShearY .9 8, Invert .4 -1; ShearY .9 5, Solarize .2 6;"
        "Invert .9 -1, AutoContrast .8 -1; Equalize .6 -1, Rotate .9 3;"
        "ShearX .9 4, Solarize .3 3; ShearY .8 8, Invert .7 -1;"
        "Equalize .9 -1, TranslateY .6 6; Invert .9 -1, Equalize .6 -1;"
        "Contrast .3 3, Rotate .8 4; Invert .8 -1, TranslateY 0 2;"
        "ShearY .7 6, Solarize .4 8; Invert .6 -1, Rotate .8 4;"
        "ShearY .3 7, TranslateX .9 3; ShearX .1 6, Invert .6 -1;"
        "Solarize .7 2, TranslateY .6 7; ShearY .8 4, Invert .8 -1;"
        "ShearX .7 9, TranslateY .8 3; ShearY .8 5, AutoContrast .7 -1;"
        "ShearX .7 2, Invert .1 -1"),
}


def _round_half_even(value):
    return float(np.rint(np.float32(value)))


def linspace(start, end, n, scale=1.0, offset=0.0, rounded=False):
    """MindSpore's float32 linspace of magnitudes (``(start + i * step) * scale + offset``)."""
    f32 = np.float32
    step = f32(0) if n == 1 else (f32(end) - f32(start)) / f32(n - 1)
    values = [(f32(start) + f32(i) * step) * f32(scale) + f32(offset) for i in range(n)]
    return [_round_half_even(v) if rounded else float(v) for v in values]


def magnitude_space(bins, height, width, wide=False, solarize_start=255.0):
    """Each step's magnitudes (None: it takes none) and whether a magnitude takes a random
    sign; the wide space is TrivialAugmentWide's."""
    top = 0.99 if wide else 0.9
    return {
        "AutoContrast": (None, False), "Equalize": (None, False), "Identity": (None, False),
        "Brightness": (linspace(0, top, bins), True), "Color": (linspace(0, top, bins), True),
        "Contrast": (linspace(0, top, bins), True), "Sharpness": (linspace(0, top, bins), True),
        "Posterize": (linspace(0, bins - 1, bins, -(6.0 if wide else 4.0) / (bins - 1), 8, True),
                      False),
        "Rotate": (linspace(0, 135.0 if wide else 30.0, bins), True),
        "ShearX": (linspace(0, 0.99 if wide else 0.3, bins), True),
        "ShearY": (linspace(0, 0.99 if wide else 0.3, bins), True),
        "Solarize": (linspace(solarize_start, 0, bins), False),
        "TranslateX": (linspace(0, 32.0 if wide else float(np.float32(150.0 / 331) * width),
                                bins), True),
        "TranslateY": (linspace(0, 32.0 if wide else float(np.float32(150.0 / 331) * height),
                                bins), True),
    }


def apply_augment(image, name, magnitude, interpolation, fill):
    """One named step with its magnitude, as MindSpore's ApplyAugment runs it."""
    if name in ("ShearX", "ShearY"):
        shear = magnitude * 180 / math.pi
        shear_pair = (shear, 0.0) if name == "ShearX" else (0.0, shear)
        return geometry.affine(image, 0.0, (0.0, 0.0), 1.0, shear_pair, interpolation, fill)
    if name in ("TranslateX", "TranslateY"):
        h, w = image.shape[:2]
        pixels = float(int(magnitude))
        shift = (pixels * w, 0.0) if name == "TranslateX" else (0.0, pixels * h)
        return geometry.affine(image, 0.0, shift, 1.0, (0.0, 0.0), interpolation, fill)
    if name == "Rotate":
        return geometry.rotate(image, magnitude, interpolation, False, None, fill)
    simple = {"Brightness": lambda: color.adjust_brightness(image, 1 + magnitude),
              "Color": lambda: color.adjust_saturation(image, 1 + magnitude),
              "Contrast": lambda: color.adjust_contrast(image, 1 + magnitude),
              "Sharpness": lambda: color.adjust_sharpness(image, 1 + magnitude),
              "Posterize": lambda: image & np.uint8((0xFF << (8 - int(magnitude))) & 0xFF),
              "Solarize": lambda: np.where(image >= magnitude, 255 - image, image)
              .astype(image.dtype),
              "AutoContrast": lambda: color.AutoContrast()(image),
              "Equalize": lambda: color.Equalize()(image),
              "Invert": lambda: color.Invert()(image),
              "Identity": lambda: image}
    return simple[name]()


def _interpolation(interpolation, who):
    if not isinstance(interpolation, Inter):
        raise TypeError(f"{who}: interpolation must be of type Inter, got "
                        f"{type(interpolation).__name__}")
    if interpolation not in (Inter.NEAREST, Inter.BILINEAR):
        raise NotImplementedError(f"{who}: interpolation {interpolation} is not supported "
                                  f"(NEAREST and BILINEAR are)")
    return interpolation


def _rgb(image, who):
    image = np.asarray(image)
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise RuntimeError(f"{who}: expected a uint8 image of shape <H,W,3>, got "
                           f"{image.dtype} {image.shape}")
    return image


class AutoAugment(RandomOp):
    """A sub-policy drawn uniformly from ``policy``; each of its two steps runs with its
    probability, a signed step with a random sign."""

    def __init__(self, policy=AutoAugmentPolicy.IMAGENET, interpolation=Inter.NEAREST,
                 fill_value=0):
        super().__init__()
        who = "AutoAugment"
        if not isinstance(policy, AutoAugmentPolicy):
            raise TypeError(f"{who}: policy must be of type AutoAugmentPolicy, got "
                            f"{type(policy).__name__}")
        self.policy, self.interpolation = policy, _interpolation(interpolation, who)
        self.fill_value = geometry.fill_triple(fill_value, who)

    def __call__(self, image):
        image = _rgb(image, "AutoAugment")
        subpolicies = _POLICIES[self.policy]
        steps = subpolicies[self._integer(len(subpolicies))]
        probs = [self._uniform(), self._uniform()]
        signs = [self._integer(2), self._integer(2)]
        space = magnitude_space(10, *image.shape[:2], solarize_start=256.0)
        for (name, prob, level), draw, sign in zip(steps, probs, signs):
            if draw > prob:
                continue
            magnitudes, signed = space.get(name, (None, False))        # Invert takes none
            magnitude = magnitudes[level] if magnitudes is not None and level != -1 else 0.0
            if signed and sign == 0:
                magnitude = -magnitude
            image = apply_augment(image, name, magnitude, self.interpolation, self.fill_value)
        return image


def _int_in(value, name, low, high, who, high_open=False):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{who}: argument {name} with value {value!r} is not of type int")
    return int(color.check_number(value, name, low, high, who, integer=True,
                                  high_open=high_open))


def _shared_rotate_fill(fill):
    """MindSpore's shared ApplyAugment hands Rotate the fill as (r, b, g)."""
    return (fill[0], fill[2], fill[1])


class RandAugment(RandomOp):
    """``num_ops`` steps drawn uniformly (with replacement) from the 14 named steps, each at
    bin ``magnitude`` of ``num_magnitude_bins``, signed steps with a random sign."""

    def __init__(self, num_ops=2, magnitude=9, num_magnitude_bins=31,
                 interpolation=Inter.NEAREST, fill_value=0):
        super().__init__()
        who = "RandAugment"
        self.num_ops = _int_in(num_ops, "num_ops", 0, 16777216, who)
        self.num_magnitude_bins = _int_in(num_magnitude_bins, "num_magnitude_bins", 2, 16777216,
                                          who)
        self.magnitude = _int_in(magnitude, "magnitude", 0, self.num_magnitude_bins, who,
                                 high_open=True)
        self.interpolation = _interpolation(interpolation, who)
        self.fill_value = geometry.fill_triple(fill_value, who)

    def __call__(self, image):
        image = _rgb(image, "RandAugment")
        space = magnitude_space(self.num_magnitude_bins, *image.shape[:2])
        names = sorted(space)                 # MindSpore's std::map order
        for _ in range(self.num_ops):
            name = names[self._integer(len(names))]
            magnitudes, signed = space[name]
            magnitude = magnitudes[self.magnitude] if magnitudes is not None else 0.0
            if signed and self._integer(2):
                magnitude = -magnitude
            fill = _shared_rotate_fill(self.fill_value) if name == "Rotate" else self.fill_value
            image = apply_augment(image, name, magnitude, self.interpolation, fill)
        return image


class TrivialAugmentWide(RandomOp):
    """One step drawn uniformly from the wide space, at a uniformly drawn magnitude bin."""

    def __init__(self, num_magnitude_bins=31, interpolation=Inter.NEAREST, fill_value=0):
        super().__init__()
        who = "TrivialAugmentWide"
        self.num_magnitude_bins = _int_in(num_magnitude_bins, "num_magnitude_bins", 2, 16777216,
                                          who)
        self.interpolation = _interpolation(interpolation, who)
        self.fill_value = geometry.fill_triple(fill_value, who)

    def __call__(self, image):
        image = _rgb(image, "TrivialAugmentWide")
        space = magnitude_space(self.num_magnitude_bins, *image.shape[:2], wide=True)
        names = sorted(space)
        name = names[self._integer(len(names))]
        magnitudes, signed = space[name]
        magnitude = magnitudes[self._integer(len(magnitudes))] if magnitudes is not None \
            else 0.0
        if signed and self._integer(2):
            magnitude = -magnitude
        fill = _shared_rotate_fill(self.fill_value) if name == "Rotate" else self.fill_value
        return apply_augment(image, name, magnitude, self.interpolation, fill)


class RandomSelectSubpolicy(RandomOp):
    """``policy``: a list of sub-policies, each a list of (operation, probability); one
    sub-policy is drawn uniformly and its operations run in order, each with its
    probability."""

    def __init__(self, policy):
        super().__init__()
        who = "RandomSelectSubpolicy"
        if not isinstance(policy, list):
            raise TypeError(f"{who}: policy must be a list of sub-policies, got "
                            f"{type(policy).__name__}")
        if not policy:
            raise ValueError(f"{who}: policy can not be empty.")
        for i, sub in enumerate(policy):
            if not isinstance(sub, list) or not sub:
                raise ValueError(f"{who}: policy[{i}] must be a non-empty list of (op, prob)")
            for j, step in enumerate(sub):
                if not isinstance(step, tuple) or len(step) != 2:
                    raise TypeError(f"{who}: policy[{i}][{j}] must be a tuple (op, prob), got "
                                    f"{step!r}")
                op, prob = step
                if not callable(op):
                    raise TypeError(f"{who}: op of (op, prob) policy[{i}][{j}] is not callable")
                color.check_number(prob, f"prob of (op, prob) policy[{i}][{j}]", 0, 1, who)
        self.policy = [[(op, float(prob)) for op, prob in sub] for sub in policy]

    def __call__(self, *values):
        sub = self.policy[self._integer(len(self.policy))]
        for op, prob in sub:
            if self._uniform() < prob:
                result = op(*values)
                values = result if isinstance(result, tuple) else (result,)
        return values if len(values) > 1 else values[0]
