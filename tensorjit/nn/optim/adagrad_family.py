"""Optimizers that scale each step by accumulated squared gradients, following MindSpore's
kernels (``ApplyAdagrad``, ``ApplyAdadelta``, ``ApplyProximalAdagrad``, ``ApplyFtrl``,
``ApplyRMSProp`` / ``ApplyCenteredRMSProp``). Every one first takes the gradient through
the base pipeline: ``g = (g + weight_decay * loss_scale * p) / loss_scale`` (the decay skips
``beta`` / ``gamma`` parameters unless groups say otherwise).

Adagrad:          accum += g^2 (update_slots);  p -= lr * g / sqrt(accum)
Adadelta:         accum = rho accum + (1 - rho) g^2
                  u = sqrt(accum_update + eps) * g / sqrt(accum + eps)
                  accum_update = rho accum_update + (1 - rho) u^2;  p -= lr * u
ProximalAdagrad:  accum += g^2;  a = lr / sqrt(accum);  v = p - a * g
                  p = sign(v) / (1 + a l2) * max(|v| - a l1, 0)
                  (the kernels' adapted rate ``a`` in the shrinkage, where MindSpore's and
                  TensorFlow's docs write ``lr``; the two agree when l1 = l2 = 0)
FTRL:             n' = n + g^2;  z += g - (n'^-q - n^-q) / lr * p     (q = lr_power)
                  p = (sign(z) l1 - z) / (n'^-q / lr + 2 l2)  if |z| > l1  else 0
                  (MindSpore 2.10's CPU kernel uses +l1 for a negative z too: a bug)
RMSProp:          s = decay s + (1 - decay) g^2;  m = momentum m + lr g / sqrt(s + eps)
                  centered: a = decay a + (1 - decay) g and sqrt(s - a^2 + eps);  p -= m
"""
from ... import ops
from .optimizer import Optimizer
from ._hyper import float_range, non_negative, positive, strict_float, flag

__all__ = ["Adagrad", "Adadelta", "ProximalAdagrad", "FTRL", "RMSProp"]


class _Accumulating(Optimizer):
    """The shared step: gradients through decay and loss scale, this step's rates, then
    ``_update(k, param, grad, lr)`` per parameter."""

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        gradients = self.scale_grad(self.decay_weight(gradients))
        lr = self.get_lr()
        for k, (param, grad) in enumerate(zip(self.parameters, gradients)):
            self._update(k, param, grad, self._lr_of(lr, k))
        return True


class Adagrad(_Accumulating):
    def __init__(self, params, accum=0.1, learning_rate=0.001, update_slots=True,
                 loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        accum = non_negative("Adagrad", "accum", accum)
        self.update_slots = flag("Adagrad", "update_slots", update_slots)
        self.accum = self._clone_state("accum", accum)

    def _update(self, k, param, grad, lr):
        accum = self.accum[k]
        if self.update_slots:
            accum.assign_value(ops.add(accum, ops.mul(grad, grad)))
        param.assign_value(ops.sub(param, ops.div(ops.mul(grad, lr), ops.sqrt(accum))))


class Adadelta(_Accumulating):
    def __init__(self, params, learning_rate=1.0, rho=0.9, epsilon=1e-6, loss_scale=1.0,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.rho = float_range("Adadelta", "rho", rho, 0.0, 1.0, closed=(True, True))
        self.epsilon = non_negative("Adadelta", "epsilon", epsilon)
        self.accum = self._clone_state("accum", 0.0)
        self.accum_update = self._clone_state("accum_update", 0.0)

    def _update(self, k, param, grad, lr):
        rho, eps = self.rho, self.epsilon
        accum, accum_update = self.accum[k], self.accum_update[k]
        new_accum = ops.add(ops.mul(accum, rho), ops.mul(ops.mul(grad, grad), 1.0 - rho))
        update = ops.mul(ops.div(ops.sqrt(ops.add(accum_update, eps)),
                                 ops.sqrt(ops.add(new_accum, eps))), grad)
        accum.assign_value(new_accum)
        accum_update.assign_value(ops.add(ops.mul(accum_update, rho),
                                          ops.mul(ops.mul(update, update), 1.0 - rho)))
        param.assign_value(ops.sub(param, ops.mul(update, lr)))


class ProximalAdagrad(_Accumulating):
    def __init__(self, params, accum=0.1, learning_rate=0.001, l1=0.0, l2=0.0,
                 use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        who = "ProximalAdagrad"
        accum = non_negative(who, "accum", accum)
        self.l1, self.l2 = non_negative(who, "l1", l1), non_negative(who, "l2", l2)
        self.use_locking = flag(who, "use_locking", use_locking)
        self.accum = self._clone_state("accum", accum)

    def _update(self, k, param, grad, lr):
        accum = self.accum[k]
        new_accum = ops.add(accum, ops.mul(grad, grad))
        accum.assign_value(new_accum)
        rate = ops.div(lr, ops.sqrt(new_accum))
        prox = ops.sub(param, ops.mul(grad, rate))
        shrunk = ops.maximum(ops.sub(ops.abs(prox), ops.mul(rate, self.l1)), 0.0)
        scale = ops.div(ops.sign(prox), ops.add(ops.mul(rate, self.l2), 1.0))
        param.assign_value(ops.mul(scale, shrunk))


class FTRL(_Accumulating):
    def __init__(self, params, initial_accum=0.1, learning_rate=0.001, lr_power=-0.5, l1=0.0,
                 l2=0.0, use_locking=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if self.dynamic_lr or self.is_group_lr:
            raise ValueError(f"FTRL: a dynamic or per-group learning rate is not supported (as "
                             f"in MindSpore), got dynamic={self.dynamic_lr}, "
                             f"group={self.is_group_lr}")
        who = "FTRL"
        initial_accum = non_negative(who, "initial_accum", initial_accum)
        positive(who, "learning_rate", learning_rate)
        self.lr_power = strict_float(who, "lr_power", lr_power)
        if self.lr_power > 0:
            raise ValueError(f"FTRL: 'lr_power' must be <= 0, got {lr_power}")
        self.l1, self.l2 = non_negative(who, "l1", l1), non_negative(who, "l2", l2)
        self.use_locking = flag(who, "use_locking", use_locking)
        if not self.is_group:
            # FTRL decays every parameter, normalisation scales included (MindSpore)
            self.decay_flags = (True,) * len(self.parameters)
            self.exec_weight_decay = self.weight_decay > 0
        self.moments = self._clone_state("moments", initial_accum)
        self.linear = self._clone_state("linear", 0.0)

    def _update(self, k, param, grad, lr):
        power = -self.lr_power
        moment, linear = self.moments[k], self.linear[k]
        new_moment = ops.add(moment, ops.mul(grad, grad))
        new_root = ops.pow(new_moment, power)
        sigma = ops.div(ops.sub(new_root, ops.pow(moment, power)), lr)
        new_linear = ops.sub(ops.add(linear, grad), ops.mul(sigma, param))
        shrunk = ops.div(ops.sub(ops.mul(ops.sign(new_linear), self.l1), new_linear),
                         ops.add(ops.div(new_root, lr), 2.0 * self.l2))
        moment.assign_value(new_moment)
        linear.assign_value(new_linear)
        param.assign_value(ops.where(ops.gt(ops.abs(new_linear), self.l1), shrunk,
                                     ops.zeros_like(shrunk)))


class RMSProp(_Accumulating):
    def __init__(self, params, learning_rate=0.1, decay=0.9, momentum=0.0, epsilon=1e-10,
                 use_locking=False, centered=False, loss_scale=1.0, weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        who = "RMSProp"
        self.decay = non_negative(who, "decay", decay)
        self.momentum = non_negative(who, "momentum", momentum)
        self.epsilon = positive(who, "epsilon", epsilon)
        self.use_locking = flag(who, "use_locking", use_locking)
        self.centered = flag(who, "centered", centered)
        if centered:
            self.mg = self._clone_state("mean_grad", "zeros")
        self.ms = self._clone_state("mean_square", "ones")
        self.moment = self._clone_state("moment", "zeros")

    def _update(self, k, param, grad, lr):
        decay = self.decay
        mean_square = ops.add(ops.mul(self.ms[k], decay),
                              ops.mul(ops.mul(grad, grad), 1.0 - decay))
        self.ms[k].assign_value(mean_square)
        denominator = mean_square
        if self.centered:
            mean_grad = ops.add(ops.mul(self.mg[k], decay), ops.mul(grad, 1.0 - decay))
            self.mg[k].assign_value(mean_grad)
            denominator = ops.sub(mean_square, ops.mul(mean_grad, mean_grad))
        step = ops.div(ops.mul(grad, lr), ops.sqrt(ops.add(denominator, self.epsilon)))
        moment = ops.add(ops.mul(self.moment[k], self.momentum), step)
        self.moment[k].assign_value(moment)
        param.assign_value(ops.sub(param, moment))
