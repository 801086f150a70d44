"""Colour operations on HWC RGB images (MindSpore's ``dataset.vision``), in NumPy. MindSpore
runs them through OpenCV; for 8-bit images the results follow OpenCV's arithmetic to the
bit: its fixed-point RGB->gray (weights 4899, 9617, 1868 / 2**14), its table-driven
RGB->HSV, rounding to nearest even when a float result is stored in uint8."""
import numbers

import numpy as np

__all__ = ["Equalize", "AutoContrast", "Invert", "Posterize", "Solarize", "AdjustBrightness",
           "AdjustContrast", "AdjustSaturation", "AdjustHue", "AdjustSharpness"]


def rgb_image(image, who, dtypes=None):
    image = np.asarray(image)
    if image.ndim != 3 or image.shape[2] != 3:
        raise RuntimeError(f"{who}: expected an RGB image of shape (H, W, 3), got shape "
                           f"{image.shape}")
    if dtypes == "uint8" and image.dtype != np.uint8:
        raise RuntimeError(f"{who}: expected a uint8 image, got {image.dtype}")
    return image


def hwc_image(image, who):
    image = np.asarray(image)
    if image.ndim != 3:
        raise RuntimeError(f"{who}: input tensor is not in shape of <H,W,C>, but got rank: "
                           f"{image.ndim}")
    return image


def check_number(value, name, low, high, who, integer=False, high_open=False):
    kinds = (numbers.Integral,) if integer else (numbers.Real,)
    if isinstance(value, bool) or not isinstance(value, kinds):
        allowed = "int" if integer else "int or float"
        raise TypeError(f"{who}: argument {name} with value {value!r} is not of type {allowed}")
    if not (low <= value and (value < high if high_open else value <= high)):
        closing = ")" if high_open else "]"
        raise ValueError(f"{who}: input {name} is not within the required interval of "
                         f"[{low}, {high}{closing}, got {value!r}")
    return value


def store(values, dtype):
    """A float result stored as ``dtype``: OpenCV's saturate_cast (round half to even, clip)
    for integers, a plain cast for floats."""
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return np.clip(np.rint(values), info.min, info.max).astype(dtype)
    return np.asarray(values).astype(dtype)


def to_gray(image):
    """OpenCV's RGB -> gray: fixed point for uint8, 0.299 / 0.587 / 0.114 for floats."""
    if image.dtype == np.uint8:
        source = image.astype(np.int32)
        return ((source[..., 0] * 4899 + source[..., 1] * 9617 + source[..., 2] * 1868
                 + (1 << 13)) >> 14).astype(np.uint8)
    weights = np.array([0.299, 0.587, 0.114], np.float32)
    return (image.astype(np.float32) * weights).sum(-1, dtype=np.float32).astype(image.dtype)


def blend(image, other, alpha):
    """``other * (1 - alpha) + image * alpha`` in float32 with float32 weights (OpenCV's
    addWeighted for MindSpore), stored in image's dtype: rounded and clipped for integers.
    OpenCV's vector kernel may round a product differently: then a pixel is 1 apart."""
    f32 = np.float32
    mixed = np.asarray(other, f32) * f32(1.0 - alpha) + image.astype(f32) * f32(alpha)
    return store(mixed, image.dtype)


class Equalize:
    """Histogram equalization of each channel (OpenCV's equalizeHist), uint8 images."""

    def __call__(self, image):
        image = hwc_image(image, "Equalize")
        if image.dtype != np.uint8:
            raise RuntimeError(f"Equalize: expected a uint8 image, got {image.dtype}")
        out = np.empty_like(image)
        for c in range(image.shape[2]):
            out[..., c] = _equalize_channel(image[..., c])
        return out


def _equalize_channel(channel):
    hist = np.bincount(channel.ravel(), minlength=256)
    total = channel.size
    first = int(np.flatnonzero(hist)[0])
    if hist[first] == total:                   # a constant channel is returned unchanged
        return channel.copy()
    scale = 255.0 / (total - hist[first])
    cumulative = np.cumsum(hist)
    cumulative[first:] -= hist[first]
    lut = np.clip(np.rint((cumulative * scale).astype(np.float32)), 0, 255).astype(np.uint8)
    lut[:first] = 0
    return lut[channel]


class AutoContrast:
    """Stretch each channel to 0..255 after cutting ``cutoff`` percent of the pixels at each
    end of its histogram; pixel values in ``ignore`` do not count (Pillow's autocontrast)."""

    def __init__(self, cutoff=0.0, ignore=None):
        who = "AutoContrast"
        check_number(cutoff, "cutoff", 0, 50, who, high_open=True)
        if ignore is not None:
            values = [ignore] if isinstance(ignore, numbers.Integral) else ignore
            if not isinstance(values, (list, tuple)) or not all(
                    isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in values):
                raise TypeError(f"{who}: 'ignore' must be an int or a list of ints, got "
                                f"{ignore!r}")
            for v in values:
                check_number(v, "ignore", 0, 255, who, integer=True)
            ignore = list(values)
        self.cutoff, self.ignore = float(cutoff), ignore or []

    def __call__(self, image):
        image = hwc_image(image, "AutoContrast")
        if image.dtype != np.uint8:
            raise RuntimeError(f"AutoContrast: expected a uint8 image, got {image.dtype}")
        out = np.empty_like(image)
        for c in range(image.shape[2]):
            out[..., c] = self._lut(image[..., c])[image[..., c]]
        return out

    def _lut(self, channel):
        hist = np.bincount(channel.ravel(), minlength=256).astype(np.int64)
        hist[self.ignore] = 0
        if self.cutoff:
            cut = int(hist.sum() * self.cutoff / 100)
            for order in (slice(None), slice(None, None, -1)):   # low end, then high end
                view, remaining = hist[order], cut
                for k in range(256):
                    taken = min(view[k], remaining)
                    view[k] -= taken
                    remaining -= taken
                    if remaining <= 0:
                        break
        present = np.flatnonzero(hist)
        identity = np.arange(256, dtype=np.uint8)
        if present.size == 0 or present[-1] <= present[0]:
            return identity
        lo, hi = int(present[0]), int(present[-1])
        scale = np.float32(255.0 / (hi - lo))              # MindSpore's float32 arithmetic
        offset = np.float32(-lo) * scale
        values = np.arange(256, dtype=np.float32) * scale + offset
        return np.clip(values.astype(np.int64), 0, 255).astype(np.uint8)


class Invert:
    """``255 - image`` (floats too, as MindSpore does)."""

    def __call__(self, image):
        image = hwc_image(image, "Invert")
        return (np.asarray(255, image.dtype) - image).astype(image.dtype)


class Posterize:
    """Keep the ``bits`` high bits of each uint8 value."""

    def __init__(self, bits):
        self.bits = int(check_number(bits, "bits", 0, 8, "Posterize", integer=True))

    def __call__(self, image):
        image = np.asarray(image)
        if image.dtype != np.uint8:
            raise RuntimeError(f"Posterize: expected a uint8 image, got {image.dtype}")
        return image & np.uint8((0xFF << (8 - self.bits)) & 0xFF)


def _threshold_pair(threshold, who):
    if isinstance(threshold, (list, tuple)):
        if len(threshold) != 2:
            raise TypeError(f"{who}: threshold must be a number or a sequence of two numbers, "
                            f"got {threshold!r}")
        low, high = threshold
    else:
        low = high = threshold
    check_number(low, "threshold[0]", 0, 255, who)
    check_number(high, "threshold[1]", 0, 255, who)
    if low > high:
        raise ValueError(f"{who}: threshold must be in order of (min, max), got {threshold!r}")
    return low, high


class Solarize:
    """Invert the values in [threshold, 255] (a number) or [min, max] (a pair)."""

    def __init__(self, threshold):
        if not isinstance(threshold, (list, tuple)):
            threshold = (threshold, 255)
        self.threshold = _threshold_pair(threshold, "Solarize")

    def __call__(self, image):
        image = hwc_image(image, "Solarize") if np.ndim(image) != 2 else np.asarray(image)
        low, high = self.threshold
        inside = (image >= low) & (image <= high)
        return np.where(inside, np.asarray(255, image.dtype) - image, image).astype(image.dtype)


class AdjustBrightness:
    """``image * brightness_factor``."""

    def __init__(self, brightness_factor):
        self.factor = float(check_number(brightness_factor, "brightness_factor", 0, 16777216,
                                         "AdjustBrightness"))

    def __call__(self, image):
        image = rgb_image(image, "AdjustBrightness")
        return adjust_brightness(image, self.factor)


def adjust_brightness(image, factor):
    return blend(image, 0, factor)


def adjust_contrast(image, factor):
    """Blend with the mean gray level (an int, rounded, for uint8 images)."""
    gray = to_gray(image)
    mean = gray.astype(np.float64).mean()
    if image.dtype == np.uint8:
        mean = float(np.rint(mean))       # stored in a uint8 image first
    return blend(image, mean, factor)


def adjust_saturation(image, factor):
    """Blend with the gray image."""
    return blend(image, to_gray(image)[..., None], factor)


class AdjustContrast:
    def __init__(self, contrast_factor):
        self.factor = float(check_number(contrast_factor, "contrast_factor", 0, 16777216,
                                         "AdjustContrast"))

    def __call__(self, image):
        return adjust_contrast(rgb_image(image, "AdjustContrast"), self.factor)


class AdjustSaturation:
    def __init__(self, saturation_factor):
        self.factor = float(check_number(saturation_factor, "saturation_factor", 0, 16777216,
                                         "AdjustSaturation"))

    def __call__(self, image):
        return adjust_saturation(rgb_image(image, "AdjustSaturation"), self.factor)


class AdjustHue:
    """Rotate the hue by ``hue_factor`` turns (OpenCV's full-range HSV, uint8 images)."""

    def __init__(self, hue_factor):
        self.factor = float(check_number(hue_factor, "hue_factor", -0.5, 0.5, "AdjustHue"))

    def __call__(self, image):
        image = rgb_image(image, "AdjustHue")
        if image.dtype != np.uint8:
            raise RuntimeError(f"AdjustHue: expected a uint8 image, got {image.dtype}")
        return adjust_hue(image, self.factor)


# OpenCV's tables of its 8-bit RGB->HSV (hue range 256, 12-bit fixed point)
_HSV_SHIFT = 12
_DIVISORS = np.arange(256, dtype=np.float64)
with np.errstate(divide="ignore"):
    _S_DIV = np.where(_DIVISORS > 0, np.rint((255 << _HSV_SHIFT) / _DIVISORS), 0).astype(np.int64)
    _H_DIV = np.where(_DIVISORS > 0, np.rint((256 << _HSV_SHIFT) / (6.0 * _DIVISORS)), 0) \
        .astype(np.int64)


def rgb_to_hsv_full(image):
    r, g, b = (image[..., k].astype(np.int64) for k in range(3))
    v = np.maximum(np.maximum(r, g), b)
    diff = v - np.minimum(np.minimum(r, g), b)
    half = 1 << (_HSV_SHIFT - 1)
    s = (diff * _S_DIV[v] + half) >> _HSV_SHIFT
    h = np.where(v == r, g - b, np.where(v == g, b - r + 2 * diff, r - g + 4 * diff))
    h = (h * _H_DIV[diff] + half) >> _HSV_SHIFT
    h = np.where(h < 0, h + 256, h)
    return np.stack([h, s, v], -1).astype(np.uint8)


_SECTORS = np.array([[1, 3, 0], [1, 0, 2], [3, 0, 1], [0, 2, 1], [0, 1, 3], [2, 1, 0]])


def hsv_full_to_rgb(hsv):
    """OpenCV's 8-bit HSV->RGB: through float32, stored rounded; its full-range inverse
    reads the hue in units of 1/255 turn (the forward conversion writes 1/256)."""
    f32 = np.float32
    h = hsv[..., 0].astype(f32) * f32(6.0 / 255)
    s = hsv[..., 1].astype(f32) * f32(1 / 255.0)
    v = hsv[..., 2].astype(f32) * f32(1 / 255.0)
    sector = np.floor(h).astype(np.int64)
    h = (h - sector).astype(f32)
    sector %= 6
    table = np.stack([v, v * (f32(1) - s), v * (f32(1) - s * h), v * (f32(1) - s * (f32(1) - h))],
                     -1)
    picks = _SECTORS[sector]                               # b, g, r indices per pixel
    bgr = np.take_along_axis(table, picks, -1)
    rgb = np.where((s == 0)[..., None], v[..., None], bgr[..., ::-1])
    return store(rgb * f32(255), np.uint8)


def adjust_hue(image, factor):
    hsv = rgb_to_hsv_full(image)
    shift = int(factor * 255)
    hsv[..., 0] = (hsv[..., 0].astype(np.int64) + shift) % 256
    return hsv_full_to_rgb(hsv)


# MindSpore's smoothing filter of sharpness (Pillow's): 1 around a centre of 5, over 13
_SMOOTH = np.array([[1, 1, 1], [1, 5, 1], [1, 1, 1]], np.float32) / np.float32(13)


def adjust_sharpness(image, factor):
    """Blend with the image smoothed by ``_SMOOTH`` (its border pixels kept as they are):
    ``image * factor + smoothed * (1 - factor)``."""
    source = image.astype(np.float32)
    squeeze = source.ndim == 2
    if squeeze:
        source = source[..., None]
    h, w = source.shape[:2]
    smoothed = source.copy()
    if h > 2 and w > 2:
        total = np.zeros((h - 2, w - 2) + source.shape[2:], np.float32)
        for dy in range(3):
            for dx in range(3):
                total += _SMOOTH[dy, dx] * source[dy:dy + h - 2, dx:dx + w - 2]
        smoothed[1:-1, 1:-1] = store(total, image.dtype) if image.dtype.kind in "iu" else total
    smoothed = smoothed[..., 0] if squeeze else smoothed
    f32 = np.float32
    mixed = image.astype(f32) * f32(factor) + smoothed * f32(1.0 - factor)
    return store(mixed, image.dtype)


class AdjustSharpness:
    """Sharpen (factor > 1) or blur (factor < 1) with Pillow's smoothing filter."""

    def __init__(self, sharpness_factor):
        self.factor = float(check_number(sharpness_factor, "sharpness_factor", 0, 16777216,
                                         "AdjustSharpness"))

    def __call__(self, image):
        image = np.asarray(image)
        if image.ndim not in (2, 3):
            raise RuntimeError(f"AdjustSharpness: expected an image of shape <H,W> or <H,W,C>, "
                               f"got shape {image.shape}")
        return adjust_sharpness(image, self.factor)
