"""Resizing: ``ops.interpolate`` / ``ops.upsample`` and the functions behind MindSpore's
resize operator classes (``ResizeBilinearV2``, ``ResizeNearestNeighbor``, ...).

One mechanism serves every mode: resizing is separable, so each spatial axis is resampled
in turn by a table of taps -- for every output position, the source indices and their
weights (one tap for nearest, two for linear, four for cubic, a window for area) --
computed in NumPy from the static sizes, applied with gather, mul and sum. So every mode
differentiates and compiles in every capture mode; nearest modes are a gather alone (any
dtype, values moved exactly).

Source coordinates, for output index ``i`` on an axis resized from ``n`` to ``m``
(``scale``: ``n / m``, or ``1 / scale_factor`` when one is given, as PyTorch):
"align_corners" ``i * (n - 1) / (m - 1)`` (0 when m == 1), "half_pixel"
``(i + 0.5) * scale - 0.5`` ("half_pixel_single_at_0": 0 when m == 1, MindSpore's
ResizeLinear1D), "asymmetric" ``i * scale``.
"""
import math

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from .elementwise import cast, mul
from .indexing import gather
from .reduction import sum as _sum
from .shape import movedim

__all__ = ["interpolate", "upsample"]


_BICUBIC_TABLE = 1024       # resolution of ResizeBicubic's weight table (MindSpore, TF)


# ---- tap tables: (index (m, k) int64, weight (m, k) float64 or None for one tap) -------

def _coords(n, m, transform, scale):
    i = np.arange(m, dtype=np.float64)
    if transform == "align_corners":
        return i * ((n - 1) / (m - 1)) if m > 1 else np.zeros(m)
    if transform == "half_pixel" or transform == "half_pixel_single_at_0" and m > 1:
        return (i + 0.5) * scale - 0.5
    return i * scale if transform == "asymmetric" else np.zeros(m)


def _scale(n, m, scale_factor):
    return 1.0 / scale_factor if scale_factor else n / m


def nearest_taps(n, m, scale_factor=None, rounding="floor", transform="asymmetric"):
    """Nearest source index: ``floor`` or ``round`` (half away from zero, TensorFlow's
    align_corners) of the coordinate; "half_pixel" here is TensorFlow's / nearest-exact's
    ``(i + 0.5) * scale`` (no -0.5)."""
    scale = _scale(n, m, scale_factor)
    if transform == "align_corners":
        scale = (n - 1) / (m - 1) if m > 1 else 0.0
    i = np.arange(m, dtype=np.float64)
    c = (i + 0.5) * scale if transform == "half_pixel" else i * scale
    if rounding == "floor" and scale_factor is None and transform == "asymmetric":
        index = (np.arange(m) * n) // m         # exact: no rounding of n / m
    else:
        index = np.floor(c) if rounding == "floor" else np.floor(c + 0.5)
    return np.clip(index, 0, n - 1).astype(np.int64)[:, None], None


def linear_taps(n, m, transform, scale_factor=None):
    c = np.maximum(_coords(n, m, transform, _scale(n, m, scale_factor)), 0.0)
    low = np.minimum(np.floor(c), n - 1)
    high = np.minimum(low + 1, n - 1)
    frac = np.clip(c - low, 0.0, 1.0)
    return (np.stack([low, high], 1).astype(np.int64),
            np.stack([1.0 - frac, frac], 1))


def _cubic_weights(t, a):
    """Keys' cubic convolution weights of the taps at offsets -1, 0, 1, 2 from the floor."""
    def near(d):        # |d| <= 1
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):         # 1 < |d| < 2
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return np.stack([far(t + 1), near(t), near(1 - t), far(2 - t)], 1)


def cubic_taps(n, m, transform, a=-0.75, exclude_outside=False, scale_factor=None,
               table=None):
    """Four taps around the coordinate, indices clamped to the axis; ``exclude_outside``
    (TensorFlow's half-pixel bicubic) gives taps outside the axis weight 0 and
    renormalizes the rest; ``table``: the fraction rounded to multiples of 1 / table
    (TensorFlow's and MindSpore's ResizeBicubic read the weights from a 1024-entry table)."""
    c = _coords(n, m, transform, _scale(n, m, scale_factor))
    floor = np.floor(c)
    t = c - floor if table is None else np.rint((c - floor) * table) / table
    weight = _cubic_weights(t, a)
    index = floor[:, None] + np.arange(-1, 3)[None, :]
    if exclude_outside:
        weight = np.where((index >= 0) & (index < n), weight, 0.0)
        weight = weight / weight.sum(1, keepdims=True)
    return np.clip(index, 0, n - 1).astype(np.int64), weight


def area_taps(n, m):
    """Adaptive average pooling: output i averages [floor(i n / m), ceil((i + 1) n / m))."""
    start = (np.arange(m) * n) // m
    stop = -((-(np.arange(m) + 1) * n) // m)
    k = int((stop - start).max())
    offset = np.arange(k)[None, :]
    inside = offset < (stop - start)[:, None]
    index = np.where(inside, start[:, None] + offset, 0)
    return index.astype(np.int64), inside / (stop - start)[:, None]


def _apply(x, axis, taps):
    """Resample axis ``axis`` of ``x`` by a tap table: a gather of the taps (so a NaN or
    inf input reaches only the outputs whose taps read it) weighted and summed. The axis
    is moved to the front first: gathering rows is what index_add, the gather's
    gradient, does fastest."""
    index, weight = taps
    front = movedim(x, axis, 0) if axis else x
    if weight is None:
        out = gather(front, coerce.constant(index[:, 0]), 0)
    else:
        picked = gather(front, coerce.constant(index), 0)        # (m, k, ...)
        shape = weight.shape + (1,) * (x.ndim - 1)
        out = _sum(mul(picked, coerce.constant(weight.reshape(shape), x.dtype)), 1)
    return movedim(out, 0, axis) if axis else out


def resample(x, make_taps, sizes, weighted=True):
    """Resize the trailing ``len(sizes)`` axes of ``x``: ``make_taps(axis_number, n, m)``
    gives each axis' table. Weighted modes compute float16 / bfloat16 in float32."""
    x = coerce.as_tensor(x, op="resize")
    first = x.ndim - len(sizes)
    low = weighted and x.dtype in (dt.float16, dt.bfloat16)
    out = cast(x, dt.float32) if low else x
    for k, m in enumerate(sizes):
        n = x.shape[first + k]
        if n == 0 or m == 0:
            raise ValueError(f"resize: cannot resize axis {first + k} from {n} to {m}")
        out = _apply(out, first + k, make_taps(k, n, m))
    return cast(out, x.dtype) if low else out


def _check_float(x, op, allow_int=False):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: 'input' must be a Tensor, got {type(x).__name__}")
    ok = dt.is_float(x.dtype) or allow_int and x.dtype != dt.bool_
    if not ok:
        raise TypeError(f"{op}: the input must be a float tensor"
                        f"{' or an int tensor' if allow_int else ''}, got {x.dtype}")


def resize_nearest(x, sizes, rounding="floor", transform="asymmetric", scales=None):
    """Nearest-neighbour resize of the trailing axes (MindSpore's ResizeNearestNeighbor(V2)
    and UpsampleNearest3D conventions)."""
    scales = scales or (None,) * len(sizes)
    return resample(x, lambda k, n, m: nearest_taps(n, m, scales[k], rounding, transform),
                    sizes, weighted=False)


def resize_linear(x, sizes, transform="half_pixel", scales=None):
    """(Bi / tri)linear resize of the trailing axes."""
    scales = scales or (None,) * len(sizes)
    return resample(x, lambda k, n, m: linear_taps(n, m, transform, scales[k]), sizes)


def resize_cubic(x, sizes, transform="half_pixel", a=-0.75, exclude_outside=False,
                 table=None):
    """Bicubic resize of the trailing axes."""
    return resample(x, lambda k, n, m: cubic_taps(n, m, transform, a, exclude_outside,
                                                  table=table), sizes)


def resize_adaptive_area(x, sizes):
    """Area (adaptive average) resize of the trailing axes."""
    return resample(x, lambda k, n, m: area_taps(n, m), sizes)


# ---- ops.interpolate -----------------------------------------------------------------

# mode -> the input ranks MindSpore 2.10 supports for it, and whether align_corners applies
_MODES = {"nearest": ((3, 4, 5), False), "linear": ((3,), True), "bilinear": ((4,), True),
          "bicubic": ((4,), True), "area": ((3, 4, 5), False),
          "nearest-exact": ((3, 4), False), "trilinear": ((5,), True)}


def _positive_ints(value, count, name):
    values = (value,) * count if isinstance(value, int) else tuple(coerce.as_shape(value, name))
    if len(values) != count:
        raise ValueError(f"interpolate: 'input' and '{name}' must have the same spatial "
                         f"dimensions, but got 'input' is {count}D, '{name}' is "
                         f"{len(values)}D")
    for i, v in enumerate(values):
        if isinstance(v, bool) or v <= 0:
            raise ValueError(f"interpolate: '{name}[{i}]' must be an int > 0, got {v!r}")
    return values


def _positive_floats(value, count):
    values = (value,) * count if isinstance(value, (int, float)) else tuple(value)
    if len(values) != count:
        raise ValueError(f"interpolate: 'input' and 'scale_factor' must have the same spatial "
                         f"dimensions, but got 'input' is {count}D, 'scale_factor' is "
                         f"{len(values)}D")
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0:
            raise ValueError(f"interpolate: 'scale_factor[{i}]' must be a float > 0, "
                             f"got {v!r}")
    return tuple(float(v) for v in values)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """Resize the spatial axes of an (N, C, [D, [H,]] W) tensor (MindSpore's
    ``ops.interpolate``).

    Exactly one of ``size`` (int or one int per spatial axis) and ``scale_factor`` (float
    or one per axis; the output is ``floor(in * scale_factor)``) is given. ``mode``:
    "nearest" (3-5-D), "nearest-exact" (3-4-D), "linear" (3-D), "bilinear" (4-D),
    "bicubic" (4-D, MindSpore's ResizeBicubic: weights from a 1024-entry table; a = -0.5
    with out-of-range taps excluded when ``align_corners`` is False, else -0.75), "trilinear" (5-D), "area" (3-5-D: adaptive
    average pooling). ``align_corners`` (default False; linear modes and bicubic only):
    map the corner pixels' centers onto each other. ``recompute_scale_factor``: compute
    the size from ``scale_factor`` and resize to it (the coordinates then use
    ``in / out``). Float dtypes (nearest modes: ints too); the result has the input's
    dtype. Differences from MindSpore: ``scale_factor`` works with every mode (MindSpore
    2.10 refuses it for nearest / bilinear / bicubic / linear 3-4-D), and bfloat16 and
    the nearest modes' int dtypes are accepted.

    >>> import tensorjit as ms
    >>> x = ms.Tensor([[[1., 2., 3.]]])
    >>> print(ms.ops.interpolate(x, size=6, mode="nearest"))
    [[[1. 1. 2. 2. 3. 3.]]]
    >>> print(ms.ops.interpolate(x, size=5, mode="linear", align_corners=True))
    [[[1.  1.5 2.  2.5 3. ]]]
    """
    if not isinstance(input, Tensor):
        raise TypeError(f"interpolate: 'input' must be a tensor, got {type(input).__name__}")
    if mode not in _MODES:
        raise ValueError(f"interpolate: 'mode' must be in {list(_MODES)}, got {mode!r}")
    ranks, has_corners = _MODES[mode]
    if input.ndim not in ranks:
        raise ValueError(f"interpolate: {mode} only supports {list(ranks)}-D input, "
                         f"got {input.ndim}-D")
    _check_float(input, "interpolate", allow_int=mode in ("nearest", "nearest-exact"))
    count = input.ndim - 2
    if size is not None and scale_factor is not None:
        raise ValueError("interpolate: 'size' and 'scale_factor' cannot be set simultaneously")
    if size is None and scale_factor is None:
        raise ValueError("interpolate: 'size' and 'scale_factor' cannot be both empty")
    if align_corners is not None:
        if not isinstance(align_corners, bool):
            raise TypeError(f"interpolate: 'align_corners' must be a bool, got "
                            f"{align_corners!r}")
        if not has_corners:
            raise ValueError(f"interpolate: 'align_corners' option cannot be set with the "
                             f"mode = {mode}")
    corners = bool(align_corners)
    in_sizes = tuple(input.shape[2:])
    scales = None
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("interpolate: it is incorrect to set 'recompute_scale_factor' "
                             "to True after specifying an explicit 'size'")
        sizes = _positive_ints(size, count, "size")
    else:
        factors = _positive_floats(scale_factor, count)
        sizes = tuple(math.floor(n * f) for n, f in zip(in_sizes, factors))
        if any(s <= 0 for s in sizes):
            raise ValueError(f"interpolate: scale_factor {factors} gives the empty size "
                             f"{sizes} for the input's {in_sizes}")
        if not recompute_scale_factor and mode != "area":
            scales = factors
    if mode == "nearest":
        return resize_nearest(input, sizes, scales=scales)
    if mode == "nearest-exact":
        return resize_nearest(input, sizes, transform="half_pixel", scales=scales)
    if mode == "area":
        return resize_adaptive_area(input, sizes)
    transform = "align_corners" if corners else "half_pixel"
    if mode == "bicubic":
        return resample(input, lambda k, n, m: cubic_taps(
            n, m, transform, -0.75 if corners else -0.5, not corners,
            None if scales is None else scales[k], _BICUBIC_TABLE), sizes)
    if mode == "linear" and not corners:
        transform = "half_pixel_single_at_0"        # ResizeLinear1D's one output: input 0
    return resize_linear(input, sizes, transform, None if corners else scales)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
             recompute_scale_factor=None):
    """MindSpore's ``ops.upsample``: the same as :func:`interpolate`.

    >>> import tensorjit as ms
    >>> print(ms.ops.upsample(ms.Tensor([[[1., 2.]]]), scale_factor=2.0))
    [[[1. 1. 2. 2.]]]
    """
    return interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


# ---- MindSpore's resize operator classes (ops.operations builds them from these) -------

def _two_sizes(size, op):
    sizes = coerce.as_shape(size, op)
    if len(sizes) != 2 or any(s <= 0 for s in sizes):
        raise ValueError(f"{op}: size must hold two positive ints (new height, new width), "
                         f"got {sizes}")
    return sizes


def _tf_image(image, size, align_corners, half_pixel_centers, op, allow_int=False):
    """The checks of the TensorFlow-style classes: an NCHW image, two sizes, and not
    both corner conventions at once."""
    _check_float(image, op, allow_int)
    if image.ndim != 4:
        raise ValueError(f"{op}: the image must be 4-D (N, C, H, W), got {image.ndim}-D")
    if align_corners and half_pixel_centers:
        raise ValueError(f"{op}: 'half_pixel_centers' must be False when 'align_corners' "
                         f"is True")
    return _two_sizes(size, op)


def _tf_transform(align_corners, half_pixel_centers):
    return "align_corners" if align_corners else \
        "half_pixel" if half_pixel_centers else "asymmetric"


def resize_nearest_neighbor_v2(image, size, *, align_corners=False,
                               half_pixel_centers=False):
    """``ops.ResizeNearestNeighborV2``: TensorFlow's nearest neighbour on NCHW (the
    source index is rounded with ``align_corners``, else floored)."""
    sizes = _tf_image(image, size, align_corners, half_pixel_centers,
                      "ResizeNearestNeighborV2", allow_int=True)
    return resize_nearest(image, sizes, "round" if align_corners else "floor",
                          _tf_transform(align_corners, half_pixel_centers))


def resize_nearest_neighbor(input_x, *, size, align_corners=False, half_pixel_centers=False):
    """``ops.ResizeNearestNeighbor(size, ...)(input_x)``: the size is an attribute.
    ``half_pixel_centers`` is accepted and, as on MindSpore 2.10's CPU, has no effect."""
    sizes = _tf_image(input_x, size, align_corners, half_pixel_centers,
                      "ResizeNearestNeighbor", allow_int=True)
    return resize_nearest(input_x, sizes, "round" if align_corners else "floor",
                          _tf_transform(align_corners, False))


def resize_bilinear_v2(image, size, *, align_corners=False, half_pixel_centers=False):
    """``ops.ResizeBilinearV2``: TensorFlow's bilinear resize of an NCHW image."""
    sizes = _tf_image(image, size, align_corners, half_pixel_centers, "ResizeBilinearV2")
    return resize_linear(image, sizes, _tf_transform(align_corners, half_pixel_centers))


def resize_bicubic(image, size, *, align_corners=False, half_pixel_centers=False):
    """``ops.ResizeBicubic``: TensorFlow's bicubic resize of an NCHW image (a = -0.5 with
    out-of-range taps excluded for half-pixel centers, else a = -0.75 and clamped taps)."""
    sizes = _tf_image(image, size, align_corners, half_pixel_centers, "ResizeBicubic")
    return resize_cubic(image, sizes, _tf_transform(align_corners, half_pixel_centers),
                        -0.5 if half_pixel_centers else -0.75, half_pixel_centers,
                        _BICUBIC_TABLE)


def resize_linear_1d(x, size, *, coordinate_transformation_mode="align_corners"):
    """``ops.ResizeLinear1D``: linear resize of the last axis of an (N, C, W) tensor;
    ``coordinate_transformation_mode`` "align_corners" or "half_pixel"."""
    op = "ResizeLinear1D"
    _check_float(x, op)
    if x.ndim != 3:
        raise ValueError(f"{op}: the input must be 3-D (N, C, W), got {x.ndim}-D")
    if coordinate_transformation_mode not in ("align_corners", "half_pixel"):
        raise ValueError(f"{op}: coordinate_transformation_mode must be 'align_corners' or "
                         f"'half_pixel', got {coordinate_transformation_mode!r}")
    sizes = coerce.as_shape(size, op)
    if len(sizes) != 1 or sizes[0] <= 0:
        raise ValueError(f"{op}: size must hold one positive int, got {sizes}")
    return resize_linear(x, sizes, "align_corners" if coordinate_transformation_mode ==
                         "align_corners" else "half_pixel_single_at_0")


def _sizes_3d(x, output_size, scales, op):
    _check_float(x, op)
    if x.ndim != 5:
        raise ValueError(f"{op}: the input must be 5-D (N, C, D, H, W), got {x.ndim}-D")
    if (output_size is None) == (scales is None):
        raise ValueError(f"{op}: exactly one of 'output_size' and 'scales' must be given")
    if output_size is not None:
        sizes = coerce.as_shape(output_size, op)
        if len(sizes) != 3 or any(s <= 0 for s in sizes):
            raise ValueError(f"{op}: output_size must hold 3 positive ints, got {sizes}")
        return sizes, None
    scales = tuple(float(s) for s in scales)
    if len(scales) != 3 or any(not s > 0 for s in scales):
        raise ValueError(f"{op}: scales must hold 3 positive floats, got {scales}")
    return tuple(math.floor(n * s) for n, s in zip(x.shape[2:], scales)), scales


def upsample_nearest_3d(x, output_size=None, scales=None):
    """``ops.UpsampleNearest3D()(x, output_size, scales)``: nearest resize of the last
    three axes to ``output_size``, or by ``scales`` (coordinates scaled by 1 / scale)."""
    sizes, scales = _sizes_3d(x, output_size, scales, "UpsampleNearest3D")
    return resize_nearest(x, sizes, scales=scales)


def upsample_trilinear_3d(x, output_size=None, scales=None, *, align_corners=False):
    """``ops.UpsampleTrilinear3D(align_corners)(x, output_size, scales)``."""
    sizes, scales = _sizes_3d(x, output_size, scales, "UpsampleTrilinear3D")
    if align_corners:
        return resize_linear(x, sizes, "align_corners")
    return resize_linear(x, sizes, "half_pixel", scales)


def area_box_taps(n, m, align_corners):
    """TensorFlow's ResizeArea: output i averages the input over the box [i s, (i + 1) s)
    (``s``: n / m, or (n - 1) / (m - 1) with align_corners), each input pixel weighted by
    its overlap with the box; pixels past the edge read the last one."""
    s = (n - 1) / (m - 1) if align_corners and m > 1 else n / m
    low, high = np.arange(m) * s, (np.arange(m) + 1) * s
    start, stop = np.floor(low).astype(np.int64), np.ceil(high).astype(np.int64)
    k = int((stop - start).max())
    pixel = start[:, None] + np.arange(k)[None, :]
    overlap = np.minimum(pixel + 1, high[:, None]) - np.maximum(pixel, low[:, None])
    weight = np.where(pixel < stop[:, None], np.clip(overlap, 0.0, None), 0.0) / s
    return np.clip(pixel, 0, n - 1), weight


def resize_area(images, size, *, align_corners=False):
    """``ops.ResizeArea(align_corners)(images, size)``: TensorFlow's area resize of an NHWC
    image to ``size`` (new height, new width); the result is float32 for every input
    dtype, as MindSpore's."""
    op = "ResizeArea"
    if not isinstance(images, Tensor):
        raise TypeError(f"{op}: 'images' must be a Tensor, got {type(images).__name__}")
    if images.dtype == dt.bool_:
        raise TypeError(f"{op}: the images must be numbers, got {images.dtype}")
    if images.ndim != 4:
        raise ValueError(f"{op}: the images must be 4-D (N, H, W, C), got {images.ndim}-D")
    sizes = _two_sizes(size, op)
    nhwc = cast(images, dt.float32)
    for axis, m in zip((1, 2), sizes):
        nhwc = _apply(nhwc, axis, area_box_taps(images.shape[axis], m, align_corners))
    return nhwc
