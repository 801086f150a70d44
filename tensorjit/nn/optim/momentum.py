"""Momentum, following MindSpore's ApplyMomentum:

    g = (g + weight_decay * loss_scale * p) / loss_scale     (decay skips beta/gamma)
    v = momentum * v + g
    p = p - lr * (g + momentum * v)   (use_nesterov)   or   p = p - lr * v
"""
import numbers

from ... import ops
from ...tensor import Tensor, Parameter
from ... import dtype as dt
from .optimizer import Optimizer

__all__ = ["Momentum"]


class Momentum(Optimizer):
    def __init__(self, params, learning_rate, momentum, weight_decay=0.0, loss_scale=1.0,
                 use_nesterov=False):
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        if isinstance(momentum, bool) or not isinstance(momentum, numbers.Real):
            raise TypeError(f"Momentum: 'momentum' must be a float, got {momentum!r}")
        if momentum < 0:
            raise ValueError(f"Momentum: 'momentum' must be >= 0, got {momentum}")
        if not isinstance(use_nesterov, bool):
            raise TypeError(f"Momentum: 'use_nesterov' must be a bool, got {use_nesterov!r}")
        self.use_nesterov = use_nesterov
        self.momentum = Parameter(Tensor(float(momentum), dt.float32), name="momentum",
                                  requires_grad=False)
        self.moments = self._clone_state("moments", "zeros")

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        gradients = self.scale_grad(self.decay_weight(gradients))
        lr = self.get_lr()
        momentum = self.momentum
        for k, (param, grad, moment) in enumerate(zip(self.parameters, gradients, self.moments)):
            lr_k = self._lr_of(lr, k)
            new_moment = ops.add(ops.mul(moment, momentum), grad)
            moment.assign_value(new_moment)
            if self.use_nesterov:
                step = ops.add(ops.mul(grad, lr_k), ops.mul(ops.mul(new_moment, momentum), lr_k))
            else:
                step = ops.mul(new_moment, lr_k)
            param.assign_value(ops.sub(param, step))
        return True
