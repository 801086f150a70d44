"""OpenCV's ``warpAffine`` in NumPy, as MindSpore's Rotate / Affine call it (constant
border): the inverse map in 10-bit fixed point, nearest neighbour, or bilinear on a
1/32-pixel grid with weights in units of 1/32768 for integer images (float weights for
float images). Following its arithmetic gives MindSpore's pixels exactly."""
import math

import numpy as np

_AB_BITS, _INTER_BITS = 10, 5
_AB_SCALE, _TAB = 1 << _AB_BITS, 1 << _INTER_BITS
_COEF_BITS = 15


def rotation_matrix(center, degrees):
    """``cv::getRotationMatrix2D(center, degrees, 1)``: counter-clockwise for positive
    degrees, about ``center`` (float32, as OpenCV's Point2f holds it)."""
    cx, cy = (float(np.float32(c)) for c in center)
    angle = math.radians(degrees)
    alpha, beta = math.cos(angle), math.sin(angle)
    return np.array([[alpha, beta, (1 - alpha) * cx - beta * cy],
                     [-beta, alpha, beta * cx + (1 - alpha) * cy]])


def rotated_bounds(center, width, height, degrees):
    """Width and height of ``cv::RotatedRect(center, (width, height), degrees)
    .boundingRect2f()``, in float32 as OpenCV computes the corners."""
    f32 = np.float32
    angle = f32(degrees) * f32(math.pi / 180)
    b, a = f32(math.cos(angle)) * f32(0.5), f32(math.sin(angle)) * f32(0.5)
    cx, cy, w, h = f32(center[0]), f32(center[1]), f32(width), f32(height)
    p0 = (cx - a * h - b * w, cy + b * h - a * w)
    p1 = (cx + a * h - b * w, cy - b * h - a * w)
    p2 = (f32(2) * cx - p0[0], f32(2) * cy - p0[1])
    p3 = (f32(2) * cx - p1[0], f32(2) * cy - p1[1])
    xs, ys = [p[0] for p in (p0, p1, p2, p3)], [p[1] for p in (p0, p1, p2, p3)]
    return float(max(xs) - min(xs)), float(max(ys) - min(ys))


def _invert(matrix):
    m = np.asarray(matrix, np.float64).reshape(-1)
    det = m[0] * m[4] - m[1] * m[3]
    det = 1.0 / det if det != 0 else 0.0
    a11, a22, a12, a21 = m[4] * det, m[0] * det, -m[1] * det, -m[3] * det
    return np.array([a11, a12, -a11 * m[2] - a12 * m[5], a21, a22, -a21 * m[2] - a22 * m[5]])


def _fill_pixel(fill, image):
    channels = image.shape[2] if image.ndim == 3 else 1
    fill = np.broadcast_to(np.asarray(fill, np.float64).reshape(-1), (channels,)) \
        if np.size(fill) in (1, channels) else np.asarray(fill, np.float64)[:channels]
    return fill.astype(image.dtype)


def warp_affine(image, matrix, out_size, nearest, fill=0):
    """``cv::warpAffine(image, out, matrix, (width, height), nearest ? INTER_NEAREST :
    INTER_LINEAR, BORDER_CONSTANT, fill)`` for a forward ``matrix`` (2 x 3)."""
    height, width = out_size
    m = _invert(matrix)
    shift = _AB_BITS if nearest else _AB_BITS - _INTER_BITS
    round_delta = _AB_SCALE // 2 if nearest else _AB_SCALE // _TAB // 2
    xs, ys = np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64)
    adelta = np.rint(m[0] * xs * _AB_SCALE).astype(np.int64)
    bdelta = np.rint(m[3] * xs * _AB_SCALE).astype(np.int64)
    x0 = np.rint((m[1] * ys + m[2]) * _AB_SCALE).astype(np.int64) + round_delta
    y0 = np.rint((m[4] * ys + m[5]) * _AB_SCALE).astype(np.int64) + round_delta
    X = (x0[:, None] + adelta[None, :]) >> shift
    Y = (y0[:, None] + bdelta[None, :]) >> shift
    squeeze = image.ndim == 2
    source = image[..., None] if squeeze else image
    fill_pixel = _fill_pixel(fill, source)
    h, w = source.shape[:2]
    if nearest:
        inside = (X >= 0) & (X < w) & (Y >= 0) & (Y < h)
        out = source[np.clip(Y, 0, h - 1), np.clip(X, 0, w - 1)]
        out = np.where(inside[..., None], out, fill_pixel)
    else:
        out = _bilinear(source, X, Y, fill_pixel)
    return out[..., 0] if squeeze else out


def _bilinear(source, X, Y, fill_pixel):
    h, w = source.shape[:2]
    sx, sy = X >> _INTER_BITS, Y >> _INTER_BITS
    fx, fy = X & (_TAB - 1), Y & (_TAB - 1)
    integer = source.dtype.kind in "iu"
    total = np.zeros(X.shape + source.shape[2:], np.int64 if integer else np.float32)
    for dy, wy in ((0, _TAB - fy), (1, fy)):
        for dx, wx in ((0, _TAB - fx), (1, fx)):
            px, py = sx + dx, sy + dy
            inside = ((px >= 0) & (px < w) & (py >= 0) & (py < h))[..., None]
            values = np.where(inside, source[np.clip(py, 0, h - 1), np.clip(px, 0, w - 1)],
                              fill_pixel)
            if integer:      # (1/32 steps)^2 scaled to 1/32768: exact integer weights
                weight = (wy * wx * (1 << (_COEF_BITS - 2 * _INTER_BITS)))[..., None]
                total += weight * values.astype(np.int64)
            else:
                weight = ((wy * wx).astype(np.float32) / np.float32(_TAB * _TAB))[..., None]
                total += weight * values.astype(np.float32)
    # a neighbourhood wholly outside the image takes the fill value as it is
    outside = ((sx >= w) | (sx + 1 < 0) | (sy >= h) | (sy + 1 < 0))[..., None]
    if integer:
        info = np.iinfo(source.dtype)
        out = np.clip((total + (1 << (_COEF_BITS - 1))) >> _COEF_BITS, info.min, info.max)
        return np.where(outside, fill_pixel, out.astype(source.dtype))
    return np.where(outside, fill_pixel, total.astype(source.dtype))
