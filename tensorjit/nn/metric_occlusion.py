"""``OcclusionSensitivity``: how much a classifier's score for the label drops when a
window of the input is covered, as MindSpore computes it.

``update(model, x, label)`` with one sample ``x`` (shape (1, ...)): for every position of
the input (or of the inclusive bounding box ``b_box`` = [min0, max0, min1, max1, ...] over
the axes after the batch; a negative bound means the axis' end), the window
``[i - margin, i + margin)`` on every axis is set to ``pad_val`` and the model rerun (in
batches of ``n_batch``); ``eval()`` gives the unoccluded score minus each occluded one.
"""
import numpy as np

from ..tensor import Tensor
from .cell import Cell
from .metric_base import Metric, rearrange_inputs

__all__ = ["OcclusionSensitivity"]


def _bounding_box(b_box, shape):
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(shape):
        raise ValueError(f"OcclusionSensitivity: 'b_box' needs a lower and an upper bound for "
                         f"each of the {len(shape)} axes after the batch, got {len(b_box)} "
                         f"values")
    low, high = np.array(b_box[::2]), np.array(b_box[1::2])
    low[low < 0] = 0
    high[high < 0] = shape[high < 0] - 1
    if np.any(high >= shape):
        raise ValueError("OcclusionSensitivity: the bounding box's upper bounds must be inside "
                         "the input")
    if np.any(low > high):
        raise ValueError("OcclusionSensitivity: the bounding box's lower bounds must not "
                         "exceed its upper bounds")
    return low, high


class OcclusionSensitivity(Metric):
    def __init__(self, pad_val=0.0, margin=2, n_batch=128, b_box=None):
        if not isinstance(pad_val, float):
            raise TypeError(f"OcclusionSensitivity: 'pad_val' must be a float, got {pad_val!r}")
        if isinstance(margin, bool) or not isinstance(margin, (int, list)):
            raise TypeError(f"OcclusionSensitivity: 'margin' must be an int or list, got "
                            f"{margin!r}")
        if isinstance(n_batch, bool) or not isinstance(n_batch, int):
            raise TypeError(f"OcclusionSensitivity: 'n_batch' must be an int, got {n_batch!r}")
        if b_box is not None and not isinstance(b_box, list):
            raise TypeError(f"OcclusionSensitivity: 'b_box' must be a list or None, got "
                            f"{b_box!r}")
        self.pad_val, self.margin, self.n_batch, self.b_box = pad_val, margin, n_batch, b_box
        super().__init__()

    def clear(self):
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    def _scores(self, model, images, label):
        out = model(Tensor(np.concatenate(images))).asnumpy()
        return out[:, label]

    @rearrange_inputs
    def update(self, *inputs):
        if len(inputs) != 3:
            raise ValueError(f"OcclusionSensitivity.update needs 3 inputs (model, y_pred, "
                             f"label), got {len(inputs)}")
        model = inputs[0]
        if not isinstance(model, Cell):
            raise TypeError(f"OcclusionSensitivity: the model must be a Cell, got "
                            f"{type(model).__name__}")
        x = self._convert_data(inputs[1])
        label = inputs[2]
        if x.shape[0] > 1:
            raise RuntimeError(f"OcclusionSensitivity: one sample at a time, got a batch of "
                               f"{x.shape[0]}")
        if not isinstance(label, int):
            label = self._convert_data(label)
            if label.size != x.shape[0]:
                raise RuntimeError(f"OcclusionSensitivity: one label per sample, got "
                                   f"{label.size}")
            label = int(label.reshape(-1)[0])
        shape = np.array(x.shape[1:])
        low, high = _bounding_box(self.b_box, shape)
        self._baseline = model(Tensor(x)).asnumpy()[0, label].item()
        out_shape = shape if low is None else high - low + 1
        total = int(np.prod(out_shape))
        scores, batch = [], []
        for i in range(total):
            index = np.array(np.unravel_index(i, out_shape))
            if low is not None:
                index = index + low
            window = tuple(slice(max(0, k - self.margin), min(n, k + self.margin))
                           for k, n in zip(index, shape))
            occluded = x.copy()
            occluded[(Ellipsis,) + window] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch or i == total - 1:
                scores.append(self._scores(model, batch, label))
                batch = []
        self._sensitivity_im = np.concatenate(scores).reshape(tuple(out_shape))
        self._is_update = True

    def eval(self):
        self._check_updated(self._is_update)
        return self._baseline - np.squeeze(self._sensitivity_im)
