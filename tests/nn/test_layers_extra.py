"""The layers and losses added with layers/conv_transpose.py, normalization_extra.py,
combined.py, image.py, embedding_lookup.py, ext.py and losses_sampled.py: against
MindSpore 2.10's recorded results (tests/nn/record_layers_extra.py), PyTorch's modules or
NumPy formulas written here, finite differences, and every capture mode."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor

from . import record_layers_extra as recorded
from .layer_check import LayerCheck, torch

RECORD = dict(np.load(recorded.RECORD))
F64 = ms.float64


def rand(*shape, seed=0):
    return np.random.default_rng(seed + sum(shape)).standard_normal(shape)


def tm(name, *args, **kwargs):
    return None if torch is None else getattr(torch.nn, name)(*args, **kwargs).double()


@pytest.mark.parametrize("case", recorded.CASES, ids=[c[0] for c in recorded.CASES])
def test_against_mindspore(case):
    label, name, args, kwargs, names, train = case
    cell = recorded.build(ms, name, args, kwargs, RECORD)
    cell.set_train(train)
    outs = recorded.flatten(cell(*[Tensor(RECORD[n]) for n in names]))
    assert f"{label}#{len(outs)}" not in RECORD
    for i, out in enumerate(outs):
        want = RECORD[f"{label}#{i}"]
        assert out.dtype == want.dtype, (label, out.dtype, want.dtype)
        np.testing.assert_allclose(out.asnumpy(), want, rtol=2e-5, atol=1e-5,
                                   err_msg=f"{label} #{i}")


# ---- against PyTorch (float64), finite differences, every mode --------------------------------

def _conv_transpose_torch(rank, cell, stride, padding, **kw):
    if torch is None:
        return None
    cls = getattr(torch.nn, f"ConvTranspose{rank}d")
    w = cell.weight.asnumpy().reshape((cell.in_channels, -1) + tuple(
        cell.weight.shape[-rank:]))
    module = cls(cell.in_channels, w.shape[1] * kw.get("groups", 1), w.shape[2:], stride,
                 padding, bias=False, **kw).double()
    return module


TORCH_CASES = {
    "Conv1dTranspose": (lambda: nn.Conv1dTranspose(2, 3, 3, 2, "pad", 1, dtype=F64),
                        lambda c: _conv_transpose_torch(1, c, 2, 1), (2, 2, 5),
                        {"weight": "weight"}),
    "Conv3dTranspose": (lambda: nn.Conv3dTranspose(4, 2, (2, 3, 2), (2, 1, 2), "pad", 1,
                                                   group=2, output_padding=(1, 0, 0), dtype=F64),
                        lambda c: _conv_transpose_torch(3, c, (2, 1, 2), 1, groups=2,
                                                        output_padding=(1, 0, 0)),
                        (1, 4, 2, 3, 2), {"weight": "weight"}),
    "BatchNorm3d": (lambda: nn.BatchNorm3d(2, momentum=0.7, dtype=F64),
                    lambda c: tm("BatchNorm3d", 2, momentum=0.3), (2, 2, 2, 3, 2),
                    {"gamma": "weight", "beta": "bias"}),
    "BiDense": (lambda: nn.BiDense(3, 4, 2, dtype=F64), lambda c: tm("Bilinear", 3, 4, 2),
                [(2, 3), (2, 4)], None),
    "AvgPool2dExt": (lambda: nn.AvgPool2dExt(3, 2, 1, True, False),
                     lambda c: tm("AvgPool2d", 3, 2, 1, True, False), (2, 2, 5, 6), None),
    "AvgPool1dExt": (lambda: nn.AvgPool1dExt(2, padding=1), lambda c: tm("AvgPool1d", 2,
                                                                         padding=1),
                     (3, 6), None),
    "AvgPool3dExt": (lambda: nn.AvgPool3dExt(2, divisor_override=3),
                     lambda c: tm("AvgPool3d", 2, divisor_override=3), (1, 2, 4, 4, 2), None),
    "MaxPool2dExt": (lambda: nn.MaxPool2dExt(3, 2, 1, return_indices=True),
                     lambda c: tm("MaxPool2d", 3, 2, 1, return_indices=True), (2, 2, 5, 6),
                     None),
    "LayerNormExt": (lambda: nn.LayerNormExt((3, 4), dtype=F64),
                     lambda c: tm("LayerNorm", (3, 4)), (2, 3, 4), None),
    "LogSoftmaxExt": (lambda: nn.LogSoftmaxExt(), lambda c: tm("LogSoftmax", 1), (2, 5), None),
    "L1LossExt": (lambda: nn.L1LossExt("sum"), lambda c: tm("L1Loss", reduction="sum"),
                  [(3, 4), (3, 4)], None),
}


@pytest.mark.parametrize("name", sorted(TORCH_CASES))
def test_against_torch_differences_and_every_mode(name):
    make, make_torch, shapes, param_map = TORCH_CASES[name]
    shapes = shapes if isinstance(shapes, list) else [shapes]
    cell = make()
    cell.set_train(name == "BatchNorm3d")
    # distinct values: max pooling needs a unique maximum for finite differences
    inputs = [np.random.default_rng(i).permutation(int(np.prod(s))).reshape(s) * 0.1 - 1.0
              for i, s in enumerate(shapes)]
    check = LayerCheck(cell, inputs)
    module = make_torch(cell)
    if module is not None:
        check.against_torch(module, param_map=param_map)
    if name != "BatchNorm3d":          # its moving statistics change with every call
        check.against_finite_differences()
    if name in ("Conv3dTranspose", "BiDense", "MaxPool2dExt"):
        check.in_every_mode()


def test_embedding_ext_against_torch():
    if torch is None:
        pytest.skip("PyTorch is not installed")
    cell = nn.EmbeddingExt(5, 3, padding_idx=2, dtype=F64)
    np.testing.assert_array_equal(cell.weight.asnumpy()[2], 0)
    module = torch.nn.Embedding(5, 3, padding_idx=2).double()
    check = LayerCheck(cell, [np.array([[0, 2], [4, 2]])])
    check.against_torch(module)


# ---- NumPy formulas ---------------------------------------------------------------------------

def test_lrn_formula():
    x = rand(2, 5, 3, 2)
    r, bias, alpha, beta = 2, 1.5, 0.3, 0.6
    squares = np.pad(x ** 2, ((0, 0), (r, r), (0, 0), (0, 0)))
    window = sum(squares[:, k:k + 5] for k in range(2 * r + 1))
    check = LayerCheck(nn.LRN(r, bias, alpha, beta), [x])
    check.against_formula(x / (bias + alpha * window) ** beta)
    check.against_finite_differences()


def _ssim_reference(a, b, size, sigma, k1=0.01, k2=0.03, max_val=1.0):
    grid = np.arange(size) - (size - 1) // 2 if size % 2 else np.arange(size) - size // 2 + 1
    g = np.exp(-(grid[:, None] ** 2 + grid[None, :] ** 2) / (2 * sigma ** 2))
    g /= g.sum()
    n, c, h, w = a.shape
    oh, ow = h - size + 1, w - size + 1

    def blur(x):
        out = np.zeros((n, c, oh, ow))
        for i in range(size):
            for j in range(size):
                out += g[i, j] * x[:, :, i:i + oh, j:j + ow]
        return out

    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    m1, m2 = blur(a), blur(b)
    s1, s2, s12 = blur(a * a) - m1 ** 2, blur(b * b) - m2 ** 2, blur(a * b) - m1 * m2
    cs = (2 * s12 + c2) / (s1 + s2 + c2)
    ssim = (2 * m1 * m2 + c1) / (m1 ** 2 + m2 ** 2 + c1) * cs
    return ssim.mean((2, 3)), cs.mean((2, 3))


def test_image_quality_formulas():
    rng = np.random.default_rng(3)
    a = rng.random((2, 2, 8, 8))
    b = np.clip(a + 0.2 * rng.standard_normal(a.shape), 0, 1)
    ssim, cs = _ssim_reference(a, b, 3, 1.2)
    check = LayerCheck(nn.SSIM(filter_size=3, filter_sigma=1.2), [a, b])
    check.against_formula(ssim.mean(-1), rtol=1e-9)
    check.against_finite_differences()
    check.in_every_mode()
    mse = ((a - b) ** 2).mean((1, 2, 3))
    LayerCheck(nn.PSNR(), [a, b]).against_formula(10 * np.log10(1 / mse))
    # two scales: relu(cs) of the first, relu(ssim) of the 2x2-pooled images, weighted
    _, cs0 = _ssim_reference(a, b, 3, 1.2)
    pool = lambda x: x.reshape(2, 2, 4, 2, 4, 2).mean((3, 5))      # noqa: E731
    ssim1, _ = _ssim_reference(pool(a), pool(b), 3, 1.2)
    want = (np.maximum(cs0, 0) ** 0.4 * np.maximum(ssim1, 0) ** 0.6).mean(-1)
    got = nn.MSSSIM(power_factors=(0.4, 0.6), filter_size=3, filter_sigma=1.2)(Tensor(a),
                                                                            Tensor(b))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-9)
    dy, dx = nn.ImageGradients()(Tensor(a))
    np.testing.assert_array_equal(dy.asnumpy()[:, :, :-1], np.diff(a, axis=2))
    np.testing.assert_array_equal(dx.asnumpy()[:, :, :, -1], 0)
    np.testing.assert_array_equal(nn.CentralCrop(0.5)(Tensor(a[0])).asnumpy(), a[0, :, 2:6, 2:6])


def test_embedding_lookups_formulas():
    table = rand(6, 3)
    lookup = nn.EmbeddingLookup(6, 3, param_init=Tensor(table), max_norm=0.5)
    ids = np.array([[1, 7], [1, 4]])
    rows = np.where((ids < 6)[..., None], table[np.minimum(ids, 5)], 0.0)
    norms = np.linalg.norm(rows, axis=-1, keepdims=True)
    want = rows * 0.5 / np.maximum(norms, 0.5)
    check = LayerCheck(lookup, [ids])
    check.against_formula(want)
    check.against_finite_differences()
    check.in_every_mode(configs=[("ast", "O1")])
    multi = nn.MultiFieldEmbeddingLookup(6, 3, 2, param_init=Tensor(table), operator="MEAN",
                                         dtype=F64)
    idx, vals, fields = np.array([[0, 2, 5]]), np.array([[2.0, -1.0, 0.5]]), np.array([[1, 1, 0]])
    want = np.stack([0.5 * table[5] / 0.5, (2 * table[0] - table[2]) / 3.0])[None]
    got = multi(Tensor(idx.astype(np.int32)), Tensor(vals.astype(np.float32)),
                Tensor(fields.astype(np.int32)))
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)


def test_time_distributed_and_bn_act_formulas():
    x = rand(2, 4, 3).astype(np.float32)
    dense = nn.Dense(3, 2)
    w, b = dense.weight.asnumpy(), dense.bias.asnumpy()
    want = x @ w.T + b
    for kwargs in ({"time_axis": 1}, {"time_axis": -2, "reshape_with_axis": 0}):
        got = nn.TimeDistributed(dense, **kwargs)(Tensor(x)).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    act = nn.DenseBnAct(3, 2, activation="relu")
    y = rand(5, 3).astype(np.float32)
    d = act.dense
    np.testing.assert_allclose(act(Tensor(y)).asnumpy(),
                               np.maximum(y @ d.weight.asnumpy().T + d.bias.asnumpy(), 0),
                               rtol=1e-5, atol=1e-6)


def test_losses_formulas(rng):
    a, p, n = rng.standard_normal((3, 4, 5))
    dist = lambda u, v: np.sqrt(((u - v) ** 2).sum(1))          # noqa: E731
    loss = np.maximum(dist(a, p) - np.minimum(dist(a, n), dist(p, n)) + 0.3, 0)
    check = LayerCheck(nn.TripletMarginWithDistanceLoss(swap=True, margin=0.3), [a, p, n])
    check.against_formula(loss.mean())
    check.against_finite_differences()
    if torch is not None:
        module = torch.nn.TripletMarginWithDistanceLoss(
            distance_function=lambda u, v: ((u - v) ** 2).sum(1).sqrt(), swap=True, margin=0.3)
        check.against_torch(module)
    w = rng.standard_normal((3, 4))
    LayerCheck(nn.L1Regularizer(0.5), [w]).against_formula(0.5 * np.abs(w).sum())


def test_sampled_softmax_loss(rng):
    weights, biases = rng.standard_normal((8, 3)), rng.standard_normal(8)
    logits, labels = rng.standard_normal((2, 3)), np.array([1, 6], np.int32)
    sampled, t_exp, s_exp = np.array([0, 3, 5], np.int32), np.array([[0.4], [0.6]]), \
        np.array([0.3, 0.5, 0.7])
    loss = nn.SampledSoftmaxLoss(3, 8, sampled_values=(Tensor(sampled), Tensor(t_exp),
                                                       Tensor(s_exp)))
    true_logit = (logits * weights[labels]).sum(1) + biases[labels] - np.log(t_exp[:, 0])
    sampled_logits = logits @ weights[sampled].T + biases[sampled] - np.log(s_exp)
    both = np.concatenate([true_logit[:, None], sampled_logits], 1)
    want = -(both[:, 0] - np.log(np.exp(both).sum(1)))
    check = LayerCheck(loss, [weights, biases, labels, logits])
    check.against_formula(want, rtol=1e-7)
    check.against_finite_differences()
    # drawn samples: distinct, never a true class, equal expected counts from the tries
    drawn = nn.SampledSoftmaxLoss(5, 8)
    sample, true_count, sample_count = drawn._sample(Tensor(labels))
    sample = sample.asnumpy()
    assert len(set(sample)) == 5 and not set(sample) & {1, 6}
    count = float(sample_count.asnumpy()[0])
    tries = np.log1p(-count) / np.log1p(-1 / 8)
    assert tries >= 5 - 1e-4 and abs(tries - round(tries)) < 1e-3
    np.testing.assert_allclose(true_count.asnumpy(), count, rtol=1e-6)
    assert np.isfinite(drawn(Tensor(weights), Tensor(biases), Tensor(labels),
                             Tensor(logits)).asnumpy()).all()


def test_sync_batch_norm_statistics_span_the_ranks(monkeypatch):
    """The data-parallel path with a stand-in all-reduce that adds a second rank's
    identical sums: the statistics, and so the output, equal one process's."""
    x = rand(4, 3, 2)
    sync, plain = nn.SyncBatchNorm(3, dtype=F64), nn.BatchNorm1d(3, dtype=F64)
    sync.set_train(True)
    plain.set_train(True)
    out = sync._synced(Tensor(x), lambda t: t * 2)
    np.testing.assert_allclose(out.asnumpy(), plain(Tensor(x)).asnumpy(), rtol=1e-9,
                               atol=1e-12)
    n = 2 * x.shape[0] * x.shape[2]
    var = x.transpose(1, 0, 2).reshape(3, -1).var(1)
    np.testing.assert_allclose(sync.moving_variance.asnumpy(),
                               0.9 + 0.1 * var * n / (n - 1), rtol=1e-9)


@pytest.mark.parametrize("build, error, pattern", [
    (lambda: nn.Conv1dTranspose(2, 3, (3,)), TypeError, "kernel_size"),
    (lambda: nn.Conv3dTranspose(2, 3, 3, output_padding=-1), ValueError, "output_padding"),
    (lambda: nn.LRN(norm_region="WITHIN"), ValueError, "norm_region"),
    (lambda: nn.LRN(bias=1), TypeError, "bias"),
    (lambda: nn.BiDense(3, 4, 5, weight_init=Tensor(np.ones((5, 4, 3)))), ValueError, "shape"),
    (lambda: nn.Conv2dBnAct(3, 2, 3, activation=3), TypeError, "activation"),
    (lambda: nn.TimeDistributed(lambda x: x, 1), TypeError, "layer"),
    (lambda: nn.CentralCrop(0.0), ValueError, "central_fraction"),
    (lambda: nn.PSNR(max_val=0), ValueError, "max_val"),
    (lambda: nn.SSIM(filter_sigma=1), TypeError, "filter_sigma"),
    (lambda: nn.SSIM(filter_size=5)(Tensor(np.ones((1, 1, 4, 4), np.float32)),
                                    Tensor(np.ones((1, 1, 4, 4), np.float32))), ValueError,
     "filter_size"),
    (lambda: nn.EmbeddingLookup(4, 2, target="GPU"), ValueError, "target"),
    (lambda: nn.EmbeddingLookup(4, 2, sparse=False), ValueError, "sparse"),
    (lambda: nn.MultiFieldEmbeddingLookup(4, 2, 2, operator="MIN"), ValueError, "operator"),
    (lambda: nn.TripletMarginWithDistanceLoss(margin=1), TypeError, "margin"),
    (lambda: nn.SampledSoftmaxLoss(9, 8), ValueError, "num_sampled"),
    (lambda: nn.L1Regularizer(-1.0), ValueError, "scale"),
    (lambda: nn.DropoutExt(1.5), ValueError, "p"),
    (lambda: nn.SyncBatchNorm(2, process_groups=[0, 1]), TypeError, "process_groups"),
])
def test_errors(build, error, pattern):
    with pytest.raises(error, match=pattern):
        build()


def test_dropout_ext_is_identity_in_evaluation():
    x = Tensor(rand(2, 3, 4, 4))
    for cell in (nn.DropoutExt(0.5), nn.Dropout2dExt(0.5)):
        cell.set_train(False)
        np.testing.assert_array_equal(cell(x).asnumpy(), x.asnumpy())
        cell.set_train(True)
        out = cell(x).asnumpy()
        kept = out != 0
        assert 0 < kept.mean() < 1
        np.testing.assert_allclose(out[kept], 2 * x.asnumpy()[kept], rtol=1e-12)
