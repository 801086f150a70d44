"""Geometric operations (MindSpore's ``dataset.vision``): Pad, Rotate, Affine and their
random forms, RandomResizedCrop and RandomErasing. Rotate and Affine build MindSpore's
matrices and warp as OpenCV does (``warp``), so 8-bit results equal MindSpore's."""
import math
import numbers

import numpy as np

from ..transforms import RandomOp
from . import warp
from .color import check_number
from .transforms import Border, Inter, _image, _pad, _resize, _size_pair

__all__ = ["Pad", "Rotate", "Affine", "RandomRotation", "RandomAffine", "RandomResizedCrop",
           "RandomErasing"]


def _is_number(value):
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def fill_triple(fill_value, who):
    if isinstance(fill_value, numbers.Integral) and not isinstance(fill_value, bool):
        fill_value = (fill_value,) * 3
    if not isinstance(fill_value, (tuple, list)) or len(fill_value) != 3 or not all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in fill_value):
        raise TypeError(f"{who}: fill_value must be an int or a tuple of three ints, got "
                        f"{fill_value!r}")
    for v in fill_value:
        check_number(v, "fill_value", 0, 255, who, integer=True)
    return tuple(int(v) for v in fill_value)


def _resample(resample, who):
    if not isinstance(resample, Inter):
        raise TypeError(f"{who}: resample must be of type Inter, got {type(resample).__name__}")
    if resample not in (Inter.NEAREST, Inter.BILINEAR):
        raise NotImplementedError(f"{who}: interpolation {resample} is not supported "
                                  f"(NEAREST and BILINEAR are)")
    return resample


def _fill_for(image, fill):
    channels = image.shape[2] if image.ndim == 3 else 1
    return fill if channels == 3 else fill[:1] * channels


class Pad:
    """Pad the sides: ``padding`` an int (all sides), (left/right, top/bottom) or (left,
    top, right, bottom); ``fill_value`` for Border.CONSTANT."""

    def __init__(self, padding, fill_value=0, padding_mode=Border.CONSTANT):
        who = "Pad"
        if isinstance(padding, numbers.Integral) and not isinstance(padding, bool):
            padding = (padding,) * 4
        elif isinstance(padding, (tuple, list)) and len(padding) == 2:
            padding = (padding[0], padding[1], padding[0], padding[1])
        if not isinstance(padding, (tuple, list)) or len(padding) != 4 or not all(
                isinstance(p, numbers.Integral) and not isinstance(p, bool) for p in padding):
            raise TypeError(f"{who}: padding must be an int or a sequence of 2 or 4 ints, got "
                            f"{padding!r}")
        for p in padding:
            check_number(p, "padding", 0, 2 ** 31 - 1, who, integer=True)
        if not isinstance(padding_mode, Border):
            raise TypeError(f"{who}: padding_mode must be of type Border, got "
                            f"{type(padding_mode).__name__}")
        self.padding = tuple(int(p) for p in padding)
        self.fill_value, self.padding_mode = fill_triple(fill_value, who), padding_mode

    def __call__(self, image):
        image = _image(image, "Pad")
        left, top, right, bottom = self.padding
        if self.padding_mode != Border.CONSTANT:
            return _pad(image, top, bottom, left, right, self.padding_mode, 0)
        fill = np.asarray(_fill_for(image, self.fill_value), image.dtype)
        out = np.empty((image.shape[0] + top + bottom, image.shape[1] + left + right)
                       + image.shape[2:], image.dtype)
        out[...] = fill if image.ndim == 3 else fill[0]
        out[top:top + image.shape[0], left:left + image.shape[1]] = image
        return out


def rotate(image, degrees, resample, expand, center, fill):
    """MindSpore's Rotate: counter-clockwise by ``degrees`` about ``center`` (default the
    middle of the image, ((W-1)/2, (H-1)/2))."""
    h, w = image.shape[:2]
    center = ((w - 1) / 2.0, (h - 1) / 2.0) if center is None else center
    matrix = warp.rotation_matrix(center, degrees)
    size = (h, w)
    if expand:
        box_w, box_h = warp.rotated_bounds(center, w, h, degrees)
        matrix[0, 2] += box_w / 2.0 - w / 2.0
        matrix[1, 2] += box_h / 2.0 - h / 2.0
        size = (int(np.rint(box_h)), int(np.rint(box_w)))
    # MindSpore hands OpenCV the fill colour as (b, g, r): an RGB image gets it reversed
    return warp.warp_affine(image, matrix, size, resample == Inter.NEAREST,
                            _fill_for(image, tuple(fill)[::-1]))


def affine_matrix(height, width, degrees, translate, scale, shear):
    """MindSpore's affine matrix ``T * C * RSS * C^-1`` (float32 entries; translate in
    pixels, shear in degrees, the centre at ((W-1)/2, (H-1)/2))."""
    f32 = np.float32
    angle = float(f32(math.radians(f32(degrees))))
    shear_x = float(f32(math.radians(f32(shear[0]))))
    shear_y = float(f32(math.radians(-f32(shear[1]))))
    cx, cy = f32((width - 1) / 2.0), f32((height - 1) / 2.0)
    cos_y = math.cos(shear_y)
    m0 = f32(scale * math.cos(angle + shear_y) / cos_y)
    m1 = f32(scale * (-math.cos(angle + shear_y) * math.tan(shear_x) / cos_y - math.sin(angle)))
    m3 = f32(scale * math.sin(angle + shear_y) / cos_y)
    m4 = f32(scale * (-math.sin(angle + shear_y) * math.tan(shear_x) / cos_y + math.cos(angle)))
    m2 = (f32(1) - m0) * cx - m1 * cy + f32(translate[0])
    m5 = (f32(1) - m4) * cy - m3 * cx + f32(translate[1])
    return np.array([[m0, m1, m2], [m3, m4, m5]], np.float64)


def affine(image, degrees, translate, scale, shear, resample, fill):
    h, w = image.shape[:2]
    matrix = affine_matrix(h, w, degrees, translate, scale, shear)
    return warp.warp_affine(image, matrix, (h, w), resample == Inter.NEAREST,
                            _fill_for(image, fill))


def _center(center, who):
    if center is None:
        return None
    if not isinstance(center, (tuple, list)) or len(center) != 2 or not all(
            _is_number(c) for c in center):
        raise TypeError(f"{who}: center must be a tuple of two numbers, got {center!r}")
    return tuple(float(c) for c in center)


class Rotate:
    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        who = "Rotate"
        if not _is_number(degrees):
            raise TypeError(f"{who}: degrees must be an int or float, got {degrees!r}")
        if not isinstance(expand, bool):
            raise TypeError(f"{who}: expand must be a bool, got {expand!r}")
        self.degrees, self.resample = float(degrees), _resample(resample, who)
        self.expand, self.center = expand, _center(center, who)
        self.fill_value = fill_triple(fill_value, who)

    def __call__(self, image):
        return rotate(_image(image, "Rotate"), self.degrees, self.resample, self.expand,
                      self.center, self.fill_value)


def _shear_pair(shear, who):
    if _is_number(shear):
        return float(shear), 0.0
    if isinstance(shear, (tuple, list)) and len(shear) == 2 and all(_is_number(s) for s in shear):
        return float(shear[0]), float(shear[1])
    raise TypeError(f"{who}: shear must be a number or a sequence of two numbers, got {shear!r}")


class Affine:
    """Rotate clockwise by ``degrees``, translate by fractions of the size, scale, shear
    (degrees), about the image centre."""

    def __init__(self, degrees, translate, scale, shear, resample=Inter.NEAREST, fill_value=0):
        who = "Affine"
        if not _is_number(degrees):
            raise TypeError(f"{who}: degrees must be an int or float, got {degrees!r}")
        check_number(degrees, "degrees", -180, 180, who)
        if not isinstance(translate, (tuple, list)) or len(translate) != 2 or not all(
                _is_number(t) for t in translate):
            raise TypeError(f"{who}: translate must be a sequence of two numbers, got "
                            f"{translate!r}")
        for k, t in enumerate(translate):
            check_number(t, f"translate[{k}]", -1.0, 1.0, who)
        if not _is_number(scale):
            raise TypeError(f"{who}: scale must be a number, got {scale!r}")
        if scale <= 0:
            raise ValueError(f"{who}: input scale must be greater than 0, got {scale}")
        self.degrees, self.translate = float(degrees), tuple(float(t) for t in translate)
        self.scale, self.shear = float(scale), _shear_pair(shear, who)
        for s in self.shear:
            check_number(s, "shear", -180, 180, who)
        self.resample, self.fill_value = _resample(resample, who), fill_triple(fill_value, who)

    def __call__(self, image):
        image = _image(image, "Affine")
        h, w = image.shape[:2]
        pixels = (self.translate[0] * w, self.translate[1] * h)
        return affine(image, self.degrees, pixels, self.scale, self.shear, self.resample,
                      self.fill_value)


def _range(value, name, who, symmetric=True):
    if _is_number(value):
        if value < 0:
            raise ValueError(f"{who}: input {name} is not within the required interval of "
                             f"[0, 16777216], got {value}")
        return (-float(value), float(value)) if symmetric else (float(value),) * 2
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(_is_number(v) for v in value):
        if value[0] > value[1]:
            raise ValueError(f"{who}: {name} should be in (min, max) format, got {value!r}")
        return float(value[0]), float(value[1])
    raise TypeError(f"{who}: {name} must be a number or a sequence of two numbers, got "
                    f"{value!r}")


class RandomRotation(RandomOp):
    """Rotate by an angle drawn uniformly from [-degrees, degrees] (or [min, max])."""

    def __init__(self, degrees, resample=Inter.NEAREST, expand=False, center=None,
                 fill_value=0):
        super().__init__()
        who = "RandomRotation"
        self.degrees = _range(degrees, "degrees", who)
        if not isinstance(expand, bool):
            raise TypeError(f"{who}: expand must be a bool, got {expand!r}")
        self.resample, self.expand = _resample(resample, who), expand
        self.center, self.fill_value = _center(center, who), fill_triple(fill_value, who)

    def __call__(self, image):
        low, high = self.degrees
        angle = low + (high - low) * self._uniform()
        return rotate(_image(image, "RandomRotation"), angle, self.resample, self.expand,
                      self.center, self.fill_value)


class RandomAffine(RandomOp):
    """Affine with parameters drawn uniformly: degrees, translate (fractions: (min_x,
    max_x) or (min_x, max_x, min_y, max_y)), scale (min, max), shear (x range and y range)."""

    def __init__(self, degrees, translate=None, scale=None, shear=None, resample=Inter.NEAREST,
                 fill_value=0):
        super().__init__()
        who = "RandomAffine"
        self.degrees = _range(degrees, "degrees", who)
        translate = (0.0, 0.0, 0.0, 0.0) if translate is None else translate
        if not isinstance(translate, (tuple, list)) or len(translate) not in (2, 4) or not all(
                _is_number(t) for t in translate):
            raise TypeError(f"{who}: translate should be a list or tuple of length 2 or 4, got "
                            f"{translate!r}")
        for k, t in enumerate(translate):
            check_number(t, f"translate at {k}", -1.0, 1.0, who)
        self.translate = tuple(translate) + (0.0, 0.0) * (len(translate) == 2)
        scale = (1.0, 1.0) if scale is None else scale
        if not isinstance(scale, (tuple, list)) or len(scale) != 2:
            raise TypeError(f"{who}: scale should be a list or tuple of length 2, got {scale!r}")
        if scale[0] > scale[1] or scale[0] < 0 or scale[1] <= 0:
            raise ValueError(f"{who}: scale must be (min, max) with 0 <= min <= max, max > 0, "
                             f"got {scale!r}")
        self.scale = tuple(float(s) for s in scale)
        if shear is None:
            shear = (0.0, 0.0, 0.0, 0.0)
        elif _is_number(shear):
            if shear <= 0:
                raise ValueError(f"{who}: input shear must be greater than 0, got {shear}")
            shear = (-shear, shear, 0.0, 0.0)
        elif isinstance(shear, (tuple, list)) and len(shear) in (2, 4):
            if shear[0] > shear[1] or (len(shear) == 4 and shear[2] > shear[3]):
                raise ValueError(f"{who}: shear ranges must be in (min, max) order, got "
                                 f"{shear!r}")
            shear = tuple(shear) + (0.0, 0.0) * (len(shear) == 2)
        else:
            raise TypeError(f"{who}: shear must be a number or a sequence of 2 or 4 numbers, "
                            f"got {shear!r}")
        self.shear = tuple(float(s) for s in shear)
        self.resample, self.fill_value = _resample(resample, who), fill_triple(fill_value, who)

    def _draw(self, low, high):
        return low + (high - low) * self._uniform()

    def parameters(self, height, width):
        """The drawn (degrees, translate in pixels, scale, shear)."""
        t, s = self.translate, self.shear
        return (self._draw(*self.degrees),
                (self._draw(t[0], t[1]) * width, self._draw(t[2], t[3]) * height),
                self._draw(*self.scale),
                (self._draw(s[0], s[1]), self._draw(s[2], s[3])))

    def __call__(self, image):
        image = _image(image, "RandomAffine")
        degrees, translate, scale, shear = self.parameters(*image.shape[:2])
        return affine(image, degrees, translate, scale, shear, self.resample, self.fill_value)


def _pair(value, name, who, positive=False):
    if not isinstance(value, (tuple, list)) or len(value) != 2 or not all(
            _is_number(v) for v in value):
        raise TypeError(f"{who}: {name} must be a sequence of two numbers, got {value!r}")
    if value[0] > value[1] or value[0] < 0 or (positive and value[0] <= 0):
        raise ValueError(f"{who}: {name} should be in (min, max) format with min "
                         f"{'> 0' if positive else '>= 0'}, got {value!r}")
    return float(value[0]), float(value[1])


class RandomResizedCrop(RandomOp):
    """Crop a region of random area (``scale`` of the image) and aspect ratio (``ratio``,
    drawn on a log scale), then resize it to ``size``; after ``max_attempts`` failures, the
    centre crop clamped to ``ratio``."""

    def __init__(self, size, scale=(0.08, 1.0), ratio=(3. / 4., 4. / 3.),
                 interpolation=Inter.BILINEAR, max_attempts=10):
        super().__init__()
        who = "RandomResizedCrop"
        self.size = _size_pair(size, who)
        self.scale = _pair(scale, "scale", who)
        self.ratio = _pair(ratio, "ratio", who, positive=True)
        if not isinstance(interpolation, Inter):
            raise TypeError(f"{who}: interpolation must be of type Inter")
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, numbers.Integral) \
                or max_attempts <= 0:
            raise ValueError(f"{who}: max_attempts must be a positive int, got {max_attempts!r}")
        self.interpolation, self.max_attempts = interpolation, int(max_attempts)

    def crop_box(self, height, width):
        """(top, left, crop height, crop width) of the region drawn for an image."""
        log_low, log_high = math.log(self.ratio[0]), math.log(self.ratio[1])
        for _ in range(self.max_attempts):
            area = self.scale[0] + (self.scale[1] - self.scale[0]) * self._uniform()
            aspect = math.exp(log_low + (log_high - log_low) * self._uniform())
            crop_w = int(round(math.sqrt(height * width * area * aspect)))
            crop_h = int(round(crop_w / aspect))
            if 0 < crop_w <= width and 0 < crop_h <= height:
                return (self._integer(height - crop_h + 1), self._integer(width - crop_w + 1),
                        crop_h, crop_w)
        aspect = width / height
        crop_h, crop_w = height, width
        if aspect < self.ratio[0]:
            crop_h = int(round(width / self.ratio[0]))
        elif aspect > self.ratio[1]:
            crop_w = int(round(height * self.ratio[1]))
        crop_h, crop_w = max(1, min(crop_h, height)), max(1, min(crop_w, width))
        return (height - crop_h) // 2, (width - crop_w) // 2, crop_h, crop_w

    def __call__(self, image):
        image = _image(image, "RandomResizedCrop")
        top, left, crop_h, crop_w = self.crop_box(*image.shape[:2])
        crop = image[top:top + crop_h, left:left + crop_w]
        return _resize(crop, self.size[0], self.size[1], self.interpolation)


class RandomErasing(RandomOp):
    """With probability ``prob``, set a random rectangle of a CHW image (area ``scale``
    of the image, aspect ratio ``ratio``) to ``value``: a number, one per channel, or
    ``'random'`` (standard normal noise)."""

    def __init__(self, prob=0.5, scale=(0.02, 0.33), ratio=(0.3, 3.3), value=0, inplace=False,
                 max_attempts=10):
        super().__init__()
        who = "RandomErasing"
        self.prob = float(check_number(prob, "prob", 0, 1, who))
        self.scale = _pair(scale, "scale", who)
        self.ratio = _pair(ratio, "ratio", who, positive=True)
        if not (_is_number(value) or value == "random" or (
                isinstance(value, (tuple, list)) and len(value) == 3
                and all(_is_number(v) for v in value))):
            raise ValueError(f"{who}: value must be a number, a sequence of 3 numbers or "
                             f"'random', got {value!r}")
        if not isinstance(inplace, bool):
            raise TypeError(f"{who}: inplace must be a bool, got {inplace!r}")
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, numbers.Integral) \
                or max_attempts <= 0:
            raise ValueError(f"{who}: max_attempts must be a positive int, got {max_attempts!r}")
        self.value, self.inplace, self.max_attempts = value, inplace, int(max_attempts)

    def __call__(self, image):
        if not isinstance(image, np.ndarray) or image.ndim != 3:
            raise TypeError(f"RandomErasing: expected a NumPy image of shape (C, H, W), got "
                            f"{type(image).__name__} {getattr(image, 'shape', '')}")
        if self._uniform() >= self.prob:
            return image
        channels, height, width = image.shape
        for _ in range(self.max_attempts):
            area = (self.scale[0] + (self.scale[1] - self.scale[0]) * self._uniform()) \
                * height * width
            aspect = self.ratio[0] + (self.ratio[1] - self.ratio[0]) * self._uniform()
            erase_w = int(round(math.sqrt(area * aspect)))
            erase_h = int(round(erase_w / aspect))
            if erase_h < height and erase_w < width:
                top = self._integer(height - erase_h + 1)
                left = self._integer(width - erase_w + 1)
                out = image if self.inplace else image.copy()
                out[:, top:top + erase_h, left:left + erase_w] = self._fill(channels, erase_h,
                                                                           erase_w)
                return out
        return image

    def _fill(self, channels, height, width):
        if self.value == "random":
            seed = [self._integer(2 ** 32) for _ in range(2)]
            return np.random.default_rng(seed).standard_normal((channels, height, width))
        if isinstance(self.value, (tuple, list)):
            return np.asarray(self.value, np.float64)[:, None, None]
        return self.value
