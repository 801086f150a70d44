"""``Metric``, the base of the evaluation metrics, and ``rearrange_inputs``.

A metric accumulates with ``update(*inputs)`` (Tensors, arrays or lists), reports with
``eval()`` and starts over with ``clear()``. Metrics run on NumPy on the host, outside
compiled graphs, as MindSpore's do. ``set_indexes([i, j])`` picks which of the evaluation
network's outputs an ``update`` decorated with ``rearrange_inputs`` receives.
"""
import functools

import numpy as np

from ..tensor import Tensor

__all__ = ["Metric", "rearrange_inputs"]


def rearrange_inputs(update):
    """Decorate ``update`` so that it receives ``inputs[i] for i in self.indexes`` (all
    inputs when no indexes were set)."""
    @functools.wraps(update)
    def wrapper(self, *inputs):
        indexes = self.indexes
        if indexes:
            inputs = [inputs[i] for i in indexes]
        return update(self, *inputs)
    return wrapper


class Metric:
    def __init__(self):
        self._indexes = None
        self.clear()

    def _convert_data(self, data):
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, (list, np.ndarray, np.generic, int, float)):
            return np.asarray(data)
        raise TypeError(f"{type(self).__name__}: inputs must be Tensors, arrays or lists, got "
                        f"{type(data).__name__}")

    def _inputs(self, inputs, count):
        if len(inputs) != count:
            raise ValueError(f"{type(self).__name__}.update needs {count} input(s), got "
                             f"{len(inputs)}")
        return [self._convert_data(x) for x in inputs]

    def _check_updated(self, updated):
        if not updated:
            raise RuntimeError(f"{type(self).__name__}: call update() before eval()")

    @property
    def indexes(self):
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes):
        """Which of the evaluation network's outputs ``update`` receives."""
        if not isinstance(indexes, (list, tuple)) or not all(
                isinstance(i, int) and not isinstance(i, bool) for i in indexes):
            raise ValueError(f"{type(self).__name__}.set_indexes: 'indexes' must be a list of "
                             f"ints, got {indexes!r}")
        self._indexes = list(indexes)
        return self

    def clear(self):
        raise NotImplementedError(f"{type(self).__name__} must define clear()")

    def update(self, *inputs):
        raise NotImplementedError(f"{type(self).__name__} must define update()")

    def eval(self):
        raise NotImplementedError(f"{type(self).__name__} must define eval()")

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()
