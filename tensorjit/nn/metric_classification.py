"""Precision, recall and F-beta over classes, as MindSpore computes them.

'classification': ``y_pred`` has the classes on axis 1 (shape (N, C, ...)), ``y`` holds class
indices (N, ...) or is one-hot along axis 1; each sample counts for its argmax class, and
``eval()`` gives one value per class (``average=True``: their mean).
'multilabel' (Precision, Recall): ``y_pred`` and ``y`` are 0/1 of one shape (N, C, ...); the
counts are per *sample* (over its labels), so ``eval()`` gives one value per sample seen
and ``average=True`` the mean of the per-sample values.
A class never predicted (or never present) gives 0: the ratios add the smallest positive
float to their denominators, as MindSpore does.
"""
import sys

import numpy as np

from .metric_base import Metric, rearrange_inputs

__all__ = ["Precision", "Recall", "Fbeta", "F1"]

_EPS = sys.float_info.min


def _is_one_hot(y):
    """0/1 values summing to 1 along axis 1 (MindSpore's test for one-hot labels)."""
    if y.ndim < 2 or not np.array_equal(y ** 2, y):
        return False
    return bool((y.sum(axis=1) == 1).all())


def _check_flag(metric, average):
    if not isinstance(average, bool):
        raise TypeError(f"{type(metric).__name__}.eval: 'average' must be a bool, got "
                        f"{average!r}")


class _ClassCounts(Metric):
    """Counts of true positives and of the ``_denominator_of`` positives (predicted for
    precision, actual for recall)."""

    def __init__(self, eval_type="classification"):
        if eval_type not in ("classification", "multilabel"):
            raise TypeError(f"{type(self).__name__}: 'eval_type' must be 'classification' or "
                            f"'multilabel', got {eval_type!r}")
        self._type = eval_type
        super().__init__()

    def clear(self):
        self._class_num = 0
        self._true = np.empty(0) if self._type == "multilabel" else 0
        self._base = np.empty(0) if self._type == "multilabel" else 0
        self._ratio_sum, self._ratio_count = 0.0, 0

    def _check_shapes(self, y_pred, y):
        name = type(self).__name__
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1 or y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(f"{name}: 'classification' needs y of y_pred's shape without "
                                 f"axis 1, got y_pred {y_pred.shape} and y {y.shape}")
        else:
            if y_pred.shape != y.shape:
                raise ValueError(f"{name}: 'multilabel' needs y_pred and y of one shape, got "
                                 f"{y_pred.shape} and {y.shape}")
            if not (np.array_equal(y_pred ** 2, y_pred) and np.array_equal(y ** 2, y)):
                raise ValueError(f"{name}: 'multilabel' values must be 0 or 1")

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._inputs(inputs, 2)
        if self._type == "classification" and y_pred.ndim == y.ndim and _is_one_hot(y):
            y = y.argmax(axis=1)
        self._check_shapes(y_pred, y)
        classes = y_pred.shape[1]
        if self._class_num and classes != self._class_num:
            raise ValueError(f"{type(self).__name__}: {classes} classes now, {self._class_num} "
                             f"before")
        self._class_num = classes
        if self._type == "classification":
            if y.max() + 1 > classes:
                raise ValueError(f"{type(self).__name__}: labels up to {int(y.max())} for "
                                 f"{classes} classes")
            eye = np.eye(classes)
            y = eye[y.reshape(-1).astype(np.int64)]
            y_pred = eye[y_pred.argmax(axis=1).reshape(-1)]
            self._true = self._true + (y * y_pred).sum(axis=0)
            self._base = self._base + self._denominator_of(y_pred, y).sum(axis=0)
            return
        # multilabel: one row per sample, its labels across
        y_pred = y_pred.swapaxes(0, 1).reshape(classes, -1)
        y = y.swapaxes(0, 1).reshape(classes, -1)
        true = (y * y_pred).sum(axis=0)
        base = self._denominator_of(y_pred, y).sum(axis=0)
        self._ratio_sum += float(np.sum(true / (base + _EPS)))
        self._ratio_count += len(base)
        self._true = np.concatenate((self._true, true))
        self._base = np.concatenate((self._base, base))

    def eval(self, average=False):
        if self._class_num == 0:
            raise RuntimeError(f"{type(self).__name__}: call update() before eval()")
        _check_flag(self, average)
        result = self._true / (self._base + _EPS)
        if not average:
            return result
        if self._type == "multilabel":
            return np.float64(self._ratio_sum / (self._ratio_count + _EPS))
        return result.mean()


class Precision(_ClassCounts):
    """True positives over predicted positives."""

    @staticmethod
    def _denominator_of(y_pred, y):
        return y_pred


class Recall(_ClassCounts):
    """True positives over actual positives."""

    @staticmethod
    def _denominator_of(y_pred, y):
        return y


class Fbeta(Metric):
    """Per class ``(1 + beta^2) tp / (beta^2 (tp + fn) + tp + fp)`` (classification only)."""

    def __init__(self, beta):
        if not beta > 0:
            raise ValueError(f"Fbeta: 'beta' must be > 0, got {beta!r}")
        self.beta = beta
        super().__init__()

    def clear(self):
        self._true_positives = self._actual_positives = self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._inputs(inputs, 2)
        if y_pred.ndim == y.ndim and _is_one_hot(y):
            y = y.argmax(axis=1)
        classes = y_pred.shape[1]
        if self._class_num and classes != self._class_num:
            raise ValueError(f"{type(self).__name__}: {classes} classes now, {self._class_num} "
                             f"before")
        self._class_num = classes
        if y.max() + 1 > classes:
            raise ValueError(f"{type(self).__name__}: labels up to {int(y.max())} for "
                             f"{classes} classes")
        eye = np.eye(classes)
        y = eye[y.reshape(-1).astype(np.int64)]
        y_pred = eye[y_pred.argmax(axis=1).reshape(-1)]
        self._true_positives = self._true_positives + (y * y_pred).sum(axis=0)
        self._positives = self._positives + y_pred.sum(axis=0)
        self._actual_positives = self._actual_positives + y.sum(axis=0)

    def eval(self, average=False):
        _check_flag(self, average)
        if self._class_num == 0:
            raise RuntimeError(f"{type(self).__name__}: call update() before eval()")
        b2 = self.beta ** 2
        result = (1.0 + b2) * self._true_positives / (
            b2 * self._actual_positives + self._positives + _EPS)
        return result.mean() if average else result


class F1(Fbeta):
    def __init__(self):
        super().__init__(1.0)
