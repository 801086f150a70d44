"""``tensorjit.dataset.transforms``: operations on any column (MindSpore's names)."""
import threading

import numpy as np

from ... import dtype as dt
from .. import config, row_key

__all__ = ["TypeCast", "Compose", "OneHot", "RandomOp", "Relational", "Fill", "Concatenate",
           "Duplicate", "Mask", "Slice", "PadEnd", "Unique", "RandomChoice", "RandomApply",
           "RandomOrder"]


class TypeCast:
    """Cast a column to ``data_type`` (a tensorjit / NumPy dtype); float to int truncates."""

    def __init__(self, data_type):
        self.data_type = dt.as_dtype(data_type)

    def __call__(self, array):
        return np.asarray(array).astype(self.data_type)


class Compose:
    """Apply ``transforms`` one after the other, as one operation."""

    def __init__(self, transforms):
        transforms = list(transforms)
        if not transforms or not all(callable(t) for t in transforms):
            raise TypeError(f"Compose: 'transforms' must be a non-empty list of callables, got "
                            f"{transforms!r}")
        self.transforms = transforms

    def __call__(self, *values):
        for transform in self.transforms:
            result = transform(*values)
            values = result if isinstance(result, tuple) else (result,)
        return values if len(values) > 1 else values[0]


class OneHot:
    """Integer labels to one-hot vectors of ``num_classes`` (same dtype as the labels);
    ``smoothing_rate`` spreads that much probability over all classes."""

    def __init__(self, num_classes, smoothing_rate=0.0):
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes <= 0:
            raise ValueError(f"OneHot: 'num_classes' must be a positive int, got {num_classes!r}")
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(f"OneHot: 'smoothing_rate' must be in [0, 1], got {smoothing_rate}")
        self.num_classes, self.smoothing_rate = num_classes, float(smoothing_rate)

    def __call__(self, label):
        label = np.asarray(label)
        if label.dtype.kind not in "iu":
            raise TypeError(f"OneHot: labels must be integers, got {label.dtype}")
        if label.size and (label.min() < 0 or label.max() >= self.num_classes):
            raise ValueError(f"OneHot: labels must be in [0, {self.num_classes}), got values "
                             f"from {label.min()} to {label.max()}")
        out = (label[..., None] == np.arange(self.num_classes))
        if self.smoothing_rate:
            smooth = out * (1.0 - self.smoothing_rate) + self.smoothing_rate / self.num_classes
            return smooth.astype(np.float32)
        return out.astype(label.dtype)


class RandomOp:
    """Base of random operations: each has its own seed, taken from the dataset seed when
    it is made. Inside a pipeline it draws from the stream of the row being transformed
    (``row_key``: the same rows with any number of workers); called directly, from its own
    generator, safe to call from several threads."""

    def __init__(self):
        config._SETTINGS["seed_generation"] += 1
        self._seed = (config.get_seed(), config._SETTINGS["seed_generation"])
        self._rng = np.random.default_rng(list(self._seed))
        self._lock = threading.Lock()

    def _row_bits(self):
        """64 random bits of the current row's stream, or None outside a pipeline."""
        row = row_key.current()
        if row is None:
            return None
        key, counters = row
        count = counters.get(id(self), 0)
        counters[id(self)] = count + 1
        return row_key.draw64(self._seed + key + (count,))

    def _uniform(self):
        bits = self._row_bits()
        if bits is not None:
            return (bits >> 11) * 2.0 ** -53
        with self._lock:
            return float(self._rng.random())

    def _integer(self, high):
        if high <= 0:
            return 0
        bits = self._row_bits()
        if bits is not None:
            return (bits * high) >> 64
        with self._lock:
            return int(self._rng.integers(high))


# after RandomOp and Compose, which these modules build on
from .data_ops import (Relational, Fill, Concatenate, Duplicate, Mask, Slice,  # noqa: E402
                       PadEnd, Unique)
from .random_ops import RandomChoice, RandomApply, RandomOrder  # noqa: E402
