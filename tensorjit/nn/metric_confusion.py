"""Confusion-matrix metrics, as MindSpore defines them.

``ConfusionMatrix(num_classes)``: counts of (true class, predicted class) pairs; predictions
with a class axis (axis 1) are argmaxed, float predictions of the labels' shape are
thresholded; ``normalize`` divides by the row ('target'), column ('prediction') or total
('all') sums, 0/0 giving 0.

``ConfusionMatrixMetric``: 0/1 predictions and labels of shape (B, C, ...); per sample and
class the counts (tp, fp, tn, fn) over the remaining axes (``skip_channel=False`` drops
channel 0 first). ``calculation_method=False``: the counts are summed over everything seen
and ``eval()`` gives the metric of the totals (a 1-element array).
``calculation_method=True``: the metric per sample and class (0/0 -> NaN), reduced by
``decrease`` (NaNs left out) to one value per update; ``eval()`` gives their mean weighted
by the number of values that were not NaN.
"""
import numpy as np

from .metric_base import Metric, rearrange_inputs

__all__ = ["ConfusionMatrix", "ConfusionMatrixMetric"]


class ConfusionMatrix(Metric):
    def __init__(self, num_classes, normalize="no_norm", threshold=0.5):
        if isinstance(num_classes, bool) or not isinstance(num_classes, int):
            raise TypeError(f"ConfusionMatrix: 'num_classes' must be an int, got "
                            f"{num_classes!r}")
        if normalize not in ("target", "prediction", "all", "no_norm"):
            raise ValueError(f"ConfusionMatrix: 'normalize' must be 'target', 'prediction', "
                             f"'all' or 'no_norm', got {normalize!r}")
        if not isinstance(threshold, float):
            raise TypeError(f"ConfusionMatrix: 'threshold' must be a float, got {threshold!r}")
        self.num_classes, self.normalize, self.threshold = num_classes, normalize, threshold
        super().__init__()

    def clear(self):
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._inputs(inputs, 2)
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError(f"ConfusionMatrix: predictions must have the labels' rank or one "
                             f"more (a class axis 1), got {y_pred.ndim} and {y.ndim}")
        if y_pred.ndim == y.ndim + 1:
            y_pred = y_pred.argmax(axis=1)
        elif y_pred.dtype.kind == "f":
            y_pred = (y_pred >= self.threshold).astype(np.int64)
        n = self.num_classes
        pairs = (y.reshape(-1) * n + y_pred.reshape(-1)).astype(np.int64)
        counts = np.bincount(pairs, minlength=n * n)
        if counts.size != n * n:
            raise ValueError(f"ConfusionMatrix: classes must be in [0, {n}), got labels up to "
                             f"{int(y.max())} and predictions up to {int(y_pred.max())}")
        self.confusion_matrix += counts.reshape(n, n)
        self._is_update = True

    def eval(self):
        self._check_updated(self._is_update)
        matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return matrix
        total = {"target": matrix.sum(axis=1, keepdims=True),
                 "prediction": matrix.sum(axis=0, keepdims=True),
                 "all": matrix.sum()}[self.normalize]
        with np.errstate(invalid="ignore", divide="ignore"):
            result = matrix / total
        result[np.isnan(result)] = 0
        return result


def _tpr_tnr(tp, fp, tn, fn):
    with np.errstate(invalid="ignore", divide="ignore"):
        p, n = tp + fn, fp + tn
        return (np.where(p > 0, tp / np.where(p > 0, p, 1), np.nan),
                np.where(n > 0, tn / np.where(n > 0, n, 1), np.nan))


def _ppv_npv(tp, fp, tn, fn):
    with np.errstate(invalid="ignore", divide="ignore"):
        return tp / (tp + fp), tn / (tn + fn)


# canonical name -> (numerator, denominator) of the counts
_FORMULAS = {
    "tpr": lambda tp, fp, tn, fn: (tp, tp + fn),
    "tnr": lambda tp, fp, tn, fn: (tn, fp + tn),
    "ppv": lambda tp, fp, tn, fn: (tp, tp + fp),
    "npv": lambda tp, fp, tn, fn: (tn, tn + fn),
    "fnr": lambda tp, fp, tn, fn: (fn, tp + fn),
    "fpr": lambda tp, fp, tn, fn: (fp, fp + tn),
    "fdr": lambda tp, fp, tn, fn: (fp, fp + tp),
    "for": lambda tp, fp, tn, fn: (fn, fn + tn),
    "pt": lambda *c: (lambda r, s: (np.sqrt(r * (1.0 - s)) + s - 1.0, r + s - 1.0))(
        *_tpr_tnr(*c)),
    "ts": lambda tp, fp, tn, fn: (tp, tp + fn + fp),
    "acc": lambda tp, fp, tn, fn: (tp + tn, tp + fp + tn + fn),
    "ba": lambda *c: (sum(_tpr_tnr(*c)), 2.0),
    "f1": lambda tp, fp, tn, fn: (2.0 * tp, 2.0 * tp + fn + fp),
    "mcc": lambda tp, fp, tn, fn: (tp * tn - fp * fn,
                                   np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
    "fm": lambda *c: (np.sqrt(_ppv_npv(*c)[0] * _tpr_tnr(*c)[0]), 1.0),
    "bm": lambda *c: (sum(_tpr_tnr(*c)) - 1.0, 1.0),
    "mk": lambda *c: (sum(_ppv_npv(*c)) - 1.0, 1.0),
}
_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate"),
    "tnr": ("specificity", "selectivity", "true_negative_rate"),
    "ppv": ("precision", "positive_predictive_value"), "npv": ("negative_predictive_value",),
    "fnr": ("miss_rate", "false_negative_rate"), "fpr": ("fall_out", "false_positive_rate"),
    "fdr": ("false_discovery_rate",), "for": ("false_omission_rate",),
    "pt": ("prevalence_threshold",), "ts": ("threat_score", "critical_success_index", "csi"),
    "acc": ("accuracy",), "ba": ("balanced_accuracy",), "f1": ("f1_score",),
    "mcc": ("matthews_correlation_coefficient",), "fm": ("fowlkes_mallows_index",),
    "bm": ("informedness", "bookmaker_informedness"), "mk": ("markedness", "deltap"),
}
_CANONICAL = {alias: name for name, aliases in _ALIASES.items() for alias in aliases + (name,)}


def _metric_of(metric_name, counts):
    """The named metric of ``counts`` (..., 4) = (tp, fp, tn, fn); 0 / 0 gives NaN."""
    name = _CANONICAL.get(metric_name.replace(" ", "_").lower())
    if name is None:
        raise NotImplementedError(f"ConfusionMatrixMetric: no metric named {metric_name!r}; "
                                  f"known: {sorted(_CANONICAL)}")
    counts = counts[None] if counts.ndim == 1 else counts
    numerator, denominator = _FORMULAS[name](*np.moveaxis(counts, -1, 0))
    with np.errstate(invalid="ignore", divide="ignore"):
        if isinstance(denominator, np.ndarray):
            return np.where(denominator != 0, numerator / denominator, np.nan)
        return numerator / denominator


def _mean_where_counted(values, counted, axis):
    total = counted.sum(axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, values.sum(axis=axis) / np.where(total > 0, total, 1), 0.0), \
            total


def _decrease(chart, decrease):
    """(reduced values, how many values were not NaN) of a (batch, class) chart."""
    counted = (~np.isnan(chart)).astype(float)
    chart = np.where(np.isnan(chart), 0.0, chart)
    if decrease == "mean":
        per_sample, counted = _mean_where_counted(chart, counted, 1)
        samples = (counted > 0).astype(float)
        return _mean_where_counted(per_sample, samples, 0)
    if decrease == "sum":
        return chart.sum(axis=(0, 1)), counted.sum(axis=(0, 1))
    if decrease in ("mean_batch", "mean_channel"):
        return _mean_where_counted(chart, counted, 0 if decrease == "mean_batch" else 1)
    if decrease in ("sum_batch", "sum_channel"):
        axis = 0 if decrease == "sum_batch" else 1
        return chart.sum(axis=axis), counted.sum(axis=axis)
    return chart, counted


class ConfusionMatrixMetric(Metric):
    _DECREASES = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel",
                  "sum_channel")

    def __init__(self, skip_channel=True, metric_name="sensitivity", calculation_method=False,
                 decrease="mean"):
        for name, value in (("skip_channel", skip_channel),
                            ("calculation_method", calculation_method)):
            if not isinstance(value, bool):
                raise TypeError(f"ConfusionMatrixMetric: '{name}' must be a bool, got "
                                f"{value!r}")
        for name, value in (("metric_name", metric_name), ("decrease", decrease)):
            if not isinstance(value, str):
                raise TypeError(f"ConfusionMatrixMetric: '{name}' must be a str, got "
                                f"{value!r}")
        if decrease not in self._DECREASES:
            raise ValueError(f"ConfusionMatrixMetric: 'decrease' must be one of "
                             f"{self._DECREASES}, got {decrease!r}")
        self.skip_channel, self.metric_name = skip_channel, metric_name
        self.calculation_method, self.decrease = calculation_method, decrease
        super().__init__()

    def clear(self):
        self._total_num, self._class_num = 0.0, 0
        self._totals = np.zeros(4)

    def _counts(self, y_pred, y):
        """(batch, class, 4) counts tp, fp, tn, fn."""
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("ConfusionMatrixMetric: the labels must be 0 or 1")
        if y_pred.ndim < 2:
            raise ValueError(f"ConfusionMatrixMetric: predictions need at least 2 dimensions "
                             f"(batch, class), got {y_pred.ndim}")
        if not self.skip_channel:
            y = y[:, 1:] if y.shape[1] > 1 else y
            y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
        if y.shape != y_pred.shape:
            raise ValueError(f"ConfusionMatrixMetric: predictions {y_pred.shape} and labels "
                             f"{y.shape} differ in shape")
        batch, classes = y_pred.shape[:2]
        y_pred = y_pred.astype(float).reshape(batch, classes, -1)
        y = y.astype(float).reshape(batch, classes, -1)
        tp = (y_pred + y == 2).sum(axis=2).astype(float)
        tn = (y_pred + y == 0).sum(axis=2).astype(float)
        positives = y.sum(axis=2)
        fn, fp = positives - tp, y.shape[-1] - positives - tn
        return np.stack([tp, fp, tn, fn], axis=-1)

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._inputs(inputs, 2)
        counts = self._counts(y_pred, y)
        if not self.calculation_method:
            self._totals += counts.sum(axis=(0, 1))
            return
        if y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1):
            raise ValueError("ConfusionMatrixMetric: calculation_method=True needs inputs with "
                             "axes beyond (batch, class)")
        score, counted = _decrease(_metric_of(self.metric_name, counts), self.decrease)
        counted = int(np.asarray(counted).item())
        self._total_num += float(np.asarray(score).item()) * counted
        self._class_num += counted

    def eval(self):
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("ConfusionMatrixMetric: call update() before eval()")
            return self._total_num / self._class_num
        return _metric_of(self.metric_name, self._totals)
