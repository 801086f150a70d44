"""Optimizers against NumPy re-implementations of MindSpore's update formulas, over several
steps; their state Parameters; and the training wrappers."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor, Parameter

STEPS = 4
SHAPES = {"w": (3, 2), "b": (2,), "bn.gamma": (2,)}


def make_params(rng):
    return [Parameter(Tensor(rng.standard_normal(shape)), name=name)
            for name, shape in SHAPES.items()]


def make_grads(rng):
    return [[rng.standard_normal(shape) for shape in SHAPES.values()] for _ in range(STEPS)]


def run(optimizer, grads):
    for step in grads:
        assert optimizer(tuple(Tensor(g) for g in step)) is True


def values(params):
    return [p.asnumpy().copy() for p in params]


def assert_params(params, expected, start, rtol=1e-6, atol=1e-8):
    """Compare each parameter's displacement from ``start`` with the reference's (atol
    allows for the float32 learning rate, ~1e-8 relative, on steps of size ~0.01-0.1)."""
    for p, e, s in zip(params, expected, start):
        np.testing.assert_allclose(p.asnumpy() - s, e - s, rtol=rtol, atol=atol,
                                   err_msg=p.name)


# ---- SGD --------------------------------------------------------------------------------

def sgd_reference(start, grads, lr, momentum=0.0, dampening=0.0, weight_decay=0.0,
                  nesterov=False, loss_scale=1.0):
    params = [s.copy() for s in start]
    accum = [np.zeros_like(s) for s in start]
    for t, step in enumerate(grads):
        for i, g in enumerate(step):
            g = g / loss_scale + weight_decay * params[i]
            if momentum > 0:
                accum[i] = g if t == 0 else momentum * accum[i] + (1 - dampening) * g
                g = g + momentum * accum[i] if nesterov else accum[i]
            params[i] = params[i] - lr * g
    return params, accum


@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(momentum=0.9),
    dict(momentum=0.8, dampening=0.3),
    dict(momentum=0.9, nesterov=True, weight_decay=0.01),
    dict(momentum=0.5, weight_decay=0.1, loss_scale=4.0),
])
def test_sgd(rng, kwargs):
    params, grads = make_params(rng), make_grads(rng)
    start = values(params)
    opt = nn.SGD(params, learning_rate=0.1, **kwargs)
    run(opt, grads)
    expected, accum = sgd_reference(start, grads, 0.1, **kwargs)
    assert_params(params, expected, start)
    if kwargs.get("momentum"):
        for a, e in zip(opt.accum, accum):
            np.testing.assert_allclose(a.asnumpy(), e, rtol=1e-6, atol=1e-12)
        assert all((s.asnumpy() == 0).all() for s in opt.stat)


# ---- Momentum ---------------------------------------------------------------------------

def momentum_reference(start, grads, lr, momentum, weight_decay=0.0, loss_scale=1.0,
                       use_nesterov=False, names=tuple(SHAPES)):
    params = [s.copy() for s in start]
    moments = [np.zeros_like(s) for s in start]
    for step in grads:
        for i, g in enumerate(step):
            if "gamma" not in names[i] and "beta" not in names[i]:
                g = g + weight_decay * loss_scale * params[i]
            g = g / loss_scale
            moments[i] = momentum * moments[i] + g
            if use_nesterov:
                params[i] = params[i] - (g * lr + moments[i] * momentum * lr)
            else:
                params[i] = params[i] - lr * moments[i]
    return params, moments


@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(use_nesterov=True),
    dict(weight_decay=0.05, loss_scale=8.0),
])
def test_momentum(rng, kwargs):
    params, grads = make_params(rng), make_grads(rng)
    start = values(params)
    opt = nn.Momentum(params, 0.05, 0.9, **kwargs)
    run(opt, grads)
    expected, moments = momentum_reference(start, grads, 0.05, 0.9, **kwargs)
    assert_params(params, expected, start)
    for m, e in zip(opt.moments, moments):
        np.testing.assert_allclose(m.asnumpy(), e, rtol=1e-6, atol=1e-12)


# ---- Adam -------------------------------------------------------------------------------

def adam_reference(start, grads, lr, beta1=0.9, beta2=0.999, eps=1e-8, use_nesterov=False,
                   weight_decay=0.0, loss_scale=1.0, names=tuple(SHAPES)):
    params = [s.copy() for s in start]
    m = [np.zeros_like(s) for s in start]
    v = [np.zeros_like(s) for s in start]
    for t, step in enumerate(grads, start=1):
        step_size = lr * np.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        for i, g in enumerate(step):
            if "gamma" not in names[i] and "beta" not in names[i]:
                g = g + weight_decay * loss_scale * params[i]
            g = g / loss_scale
            m[i] = beta1 * m[i] + (1 - beta1) * g
            v[i] = beta2 * v[i] + (1 - beta2) * g * g
            direction = beta1 * m[i] + (1 - beta1) * g if use_nesterov else m[i]
            params[i] = params[i] - step_size * direction / (np.sqrt(v[i]) + eps)
    return params, m, v


@pytest.mark.parametrize("kwargs", [
    dict(),
    dict(beta1=0.8, beta2=0.99, eps=1e-6),
    dict(eps=0.5),                     # large enough that where eps is added matters
    dict(use_nesterov=True),
    dict(weight_decay=0.1, loss_scale=2.0),
])
def test_adam(rng, kwargs):
    params, grads = make_params(rng), make_grads(rng)
    start = values(params)
    opt = nn.Adam(params, learning_rate=0.01, **kwargs)
    run(opt, grads)
    expected, m, v = adam_reference(start, grads, 0.01, **kwargs)
    # beta1_power / beta2_power are float32 Parameters (as in MindSpore): 1 - beta2^t is
    # then exact to ~1e-4 relative, so the steps (lr 0.01) are exact to ~1e-6.
    assert_params(params, expected, start, rtol=1e-4, atol=2e-6)
    for got, want in zip(opt.moment1 + opt.moment2, m + v):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6, atol=1e-12)
    beta1, beta2 = kwargs.get("beta1", 0.9), kwargs.get("beta2", 0.999)
    np.testing.assert_allclose(opt.beta1_power.asnumpy(), [beta1 ** STEPS], rtol=1e-6)
    np.testing.assert_allclose(opt.beta2_power.asnumpy(), [beta2 ** STEPS], rtol=1e-6)


# ---- state, learning rates, groups --------------------------------------------------------

def test_state_is_parameters_named_after_the_weights(rng):
    params = make_params(rng)
    adam = nn.Adam(params)
    names = [p.name for p in adam.get_parameters()]
    for expected in ("learning_rate", "global_step", "beta1_power", "beta2_power",
                     "moment1.w", "moment2.w", "moment1.bn.gamma", "moment2.b"):
        assert expected in names
    assert adam.parameters == tuple(params)
    assert isinstance(adam.learning_rate, Parameter)
    assert all(not p.requires_grad for p in adam.moment1)
    sgd = nn.SGD(params, momentum=0.9)
    assert {"accum.w", "stat.w", "momentum"} <= {p.name for p in sgd.get_parameters()}
    momentum = nn.Momentum(params, 0.1, 0.9)
    assert "moments.b" in [p.name for p in momentum.get_parameters()]


def test_global_step_counts_steps(rng):
    params, grads = make_params(rng), make_grads(rng)
    opt = nn.SGD(params)
    run(opt, grads)
    np.testing.assert_array_equal(opt.global_step.asnumpy(), [STEPS])
    assert opt.global_step.dtype == ms.int32


def test_dynamic_learning_rate_list(rng):
    params, grads = make_params(rng), make_grads(rng)
    start = values(params)
    rates = [0.1, 0.05, 0.01]
    opt = nn.SGD(params, learning_rate=rates)
    run(opt, grads)
    expected = [s.copy() for s in start]
    for t, step in enumerate(grads):
        lr = rates[min(t, len(rates) - 1)]          # past the end: the last rate
        expected = [p - lr * g for p, g in zip(expected, step)]
    assert_params(params, expected, start)


def test_learning_rate_parameter_is_read_at_run_time(rng):
    params, grads = make_params(rng), make_grads(rng)
    start = values(params)
    lr = Parameter(Tensor(np.float32(0.1)), name="lr")
    opt = nn.SGD(params, learning_rate=lr)
    assert opt.learning_rate is lr
    opt(tuple(Tensor(g) for g in grads[0]))
    lr.set_data(Tensor(np.float32(0.01)))
    opt(tuple(Tensor(g) for g in grads[1]))
    expected = [s - 0.1 * g0 - 0.01 * g1 for s, g0, g1 in zip(start, grads[0], grads[1])]
    assert_params(params, expected, start)


def test_parameter_groups(rng):
    params, grads = make_params(rng), make_grads(rng)
    w, b, gamma = params
    start = values(params)
    groups = [{"params": [w], "lr": 0.01, "weight_decay": 0.1},
              {"params": [b, gamma]},
              {"order_params": [gamma, w, b]}]
    opt = nn.Momentum(groups, learning_rate=0.1, momentum=0.9, weight_decay=0.0)
    assert opt.parameters == (gamma, w, b)
    order = {id(p): k for k, p in enumerate(params)}
    run(opt, [[step[order[id(p)]] for p in opt.parameters] for step in grads])
    # Per group: w uses lr 0.01 with decay 0.1 (groups decay every member); b, gamma 0.1.
    for p, lr, wd in ((w, 0.01, 0.1), (b, 0.1, 0.0), (gamma, 0.1, 0.0)):
        k = order[id(p)]
        expected, _ = momentum_reference([start[k]], [[step[k]] for step in grads], lr, 0.9,
                                         weight_decay=wd, names=("x",))
        assert_params([p], expected, [start[k]])


def test_updates_go_through_assign(rng, monkeypatch):
    """Every state change is an in-place assignment of a Parameter (what a compiler
    records as a side effect): parameters keep their identity and no value changes
    without an assignment."""
    assigned = []
    original = ms.Tensor._assign

    def spy(self, value):
        assigned.append(id(self))
        return original(self, value)

    monkeypatch.setattr(ms.Tensor, "_assign", spy)
    params, grads = make_params(rng), make_grads(rng)
    for opt in (nn.SGD(params, momentum=0.9), nn.Momentum(params, 0.1, 0.9), nn.Adam(params)):
        state = list(opt.get_parameters())
        before = {id(p): p.asnumpy().copy() for p in state}
        assigned.clear()
        opt(tuple(Tensor(g) for g in grads[0]))
        for p in state:
            changed = not np.array_equal(p.asnumpy(), before[id(p)])
            assert not changed or id(p) in assigned, p.name
        assert {id(p) for p in params} <= set(assigned)
        assert id(opt.global_step) in assigned


@pytest.mark.parametrize("make, pattern", [
    (lambda p: nn.SGD(p, learning_rate=-0.1), "learning_rate"),
    (lambda p: nn.SGD(p, momentum=-1.0), "SGD.*momentum"),
    (lambda p: nn.SGD(p, nesterov=True), "SGD.*nesterov"),
    (lambda p: nn.Adam(p, beta1=1.0), "Adam.*beta1"),
    (lambda p: nn.Adam(p, eps=0.0), "Adam.*eps"),
    (lambda p: nn.Momentum(p, 0.1, -0.5), "Momentum.*momentum"),
    (lambda p: nn.Adam(p, loss_scale=0.0), "loss_scale"),
    (lambda p: nn.Adam(p, weight_decay=-1.0), "weight_decay"),
    (lambda p: nn.SGD([]), "empty"),
    (lambda p: nn.SGD([{"params": p, "weight_decay": 0.1}]), "SGD.*weight_decay"),
    (lambda p: nn.Adam(p[0]), "Adam.*params"),
])
def test_constructor_errors(rng, make, pattern):
    with pytest.raises((ValueError, TypeError), match=pattern):
        make(make_params(rng))


def test_gradient_checks(rng):
    params = make_params(rng)
    opt = nn.SGD(params)
    with pytest.raises(ValueError, match="2 gradients for 3 parameters"):
        opt(tuple(Tensor(np.zeros(s)) for s in list(SHAPES.values())[:2]))
    with pytest.raises(ValueError, match="'w' has shape"):
        opt(tuple(Tensor(np.zeros((2, 2))) for _ in range(3)))


# ---- training wrappers ------------------------------------------------------------------

def regression_data(rng):
    x = rng.standard_normal((16, 4))
    y = x @ np.array([[1.0], [-2.0], [0.5], [3.0]]) + 0.25
    return x, y


def test_train_one_step_matches_manual_gradient_step(rng):
    x, y = regression_data(rng)
    net = nn.Dense(4, 1, dtype=ms.float64)
    w0, b0 = net.weight.asnumpy().copy(), net.bias.asnumpy().copy()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.SGD(net.trainable_params(), learning_rate=0.1))
    loss = step(Tensor(x), Tensor(y))
    residual = x @ w0.T + b0 - y                              # (16, 1)
    np.testing.assert_allclose(loss.asnumpy(), (residual ** 2).mean(), rtol=1e-12)
    grad_w = 2 * residual.T @ x / len(x)
    grad_b = 2 * residual.sum(axis=0) / len(x)
    np.testing.assert_allclose(net.weight.asnumpy(), w0 - 0.1 * grad_w, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(net.bias.asnumpy(), b0 - 0.1 * grad_b, rtol=1e-6, atol=1e-9)


def test_train_one_step_reduces_the_loss(rng):
    x, y = regression_data(rng)
    net = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 1)])
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.Adam(net.trainable_params(), learning_rate=0.05))
    step.set_train()
    losses = [float(step(Tensor(x, ms.float32), Tensor(y, ms.float32)).asnumpy())
              for _ in range(40)]
    assert losses[-1] < 0.2 * losses[0]
    # The wrapper keeps the network's parameter names and adds the optimizer's state.
    names = [p.name for p in step.get_parameters()]
    assert names[:4] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert "moment1.0.weight" in names
    assert [p.name for p in step.trainable_params()] == names[:4]


def test_train_one_step_sens_scales_the_gradients(rng):
    x, y = regression_data(rng)
    results = []
    for sens in (1.0, 3.0):
        ms.set_seed(1)
        net = nn.Dense(4, 1, dtype=ms.float64)
        w0 = net.weight.asnumpy().copy()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                                   nn.SGD(net.trainable_params(), 0.01), sens=sens)
        step(Tensor(x), Tensor(y))
        results.append(net.weight.asnumpy() - w0)
    np.testing.assert_allclose(results[1], 3.0 * results[0], rtol=1e-9)


def test_wrapper_errors():
    with pytest.raises(TypeError, match="TrainOneStepCell.*optimizer"):
        nn.TrainOneStepCell(nn.Dense(2, 2), "sgd")
    with pytest.raises(TypeError, match="WithLossCell.*backbone"):
        nn.WithLossCell(lambda x: x, nn.MSELoss())
