"""Adam, following MindSpore's Adam (bias correction folded into the step size):

    g = (g + weight_decay * loss_scale * p) / loss_scale     (decay skips beta/gamma)
    beta1_power *= beta1;  beta2_power *= beta2               (so at step t they are beta^t)
    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    l = lr * sqrt(1 - beta2_power) / (1 - beta1_power)
    p = p - l * m / (sqrt(v) + eps)
    use_nesterov: p = p - l * (beta1 * m + (1 - beta1) * g) / (sqrt(v) + eps)
"""
import numbers

import numpy as np

from ... import ops
from ...tensor import Tensor, Parameter
from .optimizer import Optimizer

__all__ = ["Adam"]


def _check_beta_eps(beta1, beta2, eps):
    for name, value in (("beta1", beta1), ("beta2", beta2), ("eps", eps)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"Adam: '{name}' must be a float, got {value!r}")
    for name, value in (("beta1", beta1), ("beta2", beta2)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"Adam: '{name}' must be in (0, 1), got {value}")
    if eps <= 0:
        raise ValueError(f"Adam: 'eps' must be > 0, got {eps}")


class Adam(Optimizer):
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 use_locking=False, use_nesterov=False, weight_decay=0.0, loss_scale=1.0):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        _check_beta_eps(beta1, beta2, eps)
        for name, value in (("use_locking", use_locking), ("use_nesterov", use_nesterov)):
            if not isinstance(value, bool):
                raise TypeError(f"Adam: '{name}' must be a bool, got {value!r}")
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.use_locking = use_locking
        self.use_nesterov = use_nesterov
        # beta^t, advanced with ops every step: the step count lives in these Parameters.
        self.beta1_power = Parameter(Tensor(np.ones((1,), np.float32)), name="beta1_power",
                                     requires_grad=False)
        self.beta2_power = Parameter(Tensor(np.ones((1,), np.float32)), name="beta2_power",
                                     requires_grad=False)
        self.moment1 = self._clone_state("moment1", "zeros")
        self.moment2 = self._clone_state("moment2", "zeros")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        gradients = self.scale_grad(self.decay_weight(gradients))
        lr = self.get_lr()
        beta1, beta2 = self.beta1, self.beta2
        beta1_power = ops.mul(self.beta1_power, beta1)
        beta2_power = ops.mul(self.beta2_power, beta2)
        self.beta1_power.assign_value(beta1_power)
        self.beta2_power.assign_value(beta2_power)
        correction = ops.reshape(ops.div(ops.sqrt(ops.sub(1.0, beta2_power)),
                                         ops.sub(1.0, beta1_power)), ())
        for k, (param, grad, m, v) in enumerate(zip(self.parameters, gradients, self.moment1,
                                                     self.moment2)):
            step_size = ops.mul(self._lr_of(lr, k), correction)
            new_m = ops.add(ops.mul(m, beta1), ops.mul(grad, 1.0 - beta1))
            new_v = ops.add(ops.mul(v, beta2), ops.mul(ops.mul(grad, grad), 1.0 - beta2))
            m.assign_value(new_m)
            v.assign_value(new_v)
            direction = (ops.add(ops.mul(new_m, beta1), ops.mul(grad, 1.0 - beta1))
                         if self.use_nesterov else new_m)
            update = ops.div(direction, ops.add(ops.sqrt(new_v), self.eps))
            param.assign_value(ops.sub(param, ops.mul(step_size, update)))
        return True
