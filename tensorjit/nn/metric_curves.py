"""``ROC`` (the receiver operating characteristic curve) and ``auc`` (the area under a
curve by the trapezoidal rule), as MindSpore defines them.

ROC for one class: sort the scores in decreasing order; at each distinct score (a
threshold) count the true positives ``tp`` and false positives ``fp`` at or above it; prepend
(0, 0) and the threshold ``max score + 1``; ``fpr = fp / fp[-1]``, ``tpr = tp / tp[-1]``.
Several classes (scores of shape (N, C, ...), labels (N, ...)): one curve per class ``c``,
from its scores with ``label == c`` as positive; the results are lists.

MindSpore 2.10 reshapes (N, C) scores to (C, N) instead of transposing them, so its
multi-class curves are right only when N == C; tensorjit takes the columns.
"""
import numpy as np

from .metric_base import Metric, rearrange_inputs

__all__ = ["ROC", "auc"]


def _optional_int(name, value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise TypeError(f"ROC: '{name}' must be an int or None, got {value!r}")
    return value


def _binary_curve(scores, labels, pos_label):
    """(fp, tp, thresholds) at each distinct score, highest first."""
    order = np.argsort(-scores, kind="stable")
    scores, positive = scores[order], (labels[order] == pos_label).astype(np.int64)
    last_of_run = np.append(np.nonzero(np.diff(scores))[0], len(scores) - 1)
    tps = np.cumsum(positive)[last_of_run]
    fps = 1 + last_of_run - tps
    return fps, tps, scores[last_of_run]


def _roc_one(scores, labels, pos_label):
    fps, tps, thresholds = _binary_curve(scores, labels, pos_label)
    fps, tps = np.concatenate(([0], fps)), np.concatenate(([0], tps))
    thresholds = np.concatenate((thresholds[:1] + 1, thresholds))
    if fps[-1] <= 0:
        raise ValueError("ROC: there are no negative samples: the false positive rate is "
                         "undefined")
    if tps[-1] <= 0:
        raise ValueError("ROC: there are no positive samples: the true positive rate is "
                         "undefined")
    return fps / fps[-1], tps / tps[-1], thresholds


class ROC(Metric):
    """``update(y_pred, y)`` keeps the latest inputs; ``eval()`` gives (fpr, tpr, thresholds)
    (lists of arrays with several classes)."""

    def __init__(self, class_num=None, pos_label=None):
        self.class_num = _optional_int("class_num", class_num)
        self.pos_label = _optional_int("pos_label", pos_label)
        super().__init__()

    def clear(self):
        self.y_pred, self.y = 0, 0
        self._is_update = False

    def _prepare(self, y_pred, y):
        if y_pred.ndim == y.ndim:
            if self.class_num is not None and self.class_num != 1:
                raise ValueError(f"ROC: scores and labels of one rank need class_num 1, got "
                                 f"{self.class_num}")
            self.class_num = 1
            self.pos_label = 1 if self.pos_label is None else self.pos_label
            return y_pred.reshape(-1), y.reshape(-1)
        if y_pred.ndim != y.ndim + 1:
            raise ValueError(f"ROC: the scores must have the labels' rank or one more, got "
                             f"{y_pred.ndim} and {y.ndim}")
        if self.pos_label is not None:
            raise ValueError(f"ROC: with a class axis in the scores, pos_label must be None, "
                             f"got {self.pos_label}")
        if self.class_num != y_pred.shape[1]:
            raise ValueError(f"ROC: class_num ({self.class_num}) must equal the scores' number "
                             f"of classes ({y_pred.shape[1]})")
        scores = y_pred.swapaxes(0, 1).reshape(self.class_num, -1).T
        return scores, y.reshape(-1)

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._inputs(inputs, 2)
        self.y_pred, self.y = self._prepare(y_pred, y)
        self._is_update = True

    def eval(self):
        if not self._is_update:
            raise RuntimeError("ROC: call update() before eval()")
        if self.class_num == 1:
            return _roc_one(self.y_pred, self.y, self.pos_label)
        curves = [_roc_one(self.y_pred[:, c], self.y, c) for c in range(self.class_num)]
        return tuple(list(part) for part in zip(*curves))


def _as_1d(name, values):
    if values.ndim == 1 or (values.ndim == 2 and values.shape[1] == 1):
        return values.reshape(-1)
    raise ValueError(f"auc: '{name}' must be 1-d (or a column), got shape {values.shape}")


def auc(x, y, reorder=False):
    """The area under the curve through the points (x, y), by the trapezoidal rule. ``x``
    must be monotonic unless ``reorder`` (then the points are sorted by x, then y)."""
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"auc: 'x' and 'y' must be numpy arrays, got {type(x).__name__} and "
                        f"{type(y).__name__}")
    if x.ndim == 0 or y.ndim == 0 or len(x) != len(y):
        raise ValueError(f"auc: 'x' and 'y' must hold as many points, got shapes {x.shape} "
                         f"and {y.shape}")
    x, y = _as_1d("x", x), _as_1d("y", y)
    if x.shape[0] < 2:
        raise ValueError(f"auc: at least 2 points are needed, got {x.shape[0]}")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        steps = np.diff(x)
        if np.any(steps < 0):
            if not np.all(steps <= 0):
                raise ValueError(f"auc: 'x' must be increasing or decreasing (or pass "
                                 f"reorder=True), got {x}")
            direction = -1
    area = np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0)
    return direction * area
