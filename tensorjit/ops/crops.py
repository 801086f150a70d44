"""Crops resampled to a fixed size: ``ops.crop_and_resize`` (``CropAndResize``, boxes in
normalised image coordinates, channels last) and the compute of ``ROIAlign`` (regions of
interest in pixel coordinates, channels first, each output bin the average of a grid of
bilinear samples).

Both are separable: every output row reads the input rows through one row of a weight
matrix ``A_y`` (box, out_h, H), every output column the input columns through ``A_x``
(box, out_w, W), so a crop is ``A_y @ image @ A_x^T``. The matrices are built from the
boxes with elementwise ops (a tap's weight where ``arange(H)`` equals its index), the
image of each box is a gather: so the crops differentiate with respect to the image (and,
for crop_and_resize, the boxes) and compile in every capture mode.
"""
import math

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from .boxes import check_dtype
from .elementwise import (add, sub, mul, div, where, floor, ceil, cast, eq, lt, gt, ge, le,
                          logical_and, logical_or, maximum, stop_gradient)
from .indexing import gather
from .linalg import matmul
from .reduction import sum as _sum
from .shape import reshape, transpose, expand_dims, concat

__all__ = ["crop_and_resize"]

_IMAGE_DTYPES = (dt.float16, dt.float32, dt.float64, dt.int16, dt.int32, dt.int64, dt.int8,
                 dt.uint16, dt.uint8)
_METHODS = ("bilinear", "nearest", "bilinear_v2")


def _taps(index, weight, size):
    """(..., size) weights: ``weight`` at ``index`` (a float tensor of whole numbers)."""
    positions = coerce.constant(np.arange(size, dtype=np.float64), weight.dtype)
    return mul(cast(eq(expand_dims(index, -1), positions), weight.dtype), expand_dims(weight, -1))


def _crop_axis(lo, hi, out, size, method):
    """(boxes, out, size) interpolation weights and the (boxes, out) in-range mask of one
    axis: source ``lo * (size - 1) + i * (hi - lo) * (size - 1) / (out - 1)`` (the box's
    centre when ``out`` is 1), TensorFlow's CropAndResize."""
    span = size - 1
    i = coerce.constant(np.arange(out, dtype=np.float64), lo.dtype)
    if out > 1:
        c = add(expand_dims(mul(lo, float(span)), -1),
                mul(i, expand_dims(mul(sub(hi, lo), span / (out - 1)), -1)))
    else:
        c = expand_dims(mul(add(lo, hi), 0.5 * span), -1)
    inside = logical_and(ge(c, 0.0), le(c, float(span)))
    c = where(inside, c, 0.0)
    if method == "nearest":
        return _taps(floor(add(c, 0.5)), where(inside, 1.0, 0.0), size), inside
    top, bottom = floor(c), ceil(c)
    frac = sub(c, top)
    return add(_taps(top, sub(1.0, frac), size), _taps(bottom, frac, size)), inside


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0):
    """Crops of ``image`` (batch, H, W, depth) at ``boxes`` ((num_boxes, 4) of normalised
    ``y1, x1, y2, x2``, from the images ``box_indices``), resized to ``crop_size`` with
    bilinear or nearest sampling; points outside the image read ``extrapolation_value``.
    A float32 (num_boxes, crop_h, crop_w, depth) tensor."""
    op = "CropAndResize"
    if method not in _METHODS:
        raise ValueError(f"For '{op}', the 'method' must be str and must be in '{list(_METHODS)}'"
                         f", but got '{method}'.")
    if not isinstance(extrapolation_value, float):
        raise TypeError(f"For '{op}', the type of 'extrapolation_value' should be 'float', but "
                        f"got type '{type(extrapolation_value).__name__}'.")
    if isinstance(crop_size, Tensor):
        crop_size = tuple(int(v) for v in crop_size.tolist())
    if not isinstance(crop_size, tuple):
        raise TypeError(f"For crop_and_resize, the input crop_size must be a tuple, but got "
                        f"{type(crop_size)}")
    if len(crop_size) != 2 or any(not isinstance(v, int) or v <= 0 for v in crop_size):
        raise ValueError(f"For crop_and_resize, the crop_size must be two positive ints, but "
                         f"got {crop_size}")
    x = check_dtype(coerce.as_tensor(image, op=op), _IMAGE_DTYPES, op, "x")
    boxes = check_dtype(coerce.as_tensor(boxes, op=op), (dt.float32,), op, "boxes")
    index = check_dtype(coerce.as_tensor(box_indices, op=op), (dt.int32,), op, "box_index")
    if x.ndim != 4:
        raise ValueError(f"For crop_and_resize, the input image must be 4D Tensor, but got is "
                         f"{x.ndim}D")
    if boxes.ndim != 2 or boxes.shape[-1] != 4:
        raise ValueError(f"For crop_and_resize, the input boxes must be 2D and the second-dim "
                         f"must be 4, but got {tuple(boxes.shape)}")
    if index.ndim != 1 or index.shape[0] != boxes.shape[0]:
        raise ValueError(f"For crop_and_resize, box_indices must be 1-D with one index per box, "
                         f"but got shape {tuple(index.shape)} for {boxes.shape[0]} boxes")
    height, width = x.shape[1], x.shape[2]
    a_y, in_y = _crop_axis(boxes[:, 0], boxes[:, 2], crop_size[0], height, method)
    a_x, in_x = _crop_axis(boxes[:, 1], boxes[:, 3], crop_size[1], width, method)
    crops = gather(cast(x, dt.float32), index, 0)                  # (boxes, H, W, depth)
    # (boxes, out_h, H) @ (boxes, H, W * depth) -> rows, then the columns likewise
    depth = x.shape[3]
    rows = matmul(a_y, reshape(crops, (boxes.shape[0], height, width * depth)))
    rows = reshape(rows, (boxes.shape[0], crop_size[0], width, depth))
    out = matmul(expand_dims(a_x, 1), rows)                        # (boxes, out_h, out_w, d)
    inside = expand_dims(logical_and(expand_dims(in_y, -1), expand_dims(in_x, 1)), -1)
    return where(inside, out, extrapolation_value)


# ---- ROIAlign ------------------------------------------------------------------------------

def _roi_axis(start, end, pooled, samples, size, roi_end_mode):
    """(rois, pooled, size) weights of one axis: each bin the mean of ``samples`` bilinear
    reads at ``start + (p + (k + 0.5) / samples) * bin`` (MindSpore's ROIAlign: a point
    further than one pixel outside reads 0; below 0 it reads pixel 0; at or past the last
    pixel it reads the last)."""
    length = sub(end, start)
    if roi_end_mode == 0:            # the legacy convention: regions at least a pixel wide
        length = maximum(length, 1.0)
    step = div(length, float(pooled))
    offsets = (np.arange(pooled)[:, None] + (np.arange(samples)[None, :] + 0.5) / samples)
    offsets = coerce.constant(offsets.reshape(-1), start.dtype)    # (pooled * samples,)
    c = add(expand_dims(start, -1), mul(expand_dims(step, -1), offsets))
    outside = logical_or(lt(c, -1.0), gt(c, float(size)))
    c = maximum(c, 0.0)
    last = ge(floor(c), float(size - 1))
    low = where(last, float(size - 1), floor(c))
    frac = where(last, 0.0, sub(c, low))
    keep = where(outside, 0.0, 1.0 / samples)
    weights = add(_taps(low, mul(sub(1.0, frac), keep), size),
                  _taps(add(low, 1.0), mul(frac, keep), size))
    rois = start.shape[0]
    return _sum(reshape(weights, (rois, pooled, samples, size)), 2)


def _sample_counts(rois, pooled, start, scale, roi_end_mode):
    """sample_num <= 0: ceil(region / pooled) samples per bin for each region (at least
    one), read from the values (the count shapes the computation)."""
    values = rois.asnumpy().astype(np.float64)
    length = (values[:, start + 2] + roi_end_mode - values[:, start]) * scale
    if roi_end_mode == 0:
        length = np.maximum(length, 1.0)
    return [max(1, int(math.ceil(v / pooled))) for v in length]


def roi_align(features, rois, *, pooled_height, pooled_width, spatial_scale, sample_num=2,
              roi_end_mode=1):
    """``ROIAlign``: (num_rois, C, pooled_height, pooled_width) averages of bilinear
    samples of ``features`` (N, C, H, W) in the regions ``rois`` (num_rois, 5) of rows
    ``(batch index, x1, y1, x2, y2)`` scaled by ``spatial_scale``. Its gradient flows to
    the features only (MindSpore's)."""
    op = "ROIAlign"
    for name, value, kind in (("pooled_height", pooled_height, int),
                              ("pooled_width", pooled_width, int),
                              ("spatial_scale", spatial_scale, float),
                              ("sample_num", sample_num, int), ("roi_end_mode", roi_end_mode, int)):
        if not isinstance(value, kind) or isinstance(value, bool):
            raise TypeError(f"For '{op}', the type of '{name}' should be '{kind.__name__}', but "
                            f"got type '{type(value).__name__}'.")
    if roi_end_mode not in (0, 1):
        raise ValueError(f"For '{op}', the 'roi_end_mode' must be in range of [0, 1], but got "
                         f"{roi_end_mode} with type 'int'.")
    if pooled_height <= 0 or pooled_width <= 0:
        raise ValueError(f"For '{op}', 'pooled_height' and 'pooled_width' must be positive, "
                         f"but got {pooled_height} and {pooled_width}.")
    x = check_dtype(coerce.as_tensor(features, op=op), (dt.float16, dt.float32), op, "feature")
    regions = check_dtype(coerce.as_tensor(rois, op=op), (dt.float16, dt.float32), op, "rois")
    if x.ndim != 4:
        raise ValueError(f"For primitive[{op}], the rank of features shape must be equal to 4, "
                         f"but got {x.ndim}.")
    if regions.ndim != 2:
        raise ValueError(f"For primitive[{op}], the rank of rois shape must be equal to 2, but "
                         f"got {regions.ndim}.")
    if regions.shape[1] != 5:
        raise ValueError(f"The argument[second dim of rois shape] must be equal to 5, but got "
                         f"{regions.shape[1]}.")
    work = dt.float32
    r = stop_gradient(cast(regions, work))       # MindSpore's gradient for the rois is zero
    height, width = x.shape[2], x.shape[3]

    def weights(rows, count_h, count_w):
        def scaled(k, end=False):
            return mul(add(rows[:, k], float(roi_end_mode)) if end else rows[:, k], spatial_scale)
        return (_roi_axis(scaled(2), scaled(4, True), pooled_height, count_h, height,
                          roi_end_mode),
                _roi_axis(scaled(1), scaled(3, True), pooled_width, count_w, width, roi_end_mode))
    if sample_num > 0:
        a_y, a_x = weights(r, sample_num, sample_num)
    else:                            # a sample count per region: one region at a time
        counts = zip(_sample_counts(regions, pooled_height, 2, spatial_scale, roi_end_mode),
                     _sample_counts(regions, pooled_width, 1, spatial_scale, roi_end_mode))
        parts = [weights(r[i:i + 1], ch, cw) for i, (ch, cw) in enumerate(counts)]
        a_y = concat([p[0] for p in parts], 0) if parts else weights(r, 1, 1)[0]
        a_x = concat([p[1] for p in parts], 0) if parts else weights(r, 1, 1)[1]
    images = gather(cast(x, work), cast(r[:, 0], dt.int64), 0)      # (rois, C, H, W)
    out = matmul(matmul(expand_dims(a_y, 1), images), expand_dims(transpose(a_x, (0, 2, 1)), 1))
    return cast(out, x.dtype)
