"""Segmentation metrics, as MindSpore defines them: ``Dice`` and the surface distances
``HausdorffDistance``, ``MeanSurfaceDistance``, ``RootMeanSquareDistance``.

The surface-distance metrics take ``update(y_pred, y, label_idx)``: the masks are
``y_pred == label_idx`` and ``y == label_idx`` (boolean inputs are used as they are, except
by HausdorffDistance, which compares them too, as MindSpore does); a mask's edge is the mask
minus its binary erosion. The distance of each predicted edge point to the nearest true edge
point uses ``distance_metric`` ('euclidean', or 'chessboard' / 'taxicab' for the chamfer
distances); with no true edge it is infinite, with no predicted edge the metric is infinite.
"""
import numpy as np
from scipy import ndimage

from .metric_base import Metric, rearrange_inputs

__all__ = ["Dice", "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance"]

_DISTANCES = ("euclidean", "chessboard", "taxicab")


class Dice(Metric):
    """Mean over updates of ``2 <y_pred, y> / (<y_pred, y_pred> + <y, y> + smooth)``; each
    update counts ``len(y)`` samples."""

    def __init__(self, smooth=1e-5):
        if not isinstance(smooth, float):
            raise TypeError(f"Dice: 'smooth' must be a float, got {smooth!r}")
        if smooth <= 0:
            raise ValueError(f"Dice: 'smooth' must be > 0, got {smooth}")
        self.smooth = smooth
        super().__init__()

    def clear(self):
        self._dice_coeff_sum, self._samples_num = 0.0, 0

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._inputs(inputs, 2)
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(f"Dice: predictions {y_pred.shape} and labels {y.shape} differ in "
                             f"shape")
        p, t = y_pred.reshape(-1), y.reshape(-1)
        self._dice_coeff_sum += 2 * float(p @ t) / float(p @ p + t @ t + self.smooth)

    def eval(self):
        if self._samples_num == 0:
            raise RuntimeError("Dice: call update() before eval()")
        return self._dice_coeff_sum / float(self._samples_num)


def _check_distance_metric(who, distance_metric):
    if not isinstance(distance_metric, str):
        raise TypeError(f"{who}: 'distance_metric' must be a str, got {distance_metric!r}")
    if distance_metric not in _DISTANCES:
        raise ValueError(f"{who}: 'distance_metric' must be one of {_DISTANCES}, got "
                         f"{distance_metric!r}")
    return distance_metric


def _edges(mask):
    return ndimage.binary_erosion(mask) ^ mask


def _surface_distances(distance_metric, pred_edges, true_edges):
    """For each predicted edge point, its distance to the nearest true edge point."""
    if not np.any(pred_edges):
        return np.array([])
    if not np.any(true_edges):
        return np.full(int(np.count_nonzero(pred_edges)), np.inf)
    if distance_metric == "euclidean":
        distance = ndimage.distance_transform_edt(~true_edges)
    else:
        distance = ndimage.distance_transform_cdt(~true_edges, metric=distance_metric)
    return distance[pred_edges]


class _SurfaceMetric(Metric):
    _label_type_error = ValueError       # what a non-number label index raises (MindSpore)

    def clear(self):
        self._y_pred_edges = self._y_edges = 0
        self._is_update = False

    def _masks(self, inputs):
        who = type(self).__name__
        if len(inputs) != 3:
            raise ValueError(f"{who}.update needs 3 inputs (y_pred, y, label_idx), got "
                             f"{len(inputs)}")
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        label = inputs[2]
        if isinstance(label, bool) or not isinstance(label, (int, float)):
            raise self._label_type_error(f"{who}: the label index must be an int or float, got "
                                         f"{type(label).__name__}")
        if label not in y_pred and label not in y:
            raise ValueError(f"{who}: the label index {label} is in neither input")
        if y_pred.size == 0 or y_pred.shape != y.shape:
            raise ValueError(f"{who}: the inputs must be non-empty and of one shape, got "
                             f"{y_pred.shape} and {y.shape}")
        return self._mask(y_pred, label), self._mask(y, label)

    @staticmethod
    def _mask(values, label):
        return values if values.dtype == bool else values == label

    def _distances(self, forward=True):
        a, b = (self._y_pred_edges, self._y_edges) if forward else (self._y_edges,
                                                                    self._y_pred_edges)
        return _surface_distances(self.distance_metric, a, b)


class HausdorffDistance(_SurfaceMetric):
    """The largest (or ``percentile``-th) surface distance, of both directions unless
    ``directed``; ``crop`` first cuts both masks to the box around their union."""

    def __init__(self, distance_metric="euclidean", percentile=None, directed=False,
                 crop=True):
        self.distance_metric = _check_distance_metric("HausdorffDistance", distance_metric)
        if percentile is not None and not isinstance(percentile, float):
            raise TypeError(f"HausdorffDistance: 'percentile' must be a float or None, got "
                            f"{percentile!r}")
        for name, value in (("directed", directed), ("crop", crop)):
            if not isinstance(value, bool):
                raise TypeError(f"HausdorffDistance: '{name}' must be a bool, got {value!r}")
        self.percentile, self.directed, self.crop = percentile, directed, crop
        super().__init__()

    @staticmethod
    def _mask(values, label):
        return values == label

    @rearrange_inputs
    def update(self, *inputs):
        self._is_update = True
        y_pred, y = self._masks(inputs)
        if self.crop:
            union = y_pred | y
            if not union.any():
                self._y_pred_edges, self._y_edges = np.zeros_like(y_pred), np.zeros_like(y)
                return
            box = tuple(slice(idx.min(), idx.max() + 1) for idx in np.nonzero(union))
            y_pred, y = np.squeeze(y_pred[box]), np.squeeze(y[box])
        self._y_pred_edges, self._y_edges = _edges(y_pred), _edges(y)

    def _one_way(self, forward):
        distances = self._distances(forward)
        if distances.shape == (0,):
            return np.inf
        if not self.percentile:
            return distances.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(distances, self.percentile)
        raise ValueError(f"HausdorffDistance: 'percentile' must be in [0, 100], got "
                         f"{self.percentile}")

    def eval(self):
        self._check_updated(self._is_update)
        forward = self._one_way(True)
        return forward if self.directed else max(forward, self._one_way(False))


class _AveragedSurfaceMetric(_SurfaceMetric):
    def __init__(self, symmetric=False, distance_metric="euclidean"):
        who = type(self).__name__
        self.distance_metric = _check_distance_metric(who, distance_metric)
        if not isinstance(symmetric, bool):
            raise TypeError(f"{who}: 'symmetric' must be a bool, got {symmetric!r}")
        self.symmetric = symmetric
        super().__init__()

    @rearrange_inputs
    def update(self, *inputs):
        y_pred, y = self._masks(inputs)
        self._y_pred_edges, self._y_edges = _edges(y_pred), _edges(y)
        self._is_update = True


class MeanSurfaceDistance(_AveragedSurfaceMetric):
    """The mean surface distance (``symmetric``: the mean of both directions' means)."""

    def eval(self):
        self._check_updated(self._is_update)
        means = []
        for forward in ((True, False) if self.symmetric else (True,)):
            distances = self._distances(forward)
            if distances.shape == (0,):
                return np.inf
            means.append(distances.mean())
        return means[0] if len(means) == 1 else np.mean(means)


class RootMeanSquareDistance(_AveragedSurfaceMetric):
    """The mean squared surface distance; ``symmetric``: the root of the mean of both
    directions' mean squares (MindSpore takes the root only then)."""
    _label_type_error = TypeError

    def eval(self):
        self._check_updated(self._is_update)
        squares = []
        for forward in ((True, False) if self.symmetric else (True,)):
            distances = self._distances(forward)
            if distances.shape == (0,):
                return np.inf
            squares.append((distances ** 2).mean())
        return squares[0] if len(squares) == 1 else np.sqrt(np.mean(squares))
