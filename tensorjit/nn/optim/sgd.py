"""SGD with optional (Nesterov) momentum, following MindSpore's SGD kernel:

    g = g / loss_scale + weight_decay * p           (decay on every parameter)
    if momentum > 0:
        v = g                                       on the first step (stat == 1)
        v = momentum * v + (1 - dampening) * g      afterwards
        g = g + momentum * v   (nesterov)   or   g = v
    p = p - lr * g
"""
import numbers

from ... import ops
from ...tensor import Tensor, Parameter
from ... import dtype as dt
from .optimizer import Optimizer

__all__ = ["SGD"]


class SGD(Optimizer):
    def __init__(self, params, learning_rate=0.1, momentum=0.0, dampening=0.0, weight_decay=0.0,
                 nesterov=False, loss_scale=1.0):
        if isinstance(params, (list, tuple)) and any(
                isinstance(g, dict) and "weight_decay" in g for g in params):
            raise ValueError("SGD: a per-group 'weight_decay' is not supported (as in "
                             "MindSpore); pass weight_decay to SGD itself")
        super().__init__(learning_rate, params, 0.0, loss_scale)
        for name, value in (("momentum", momentum), ("dampening", dampening)):
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise TypeError(f"SGD: '{name}' must be a float, got {value!r}")
            if value < 0:
                raise ValueError(f"SGD: '{name}' must be >= 0, got {value}")
        if not isinstance(nesterov, bool):
            raise TypeError(f"SGD: 'nesterov' must be a bool, got {nesterov!r}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError(f"SGD: nesterov=True needs momentum > 0 and dampening == 0, got "
                             f"momentum={momentum}, dampening={dampening}")
        # The SGD kernel applies its own, unfiltered weight decay to the unscaled gradient.
        self.sgd_weight_decay = self._check_weight_decay(weight_decay)
        self.dampening = float(dampening)
        self.nesterov = nesterov
        # Whether the momentum branch exists is fixed here (a graph's structure); its
        # value is a Parameter, read at run time.
        self.use_momentum = momentum > 0
        self.momentum = Parameter(Tensor(float(momentum), dt.float32), name="momentum",
                                  requires_grad=False)
        self.accum = self._clone_state("accum", "zeros")
        # stat == 1 marks "no step taken yet": the first step sets accum = gradient.
        self.stat = self._clone_state("stat", "ones")

    def construct(self, gradients):
        gradients = self.scale_grad(self._check_gradients(gradients))
        lr = self.get_lr()
        for k, (param, grad) in enumerate(zip(self.parameters, gradients)):
            if self.sgd_weight_decay > 0:
                grad = ops.add(grad, ops.mul(param, self.sgd_weight_decay))
            if self.use_momentum:
                accum, stat = self.accum[k], self.stat[k]
                momentum = self.momentum
                running = ops.add(ops.mul(accum, momentum), ops.mul(grad, 1.0 - self.dampening))
                new_accum = ops.where(ops.gt(stat, 0), grad, running)
                accum.assign_value(new_accum)
                stat.assign_value(ops.zeros_like(stat))
                grad = ops.add(grad, ops.mul(new_accum, momentum)) if self.nesterov else new_accum
            param.assign_value(ops.sub(param, ops.mul(self._lr_of(lr, k), grad)))
        return True
