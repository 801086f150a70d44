"""Adam with decoupled weight decay, in MindSpore's and in PyTorch's form.

``AdamWeightDecay`` (MindSpore's ``nn.AdamWeightDecay``: no bias correction; the decay is
added to the update, for parameters whose name has no ``beta`` / ``gamma`` unless groups say
otherwise)::

    m = beta1 * m + (1 - beta1) * g
    v = beta2 * v + (1 - beta2) * g * g
    p = p - lr * (m / (sqrt(v) + eps) + weight_decay * p)

``AdamW`` (``torch.optim.AdamW`` / ``mindspore.mint.optim.AdamW``: bias-corrected, the decay
shrinks every parameter before the step)::

    p = p * (1 - lr * weight_decay)
    m, v as above;  t = the step number (1, 2, ...)
    p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
    amsgrad: v_max = max(v_max, v), used in place of v
"""
import numpy as np

from ... import ops
from ...tensor import Tensor, Parameter
from .adam import _check_beta_eps
from .optimizer import Optimizer

__all__ = ["AdamWeightDecay", "AdamW"]


class AdamWeightDecay(Optimizer):
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        _check_beta_eps(beta1, beta2, eps)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.moments1 = self._clone_state("adam_m", "zeros")
        self.moments2 = self._clone_state("adam_v", "zeros")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        lr = self.get_lr()
        beta1, beta2 = self.beta1, self.beta2
        for k, (param, grad, m, v) in enumerate(zip(self.parameters, gradients, self.moments1,
                                                     self.moments2)):
            new_m = ops.add(ops.mul(m, beta1), ops.mul(grad, 1.0 - beta1))
            new_v = ops.add(ops.mul(v, beta2), ops.mul(ops.mul(grad, grad), 1.0 - beta2))
            m.assign_value(new_m)
            v.assign_value(new_v)
            update = ops.div(new_m, ops.add(ops.sqrt(new_v), self.eps))
            decay = self._decays()[k]
            if self.decay_flags[k] and decay > 0:
                update = ops.add(update, ops.mul(param, decay))
            param.assign_value(ops.sub(param, ops.mul(self._lr_of(lr, k), update)))
        return True


class AdamW(Optimizer):
    def __init__(self, params, learning_rate=1e-3, beta1=0.9, beta2=0.999, eps=1e-8,
                 weight_decay=1e-2, amsgrad=False):
        super().__init__(learning_rate, params, weight_decay)
        _check_beta_eps(beta1, beta2, eps)
        if not isinstance(amsgrad, bool):
            raise TypeError(f"AdamW: 'amsgrad' must be a bool, got {amsgrad!r}")
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        self.amsgrad = amsgrad
        # beta^t, advanced with ops every step (state, not a Python count).
        self.beta1_power = Parameter(Tensor(np.ones((), np.float32)), name="beta1_power",
                                     requires_grad=False)
        self.beta2_power = Parameter(Tensor(np.ones((), np.float32)), name="beta2_power",
                                     requires_grad=False)
        self.exp_avg = self._clone_state("exp_avg", "zeros")
        self.exp_avg_sq = self._clone_state("exp_avg_sq", "zeros")
        if amsgrad:
            self.max_exp_avg_sq = self._clone_state("max_exp_avg_sq", "zeros")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        lr = self.get_lr()
        beta1, beta2 = self.beta1, self.beta2
        beta1_power = ops.mul(self.beta1_power, beta1)
        beta2_power = ops.mul(self.beta2_power, beta2)
        self.beta1_power.assign_value(beta1_power)
        self.beta2_power.assign_value(beta2_power)
        bias1 = ops.sub(1.0, beta1_power)
        root_bias2 = ops.sqrt(ops.sub(1.0, beta2_power))
        for k, (param, grad, m, v) in enumerate(zip(self.parameters, gradients, self.exp_avg,
                                                     self.exp_avg_sq)):
            lr_k = self._lr_of(lr, k)
            decay = self._decays()[k]
            if decay > 0:
                param_value = ops.mul(param, ops.sub(1.0, ops.mul(lr_k, decay)))
            else:
                param_value = param
            new_m = ops.add(ops.mul(m, beta1), ops.mul(grad, 1.0 - beta1))
            new_v = ops.add(ops.mul(v, beta2), ops.mul(ops.mul(grad, grad), 1.0 - beta2))
            m.assign_value(new_m)
            v.assign_value(new_v)
            if self.amsgrad:
                v_max = ops.maximum(self.max_exp_avg_sq[k], new_v)
                self.max_exp_avg_sq[k].assign_value(v_max)
                new_v = v_max
            denom = ops.add(ops.div(ops.sqrt(new_v), root_bias2), self.eps)
            step = ops.mul(ops.div(lr_k, bias1), ops.div(new_m, denom))
            param.assign_value(ops.sub(param_value, step))
        return True
