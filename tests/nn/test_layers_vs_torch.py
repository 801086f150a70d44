"""The layers added for MindSpore model code (convolutions, group / instance norm,
activations with parameters or options, Unfold, channel dropout, the new losses) against
PyTorch with the same weights, finite differences and NumPy formulas, eagerly and in every
capture mode and level (tests/nn/layer_check.py)."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor

from .layer_check import LayerCheck, torch

F64 = ms.float64


def rand(*shape, seed=0):
    return np.random.default_rng(seed + sum(shape)).standard_normal(shape)


def torch_module(factory):
    return factory().double() if torch is not None else None


# ---- convolutions ------------------------------------------------------------------------

CONV_CASES = {
    "conv1d-same": (lambda: nn.Conv1d(4, 6, 3, dtype=F64, has_bias=True),
                    lambda: torch.nn.Conv1d(4, 6, 3, padding="same"), (2, 4, 7)),
    "conv1d-pad-stride-group": (
        lambda: nn.Conv1d(4, 6, 3, stride=2, pad_mode="pad", padding=1, dilation=2, group=2,
                          dtype=F64),
        lambda: torch.nn.Conv1d(4, 6, 3, stride=2, padding=1, dilation=2, groups=2,
                                bias=False), (2, 4, 9)),
    "conv3d-pad": (lambda: nn.Conv3d(2, 3, (2, 3, 2), stride=(1, 2, 1), pad_mode="pad",
                                     padding=1, has_bias=True, dtype=F64),
                   lambda: torch.nn.Conv3d(2, 3, (2, 3, 2), stride=(1, 2, 1), padding=1),
                   (1, 2, 3, 5, 4)),
    "conv2d-transpose-pad": (
        lambda: nn.Conv2dTranspose(4, 6, 3, stride=2, pad_mode="pad", padding=1, group=2,
                                   has_bias=True, dtype=F64),
        lambda: torch.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, groups=2),
        (2, 4, 3, 4)),
    "conv2d-transpose-valid-dilated": (
        lambda: nn.Conv2dTranspose(3, 2, (2, 3), stride=(2, 1), pad_mode="valid", dilation=2,
                                   dtype=F64),
        lambda: torch.nn.ConvTranspose2d(3, 2, (2, 3), stride=(2, 1), dilation=2, bias=False),
        (1, 3, 3, 3)),
}


@pytest.mark.parametrize("name", sorted(CONV_CASES))
def test_convolution_layers(name):
    make, make_torch, shape = CONV_CASES[name]
    cell = make()
    check = LayerCheck(cell, [rand(*shape)])
    check.against_torch(torch_module(make_torch))
    check.against_finite_differences()
    check.in_every_mode()


def test_conv2d_transpose_same_mode_is_stride_times_input():
    cell = nn.Conv2dTranspose(2, 3, 3, stride=2, dtype=F64)
    assert cell(Tensor(rand(1, 2, 4, 5))).shape == (1, 3, 8, 10)
    cell = nn.Conv2dTranspose(2, 3, 1, stride=3, dtype=F64)           # output padding
    out = cell(Tensor(rand(1, 2, 2, 2))).asnumpy()
    assert out.shape == (1, 3, 6, 6) and not out[:, :, -1].any() and not out[:, :, :, -1].any()
    with pytest.raises(ValueError, match="Conv2dTranspose: 'padding' must be 0"):
        nn.Conv2dTranspose(2, 3, 3, padding=1)
    with pytest.raises(ValueError, match="Conv2dTranspose: expected a 4-D NCHW input with 2"):
        nn.Conv2dTranspose(2, 3, 3)(Tensor(rand(1, 3, 4, 4)))


# ---- normalisation -----------------------------------------------------------------------

def _group_norm(x, groups, gamma, beta, eps=1e-5):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1)
    normed = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps))
    shape = (1, c) + (1,) * (x.ndim - 2)
    return normed.reshape(x.shape) * gamma.reshape(shape) + beta.reshape(shape)


def test_group_norm():
    cell = nn.GroupNorm(2, 4, gamma_init=Tensor(rand(4) + 2), beta_init=Tensor(rand(4, seed=3)),
                        dtype=F64)
    x = rand(2, 4, 3, 2)
    check = LayerCheck(cell, [x])
    check.against_formula(_group_norm(x, 2, cell.gamma.asnumpy(), cell.beta.asnumpy()))
    check.against_torch(torch_module(lambda: torch.nn.GroupNorm(2, 4)),
                        param_map={"gamma": "weight", "beta": "bias"})
    check.against_finite_differences()
    check.in_every_mode()


@pytest.mark.parametrize("rank", [3, 4])
def test_instance_norm(rank):
    cls, tcls = ((nn.InstanceNorm1d, "InstanceNorm1d") if rank == 3
                 else (nn.InstanceNorm2d, "InstanceNorm2d"))
    cell = cls(3, gamma_init=Tensor(rand(3) + 2), beta_init=Tensor(rand(3, seed=4)), dtype=F64)
    x = rand(*((2, 3, 5) if rank == 3 else (2, 3, 3, 2)))
    check = LayerCheck(cell, [x])
    check.against_formula(_group_norm(x, 3, cell.gamma.asnumpy(), cell.beta.asnumpy()))
    check.against_torch(torch_module(lambda: getattr(torch.nn, tcls)(3, affine=True)),
                        param_map={"gamma": "weight", "beta": "bias"})
    check.against_finite_differences()
    check.in_every_mode()
    cell.set_train(False)                         # instance statistics in inference too
    np.testing.assert_allclose(cell(Tensor(x)).asnumpy(), check.outputs[0].asnumpy())


# ---- activations -------------------------------------------------------------------------

def _prelu64():
    cell = nn.PReLU(4, Tensor(np.array([0.1, -0.2, 0.3, 0.25])))        # float64 slopes
    assert cell.w.dtype == F64 and cell.w.name == "a"
    return cell


ACTIVATIONS = {
    "PReLU": (_prelu64, lambda: torch.nn.PReLU(4), {"a": "weight"},
              lambda x, w: np.where(x > 0, x, w[None, :, None] * x)),
    "HSwish": (nn.HSwish, torch.nn.Hardswish if torch else None, None,
               lambda x: x * np.clip(x + 3, 0, 6) / 6),
    "HSigmoid": (nn.HSigmoid, torch.nn.Hardsigmoid if torch else None, None,
                 lambda x: np.clip(x + 3, 0, 6) / 6),
    "Softplus": (lambda: nn.Softplus(2, 1.5), lambda: torch.nn.Softplus(2, 1.5), None,
                 lambda x: np.where(2 * x > 1.5, x, np.log1p(np.exp(2 * x)) / 2)),
    "SeLU": (nn.SeLU, torch.nn.SELU if torch else None, None, None),
    "CELU": (lambda: nn.CELU(0.7), lambda: torch.nn.CELU(0.7), None,
             lambda x: np.where(x > 0, x, 0.7 * np.expm1(x / 0.7))),
    "LogSigmoid": (nn.LogSigmoid, torch.nn.LogSigmoid if torch else None, None,
                   lambda x: -np.log1p(np.exp(-x))),
    "Softsign": (nn.Softsign, torch.nn.Softsign if torch else None, None,
                 lambda x: x / (1 + np.abs(x))),
    "Hardtanh": (lambda: nn.Hardtanh(-0.5, 0.7), lambda: torch.nn.Hardtanh(-0.5, 0.7), None,
                 lambda x: np.clip(x, -0.5, 0.7)),
    "GLU": (lambda: nn.GLU(1), lambda: torch.nn.GLU(1), None,
            lambda x: x[:, :2] / (1 + np.exp(-x[:, 2:]))),
}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_activation_layers(name):
    make, make_torch, param_map, formula = ACTIVATIONS[name]
    cell = make()
    # away from the kinks at 0 and at the clipping points
    x = np.random.default_rng(5).uniform(0.2, 2.0, (2, 4, 3)) * \
        np.random.default_rng(6).choice([-1.0, 1.0], (2, 4, 3))
    x[np.abs(np.abs(x) - 0.5) < 0.05] += 0.1
    x[np.abs(np.abs(x) - 0.7) < 0.05] += 0.1
    check = LayerCheck(cell, [x])
    if formula is not None:
        args = [p.asnumpy() for p in cell.trainable_params()]
        check.against_formula(formula(x, *args))
    # (PyTorch's float64 CELU and hard-sigmoid backwards use float32 constants: ~3e-8)
    check.against_torch(torch_module(make_torch) if make_torch else None, param_map=param_map,
                        rtol=1e-7)
    check.against_finite_differences()
    check.in_every_mode()


# ---- Unfold and channel dropout --------------------------------------------------------

def test_unfold_layout_and_gradients():
    cell = nn.Unfold([1, 2, 3, 1], [1, 2, 1, 1], [1, 1, 1, 1], "same")
    x = rand(2, 3, 4, 5)
    check = LayerCheck(cell, [x])
    out = check.outputs[0].asnumpy()
    assert out.shape == (2, 2 * 3 * 3, 2, 5)
    padded = np.pad(x, ((0, 0), (0, 0), (0, 0), (1, 1)))           # 'same': kh=2 pads 0 / 1
    padded = np.pad(padded, ((0, 0), (0, 0), (0, 1), (0, 0)))
    for i in range(2):
        for j in range(5):
            patch = padded[:, :, 2 * i:2 * i + 2, j:j + 3]           # (N, C, kh, kw)
            np.testing.assert_allclose(out[:, :, i, j], patch.transpose(0, 2, 3, 1).reshape(2, -1))
    check.against_finite_differences()
    check.in_every_mode()


@pytest.mark.parametrize("cls,shape", [(nn.Dropout1d, (40, 30, 5)),
                                       (nn.Dropout2d, (40, 30, 2, 3)),
                                       (nn.Dropout3d, (40, 30, 2, 1, 3))])
def test_channel_dropout(cls, shape):
    ms.set_seed(0)
    cell = cls(p=0.3)
    x = np.ones(shape)
    np.testing.assert_array_equal(cell(Tensor(x)).asnumpy(), x)     # inference: identity
    cell.set_train()
    out = cell(Tensor(x)).asnumpy().reshape(shape[0], shape[1], -1)
    dropped = (out == 0).all(-1)
    assert np.all(dropped | np.isclose(out, 1 / 0.7).all(-1))
    assert abs(dropped.mean() - 0.3) < 0.04
    y, pullback = ms.vjp(cell, Tensor(x))                 # the mask of this very call
    g = pullback(Tensor(np.full(shape, 2.0)))[0].asnumpy().reshape(out.shape)
    y = y.asnumpy().reshape(out.shape)
    np.testing.assert_allclose(g, np.where(y == 0, 0.0, 2 / 0.7))
    for mode in ("trace", "ast", "bytecode"):                         # a fresh mask per call
        jitted = ms.jit(cell, capture_mode=mode)
        first, second = jitted(Tensor(x)).asnumpy(), jitted(Tensor(x)).asnumpy()
        assert not np.array_equal(first, second)
        assert abs((first.reshape(out.shape) == 0).all(-1).mean() - 0.3) < 0.04


# ---- losses --------------------------------------------------------------------------

def _t(a):
    return torch.tensor(a) if torch is not None else None


LOSSES = {
    "KLDivLoss-batchmean": (lambda: nn.KLDivLoss("batchmean"),
                            lambda: torch.nn.KLDivLoss(reduction="batchmean"),
                            lambda r: [np.log(r.dirichlet(np.ones(4), 3)),
                                       r.dirichlet(np.ones(4), 3)]),
    "CosineEmbeddingLoss": (lambda: nn.CosineEmbeddingLoss(0.2),
                            lambda: torch.nn.CosineEmbeddingLoss(0.2),
                            lambda r: [r.standard_normal((4, 3)), r.standard_normal((4, 3)),
                                       np.array([1, -1, -1, 1])]),
    "BCELoss": (lambda: nn.BCELoss(Tensor(np.linspace(0.5, 2, 3)), "sum"),
                lambda: torch.nn.BCELoss(_t(np.linspace(0.5, 2, 3)), reduction="sum"),
                lambda r: [r.uniform(0.05, 0.95, (2, 3)), r.uniform(0, 1, (2, 3))]),
    "CrossEntropyLoss-smoothing": (
        lambda: nn.CrossEntropyLoss(Tensor(np.linspace(0.5, 2, 5)), label_smoothing=0.15),
        lambda: torch.nn.CrossEntropyLoss(_t(np.linspace(0.5, 2, 5)), label_smoothing=0.15),
        lambda r: [r.standard_normal((4, 5)), np.array([0, 4, 4, 2])]),
    "BCEWithLogitsLoss": (
        lambda: nn.BCEWithLogitsLoss(pos_weight=Tensor(np.linspace(0.5, 2, 3))),
        lambda: torch.nn.BCEWithLogitsLoss(pos_weight=_t(np.linspace(0.5, 2, 3))),
        lambda r: [r.standard_normal((2, 3)), r.uniform(0, 1, (2, 3))]),
    "SmoothL1Loss": (lambda: nn.SmoothL1Loss(0.5, "mean"),
                     lambda: torch.nn.SmoothL1Loss(beta=0.5),
                     lambda r: [r.standard_normal((2, 3)), r.standard_normal((2, 3))]),
    "NLLLoss": (lambda: nn.NLLLoss(Tensor(np.linspace(0.5, 2, 5)), ignore_index=1),
                lambda: torch.nn.NLLLoss(_t(np.linspace(0.5, 2, 5)), ignore_index=1),
                lambda r: [r.standard_normal((4, 5)), np.array([0, 1, 4, 2])]),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_losses(name):
    make, make_torch, make_inputs = LOSSES[name]
    inputs = make_inputs(np.random.default_rng(7))
    check = LayerCheck(make(), inputs)
    check.against_torch(torch_module(make_torch) if torch is not None else None,
                        torch_inputs=lambda ts: [t.long() if isinstance(t, torch.Tensor) and
                                                 not t.is_floating_point() else t
                                                 for t in ts])
    check.against_finite_differences()
    check.in_every_mode()
