"""dataset.vision and dataset.transforms: resizing and cropping equal MindSpore 2.10's
outputs (recorded in data/mindspore_vision.npz by make_mindspore_references.py; bit for bit
for 8-bit images), the arithmetic ops equal their NumPy formulas."""
import os

import numpy as np
import pytest

import tensorjit as ms
import tensorjit.dataset as ds
from tensorjit.dataset import vision, transforms

from .make_mindspore_references import SIZES, image

REFERENCE = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                                 "mindspore_vision.npz"))


@pytest.mark.parametrize("size", SIZES)
def test_resize_equals_mindspore(size):
    h, w = size
    source = image()
    np.testing.assert_array_equal(vision.Resize(size)(source), REFERENCE[f"linear_{h}_{w}"])
    np.testing.assert_array_equal(vision.Resize(size, vision.Inter.NEAREST)(source),
                                  REFERENCE[f"nearest_{h}_{w}"])
    np.testing.assert_allclose(vision.Resize(size)(source.astype(np.float32)),
                               REFERENCE[f"linear_float_{h}_{w}"], rtol=1e-6, atol=1e-4)


def test_crops_and_conversions_equal_mindspore():
    source = image()
    np.testing.assert_array_equal(vision.Resize(20)(source), REFERENCE["resize_short_20"])
    np.testing.assert_array_equal(vision.CenterCrop((7, 12))(source),
                                  REFERENCE["center_crop_7_12"])
    np.testing.assert_array_equal(vision.CenterCrop(40)(source), REFERENCE["center_crop_40"])
    np.testing.assert_allclose(vision.ToTensor()(source), REFERENCE["to_tensor"], rtol=1e-6)
    normalize = vision.Normalize([120.0, 115.0, 100.0], [60.0, 58.0, 57.0])(source)
    np.testing.assert_allclose(normalize, REFERENCE["normalize"], rtol=1e-6)
    np.testing.assert_allclose(vision.Rescale(1 / 255.0, -0.5)(source), REFERENCE["rescale"],
                               rtol=1e-6)


def test_arithmetic_ops_follow_their_formulas():
    source = image()
    assert vision.HWC2CHW()(source).shape == (3, 31, 45)
    np.testing.assert_array_equal(vision.HWC2CHW()(source), source.transpose(2, 0, 1))
    chw = source.transpose(2, 0, 1).astype(np.float32)
    out = vision.Normalize([1, 2, 3], [2, 4, 8], is_hwc=False)(chw)
    np.testing.assert_allclose(out, (chw - np.array([1, 2, 3]).reshape(3, 1, 1))
                               / np.array([2, 4, 8]).reshape(3, 1, 1), rtol=1e-6)
    assert transforms.TypeCast(ms.int32)(np.array([1.7, -1.2])).tolist() == [1, -1]
    one_hot = transforms.OneHot(3)(np.array([0, 2]))
    assert one_hot.tolist() == [[1, 0, 0], [0, 0, 1]] and one_hot.dtype == np.int64
    composed = transforms.Compose([vision.Rescale(2.0, 0.0), transforms.TypeCast(ms.float16)])
    assert composed(source).dtype == np.float16
    with pytest.raises(ValueError, match="labels must be in"):
        transforms.OneHot(3)(np.array([3]))


def test_random_ops():
    ds.config.set_seed(3)
    source = image()
    crop = vision.RandomCrop(8, padding=2)
    outs = [crop(source) for _ in range(20)]
    assert all(o.shape == (8, 8, 3) for o in outs)
    assert len({o.tobytes() for o in outs}) > 1
    ds.config.set_seed(3)
    again = vision.RandomCrop(8, padding=2)
    assert all((again(source) == o).all() for o in outs)            # seeded
    flips = [vision.RandomHorizontalFlip(0.5)(source) for _ in range(30)]
    flipped = [np.array_equal(f, source[:, ::-1]) for f in flips]
    assert any(flipped) and not all(flipped)
    assert all(np.array_equal(f, source) for f, was in zip(flips, flipped) if not was)
    with pytest.raises(ValueError, match="smaller than the crop"):
        vision.RandomCrop(64)(source)
    ds.config.set_seed(5489)


def test_decode_and_image_folders(tmp_path):
    pil = pytest.importorskip("PIL.Image")
    rng = np.random.default_rng(0)
    pictures = {}
    for label in ("cat", "dog"):
        (tmp_path / label).mkdir()
        for k in range(3):
            picture = rng.integers(0, 256, (5, 7, 3)).astype(np.uint8)
            pil.fromarray(picture).save(tmp_path / label / f"{k}.png")
            pictures[(label, k)] = picture
    data = ds.ImageFolderDataset(str(tmp_path), shuffle=False, decode=True)
    assert data.get_class_indexing() == {"cat": 0, "dog": 1}
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert [int(r[1]) for r in rows] == [0, 0, 0, 1, 1, 1]
    np.testing.assert_array_equal(rows[4][0], pictures[("dog", 1)])
    raw = ds.ImageFolderDataset(str(tmp_path), shuffle=False).map(vision.Decode(), "image")
    np.testing.assert_array_equal(next(iter(raw.create_tuple_iterator(output_numpy=True)))[0],
                                  pictures[("cat", 0)])
    with pytest.raises(ValueError, match="not an image"):
        vision.Decode()(np.frombuffer(b"not a picture", np.uint8))


def test_a_mnist_pipeline(tmp_path):
    from tensorjit.dataset import synthetic
    directory = synthetic.write_mnist(str(tmp_path), train=40, test=8)
    data = ds.MnistDataset(directory, usage="train", shuffle=False)
    data = data.map([vision.Resize((32, 32)), vision.Rescale(1 / 255.0, 0),
                     vision.HWC2CHW()], "image", num_parallel_workers=2)
    data = data.map(transforms.TypeCast(ms.int32), "label").batch(16, drop_remainder=True)
    assert data.get_dataset_size() == 2
    image_batch, label_batch = next(iter(data.create_tuple_iterator()))
    assert image_batch.shape == (16, 1, 32, 32) and image_batch.dtype == ms.float32
    assert label_batch.shape == (16,) and label_batch.dtype == ms.int32
    images, _ = synthetic.class_images(40, (28, 28), seed=0)
    expected = vision.Resize((32, 32))(images[0][..., None]).astype(np.float32) / 255
    np.testing.assert_allclose(image_batch.asnumpy()[0, 0], expected[..., 0], rtol=1e-6)
