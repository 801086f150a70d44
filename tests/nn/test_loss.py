"""Loss cells against NumPy formulas."""
import numpy as np
import pytest

from tensorjit import nn, Tensor

from . import reference as ref

TOL = dict(rtol=1e-10, atol=1e-12)


def reduce(loss, reduction):
    return {"mean": loss.mean(), "sum": loss.sum(), "none": loss}[reduction]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_and_l1(rng, reduction):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    np.testing.assert_allclose(nn.MSELoss(reduction)(Tensor(a), Tensor(b)).asnumpy(),
                               reduce((a - b) ** 2, reduction), **TOL)
    np.testing.assert_allclose(nn.L1Loss(reduction)(Tensor(a), Tensor(b)).asnumpy(),
                               reduce(np.abs(a - b), reduction), **TOL)


def test_smooth_l1(rng):
    a, b = rng.standard_normal(20) * 2, rng.standard_normal(20)
    d = np.abs(a - b)
    expected = np.where(d < 0.5, 0.5 * d ** 2 / 0.5, d - 0.25)
    np.testing.assert_allclose(nn.SmoothL1Loss(beta=0.5)(Tensor(a), Tensor(b)).asnumpy(),
                               expected, **TOL)


def test_softmax_cross_entropy_with_logits(rng):
    logits = rng.standard_normal((5, 4))
    labels = rng.integers(0, 4, 5)
    one_hot = np.eye(4)[labels]
    per_sample = -ref.log_softmax(logits)[np.arange(5), labels]
    dense = nn.SoftmaxCrossEntropyWithLogits()          # reduction 'none' by default
    np.testing.assert_allclose(dense(Tensor(logits), Tensor(one_hot)).asnumpy(), per_sample,
                               **TOL)
    sparse = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    np.testing.assert_allclose(sparse(Tensor(logits), Tensor(labels.astype(np.int32))).asnumpy(),
                               per_sample.mean(), **TOL)


def test_cross_entropy_and_nll(rng):
    logits = rng.standard_normal((6, 3))
    labels = np.array([0, 2, 1, 1, -100, 2], np.int32)
    logp = ref.log_softmax(logits)
    valid = labels != -100
    picked = -logp[np.arange(6)[valid], labels[valid]]
    np.testing.assert_allclose(nn.CrossEntropyLoss()(Tensor(logits), Tensor(labels)).asnumpy(),
                               picked.mean(), **TOL)
    np.testing.assert_allclose(nn.NLLLoss(reduction="sum")(Tensor(logp), Tensor(labels)).asnumpy(),
                               picked.sum(), **TOL)
    weight = np.array([0.2, 1.0, 3.0])
    w = weight[labels[valid]]
    loss = nn.CrossEntropyLoss(weight=Tensor(weight))(Tensor(logits), Tensor(labels)).asnumpy()
    np.testing.assert_allclose(loss, (picked * w).sum() / w.sum(), **TOL)
    # label smoothing: (1 - e) * nll + e * mean over classes of -log p
    eps = 0.1
    smoothed = (1 - eps) * picked + eps * (-logp[valid].mean(axis=1))
    loss = nn.CrossEntropyLoss(label_smoothing=eps)(Tensor(logits), Tensor(labels)).asnumpy()
    np.testing.assert_allclose(loss, smoothed.mean(), **TOL)
    probs = ref.softmax(rng.standard_normal((6, 3)))
    loss = nn.CrossEntropyLoss(reduction="none")(Tensor(logits), Tensor(probs)).asnumpy()
    np.testing.assert_allclose(loss, -(probs * logp).sum(axis=1), **TOL)


def test_bce_with_logits(rng):
    x, y = rng.standard_normal((4, 3)) * 3, rng.uniform(0, 1, (4, 3))
    sig = 1 / (1 + np.exp(-x))
    elementwise = -(y * np.log(sig) + (1 - y) * np.log(1 - sig))
    np.testing.assert_allclose(nn.BCEWithLogitsLoss()(Tensor(x), Tensor(y)).asnumpy(),
                               elementwise.mean(), rtol=1e-9)
    pos = np.array([1.0, 2.0, 0.5])
    weighted = -(pos * y * np.log(sig) + (1 - y) * np.log(1 - sig))
    loss = nn.BCEWithLogitsLoss("none", pos_weight=Tensor(pos))(Tensor(x), Tensor(y))
    np.testing.assert_allclose(loss.asnumpy(), weighted, rtol=1e-9)


def test_loss_errors():
    with pytest.raises(ValueError, match="MSELoss.*reduction.*avg"):
        nn.MSELoss("avg")
    with pytest.raises(ValueError, match="CrossEntropyLoss.*label_smoothing"):
        nn.CrossEntropyLoss(label_smoothing=2.0)
    with pytest.raises(TypeError, match="NLLLoss.*weight"):
        nn.NLLLoss(weight=[1.0, 2.0])


def test_loss_base_get_loss(rng):
    class Custom(nn.LossBase):
        def construct(self, a, b):
            return self.get_loss((a - b) ** 2, 2.0)

    a, b = rng.standard_normal(5), rng.standard_normal(5)
    np.testing.assert_allclose(Custom("sum")(Tensor(a), Tensor(b)).asnumpy(),
                               (2 * (a - b) ** 2).sum(), **TOL)
