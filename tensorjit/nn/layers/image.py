"""Image layers, as MindSpore's: ``CentralCrop``, ``ImageGradients`` and the image-quality
measures ``PSNR``, ``SSIM`` and ``MSSSIM`` (NCHW inputs).

Integer images are first scaled to [0, 1] by their dtype's maximum (as MindSpore does);
float images are used as they are (MindSpore casts them to float32; tensorjit keeps their
precision, so float64 images give float64 results).
SSIM per channel, with ``mu`` the Gaussian-window (``filter_size``, ``filter_sigma``) means
over the valid positions and ``c1 = (k1 max_val)^2``, ``c2 = (k2 max_val)^2``:
``(2 mu1 mu2 + c1)(2 s12 + c2) / ((mu1^2 + mu2^2 + c1)(s1 + s2 + c2))``, averaged over
positions and channels. MSSSIM: over ``len(power_factors)`` scales (2x2 average pooling
between them) the product of relu(cs)^w at the coarser scales and relu(ssim)^w at the last.
"""
import numbers

import numpy as np

from ... import ops
from ... import dtype as dt
from ...tensor import Tensor
from ..cell import Cell

__all__ = ["CentralCrop", "ImageGradients", "PSNR", "SSIM", "MSSSIM"]


def _check_4d(x, name, who):
    if x.ndim != 4:
        raise ValueError(f"{who}: '{name}' must be 4-D (N, C, H, W), got shape "
                         f"{tuple(x.shape)}")


def _as_float(image):
    """An integer image scaled by its dtype's maximum to [0, 1] (as float32)."""
    if dt.is_float(image.dtype):
        return image, 1.0
    scale = float(np.iinfo(image.dtype).max)
    return ops.mul(ops.cast(image, dt.float32), 1.0 / scale), scale


def _max_val(value, scale):
    return value / scale if scale > 1.0 else value


def _check_max_val(value, who):
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{who}: 'max_val' must be an int or float, got {value!r}")
    if value <= 0:
        raise ValueError(f"{who}: 'max_val' must be > 0, got {value}")
    return value


def _same_images(img1, img2, who):
    if img1.dtype != img2.dtype or tuple(img1.shape) != tuple(img2.shape):
        raise TypeError(f"{who}: the images must have one dtype and shape, got "
                        f"{img1.dtype}{tuple(img1.shape)} and {img2.dtype}{tuple(img2.shape)}")


class CentralCrop(Cell):
    """The central ``central_fraction`` of the height and width of (C, H, W) or (N, C, H, W)
    images (starts rounded down, sizes the rest)."""

    def __init__(self, central_fraction):
        super().__init__()
        if not isinstance(central_fraction, float):
            raise TypeError(f"CentralCrop: 'central_fraction' must be a float, got "
                            f"{central_fraction!r}")
        if not 0.0 < central_fraction <= 1.0:
            raise ValueError(f"CentralCrop: 'central_fraction' must be in (0, 1], got "
                             f"{central_fraction}")
        self.central_fraction = central_fraction

    def construct(self, image):
        if image.ndim not in (3, 4):
            raise ValueError(f"CentralCrop: the image must be 3-D or 4-D, got shape "
                             f"{tuple(image.shape)}")
        if self.central_fraction == 1.0:
            return image
        h, w = image.shape[-2:]
        top = int((float(h) - float(h * self.central_fraction)) / 2)
        left = int((float(w) - float(w * self.central_fraction)) / 2)
        return image[..., top:h - top, left:w - left]


class ImageGradients(Cell):
    """(dy, dx): the forward differences along height and width, 0 on the last row /
    column."""

    def construct(self, images):
        _check_4d(images, "images", "ImageGradients")
        dy = ops.pad(ops.sub(images[:, :, 1:, :], images[:, :, :-1, :]), (0, 0, 0, 1))
        dx = ops.pad(ops.sub(images[:, :, :, 1:], images[:, :, :, :-1]), (0, 1, 0, 0))
        return dy, dx


class PSNR(Cell):
    """``10 log10(max_val^2 / mse)`` per image (mse over C, H, W)."""

    def __init__(self, max_val=1.0):
        super().__init__()
        self.max_val = _check_max_val(max_val, "PSNR")

    def construct(self, img1, img2):
        _check_4d(img1, "img1", "PSNR")
        _check_4d(img2, "img2", "PSNR")
        _same_images(img1, img2, "PSNR")
        img1, scale = _as_float(img1)
        img2, _ = _as_float(img2)
        max_val = _max_val(self.max_val, scale)
        mse = ops.mean(ops.square(ops.sub(img1, img2)), (-3, -2, -1))
        return ops.mul(ops.log10(ops.div(max_val ** 2, mse)), 10.0)


def _gaussian_window(size, sigma):
    grid = np.arange(-size // 2 + 1, size // 2 + 1, dtype=np.float64)
    g = np.exp(-(grid[:, None] ** 2 + grid[None, :] ** 2) / (2 * sigma ** 2))
    return (g / g.sum())[None, None]


class _Similarity(Cell):
    def __init__(self, who, max_val, filter_size, filter_sigma, k1, k2):
        super().__init__()
        self.max_val = _check_max_val(max_val, who)
        if isinstance(filter_size, bool) or not isinstance(filter_size, int):
            raise TypeError(f"{who}: 'filter_size' must be an int, got {filter_size!r}")
        if filter_size < 1:
            raise ValueError(f"{who}: 'filter_size' must be >= 1, got {filter_size}")
        if not isinstance(filter_sigma, float):
            raise TypeError(f"{who}: 'filter_sigma' must be a float, got {filter_sigma!r}")
        if filter_sigma <= 0:
            raise ValueError(f"{who}: 'filter_sigma' must be > 0, got {filter_sigma}")
        for name, value in (("k1", k1), ("k2", k2)):
            if not isinstance(value, float):
                raise TypeError(f"{who}: '{name}' must be a float, got {value!r}")
        self.filter_size, self.filter_sigma, self.k1, self.k2 = filter_size, filter_sigma, k1, k2
        self.window = _gaussian_window(filter_size, filter_sigma)

    def _ssim_cs(self, img1, img2, max_val):
        """Per image and channel: (mean SSIM, mean contrast-structure)."""
        n, c, h, w = img1.shape
        if h < self.filter_size or w < self.filter_size:
            raise ValueError(f"{type(self).__name__}: the images ({h}x{w}) must be at least "
                             f"filter_size ({self.filter_size}) in height and width")
        window = Tensor(self.window.astype(img1.dtype))

        def blur(x):
            return ops.reshape(ops.conv2d(ops.reshape(x, (n * c, 1, x.shape[2], x.shape[3])),
                                          window), (n, c, h - self.filter_size + 1, -1))

        c1, c2 = (self.k1 * max_val) ** 2, (self.k2 * max_val) ** 2
        mu1, mu2 = blur(img1), blur(img2)
        mu11, mu22, mu12 = ops.mul(mu1, mu1), ops.mul(mu2, mu2), ops.mul(mu1, mu2)
        s1 = ops.sub(blur(ops.mul(img1, img1)), mu11)
        s2 = ops.sub(blur(ops.mul(img2, img2)), mu22)
        s12 = ops.sub(blur(ops.mul(img1, img2)), mu12)
        v1 = ops.add(ops.mul(s12, 2.0), c2)
        v2 = ops.add(ops.add(s1, s2), c2)
        luminance = ops.div(ops.add(ops.mul(mu12, 2.0), c1), ops.add(ops.add(mu11, mu22), c1))
        ssim = ops.mul(luminance, ops.div(v1, v2))
        return ops.mean(ssim, (2, 3)), ops.mean(ops.div(v1, v2), (2, 3))

    def _prepare(self, img1, img2):
        who = type(self).__name__
        _check_4d(img1, "img1", who)
        _check_4d(img2, "img2", who)
        _same_images(img1, img2, who)
        img1, scale = _as_float(img1)
        img2, _ = _as_float(img2)
        return img1, img2, _max_val(self.max_val, scale)


class SSIM(_Similarity):
    def __init__(self, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__("SSIM", max_val, filter_size, filter_sigma, k1, k2)

    def construct(self, img1, img2):
        if not dt.is_float(img1.dtype):
            raise TypeError(f"SSIM: 'img1' must be a float tensor, got {img1.dtype}")
        img1, img2, max_val = self._prepare(img1, img2)
        ssim, _ = self._ssim_cs(img1, img2, max_val)
        return ops.mean(ssim, -1)


class MSSSIM(_Similarity):
    def __init__(self, max_val=1.0, power_factors=(0.0448, 0.2856, 0.3001, 0.2363, 0.1333),
                 filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03):
        super().__init__("MSSSIM", max_val, filter_size, filter_sigma, k1, k2)
        if not isinstance(power_factors, (tuple, list)):
            raise TypeError(f"MSSSIM: 'power_factors' must be a tuple or list, got "
                            f"{power_factors!r}")
        self.power_factors = tuple(float(p) for p in power_factors)

    def construct(self, img1, img2):
        img1, img2, max_val = self._prepare(img1, img2)
        factors = []
        for level in range(len(self.power_factors)):
            ssim, cs = self._ssim_cs(img1, img2, max_val)
            if level < len(self.power_factors) - 1:
                factors.append(ops.relu(cs))
                img1 = ops.avg_pool2d(img1, 2, 2)
                img2 = ops.avg_pool2d(img2, 2, 2)
        factors.append(ops.relu(ssim))
        weights = Tensor(np.asarray(self.power_factors, dtype=img1.dtype))
        stacked = ops.pow(ops.stack(factors, -1), weights)
        return ops.mean(ops.prod(stacked, -1), -1)
