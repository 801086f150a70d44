"""Learning-rate functions and schedules against values printed by MindSpore 2.10, and
optimizers driven by them inside compiled train steps: the same numbers as eager in every
capture mode and level, with one compilation for all steps (the step counter is state)."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, ops, Tensor

from matrix import CAPTURE_MODES

# Printed by MindSpore 2.10 (mindspore.nn's functions with these arguments).
MINDSPORE_LISTS = [
    (nn.piecewise_constant_lr, ([2, 5, 10], [0.1, 0.05, 0.01]),
     [0.1, 0.1, 0.05, 0.05, 0.05, 0.01, 0.01, 0.01, 0.01, 0.01]),
    (nn.exponential_decay_lr, (0.1, 0.9, 6, 2, 2),
     [0.1, 0.1, 0.09486832980505139, 0.09486832980505139, 0.09000000000000001,
      0.09000000000000001]),
    (nn.exponential_decay_lr, (0.1, 0.9, 6, 2, 2, True),
     [0.1, 0.1, 0.1, 0.1, 0.09000000000000001, 0.09000000000000001]),
    (nn.natural_exp_decay_lr, (0.1, 0.9, 6, 2, 2, True),
     [0.1, 0.1, 0.1, 0.1, 0.016529888822158657, 0.016529888822158657]),
    (nn.inverse_decay_lr, (0.1, 0.5, 6, 2, 2, True),
     [0.1, 0.1, 0.1, 0.1, 0.06666666666666667, 0.06666666666666667]),
    (nn.cosine_decay_lr, (0.01, 0.1, 6, 2, 2),
     [0.1, 0.1, 0.05500000000000001, 0.05500000000000001, 0.01, 0.01]),
    (nn.polynomial_decay_lr, (0.1, 0.01, 6, 2, 2, 0.5),
     [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01]),
    (nn.polynomial_decay_lr, (0.1, 0.01, 10, 2, 2, 0.5, True),
     [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01, 0.05500000000000001,
      0.05500000000000001, 0.01, 0.01]),
    (nn.warmup_lr, (0.1, 6, 2, 2), [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]),
]

# MindSpore 2.10's schedule cells at global steps 0..9 (rounded to 6 digits).
MINDSPORE_SCHEDULES = [
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 4),
     [0.1, 0.0974, 0.094868, 0.092402, 0.09, 0.08766, 0.085382, 0.083162, 0.081, 0.078894]),
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 4, True),
     [0.1, 0.1, 0.1, 0.1, 0.09, 0.09, 0.09, 0.09, 0.081, 0.081]),
    (lambda: nn.NaturalExpDecayLR(0.1, 0.9, 4, True),
     [0.1, 0.1, 0.1, 0.1, 0.002732, 0.002732, 0.002732, 0.002732, 7.5e-05, 7.5e-05]),
    (lambda: nn.InverseDecayLR(0.1, 0.5, 4),
     [0.1, 0.088889, 0.08, 0.072727, 0.066667, 0.061538, 0.057143, 0.053333, 0.05, 0.047059]),
    (lambda: nn.CosineDecayLR(0.01, 0.1, 4),
     [0.1, 0.08682, 0.055, 0.02318, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01]),
    (lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5),
     [0.1, 0.087942, 0.07364, 0.055, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01]),
    (lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5, True),
     [0.1, 0.087942, 0.07364, 0.055, 0.01, 0.065114, 0.055, 0.04182, 0.01, 0.055]),
    (lambda: nn.WarmUpLR(0.1, 3),
     [0.0, 0.033333, 0.066667, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]),
]


@pytest.mark.parametrize("fn, args, expected", MINDSPORE_LISTS)
def test_lr_functions_match_mindspore(fn, args, expected):
    np.testing.assert_allclose(fn(*args), expected, rtol=1e-12)


@pytest.mark.parametrize("make, expected", MINDSPORE_SCHEDULES)
def test_schedules_match_mindspore(make, expected):
    schedule = make()
    got = [schedule(Tensor(np.array(step, np.int32))) for step in range(10)]
    assert all(g.shape == () and g.dtype == ms.float32 for g in got)
    np.testing.assert_allclose([float(g.asnumpy()) for g in got], expected, atol=1.5e-6)


def test_bad_schedule_arguments():
    with pytest.raises(ValueError, match="'decay_steps' must be > 0"):
        nn.ExponentialDecayLR(0.1, 0.9, 0)
    with pytest.raises(ValueError, match="'max_lr' must be > 'min_lr'"):
        nn.CosineDecayLR(0.2, 0.1, 4)
    with pytest.raises(ValueError, match="strictly increasing"):
        nn.piecewise_constant_lr([3, 2], [0.1, 0.2])
    with pytest.raises(TypeError, match="LearningRateSchedule"):
        nn.SGD([ms.Parameter(Tensor(np.ones(2, np.float32)), name="w")], learning_rate=object())


# ---- optimizers driven by schedules, inside compiled steps -----------------------------

def make_problem(optimizer_factory, seed=0):
    rng = np.random.default_rng(seed)
    net = nn.Dense(3, 2)
    net.weight.set_data(Tensor(rng.standard_normal((2, 3)).astype(np.float32)))
    net.bias.set_data(Tensor(rng.standard_normal(2).astype(np.float32)))
    optimizer = optimizer_factory(net.trainable_params())
    grad_fn = ms.value_and_grad(lambda x, y: ops.mse_loss(net(x), y), None,
                                optimizer.parameters)

    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss
    return net, optimizer, train_step


def data(steps=8):
    rng = np.random.default_rng(5)
    return [(Tensor(rng.standard_normal((4, 3)).astype(np.float32)),
             Tensor(rng.standard_normal((4, 2)).astype(np.float32))) for _ in range(steps)]


OPTIMIZERS = {
    "sgd-cosine": lambda p: nn.SGD(p, learning_rate=nn.CosineDecayLR(0.01, 0.1, 5)),
    "momentum-list": lambda p: nn.Momentum(p, nn.exponential_decay_lr(0.1, 0.5, 8, 2, 1), 0.9),
    "adam-warmup": lambda p: nn.Adam(p, learning_rate=nn.WarmUpLR(0.05, 4)),
    "adam-tensor": lambda p: nn.Adam(p, learning_rate=Tensor(np.linspace(0.1, 0.01, 8)
                                                              .astype(np.float32))),
    "adamweightdecay-poly": lambda p: nn.AdamWeightDecay(
        p, nn.PolynomialDecayLR(0.05, 0.001, 6, 2.0), weight_decay=0.1),
    "adamw-exp": lambda p: nn.AdamW(p, nn.ExponentialDecayLR(0.05, 0.8, 2), weight_decay=0.05),
    "groups": lambda p: nn.SGD([{"params": p[:1], "lr": nn.WarmUpLR(0.1, 3)},
                                {"params": p[1:], "lr": [0.2, 0.1]}], learning_rate=0.1),
}


@pytest.mark.parametrize("mode", CAPTURE_MODES)
@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_scheduled_optimizers_compile_once_and_equal_eager(mode, level, name):
    eager_net, eager_opt, eager_step = make_problem(OPTIMIZERS[name])
    net, opt, step = make_problem(OPTIMIZERS[name])
    jitted = ms.jit(step, capture_mode=mode, jit_level=level)
    batches = data()
    losses = [float(jitted(x, y).asnumpy()) for x, y in batches]
    eager = [float(eager_step(x, y).asnumpy()) for x, y in batches]
    np.testing.assert_allclose(losses, eager, rtol=1e-5, atol=1e-7)
    for a, b in zip(net.get_parameters(), eager_net.get_parameters()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-7)
    assert int(opt.global_step.asnumpy()[0]) == len(batches)
    assert jitted._tj_jit.compile_count == 1


def test_sgd_with_a_schedule_follows_its_rates():
    net, opt, step = make_problem(lambda p: nn.SGD(p, learning_rate=nn.CosineDecayLR(0.01, 0.1,
                                                                                     5)))
    rates = [0.01 + 0.045 * (1 + np.cos(np.pi * min(t, 5) / 5)) for t in range(8)]
    w, b = net.weight.asnumpy().astype(np.float64), net.bias.asnumpy().astype(np.float64)
    for (x, y), lr in zip(data(), rates):
        xv, yv = x.asnumpy().astype(np.float64), y.asnumpy().astype(np.float64)
        residual = 2 * (xv @ w.T + b - yv) / yv.size          # d mse / d prediction
        w, b = w - lr * residual.T @ xv, b - lr * residual.sum(0)
        step(x, y)
    np.testing.assert_allclose(net.weight.asnumpy(), w, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(net.bias.asnumpy(), b, rtol=1e-4, atol=1e-6)


# ---- AdamWeightDecay, AdamW, clip_by_global_norm ---------------------------------------

def test_adam_weight_decay_follows_mindspore_formula():
    rng = np.random.default_rng(2)
    w = ms.Parameter(Tensor(rng.standard_normal((3, 2)).astype(np.float32)), name="w")
    gamma = ms.Parameter(Tensor(rng.standard_normal(2).astype(np.float32)), name="bn.gamma")
    opt = nn.AdamWeightDecay([w, gamma], learning_rate=0.01, weight_decay=0.3)
    ref = [w.asnumpy().astype(np.float64), gamma.asnumpy().astype(np.float64)]
    m = [np.zeros_like(r) for r in ref]
    v = [np.zeros_like(r) for r in ref]
    for _ in range(5):
        grads = [rng.standard_normal(r.shape) for r in ref]
        opt(tuple(Tensor(g.astype(np.float32)) for g in grads))
        for k in range(2):
            m[k] = 0.9 * m[k] + 0.1 * grads[k]
            v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
            update = m[k] / (np.sqrt(v[k]) + 1e-6)
            if k == 0:                                   # 'gamma' parameters do not decay
                update = update + 0.3 * ref[k]
            ref[k] = ref[k] - 0.01 * update
    np.testing.assert_allclose(w.asnumpy(), ref[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gamma.asnumpy(), ref[1], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("amsgrad", [False, True])
def test_adamw_equals_pytorch(amsgrad):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    start = [rng.standard_normal((4, 3)).astype(np.float32), rng.standard_normal(3)
             .astype(np.float32)]
    params = [ms.Parameter(Tensor(s.copy()), name=f"p{k}") for k, s in enumerate(start)]
    opt = nn.AdamW(params, learning_rate=0.02, beta1=0.8, beta2=0.95, eps=1e-6,
                   weight_decay=0.1, amsgrad=amsgrad)
    tparams = [torch.tensor(s.copy(), requires_grad=True) for s in start]
    topt = torch.optim.AdamW(tparams, lr=0.02, betas=(0.8, 0.95), eps=1e-6, weight_decay=0.1,
                             amsgrad=amsgrad)
    for _ in range(6):
        grads = [rng.standard_normal(s.shape).astype(np.float32) for s in start]
        opt(tuple(Tensor(g) for g in grads))
        for p, g in zip(tparams, grads):
            p.grad = torch.tensor(g)
        topt.step()
    for p, t in zip(params, tparams):
        np.testing.assert_allclose(p.asnumpy(), t.detach().numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_clip_by_global_norm(mode):
    rng = np.random.default_rng(4)
    arrays = [rng.standard_normal((3, 4)).astype(np.float32),
              rng.standard_normal(5).astype(np.float32)]
    norm = np.sqrt(sum((a.astype(np.float64) ** 2).sum() for a in arrays))

    def clip(a, b, limit):
        return ops.clip_by_global_norm((a, b), limit)
    for limit in (0.5 * norm, 2 * norm):
        eager = clip(*(Tensor(a) for a in arrays), float(limit))
        jitted = ms.jit(clip, capture_mode=mode, static_argnums=2)(*(Tensor(a) for a in arrays),
                                                                     float(limit))
        for e, j, a in zip(eager, jitted, arrays):
            expected = a * limit / max(norm, limit)
            np.testing.assert_allclose(e.asnumpy(), expected, rtol=1e-5)
            np.testing.assert_allclose(j.asnumpy(), e.asnumpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="'clip_norm' must be > 0"):
        ops.clip_by_global_norm((Tensor(arrays[0]),), 0.0)
