"""Records MindSpore's outputs of the deterministic augmentations (colour, geometry) that
tensorjit follows (run with MindSpore's interpreter:
``$TENSORJIT_MINDSPORE_PYTHON tests/dataset/make_mindspore_augment_references.py``)."""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def images():
    """A random image, a smooth one (gradients, repeated values) and a low-contrast one."""
    noise = np.random.default_rng(7).integers(0, 256, (9, 13, 3)).astype(np.uint8)
    y, x = np.mgrid[0:9, 0:13]
    smooth = np.stack([x * 19, y * 28, (x + y) * 9 + 40], -1).astype(np.uint8)
    flat = (noise // 8 + 100).astype(np.uint8)
    return {"noise": noise, "smooth": smooth, "flat": flat}


# (name, class name, args): deterministic ops recorded on every image
COLOR_CASES = [
    ("equalize", "Equalize", ()), ("autocontrast", "AutoContrast", ()),
    ("autocontrast_cut", "AutoContrast", (10.0, [3, 4])), ("invert", "Invert", ()),
    ("posterize", "Posterize", (3,)), ("solarize", "Solarize", (100,)),
    ("solarize_pair", "Solarize", ((50, 150),)), ("brightness", "AdjustBrightness", (1.3,)),
    ("contrast", "AdjustContrast", (0.6,)), ("contrast_up", "AdjustContrast", (1.7,)),
    ("saturation", "AdjustSaturation", (1.7,)), ("saturation_down", "AdjustSaturation", (0.3,)),
    ("hue", "AdjustHue", (0.2,)), ("hue_neg", "AdjustHue", (-0.35,)),
    ("sharpness", "AdjustSharpness", (1.8,)), ("sharpness_blur", "AdjustSharpness", (0.2,)),
]
FLOAT_CASES = ["invert", "brightness", "contrast", "saturation"]

# (name, class name, args, keyword args); "resample" names an Inter member
GEOMETRY_CASES = [
    ("rotate_30", "Rotate", (30,), {}),
    ("rotate_m75_linear", "Rotate", (-75.5,), {"resample": "BILINEAR", "fill_value": (9, 80, 200)}),
    ("rotate_expand", "Rotate", (30,), {"expand": True}),
    ("rotate_expand_linear", "Rotate", (123,), {"expand": True, "resample": "BILINEAR"}),
    ("rotate_center", "Rotate", (45,), {"center": (2, 3), "fill_value": 17}),
    ("affine", "Affine", (20, [0.1, -0.2], 1.2, [5, 0]), {}),
    ("affine_linear", "Affine", (-35, [0.05, 0.1], 0.8, [10, -7]),
     {"resample": "BILINEAR", "fill_value": (1, 2, 3)}),
    ("affine_shear", "Affine", (0, [0, 0], 1.0, 25.0), {"resample": "BILINEAR"}),
    ("pad", "Pad", ([1, 2, 3, 4],), {"fill_value": (5, 6, 7)}),
    ("pad_edge", "Pad", ([2, 1],), {"padding_mode": "EDGE"}),
    ("pad_reflect", "Pad", (2,), {"padding_mode": "REFLECT"}),
    ("pad_symmetric", "Pad", (2,), {"padding_mode": "SYMMETRIC"}),
]
GEOMETRY_FLOAT_CASES = ["rotate_30", "rotate_m75_linear", "affine_linear"]


def resolve(vision, kwargs):
    """Keyword arguments with Inter / Border names replaced by the module's members."""
    out = dict(kwargs)
    if "resample" in out:
        out["resample"] = getattr(vision.Inter, out["resample"])
    if "padding_mode" in out:
        out["padding_mode"] = getattr(vision.Border, out["padding_mode"])
    return out

if __name__ == "__main__":
    import mindspore.dataset.vision as vision
    out = {}
    for key, source in images().items():
        for name, cls, args in COLOR_CASES:
            out[f"{name}_{key}"] = getattr(vision, cls)(*args)(source)
            if name in FLOAT_CASES:
                out[f"{name}_{key}_float"] = getattr(vision, cls)(*args)(
                    source.astype(np.float32) / 255)
        for name, cls, args, kwargs in GEOMETRY_CASES:
            op = getattr(vision, cls)(*args, **resolve(vision, kwargs))
            out[f"{name}_{key}"] = op(source)
            if name in GEOMETRY_FLOAT_CASES:
                out[f"{name}_{key}_float"] = op(source.astype(np.float32) / 255)
    np.savez_compressed(os.path.join(HERE, "data", "mindspore_augment.npz"), **out)
