"""Small learnable datasets written in the standard on-disk formats (MNIST's IDX files,
CIFAR-10's binary batches, CIFAR-100's train.bin / test.bin), so examples, tests and
benchmarks exercise the real readers without downloading anything.

Each class is a fixed random pattern; an image is its class's pattern plus noise, so a
small network learns to tell them apart within a few dozen steps.
"""
import os

import numpy as np

__all__ = ["write_idx", "write_mnist", "write_cifar10", "write_cifar100", "class_images"]

_IDX_CODES = {np.dtype(np.uint8): 0x08, np.dtype(np.int8): 0x09}


def write_idx(path, array):
    """An IDX file (big-endian header: 0, 0, type code, rank, dims; then the bytes)."""
    array = np.asarray(array)
    code = _IDX_CODES.get(array.dtype)
    if code is None:
        raise TypeError(f"write_idx: uint8 or int8 data, got {array.dtype}")
    header = bytes([0, 0, code, array.ndim]) + b"".join(
        int(d).to_bytes(4, "big") for d in array.shape)
    with open(path, "wb") as f:
        f.write(header + np.ascontiguousarray(array).tobytes())


def class_images(count, shape, num_classes=10, seed=0, noise=40):
    """``count`` uint8 images of ``shape`` and their labels: class pattern + noise."""
    rng = np.random.default_rng(seed)
    patterns = np.random.default_rng(12345).integers(0, 256, (num_classes,) + tuple(shape))
    labels = rng.integers(0, num_classes, count)
    images = patterns[labels] + rng.normal(0, noise, (count,) + tuple(shape))
    return np.clip(images, 0, 255).astype(np.uint8), labels.astype(np.uint8)


def write_mnist(directory, train=600, test=100, seed=0, size=28):
    """MNIST-format files (train-* and t10k-*) in ``directory``; returns it."""
    os.makedirs(directory, exist_ok=True)
    for prefix, count, offset in (("train", train, 0), ("t10k", test, 1)):
        images, labels = class_images(count, (size, size), seed=seed + offset)
        write_idx(os.path.join(directory, f"{prefix}-images-idx3-ubyte"), images)
        write_idx(os.path.join(directory, f"{prefix}-labels-idx1-ubyte"), labels)
    return directory


def write_cifar10(directory, per_batch=100, batches=5, test=100, seed=0):
    """CIFAR-10 binary batches (data_batch_1..N.bin, test_batch.bin) in ``directory``."""
    os.makedirs(directory, exist_ok=True)
    names = [f"data_batch_{k}.bin" for k in range(1, batches + 1)] + ["test_batch.bin"]
    counts = [per_batch] * batches + [test]
    for k, (name, count) in enumerate(zip(names, counts)):
        images, labels = class_images(count, (3, 32, 32), seed=seed + k)
        records = np.concatenate([labels[:, None], images.reshape(count, 3 * 32 * 32)], axis=1)
        records.astype(np.uint8).tofile(os.path.join(directory, name))
    return directory


def write_cifar100(directory, train=100, test=50, seed=0):
    """CIFAR-100 binary files (train.bin, test.bin) in ``directory``: records of a coarse
    label (fine label // 5), a fine label and the channel-major image."""
    os.makedirs(directory, exist_ok=True)
    for k, (name, count) in enumerate((("train.bin", train), ("test.bin", test))):
        images, fine = class_images(count, (3, 32, 32), num_classes=100, seed=seed + k)
        records = np.concatenate([(fine // 5)[:, None], fine[:, None],
                                  images.reshape(count, 3 * 32 * 32)], axis=1)
        records.astype(np.uint8).tofile(os.path.join(directory, name))
    return directory
