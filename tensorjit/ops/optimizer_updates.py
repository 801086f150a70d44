"""MindSpore's optimizer-update operator classes (``ops.ApplyMomentum``, ``ops.Adam``, ...):
each computes new values of a Parameter and its state Parameters (accumulators, moments)
with ops, writes them with ``assign_value`` -- eagerly, or as the capture's in-place
update of the Parameter inside ``jit``, the same mechanism as ``ops.assign`` and the
``Scatter*`` classes -- and returns the new values.

The update rules are written once here (``adam_moments``, ``adagrad``, ``proximal``,
``ftrl``, ...) and shared by the dense classes below and by the sparse and fused ones of
``sparse_optimizer_updates.py``. Hyper-parameters (Python numbers or scalar tensors) take
the dtype of ``var``, as MindSpore's implicit conversion does.

Where MindSpore 2.10's CPU kernel departs from its documentation, the documentation is
followed and the difference is stated: ``ApplyMomentum``'s CPU kernel ignores
``use_nesterov``, ``ApplyAdagrad``'s ignores ``update_slots``, ``ApplyFtrl``'s shrinks a
negative ``linear`` by +l1 and ``ApplyAdagradDA``'s a negative accumulator by -l1 t (away
from zero; ``SparseApplyFtrl``'s kernel and the formulas agree with these classes); ``Adam``,
``AdamWeightDecay`` and ``ApplyCenteredRMSProp`` return zeros there and ``ApplyRMSProp``
uninitialised memory, where the documentation (and these classes) return the new values.
"""
import numbers

from .. import dtype as dt
from ..tensor import Tensor
from . import elementwise as E
from . import shape as S

FLOATS = (dt.float16, dt.float32, dt.float64)


# ---- checks shared by every class ------------------------------------------------------

def check_attributes(op, attrs, floats=(), bools=(), positive=(), non_negative=(),
                     non_positive=()):
    """MindSpore's constructor checks: TypeError for a wrong type, ValueError for a value
    out of range."""
    for name in bools:
        if not isinstance(attrs[name], bool):
            raise TypeError(f"For '{op}', the type of '{name}' must be bool, "
                            f"but got {type(attrs[name]).__name__}.")
    for name in floats:
        if not isinstance(attrs[name], float):
            raise TypeError(f"For '{op}', the type of '{name}' must be float, "
                            f"but got {type(attrs[name]).__name__}.")
    for names, ok, rule in ((positive, lambda v: v > 0, "> 0"),
                            (non_negative, lambda v: v >= 0, ">= 0"),
                            (non_positive, lambda v: v <= 0, "<= 0")):
        for name in names:
            if not ok(attrs[name]):
                raise ValueError(f"For '{op}', '{name}' must be {rule}, got {attrs[name]}.")


def validated(compute, **rules):
    """``compute`` with the constructor checks ``check_attributes(**rules)`` attached (the
    operator-class factory runs them when an instance is made)."""
    compute.validate_attributes = lambda op, attrs: check_attributes(op, attrs, **rules)
    return compute


def state(op, name, x, like=None, dtypes=FLOATS):
    """A tensor operand (var, a state, a gradient): float, shaped like ``like``."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{op}', '{name}' must be a Tensor or Parameter, "
                        f"but got {type(x).__name__}.")
    if x.dtype not in dtypes:
        raise TypeError(f"For '{op}', the dtype of '{name}' must be one of "
                        f"{[str(d) for d in dtypes]}, but got {x.dtype}.")
    if like is not None and tuple(x.shape) != tuple(like.shape):
        raise ValueError(f"For '{op}', the shape of '{name}' must be the same as 'var' "
                         f"{tuple(like.shape)}, but got {tuple(x.shape)}.")
    return x


def hyper(op, name, value, dtype):
    """A scalar hyper-parameter (a Python number or a tensor of one element) in ``dtype``."""
    if isinstance(value, Tensor):
        if value.size != 1:
            raise ValueError(f"For '{op}', '{name}' must be a scalar, but got shape "
                             f"{tuple(value.shape)}.")
        return E.cast(S.reshape(value, ()), dtype)
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return Tensor(value, dtype)
    raise TypeError(f"For '{op}', '{name}' must be a Number or a Tensor, "
                    f"but got {type(value).__name__}.")


def write(*pairs):
    """Assign each new value to its Parameter; returns the new values in order."""
    for target, value in pairs:
        target.assign_value(value)
    return tuple(value for _, value in pairs)


# ---- update rules, written once --------------------------------------------------------

def adam_moments(m, v, g, beta1, beta2):
    """m = beta1 m + (1 - beta1) g;  v = beta2 v + (1 - beta2) g^2."""
    return (E.add(E.mul(m, beta1), E.mul(g, E.sub(1.0, beta1))),
            E.add(E.mul(v, beta2), E.mul(E.square(g), E.sub(1.0, beta2))))


def adam_step(lr, beta1_power, beta2_power):
    """lr sqrt(1 - beta2^t) / (1 - beta1^t): Adam's bias-corrected step size."""
    return E.div(E.mul(lr, E.sqrt(E.sub(1.0, beta2_power))), E.sub(1.0, beta1_power))


def adam_direction(m, g, beta1, nesterov):
    """m, or with Nesterov's look-ahead beta1 m + (1 - beta1) g."""
    return E.add(E.mul(m, beta1), E.mul(g, E.sub(1.0, beta1))) if nesterov else m


def adagrad(var, accum, lr, g, epsilon=None, update_slots=True):
    """accum += g^2 (if update_slots);  var -= lr g / (sqrt(accum) [+ epsilon])."""
    new_accum = E.add(accum, E.square(g)) if update_slots else accum
    root = E.sqrt(new_accum)
    root = root if epsilon is None else E.add(root, epsilon)
    return E.sub(var, E.div(E.mul(g, lr), root)), new_accum


def proximal(prox, lr, l1, l2):
    """sign(prox) / (1 + lr l2) * max(|prox| - lr l1, 0): the proximal step of FOBOS."""
    shrunk = E.maximum(E.sub(E.abs(prox), E.mul(lr, l1)), E.zeros_like(prox))
    return E.mul(E.div(E.sign(prox), E.add(1.0, E.mul(lr, l2))), shrunk)


def ftrl(var, accum, linear, g, lr, l1, l2, lr_power, l2_shrinkage=None):
    """FTRL-proximal (McMahan et al.), with TensorFlow's optional L2 shrinkage:
    accum' = accum + g^2;  linear += g' - (accum'^-p - accum^-p) / lr * var  (g' = g +
    2 l2_shrinkage var);  var = (sign(linear) l1 - linear) / (accum'^-p / lr + 2 l2)
    where |linear| > l1, else 0."""
    new_accum = E.add(accum, E.square(g))
    power = E.neg(lr_power)
    new_root, old_root = E.pow(new_accum, power), E.pow(accum, power)
    shrunk = g if l2_shrinkage is None else E.add(g, E.mul(E.mul(var, l2_shrinkage), 2.0))
    new_linear = E.sub(E.add(linear, shrunk), E.mul(E.div(E.sub(new_root, old_root), lr), var))
    quadratic = E.add(E.div(new_root, lr), E.mul(l2, 2.0))
    value = E.div(E.sub(E.mul(E.sign(new_linear), l1), new_linear), quadratic)
    new_var = E.where(E.greater(E.abs(new_linear), l1), value, E.zeros_like(value))
    return new_var, new_accum, new_linear


def rmsprop(var, mean_square, moment, g, lr, decay, momentum, epsilon, mean_gradient=None):
    """ms = decay ms + (1 - decay) g^2;  (centered: mg = decay mg + (1 - decay) g, and ms
    - mg^2 under the root);  mom = momentum mom + lr g / sqrt(. + epsilon);  var -= mom."""
    keep = E.sub(1.0, decay)
    new_ms = E.add(E.mul(mean_square, decay), E.mul(E.square(g), keep))
    second = new_ms
    new_mg = None
    if mean_gradient is not None:
        new_mg = E.add(E.mul(mean_gradient, decay), E.mul(g, keep))
        second = E.sub(new_ms, E.square(new_mg))
    new_mom = E.add(E.mul(moment, momentum), E.div(E.mul(g, lr), E.sqrt(E.add(second, epsilon))))
    return E.sub(var, new_mom), new_ms, new_mom, new_mg


def adadelta(var, accum, accum_update, g, lr, rho, epsilon):
    """accum = rho accum + (1 - rho) g^2;  u = sqrt(accum_update + eps) g / sqrt(accum +
    eps);  accum_update = rho accum_update + (1 - rho) u^2;  var -= lr u."""
    keep = E.sub(1.0, rho)
    new_accum = E.add(E.mul(accum, rho), E.mul(E.square(g), keep))
    update = E.mul(E.div(E.sqrt(E.add(accum_update, epsilon)),
                         E.sqrt(E.add(new_accum, epsilon))), g)
    new_update = E.add(E.mul(accum_update, rho), E.mul(E.square(update), keep))
    return E.sub(var, E.mul(update, lr)), new_accum, new_update


def momentum_update(var, accum, lr, g, momentum, nesterov):
    """accum = momentum accum + g;  var -= lr accum  (Nesterov: lr (g + momentum accum))."""
    new_accum = E.add(E.mul(accum, momentum), g)
    step = E.add(g, E.mul(new_accum, momentum)) if nesterov else new_accum
    return E.sub(var, E.mul(step, lr)), new_accum


# ---- the dense classes: (var, states..., hyper-parameters..., grad) --------------------

def _float_inputs(op, var, named_states, grad_name, grad):
    var = state(op, "var", var)
    states = [state(op, name, s, var) for name, s in named_states]
    return var, states, state(op, grad_name, grad, var)


def compute_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient,
                 *, use_locking, use_nesterov):
    """Adam: new var, m, v (m, v the moments; lr scaled by Adam's bias correction)."""
    op = "Adam"
    var, (m, v), g = _float_inputs(op, var, (("m", m), ("v", v)), "gradient", gradient)
    h = {k: hyper(op, k, x, var.dtype) for k, x in dict(
        beta1_power=beta1_power, beta2_power=beta2_power, lr=lr, beta1=beta1, beta2=beta2,
        epsilon=epsilon).items()}
    new_m, new_v = adam_moments(m, v, g, h["beta1"], h["beta2"])
    step = adam_step(h["lr"], h["beta1_power"], h["beta2_power"])
    update = E.div(adam_direction(new_m, g, h["beta1"], use_nesterov),
                   E.add(E.sqrt(new_v), h["epsilon"]))
    return write((var, E.sub(var, E.mul(update, step))), (m, new_m), (v, new_v))


def compute_adam_no_update_param(m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                                 gradient, *, use_locking, use_nesterov):
    """Adam's moments updated in place; returns the change to add to the parameter."""
    op = "AdamNoUpdateParam"
    m = state(op, "m", m, dtypes=(dt.float32,))
    v = state(op, "v", v, m, dtypes=(dt.float32,))
    g = state(op, "gradient", gradient, m, dtypes=(dt.float32,))
    h = {k: hyper(op, k, x, m.dtype) for k, x in dict(
        beta1_power=beta1_power, beta2_power=beta2_power, lr=lr, beta1=beta1, beta2=beta2,
        epsilon=epsilon).items()}
    new_m, new_v = adam_moments(m, v, g, h["beta1"], h["beta2"])
    step = adam_step(h["lr"], h["beta1_power"], h["beta2_power"])
    update = E.div(adam_direction(new_m, g, h["beta1"], use_nesterov),
                   E.add(E.sqrt(new_v), h["epsilon"]))
    write((m, new_m), (v, new_v))
    return E.neg(E.mul(update, step))


def adam_weight_decay(var, m, v, g, lr, beta1, beta2, epsilon, decay):
    """AdamW: var -= lr (m / (sqrt(v) + eps) + decay var), with the new moments."""
    new_m, new_v = adam_moments(m, v, g, beta1, beta2)
    update = E.add(E.div(new_m, E.add(E.sqrt(new_v), epsilon)), E.mul(var, decay))
    return E.sub(var, E.mul(update, lr)), new_m, new_v


def compute_adam_weight_decay(var, m, v, lr, beta1, beta2, epsilon, decay, gradient, *,
                              use_locking):
    """AdamWeightDecay: new var, m, v."""
    op = "AdamWeightDecay"
    var, (m, v), g = _float_inputs(op, var, (("m", m), ("v", v)), "gradient", gradient)
    h = [hyper(op, k, x, var.dtype) for k, x in
         (("lr", lr), ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon), ("decay", decay))]
    new = adam_weight_decay(var, m, v, g, *h)
    return write(*zip((var, m, v), new))


def compute_apply_ada_max(var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
    """AdaMax: m = beta1 m + (1 - beta1) g;  v = max(beta2 v, |g|);  var -= lr / (1 -
    beta1^t) m / (v + eps)."""
    op = "ApplyAdaMax"
    var, (m, v), g = _float_inputs(op, var, (("m", m), ("v", v)), "grad", grad)
    b1p, lr, b1, b2, eps = (hyper(op, k, x, var.dtype) for k, x in (
        ("beta1_power", beta1_power), ("lr", lr), ("beta1", beta1), ("beta2", beta2),
        ("epsilon", epsilon)))
    new_m = adam_moments(m, m, g, b1, b1)[0]
    new_v = E.maximum(E.mul(v, b2), E.abs(g))
    step = E.div(lr, E.sub(1.0, b1p))
    new_var = E.sub(var, E.mul(step, E.div(new_m, E.add(new_v, eps))))
    return write((var, new_var), (m, new_m), (v, new_v))


def compute_apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad):
    """Adadelta: new var, accum, accum_update."""
    op = "ApplyAdadelta"
    var, (accum, accum_update), g = _float_inputs(
        op, var, (("accum", accum), ("accum_update", accum_update)), "grad", grad)
    lr, rho, eps = (hyper(op, k, x, var.dtype) for k, x in
                    (("lr", lr), ("rho", rho), ("epsilon", epsilon)))
    new = adadelta(var, accum, accum_update, g, lr, rho, eps)
    return write(*zip((var, accum, accum_update), new))


def compute_apply_adagrad(var, accum, lr, grad, *, update_slots, epsilon=None):
    """Adagrad (V2: epsilon added to the root): new var, accum."""
    op = "ApplyAdagrad" if epsilon is None else "ApplyAdagradV2"
    var, (accum,), g = _float_inputs(op, var, (("accum", accum),), "grad", grad)
    lr = hyper(op, "lr", lr, var.dtype)
    eps = None if epsilon is None else hyper(op, "epsilon", epsilon, var.dtype)
    new_var, new_accum = adagrad(var, accum, lr, g, eps, update_slots)
    return write((var, new_var), (accum, new_accum))


def compute_apply_adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad,
                             lr, l1, l2, global_step, *, use_locking):
    """Adagrad dual averaging: var = -lr shrink(sum g, l1 t) / (l2 t lr + sqrt(sum g^2))."""
    op = "ApplyAdagradDA"
    var, (ga, gsa), g = _float_inputs(op, var, (("gradient_accumulator", gradient_accumulator),
                                                ("gradient_squared_accumulator",
                                                 gradient_squared_accumulator)), "grad", grad)
    lr, l1, l2 = (hyper(op, k, x, var.dtype) for k, x in (("lr", lr), ("l1", l1), ("l2", l2)))
    if isinstance(global_step, Tensor) and global_step.dtype not in (dt.int32, dt.int64):
        raise TypeError(f"For '{op}', the dtype of 'global_step' must be int32 or int64, "
                        f"but got {global_step.dtype}.")
    step = hyper(op, "global_step", global_step, var.dtype)
    new_ga, new_gsa = E.add(ga, g), E.add(gsa, E.square(g))
    shrunk = E.mul(E.sign(new_ga), E.maximum(E.sub(E.abs(new_ga), E.mul(l1, step)),
                                             E.zeros_like(new_ga)))
    tmp = E.where(E.greater(l1, 0.0), shrunk, new_ga)
    denominator = E.add(E.mul(E.mul(l2, step), lr), E.sqrt(new_gsa))
    new_var = E.div(E.neg(E.mul(tmp, lr)), denominator)
    write((var, new_var), (ga, new_ga), (gsa, new_gsa))
    return (new_var,)


def _amsgrad(op, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    var, (m, v, vhat), g = _float_inputs(op, var, (("m", m), ("v", v), ("vhat", vhat)),
                                         "grad", grad)
    b1p, b2p, lr, b1, b2, eps = (hyper(op, k, x, var.dtype) for k, x in (
        ("beta1_power", beta1_power), ("beta2_power", beta2_power), ("lr", lr),
        ("beta1", beta1), ("beta2", beta2), ("epsilon", epsilon)))
    new_m, new_v = adam_moments(m, v, g, b1, b2)
    new_vhat = E.maximum(vhat, new_v)
    step = adam_step(lr, b1p, b2p)
    new_var = E.sub(var, E.mul(step, E.div(new_m, E.add(E.sqrt(new_vhat), eps))))
    return write((var, new_var), (m, new_m), (v, new_v), (vhat, new_vhat))


def compute_apply_adam_with_amsgrad(var, m, v, vhat, beta1_power, beta2_power, lr, grad, *,
                                    beta1, beta2, epsilon, use_locking):
    """AMSGrad (decay rates as attributes): new var, m, v, vhat (vhat = max(vhat, v))."""
    return _amsgrad("ApplyAdamWithAmsgrad", var, m, v, vhat, beta1_power, beta2_power, lr,
                    beta1, beta2, epsilon, grad)


def compute_apply_adam_with_amsgrad_v2(var, m, v, vhat, beta1_power, beta2_power, lr, beta1,
                                       beta2, epsilon, grad, *, use_locking):
    """AMSGrad (decay rates as inputs): new var, m, v, vhat."""
    return _amsgrad("ApplyAdamWithAmsgradV2", var, m, v, vhat, beta1_power, beta2_power, lr,
                    beta1, beta2, epsilon, grad)


def _sign_method(op, var, m, lr, base, sign_decay, beta, grad, power):
    var, (m,), g = _float_inputs(op, var, (("m", m),), "grad", grad)
    lr, base, sign_decay, beta = (hyper(op, k, x, var.dtype) for k, x in (
        ("lr", lr), ("alpha" if not power else "logbase", base), ("sign_decay", sign_decay),
        ("beta", beta)))
    new_m = adam_moments(m, m, g, beta, beta)[0]
    agreement = E.mul(sign_decay, E.mul(E.sign(g), E.sign(new_m)))
    scale = E.exp(E.mul(base, agreement)) if power else E.add(base, agreement)
    return write((var, E.sub(var, E.mul(E.mul(scale, g), lr))), (m, new_m))


def compute_apply_add_sign(var, m, lr, alpha, sign_decay, beta, grad):
    """AddSign: var -= lr (alpha + sign_decay sign(g) sign(m)) g; new var, m."""
    return _sign_method("ApplyAddSign", var, m, lr, alpha, sign_decay, beta, grad, False)


def compute_apply_power_sign(var, m, lr, logbase, sign_decay, beta, grad):
    """PowerSign: var -= lr exp(logbase sign_decay sign(g) sign(m)) g; new var, m."""
    return _sign_method("ApplyPowerSign", var, m, lr, logbase, sign_decay, beta, grad, True)


def compute_apply_centered_rms_prop(var, mean_gradient, mean_square, moment, grad,
                                    learning_rate, decay, momentum, epsilon, *, use_locking):
    """Centered RMSProp: updates var, mean_gradient, mean_square, moment; returns var."""
    op = "ApplyCenteredRMSProp"
    var, (mg, ms, mom), g = _float_inputs(op, var, (("mean_gradient", mean_gradient),
                                                    ("mean_square", mean_square),
                                                    ("moment", moment)), "grad", grad)
    lr, decay, momentum, eps = (hyper(op, k, x, var.dtype) for k, x in (
        ("learning_rate", learning_rate), ("decay", decay), ("momentum", momentum),
        ("epsilon", epsilon)))
    new_var, new_ms, new_mom, new_mg = rmsprop(var, ms, mom, g, lr, decay, momentum, eps, mg)
    return write((var, new_var), (mg, new_mg), (ms, new_ms), (mom, new_mom))[0]


def compute_apply_rms_prop(var, mean_square, moment, learning_rate, grad, decay, momentum,
                           epsilon, *, use_locking):
    """RMSProp: updates var, mean_square, moment; returns var."""
    op = "ApplyRMSProp"
    var, (ms, mom), g = _float_inputs(op, var, (("mean_square", mean_square),
                                                ("moment", moment)), "grad", grad)
    lr, decay, momentum, eps = (hyper(op, k, x, var.dtype) for k, x in (
        ("learning_rate", learning_rate), ("decay", decay), ("momentum", momentum),
        ("epsilon", epsilon)))
    new_var, new_ms, new_mom, _ = rmsprop(var, ms, mom, g, lr, decay, momentum, eps)
    return write((var, new_var), (ms, new_ms), (mom, new_mom))[0]


def compute_apply_ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, *, use_locking):
    """FTRL-proximal: updates var, accum, linear; returns var."""
    op = "ApplyFtrl"
    var, (accum, linear), g = _float_inputs(op, var, (("accum", accum), ("linear", linear)),
                                            "grad", grad)
    h = [hyper(op, k, x, var.dtype) for k, x in
         (("lr", lr), ("l1", l1), ("l2", l2), ("lr_power", lr_power))]
    new = ftrl(var, accum, linear, g, *h)
    return write(*zip((var, accum, linear), new))[0]


def compute_apply_gradient_descent(var, alpha, delta):
    """var -= alpha delta; returns var."""
    op = "ApplyGradientDescent"
    var, _, delta = _float_inputs(op, var, (), "delta", delta)
    alpha = hyper(op, "alpha", alpha, var.dtype)
    return write((var, E.sub(var, E.mul(delta, alpha))))[0]


def compute_apply_proximal_gradient_descent(var, alpha, l1, l2, delta):
    """FOBOS: var = proximal(var - alpha delta); returns var."""
    op = "ApplyProximalGradientDescent"
    var, _, delta = _float_inputs(op, var, (), "delta", delta)
    alpha, l1, l2 = (hyper(op, k, x, var.dtype) for k, x in
                     (("alpha", alpha), ("l1", l1), ("l2", l2)))
    return write((var, proximal(E.sub(var, E.mul(delta, alpha)), alpha, l1, l2)))[0]


def proximal_adagrad(var, accum, lr, l1, l2, g):
    """Adagrad's step, then the proximal step with Adagrad's per-element rate lr /
    sqrt(accum) (as MindSpore's and TensorFlow's kernels; the documentation writes lr):
    new var, accum."""
    new_accum = E.add(accum, E.square(g))
    rate = E.div(lr, E.sqrt(new_accum))
    return proximal(E.sub(var, E.mul(g, rate)), rate, l1, l2), new_accum


def compute_apply_proximal_adagrad(var, accum, lr, l1, l2, grad, *, use_locking):
    """Proximal Adagrad: new var, accum."""
    op = "ApplyProximalAdagrad"
    var, (accum,), g = _float_inputs(op, var, (("accum", accum),), "grad", grad)
    lr, l1, l2 = (hyper(op, k, x, var.dtype) for k, x in (("lr", lr), ("l1", l1), ("l2", l2)))
    return write(*zip((var, accum), proximal_adagrad(var, accum, lr, l1, l2, g)))


def compute_apply_keras_momentum(var, accum, lr, grad, momentum, *, use_locking,
                                 use_nesterov):
    """Keras momentum: accum = momentum accum - lr g;  var += accum (Nesterov: momentum
    accum - lr g); new var, accum."""
    op = "ApplyKerasMomentum"
    var, (accum,), g = _float_inputs(op, var, (("accum", accum),), "grad", grad)
    lr, momentum = hyper(op, "lr", lr, var.dtype), hyper(op, "momentum", momentum, var.dtype)
    step = E.mul(g, lr)
    new_accum = E.sub(E.mul(accum, momentum), step)
    change = E.sub(E.mul(new_accum, momentum), step) if use_nesterov else new_accum
    return write((var, E.add(var, change)), (accum, new_accum))


def compute_apply_momentum(variable, accumulation, learning_rate, gradient, momentum, *,
                           use_nesterov, use_locking, gradient_scale):
    """Momentum: updates variable and accumulation; returns the variable's new value.
    (``gradient_scale`` is kept as an attribute: MindSpore's CPU kernel does not use it.)"""
    op = "ApplyMomentum"
    var, (accum,), g = _float_inputs(op, variable, (("accumulation", accumulation),),
                                     "gradient", gradient)
    lr = hyper(op, "learning_rate", learning_rate, var.dtype)
    momentum = hyper(op, "momentum", momentum, var.dtype)
    new_var, new_accum = momentum_update(var, accum, lr, g, momentum, use_nesterov)
    return write((var, new_var), (accum, new_accum))[0]


def compute_sgd(parameters, gradient, learning_rate, accum, momentum, stat, *, dampening,
                weight_decay, nesterov):
    """SGD as MindSpore's kernel: g += weight_decay p;  accum = g on the first step (stat >
    0), else momentum accum + (1 - dampening) g;  p -= lr (g + momentum accum if nesterov,
    else accum);  stat = 0. Returns the parameters' new value."""
    op = "SGD"
    dtypes = (dt.float16, dt.float32)
    p = state(op, "parameters", parameters, dtypes=dtypes)
    g = state(op, "gradient", gradient, p, dtypes)
    accum, stat = state(op, "accum", accum, p, dtypes), state(op, "stat", stat, p, dtypes)
    lr, momentum = hyper(op, "learning_rate", learning_rate, p.dtype), \
        hyper(op, "momentum", momentum, p.dtype)
    if weight_decay != 0:
        g = E.add(g, E.mul(p, weight_decay))
    running = E.add(E.mul(accum, momentum), E.mul(g, 1.0 - dampening)) if dampening != 0 \
        else E.add(E.mul(accum, momentum), g)
    new_accum = E.where(E.greater(stat, 0.0), g, running)
    step = E.add(g, E.mul(new_accum, momentum)) if nesterov else new_accum
    new_p = E.sub(p, E.mul(step, lr))
    return write((p, new_p), (accum, new_accum), (stat, E.zeros_like(stat)))[0]


def _check_sgd(op, attrs):
    check_attributes(op, attrs, bools=("nesterov",))
    if attrs["nesterov"] and attrs["dampening"] != 0:
        raise ValueError(f"For '{op}', the 'dampening' must be 0 when 'nesterov' is True, "
                         f"but got 'dampening' is {attrs['dampening']} and 'nesterov' is "
                         f"True.")


compute_sgd.validate_attributes = _check_sgd
