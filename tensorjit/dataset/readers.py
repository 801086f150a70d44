"""Readers of the standard on-disk datasets (the files as their publishers ship them,
uncompressed or gzipped; nothing is downloaded):

- ``MnistDataset``: IDX files ``train-images-idx3-ubyte`` / ``train-labels-idx1-ubyte`` and
  ``t10k-*``; columns ``image`` (28, 28, 1) uint8 and ``label`` uint32.
- ``Cifar10Dataset``: binary batches ``data_batch_1.bin`` .. ``data_batch_5.bin`` and
  ``test_batch.bin``, records of 1 label byte + 3072 image bytes (channel-major);
  columns ``image`` (32, 32, 3) uint8 and ``label`` uint32.
- ``Cifar100Dataset``: binary files ``train.bin`` and ``test.bin``, records of a coarse
  label byte, a fine label byte and 3072 image bytes; columns ``image`` (32, 32, 3) uint8,
  ``coarse_label`` and ``fine_label`` uint32.
- ``ImageFolderDataset``: one sub-directory per class; columns ``image`` (the file's
  bytes, or decoded with ``decode=True``) and ``label`` int32.
"""
import gzip
import os

import numpy as np

from .sources import IndexedSource

__all__ = ["MnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset"]

_IDX_TYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def _read_bytes(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return f.read()


def _find(directory, name, who):
    for candidate in (name, name + ".gz"):
        path = os.path.join(directory, candidate)
        if os.path.isfile(path):
            return path
    return None


def read_idx(path, who="MnistDataset"):
    """The array in an IDX file (big-endian header: 0, 0, type code, rank, dims)."""
    data = _read_bytes(path)
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] not in _IDX_TYPES:
        raise ValueError(f"{who}: {path} is not an IDX file (its magic number is "
                         f"{data[:4].hex() or 'missing'})")
    rank = data[3]
    header = 4 + 4 * rank
    if len(data) < header:
        raise ValueError(f"{who}: {path} is truncated inside its header")
    dims = tuple(int.from_bytes(data[4 + 4 * k:8 + 4 * k], "big") for k in range(rank))
    dtype = np.dtype(_IDX_TYPES[data[2]])
    expected = int(np.prod(dims, dtype=np.int64)) * dtype.itemsize
    if len(data) - header != expected:
        raise ValueError(f"{who}: {path} declares shape {dims} ({expected} bytes of data) but "
                         f"holds {len(data) - header}: it is truncated or damaged")
    return np.frombuffer(data, dtype, offset=header).reshape(dims).astype(dtype.newbyteorder("="))


def _usage(usage, who, choices=("train", "test", "all")):
    usage = "all" if usage is None else usage
    if usage not in choices:
        raise ValueError(f"{who}: 'usage' must be one of {choices}, got {usage!r}")
    return usage


def _check_dir(dataset_dir, who):
    if not isinstance(dataset_dir, (str, os.PathLike)) or not os.path.isdir(dataset_dir):
        raise ValueError(f"{who}: dataset_dir {dataset_dir!r} is not a directory")
    return os.fspath(dataset_dir)


class MnistDataset(IndexedSource):
    FILES = {"train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
             "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")}

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = type(self).__name__
        directory = _check_dir(dataset_dir, who)
        usage = _usage(usage, who)
        images, labels = [], []
        for part in (("train", "test") if usage == "all" else (usage,)):
            names = self.FILES[part]
            paths = [_find(directory, n, who) for n in names]
            if None in paths:
                if usage == "all":
                    continue
                raise ValueError(f"{who}: {directory} has no {names[paths.index(None)]} "
                                 f"(the MNIST files for usage={part!r}: {', '.join(names)})")
            image, label = read_idx(paths[0], who), read_idx(paths[1], who)
            if image.ndim != 3 or label.ndim != 1 or len(image) != len(label):
                raise ValueError(f"{who}: {paths[0]} holds {image.shape} images and {paths[1]} "
                                 f"{label.shape} labels; expected (N, H, W) and (N,)")
            images.append(image)
            labels.append(label)
        if not images:
            raise ValueError(f"{who}: {directory} has none of the MNIST files "
                             f"{sum(self.FILES.values(), ())}")
        self.images = np.concatenate(images)[..., None]
        self.labels = np.concatenate(labels).astype(np.uint32)
        super().__init__(["image", "label"], num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, who)

    def _length(self):
        return len(self.labels)

    def _read(self, index):
        return self.images[index], self.labels[index]


def _cifar_records(directory, names, record, who, kind):
    paths = [os.path.join(directory, n) for n in names
             if os.path.isfile(os.path.join(directory, n))]
    if not paths:
        raise ValueError(f"{who}: {directory} has none of the {kind} binary files {names}")
    records = []
    for path in paths:
        data = np.fromfile(path, np.uint8)
        if data.size % record:
            raise ValueError(f"{who}: {path} has {data.size} bytes, not a whole number of "
                             f"{record}-byte records: it is truncated or not a {kind} binary "
                             f"file")
        records.append(data.reshape(-1, record))
    return np.concatenate(records)


class Cifar10Dataset(IndexedSource):
    RECORD = 1 + 32 * 32 * 3

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = "Cifar10Dataset"
        directory = _check_dir(dataset_dir, who)
        usage = _usage(usage, who)
        names = {"train": [f"data_batch_{k}.bin" for k in range(1, 6)],
                 "test": ["test_batch.bin"]}
        wanted = names["train"] + names["test"] if usage == "all" else names[usage]
        records = _cifar_records(directory, wanted, self.RECORD, who, "CIFAR-10")
        self.labels = records[:, 0].astype(np.uint32)
        self.images = records[:, 1:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        super().__init__(["image", "label"], num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, who)

    def _length(self):
        return len(self.labels)

    def _read(self, index):
        return np.ascontiguousarray(self.images[index]), self.labels[index]


class Cifar100Dataset(IndexedSource):
    RECORD = 2 + 32 * 32 * 3

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None, cache=None):
        who = "Cifar100Dataset"
        directory = _check_dir(dataset_dir, who)
        usage = _usage(usage, who)
        wanted = ["train.bin", "test.bin"] if usage == "all" else [f"{usage}.bin"]
        records = _cifar_records(directory, wanted, self.RECORD, who, "CIFAR-100")
        self.coarse_labels = records[:, 0].astype(np.uint32)
        self.fine_labels = records[:, 1].astype(np.uint32)
        self.images = records[:, 2:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
        super().__init__(["image", "coarse_label", "fine_label"], num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id, who)

    def _length(self):
        return len(self.fine_labels)

    def _read(self, index):
        return (np.ascontiguousarray(self.images[index]), self.coarse_labels[index],
                self.fine_labels[index])


class ImageFolderDataset(IndexedSource):
    EXTENSIONS = (".jpg", ".jpeg", ".png", ".bmp", ".gif", ".tif", ".tiff", ".webp")

    def __init__(self, dataset_dir, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, extensions=None, class_indexing=None, decode=False,
                 num_shards=None, shard_id=None, cache=None):
        who = "ImageFolderDataset"
        directory = _check_dir(dataset_dir, who)
        extensions = tuple(e.lower() for e in (extensions or self.EXTENSIONS))
        classes = sorted(d for d in os.listdir(directory)
                         if os.path.isdir(os.path.join(directory, d)))
        if class_indexing is None:
            class_indexing = {name: k for k, name in enumerate(classes)}
        self.class_indexing = dict(class_indexing)
        self.files = []
        for name in classes:
            if name not in self.class_indexing:
                continue
            folder = os.path.join(directory, name)
            for file in sorted(os.listdir(folder)):
                if file.lower().endswith(extensions):
                    self.files.append((os.path.join(folder, file), self.class_indexing[name]))
        if not self.files:
            raise ValueError(f"{who}: no image files ({', '.join(extensions)}) in the class "
                             f"folders of {directory}")
        self.decode = bool(decode)
        super().__init__(["image", "label"], num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id, who)

    def get_class_indexing(self):
        return dict(self.class_indexing)

    def _length(self):
        return len(self.files)

    def _read(self, index):
        path, label = self.files[index]
        with open(path, "rb") as f:
            data = np.frombuffer(f.read(), np.uint8)
        if self.decode:
            from .vision.transforms import Decode
            data = Decode()(data)
        return data, np.array(label, np.int32)
