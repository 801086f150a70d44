"""Variants of plain gradient descent, following MindSpore (gradients first through the
base pipeline: ``g = (g + weight_decay * p) / loss_scale``, the decay skipping ``beta`` /
``gamma`` parameters unless groups say otherwise); ``t`` is the step number (1, 2, ...).

ASGD (averaged SGD), per parameter with scalars eta (0 at first) and mu (1 at first):
    eta = lr on step 1
    p = p * (1 - lambd * eta) - eta * g
    ax = ax + (p - ax) * mu   if mu != 1   else   ax = p
    eta = lr / (1 + lambd * lr * t)^alpha;  mu = 1 / max(1, t - t0)
Rprop (resilient backpropagation), with step sizes s (lr everywhere on step 1):
    f = etaplus where g * prev > 0, etaminus where < 0, 1 where = 0
    s = clip(s * f, step_min, step_max);  g' = 0 where f = etaminus else g
    p = p - sign(g') * s;  prev = g'
"""
import numpy as np

from ... import ops
from ... import dtype as dt
from ...tensor import Tensor, Parameter
from ..cell import ParameterTuple
from .optimizer import Optimizer
from ._hyper import float_range, strict_float

__all__ = ["ASGD", "Rprop"]


def _scalar_state(value, name):
    return Parameter(Tensor(np.float32(value)), name=name, requires_grad=False)


class _PerParameterStep(Optimizer):
    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        gradients = self.scale_grad(self.decay_weight(gradients))
        lr = self.get_lr()
        step = ops.reshape(self.global_step, ())
        for k, (param, grad) in enumerate(zip(self.parameters, gradients)):
            self._update(k, param, grad, self._lr_of(lr, k), step)
        return True


class ASGD(_PerParameterStep):
    def __init__(self, params, learning_rate=0.1, lambd=1e-4, alpha=0.75, t0=1e6,
                 weight_decay=0.0):
        super().__init__(learning_rate, params, weight_decay)
        self.lambd = strict_float("ASGD", "lambd", lambd)
        self.alpha = strict_float("ASGD", "alpha", alpha)
        self.t0 = strict_float("ASGD", "t0", t0)
        self.mu = ParameterTuple(_scalar_state(1.0, f"mu_{p.name}") for p in self.parameters)
        self.eta = ParameterTuple(_scalar_state(0.0, f"eta_{p.name}") for p in self.parameters)
        self.ax = self._clone_state("ax_", "zeros")

    def _update(self, k, param, grad, lr, step):
        mu, eta, ax = self.mu[k], self.eta[k], self.ax[k]
        eta_now = ops.where(ops.equal(step, 1), ops.cast(lr, dt.float32), eta)
        new_param = ops.sub(ops.mul(param, ops.sub(1.0, ops.mul(eta_now, self.lambd))),
                            ops.mul(grad, eta_now))
        param.assign_value(new_param)
        averaged = ops.add(ax, ops.mul(ops.sub(new_param, ax), mu))
        ax.assign_value(ops.where(ops.not_equal(mu, 1.0), averaged, new_param))
        t = ops.cast(step, dt.float32)
        eta.assign_value(ops.div(lr, ops.pow(ops.add(ops.mul(ops.mul(lr, t), self.lambd), 1.0),
                                             self.alpha)))
        mu.assign_value(ops.div(1.0, ops.maximum(ops.sub(t, self.t0), 1.0)))


class Rprop(_PerParameterStep):
    def __init__(self, params, learning_rate=0.1, etas=(0.5, 1.2), step_sizes=(1e-6, 50.),
                 weight_decay=0.):
        super().__init__(learning_rate, params, weight_decay)
        for name, value in (("etas", etas), ("step_sizes", step_sizes)):
            if not isinstance(value, tuple):
                raise TypeError(f"Rprop: '{name}' must be a tuple, got {type(value).__name__}")
            if len(value) != 2:
                raise ValueError(f"Rprop: '{name}' must be a tuple of 2 values, got {value!r}")
        if step_sizes[0] > step_sizes[1]:
            raise ValueError(f"Rprop: the minimal step size must not exceed the maximal one, "
                             f"got {step_sizes[0]} > {step_sizes[1]}")
        self.etaminus = float_range("Rprop", "etaminus", etas[0], 0.0, 1.0)
        self.etaplus = strict_float("Rprop", "etaplus", etas[1])
        if self.etaplus <= 1.0:
            raise ValueError(f"Rprop: etaplus must be > 1.0, got {self.etaplus}")
        self.step_size_min = strict_float("Rprop", "min_step_sizes", step_sizes[0])
        self.step_size_max = strict_float("Rprop", "max_step_sizes", step_sizes[1])
        self.prev = self._clone_state("prev", "zeros")
        self.step_size = self._clone_state("step_size", "zeros")

    def _update(self, k, param, grad, lr, step):
        prev, step_size = self.prev[k], self.step_size[k]
        sizes = ops.where(ops.equal(step, 1), ops.mul(ops.ones_like(step_size), lr), step_size)
        agreement = ops.sign(ops.mul(grad, prev))
        factor = ops.where(ops.gt(agreement, 0), self.etaplus,
                           ops.where(ops.lt(agreement, 0), self.etaminus, 1.0))
        factor = ops.cast(factor, param.dtype)
        sizes = ops.clip_by_value(ops.mul(sizes, factor), self.step_size_min,
                                  self.step_size_max)
        kept = ops.where(ops.lt(agreement, 0), ops.zeros_like(grad), grad)
        param.assign_value(ops.sub(param, ops.mul(ops.sign(kept), sizes)))
        prev.assign_value(kept)
        step_size.assign_value(sizes)
