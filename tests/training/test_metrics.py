"""Metrics against NumPy formulas written here (and MindSpore's definitions where they are
unusual: MAE / MSE divide by the number of samples, not of elements)."""
import numpy as np
import pytest

from tensorjit import nn, Tensor
from tensorjit.train import (Accuracy, Loss, Precision, Recall, F1, Fbeta, MAE, MSE,
                             TopKCategoricalAccuracy, Top1CategoricalAccuracy, get_metric_fn)

RNG = np.random.default_rng(0)
LOGITS = [RNG.standard_normal((7, 4)).astype(np.float32) for _ in range(3)]
LABELS = [RNG.integers(0, 4, 7) for _ in range(3)]


def feed(metric, one_hot=False):
    metric.clear()
    for logits, labels in zip(LOGITS, LABELS):
        y = np.eye(4)[labels] if one_hot else labels
        metric.update(Tensor(logits), Tensor(y) if not one_hot else y)
    return metric


def counts():
    pred = np.concatenate(LOGITS).argmax(1)
    true = np.concatenate(LABELS)
    tp = np.array([np.sum((pred == c) & (true == c)) for c in range(4)], float)
    predicted = np.array([np.sum(pred == c) for c in range(4)], float)
    actual = np.array([np.sum(true == c) for c in range(4)], float)
    return pred, true, tp, predicted, actual


@pytest.mark.parametrize("one_hot", [False, True])
def test_classification_metrics(one_hot):
    pred, true, tp, predicted, actual = counts()
    assert feed(Accuracy(), one_hot).eval() == pytest.approx(np.mean(pred == true))
    precision = tp / np.maximum(predicted, 1e-300)
    recall = tp / np.maximum(actual, 1e-300)
    np.testing.assert_allclose(feed(Precision(), one_hot).eval(), precision)
    np.testing.assert_allclose(feed(Recall(), one_hot).eval(), recall)
    assert feed(Recall(), one_hot).eval(average=True) == pytest.approx(recall.mean())
    f1 = 2 * tp / (actual + predicted)
    np.testing.assert_allclose(feed(F1(), one_hot).eval(), f1)
    f2 = 5 * tp / (4 * actual + predicted)
    np.testing.assert_allclose(feed(Fbeta(2), one_hot).eval(), f2)


def test_top_k():
    logits, labels = np.concatenate(LOGITS), np.concatenate(LABELS)
    for k in (1, 2, 3):
        rank = (logits > logits[np.arange(len(labels)), labels][:, None]).sum(1)
        assert feed(TopKCategoricalAccuracy(k)).eval() == pytest.approx(np.mean(rank < k))
    assert feed(Top1CategoricalAccuracy()).eval() == feed(Accuracy()).eval()


def test_regression_metrics_and_loss():
    a = RNG.standard_normal((5, 3))
    b = RNG.standard_normal((5, 3))
    mae, mse = MAE(), MSE()
    for metric in (mae, mse):
        metric.update(Tensor(a[:2]), Tensor(b[:2]))
        metric.update(a[2:], b[2:])
    assert mae.eval() == pytest.approx(np.abs(a - b).sum() / 5)
    assert mse.eval() == pytest.approx(((a - b) ** 2).sum() / 5)
    loss = Loss()
    for value in (0.5, np.array([1.0, 2.0]), 3.0):
        loss.update(Tensor(np.asarray(value, np.float32)))
    assert loss.eval() == pytest.approx((0.5 + 1.5 + 3.0) / 3)


def test_multilabel_accuracy_and_errors():
    y = np.array([[1, 0, 1], [0, 1, 0]])
    pred = np.array([[1, 0, 1], [1, 1, 0]])
    assert Accuracy("multilabel")(pred, y) == 0.5
    with pytest.raises(RuntimeError, match="call update"):
        Accuracy().eval()
    with pytest.raises(ValueError, match="labels must be in"):
        Accuracy().update(np.zeros((2, 3)), np.array([0, 3]))
    with pytest.raises(ValueError, match="needs 2 input"):
        Accuracy().update(np.zeros((2, 3)))
    assert isinstance(get_metric_fn("accuracy"), Accuracy)
    assert nn.Accuracy is Accuracy and nn.TopKCategoricalAccuracy is TopKCategoricalAccuracy
