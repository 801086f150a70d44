"""Rows of the operator-class table (``operations.py``) for the detection and image
classes: boxes (``BoundingBoxEncode``, ``IOU``, ...), sampling (``GridSampler2D``,
``AffineGrid``), crops (``CropAndResize``, ``ROIAlign``) and colour (``RGBToHSV``, ...).
Each is the functional op it names; attributes are checked when the class is called."""
from . import boxes as B
from . import color as COL
from . import crops as CR
from . import grid_sampling as G

_ZEROS, _ONES = (0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 1.0, 1.0)


def _grid_sampler(rank, name):
    def compute(input_x, grid, *, interpolation_mode, padding_mode, align_corners):
        if getattr(input_x, "ndim", rank) != rank:
            raise ValueError(f"For '{name}', 'input_x' must be a {rank}-D tensor, but got "
                             f"{input_x.ndim}-D tensor.")
        return G.grid_sample(input_x, grid, interpolation_mode, padding_mode, align_corners)
    compute.__doc__ = f"``{name}``: ``ops.grid_sample`` of a {rank}-D input."
    return compute


_SAMPLER = dict(interpolation_mode="bilinear", padding_mode="zeros", align_corners=False)

ROWS = [
    ("BoundingBoxEncode", lambda anchor, truth, *, means, stds: B.bounding_box_encode(
        anchor, truth, means, stds), dict(means=_ZEROS, stds=_ONES)),
    ("BoundingBoxDecode", lambda anchor, deltas, *, max_shape, means, stds, wh_ratio_clip:
     B.bounding_box_decode(anchor, deltas, max_shape, means, stds, wh_ratio_clip),
     dict(max_shape=None, means=_ZEROS, stds=_ONES, wh_ratio_clip=0.016)),
    ("CheckValid", B.check_valid, {}),
    ("IOU", lambda anchors, truth, *, mode: B.iou(anchors, truth, mode), dict(mode="iou")),
    ("GridSampler2D", _grid_sampler(4, "GridSampler2D"), _SAMPLER),
    ("GridSampler3D", _grid_sampler(5, "GridSampler3D"), _SAMPLER),
    ("AffineGrid", lambda theta, output_size, *, align_corners: G.affine_grid(
        theta, output_size, align_corners), dict(align_corners=False)),
    ("CropAndResize", lambda x, boxes, box_index, crop_size, *, method, extrapolation_value:
     CR.crop_and_resize(x, boxes, box_index, crop_size, method, extrapolation_value),
     dict(method="bilinear", extrapolation_value=0.0)),
    ("ROIAlign", CR.roi_align, dict(pooled_height=None, pooled_width=None,
                                    spatial_scale=None, sample_num=2, roi_end_mode=1)),
    ("RGBToHSV", COL.rgb_to_hsv, {}),
    ("HSVToRGB", COL.hsv_to_rgb, {}),
    ("AdjustHue", COL.adjust_hue, {}),
    ("AdjustSaturation", COL.adjust_saturation, {}),
]
