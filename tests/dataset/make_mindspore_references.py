"""Records MindSpore's outputs of the image operations tensorjit follows bit for bit (run
with MindSpore's interpreter:
``$TENSORJIT_MINDSPORE_PYTHON tests/dataset/make_mindspore_references.py``)."""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def image():
    return np.random.default_rng(1).integers(0, 256, (31, 45, 3)).astype(np.uint8)


SIZES = [(17, 20), (50, 70), (31, 44), (8, 8), (3, 90)]

if __name__ == "__main__":
    import mindspore.dataset.vision as vision
    source = image()
    out = {}
    for h, w in SIZES:
        out[f"linear_{h}_{w}"] = vision.Resize((h, w))(source)
        out[f"linear_float_{h}_{w}"] = vision.Resize((h, w))(source.astype(np.float32))
        out[f"nearest_{h}_{w}"] = vision.Resize((h, w), vision.Inter.NEAREST)(source)
    out["resize_short_20"] = vision.Resize(20)(source)
    out["center_crop_7_12"] = vision.CenterCrop((7, 12))(source)
    out["center_crop_40"] = vision.CenterCrop(40)(source)
    out["to_tensor"] = vision.ToTensor()(source)
    out["normalize"] = vision.Normalize([120.0, 115.0, 100.0], [60.0, 58.0, 57.0])(source)
    out["rescale"] = vision.Rescale(1 / 255.0, -0.5)(source)
    np.savez_compressed(os.path.join(HERE, "data", "mindspore_vision.npz"), **out)
