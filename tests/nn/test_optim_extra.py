"""The optimizers beyond SGD / Momentum / Adam: each against a NumPy re-implementation of
MindSpore's documented update (float64, several steps), against MindSpore 2.10's recorded
results (float32, tests/nn/record_optim_extra.py), compiled against eager, and their
argument errors."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor, Parameter

from . import record_optim_extra as recorded

STEPS = 4
SHAPES = {"w": (3, 2), "b": (2,), "bn.gamma": (2,)}
RECORD = dict(np.load(recorded.RECORD))


def make(rng):
    params = [Parameter(Tensor(rng.standard_normal(s)), name=n) for n, s in SHAPES.items()]
    grads = [[rng.standard_normal(s) for s in SHAPES.values()] for _ in range(STEPS)]
    return params, grads


def run_reference(update, start, grads, state, weight_decay=0.0, loss_scale=1.0,
                  decay_all=False):
    """MindSpore's gradient pipeline, then ``update(p, g, state_of_p, t, name)`` -> new p."""
    params = [s.copy() for s in start]
    states = [state(s) for s in start]
    for t, step in enumerate(grads, start=1):
        for i, (name, g) in enumerate(zip(SHAPES, step)):
            if decay_all or ("gamma" not in name and "beta" not in name):
                g = g + weight_decay * loss_scale * params[i]
            params[i] = update(params[i], g / loss_scale, states[i], t, name)
    return params


def check(opt, params, grads, expected, rtol=1e-6, atol=1e-7):
    """(atol: the rates and scalar state are float32 Parameters, as in MindSpore)"""
    start = [p.asnumpy().copy() for p in params]
    for step in grads:
        assert opt(tuple(Tensor(g) for g in step)) is True
    for p, e, s in zip(params, expected, start):
        np.testing.assert_allclose(p.asnumpy() - s, e - s, rtol=rtol, atol=atol, err_msg=p.name)


def zeros(p):
    return {}


# ---- the documented formulas ---------------------------------------------------------

def adagrad(lr, update_slots=True):
    def update(p, g, s, t, name):
        if update_slots:
            s["a"] = s["a"] + g * g
        return p - lr * g / np.sqrt(s["a"])
    return update


def adadelta(lr, rho, eps):
    def update(p, g, s, t, name):
        s["a"] = rho * s["a"] + (1 - rho) * g * g
        u = np.sqrt(s["u"] + eps) * g / np.sqrt(s["a"] + eps)
        s["u"] = rho * s["u"] + (1 - rho) * u * u
        return p - lr * u
    return update


def adamax(lr, b1, b2, eps):
    def update(p, g, s, t, name):
        s["m"] = b1 * s["m"] + (1 - b1) * g
        s["v"] = np.maximum(b2 * s["v"], np.abs(g))
        return p - lr / (1 - b1 ** t) * s["m"] / (s["v"] + eps)
    return update


def proximal_adagrad(lr, l1, l2):
    def update(p, g, s, t, name):
        s["a"] = s["a"] + g * g
        rate = lr / np.sqrt(s["a"])
        v = p - rate * g
        return np.sign(v) / (1 + rate * l2) * np.maximum(np.abs(v) - rate * l1, 0)
    return update


def ftrl(lr, q, l1, l2):
    def update(p, g, s, t, name):
        n = s["n"] + g * g
        s["z"] = s["z"] + g - (n ** -q - s["n"] ** -q) / lr * p
        s["n"] = n
        z = s["z"]
        return np.where(np.abs(z) > l1, (np.sign(z) * l1 - z) / (n ** -q / lr + 2 * l2), 0.0)
    return update


def rmsprop(lr, decay, momentum, eps, centered):
    def update(p, g, s, t, name):
        s["s"] = decay * s["s"] + (1 - decay) * g * g
        denominator = s["s"]
        if centered:
            s["a"] = decay * s["a"] + (1 - decay) * g
            denominator = s["s"] - s["a"] ** 2
        s["m"] = momentum * s["m"] + lr * g / np.sqrt(denominator + eps)
        return p - s["m"]
    return update


def asgd(lr, lambd, alpha, t0):
    def update(p, g, s, t, name):
        eta = lr if t == 1 else s["eta"]
        p = p * (1 - lambd * eta) - eta * g
        s["ax"] = s["ax"] + (p - s["ax"]) * s["mu"] if s["mu"] != 1 else p
        s["eta"] = lr / (1 + lambd * lr * t) ** alpha
        s["mu"] = 1 / max(1.0, t - t0)
        return p
    return update


def rprop(lr, etas, sizes):
    def update(p, g, s, t, name):
        size = np.full_like(p, lr) if t == 1 else s["size"]
        agree = g * s["prev"]
        factor = np.where(agree > 0, etas[1], np.where(agree < 0, etas[0], 1.0))
        s["size"] = np.clip(size * factor, *sizes)
        s["prev"] = np.where(agree < 0, 0.0, g)
        return p - np.sign(s["prev"]) * s["size"]
    return update


def lamb(lr, b1, b2, eps, weight_decay):
    def update(p, g, s, t, name):
        s["m"] = b1 * s["m"] + (1 - b1) * g
        s["v"] = b2 * s["v"] + (1 - b2) * g * g
        r = (s["m"] / (1 - b1 ** t)) / (np.sqrt(s["v"] / (1 - b2 ** t)) + eps)
        if "gamma" not in name:
            r = r + weight_decay * p
        w_norm, r_norm = np.linalg.norm(p), np.linalg.norm(r)
        trust = w_norm / r_norm if w_norm > 0 and r_norm > 0 else 1.0
        return p - lr * trust * r
    return update


def adafactor(lr, eps, clip, decay_rate, beta1, weight_decay, relative, scale, warmup):
    def rms(x):
        return np.sqrt(np.mean(x * x))

    def update(p, g, s, t, name):
        rate = min(1e-6 * t if warmup else 1e-2, 1 / np.sqrt(t)) if relative else lr
        if scale:
            rate = rate * max(eps[1], rms(p))
        beta2t = 1 - t ** -decay_rate
        sq = g * g + eps[0]
        if p.ndim > 1:
            s["r"] = beta2t * s.get("r", 0) + (1 - beta2t) * sq.mean(-1)
            s["c"] = beta2t * s.get("c", 0) + (1 - beta2t) * sq.mean(-2)
            v = np.outer(s["r"] / s["r"].mean(), s["c"])
        else:
            v = s["v"] = beta2t * s.get("v", 0) + (1 - beta2t) * sq
        u = g / np.sqrt(v)
        u = rate * u / max(1.0, rms(u) / clip)
        if beta1 > 0:
            u = s["m"] = beta1 * s.get("m", 0) + (1 - beta1) * u
        return p - weight_decay * rate * p - u
    return update


def state_of(**init):
    return lambda p: {k: (np.full_like(p, v) if isinstance(v, float) else v)
                      for k, v in init.items()}


REFERENCES = [
    ("Adagrad", dict(accum=0.3, learning_rate=0.05, weight_decay=0.1, loss_scale=2.0),
     adagrad(0.05), state_of(a=0.3), dict(weight_decay=0.1, loss_scale=2.0)),
    ("Adagrad", dict(learning_rate=0.05, update_slots=False), adagrad(0.05, False),
     state_of(a=0.1), {}),
    ("Adadelta", dict(learning_rate=0.5, rho=0.6, epsilon=1e-3), adadelta(0.5, 0.6, 1e-3),
     state_of(a=0.0, u=0.0), {}),
    ("AdaMax", dict(learning_rate=0.01, beta1=0.8, beta2=0.9, weight_decay=0.05),
     adamax(0.01, 0.8, 0.9, 1e-8), state_of(m=0.0, v=0.0), dict(weight_decay=0.05)),
    ("ProximalAdagrad", dict(accum=0.2, learning_rate=0.1, l1=0.05, l2=0.1),
     proximal_adagrad(0.1, 0.05, 0.1), state_of(a=0.2), {}),
    ("FTRL", dict(learning_rate=0.05, lr_power=-0.3, l1=0.01, l2=0.1, weight_decay=0.01),
     ftrl(0.05, -0.3, 0.01, 0.1), state_of(n=0.1, z=0.0),
     dict(weight_decay=0.01, decay_all=True)),
    ("RMSProp", dict(learning_rate=0.01, decay=0.8, momentum=0.9, epsilon=1e-6),
     rmsprop(0.01, 0.8, 0.9, 1e-6, False), state_of(s=1.0, m=0.0), {}),
    ("RMSProp", dict(learning_rate=0.01, momentum=0.5, centered=True, loss_scale=4.0),
     rmsprop(0.01, 0.9, 0.5, 1e-10, True), state_of(s=1.0, m=0.0, a=0.0),
     dict(loss_scale=4.0)),
    ("ASGD", dict(learning_rate=0.05, lambd=0.01, alpha=0.5, t0=2.0),
     asgd(0.05, 0.01, 0.5, 2.0), state_of(ax=0.0, mu=1, eta=0), {}),
    ("Rprop", dict(learning_rate=0.05, etas=(0.3, 1.5), step_sizes=(1e-3, 0.08)),
     rprop(0.05, (0.3, 1.5), (1e-3, 0.08)), state_of(prev=0.0), {}),
    ("Lamb", dict(learning_rate=0.02, weight_decay=0.1), lamb(0.02, 0.9, 0.999, 1e-6, 0.1),
     state_of(m=0.0, v=0.0), {}),
    ("AdaFactor", dict(warmup_init=True, weight_decay=0.1),
     adafactor(None, (1e-30, 1e-3), 1.0, 0.8, 0.9, 0.1, True, True, True), zeros, {}),
    ("AdaFactor", dict(learning_rate=0.05, relative_step=False, clip_threshold=0.5,
                       beta1=0.0, scale_parameter=False),
     adafactor(0.05, (1e-30, 1e-3), 0.5, 0.8, 0.0, 0.0, False, False, False), zeros, {}),
]


@pytest.mark.parametrize("name, kwargs, update, state, pipeline", REFERENCES,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(REFERENCES)])
def test_against_documented_formula(rng, name, kwargs, update, state, pipeline):
    params, grads = make(rng)
    start = [p.asnumpy().copy() for p in params]
    opt = getattr(nn, name)(params, **kwargs)
    expected = run_reference(update, start, grads, state, **pipeline)
    check(opt, params, grads, expected)


def test_asgd_keeps_the_running_average(rng):
    params, grads = make(rng)
    opt = nn.ASGD(params, learning_rate=0.05, t0=1.0)
    history = []
    for step in grads:
        opt(tuple(Tensor(g) for g in step))
        history.append(params[0].asnumpy().copy())
    # mu = 1 / max(1, t - t0), used on the next step: ax is the parameter up to step
    # t0 + 2, then the running mean of the parameters from step t0 + 2 on
    np.testing.assert_allclose(opt.ax[0].asnumpy(), np.mean(history[2:], axis=0), rtol=1e-6)


# ---- LARS -----------------------------------------------------------------------------

@pytest.mark.parametrize("use_clip", [False, True])
def test_lars_rescales_then_steps_with_the_wrapped_optimizer(rng, use_clip):
    params, grads = make(rng)
    params[1].name = "dense.bias"          # the default filter leaves biases alone
    start = [p.asnumpy().copy() for p in params]
    inner = nn.Momentum(params, 0.1, 0.9, weight_decay=0.01, loss_scale=2.0)
    opt = nn.LARS(inner, epsilon=1e-5, coefficient=0.02, use_clip=use_clip)
    expected = [s.copy() for s in start]
    moments = [np.zeros_like(s) for s in start]
    for step in grads:
        for i, g in enumerate(step):
            g = g / 2.0
            name = params[i].name
            if "bias" not in name:
                wd = 0.0 if "gamma" in name else 0.01
                w_norm, g_norm = np.linalg.norm(expected[i]), np.linalg.norm(g)
                coeff = 0.02 * w_norm / (g_norm + wd * w_norm + 1e-5)
                if use_clip:
                    coeff = np.clip(coeff / 0.1, 0.0, 1.0)
                g = coeff * (g + wd * expected[i])
            moments[i] = 0.9 * moments[i] + g
            expected[i] = expected[i] - 0.1 * moments[i]
    check(opt, params, grads, expected)
    assert int(opt.global_step.asnumpy()[0]) == STEPS


# ---- MindSpore 2.10's results ---------------------------------------------------------

@pytest.mark.parametrize("label, name, kwargs", recorded.CASES,
                         ids=[c[0] for c in recorded.CASES])
def test_against_mindspore(label, name, kwargs):
    params, opt = recorded.build((nn, Tensor, Parameter), name, kwargs, RECORD)
    for t in range(recorded.STEPS):
        opt(recorded.grads(Tensor, RECORD, t))
    for n, p in zip(recorded.SHAPES, params):
        assert p.dtype == ms.float32
        np.testing.assert_allclose(p.asnumpy(), RECORD[f"{label}#{n}"], rtol=1e-5, atol=2e-6,
                                   err_msg=f"{label} {n}")


# ---- compiled steps, state, errors ---------------------------------------------------

@pytest.mark.parametrize("make_opt", [
    lambda p: nn.ASGD(p, learning_rate=0.05, t0=1.0),
    lambda p: nn.Rprop(p, learning_rate=0.05),
    lambda p: nn.AdaFactor(p),
    lambda p: nn.LARS(nn.Momentum(p, 0.1, 0.9), use_clip=True),
], ids=["ASGD", "Rprop", "AdaFactor", "LARS"])
def test_compiled_steps_match_eager(rng, make_opt):
    params, grads = make(rng)
    twins = [Parameter(Tensor(p.asnumpy().copy()), name=p.name) for p in params]
    eager, compiled = make_opt(params), make_opt(twins)
    step = ms.jit(lambda *g: compiled(g))
    for g in grads:
        eager(tuple(Tensor(x) for x in g))
        step(*[Tensor(x) for x in g])
    for a, b in zip(params, twins):
        np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), rtol=1e-12, atol=1e-14)


def test_state_parameters_are_named_after_the_weights(rng):
    params, _ = make(rng)
    expected = {nn.Adagrad: ["accum.w"], nn.Adadelta: ["accum.w", "accum_update.w"],
                nn.AdaMax: ["beta1_power", "moment1.w", "moment2.w"],
                nn.FTRL: ["moments.w", "linear.w"], nn.RMSProp: ["mean_square.w", "moment.w"],
                nn.ASGD: ["mu_w", "eta_w", "ax_.w"], nn.Rprop: ["prev.w", "step_size.w"],
                nn.AdaFactor: ["exp_avg.w", "exp_avg_sq_row_w", "exp_avg_sq_col_w",
                               "exp_avg_sq_b", "afactor_step"]}
    for cls, names in expected.items():
        got = {p.name for p in cls(params).get_parameters()}
        assert set(names) <= got, (cls.__name__, got)
    factor = nn.AdaFactor(params)
    assert tuple(factor.exp_avg_sq_row[0].shape) == (3,)
    assert tuple(factor.exp_avg_sq_col[0].shape) == (2,)
    np.testing.assert_array_equal(nn.RMSProp(params).ms[0].asnumpy(), np.ones((3, 2)))


@pytest.mark.parametrize("build, error, pattern", [
    (lambda p: nn.Adagrad(p, accum=1), TypeError, "Adagrad.*accum"),
    (lambda p: nn.Adagrad(p, accum=-0.1), ValueError, "Adagrad.*accum"),
    (lambda p: nn.Adadelta(p, rho=1.5), ValueError, "rho"),
    (lambda p: nn.AdaMax(p, beta1=1.0), ValueError, "beta1"),
    (lambda p: nn.ASGD(p, t0=10), TypeError, "t0"),
    (lambda p: nn.FTRL(p, learning_rate=[0.1, 0.2]), ValueError, "dynamic"),
    (lambda p: nn.FTRL(p, lr_power=0.5), ValueError, "lr_power"),
    (lambda p: nn.ProximalAdagrad(p, l1=-1.0), ValueError, "l1"),
    (lambda p: nn.RMSProp(p, epsilon=0.0), ValueError, "epsilon"),
    (lambda p: nn.RMSProp(p, momentum=1), TypeError, "momentum"),
    (lambda p: nn.Rprop(p, etas=[0.5, 1.2]), TypeError, "etas"),
    (lambda p: nn.Rprop(p, etas=(0.5, 1.0)), ValueError, "etaplus"),
    (lambda p: nn.Rprop(p, step_sizes=(1.0, 0.5)), ValueError, "step size"),
    (lambda p: nn.Lamb(p, 0.1, eps=0.0), ValueError, "eps"),
    (lambda p: nn.LazyAdam(p, weight_decay=1), TypeError, "weight_decay"),
    (lambda p: nn.AdaFactor(p, learning_rate=0.1), ValueError, "relative_step"),
    (lambda p: nn.AdaFactor(p, relative_step=False), ValueError, "learning_rate"),
    (lambda p: nn.AdaFactor(p, eps=(1e-30,)), ValueError, "eps"),
    (lambda p: nn.AdaFactor(p, weight_decay=1.0), ValueError, "weight_decay"),
    (lambda p: nn.LARS(p), TypeError, "LARS.*optimizer"),
    (lambda p: nn.LARS(nn.SGD(p), epsilon=1), TypeError, "epsilon"),
])
def test_argument_errors(rng, build, error, pattern):
    params, _ = make(rng)
    with pytest.raises(error, match=pattern):
        build(params)
