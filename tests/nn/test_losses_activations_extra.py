"""The extra activation, loss and math cells (nn/layers/activation_extra.py,
nn/losses_extra.py, nn/layers/math_layers.py): against PyTorch, NumPy formulas and
MindSpore 2.10's recorded results (record_losses_extra.py), their gradients against
finite differences, a few under jit in every capture mode, and their errors."""
import json

import numpy as np
import pytest
torch = pytest.importorskip("torch")  # the reference; CPythons without it skip

import tensorjit as tj
from tensorjit import nn

from .record_losses_extra import RECORD, cases, inputs

T = tj.Tensor
F = torch.nn.functional
RNG = np.random.default_rng(7)


def _r(*shape, lo=-2.0, hi=2.0):
    return RNG.uniform(lo, hi, shape).astype(np.float32)


def _close(got, want, tol=1e-5):
    got = got.asnumpy() if isinstance(got, tj.Tensor) else np.asarray(got)
    want = want.detach().numpy() if isinstance(want, torch.Tensor) else np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=tol,
                               atol=tol)


# ---- MindSpore 2.10's own results ---------------------------------------------------------

with open(RECORD, encoding="utf-8") as _f:
    _MS = json.load(_f)["results"]


def _as_list(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


@pytest.mark.parametrize("name", sorted(_MS))
def test_cells_give_mindspores_recorded_results(name):
    want = _MS[name]
    got = cases(nn, T, inputs())[name]()
    wants = want["tuple"] if "tuple" in want else [want]
    for g, w in zip(_as_list(got), wants, strict=True):
        assert str(g.dtype) == w["dtype"], f"{name}: dtype {g.dtype}, MindSpore {w['dtype']}"
        _close(g, np.reshape(w["values"], w["shape"]), 2e-5)


# ---- activations against PyTorch --------------------------------------------------------------

ACTIVATIONS = [
    ("HShrink", lambda: nn.HShrink(0.7), lambda x: F.hardshrink(x, 0.7)),
    ("SoftShrink", lambda: nn.SoftShrink(0.3), lambda x: F.softshrink(x, 0.3)),
    ("Tanhshrink", nn.Tanhshrink, F.tanhshrink),
    ("Threshold", lambda: nn.Threshold(0.2, -3.0), lambda x: F.threshold(x, 0.2, -3.0)),
    ("Softmin", lambda: nn.Softmin(0), lambda x: F.softmin(x, 0)),
    ("Softmax2d", nn.Softmax2d, lambda x: torch.nn.Softmax2d()(x)),
    ("FastGelu", nn.FastGelu, lambda x: x * torch.sigmoid(1.702 * x)),
]


@pytest.mark.parametrize("name,make,ref", ACTIVATIONS, ids=[a[0] for a in ACTIVATIONS])
def test_activations_match_pytorch(name, make, ref):
    x = _r(2, 3, 4, 5)
    _close(make()(T(x)), ref(torch.tensor(x)))


def test_prelu_ext_is_pytorchs_prelu_with_a_weight_parameter():
    layer = nn.PReLUExt(3, 0.1)
    names = [n for n, _ in layer.parameters_and_names()]
    assert names == ["weight"] and tuple(layer.weight.shape) == (3,)
    x = _r(2, 3, 4)
    _close(layer(T(x)), F.prelu(torch.tensor(x), torch.full((3,), 0.1)))


def test_get_activation_knows_the_new_cells_by_mindspores_names():
    for name, cls in (("hshrink", nn.HShrink), ("softshrink", nn.SoftShrink),
                      ("rrelu", nn.RReLU), ("tanhshrink", nn.Tanhshrink),
                      ("softmin", nn.Softmin), ("softmax2d", nn.Softmax2d),
                      ("fast_gelu", nn.FastGelu), ("preluExt", nn.PReLUExt)):
        assert type(nn.get_activation(name)) is cls
    with pytest.raises(TypeError):      # MindSpore's too: Threshold needs its arguments
        nn.get_activation("threshold")


def test_rrelu_draws_slopes_in_training_and_uses_the_mean_in_inference():
    x = -np.ones((200, 100), np.float32)
    layer = nn.RReLU(0.1, 0.3)
    layer.set_train(True)
    slopes = -layer(T(x)).asnumpy()
    assert ((slopes >= 0.1) & (slopes < 0.3)).all()
    assert abs(slopes.mean() - 0.2) < 0.005 and abs(slopes.std() - 0.2 / 12 ** 0.5) < 0.005
    assert not np.array_equal(slopes, -layer(T(x)).asnumpy())      # fresh draws per call
    layer.set_train(False)
    y = _r(3, 4)
    torch_layer = torch.nn.RReLU(0.1, 0.3).eval()
    _close(layer(T(y)), torch_layer(torch.tensor(y)))


def test_gumbel_softmax_hard_is_one_hot_with_the_soft_gradient():
    logits = T(_r(4, 5))

    def pick(z):
        weights = T(np.arange(5.0, dtype=np.float32))
        return (tj.ops.gumbel_softmax(z, 0.5, hard=True) * weights).sum()
    tj.set_seed(3)
    grad = tj.grad(pick)(logits).asnumpy()
    assert np.isfinite(grad).all() and np.abs(grad).sum() > 0


# ---- losses against PyTorch ---------------------------------------------------------------------

def _sign(*shape):
    return RNG.choice([-1.0, 1.0], shape).astype(np.float32)


def _loss_cases():
    x, y, z = _r(4, 5), _r(4, 5), _r(4, 5)
    t, var = _sign(4, 5), _r(4, 5, lo=0.2, hi=2.0)
    classes = np.array([1, 0, 4, 2], np.int64)
    w = _r(5, lo=0.5, hi=2.0)
    multi = np.array([[3, 0, -1, 1, 2], [1, 2, 3, -1, 0], [4, -1, 0, 0, 0], [-1, 1, 2, 3, 4]],
                     np.int32)
    binary = (RNG.random((4, 5)) > 0.5).astype(np.float32)
    counts = RNG.integers(0, 5, (4, 5)).astype(np.float32)
    tt = torch.tensor
    return [
        ("HuberLoss", nn.HuberLoss("sum", 0.6), (x, y),
         lambda: F.huber_loss(tt(x), tt(y), reduction="sum", delta=0.6)),
        ("MarginRankingLoss", nn.MarginRankingLoss(0.2), (x, y, t),
         lambda: F.margin_ranking_loss(tt(x), tt(y), tt(t), margin=0.2)),
        ("HingeEmbeddingLoss", nn.HingeEmbeddingLoss(0.7, "none"), (x, t),
         lambda: F.hinge_embedding_loss(tt(x), tt(t), margin=0.7, reduction="none")),
        ("SoftMarginLoss", nn.SoftMarginLoss(), (x, t), lambda: F.soft_margin_loss(tt(x), tt(t))),
        ("TripletMarginLoss", nn.TripletMarginLoss(p=1, swap=True, margin=0.5), (x, y, z),
         lambda: F.triplet_margin_loss(tt(x), tt(y), tt(z), margin=0.5, p=1, swap=True)),
        ("GaussianNLLLoss", nn.GaussianNLLLoss(full=True), (x, y, var),
         lambda: F.gaussian_nll_loss(tt(x), tt(y), tt(var), full=True)),
        ("PoissonNLLLoss", nn.PoissonNLLLoss(full=True), (x, counts),
         lambda: F.poisson_nll_loss(tt(x), tt(counts), full=True)),
        ("MultiMarginLoss", nn.MultiMarginLoss(2, 0.8, "sum", T(w)), (x, classes),
         lambda: F.multi_margin_loss(tt(x), tt(classes), 2, 0.8, tt(w), reduction="sum")),
        ("MultiLabelSoftMarginLoss", nn.MultiLabelSoftMarginLoss(T(w), "none"), (x, binary),
         lambda: F.multilabel_soft_margin_loss(tt(x), tt(binary), weight=tt(w),
                                               reduction="none")),
        ("MultilabelMarginLoss", nn.MultilabelMarginLoss(), (x, multi),
         lambda: F.multilabel_margin_loss(tt(x), tt(multi).long())),
        ("RMSELoss", nn.RMSELoss(), (x, y), lambda: torch.sqrt(F.mse_loss(tt(x), tt(y)))),
        ("MAELoss", nn.MAELoss("sum"), (x, y), lambda: F.l1_loss(tt(x), tt(y), reduction="sum")),
    ]


LOSSES = _loss_cases()


@pytest.mark.parametrize("name,cell,args,ref", LOSSES, ids=[c[0] for c in LOSSES])
def test_losses_match_pytorch(name, cell, args, ref):
    _close(cell(*[T(a) for a in args]), ref())


def _dice_ref(p, y, smooth=1e-5):
    return 1 - 2 * (p * y).sum() / ((p * p).sum() + (y * y).sum() + smooth)


def test_dice_losses_follow_their_formula():
    p, y = _r(3, 4, lo=0, hi=1), (RNG.random((3, 4)) > 0.5).astype(np.float32)
    _close(nn.DiceLoss(0.1)(T(p), T(y)), _dice_ref(p, y, 0.1))
    logits = _r(3, 4)
    soft = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    want = np.mean([_dice_ref(soft[:, i], y[:, i]) for i in range(4)])
    _close(nn.MultiClassDiceLoss()(T(logits), T(y)), want)


def test_focal_loss_with_gamma_0_is_cross_entropy():
    x, labels = _r(6, 4), RNG.integers(0, 4, (6, 1)).astype(np.int32)
    got = nn.FocalLoss(gamma=0.0)(T(x), T(labels))
    _close(got, F.cross_entropy(torch.tensor(x), torch.tensor(labels[:, 0]).long()))


# ---- gradients by finite differences ------------------------------------------------------------

def _fd_check(fn, x, eps=1e-6, tol=1e-5):
    x = x.astype(np.float64)
    got = tj.grad(lambda t: fn(t))(T(x)).asnumpy()
    want = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        want[i] = (float(fn(T(up))) - float(fn(T(down)))) / (2 * eps)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


GRADS = {
    "FocalLoss": lambda t: nn.FocalLoss(weight=T(np.array([1.0, 2.0, 0.5]))) (
        t, T(np.array([[0], [2], [1]], np.int32))),
    "DiceLoss": lambda t: nn.DiceLoss()(tj.ops.sigmoid(t), T(np.eye(3))),
    "MultiClassDiceLoss": lambda t: nn.MultiClassDiceLoss()(t, T(np.eye(3))),
    "PoissonNLLLoss": lambda t: nn.PoissonNLLLoss()(t, T(np.full((3, 3), 2.0))),
    "RMSELoss": lambda t: nn.RMSELoss()(t, T(np.zeros((3, 3)))),
    "ClipByNorm": lambda t: nn.ClipByNorm(1)(t, T(0.5)).sum(),
    "Moments": lambda t: sum(m.sum() for m in nn.Moments(0)(t * t)),
    "MatrixSetDiag": lambda t: (nn.MatrixSetDiag()(t, t[0]) ** 2).sum(),
    "MatrixDiagPart": lambda t: (nn.MatrixDiagPart()(t * t)).sum(),
    "ReduceLogSumExp": lambda t: nn.ReduceLogSumExp(1)(t).sum(),
    "Norm": lambda t: nn.Norm(1)(t).sum(),
    "MatInverse": lambda t: (nn.MatInverse()(t + T(np.eye(3))) ** 2).sum(),
    "MatDet": lambda t: nn.MatDet()(t),
    "Roll": lambda t: (nn.Roll((1, 2), (0, 1))(t) * T(np.arange(9.0).reshape(3, 3))).sum(),
}


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradients_match_finite_differences(name):
    _fd_check(GRADS[name], np.random.default_rng(1).uniform(0.2, 1.5, (3, 3)))


# ---- jit: every capture mode gives eager's result --------------------------------------------

class _Head(nn.Cell):
    """A small network using several of the new cells."""

    def __init__(self):
        super().__init__()
        self.act = nn.SoftShrink(0.1)
        self.norm = nn.Norm(1, True)
        self.loss = nn.HuberLoss(delta=0.5)
        self.focal = nn.FocalLoss()

    def construct(self, x, y, labels):
        h = self.act(x) / self.norm(x)
        return self.loss(h, y) + self.focal(x, labels)


@pytest.mark.parametrize("mode", ["ast", "bytecode", "trace"])
@pytest.mark.parametrize("level", ["O0", "O1"])
def test_new_cells_compile_in_every_capture_mode(mode, level):
    net = _Head()
    x, y = _r(4, 3), _r(4, 3)
    labels = np.array([[0], [2], [1], [1]], np.int32)
    eager = net(T(x), T(y), T(labels)).asnumpy()
    compiled = tj.jit(net.construct, capture_mode=mode, jit_level=level)
    np.testing.assert_allclose(compiled(T(x), T(y), T(labels)).asnumpy(), eager, rtol=1e-6)
    margin = tj.jit(lambda a, b, t: tj.ops.multilabel_margin_loss(a, t) +
                    tj.ops.triplet_margin_loss(a, b, a * 2), capture_mode=mode, jit_level=level)
    multi = np.array([[2, -1, 0], [0, 1, -1], [1, 1, 1], [-1, 0, 0]], np.int32)
    want = (tj.ops.multilabel_margin_loss(T(x), T(multi))
            + tj.ops.triplet_margin_loss(T(x), T(y), T(x) * 2)).asnumpy()
    np.testing.assert_allclose(margin(T(x), T(y), T(multi)).asnumpy(), want, rtol=1e-6)


def test_rrelu_under_jit_draws_fresh_slopes_per_call():
    layer = nn.RReLU()
    layer.set_train(True)
    run = tj.jit(layer.construct, capture_mode="ast")
    x = T(-np.ones((50, 50), np.float32))
    assert not np.array_equal(run(x).asnumpy(), run(x).asnumpy())


def test_ctc_loss_matches_pytorch_in_value_and_gradient_in_every_mode():
    rng = np.random.default_rng(5)
    logits = rng.standard_normal((7, 3, 5))
    targets = np.array([[1, 2, 2, 4], [3, 1, 0, 0], [4, 4, 1, 0]], np.int64)
    il, tl = np.array([7, 6, 7]), np.array([4, 2, 3])
    tx = torch.tensor(logits, requires_grad=True)
    want = F.ctc_loss(torch.log_softmax(tx, -1), torch.tensor(targets), torch.tensor(il),
                      torch.tensor(tl))
    want.backward()
    loss = nn.CTCLoss()
    labels = (T(targets), T(il), T(tl))

    def run(x):
        return loss(tj.ops.log_softmax(x, -1), *labels)
    _close(run(T(logits)), want, 1e-10)
    _close(tj.grad(run)(T(logits)), tx.grad, 1e-10)
    for mode in ("ast", "bytecode", "trace"):
        _close(tj.jit(run, capture_mode=mode)(T(logits)), want, 1e-10)
    _close(tj.jit(tj.grad(run), capture_mode="trace")(T(logits)), tx.grad, 1e-10)


# ---- small math cells against NumPy ----------------------------------------------------------

def test_math_cells_follow_numpy():
    x = _r(2, 3, 4)
    _close(nn.Unflatten(2, (2, 2))(T(x)), x.reshape(2, 3, 2, 2))
    _close(nn.Roll((1, -1), (1, 2))(T(x)), np.roll(x, (1, -1), (1, 2)))
    _close(nn.Tril()(T(x), -1), np.tril(x, -1))
    _close(nn.Triu()(T(x), 1), np.triu(x, 1))
    _close(nn.Norm((1, 2), True)(T(x)), np.sqrt((x * x).sum((1, 2), keepdims=True)))
    mean, var = nn.Moments((0, 2))(T(x))
    _close(mean, x.mean((0, 2)))
    _close(var, x.var((0, 2)))
    _close(nn.MatMul(True, False)(T(x), T(x)), np.swapaxes(x, -1, -2) @ x)
    _close(nn.MatrixDiag()(T(x[0])), np.stack([np.diag(r) for r in x[0]]))
    _close(nn.MatrixDiagPart()(T(x)), np.stack([np.diag(m) for m in x]))
    tall = _r(2, 4, 3)
    diag = _r(2, 3)
    want = tall.copy()
    for b in range(2):
        want[b][np.arange(3), np.arange(3)] = diag[b]
    _close(nn.MatrixSetDiag()(T(tall), T(diag)), want)
    _close(nn.MatrixDiagPart()(T(tall)), np.stack([np.diag(m) for m in tall]))
    clipped = nn.ClipByNorm()(T(x), T(np.float32(1.5))).asnumpy()
    assert abs(np.linalg.norm(clipped) - 1.5) < 1e-5
    rows = np.linalg.norm(x, axis=2, keepdims=True)      # each row clipped to norm 1
    _close(nn.ClipByNorm(2)(T(x), T(np.float32(1.0))), x / np.maximum(rows, 1.0))
    _close(nn.ReduceLogSumExp(())(T(x)), np.log(np.exp(x).sum()))
    _close(nn.OneHot(depth=3)(T(np.array([2, 0], np.int32))), np.eye(3)[[2, 0]])
    square = _r(2, 3, 3) + 3 * np.eye(3, dtype=np.float32)     # (MindSpore's CPU has no
    _close(nn.MatInverse()(T(square)), np.linalg.inv(square), 1e-4)   # kernel for these two)
    _close(nn.MatDet()(T(square)), np.linalg.det(square), 1e-4)
    half = nn.MatDet()(T(square.astype(np.float16)))
    assert half.dtype == tj.float16
    assert nn.Range(5)().asnumpy().tolist() == [0, 1, 2, 3, 4]


def test_special_function_cells_follow_scipy():
    from scipy import special
    a, b = _r(5, lo=0.2, hi=9).astype(np.float64), _r(5, lo=0.2, hi=9).astype(np.float64)
    _close(nn.LGamma()(T(a)), special.gammaln(a), 1e-9)
    _close(nn.DiGamma()(T(a)), special.digamma(a), 1e-9)
    _close(nn.IGamma()(T(a), T(b)), special.gammainc(a, b), 1e-9)
    _close(nn.LBeta()(T(a), T(b)), special.betaln(a, b), 1e-9)
    grad = tj.grad(lambda t: nn.LBeta()(t, T(b)).sum())(T(a)).asnumpy()
    _close(grad, special.digamma(a) - special.digamma(a + b), 1e-7)


# ---- operator classes (MindSpore's ops.HShrink(...)(x) form) -------------------------------

def test_operator_classes_call_the_functions():
    x = _r(4, 5)
    tt = torch.tensor
    _close(tj.ops.HShrink(0.3)(T(x)), F.hardshrink(tt(x), 0.3))
    _close(tj.ops.SoftShrink(lambd=0.2)(T(x)), F.softshrink(tt(x), 0.2))
    classes = np.array([1, 0, 4, 2], np.int64)
    w = _r(5, lo=0.5, hi=2)
    _close(tj.ops.MultiMarginLoss(p=2, margin=0.5)(T(x), T(classes), T(w)),
           F.multi_margin_loss(tt(x), tt(classes), p=2, margin=0.5, weight=tt(w)))


# ---- errors ----------------------------------------------------------------------------------

ERRORS = [
    (lambda: nn.Softmax2d()(T(_r(3, 4))), ValueError, "Softmax2d"),
    (lambda: nn.RReLU(0.5, 0.1), ValueError, "RReLU"),
    (lambda: nn.FastGelu()(T(np.ones(3, np.int32))), TypeError, "FastGelu"),
    (lambda: nn.HShrink()(T(np.ones(3, np.int32))), TypeError, "hardshrink"),
    (lambda: nn.SoftShrink(-1.0)(T(_r(3))), RuntimeError, "softshrink"),
    (lambda: nn.HuberLoss(delta=0.0), ValueError, "HuberLoss"),
    (lambda: nn.HuberLoss(reduction="avg"), ValueError, "reduction"),
    (lambda: nn.DiceLoss(1), TypeError, "DiceLoss"),
    (lambda: nn.DiceLoss()(T(_r(3, 4)), T(_r(4))), ValueError, "DiceLoss"),
    (lambda: nn.MultiClassDiceLoss(activation="bad"), ValueError, "activation"),
    (lambda: nn.MultiClassDiceLoss()(T(_r(4)), T(_r(4))), ValueError, "MultiClassDiceLoss"),
    (lambda: nn.FocalLoss(gamma=2), TypeError, "gamma"),
    (lambda: nn.FocalLoss()(T(_r(3, 4)), T(np.ones(3, np.int32))), ValueError, "FocalLoss"),
    (lambda: nn.FocalLoss()(T(_r(3, 1)), T(np.ones((3, 1), np.int32))), ValueError, "FocalLoss"),
    (lambda: nn.MultiMarginLoss(p=3), ValueError, "MultiMarginLoss"),
    (lambda: nn.MarginRankingLoss(1)(T(_r(3)), T(_r(3)), T(_r(3))), TypeError, "margin"),
    (lambda: nn.GaussianNLLLoss(full=1), TypeError, "GaussianNLLLoss"),
    (lambda: nn.RMSELoss()(T(np.ones(3, np.uint8)), T(_r(3))), TypeError, "RMSELoss"),
    (lambda: nn.Roll((1, 2), 0), ValueError, "Roll"),
    (lambda: nn.Unflatten(1, (3, 2))(T(_r(3, 4))), ValueError, "Unflatten"),
    (lambda: nn.Range(1, 5, 0), ValueError, "delta"),
    (lambda: nn.Moments()(T(np.ones(3, np.int32))), TypeError, "Moments"),
    (lambda: nn.MatrixDiagPart()(T(_r(3))), ValueError, "MatrixDiagPart"),
    (lambda: nn.MatrixSetDiag()(T(_r(3, 3)), T(_r(2))), ValueError, "MatrixSetDiag"),
    (lambda: nn.ClipByNorm()(T(np.ones(3, np.int32)), T(1.0)), TypeError, "ClipByNorm"),
    (lambda: tj.ops.gumbel_softmax(T(_r(2, 3)), 1), TypeError, "tau"),
    (lambda: tj.ops.rrelu(T(_r(3)), 0.5, 0.1), ValueError, "rrelu"),
    (lambda: tj.ops.threshold(T(_r(3)), T(1.0), 0.0), TypeError, "threshold"),
    (lambda: nn.LGamma()(T(np.ones(3, np.int32))), TypeError, "LGamma"),
    (lambda: nn.LBeta()(T(_r(3)), T(_r(3).astype(np.float64))), TypeError, "LBeta"),
]


@pytest.mark.parametrize("make,exc,words", ERRORS, ids=[str(i) for i in range(len(ERRORS))])
def test_bad_input_raises_mindspores_error_type(make, exc, words):
    with pytest.raises(exc, match=words):
        make()
