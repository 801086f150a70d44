"""dataset.vision geometry: Rotate, Affine and Pad equal MindSpore 2.10's outputs (recorded
in data/mindspore_augment.npz) exactly, for uint8 and float32 images, nearest and bilinear;
the random forms draw valid parameters, vary, and equal the deterministic op they drew."""
import os

import numpy as np
import pytest

import tensorjit.dataset as ds
from tensorjit.dataset import vision
from tensorjit.dataset.vision import geometry

from .make_mindspore_augment_references import (GEOMETRY_CASES, GEOMETRY_FLOAT_CASES, images,
                                                resolve)

REFERENCE = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                                 "mindspore_augment.npz"))


@pytest.mark.parametrize("name, cls, args, kwargs", GEOMETRY_CASES,
                         ids=[c[0] for c in GEOMETRY_CASES])
def test_geometry_ops_equal_mindspore(name, cls, args, kwargs):
    op = getattr(vision, cls)(*args, **resolve(vision, kwargs))
    for key, source in images().items():
        np.testing.assert_array_equal(op(source), REFERENCE[f"{name}_{key}"])
        if name in GEOMETRY_FLOAT_CASES:
            np.testing.assert_allclose(op(source.astype(np.float32) / 255),
                                       REFERENCE[f"{name}_{key}_float"], rtol=1e-5, atol=1e-6)


def test_geometry_formulas_and_errors():
    source = images()["noise"]
    square = source[:9, :9]
    np.testing.assert_array_equal(vision.Rotate(90)(square), np.rot90(square))
    np.testing.assert_array_equal(vision.Rotate(180)(square), square[::-1, ::-1])
    np.testing.assert_array_equal(vision.Affine(0, [0, 0], 1.0, 0)(source), source)
    assert vision.Rotate(90, expand=True)(source).shape == (13, 9, 3)
    np.testing.assert_array_equal(vision.Pad(1)(source)[1:-1, 1:-1], source)
    for make, error in [(lambda: vision.Rotate("a"), TypeError),
                        (lambda: vision.Affine(0, [1], 1, 0), TypeError),
                        (lambda: vision.Affine(0, [1, 2], 1, 0), ValueError),
                        (lambda: vision.Affine(0, [0, 0], 0, 0), ValueError),
                        (lambda: vision.Pad(-1), ValueError),
                        (lambda: vision.Pad([1, 2, 3]), TypeError),
                        (lambda: vision.Pad(1, fill_value=300), ValueError),
                        (lambda: vision.RandomRotation(-5), ValueError),
                        (lambda: vision.RandomAffine(10, translate=(2, 0)), ValueError),
                        (lambda: vision.RandomAffine(10, scale=(2, 1)), ValueError),
                        (lambda: vision.RandomResizedCrop(8, scale=(1.0, 0.5)), ValueError),
                        (lambda: vision.RandomErasing(prob=2), ValueError)]:
        with pytest.raises(error):
            make()


def test_random_geometry_ops():
    ds.config.set_seed(21)
    source = images()["smooth"]
    rotation = vision.RandomRotation((10, 40), expand=False)
    outs = [rotation(source) for _ in range(4)]
    assert len({o.tobytes() for o in outs}) == 4 and all(o.shape == source.shape for o in outs)
    affine = vision.RandomAffine(15, translate=(-0.1, 0.1, -0.2, 0.2), scale=(0.9, 1.1),
                                 shear=5)
    replay = vision.RandomAffine(15, translate=(-0.1, 0.1, -0.2, 0.2), scale=(0.9, 1.1),
                                 shear=5)
    replay._seed, replay._rng = affine._seed, np.random.default_rng(list(affine._seed))
    degrees, translate, scale, shear = replay.parameters(*source.shape[:2])
    assert -15 <= degrees <= 15 and 0.9 <= scale <= 1.1 and -5 <= shear[0] <= 5
    assert abs(translate[0]) <= 0.1 * 13 and abs(translate[1]) <= 0.2 * 9 and shear[1] == 0
    np.testing.assert_array_equal(affine(source), geometry.affine(
        source, degrees, translate, scale, shear, vision.Inter.NEAREST, (0, 0, 0)))
    crop = vision.RandomResizedCrop((6, 5), scale=(0.2, 0.9))
    outs = [crop(source) for _ in range(6)]
    assert all(o.shape == (6, 5, 3) and o.dtype == np.uint8 for o in outs)
    assert len({o.tobytes() for o in outs}) > 1
    box = crop.crop_box(9, 13)
    assert 0 <= box[0] <= 9 - box[2] and 0 <= box[1] <= 13 - box[3]
    erasing = vision.RandomErasing(prob=1.0, value=(1, 2, 3))
    chw = source.transpose(2, 0, 1).astype(np.float32)
    erased = erasing(chw)
    changed = (erased != chw).any(0)
    rows, cols = np.nonzero(changed)
    assert changed.sum() == (np.ptp(rows) + 1) * (np.ptp(cols) + 1)       # one rectangle
    assert (erased[:, changed] == np.array([[1], [2], [3]])).all()
    assert vision.RandomErasing(prob=0.0)(chw) is chw
    ds.config.set_seed(5489)
