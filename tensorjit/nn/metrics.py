"""Evaluation metrics (MindSpore's ``train.metrics``, also under ``nn``): each accumulates
with ``update(*inputs)`` (Tensors, arrays or lists) and reports with ``eval()``; ``clear()``
starts over. They run on NumPy on the host, outside compiled graphs, as MindSpore's do."""
import numpy as np

from ..tensor import Tensor

__all__ = ["Metric", "Accuracy", "Loss", "Precision", "Recall", "Fbeta", "F1", "MAE", "MSE",
           "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
           "get_metric_fn", "names"]


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

    @property
    def indexes(self):
        return self._indexes

    def set_indexes(self, indexes):
        """Which of the evaluation network's outputs ``update`` receives."""
        if not isinstance(indexes, (list, tuple)) or not all(isinstance(i, int) for i in indexes):
            raise TypeError(f"{type(self).__name__}.set_indexes: a list of ints, got {indexes!r}")
        self._indexes = list(indexes)
        return self

    def clear(self):
        raise NotImplementedError

    def update(self, *inputs):
        raise NotImplementedError

    def eval(self):
        raise NotImplementedError

    def __call__(self, *inputs):
        self.clear()
        self.update(*inputs)
        return self.eval()


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


class _Counts(Metric):
    """True positives, predicted positives and actual positives per class."""

    def __init__(self, eval_type="classification"):
        if eval_type not in ("classification", "multilabel"):
            raise ValueError(f"{type(self).__name__}: eval_type must be 'classification' or "
                             f"'multilabel', got {eval_type!r}")
        self._type = eval_type
        super().__init__()

    def clear(self):
        self._class_num = 0
        self._true_positives = self._positives = self._actual_positives = 0

    def update(self, *inputs):
        y_pred, y = self._inputs(inputs, 2)
        if self._type == "classification":
            labels = _labels(self, y_pred, y).reshape(-1)
            eye = np.eye(self._class_num)
            y, y_pred = eye[labels], eye[y_pred.argmax(axis=-1).reshape(-1)]
        else:
            y_pred = y_pred.reshape(-1, y_pred.shape[-1])
            y = y.reshape(-1, y.shape[-1])
            self._class_num = y_pred.shape[-1]
        self._true_positives = self._true_positives + (y * y_pred).sum(axis=0)
        self._positives = self._positives + y_pred.sum(axis=0)
        self._actual_positives = self._actual_positives + y.sum(axis=0)

    _EPS = np.finfo(np.float64).tiny          # MindSpore's sys.float_info.min

    def _check(self):
        if self._class_num == 0:
            raise RuntimeError(f"{type(self).__name__}: call update() before eval()")

    def _ratio(self, numerator, denominator):
        self._check()
        return numerator / (denominator + self._EPS)


class Precision(_Counts):
    """Per class: true positives / predicted positives (``eval(average=True)``: the mean)."""

    def eval(self, average=False):
        result = self._ratio(self._true_positives, self._positives)
        return float(np.mean(result)) if average else result


class Recall(_Counts):
    """Per class: true positives / actual positives (``eval(average=True)``: the mean)."""

    def eval(self, average=False):
        result = self._ratio(self._true_positives, self._actual_positives)
        return float(np.mean(result)) if average else result


class Fbeta(_Counts):
    """Per class: ``(1 + beta^2) * p * r / (beta^2 * p + r)``."""

    def __init__(self, beta):
        if not beta > 0:
            raise ValueError(f"Fbeta: 'beta' must be > 0, got {beta!r}")
        self.beta = float(beta)
        super().__init__()

    def eval(self, average=False):
        self._check()
        b2 = self.beta ** 2
        result = (1 + b2) * self._true_positives / (
            b2 * self._actual_positives + self._positives + self._EPS)
        return float(np.mean(result)) if average else result


class F1(Fbeta):
    def __init__(self):
        super().__init__(1.0)


class MAE(Metric):
    """Sum of absolute errors over the number of samples (MindSpore's definition)."""

    def clear(self):
        self._error_sum, self._samples_num = 0.0, 0

    def _error(self, difference):
        return np.abs(difference)

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


_BY_NAME = {"accuracy": Accuracy, "acc": Accuracy, "loss": Loss, "precision": Precision,
            "recall": Recall, "f1": F1, "mae": MAE, "mse": MSE,
            "top_1_accuracy": Top1CategoricalAccuracy, "top_5_accuracy": Top5CategoricalAccuracy}


def names():
    return sorted(_BY_NAME)


def get_metric_fn(name, *args, **kwargs):
    if name not in _BY_NAME:
        raise KeyError(f"unknown metric {name!r}; known: {names()}")
    return _BY_NAME[name](*args, **kwargs)
