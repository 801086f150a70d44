"""dataset.vision policy augmentations: MindSpore 2.10's magnitude tables, every output is
one of the outputs of the steps the op can draw, outputs vary, and arguments are checked
as MindSpore checks them. AdjustSharpness (the Sharpness step) equals MindSpore's recorded
outputs in test_vision_color."""
import numpy as np
import pytest

import tensorjit.dataset as ds
from tensorjit.dataset import vision
from tensorjit.dataset.vision import augment

from .make_mindspore_augment_references import images

INTERP = vision.Inter.NEAREST


def test_magnitude_tables_follow_mindspore():
    assert augment.linspace(0, 9, 10, -4 / 9, 8, True) == [8, 8, 7, 7, 6, 6, 5, 5, 4, 4]
    wide = augment.magnitude_space(31, 20, 20, wide=True)
    assert wide["Posterize"][0][:4] == [8, 8, 8, 7] and wide["Posterize"][0][-1] == 2
    assert wide["Rotate"][0][-1] == 135 and wide["TranslateX"][0][-1] == 32
    space = augment.magnitude_space(10, 20, 40)
    np.testing.assert_allclose(space["TranslateX"][0][-1], 150 / 331 * 40, rtol=1e-6)
    np.testing.assert_allclose(space["ShearY"][0], np.linspace(0, 0.3, 10), rtol=1e-6)
    assert len(space) == 14 and "Invert" not in space
    assert [len(p) for p in augment._POLICIES.values()] == [25, 25, 25]


def _all_single_steps(image, bins, level=None):
    space = augment.magnitude_space(bins, *image.shape[:2], wide=level is None)
    outs = set()
    for name, (magnitudes, signed) in space.items():
        values = [0.0] if magnitudes is None else (
            magnitudes if level is None else [magnitudes[level]])
        for m in values:
            for sign in ((1, -1) if signed else (1,)):
                fill = (0, 0, 0)
                outs.add(augment.apply_augment(image, name, sign * m, INTERP, fill).tobytes())
    return outs


def test_trivial_augment_and_rand_augment_draw_one_of_their_steps():
    ds.config.set_seed(3)
    source = images()["noise"]
    trivial = vision.TrivialAugmentWide(num_magnitude_bins=4)
    possible = _all_single_steps(source, 4)
    outs = [trivial(source).tobytes() for _ in range(25)]
    assert set(outs) <= possible and len(set(outs)) > 5
    rand = vision.RandAugment(num_ops=1, magnitude=2, num_magnitude_bins=4)
    possible = _all_single_steps(source, 4, level=2)
    outs = [rand(source).tobytes() for _ in range(25)]
    assert set(outs) <= possible and len(set(outs)) > 5
    assert np.array_equal(vision.RandAugment(num_ops=0)(source), source)
    ds.config.set_seed(5489)


def test_auto_augment_policies():
    ds.config.set_seed(4)
    source = images()["smooth"]
    for policy in vision.AutoAugmentPolicy:
        op = vision.AutoAugment(policy, vision.Inter.BILINEAR, (10, 20, 30))
        outs = [op(source) for _ in range(12)]
        assert all(o.shape == source.shape and o.dtype == np.uint8 for o in outs)
        assert len({o.tobytes() for o in outs}) > 3
    # ImageNet sub-policy 2 is Equalize twice: its output, when both run, is Equalize's
    equalized = vision.Equalize()(source)
    assert augment.apply_augment(source, "Equalize", 0, INTERP, (0, 0, 0)).tobytes() == \
        equalized.tobytes()
    ds.config.set_seed(5489)


def test_random_select_subpolicy():
    ds.config.set_seed(5)
    source = images()["noise"]
    policy = [[(vision.Invert(), 1.0), (vision.Posterize(2), 1.0)],
              [(vision.Equalize(), 1.0)], [(vision.Solarize(100), 0.0)]]
    op = vision.RandomSelectSubpolicy(policy)
    outs = {op(source).tobytes() for _ in range(30)}
    assert outs == {vision.Posterize(2)(vision.Invert()(source)).tobytes(),
                    vision.Equalize()(source).tobytes(), source.tobytes()}
    ds.config.set_seed(5489)


def test_augment_argument_errors():
    for make, error in [(lambda: vision.RandAugment(num_ops=-1), ValueError),
                        (lambda: vision.RandAugment(magnitude=40), ValueError),
                        (lambda: vision.RandAugment(magnitude=1.5), TypeError),
                        (lambda: vision.RandAugment(num_magnitude_bins=1), ValueError),
                        (lambda: vision.TrivialAugmentWide(1), ValueError),
                        (lambda: vision.AutoAugment("x"), TypeError),
                        (lambda: vision.AutoAugment(fill_value=256), ValueError),
                        (lambda: vision.RandomSelectSubpolicy([]), ValueError),
                        (lambda: vision.RandomSelectSubpolicy([[(vision.Invert(), 2)]]),
                         ValueError),
                        (lambda: vision.RandomSelectSubpolicy([[(1, 0.5)]]), TypeError),
                        (lambda: vision.RandomSharpness(-1), TypeError),
                        (lambda: vision.RandomSharpness((1.5, 0.5)), ValueError)]:
        with pytest.raises(error):
            make()
    ds.config.set_seed(6)
    source = images()["noise"]
    sharpened = {vision.RandomSharpness((0.5, 1.5))(source).tobytes() for _ in range(5)}
    assert len(sharpened) > 1
    assert vision.RandomSharpness((1.3, 1.3))(source).tobytes() == \
        vision.AdjustSharpness(1.3)(source).tobytes()
    ds.config.set_seed(5489)
    with pytest.raises(RuntimeError, match="H,W,3"):
        vision.AutoAugment()(images()["noise"].astype(np.float32))
