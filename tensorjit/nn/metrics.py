"""Evaluation metrics (MindSpore's ``train.metrics``, also under ``nn.metrics``): the
classification and regression ones here, the others in ``metric_*.py`` beside this file;
this module is their one namespace and holds the registry (``names``, ``get_metric_fn``,
``get_metrics``). See ``metric_base.py`` for what a metric is."""
import numpy as np

from .metric_base import Metric, rearrange_inputs
from .metric_classification import Precision, Recall, Fbeta, F1
from .metric_similarity import CosineSimilarity
from .metric_curves import ROC, auc
from .metric_confusion import ConfusionMatrix, ConfusionMatrixMetric
from .metric_segmentation import (Dice, HausdorffDistance, MeanSurfaceDistance,
                                  RootMeanSquareDistance)
from .metric_text import BleuScore, Perplexity
from .metric_occlusion import OcclusionSensitivity

__all__ = ["Metric", "rearrange_inputs", "Accuracy", "Loss", "Precision", "Recall", "Fbeta",
           "F1", "MAE", "MSE", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "CosineSimilarity", "ROC", "auc", "ConfusionMatrix",
           "ConfusionMatrixMetric", "Dice", "HausdorffDistance", "MeanSurfaceDistance",
           "RootMeanSquareDistance", "BleuScore", "Perplexity", "OcclusionSensitivity",
           "get_metric_fn", "get_metrics", "names"]


def _labels(metric, y_pred, y):
    """Class indices of ``y`` (one-hot or indices) for predictions of shape (N, C)."""
    if y_pred.ndim < 2:
        raise ValueError(f"{type(metric).__name__}: predictions must have shape (N, C), got "
                         f"{y_pred.shape}")
    if y.ndim == y_pred.ndim and y.shape[-1] == y_pred.shape[-1] and y.ndim > 1:
        y = y.argmax(axis=-1)
    if y.shape != y_pred.shape[:-1]:
        raise ValueError(f"{type(metric).__name__}: labels of shape {y.shape} do not match "
                         f"predictions of shape {y_pred.shape}")
    classes = y_pred.shape[-1]
    if metric._class_num and classes != metric._class_num:
        raise ValueError(f"{type(metric).__name__}: {classes} classes now, {metric._class_num} "
                         f"before")
    metric._class_num = classes
    if y.size and (y.min() < 0 or y.max() >= classes):
        raise ValueError(f"{type(metric).__name__}: labels must be in [0, {classes}), got "
                         f"{y.min()}..{y.max()}")
    return y.astype(np.int64)


class Accuracy(Metric):
    """Share of samples whose argmax prediction is the label (``'classification'``) or whose
    0/1 predictions all equal the labels (``'multilabel'``)."""

    def __init__(self, eval_type="classification"):
        if eval_type not in ("classification", "multilabel"):
            raise ValueError(f"Accuracy: eval_type must be 'classification' or 'multilabel', "
                             f"got {eval_type!r}")
        self._type = eval_type
        super().__init__()

    def clear(self):
        self._correct_num, self._total_num, self._class_num = 0, 0, 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._inputs(inputs, 2)
        if self._type == "classification":
            correct = (y_pred.argmax(axis=-1) == _labels(self, y_pred, y)).reshape(-1)
        else:
            if y_pred.shape != y.shape:
                raise ValueError(f"Accuracy: multilabel predictions {y_pred.shape} and labels "
                                 f"{y.shape} differ in shape")
            correct = (y_pred == y).reshape(len(y), -1).all(axis=1)
        self._correct_num += int(correct.sum())
        self._total_num += correct.size

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("Accuracy: call update() before eval()")
        return self._correct_num / self._total_num


class Loss(Metric):
    """The mean of the losses it is given (each the mean of a 0-d or 1-d input)."""

    def clear(self):
        self._sum_loss, self._total_num = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        (loss,) = self._inputs(inputs, 1)
        if loss.ndim > 1:
            raise ValueError(f"Loss: a loss must be 0-d or 1-d, got shape {loss.shape}")
        self._sum_loss += float(np.mean(loss))
        self._total_num += 1

    def eval(self):
        if self._total_num == 0:
            raise RuntimeError("Loss: call update() before eval()")
        return self._sum_loss / self._total_num


class MAE(Metric):
    """Sum of absolute errors over the number of samples (MindSpore's definition)."""

    def clear(self):
        self._error_sum, self._samples_num = 0.0, 0

    def _error(self, difference):
        return np.abs(difference)

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._inputs(inputs, 2)
        self._error_sum += float(self._error(y.reshape(y_pred.shape) - y_pred).sum())
        self._samples_num += y.shape[0]

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError(f"{type(self).__name__}: call update() before eval()")
        return self._error_sum / self._samples_num


class MSE(MAE):
    """Sum of squared errors over the number of samples (MindSpore's definition)."""

    def _error(self, difference):
        return np.square(difference)


class TopKCategoricalAccuracy(Metric):
    """Share of samples whose label is among the ``k`` highest predictions."""

    def __init__(self, k):
        if isinstance(k, bool) or not isinstance(k, int) or k <= 0:
            raise ValueError(f"TopKCategoricalAccuracy: 'k' must be a positive int, got {k!r}")
        self.k = k
        super().__init__()

    def clear(self):
        self._correct_num, self._samples_num, self._class_num = 0, 0, 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._inputs(inputs, 2)
        labels = _labels(self, y_pred, y).reshape(-1)
        scores = y_pred.reshape(len(labels), -1)
        label_scores = scores[np.arange(len(labels)), labels]
        # ranked among the top k: fewer than k classes score higher (ties count for it)
        higher = (scores > label_scores[:, None]).sum(axis=1)
        self._correct_num += int((higher < self.k).sum())
        self._samples_num += len(labels)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("TopKCategoricalAccuracy: call update() before eval()")
        return self._correct_num / self._samples_num


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    def __init__(self):
        super().__init__(5)


# MindSpore's names (its ``__factory__``)
_BY_NAME = {"accuracy": Accuracy, "acc": Accuracy, "precision": Precision, "recall": Recall,
            "F1": F1, "dice": Dice, "roc": ROC, "auc": auc, "bleu_score": BleuScore,
            "cosine_similarity": CosineSimilarity,
            "occlusion_sensitivity": OcclusionSensitivity, "topk": TopKCategoricalAccuracy,
            "hausdorff_distance": HausdorffDistance, "top_1_accuracy": Top1CategoricalAccuracy,
            "top_5_accuracy": Top5CategoricalAccuracy, "mae": MAE, "mse": MSE, "loss": Loss,
            "mean_surface_distance": MeanSurfaceDistance,
            "root_mean_square_distance": RootMeanSquareDistance, "perplexity": Perplexity,
            "confusion_matrix": ConfusionMatrix,
            "confusion_matrix_metric": ConfusionMatrixMetric}


def names():
    """The names ``get_metric_fn`` knows, sorted."""
    return sorted(_BY_NAME)


def get_metric_fn(name, *args, **kwargs):
    """The metric called ``name`` (see ``names()``), made with ``args`` / ``kwargs``."""
    if name not in _BY_NAME:
        raise KeyError(f"get_metric_fn: unknown metric {name!r}; known: {names()}")
    return _BY_NAME[name](*args, **kwargs)


def get_metrics(metrics):
    """``None``; a dict of name -> Metric (checked and returned); or a set of names, each
    made with ``get_metric_fn``."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"get_metrics: a dict of metrics needs str keys and Metric "
                                f"values, got {type(name).__name__}: {type(metric).__name__}")
        return metrics
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"get_metrics: 'metrics' must be None, a dict or a set, got {metrics!r}")
