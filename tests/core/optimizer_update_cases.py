"""Cases of MindSpore's optimizer-update classes, in plain NumPy (so MindSpore's interpreter
imports it too, to compute the values ``test_optimizer_updates.py`` holds as literals),
each with an independent NumPy reference of one step.

A case is ``(id, class name, constructor keywords, params, inputs, reference)``: ``params``
the Parameters' names and starting values, ``inputs`` the call's arguments in order (a
name of ``params``, an ndarray for a tensor, or a Python number), and ``reference(p, a)``
-> ``(new values of the params by name, expected outputs)`` from the arrays ``p`` (by name)
and the non-parameter arguments ``a``.
"""
import numpy as np

f32 = np.float32
VAR = np.array([[0.6, 0.4], [0.1, -0.5], [-0.3, 0.2]], f32)
A1 = np.array([[0.6, 0.5], [0.2, 0.6], [0.3, 0.1]], f32)
A2 = np.array([[0.9, 0.1], [0.7, 0.8], [0.4, 0.5]], f32)
A3 = np.array([[0.2, 0.3], [0.5, 0.1], [0.6, 0.9]], f32)
LIN = A3 - f32(0.3)
G = np.array([[0.3, -0.7], [0.1, 0.8], [-0.2, 0.5]], f32)
GS = G[:2]
IDX = np.array([2, 0], np.int32)
IDX_ALL = np.array([2, 0, 1], np.int32)
IDX_TWICE = np.array([2, 0, 2], np.int32)
STAT = np.array([[1, 0], [1, 1], [0, 1]], f32)


def s(x):
    return np.array(x, f32)


def _moments(m, v, g, b1, b2):
    return b1 * m + (1 - b1) * g, b2 * v + (1 - b2) * g * g


def adam(p, a, nesterov=False):
    b1p, b2p, lr, b1, b2, eps, g = a
    m, v = _moments(p["m"], p["v"], g, b1, b2)
    step = lr * np.sqrt(1 - b2p) / (1 - b1p)
    d = b1 * m + (1 - b1) * g if nesterov else m
    var = p["var"] - step * d / (np.sqrt(v) + eps)
    return dict(var=var, m=m, v=v), (var, m, v)


def adam_no_update(p, a):
    b1p, b2p, lr, b1, b2, eps, g = a
    m, v = _moments(p["m"], p["v"], g, b1, b2)
    return dict(m=m, v=v), (-lr * np.sqrt(1 - b2p) / (1 - b1p) * m / (np.sqrt(v) + eps),)


def adamw(p, a):
    lr, b1, b2, eps, decay, g = a
    m, v = _moments(p["m"], p["v"], g, b1, b2)
    var = p["var"] - lr * (m / (np.sqrt(v) + eps) + decay * p["var"])
    return dict(var=var, m=m, v=v), (var, m, v)


def ada_max(p, a):
    b1p, lr, b1, b2, eps, g = a
    m = b1 * p["m"] + (1 - b1) * g
    v = np.maximum(b2 * p["v"], np.abs(g))
    var = p["var"] - lr / (1 - b1p) * m / (v + eps)
    return dict(var=var, m=m, v=v), (var, m, v)


def adadelta_rows(var, accum, au, lr, rho, eps, g):
    accum = rho * accum + (1 - rho) * g * g
    u = np.sqrt(au + eps) / np.sqrt(accum + eps) * g
    return var - lr * u, accum, rho * au + (1 - rho) * u * u


def adadelta(p, a):
    lr, rho, eps, g = a
    var, accum, au = adadelta_rows(p["var"], p["accum"], p["accum_update"], lr, rho, eps, g)
    return dict(var=var, accum=accum, accum_update=au), (var, accum, au)


def adagrad(p, a, eps=None, slots=True):
    lr, g = a
    accum = p["accum"] + g * g if slots else p["accum"]
    root = np.sqrt(accum) if eps is None else np.sqrt(accum) + eps
    var = p["var"] - lr * g / root
    return dict(var=var, accum=accum), (var, accum)


def adagrad_da(p, a):
    g, lr, l1, l2, step = a
    ga, gsa = p["ga"] + g, p["gsa"] + g * g
    tmp = np.sign(ga) * np.maximum(np.abs(ga) - l1 * step, 0) if l1 > 0 else ga
    var = -lr * tmp / (l2 * step * lr + np.sqrt(gsa))
    return dict(var=var, ga=ga, gsa=gsa), (var,)


def amsgrad(p, a, b1=None, b2=None, eps=None):
    if b1 is None:
        b1p, b2p, lr, b1, b2, eps, g = a
    else:
        b1p, b2p, lr, g = a
    m, v = _moments(p["m"], p["v"], g, b1, b2)
    vhat = np.maximum(p["vhat"], v)
    var = p["var"] - lr * np.sqrt(1 - b2p) / (1 - b1p) * m / (np.sqrt(vhat) + eps)
    return dict(var=var, m=m, v=v, vhat=vhat), (var, m, v, vhat)


def sign_method(p, a, power):
    lr, base, decay, beta, g = a
    m = beta * p["m"] + (1 - beta) * g
    agree = decay * np.sign(g) * np.sign(m)
    scale = np.exp(base * agree) if power else base + agree
    var = p["var"] - lr * scale * g
    return dict(var=var, m=m), (var, m)


def rms_prop(p, a, centered):
    if centered:
        g, lr, decay, momentum, eps = a
    else:
        lr, g, decay, momentum, eps = a
    ms = decay * p["ms"] + (1 - decay) * g * g
    out = {}
    second = ms
    if centered:
        out["mg"] = decay * p["mg"] + (1 - decay) * g
        second = ms - out["mg"] ** 2
    mom = momentum * p["mom"] + lr * g / np.sqrt(second + eps)
    out.update(var=p["var"] - mom, ms=ms, mom=mom)
    return out, (out["var"],)


def ftrl_rows(var, accum, linear, g, lr, l1, l2, lr_power, shrinkage=0.0):
    new_accum = accum + g * g
    linear = linear + g + 2 * shrinkage * var - \
        (new_accum ** -lr_power - accum ** -lr_power) / lr * var
    quadratic = new_accum ** -lr_power / lr + 2 * l2
    new_var = np.where(np.abs(linear) > l1, (np.sign(linear) * l1 - linear) / quadratic, 0.0)
    return new_var, new_accum, linear


def ftrl(p, a):
    g, lr, l1, l2, lr_power = a
    var, accum, linear = ftrl_rows(p["var"], p["accum"], p["linear"], g, lr, l1, l2, lr_power)
    return dict(var=var, accum=accum, linear=linear), (var,)


def proximal(prox, lr, l1, l2):
    return np.sign(prox) / (1 + lr * l2) * np.maximum(np.abs(prox) - lr * l1, 0)


def proximal_adagrad_rows(var, accum, lr, l1, l2, g):
    """Proximal Adagrad with the per-element rate lr / sqrt(accum) in the proximal step, as
    MindSpore's (and TensorFlow's) kernels compute it."""
    accum = accum + g * g
    rate = lr / np.sqrt(accum)
    return proximal(var - rate * g, rate, l1, l2), accum


def momentum(p, a, nesterov=False):
    lr, g, mom = a
    accum = p["accum"] * mom + g
    var = p["var"] - lr * (g + mom * accum if nesterov else accum)
    return dict(var=var, accum=accum), (var,)


def keras_momentum(p, a, nesterov=False):
    lr, g, mom = a
    accum = p["accum"] * mom - g * lr
    var = p["var"] + (accum * mom - g * lr if nesterov else accum)
    return dict(var=var, accum=accum), (var, accum)


def sgd(p, a, dampening=0.0, weight_decay=0.0, nesterov=False):
    g, lr, mom = a
    g = g + weight_decay * p["var"]
    accum = np.where(p["stat"] > 0, g, mom * p["accum"] + (1 - dampening) * g)
    var = p["var"] - lr * (g + mom * accum if nesterov else accum)
    return dict(var=var, accum=accum, stat=np.zeros_like(p["stat"])), (var,)


def dense_grad(shape, g, idx):
    """The sparse gradient as a dense one (repeated rows summed) and the rows it names."""
    dense = np.zeros(shape, np.float64)
    np.add.at(dense, idx, g)
    named = np.zeros(shape[0], bool)
    named[idx] = True
    return dense, named[:, None]


def sparse(rule, names, grad_at, idx_at):
    """A reference on rows: ``rule(*params in names order, dense grad, rest)`` computed on
    every row, kept on the rows the gradient names."""
    def reference(p, a, **kw):
        a = list(a)
        idx, g = a.pop(idx_at), a.pop(grad_at)
        dense, named = dense_grad(p["var"].shape, g, idx)
        new = rule(*[p[n] for n in names], dense, *a, **kw)
        out = {n: np.where(named, x, p[n]) for n, x in zip(names, new)}
        return out, tuple(out[n] for n in names)
    return reference


def fused_sparse_adam(p, a, lazy, nesterov=False):
    b1p, b2p, lr, b1, b2, eps, g, idx = a
    g, named = dense_grad(p["var"].shape, g, idx)
    m, v = _moments(p["m"], p["v"], g, b1, b2)
    d = b1 * m + (1 - b1) * g if nesterov else m
    if nesterov and not lazy:
        d = np.where(named, d, 0.0)
    var = p["var"] - lr * np.sqrt(1 - b2p) / (1 - b1p) * d / (np.sqrt(v) + eps)
    out = dict(var=var, m=m, v=v)
    if lazy:
        out = {k: np.where(named, x, p[k]) for k, x in out.items()}
    return out, (out["var"], out["m"], out["v"])


def lars(p, a, eps=1e-5, hyper=0.001, clip=False):
    w, g, w2, g2, wd, lr = a
    c = hyper * np.sqrt(w2) / (np.sqrt(g2) + wd * np.sqrt(w2) + eps)
    if clip:
        c = np.clip(c / lr, 0, 1)
    return {}, (c * (g + wd * w),)


def ada_factor(p, a, scale=False, first=False, decay=False):
    """Adafactor as MindSpore's kernel for a 2-D param (factored second moment)."""
    eps, clip, b1, b2, wd, lr, g = a[:7]
    if len(a) > 7:
        g = g / a[7]
    sq = g * g + eps[0]
    row = b2 * p["row"] + (1 - b2) * sq.mean(1)
    col = np.maximum(b2 * p["col"] + (1 - b2) * sq.mean(0), 1e-30)
    r = np.sqrt(row / max(row.mean(), 1e-30))
    u = g / np.maximum(r[:, None] * np.sqrt(col)[None, :], 1e-30)
    if scale:
        lr = lr * max(eps[1], np.sqrt((p["param"] ** 2).mean()))
    u = u * lr / max(np.sqrt((u ** 2).mean()) / clip, 1.0)
    out = dict(row=row, col=col)
    if first:
        u = b1 * p["exp_avg"] + (1 - b1) * u
        out["exp_avg"] = u
    if decay:
        u = u + p["param"] * wd * lr
    out["param"] = p["param"] - u
    return out, (out["param"],)


def cast_adamw(p, a):
    lr, b1, b2, eps, decay, g, norm = a
    new, _ = adamw(dict(var=p["var"].astype(np.float64), m=p["m"], v=p["v"]),
                   (lr, b1, b2, eps, decay, g.astype(np.float64) / norm))
    new["var"] = new["var"].astype(np.float16)
    return new, (new["var"], new["m"], new["v"])


def weight_scale_momentum(p, a):
    wd, scale, lr, g, mom = a
    return momentum(p, (lr, g * scale + wd * p["var"], mom))


def _partial(fn, **kw):
    return lambda p, a: fn(p, a, **kw)


def cases():
    sc = s
    adam_in = ["var", "m", "v", sc(0.9), sc(0.999), sc(0.01), sc(0.9), sc(0.999), sc(1e-8), G]
    mv = [("var", VAR), ("m", A1), ("v", A2)]
    ftrl_attrs = dict(lr=0.01, l1=0.05, l2=0.02, lr_power=-0.5)
    sparse_adagrad = sparse(lambda var, accum, g, lr, eps=None, slots=True: adagrad(
        dict(var=var, accum=accum), (lr, g), eps, slots)[1], ("var", "accum"), 0, 1)
    sparse_ftrl = sparse(ftrl_rows, ("var", "accum", "linear"), 0, 1)
    fused_in = ["var", "m", "v", sc([0.9]), sc([0.999]), sc([0.01]), sc([0.9]), sc([0.999]),
                sc([1e-8]), G, IDX_TWICE]
    ada_params = [("param", VAR), ("exp_avg", A1 * 0.1), ("row", A1[:, 0] * 0.1),
                  ("col", A2[0] * 0.1), ("sq", np.zeros_like(VAR))]
    ada_in = [np.array([1e-30, 1e-3], f32), 1.0, 0.9, 0.8, 0.01, 0.1, G, "param", "exp_avg",
              "row", "col", "sq"]
    return [
        ("adam", "Adam", {}, mv, adam_in, adam),
        ("adam-nesterov", "Adam", {"use_nesterov": True}, mv, adam_in,
         _partial(adam, nesterov=True)),
        ("adam-no-update", "AdamNoUpdateParam", {}, mv[1:], adam_in[1:], adam_no_update),
        ("adamw", "AdamWeightDecay", {}, mv, ["var", "m", "v", 0.01, 0.9, 0.999, 1e-8, 0.1, G],
         adamw),
        ("adamax", "ApplyAdaMax", {}, mv,
         ["var", "m", "v", sc(0.9), sc(0.01), sc(0.9), sc(0.99), sc(1e-10), G], ada_max),
        ("adadelta", "ApplyAdadelta", {}, [("var", VAR), ("accum", A1), ("accum_update", A2)],
         ["var", "accum", "accum_update", sc(0.01), sc(0.9), sc(1e-6), G], adadelta),
        ("adagrad", "ApplyAdagrad", {}, [("var", VAR), ("accum", A1)],
         ["var", "accum", sc(0.01), G], adagrad),
        ("adagrad-da", "ApplyAdagradDA", {}, [("var", VAR), ("ga", LIN), ("gsa", A1)],
         ["var", "ga", "gsa", G, sc(0.01), sc(0.05), sc(0.02), np.array(2, np.int32)],
         adagrad_da),
        ("adagrad-v2", "ApplyAdagradV2", {"epsilon": 1e-3}, [("var", VAR), ("accum", A1)],
         ["var", "accum", sc(0.01), G], _partial(adagrad, eps=1e-3)),
        ("adagrad-v2-no-slots", "ApplyAdagradV2", {"epsilon": 1e-3, "update_slots": False},
         [("var", VAR), ("accum", A1)], ["var", "accum", sc(0.01), G],
         _partial(adagrad, eps=1e-3, slots=False)),
        ("amsgrad", "ApplyAdamWithAmsgrad", {"beta1": 0.8, "beta2": 0.9, "epsilon": 1e-3},
         mv + [("vhat", A3)], ["var", "m", "v", "vhat", sc(0.9), sc(0.999), sc(0.01), G],
         _partial(amsgrad, b1=0.8, b2=0.9, eps=1e-3)),
        ("amsgrad-v2", "ApplyAdamWithAmsgradV2", {}, mv + [("vhat", A3)],
         ["var", "m", "v", "vhat", sc(0.9), sc(0.999), sc(0.01), sc(0.8), sc(0.9), sc(1e-3), G],
         amsgrad),
        ("add-sign", "ApplyAddSign", {}, [("var", VAR), ("m", A1 - f32(0.4))],
         ["var", "m", sc(0.01), sc(1.0), sc(0.5), sc(0.9), G], _partial(sign_method, power=False)),
        ("power-sign", "ApplyPowerSign", {}, [("var", VAR), ("m", A1 - f32(0.4))],
         ["var", "m", sc(0.01), sc(np.e), sc(0.5), sc(0.9), G],
         _partial(sign_method, power=True)),
        ("centered-rmsprop", "ApplyCenteredRMSProp", {},
         [("var", VAR), ("mg", A3 * f32(0.1)), ("ms", A1), ("mom", A2)],
         ["var", "mg", "ms", "mom", G, sc(0.01), 0.9, 0.8, 1e-6],
         _partial(rms_prop, centered=True)),
        ("ftrl", "ApplyFtrl", {}, [("var", VAR), ("accum", A1), ("linear", LIN)],
         ["var", "accum", "linear", G, sc(0.01), sc(0.05), sc(0.02), sc(-0.5)], ftrl),
        ("gradient-descent", "ApplyGradientDescent", {}, [("var", VAR)], ["var", sc(0.01), G],
         lambda p, a: ((lambda v: (dict(var=v), (v,)))(p["var"] - a[0] * a[1]))),
        ("keras-momentum", "ApplyKerasMomentum", {"use_nesterov": True},
         [("var", VAR), ("accum", A1)], ["var", "accum", sc(0.01), G, sc(0.9)],
         _partial(keras_momentum, nesterov=True)),
        ("momentum", "ApplyMomentum", {}, [("var", VAR), ("accum", A1)],
         ["var", "accum", sc(0.01), G, sc(0.9)], momentum),
        ("momentum-nesterov", "ApplyMomentum", {"use_nesterov": True},
         [("var", VAR), ("accum", A1)], ["var", "accum", sc(0.01), G, sc(0.9)],
         _partial(momentum, nesterov=True)),
        ("proximal-adagrad", "ApplyProximalAdagrad", {}, [("var", VAR), ("accum", A1)],
         ["var", "accum", sc(0.01), sc(0.05), sc(0.02), G],
         lambda p, a: ((lambda n: (dict(var=n[0], accum=n[1]), n))(
             proximal_adagrad_rows(p["var"], p["accum"], *a)))),
        ("proximal-gd", "ApplyProximalGradientDescent", {}, [("var", VAR)],
         ["var", sc(0.01), sc(0.05), sc(0.02), G],
         lambda p, a: ((lambda v: (dict(var=v), (v,)))(
             proximal(p["var"] - a[0] * a[3], a[0], a[1], a[2])))),
        ("rmsprop", "ApplyRMSProp", {}, [("var", VAR), ("ms", A1), ("mom", A2)],
         ["var", "ms", "mom", sc(0.01), G, 0.9, 0.8, 1e-6], _partial(rms_prop, centered=False)),
        ("sgd", "SGD", {"dampening": 0.1, "weight_decay": 0.05},
         [("var", VAR), ("accum", A1), ("stat", STAT)],
         ["var", G, sc(0.01), "accum", sc(0.9), "stat"],
         _partial(sgd, dampening=0.1, weight_decay=0.05)),
        ("sgd-nesterov", "SGD", {"nesterov": True, "weight_decay": 0.05},
         [("var", VAR), ("accum", A1), ("stat", STAT)],
         ["var", G, sc(0.01), "accum", sc(0.9), "stat"],
         _partial(sgd, weight_decay=0.05, nesterov=True)),
        ("sparse-adadelta", "SparseApplyAdadelta", {"epsilon": 1e-6},
         [("var", VAR), ("accum", A1), ("accum_update", A2)],
         ["var", "accum", "accum_update", sc(0.01), sc(0.9), G, IDX_ALL],
         lambda p, a: sparse(lambda var, accum, au, g, lr, rho, eps: adadelta_rows(
             var, accum, au, lr, rho, eps, g), ("var", "accum", "accum_update"), 2, 3)(
             p, list(a) + [1e-6])),
        ("sparse-adagrad", "SparseApplyAdagrad", {"lr": 0.01}, [("var", VAR), ("accum", A1)],
         ["var", "accum", G, IDX_TWICE], lambda p, a: sparse_adagrad(p, list(a) + [0.01])),
        ("sparse-adagrad-v2", "SparseApplyAdagradV2",
         {"lr": 0.01, "epsilon": 1e-3, "update_slots": False}, [("var", VAR), ("accum", A1)],
         ["var", "accum", GS, IDX], lambda p, a: sparse_adagrad(p, list(a) + [0.01, 1e-3, False])),
        ("sparse-ftrl", "SparseApplyFtrl", ftrl_attrs,
         [("var", VAR), ("accum", A1), ("linear", LIN)], ["var", "accum", "linear", GS, IDX],
         lambda p, a: sparse_ftrl(p, list(a) + [0.01, 0.05, 0.02, -0.5])),
        ("sparse-ftrl-v2", "SparseApplyFtrlV2", dict(ftrl_attrs, l2_shrinkage=0.1),
         [("var", VAR), ("accum", A1), ("linear", LIN)], ["var", "accum", "linear", GS, IDX],
         lambda p, a: sparse_ftrl(p, list(a) + [0.01, 0.05, 0.02, -0.5, 0.1])),
        ("sparse-proximal-adagrad", "SparseApplyProximalAdagrad", {},
         [("var", VAR), ("accum", A1)], ["var", "accum", sc(0.01), sc(0.05), sc(0.02), GS, IDX],
         sparse(lambda var, accum, g, lr, l1, l2: proximal_adagrad_rows(var, accum, lr, l1, l2, g),
                ("var", "accum"), 3, 4)),
        ("sparse-rmsprop", "SparseApplyRMSProp", {"rho": 0.9, "momentum": 0.8, "epsilon": 1e-6},
         [("var", VAR), ("ms", A1), ("mom", A2)], ["var", "ms", "mom", sc(0.01), G, IDX_ALL],
         sparse(lambda var, ms, mom, g, lr: (lambda o: (o[0]["var"], o[0]["ms"], o[0]["mom"]))(
             rms_prop(dict(var=var, ms=ms, mom=mom), (lr, g, 0.9, 0.8, 1e-6), False)),
             ("var", "ms", "mom"), 1, 2)),
        ("fused-sparse-adam", "FusedSparseAdam", {}, mv, fused_in,
         _partial(fused_sparse_adam, lazy=False)),
        ("fused-sparse-adam-nesterov", "FusedSparseAdam", {"use_nesterov": True}, mv, fused_in,
         _partial(fused_sparse_adam, lazy=False, nesterov=True)),
        ("fused-sparse-lazy-adam", "FusedSparseLazyAdam", {}, mv, fused_in,
         _partial(fused_sparse_adam, lazy=True)),
        ("fused-sparse-ftrl", "FusedSparseFtrl", ftrl_attrs,
         [("var", VAR), ("accum", A1), ("linear", LIN)],
         ["var", "accum", "linear", G, IDX_TWICE],
         lambda p, a: sparse_ftrl(p, list(a) + [0.01, 0.05, 0.02, -0.5])),
        ("fused-sparse-proximal-adagrad", "FusedSparseProximalAdagrad", {},
         [("var", VAR), ("accum", A1)],
         ["var", "accum", sc(0.01), sc(0.05), sc(0.02), G, IDX_TWICE],
         sparse(lambda var, accum, g, lr, l1, l2: proximal_adagrad_rows(var, accum, lr, l1, l2, g),
                ("var", "accum"), 3, 4)),
        ("lars", "LARSUpdate", {"use_clip": True}, [],
         [VAR, G, sc((VAR ** 2).sum()), sc((G ** 2).sum()), sc(0.05), sc(0.1)],
         _partial(lars, clip=True)),
        ("ada-factor", "FusedAdaFactor", {}, ada_params, ada_in, ada_factor),
        ("ada-factor-all", "FusedAdaFactor", {"enable_scale_parameter": True,
                                               "enable_first_moment": True,
                                               "enable_weight_decay": True},
         ada_params, ada_in, _partial(ada_factor, scale=True, first=True, decay=True)),
        ("ada-factor-norm", "FusedAdaFactorWithGlobalNorm", {"enable_weight_decay": True},
         ada_params, ada_in + [sc(2.0)], _partial(ada_factor, decay=True)),
        ("cast-adamw", "FusedCastAdamWeightDecay", {},
         [("var", VAR.astype(np.float16)), ("m", A1), ("v", A2)],
         ["var", "m", "v", sc(0.01), sc(0.9), sc(0.999), sc(1e-8), sc(0.1),
          G.astype(np.float16), sc(2.0)], cast_adamw),
        ("weight-scale-momentum", "FusedWeightScaleApplyMomentum", {},
         [("var", VAR), ("accum", A1)],
         [sc(0.05), sc(0.5), "var", "accum", sc(0.01), G, sc(0.9)], weight_scale_momentum),
        ("assign-add", "AssignAdd", {}, [("var", VAR)], ["var", G],
         lambda p, a: (dict(var=p["var"] + a[0]), (p["var"] + a[0],))),
        ("assign-sub", "AssignSub", {}, [("var", VAR)], ["var", G],
         lambda p, a: (dict(var=p["var"] - a[0]), (p["var"] - a[0],))),
    ]
