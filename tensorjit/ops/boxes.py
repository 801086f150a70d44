"""Bounding boxes (MindSpore's detection helpers): ``bounding_box_encode`` /
``bounding_box_decode`` (the offsets a detector regresses), ``iou`` (pairwise overlap) and
``check_valid`` (boxes inside the image).

Boxes are rows ``(x0, y0, x1, y1)`` of inclusive pixel coordinates, so a box's width is
``x1 - x0 + 1`` (MindSpore's CPU kernels, after Faster R-CNN). Everything is elementwise
arithmetic on the four columns, so it runs in every capture mode; float16 computes in
float32 and rounds once at the end.
"""
import math

from .. import dtype as dt
from . import coerce
from .elementwise import (add, sub, mul, div, exp, log, clamp, maximum, minimum, cast,
                          logical_and, ge, le, stop_gradient)
from .shape import stack, expand_dims

__all__ = ["bounding_box_encode", "bounding_box_decode", "iou", "check_valid"]

_BOX_DTYPES = (dt.float16, dt.float32)


def check_dtype(x, allowed, op, arg):
    """TypeError (MindSpore's wording) unless ``x`` is a tensor of one of ``allowed``."""
    if x.dtype not in allowed:
        names = ", ".join(f"Tensor[{str(d).capitalize()}]" for d in allowed)
        raise TypeError(f"For primitive[{op}], the input argument[{arg}] must be a type of "
                        f"{{{names}}}, but got Tensor[{str(x.dtype).capitalize()}].")
    return x


def _boxes(value, op, arg, allowed=_BOX_DTYPES):
    x = coerce.as_tensor(value, op=op)
    check_dtype(x, allowed, op, arg)
    if x.ndim != 2:
        raise ValueError(f"For primitive[{op}], the {arg} rank must be equal to 2, "
                         f"but got {x.ndim}.")
    if x.shape[1] != 4:
        raise ValueError(f"For '{op}', '{arg}' last dimension must be 4, but got: "
                         f"{x.shape[1]}.")
    return x


def _pair(a, b, op):
    if a.dtype != b.dtype:
        raise TypeError(f"For primitive[{op}], the input type must be same.")


def _floats(values, name, op, length=4):
    if not isinstance(values, tuple):
        raise TypeError(f"For '{op}', the type of '{name}' should be 'tuple', but got type "
                        f"'{type(values).__name__}'.")
    for i, v in enumerate(values):
        if not isinstance(v, float):
            raise TypeError(f"For '{op}', the type of '{name}[{i}]' should be 'float', but "
                            f"got type '{type(v).__name__}'.")
    if len(values) != length:
        raise ValueError(f"For '{op}', the '{name} len' must be int and must = {length}, "
                         f"but got '{len(values)}' with type 'int'.")
    return values


def _working(x):
    """float16 computes in float32 (one rounding at the end)."""
    return cast(x, dt.float32) if x.dtype == dt.float16 else x


def _centres(box):
    """(centre x, centre y, width, height) of ``(n, 4)`` boxes, inclusive coordinates."""
    x0, y0, x1, y1 = (box[:, k] for k in range(4))
    return (mul(add(x0, x1), 0.5), mul(add(y0, y1), 0.5),
            add(sub(x1, x0), 1.0), add(sub(y1, y0), 1.0))


def bounding_box_encode(anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0)):
    """Offsets ``((gx - px) / pw, (gy - py) / ph, log(gw / pw), log(gh / ph))`` of the
    ground-truth boxes from the anchors, normalised by ``means`` and ``stds``."""
    op = "BoundingBoxEncode"
    _floats(means, "means", op), _floats(stds, "stds", op)
    anchor = _boxes(anchor_box, op, "anchor_box")
    truth = _boxes(groundtruth_box, op, "groundtruth_box")
    _pair(anchor, truth, op)
    if anchor.shape[0] != truth.shape[0]:
        raise ValueError(f"For '{op}', 'anchor_box' and 'groundtruth_box' must have the same "
                         f"first dimension. But got anchor_box_shape[0]: {anchor.shape[0]}, "
                         f"groundtruth_box_shape[0]: {truth.shape[0]}.")
    px, py, pw, ph = _centres(_working(anchor))
    gx, gy, gw, gh = _centres(_working(truth))
    deltas = (div(sub(gx, px), pw), div(sub(gy, py), ph), log(div(gw, pw)), log(div(gh, ph)))
    out = stack([div(sub(d, m), s) for d, m, s in zip(deltas, means, stds)], -1)
    return cast(out, anchor.dtype)


def bounding_box_decode(anchor_box, deltas, max_shape, means=(0.0, 0.0, 0.0, 0.0),
                        stds=(1.0, 1.0, 1.0, 1.0), wh_ratio_clip=0.016):
    """The boxes the offsets ``deltas`` describe around the anchors (the inverse of
    ``bounding_box_encode``): log-size offsets are clipped to ``|log(wh_ratio_clip)|``, and
    the corners to ``[0, max_shape[1]]`` (x) and ``[0, max_shape[0]]`` (y)."""
    op = "BoundingBoxDecode"
    _floats(means, "means", op), _floats(stds, "stds", op)
    if not isinstance(wh_ratio_clip, float):
        raise TypeError(f"For '{op}', the type of 'wh_ratio_clip' should be 'float', but got "
                        f"type '{type(wh_ratio_clip).__name__}'.")
    if max_shape is None:
        raise ValueError(f"For '{op}', 'max_shape' must be given to decode boxes.")
    if not isinstance(max_shape, tuple):
        raise TypeError(f"For '{op}', the type of 'max_shape' should be 'tuple', but got type "
                        f"'{type(max_shape).__name__}'.")
    if len(max_shape) != 2:
        raise ValueError(f"For '{op}', the 'max_shape len' must be int and must = 2, but got "
                         f"'{len(max_shape)}' with type 'int'.")
    anchor = _boxes(anchor_box, op, "anchor_box")
    delta = _boxes(deltas, op, "deltas")
    _pair(anchor, delta, op)
    if anchor.shape[0] != delta.shape[0]:
        raise ValueError(f"For '{op}', 'anchor_box' and 'deltas' must have the same first "
                         f"dimension, but got {anchor.shape[0]} and {delta.shape[0]}.")
    work = _working(delta)
    dx, dy, dw, dh = (add(mul(work[:, k], s), m) for k, m, s in zip(range(4), means, stds))
    limit = abs(math.log(wh_ratio_clip))
    dw, dh = clamp(dw, -limit, limit), clamp(dh, -limit, limit)
    px, py, pw, ph = _centres(_working(anchor))
    gx, gy = add(px, mul(pw, dx)), add(py, mul(ph, dy))
    half_w, half_h = mul(mul(pw, exp(dw)), 0.5), mul(mul(ph, exp(dh)), 0.5)
    height, width = float(max_shape[0]), float(max_shape[1])
    corners = (clamp(add(sub(gx, half_w), 0.5), 0.0, width),
               clamp(add(sub(gy, half_h), 0.5), 0.0, height),
               clamp(sub(add(gx, half_w), 0.5), 0.0, width),
               clamp(sub(add(gy, half_h), 0.5), 0.0, height))
    return cast(stack(list(corners), -1), anchor.dtype)


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """``(M, N)`` overlaps of the ``M`` ground-truth boxes with the ``N`` anchors: the
    intersection's area over the union's ("iou") or over the ground truth's ("iof")."""
    op = "IOU"
    if mode not in ("iou", "iof"):
        raise KeyError(f"For '{op}', only 'iou' or 'iof' are supported, but got 'mode': {mode}.")
    floats = _BOX_DTYPES + (dt.float64,)
    anchors = coerce.as_tensor(anchor_boxes, op=op)
    truth = coerce.as_tensor(gt_boxes, op=op)
    check_dtype(anchors, floats, op, "x"), check_dtype(truth, floats, op, "y")
    if anchors.ndim != 2 or truth.ndim != 2:
        raise ValueError(f"For '{op}', input x, y must have the same dimension size and must "
                         f"be 2. But got x size = {anchors.ndim}, y size = {truth.ndim}.")
    for name, boxes in (("anchor_boxes", anchors), ("gt_boxes", truth)):
        if boxes.shape[1] != 4:
            raise ValueError(f"For primitive[{op}], the {name}.shape[1] must be equal to 4, "
                             f"but got {boxes.shape[1]}.")
    _pair(anchors, truth, op)
    # MindSpore's gradient of IOU is zero
    a = expand_dims(stop_gradient(_working(anchors)), 0)        # (1, N, 4)
    g = expand_dims(stop_gradient(_working(truth)), 1)          # (M, 1, 4)

    def side(lo, hi):
        return clamp(add(sub(minimum(a[..., hi], g[..., hi]), maximum(a[..., lo], g[..., lo])),
                         1.0), 0.0, None)

    def area(b):
        return mul(add(sub(b[..., 2], b[..., 0]), 1.0), add(sub(b[..., 3], b[..., 1]), 1.0))
    overlap = mul(side(0, 2), side(1, 3))
    base = area(g) if mode == "iof" else sub(add(area(a), area(g)), overlap)
    return cast(div(overlap, base), anchors.dtype)


def check_valid(bboxes, img_metas):
    """Whether each box ``(x0, y0, x1, y1)`` lies in the image ``img_metas = (height,
    width, ratio)``: ``x0, y0 >= 0``, ``x1 <= width * ratio - 1``, ``y1 <= height * ratio -
    1``. A bool ``(N,)`` tensor."""
    op = "CheckValid"
    allowed = (dt.float16, dt.float32, dt.int16, dt.uint8)
    boxes = coerce.as_tensor(bboxes, op=op)
    metas = coerce.as_tensor(img_metas, op=op)
    check_dtype(boxes, allowed, op, "bboxes"), check_dtype(metas, allowed, op, "metas")
    if boxes.dtype != metas.dtype and not (dt.is_float(boxes.dtype) and dt.is_float(metas.dtype)):
        raise TypeError(f"For primitive[{op}], 'bboxes' ({boxes.dtype}) and 'img_metas' "
                        f"({metas.dtype}) must both be floats or have the same dtype.")
    if boxes.ndim != 2:
        raise ValueError(f"For primitive[{op}], the bboxes rank must be equal to 2, but got "
                         f"{boxes.ndim}.")
    if boxes.shape[1] != 4:
        raise ValueError(f"For '{op}', the last dimension of 'bboxes' must equal to 4, but "
                         f"got: {boxes.shape[1]}.")
    if metas.ndim != 1 or metas.shape[0] != 3:
        raise ValueError(f"For '{op}', the first dimension of 'img_metas' must equal to 3, "
                         f"but got: {metas.shape[0] if metas.ndim else metas.shape}.")
    b, m = cast(boxes, dt.float32), cast(metas, dt.float32)
    height, width = sub(mul(m[0], m[2]), 1.0), sub(mul(m[1], m[2]), 1.0)
    inside = (ge(b[:, 0], 0.0), ge(b[:, 1], 0.0), le(b[:, 2], width), le(b[:, 3], height))
    return logical_and(logical_and(inside[0], inside[1]), logical_and(inside[2], inside[3]))
