"""Adam's relatives, following MindSpore (gradients first through the base pipeline,
``g = (g + weight_decay * loss_scale * p) / loss_scale``, except Lamb which has no loss
scale and adds its decay inside the update):

AdaMax (``ApplyAdaMax``):  beta1_power *= beta1;  m = beta1 m + (1 - beta1) g
                           v = max(beta2 v, |g|);  p -= lr / (1 - beta1_power) * m / (v + eps)
LazyAdam, AdamOffload:     Adam's update (nn.Adam) for dense gradients; they differ from it
                           only in where MindSpore runs them (sparse rows / the host)
Lamb (documented formula; MindSpore 2.10 has no CPU kernel for it), t the step number:
    m = beta1 m + (1 - beta1) g;  v = beta2 v + (1 - beta2) g^2
    r = (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps) + weight_decay * p
    p -= lr * ||p|| / ||r|| * r      (the ratio is 1 where either norm is 0)
"""
import numpy as np

from ... import ops
from ... import dtype as dt
from ...tensor import Tensor, Parameter
from .adam import Adam
from .optimizer import Optimizer
from ._hyper import float_range, positive, strict_float, flag

__all__ = ["AdaMax", "LazyAdam", "AdamOffload", "Lamb"]


def _betas_eps(who, beta1, beta2, eps):
    return (float_range(who, "beta1", beta1, 0.0, 1.0), float_range(who, "beta2", beta2, 0.0, 1.0),
            positive(who, "eps", eps))


def _power_state(name):
    return Parameter(Tensor(np.ones((1,), np.float32)), name=name, requires_grad=False)


class AdaMax(Optimizer):
    def __init__(self, params, learning_rate=0.001, beta1=0.9, beta2=0.999, eps=1e-08,
                 weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        self.beta1, self.beta2, self.eps = _betas_eps("AdaMax", beta1, beta2, eps)
        self.beta1_power = _power_state("beta1_power")
        self.moment1 = self._clone_state("moment1", "zeros")
        self.moment2 = self._clone_state("moment2", "zeros")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        gradients = self.scale_grad(self.decay_weight(gradients))
        lr = self.get_lr()
        beta1, beta2 = self.beta1, self.beta2
        beta1_power = ops.mul(self.beta1_power, beta1)
        self.beta1_power.assign_value(beta1_power)
        bias = ops.reshape(ops.sub(1.0, beta1_power), ())
        for k, (param, grad, m, v) in enumerate(zip(self.parameters, gradients, self.moment1,
                                                     self.moment2)):
            new_m = ops.add(ops.mul(m, beta1), ops.mul(grad, 1.0 - beta1))
            new_v = ops.maximum(ops.mul(v, beta2), ops.abs(grad))
            m.assign_value(new_m)
            v.assign_value(new_v)
            step = ops.mul(ops.div(self._lr_of(lr, k), bias),
                           ops.div(new_m, ops.add(new_v, self.eps)))
            param.assign_value(ops.sub(param, step))
        return True


class LazyAdam(Adam):
    """Adam whose sparse (row) gradients update only the rows they name; tensorjit's
    gradients are dense, for which MindSpore's LazyAdam is Adam."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        who = type(self).__name__
        _betas_eps(who, beta1, beta2, eps)
        strict_float(who, "weight_decay", weight_decay)
        flag(who, "use_locking", use_locking)
        flag(who, "use_nesterov", use_nesterov)
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale)


class AdamOffload(Adam):
    """Adam computed on the host with the parameters kept on the device; on tensorjit's
    host backend that is Adam itself."""

    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        _betas_eps("AdamOffload", beta1, beta2, eps)
        super().__init__(params, learning_rate, beta1, beta2, eps, use_locking, use_nesterov,
                         weight_decay, loss_scale)


class Lamb(Optimizer):
    def __init__(self, params, learning_rate, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.beta1, self.beta2, self.eps = _betas_eps("Lamb", beta1, beta2, eps)
        self.moments1 = self._clone_state("lamb_m", "zeros")
        self.moments2 = self._clone_state("lamb_v", "zeros")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        lr = self.get_lr()
        step = ops.reshape(ops.cast(self.global_step, dt.float32), ())
        beta1, beta2 = self.beta1, self.beta2
        bias1 = ops.sub(1.0, ops.pow(Tensor(beta1, dt.float32), step))
        bias2 = ops.sub(1.0, ops.pow(Tensor(beta2, dt.float32), step))
        decays = self._decays()
        for k, (param, grad, m, v) in enumerate(zip(self.parameters, gradients, self.moments1,
                                                     self.moments2)):
            new_m = ops.add(ops.mul(m, beta1), ops.mul(grad, 1.0 - beta1))
            new_v = ops.add(ops.mul(v, beta2), ops.mul(ops.mul(grad, grad), 1.0 - beta2))
            m.assign_value(new_m)
            v.assign_value(new_v)
            ratio = ops.div(ops.div(new_m, bias1),
                            ops.add(ops.sqrt(ops.div(new_v, bias2)), self.eps))
            if self.decay_flags[k] and decays[k] > 0:
                ratio = ops.add(ratio, ops.mul(param, decays[k]))
            w_norm = ops.sqrt(ops.sum(ops.mul(param, param)))
            r_norm = ops.sqrt(ops.sum(ops.mul(ratio, ratio)))
            both = ops.logical_and(ops.gt(w_norm, 0), ops.gt(r_norm, 0))
            trust = ops.where(both, ops.div(w_norm, ops.where(both, r_norm, 1.0)),
                              ops.ones_like(w_norm))
            step_k = ops.mul(ops.mul(self._lr_of(lr, k), trust), ratio)
            param.assign_value(ops.sub(param, step_k))
        return True
