"""Table entries: detection and image ops (bounding boxes, IoU, grid sampling, affine
grids, crops), against NumPy formulas written here: boxes are rows (x0, y0, x1, y1) of
inclusive pixel coordinates (width x1 - x0 + 1, MindSpore's CPU kernels); sampling is
per-point bilinear / nearest / bicubic interpolation written as loops."""
import math

import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, ErrorCase, bool_result

_BOX_DTYPES = (dt.float16, dt.float32)
_BOX_TOL = {dt.float16: (4e-3, 4e-3), dt.float32: (1e-5, 1e-5)}
_NO_GRAD = "MindSpore 2.10 defines no gradient for it (IOU's is zero, as here)"


def _random_boxes(rng, n, lo=0.0, hi=10.0, size=8.0):
    corner = rng.uniform(lo, hi, (n, 2))
    return np.concatenate([corner, corner + rng.uniform(0.0, size, (n, 2))], 1)


def _as(dtype, a):
    """``a`` in ``dtype``: integers are rounded (boxes of whole pixels)."""
    return a.astype(dtype) if dt.is_float(dtype) else np.round(np.abs(a)).astype(dtype)


# ---- bounding_box_encode / bounding_box_decode -------------------------------------------

def _centres(b):
    return ((b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2,
            b[:, 2] - b[:, 0] + 1, b[:, 3] - b[:, 1] + 1)


def _encode_ref(anchor, truth, means=(0.0,) * 4, stds=(1.0,) * 4):
    px, py, pw, ph = _centres(anchor)
    gx, gy, gw, gh = _centres(truth)
    d = np.stack([(gx - px) / pw, (gy - py) / ph, np.log(gw / pw), np.log(gh / ph)], -1)
    return (d - np.array(means)) / np.array(stds)


def _decode_ref(anchor, deltas, max_shape, means=(0.0,) * 4, stds=(1.0,) * 4,
                wh_ratio_clip=0.016):
    d = deltas * np.array(stds) + np.array(means)
    limit = abs(math.log(wh_ratio_clip))
    dw, dh = np.clip(d[:, 2], -limit, limit), np.clip(d[:, 3], -limit, limit)
    px, py, pw, ph = _centres(anchor)
    gx, gy, gw, gh = px + pw * d[:, 0], py + ph * d[:, 1], pw * np.exp(dw), ph * np.exp(dh)
    h, w = max_shape
    return np.stack([np.clip(gx - gw / 2 + 0.5, 0, w), np.clip(gy - gh / 2 + 0.5, 0, h),
                     np.clip(gx + gw / 2 - 0.5, 0, w), np.clip(gy + gh / 2 - 0.5, 0, h)], -1)


def _encode_samples(dtype, rng, full):
    a, b = _random_boxes(rng, 5), _random_boxes(rng, 5)
    return [Sample(_as(dtype, a), _as(dtype, b), label="boxes"),
            Sample(_as(dtype, a[:3]), _as(dtype, b[:3]), (0.1, -0.2, 0.0, 0.3),
                   (0.5, 2.0, 1.0, 0.25), label="means and stds"),
            Sample(_as(dtype, a[:0]), _as(dtype, b[:0]), label="no boxes"),
            Sample(_as(dtype, a[:3]), _as(dtype, b[:2]), label="counts differ",
                   raises=ValueError),
            Sample(_as(dtype, a[:, :3]), _as(dtype, b[:, :3]), label="3 columns",
                   raises=ValueError),
            Sample(_as(dtype, a), _as(dtype, b), (0, 0, 0, 0), label="int means",
                   raises=TypeError)]


def _decode_samples(dtype, rng, full):
    a, d = _random_boxes(rng, 5), rng.uniform(-1.5, 1.5, (5, 4))
    big = np.array([[0, 0, 100, -100], [10, 10, 0, 0]], np.float64)
    return [Sample(_as(dtype, a), _as(dtype, d), (12, 15), label="deltas"),
            Sample(_as(dtype, a[:2]), _as(dtype, big), (50, 40), label="clipped sizes, corners",
                   smooth=False),
            Sample(_as(dtype, a[:3]), _as(dtype, d[:3]), (20, 20), (0.1, 0.2, 0.3, 0.4),
                   (0.5, 2.0, 1.5, 1.0), 0.5, label="means, stds, clip"),
            Sample(_as(dtype, a), _as(dtype, d), [12, 15], label="max_shape a list",
                   raises=TypeError),
            Sample(_as(dtype, a), _as(dtype, d), (12, 15), wh_ratio_clip=1,
                   label="int clip", raises=TypeError)]


_BOX_NOTES = {"dtypes": "float16 / float32 (MindSpore's CPU kernels; float16 computes in "
                        "float32)", "gradient": _NO_GRAD}
op("bounding_box_encode", ref=_encode_ref, dtypes=_BOX_DTYPES, tol=_BOX_TOL, grad=False,
   samples=_encode_samples, notes=_BOX_NOTES, errors=[
       ErrorCase(Sample(np.ones((2, 4), np.float32), np.ones((2, 4), np.float16)), TypeError,
                 "BoundingBoxEncode", "mixed dtypes")])
op("bounding_box_decode", ref=_decode_ref, dtypes=_BOX_DTYPES, tol=_BOX_TOL, grad=False,
   samples=_decode_samples, notes=_BOX_NOTES, errors=[
       ErrorCase(Sample(np.ones((2, 4), np.float32), np.ones((2, 4), np.float32), (4, 4, 4)),
                 ValueError, "BoundingBoxDecode", "a max_shape of 3 values")])


# ---- iou / check_valid ---------------------------------------------------------------------

def _iou_ref(anchors, truth, mode="iou"):
    a, g = anchors[None], truth[:, None]
    w = np.maximum(np.minimum(a[..., 2], g[..., 2]) - np.maximum(a[..., 0], g[..., 0]) + 1, 0)
    h = np.maximum(np.minimum(a[..., 3], g[..., 3]) - np.maximum(a[..., 1], g[..., 1]) + 1, 0)

    def area(b):
        return (b[..., 2] - b[..., 0] + 1) * (b[..., 3] - b[..., 1] + 1)
    overlap = w * h
    return overlap / (area(g) if mode == "iof" else area(a) + area(g) - overlap)


def _iou_samples(dtype, rng, full):
    a, g = _random_boxes(rng, 4), _random_boxes(rng, 3)
    return [Sample(_as(dtype, a), _as(dtype, g), label="iou"),
            Sample(_as(dtype, a), _as(dtype, g), "iof", label="iof"),
            Sample(_as(dtype, a[:2]), _as(dtype, g[:0]), label="no ground truth"),
            Sample(_as(dtype, a), _as(dtype, g), "giou", label="mode giou", raises=KeyError),
            Sample(_as(dtype, a[0]), _as(dtype, g[0]), label="1-d", raises=ValueError)]


op("iou", ref=_iou_ref, dtypes=_BOX_DTYPES + (dt.float64,), tol=_BOX_TOL, grad=False,
   samples=_iou_samples, notes={"dtypes": "float16 / float32 / float64; float16 computes in "
                                "float32", "gradient": _NO_GRAD})


def _check_valid_ref(boxes, metas):
    h, w = metas[0] * metas[2] - 1, metas[1] * metas[2] - 1
    return (boxes[:, 0] >= 0) & (boxes[:, 1] >= 0) & (boxes[:, 2] <= w) & (boxes[:, 3] <= h)


def _check_valid_samples(dtype, rng, full):
    edges = np.array([[0, 0, 13, 11], [0, 0, 14, 11], [0, 0, 13, 12], [-1, 0, 3, 3],
                      [0, -1, 3, 3], [0, 0, 12.5, 10.5], [2, 2, 1, 1]], np.float64)
    if not dt.is_float(dtype):
        edges = np.abs(np.round(edges))
    return [Sample(edges.astype(dtype), np.array([12, 14, 1]).astype(dtype), label="edges"),
            Sample(edges.astype(dtype), np.array([6, 7, 2]).astype(dtype), label="ratio 2"),
            Sample(_as(dtype, _random_boxes(rng, 4, -2.0)), np.array([9, 8, 1]).astype(dtype),
                   label="random"),
            Sample(edges.astype(dtype), np.array([12, 14, 1, 1]).astype(dtype),
                   label="4 metas", raises=ValueError)]


op("check_valid", ref=_check_valid_ref, dtypes=(dt.float16, dt.float32, dt.int16, dt.uint8),
   result=bool_result, grad=False, samples=_check_valid_samples,
   notes={"dtypes": "float16 / float32 / int16 / uint8 (MindSpore's CPU kernel); the two "
                    "inputs are both floats or of one dtype"})


# ---- grid_sample / affine_grid -------------------------------------------------------------

def _pixel(g, size, corners):
    return (g + 1) / 2 * (size - 1) if corners else ((g + 1) * size - 1) / 2


def _fold(c, size, padding, corners):
    """A pixel coordinate folded back by the padding mode (mirror about the borders)."""
    if padding == "border":
        return min(max(c, 0.0), size - 1.0)
    if padding == "reflection":
        low, high = (0.0, size - 1.0) if corners else (-0.5, size - 0.5)
        span = high - low
        if span <= 0:
            return 0.0
        t = abs(c - low) % (2 * span)
        c = low + (t if t <= span else 2 * span - t)
        return min(max(c, 0.0), size - 1.0)
    return c


def _grid_sample_ref(x, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    corners = bool(align_corners)
    spatial = x.shape[2:]
    k = len(spatial)
    out = np.zeros(x.shape[:2] + grid.shape[1:-1])
    for n in range(x.shape[0]):
        for at in np.ndindex(*grid.shape[1:-1]):
            g = grid[(n,) + at]
            # grid coordinate j is the spatial axis k - 1 - j
            c = [_fold(_pixel(g[k - 1 - a], spatial[a], corners), spatial[a], padding_mode,
                       corners) for a in range(k)]
            if mode == "nearest":
                taps = [([int(np.rint(v))], [1.0]) for v in c]
            else:
                taps = [([int(np.floor(v)), int(np.floor(v)) + 1],
                         [1 - (v - np.floor(v)), v - np.floor(v)]) for v in c]
            value = 0.0
            for pick in np.ndindex(*[len(t[0]) for t in taps]):
                idx = [taps[a][0][p] for a, p in enumerate(pick)]
                if all(0 <= i < s for i, s in zip(idx, spatial)):
                    w = np.prod([taps[a][1][p] for a, p in enumerate(pick)])
                    value = value + w * x[(n, slice(None)) + tuple(idx)]
            out[(n, slice(None)) + at] = value
    return out


def _grid_samples(dtype, rng, full):
    def r(*shape, lo=-1.0, hi=1.0):
        return rng.uniform(lo, hi, shape).astype(dtype)
    x, x3 = r(2, 2, 3, 4), r(1, 2, 2, 3, 3)
    wide, wide3 = r(2, 3, 2, 2, lo=-1.4, hi=1.4), r(1, 2, 2, 1, 3, lo=-1.4, hi=1.4)
    return [Sample(x, wide, label="bilinear zeros"),
            Sample(x, wide, "bilinear", "border", True, label="border, corners"),
            Sample(x, wide, "bilinear", "reflection", label="reflection"),
            Sample(x, wide, "bilinear", "reflection", True, label="reflection, corners"),
            Sample(x, wide, "nearest", "zeros", label="nearest", smooth=False),
            Sample(x3, wide3, label="3-d trilinear"),
            Sample(x3, wide3, "nearest", "border", True, label="3-d nearest", smooth=False),
            Sample(x3, wide3, "bilinear", "reflection", True, label="3-d reflection"),
            Sample(x, wide, "bicubic", label="bicubic", raises=ValueError),
            Sample(x, wide[:1], label="batches differ", raises=ValueError)]


def _torch_grid_sample(torch, x, grid, mode="bilinear", padding_mode="zeros",
                       align_corners=None):
    return torch.nn.functional.grid_sample(x, grid, mode, padding_mode, bool(align_corners))


_SAMPLE_TOL = {dt.float16: (4e-3, 4e-3), dt.float32: (1e-5, 1e-5), dt.float64: (1e-12, 1e-12)}
op("grid_sample", ref=_grid_sample_ref, dtypes=(dt.float16, dt.float32, dt.float64),
   tol=_SAMPLE_TOL, samples=_grid_samples, torch=_torch_grid_sample, signed_zeros=False,
   notes={"zeros": "a point outside the input is a sum of taps times zero weights: its "
                   "zero's sign is not meaningful",
       "construction": "one gather_elements per corner of the interpolation cell over the "
                       "flattened spatial axes, weighted by elementwise ops on the grid: it "
                       "differentiates with respect to the input and the grid",
       "modes": "bilinear (trilinear in 3-D) and nearest (round half to even); padding "
                "zeros, border, reflection (MindSpore 2.10 refuses bicubic on CPU)",
       "dtypes": "float16 / float32 / float64, the grid of the input's dtype; float16 "
                 "computes in float32"},
   errors=[ErrorCase(Sample(np.ones((1, 1, 2, 2)), np.zeros((1, 2, 2, 2), np.float32)),
                     TypeError, "data type", "a grid of another dtype")])


def _affine_grid_ref(theta, size, align_corners=False):
    spatial = size[2:]

    def axis(n):
        if n <= 1:
            return np.zeros(n)
        s = np.linspace(-1, 1, n)
        return s if align_corners else s * (n - 1) / n
    mesh = np.meshgrid(*[axis(n) for n in spatial], indexing="ij")
    base = np.stack(list(mesh[::-1]) + [np.ones(spatial)], -1)       # (x, y[, z], 1)
    return np.einsum("...j,nij->n...i", base, theta)


def _affine_samples(dtype, rng, full):
    def r(*shape):
        return rng.uniform(-1.5, 1.5, shape).astype(dtype)
    return [Sample(r(2, 2, 3), (2, 3, 4, 5), label="2-d"),
            Sample(r(1, 2, 3), (1, 1, 3, 1), True, label="2-d corners, one column"),
            Sample(r(2, 3, 4), (2, 1, 2, 3, 4), label="3-d"),
            Sample(r(1, 3, 4), (1, 2, 3, 2, 2), True, label="3-d corners"),
            Sample(r(2, 2, 3), (3, 3, 4, 5), label="batches differ", raises=ValueError),
            Sample(r(2, 2, 3), [2, 3, 4, 5], label="size a list", raises=TypeError),
            Sample(r(2, 3, 4), (2, 3, 4, 5), label="3-d theta, 2-d size", raises=ValueError)]


op("affine_grid", ref=_affine_grid_ref, dtypes=(dt.float16, dt.float32, dt.float64),
   tol=_SAMPLE_TOL, samples=_affine_samples,
   torch=lambda torch, theta, size, align_corners=False: torch.nn.functional.affine_grid(
       theta, list(size), align_corners),
   notes={"construction": "a constant grid of homogeneous pixel coordinates times theta^T "
                          "(matmul): differentiable in theta",
          "dtypes": "float16 / float32 as MindSpore's CPU kernel, and float64 (which "
                    "MindSpore 2.10 refuses); float16 computes in float32"})


# ---- crop_and_resize / ROIAlign ------------------------------------------------------------

def _crop_ref(image, boxes, box_indices, crop_size, method="bilinear", extrapolation_value=0.0):
    """TensorFlow's CropAndResize, point by point (in float64 for every image dtype)."""
    image = image.astype(np.float64)
    _, height, width, depth = image.shape
    out = np.zeros((boxes.shape[0],) + tuple(crop_size) + (depth,))

    def source(lo, hi, i, n, size):
        if n > 1:
            return lo * (size - 1) + i * (hi - lo) * (size - 1) / (n - 1)
        return 0.5 * (lo + hi) * (size - 1)
    for b, (y1, x1, y2, x2) in enumerate(boxes):
        im = image[int(box_indices[b])]
        for i in range(crop_size[0]):
            y = source(y1, y2, i, crop_size[0], height)
            for j in range(crop_size[1]):
                x = source(x1, x2, j, crop_size[1], width)
                if not (0 <= y <= height - 1 and 0 <= x <= width - 1):
                    out[b, i, j] = extrapolation_value
                elif method == "nearest":
                    out[b, i, j] = im[int(math.floor(y + 0.5)), int(math.floor(x + 0.5))]
                else:
                    t, u, left, right = (int(math.floor(y)), int(math.ceil(y)),
                                         int(math.floor(x)), int(math.ceil(x)))
                    fy, fx = y - t, x - left
                    top = im[t, left] + (im[t, right] - im[t, left]) * fx
                    bottom = im[u, left] + (im[u, right] - im[u, left]) * fx
                    out[b, i, j] = top + (bottom - top) * fy
    return out


_CROP_BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [0.9, 0.7, 0.2, 0.1], [-0.2, -0.1, 1.3, 1.1],
                        [0.5, 0.5, 0.5, 0.5]], np.float32)


def _crop_samples(dtype, rng, full):
    image = (rng.uniform(-3, 3, (2, 5, 6, 2)) if dt.is_float(dtype)
             else rng.integers(0, 9, (2, 5, 6, 2))).astype(dtype)
    at = np.array([0, 1, 1, 0], np.int32)
    return [Sample(image, _CROP_BOXES, at, (3, 4), label="bilinear"),
            Sample(image, _CROP_BOXES, at, (1, 1), "bilinear", -1.5, label="one point"),
            Sample(image, _CROP_BOXES, at, (4, 1), "nearest", 2.0, label="nearest", smooth=False),
            Sample(image, _CROP_BOXES[:2], at[:2], (2, 3), "bilinear_v2", label="bilinear_v2"),
            Sample(image, _CROP_BOXES, at, [3, 4], label="crop_size a list", raises=TypeError),
            Sample(image, _CROP_BOXES, at, (3, 4), "area", label="method area",
                   raises=ValueError)]


def _crop_grad_samples(rng, full):
    image = rng.uniform(-3, 3, (2, 5, 6, 2))
    boxes = rng.uniform(0.05, 0.95, (3, 4)).astype(np.float32)
    return [Sample(image, boxes, np.array([1, 0, 1], np.int32), (3, 2), label="image")]


op("crop_and_resize", ref=_crop_ref, dtypes=(dt.float16, dt.float32, dt.float64, dt.int8,
                                             dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16),
   result=lambda *dtypes: dt.float32, samples=_crop_samples, grad_samples=_crop_grad_samples,
   tol={dt.float32: (1e-5, 1e-5)}, fuzz=False,
   fd=(1e-2, 1e-3),    # linear in the image, computed in float32: a wide step, float32 error
   notes={
       "construction": "separable: a (box, out, size) weight matrix per axis built from the "
                       "boxes with elementwise ops, the box's image a gather, the crop two "
                       "matmuls; differentiable with respect to the image and the boxes",
       "bilinear_v2": "computed as bilinear (the documented meaning); MindSpore 2.10's CPU "
                      "kernel gives other values for it",
       "result": "float32 for every image dtype (MindSpore)"},
   ms_differs={"value:bilinear_v2": "MindSpore 2.10's CPU kernel samples other points for "
                                    "bilinear_v2; we compute the documented bilinear crop"})


def _roi_align_ref(x, rois, pooled_height, pooled_width, spatial_scale, sample_num=2,
                   roi_end_mode=1, through_float32=False):
    """MindSpore's ROIAlign: each bin the mean of sample_num^2 bilinear reads."""
    def read(img, y, x):
        h, w = img.shape[-2:]
        if y < -1.0 or y > h or x < -1.0 or x > w:
            return 0.0
        y, x = max(y, 0.0), max(x, 0.0)
        yl, xl = int(math.floor(y)), int(math.floor(x))
        yh, xh = min(yl + 1, h - 1), min(xl + 1, w - 1)
        if yl >= h - 1:
            yl, y = h - 1, float(h - 1)
        if xl >= w - 1:
            xl, x = w - 1, float(w - 1)
        ly, lx = y - yl, x - xl
        return ((1 - ly) * (1 - lx) * img[..., yl, xl] + (1 - ly) * lx * img[..., yl, xh]
                + ly * (1 - lx) * img[..., yh, xl] + ly * lx * img[..., yh, xh])
    out = np.zeros((rois.shape[0], x.shape[1], pooled_height, pooled_width))
    for r, (b, x1, y1, x2, y2) in enumerate(rois):
        sw, sh = x1 * spatial_scale, y1 * spatial_scale
        rw = (x2 + roi_end_mode) * spatial_scale - sw
        rh = (y2 + roi_end_mode) * spatial_scale - sh
        if roi_end_mode == 0:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / pooled_height, rw / pooled_width
        gh = sample_num if sample_num > 0 else max(1, math.ceil(rh / pooled_height))
        gw = sample_num if sample_num > 0 else max(1, math.ceil(rw / pooled_width))
        for p in range(pooled_height):
            for q in range(pooled_width):
                total = sum(read(x[int(b)], sh + p * bh + (i + 0.5) * bh / gh,
                                 sw + q * bw + (j + 0.5) * bw / gw)
                            for i in range(gh) for j in range(gw))
                out[r, :, p, q] = total / (gh * gw)
    return out


_ROIS = np.array([[0, 1.2, 0.7, 5.3, 6.1], [1, -2, -1, 3, 2], [1, 4, 3, 4.5, 3.2],
                  [0, 2, 2, 14, 12]], np.float64)


def _roi_samples(dtype, rng, full):
    x = rng.uniform(-2, 2, (2, 2, 7, 8)).astype(dtype)
    rois = _ROIS.astype(dtype)
    return [Sample(x, rois, 2, 2, 0.5, label="2x2"),
            Sample(x, rois, 2, 3, 0.75, 1, 0, label="legacy ends"),
            Sample(x, rois[:2], 3, 2, 0.5, 0, 1, label="adaptive samples"),
            Sample(x, rois, 2, 2, 1, label="int spatial_scale", raises=TypeError)]


def _roi_align_op(x, rois, pooled_height, pooled_width, spatial_scale, sample_num=2,
                  roi_end_mode=1, through_float32=False):
    """``ops.ROIAlign``; ``through_float32``: float64 features cast to float32 first (the
    gradient samples: the gradient check differentiates float64 inputs only)."""
    from tensorjit import ops
    if through_float32:
        x = ops.cast(x, dt.float32)
    return ops.ROIAlign(pooled_height, pooled_width, spatial_scale, sample_num,
                        roi_end_mode)(x, rois)


op("ROIAlign", op=_roi_align_op, ms=None, ref=_roi_align_ref, dtypes=_BOX_DTYPES,
   tol=_BOX_TOL, samples=_roi_samples, nondiff=(1,), fuzz=False, fd=(1e-2, 1e-3),
   grad_samples=lambda rng, full: [Sample(rng.uniform(-2, 2, (2, 2, 7, 8)), _ROIS.astype(
       np.float32), 2, 2, 0.5, through_float32=True, label="features")],
   notes={"construction": "separable: per region a (pooled, size) matrix of averaged "
                          "bilinear weights per axis (elementwise ops on the regions), the "
                          "region's image a gather, two matmuls; the gradient flows to the "
                          "features only (MindSpore's rois gradient is zero)",
          "sample_num <= 0": "ceil(region / pooled) samples per bin for each region, read "
                             "from the values (MindSpore 2.10's CPU kernel returns NaN or "
                             "unstable values there)",
          "recorded": "MindSpore's values: tests/mindspore_ref/op_class_cases.py"})


# ---- RGBToHSV (the colour class MindSpore differentiates) -----------------------------------

def _rgb_to_hsv_ref(x):
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    v = np.maximum(r, np.maximum(g, b))
    spread = v - np.minimum(r, np.minimum(g, b))
    with np.errstate(all="ignore"):
        s = np.where(v > 0, spread / np.where(v > 0, v, 1), 0.0)
        safe = np.where(spread > 0, spread, 1)
        h = np.where(r == v, (g - b) / safe, np.where(g == v, 2 + (b - r) / safe,
                                                      4 + (r - g) / safe)) / 6
    h = np.where(spread > 0, np.where(h < 0, h + 1, h), 0.0)
    return np.stack([h, s, v], -1)


def _rgb_samples(dtype, rng, full):
    grey = np.array([[0.3, 0.3, 0.3], [0.0, 0.0, 0.0], [1.0, 0.0, 1.0]])
    return [Sample(rng.uniform(0, 1, (2, 3, 3)).astype(dtype), label="random"),
            Sample(grey.astype(dtype), label="grey, black, ties", smooth=False),
            Sample(rng.uniform(0, 1, (2, 4)).astype(dtype), label="4 channels",
                   raises=ValueError)]


def _rgb_to_hsv_op(x):
    from tensorjit import ops
    return ops.RGBToHSV()(x)


op("RGBToHSV", op=_rgb_to_hsv_op, ms=None,
   ref=_rgb_to_hsv_ref, dtypes=(dt.float16, dt.float32, dt.float64), tol=_SAMPLE_TOL,
   samples=_rgb_samples, fuzz=False,
   notes={"construction": "elementwise: max / min of the channels, the hue's sector by where",
          "recorded": "MindSpore's values: tests/mindspore_ref/op_class_cases.py"})
