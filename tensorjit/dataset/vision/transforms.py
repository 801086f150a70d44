"""Image operations on HWC arrays (MindSpore's ``dataset.vision``), in NumPy. Resizing
follows OpenCV, which MindSpore uses, to the bit for 8-bit images: bilinear with
half-pixel centres and OpenCV's fixed-point weights, nearest with ``floor(dst * scale)``.
Pillow is needed only to decode image files (``Decode``)."""
import enum
import functools
import io
import numbers

import numpy as np

from ..transforms import RandomOp

__all__ = ["Inter", "Border", "Decode", "Rescale", "Normalize", "HWC2CHW", "Resize",
           "CenterCrop", "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip", "ToTensor"]


class Inter(enum.Enum):
    """Interpolation modes, with MindSpore 2.10's values (LINEAR and CUBIC: its 1.x names)."""
    NEAREST = 0
    ANTIALIAS = 1
    BILINEAR = LINEAR = 2
    BICUBIC = CUBIC = 3
    AREA = 4
    PILCUBIC = 5


class Border(enum.Enum):
    CONSTANT = "constant"
    EDGE = "edge"
    REFLECT = "reflect"
    SYMMETRIC = "symmetric"


def _image(array, who):
    array = np.asarray(array)
    if array.ndim not in (2, 3):
        raise ValueError(f"{who}: expected an image of shape (H, W) or (H, W, C), got shape "
                         f"{array.shape}")
    return array


def _size_pair(size, who):
    if isinstance(size, numbers.Integral) and not isinstance(size, bool) and size > 0:
        return int(size), int(size)
    if isinstance(size, (tuple, list)) and len(size) == 2 and all(
            isinstance(s, numbers.Integral) and s > 0 for s in size):
        return int(size[0]), int(size[1])
    raise ValueError(f"{who}: 'size' must be a positive int or (height, width), got {size!r}")


def _encoded_bytes(data):
    """An encoded image as bytes: a uint8 array, bytes, or a bytes array (MindDataset's
    ``bytes`` columns)."""
    if isinstance(data, bytes):
        return data
    if isinstance(data, np.ndarray) and data.dtype.kind == "S":
        return data.tobytes()
    return np.asarray(data, np.uint8).tobytes()


class Decode:
    """Encoded image bytes (a uint8 array, bytes, or a bytes array) to an RGB (H, W, 3)
    uint8 array, with Pillow."""

    def __init__(self, to_pil=False):
        self.to_pil = to_pil

    def __call__(self, data):
        try:
            from PIL import Image
        except ImportError:
            raise ImportError("Decode needs Pillow to read image files: pip install pillow "
                              "(or install tensorjit's 'vision' extra)") from None
        try:
            image = Image.open(io.BytesIO(_encoded_bytes(data))).convert("RGB")
        except Exception as exc:
            raise ValueError(f"Decode: the bytes are not an image Pillow can read ({exc})") \
                from None
        return image if self.to_pil else np.asarray(image)


class Rescale:
    """``image * rescale + shift`` as float32."""

    def __init__(self, rescale, shift):
        self.rescale, self.shift = float(rescale), float(shift)

    def __call__(self, image):
        return (np.asarray(image, np.float32) * np.float32(self.rescale)
                + np.float32(self.shift)).astype(np.float32)


class Normalize:
    """``(image - mean) / std`` per channel, as float32 (channels last unless
    ``is_hwc=False``)."""

    def __init__(self, mean, std, is_hwc=True):
        self.mean = np.asarray(mean, np.float32).reshape(-1)
        self.std = np.asarray(std, np.float32).reshape(-1)
        if self.mean.shape != self.std.shape or (self.std <= 0).any():
            raise ValueError(f"Normalize: 'mean' and 'std' must have one value per channel and "
                             f"std > 0, got {mean!r} and {std!r}")
        self.is_hwc = bool(is_hwc)

    def __call__(self, image):
        image = np.asarray(image, np.float32)
        channels = image.shape[-1] if self.is_hwc else image.shape[0]
        if image.ndim == 3 and self.mean.size not in (1, channels):
            raise ValueError(f"Normalize: {self.mean.size} means for an image with {channels} "
                             f"channels")
        shape = (-1,) if self.is_hwc else (-1, 1, 1)
        if image.ndim == 2:
            shape = (-1,) if self.is_hwc else (-1, 1)
        return ((image - self.mean.reshape(shape)) / self.std.reshape(shape)).astype(np.float32)


class HWC2CHW:
    def __call__(self, image):
        image = _image(image, "HWC2CHW")
        return np.ascontiguousarray(image.transpose(2, 0, 1) if image.ndim == 3 else image[None])


@functools.lru_cache(maxsize=64)
def _linear_weights(out_size, in_size, clamp_weight):
    """Source indices and weights of bilinear resizing, as OpenCV computes them: float32
    positions with half-pixel centres; along x a position before the first or past the last
    pixel takes that pixel whole, along y only the indices are clamped. Cached (a dataset
    resizes image after image between the same sizes); the arrays are read-only."""
    position = ((np.arange(out_size) + 0.5) * (in_size / out_size) - 0.5).astype(np.float32)
    low = np.floor(position).astype(np.int64)
    frac = (position - low).astype(np.float32)
    if clamp_weight:
        outside = (low < 0) | (low >= in_size - 1)
        frac[outside] = 0
    weights = np.clip(low, 0, in_size - 1), np.clip(low + 1, 0, in_size - 1), frac
    for array in weights:
        array.flags.writeable = False
    return weights


# OpenCV's fixed point for 8-bit images: weights in units of 1/2048, and the vertical pass
# of its vectorized kernel (shifts by 4, 16, 2), which MindSpore's results follow exactly.
_COEF_SCALE = 2048


def _resize_linear(image, height, width):
    y0, y1, fy = _linear_weights(height, image.shape[0], clamp_weight=False)
    x0, x1, fx = _linear_weights(width, image.shape[1], clamp_weight=True)
    tail = (1,) * (image.ndim - 2)
    if image.dtype == np.uint8:
        a0 = np.rint((np.float32(1) - fx) * _COEF_SCALE).astype(np.int32).reshape((1, -1) + tail)
        b0 = np.rint((np.float32(1) - fy) * _COEF_SCALE).astype(np.int32).reshape((-1, 1) + tail)
        a1, b1 = _COEF_SCALE - a0, _COEF_SCALE - b0
        source = image.astype(np.int32)
        rows = source[:, x0] * a0 + source[:, x1] * a1
        out = (((b0 * (rows[y0] >> 4)) >> 16) + ((b1 * (rows[y1] >> 4)) >> 16) + 2) >> 2
        return np.clip(out, 0, 255).astype(np.uint8)
    fx = fx.reshape((1, -1) + tail)
    fy = fy.reshape((-1, 1) + tail)
    source = image.astype(np.float32)
    rows = source[:, x0] * (np.float32(1) - fx) + source[:, x1] * fx
    out = rows[y0] * (np.float32(1) - fy) + rows[y1] * fy
    if image.dtype.kind in "iu":
        info = np.iinfo(image.dtype)
        return np.clip(np.rint(out), info.min, info.max).astype(image.dtype)
    return out.astype(image.dtype)


def _resize(image, height, width, interpolation):
    in_h, in_w = image.shape[:2]
    if interpolation == Inter.NEAREST:
        # OpenCV's floor(dst * (1 / (dst_size / src_size))), rounding included
        rows = np.minimum(np.floor(np.arange(height) * (1.0 / (height / in_h))).astype(np.int64),
                          in_h - 1)
        cols = np.minimum(np.floor(np.arange(width) * (1.0 / (width / in_w))).astype(np.int64),
                          in_w - 1)
        return image[rows][:, cols]
    if interpolation != Inter.LINEAR:
        raise NotImplementedError(f"Resize: interpolation {interpolation} is not supported "
                                  f"(LINEAR and NEAREST are)")
    return _resize_linear(image, height, width)


class Resize:
    """To ``size`` = (height, width); an int sets the shorter side and keeps the aspect
    ratio."""

    def __init__(self, size, interpolation=Inter.LINEAR):
        if isinstance(size, numbers.Integral) and not isinstance(size, bool):
            if size <= 0:
                raise ValueError(f"Resize: 'size' must be positive, got {size}")
            self.size = int(size)
        else:
            self.size = _size_pair(size, "Resize")
        self.interpolation = interpolation

    def __call__(self, image):
        image = _image(image, "Resize")
        h, w = image.shape[:2]
        if isinstance(self.size, int):
            if h <= w:
                height, width = self.size, int(w * self.size / h)
            else:
                height, width = int(h * self.size / w), self.size
        else:
            height, width = self.size
        return _resize(image, height, width, self.interpolation)


def _pad(image, top, bottom, left, right, mode, fill):
    pad = [(top, bottom), (left, right)] + [(0, 0)] * (image.ndim - 2)
    if mode == Border.CONSTANT:
        return np.pad(image, pad, mode="constant", constant_values=fill)
    return np.pad(image, pad, mode=mode.value)


class CenterCrop:
    """The centre ``size`` region (zero-padded where the image is smaller)."""

    def __init__(self, size):
        self.size = _size_pair(size, "CenterCrop")

    def __call__(self, image):
        image = _image(image, "CenterCrop")
        height, width = self.size
        h, w = image.shape[:2]
        if h < height or w < width:
            dh, dw = max(0, height - h), max(0, width - w)
            image = _pad(image, dh - dh // 2, dh // 2, dw - dw // 2, dw // 2, Border.CONSTANT, 0)
            h, w = image.shape[:2]
        top, left = (h - height) // 2, (w - width) // 2
        return image[top:top + height, left:left + width]


class RandomCrop(RandomOp):
    """A random ``size`` region, after optional ``padding`` (int, (left/right, top/bottom)
    or (left, top, right, bottom), MindSpore's order)."""

    def __init__(self, size, padding=None, pad_if_needed=False, fill_value=0,
                 padding_mode=Border.CONSTANT):
        super().__init__()
        self.size = _size_pair(size, "RandomCrop")
        if padding is None:
            padding = (0, 0, 0, 0)
        elif isinstance(padding, numbers.Integral):
            padding = (padding,) * 4
        elif len(padding) == 2:
            padding = (padding[0], padding[1], padding[0], padding[1])
        elif len(padding) != 4:
            raise ValueError(f"RandomCrop: 'padding' must be an int or 2 or 4 ints, got "
                             f"{padding!r}")
        self.padding = tuple(int(p) for p in padding)
        self.pad_if_needed, self.fill_value = bool(pad_if_needed), fill_value
        self.padding_mode = padding_mode

    def __call__(self, image):
        image = _image(image, "RandomCrop")
        left, top, right, bottom = self.padding
        if any(self.padding):
            image = _pad(image, top, bottom, left, right, self.padding_mode, self.fill_value)
        height, width = self.size
        h, w = image.shape[:2]
        if self.pad_if_needed and (h < height or w < width):
            image = _pad(image, 0, max(0, height - h), 0, max(0, width - w), self.padding_mode,
                         self.fill_value)
            h, w = image.shape[:2]
        if h < height or w < width:
            raise ValueError(f"RandomCrop: the image ({h}, {w}) is smaller than the crop "
                             f"{self.size}; pass padding or pad_if_needed=True")
        top, left = self._integer(h - height + 1), self._integer(w - width + 1)
        return image[top:top + height, left:left + width]


class RandomHorizontalFlip(RandomOp):
    def __init__(self, prob=0.5):
        super().__init__()
        if not 0.0 <= prob <= 1.0:
            raise ValueError(f"RandomHorizontalFlip: 'prob' must be in [0, 1], got {prob}")
        self.prob = float(prob)

    def __call__(self, image):
        image = _image(image, type(self).__name__)
        return np.ascontiguousarray(image[:, ::-1]) if self._uniform() < self.prob else image


class RandomVerticalFlip(RandomHorizontalFlip):
    def __call__(self, image):
        image = _image(image, type(self).__name__)
        return np.ascontiguousarray(image[::-1]) if self._uniform() < self.prob else image


class ToTensor:
    """An HWC image (uint8 0..255) to a CHW ``output_type`` array in [0, 1]."""

    def __init__(self, output_type=np.float32):
        self.output_type = np.dtype(output_type)

    def __call__(self, image):
        image = _image(image, "ToTensor")
        if image.ndim == 2:
            image = image[..., None]
        scaled = image.astype(np.float64) / 255.0 if image.dtype == np.uint8 else image
        return np.ascontiguousarray(scaled.transpose(2, 0, 1)).astype(self.output_type)
