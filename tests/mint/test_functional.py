"""``tensorjit.mint.nn.functional`` against ``torch.nn.functional`` on the same inputs."""
import numpy as np
import pytest
torch = pytest.importorskip("torch")  # the reference; CPythons without it skip
import torch.nn.functional as TF

import tensorjit as ms
from tensorjit import mint
from tensorjit.mint.nn import functional as F

from reference import compare, to_ms, to_torch

rng = np.random.default_rng(1)
X = rng.standard_normal((3, 4)).astype(np.float32)
IMG = rng.standard_normal((2, 3, 7, 6)).astype(np.float32)
SEQ = rng.standard_normal((2, 3, 9)).astype(np.float32)
VOL = rng.standard_normal((1, 2, 4, 6, 5)).astype(np.float32)
PROB = rng.random((3, 4)).astype(np.float32) * 0.9 + 0.05
TARGET01 = (rng.random((3, 4)) > 0.5).astype(np.float32)
LABELS = np.array([1, 0, 3])
SIGNS = np.where(rng.random((3, 4)) > 0.5, 1.0, -1.0).astype(np.float32)
LOGP = np.log(PROB / PROB.sum(1, keepdims=True)).astype(np.float32)
W_CONV = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
BIAS4 = rng.standard_normal(4).astype(np.float32)

CASES = [
    ("relu", (X,), {}), ("relu6", (X * 5,), {}), ("silu", (X,), {}), ("sigmoid", (X,), {}),
    ("tanh", (X,), {}), ("logsigmoid", (X,), {}), ("elu", (X,), {"alpha": 0.7}),
    ("gelu", (X,), {}), ("gelu", (X,), {"approximate": "tanh"}),
    ("hardtanh", (X,), {"min_val": -0.5, "max_val": 0.3}),
    ("leaky_relu", (X,), {"negative_slope": 0.2}), ("leaky_relu", (X,), {}),
    ("threshold", (X, 0.1, 20.0), {}), ("prelu", (X, np.array([0.1] * 4, np.float32)), {}),
    ("softmax", (X,), {"dim": 1}), ("softmax", (X,), {}), ("log_softmax", (X,), {"dim": 0}),
    ("glu", (X,), {}), ("glu", (X[:2].copy(),), {"dim": 0}),
    ("linear", (X, X[:2].copy(), np.ones(2, np.float32)), {}),
    ("normalize", (X,), {}), ("normalize", (X,), {"p": 1.0, "dim": 0}),
    ("flatten", (IMG,), {}), ("flatten", (IMG,), {"start_dim": 1, "end_dim": 2}),
    ("dropout", (X,), {"p": 0.3, "training": False}),
    ("dropout2d", (IMG,), {"training": False}),
    ("embedding", (np.array([[0, 2], [1, 1]]), X), {}),
    ("one_hot", (LABELS,), {}), ("one_hot", (LABELS, 6), {}),
    ("layer_norm", (IMG, (7, 6)), {}),
    ("layer_norm", (X, (4,), np.full(4, 2, np.float32), np.ones(4, np.float32)), {}),
    ("group_norm", (IMG[:, :2].copy(), 2), {}),
    ("batch_norm", (IMG, np.zeros(3, np.float32), np.ones(3, np.float32)), {}),
    ("batch_norm", (IMG, None, None), {"training": True}),
    ("mse_loss", (X, PROB), {}), ("mse_loss", (X, PROB), {"reduction": "none"}),
    ("binary_cross_entropy", (PROB, TARGET01), {}),
    ("binary_cross_entropy", (PROB, TARGET01), {"weight": PROB, "reduction": "sum"}),
    ("binary_cross_entropy_with_logits", (X, TARGET01), {}),
    ("binary_cross_entropy_with_logits", (X, TARGET01),
     {"pos_weight": np.full(4, 2.0, np.float32), "reduction": "none"}),
    ("cross_entropy", (X, LABELS), {}),
    ("cross_entropy", (X, LABELS), {"label_smoothing": 0.1, "reduction": "sum"}),
    ("nll_loss", (LOGP, LABELS), {}),
    ("nll_loss", (LOGP, LABELS), {"weight": np.arange(1, 5, dtype=np.float32)}),
    ("kl_div", (LOGP, PROB), {"reduction": "sum"}), ("kl_div", (LOGP, PROB), {}),
    ("kl_div", (LOGP, LOGP), {"log_target": True, "reduction": "batchmean"}),
    ("soft_margin_loss", (X, SIGNS), {}),
    ("cosine_embedding_loss", (X, PROB, SIGNS[:, 0].copy()), {"margin": 0.1}),
    ("pad", (IMG, (1, 2)), {}), ("pad", (IMG, (1, 2, 0, 1)), {"mode": "reflect"}),
    ("pad", (IMG, (1, 1, 2, 2)), {"value": 3.0}),
    ("conv1d", (SEQ, W_CONV[:, :, 0].copy(), BIAS4), {"padding": 1, "stride": 2}),
    ("conv2d", (IMG, W_CONV, BIAS4), {"padding": 1}),
    ("conv2d", (IMG, W_CONV), {"padding": "same", "dilation": 2}),
    ("conv2d", (IMG, W_CONV[:3, :1].copy()), {"groups": 3, "stride": (2, 1)}),
    ("conv3d", (VOL, rng.standard_normal((3, 2, 2, 3, 2)).astype(np.float32)), {}),
    ("conv_transpose2d", (IMG, W_CONV.transpose(1, 0, 2, 3).copy(), BIAS4),
     {"stride": 2, "padding": 1, "output_padding": 1}),
    ("max_pool2d", (IMG, 2), {}), ("max_pool2d", (IMG, 3, 2, 1), {"ceil_mode": True}),
    ("max_pool2d", (IMG, (2, 3)), {"return_indices": True, "dilation": (1, 2)}),
    ("max_pool2d", (IMG, 3, 2, 1), {"return_indices": True, "ceil_mode": True}),
    ("avg_pool2d", (IMG, 2), {}), ("avg_pool2d", (IMG, 3, 2, 1), {"ceil_mode": True}),
    ("avg_pool2d", (IMG, 3, 2, 1), {"count_include_pad": False}),
    ("avg_pool2d", (IMG, 2), {"divisor_override": 3}),
    ("avg_pool1d", (SEQ, 3), {}), ("avg_pool1d", (SEQ, 3, 2, 1), {"ceil_mode": True}),
    ("avg_pool3d", (VOL, 2), {}),
    ("adaptive_avg_pool1d", (SEQ, 4), {}), ("adaptive_avg_pool2d", (IMG, (3, 2)), {}),
    ("adaptive_avg_pool2d", (IMG, (None, 4)), {}), ("adaptive_avg_pool3d", (VOL, (3, 4, 2)), {}),
    ("adaptive_avg_pool3d", (VOL, 2), {}),
    ("adaptive_max_pool1d", (SEQ, 3), {"return_indices": True}),
    ("adaptive_max_pool2d", (IMG, (3, 2)), {"return_indices": True}),
    ("unfold", (IMG, (2, 3)), {"padding": 1, "stride": 2}),
    ("fold", (rng.standard_normal((2, 12, 20)).astype(np.float32), (5, 6), 2), {}),
    ("fold", (rng.standard_normal((1, 4, 42)).astype(np.float32), (6, 5), 2),
     {"padding": 1, "stride": 1}),
    ("interpolate", (IMG,), {"scale_factor": 2.0}),
    ("interpolate", (IMG,), {"size": (5, 9), "mode": "bilinear", "align_corners": False}),
    ("interpolate", (IMG,), {"size": (4, 4), "mode": "bilinear", "align_corners": True}),
    ("pixel_shuffle", (rng.standard_normal((1, 8, 3, 2)).astype(np.float32), 2), {}),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_against_torch(case):
    name, args, kwargs = case
    ours = getattr(F, name)(*[to_ms(a) for a in args], **{k: to_ms(v) for k, v in kwargs.items()})
    torch_args = [to_torch(a) for a in args]
    if name == "batch_norm" and kwargs.get("training"):
        theirs = TF.batch_norm(torch_args[0], None, None, training=True)
    else:
        function = getattr(torch if name == "flatten" else TF, name)
        theirs = function(*torch_args, **{k: to_torch(v) for k, v in kwargs.items()})
    compare(ours, theirs, rtol=1e-4, atol=1e-5, what=name)


def test_upsample_is_interpolate():
    x = ms.Tensor(IMG)
    compare(F.upsample(x, scale_factor=2.0), TF.interpolate(torch.tensor(IMG), scale_factor=2.0))


def test_max_unpool2d_inverts_max_pool2d():
    values, indices = F.max_pool2d(ms.Tensor(IMG), 2, return_indices=True)
    ours = F.max_unpool2d(values, indices, 2, output_size=IMG.shape[-2:])
    tv, ti = TF.max_pool2d(torch.tensor(IMG), 2, return_indices=True)
    compare(ours, TF.max_unpool2d(tv, ti, 2, output_size=IMG.shape[-2:]))


def test_batch_norm_training_updates_running_statistics_as_torch():
    mean, var = ms.Tensor(np.zeros(3, np.float32)), ms.Tensor(np.ones(3, np.float32))
    tmean, tvar = torch.zeros(3), torch.ones(3)
    out = F.batch_norm(ms.Tensor(IMG), mean, var, training=True, momentum=0.2)
    expected = TF.batch_norm(torch.tensor(IMG), tmean, tvar, training=True, momentum=0.2)
    compare(out, expected, rtol=1e-4, atol=1e-5)
    compare((mean, var), (tmean, tvar), rtol=1e-5)


def test_in_place_variants_write_their_input():
    for name in ("relu_", "sigmoid_", "elu_", "hardtanh_"):
        x = ms.Tensor(X.copy())
        out = getattr(F, name)(x)
        expected = getattr(torch, name, None) or getattr(TF, name)
        compare(x, expected(torch.tensor(X.copy())), rtol=1e-6, what=name)
        assert out is x
    x = ms.Tensor(X.copy())
    F.threshold_(x, 0.0, -1.0)
    compare(x, TF.threshold(torch.tensor(X), 0.0, -1.0))
    x = ms.Tensor(X.copy())
    F.relu(x, inplace=True)
    compare(x, TF.relu(torch.tensor(X)))


def test_dropout_in_training_keeps_scaled_values():
    ms.set_seed(3)
    out = F.dropout(ms.Tensor(np.ones((200, 50), np.float32)), p=0.25).asnumpy()
    assert set(np.unique(out)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((out == 0).mean() - 0.25) < 0.02


def test_bad_arguments_raise_clear_errors():
    with pytest.raises(ValueError, match="reduction"):
        F.kl_div(ms.Tensor(LOGP), ms.Tensor(PROB), reduction="avg")
    with pytest.raises(ValueError, match="approximate"):
        F.gelu(ms.Tensor(X), approximate="fast")
    with pytest.raises(ValueError, match="padding"):
        F.conv2d(ms.Tensor(IMG), ms.Tensor(W_CONV), padding="full")
    with pytest.raises(ValueError, match="half the kernel"):
        F.max_pool2d(ms.Tensor(IMG), 2, padding=2)
    with pytest.raises(ValueError, match="p must be"):
        F.dropout(ms.Tensor(X), p=1.5)
    with pytest.raises(ValueError, match="odd size"):
        F.glu(ms.Tensor(X[:, :3].copy()))
    with pytest.raises(TypeError, match="mint.nn.functional.mse_loss"):
        F.mse_loss(ms.Tensor(X))


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("padding_mode", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align_corners", [False, True])
def test_grid_sample_against_torch(mode, padding_mode, align_corners):
    grid = (rng.random((2, 3, 6, 2)) * 2.6 - 1.3).astype(np.float32)
    ours = F.grid_sample(ms.Tensor(IMG), ms.Tensor(grid), mode, padding_mode, align_corners)
    theirs = TF.grid_sample(torch.tensor(IMG), torch.tensor(grid), mode, padding_mode,
                            align_corners)
    compare(ours, theirs, rtol=1e-5, atol=1e-6)


def test_grid_sample_gradients_against_torch():
    grid = (rng.random((2, 3, 6, 2)) * 1.8 - 0.9).astype(np.float32)
    weights = rng.standard_normal((2, 3, 3, 6)).astype(np.float32)
    ours = ms.grad(lambda x, g: mint.sum(F.grid_sample(x, g, align_corners=False)
                                         * ms.Tensor(weights)), (0, 1))(
        ms.Tensor(IMG), ms.Tensor(grid))
    x = torch.tensor(IMG, requires_grad=True)
    g = torch.tensor(grid, requires_grad=True)
    (TF.grid_sample(x, g, align_corners=False) * torch.tensor(weights)).sum().backward()
    compare(list(ours), [x.grad, g.grad], rtol=1e-4, atol=1e-5)
