"""dataset.vision colour operations: the deterministic ones equal MindSpore 2.10's outputs
(recorded in data/mindspore_augment.npz by make_mindspore_augment_references.py) bit for
bit, saturation within 1 (OpenCV's vector kernel rounds some products differently); the
random ones draw valid parameters, vary, and equal the deterministic op they drew."""
import os

import numpy as np
import pytest

import tensorjit.dataset as ds
from tensorjit.dataset import vision

from .make_mindspore_augment_references import COLOR_CASES, FLOAT_CASES, images

REFERENCE = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                                 "mindspore_augment.npz"))


@pytest.mark.parametrize("name, cls, args", COLOR_CASES, ids=[c[0] for c in COLOR_CASES])
def test_color_ops_equal_mindspore(name, cls, args):
    for key, source in images().items():
        out = getattr(vision, cls)(*args)(source)
        expected = REFERENCE[f"{name}_{key}"]
        assert out.dtype == expected.dtype and out.shape == expected.shape
        tolerance = 1 if cls in ("AdjustSaturation", "AdjustContrast") else 0
        np.testing.assert_allclose(out.astype(int), expected.astype(int), atol=tolerance)
        if name in FLOAT_CASES:
            out = getattr(vision, cls)(*args)(source.astype(np.float32) / 255)
            np.testing.assert_allclose(out, REFERENCE[f"{name}_{key}_float"], rtol=1e-6,
                                       atol=1e-6)


def test_color_formulas_and_errors():
    source = images()["noise"]
    np.testing.assert_array_equal(vision.Invert()(source), 255 - source)
    np.testing.assert_array_equal(vision.Posterize(2)(source), source & 0xC0)
    np.testing.assert_array_equal(vision.Solarize(128)(source),
                                  np.where(source >= 128, 255 - source, source))
    np.testing.assert_array_equal(vision.AdjustHue(0.0)(source[:1, :1] * 0 + 7), 7)
    for make, error in [(lambda: vision.Posterize(9), ValueError),
                        (lambda: vision.Posterize(1.5), TypeError),
                        (lambda: vision.Solarize(300), ValueError),
                        (lambda: vision.Solarize((150, 50)), ValueError),
                        (lambda: vision.AutoContrast(60), ValueError),
                        (lambda: vision.AdjustHue(0.7), ValueError),
                        (lambda: vision.AdjustBrightness(-1), ValueError),
                        (lambda: vision.RandomColorAdjust(brightness=-1), ValueError),
                        (lambda: vision.RandomColorAdjust(hue=0.6), ValueError),
                        (lambda: vision.RandomPosterize((6, 2)), ValueError)]:
        with pytest.raises(error):
            make()
    for op in (vision.Equalize(), vision.AutoContrast(), vision.AdjustHue(0.1)):
        with pytest.raises(RuntimeError):
            op(source.astype(np.float32))
    with pytest.raises(RuntimeError, match="H,W,C"):
        vision.Invert()(source[..., 0])


def test_random_color_ops_draw_valid_parameters():
    ds.config.set_seed(11)
    source = images()["noise"]
    adjust = vision.RandomColorAdjust(brightness=0.4, contrast=(0.5, 1.5), saturation=0.3,
                                      hue=0.1)
    outs = [adjust(source) for _ in range(6)]
    assert all(o.shape == source.shape and o.dtype == np.uint8 for o in outs)
    assert len({o.tobytes() for o in outs}) == 6
    only_brightness = vision.RandomColorAdjust(brightness=(1.5, 1.5))
    np.testing.assert_array_equal(only_brightness(source), vision.AdjustBrightness(1.5)(source))
    assert np.array_equal(vision.RandomColorAdjust()(source), source)
    equalized = vision.Equalize()(source)
    outs = [vision.RandomEqualize(0.5)(source) for _ in range(20)]
    assert {np.array_equal(o, equalized) for o in outs} == {True, False}
    assert all(np.array_equal(o, equalized) or np.array_equal(o, source) for o in outs)
    posterized = {vision.RandomPosterize((2, 4))(source).tobytes() for _ in range(30)}
    assert posterized == {vision.Posterize(b)(source).tobytes() for b in (2, 3, 4)}
    solarized = vision.RandomSolarize((100, 200))(source)
    changed = solarized != source
    assert np.array_equal(solarized[changed], 255 - source[changed])
    assert source[changed].min() >= 100 and source[changed].max() <= 200
    ds.config.set_seed(5489)
