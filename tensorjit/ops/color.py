"""Colour-space conversions behind MindSpore's operator classes ``RGBToHSV``, ``HSVToRGB``,
``AdjustHue`` and ``AdjustSaturation`` (images with the channels last; values in [0, 1]).

Written with elementwise ops (max / min of the channels, ``where`` over the hue sector), so
they run in every capture mode and differentiate. ``hsv_to_rgb`` uses the closed form
``v - v * s * clip(min(k, 4 - k), 0, 1)`` with ``k = (n + 6 h) mod 6`` (n = 5, 3, 1 for
r, g, b), the same as the six-sector table; the hue is first clipped to [0, 1]
(MindSpore's CPU kernel). float16 computes in float32.
"""
from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from .boxes import check_dtype
from .elementwise import (add, sub, mul, div, where, maximum, minimum, clamp, floor, gt, lt,
                          eq, cast)
from .shape import stack

_FLOATS = (dt.float16, dt.float32, dt.float64)


def _image(images, op, arg, min_rank=1, rank=None):
    x = coerce.as_tensor(images, op=op)
    check_dtype(x, _FLOATS, op, arg)
    if rank is not None and x.ndim != rank:
        raise ValueError(f"For primitive[{op}], the dimension of [{arg}] must be equal to "
                         f"{rank}, but got {x.ndim}.")
    if x.ndim < min_rank:
        raise ValueError(f"For primitive[{op}], the dimension of {arg} must be greater than or "
                         f"equal to {min_rank}, but got {x.ndim}.")
    if x.shape[-1] != 3:
        raise ValueError(f"For primitive[{op}], the last dimension of input '{arg}' must be "
                         f"equal to 3, but got {x.shape[-1]}.")
    return x


def _factor(value, op, arg):
    """``delta`` / ``scale``: a 0-d float32 tensor, as MindSpore requires."""
    if not isinstance(value, Tensor):
        raise TypeError(f"For Primitive[{op}], the type of input argument[{arg}] must be "
                        f"Tensor but got {type(value).__name__}.")
    check_dtype(value, (dt.float32,), op, arg)
    if value.ndim != 0:
        raise ValueError(f"For primitive[{op}], the dimension of {arg} must be equal to 0, "
                         f"but got {value.ndim}.")
    return value


def _working(x):
    return cast(x, dt.float32) if x.dtype == dt.float16 else x


def _to_hsv(x):
    """(h, s, v) of the channels-last image ``x`` (TensorFlow's sectors: the hue from the
    largest channel, r first on ties; 0 for greys; s = 0 for black)."""
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = maximum(r, maximum(g, b))
    spread = sub(v, minimum(r, minimum(g, b)))
    coloured = gt(spread, 0.0)
    safe = where(coloured, spread, 1.0)
    s = where(gt(v, 0.0), div(spread, where(gt(v, 0.0), v, 1.0)), 0.0)
    sector = where(eq(r, v), div(sub(g, b), safe),
                   where(eq(g, v), add(div(sub(b, r), safe), 2.0),
                         add(div(sub(r, g), safe), 4.0)))
    h = div(sector, 6.0)
    h = where(coloured, where(lt(h, 0.0), add(h, 1.0), h), 0.0)
    return h, s, v


def _to_rgb(h, s, v):
    sixths = mul(clamp(h, 0.0, 1.0), 6.0)
    chroma = mul(v, s)
    channels = []
    for n in (5.0, 3.0, 1.0):
        k = add(sixths, n)
        k = sub(k, mul(floor(div(k, 6.0)), 6.0))            # (n + 6 h) mod 6
        weight = clamp(minimum(k, sub(4.0, k)), 0.0, 1.0)
        channels.append(sub(v, mul(chroma, weight)))
    return stack(channels, -1)


def rgb_to_hsv(images):
    """``RGBToHSV``: hue, saturation, value in [0, 1] of a channels-last RGB image."""
    x = _image(images, "RGBToHSV", "images")
    return cast(stack(list(_to_hsv(_working(x))), -1), x.dtype)


def hsv_to_rgb(x):
    """``HSVToRGB``: the RGB image of a channels-last ``(N, H, W, 3)`` HSV image."""
    x = _image(x, "HSVToRGB", "x", rank=4)
    w = _working(x)
    return cast(_to_rgb(w[..., 0], w[..., 1], w[..., 2]), x.dtype)


def adjust_hue(image, delta):
    """``AdjustHue``: rotate the hue by ``delta`` (a 0-d float32 tensor), modulo 1."""
    x = _image(image, "AdjustHue", "image", min_rank=3)
    delta = _factor(delta, "AdjustHue", "delta")
    h, s, v = _to_hsv(_working(x))
    h = add(h, cast(delta, h.dtype))
    return cast(_to_rgb(sub(h, floor(h)), s, v), x.dtype)


def adjust_saturation(image, scale):
    """``AdjustSaturation``: multiply the saturation by ``scale``, clipped to [0, 1]."""
    x = _image(image, "AdjustSaturation", "image", min_rank=3)
    scale = _factor(scale, "AdjustSaturation", "scale")
    h, s, v = _to_hsv(_working(x))
    return cast(_to_rgb(h, clamp(mul(s, cast(scale, s.dtype)), 0.0, 1.0), v), x.dtype)
