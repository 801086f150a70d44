"""The metrics beyond accuracy: MindSpore 2.10's recorded results
(tests/nn/record_metrics_extra.py), NumPy formulas written here, the registry and
``rearrange_inputs``, and argument errors."""
import numpy as np
import pytest

from tensorjit import nn, Tensor

from . import record_metrics_extra as recorded

RECORD = dict(np.load(recorded.RECORD))


@pytest.mark.parametrize("case", recorded.CASES, ids=[c[0] for c in recorded.CASES])
def test_against_mindspore(case):
    got = recorded.flatten(recorded.run(nn, Tensor, case, RECORD))
    assert f"{case[0]}#{len(got)}" not in RECORD
    for i, value in enumerate(got):
        want = RECORD[f"{case[0]}#{i}"]
        # OcclusionSensitivity's values are differences of a model's float32 outputs: a
        # few ulps of those (the BLAS's summation order) is the tolerance there
        atol = (1e-6 * float(np.max(np.abs(want))) if case[0] == "OcclusionSensitivity"
                else 1e-7)
        np.testing.assert_allclose(value, want, rtol=1e-6, atol=atol, err_msg=f"{case[0]} #{i}")


@pytest.mark.parametrize("label, x, y, reorder", recorded.AUC_CASES)
def test_auc_against_mindspore(label, x, y, reorder):
    np.testing.assert_allclose(nn.auc(RECORD[x], RECORD[y], reorder), RECORD[f"{label}#0"],
                               rtol=1e-12)


# ---- formulas -------------------------------------------------------------------------

def test_precision_recall_with_spatial_axes(rng):
    """Classes on axis 1 of (N, C, L) scores; labels (N, L)."""
    scores, labels = rng.standard_normal((3, 4, 5)), rng.integers(0, 4, (3, 5))
    predicted = scores.argmax(1)
    tp = np.array([np.sum((predicted == c) & (labels == c)) for c in range(4)])
    n_pred = np.array([np.sum(predicted == c) for c in range(4)])
    n_true = np.array([np.sum(labels == c) for c in range(4)])
    with np.errstate(invalid="ignore", divide="ignore"):
        want_p = np.where(n_pred > 0, tp / n_pred, 0.0)
        want_r = np.where(n_true > 0, tp / n_true, 0.0)
    np.testing.assert_allclose(nn.Precision()(scores, labels), want_p, rtol=1e-12)
    np.testing.assert_allclose(nn.Recall()(Tensor(scores), labels), want_r, rtol=1e-12)
    beta = 2.0
    fbeta = (1 + beta ** 2) * tp / np.maximum(beta ** 2 * n_true + n_pred, 1e-300)
    np.testing.assert_allclose(nn.Fbeta(beta)(scores, labels), fbeta, rtol=1e-12)


def _roc_reference(scores, positive):
    thresholds = np.concatenate(([scores.max() + 1], np.sort(np.unique(scores))[::-1]))
    tpr = np.array([np.sum((scores >= t) & positive) for t in thresholds]) / positive.sum()
    fpr = np.array([np.sum((scores >= t) & ~positive) for t in thresholds]) / (~positive).sum()
    return fpr, tpr, thresholds


def test_roc_one_curve_per_class(rng):
    scores, labels = rng.random((7, 3)), np.array([0, 1, 2, 2, 1, 0, 1])
    metric = nn.ROC(class_num=3)
    metric.update(scores, labels)
    fpr, tpr, thresholds = metric.eval()
    for c in range(3):
        want = _roc_reference(scores[:, c], labels == c)
        for got, expected in zip((fpr[c], tpr[c], thresholds[c]), want):
            np.testing.assert_allclose(got, expected, rtol=1e-12)
    x = np.array([0.0, 0.25, 0.5, 1.0])
    y = x ** 2
    area = sum((x[i + 1] - x[i]) * (y[i + 1] + y[i]) / 2 for i in range(3))
    assert nn.auc(x, y) == pytest.approx(area)
    assert nn.auc(x[::-1], y[::-1]) == pytest.approx(area)


def test_confusion_matrices(rng):
    labels = rng.integers(0, 3, 20)
    scores = rng.standard_normal((20, 3))
    counts = np.zeros((3, 3))
    for t, p in zip(labels, scores.argmax(1)):
        counts[t, p] += 1
    np.testing.assert_array_equal(nn.ConfusionMatrix(3)(scores, labels), counts)
    with np.errstate(invalid="ignore"):
        by_row = np.nan_to_num(counts / counts.sum(1, keepdims=True))
    np.testing.assert_allclose(nn.ConfusionMatrix(3, "target")(scores, labels), by_row)
    pred, true = rng.integers(0, 2, (2, 3, 6)), rng.integers(0, 2, (2, 3, 6))
    tp, fp = np.sum((pred == 1) & (true == 1)), np.sum((pred == 1) & (true == 0))
    tn, fn = np.sum((pred == 0) & (true == 0)), np.sum((pred == 0) & (true == 1))
    for name, value in (("tpr", tp / (tp + fn)), ("specificity", tn / (tn + fp)),
                        ("f1 score", 2 * tp / (2 * tp + fp + fn)),
                        ("mcc", (tp * tn - fp * fn) / np.sqrt(
                            float((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))))):
        metric = nn.ConfusionMatrixMetric(metric_name=name)
        np.testing.assert_allclose(metric(pred, true), [value], rtol=1e-12)


def _edge_points(mask):
    """Mask pixels with a 4-neighbour outside the mask (or the array)."""
    padded = np.pad(mask, 1)
    inner = padded[1:-1, 1:-1] & padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] \
        & padded[1:-1, 2:]
    return np.argwhere(mask & ~inner)


def test_surface_distances_by_brute_force():
    pred, true = RECORD["mask_pred"] == 1, RECORD["mask_true"] == 1
    a, b = _edge_points(pred), _edge_points(true)
    d = np.sqrt(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1))
    forward, backward = d.min(1), d.min(0)
    args = (RECORD["mask_pred"], RECORD["mask_true"], 1)
    assert nn.HausdorffDistance()(*args) == pytest.approx(max(forward.max(), backward.max()))
    assert nn.HausdorffDistance(directed=True)(*args) == pytest.approx(forward.max())
    assert nn.MeanSurfaceDistance(symmetric=True)(*args) == pytest.approx(
        (forward.mean() + backward.mean()) / 2)
    assert nn.RootMeanSquareDistance()(*args) == pytest.approx((forward ** 2).mean())
    empty = np.zeros((4, 4))
    assert nn.MeanSurfaceDistance()(empty, np.eye(4), 1) == np.inf


def test_dice_bleu_perplexity_formulas(rng):
    p, t = rng.random((3, 4)), rng.integers(0, 2, (3, 4)).astype(float)
    dice = 2 * (p * t).sum() / ((p * p).sum() + (t * t).sum() + 1e-5)
    assert nn.Dice()(p, t) == pytest.approx(dice / 3)
    same = [["a", "b", "c", "d"]]
    assert nn.BleuScore()(same, [same]) == pytest.approx(1.0)
    # unigrams 3/4, bigrams 1/3; the reference (5 tokens) is longer: exp(1 - 5/4)
    bleu = nn.BleuScore(n_gram=2)([["a", "b", "x", "c"]], [[["a", "b", "c", "d", "e"]]])
    assert bleu == pytest.approx(np.exp(1 - 5 / 4) * np.sqrt(3 / 4 * 1 / 3))
    probs, labels = rng.dirichlet(np.ones(5), 6), rng.integers(0, 5, 6)
    nll = -np.log(probs[np.arange(6), labels])
    assert nn.Perplexity()(probs, labels) == pytest.approx(np.exp(nll.mean()))
    kept = labels != labels[0]
    assert nn.Perplexity(ignore_label=int(labels[0]))(probs, labels) == pytest.approx(
        np.exp(nll[kept].mean()))


def test_occlusion_sensitivity_formula():
    model = recorded.occlusion_model(nn, Tensor, RECORD)
    x = RECORD["occ_x"]
    w, b = RECORD["occ_w"].astype(np.float64), RECORD["occ_b"].astype(np.float64)

    def score(image):
        return (w @ image.reshape(-1) + b)[1]

    want = np.empty((4, 4))
    for i in range(4):
        for j in range(4):
            covered = x[0].astype(np.float64).copy()
            covered[max(0, i - 1):i + 1, max(0, j - 1):j + 1] = 0.0
            want[i, j] = score(x[0]) - score(covered)
    got = nn.OcclusionSensitivity(margin=1, n_batch=5)(model, Tensor(x), 1)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


# ---- registry, indexes, errors ------------------------------------------------------------

def test_registry_and_rearranged_inputs():
    assert "F1" in nn.names() and "confusion_matrix_metric" in nn.names()
    assert isinstance(nn.get_metric_fn("dice"), nn.Dice)
    assert nn.get_metric_fn("auc", np.array([0.0, 1.0]), np.array([1.0, 1.0])) == 1.0
    metrics = nn.get_metrics({"mae", "roc"})
    assert isinstance(metrics["mae"], nn.MAE) and isinstance(metrics["roc"], nn.ROC)
    given = {"loss": nn.Loss()}
    assert nn.get_metrics(given) is given and nn.get_metrics(None) is None
    with pytest.raises(TypeError, match="get_metrics"):
        nn.get_metrics(["mae"])
    with pytest.raises(KeyError, match="unknown metric"):
        nn.get_metric_fn("nope")
    metric = nn.MAE().set_indexes([2, 0])
    metric.update(np.ones(2), np.zeros(2), np.full(2, 3.0))     # picks (3, 1)
    assert metric.eval() == pytest.approx(2 * 2 / 2)

    class Custom(nn.Metric):
        def clear(self):
            self.seen = None

        @nn.rearrange_inputs
        def update(self, *inputs):
            self.seen = inputs

        def eval(self):
            return self.seen

    assert tuple(Custom().set_indexes([1])("a", "b")) == ("b",)
    with pytest.raises(ValueError, match="set_indexes"):
        Custom().set_indexes("1")


@pytest.mark.parametrize("build, error, pattern", [
    (lambda: nn.Precision("binary"), TypeError, "eval_type"),
    (lambda: nn.Precision().eval(), RuntimeError, "update"),
    (lambda: nn.Recall("multilabel").update(np.full((2, 2), 0.5), np.ones((2, 2))),
     ValueError, "0 or 1"),
    (lambda: nn.Precision()(np.ones((2, 3)), np.array([0, 5])), ValueError, "labels"),
    (lambda: nn.ROC(class_num=1.0), TypeError, "class_num"),
    (lambda: nn.ROC(class_num=2)(np.ones((3, 3)), np.zeros(3)), ValueError, "class_num"),
    (lambda: nn.ROC()(np.ones(3), np.ones(3)), ValueError, "negative"),
    (lambda: nn.auc([0, 1], [0, 1]), TypeError, "numpy"),
    (lambda: nn.auc(np.array([0, 1, 0.5]), np.ones(3)), ValueError, "increasing"),
    (lambda: nn.ConfusionMatrix(3, normalize="row"), ValueError, "normalize"),
    (lambda: nn.ConfusionMatrix(3, threshold=1), TypeError, "threshold"),
    (lambda: nn.ConfusionMatrixMetric(decrease="max"), ValueError, "decrease"),
    (lambda: nn.ConfusionMatrixMetric(metric_name="nope")(np.ones((1, 2)), np.ones((1, 2))),
     NotImplementedError, "nope"),
    (lambda: nn.Dice(smooth=0.0), ValueError, "smooth"),
    (lambda: nn.HausdorffDistance(distance_metric="cosine"), ValueError, "distance_metric"),
    (lambda: nn.HausdorffDistance()(np.ones((2, 2)), np.ones((2, 2)), 3), ValueError,
     "neither"),
    (lambda: nn.RootMeanSquareDistance()(np.ones((2, 2)), np.ones((2, 2)), "1"), TypeError,
     "label index"),
    (lambda: nn.BleuScore(n_gram=5), ValueError, "n_gram"),
    (lambda: nn.BleuScore()([["a"]], []), ValueError, "candidates"),
    (lambda: nn.Perplexity(ignore_label=1.0), TypeError, "ignore_label"),
    (lambda: nn.OcclusionSensitivity(pad_val=0), TypeError, "pad_val"),
    (lambda: nn.OcclusionSensitivity()(lambda x: x, np.ones((1, 2)), 0), TypeError, "Cell"),
])
def test_errors(build, error, pattern):
    with pytest.raises(error, match=pattern):
        build()
