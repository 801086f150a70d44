"""AdaFactor (Shazeer & Stern 2018) as MindSpore's ``nn.AdaFactor`` computes it. ``t`` is
the step number, ``RMS(x) = sqrt(mean(x^2))``:

    lr_t = min(1e-6 t if warmup_init else 1e-2, 1 / sqrt(t))     (relative_step)
    lr_t *= max(eps2, RMS(p))                                    (scale_parameter)
    beta2_t = 1 - t^-decay_rate;  G = g^2 + eps1
    a matrix (2 or more dims): row = beta2_t row + (1 - beta2_t) mean(G, -1)
                               col = beta2_t col + (1 - beta2_t) mean(G, -2)
                               u = g / sqrt(row / mean(row) (x) col)
    otherwise:                 v = beta2_t v + (1 - beta2_t) G;  u = g / sqrt(v)
    u = lr_t * u / max(1, RMS(u) / clip_threshold)
    beta1 > 0: m = beta1 m + (1 - beta1) u;  u = m
    p = p - weight_decay * lr_t * p - u

As in MindSpore, the gradients are used as given (no loss-scale division, no decay added
to them) and a non-number learning rate (a schedule) turns parameter scaling off.
"""
import numbers

import numpy as np

from ... import ops
from ... import dtype as dt
from ...tensor import Tensor, Parameter
from ..cell import ParameterTuple
from .optimizer import Optimizer
from ._hyper import float_range, non_negative, flag

__all__ = ["AdaFactor"]


def _rms(x):
    return ops.sqrt(ops.mean(ops.mul(x, x)))


def _state(shape, dtype, name):
    return Parameter(Tensor(np.zeros(shape, dtype)), name=name, requires_grad=False)


class AdaFactor(Optimizer):
    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0,
                 decay_rate=0.8, beta1=0.9, weight_decay=0.0, scale_parameter=True,
                 relative_step=True, warmup_init=False, compression=False, loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise ValueError(f"AdaFactor: a learning_rate ({learning_rate!r}) cannot be "
                             f"combined with relative_step=True")
        if warmup_init and not relative_step:
            raise ValueError("AdaFactor: warmup_init=True needs relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("AdaFactor: relative_step=False needs a learning_rate")
        learning_rate = 0.0 if learning_rate is None else learning_rate
        beta1 = 0.0 if beta1 is None else beta1
        # the step-relative rate and parameter scaling need a number, not a schedule
        self.scale_lr = isinstance(learning_rate, numbers.Real)
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        who = "AdaFactor"
        if not isinstance(eps, (list, tuple)):
            raise TypeError(f"AdaFactor: 'eps' must be a list or tuple, got {eps!r}")
        if len(eps) != 2:
            raise ValueError(f"AdaFactor: 'eps' must have 2 values (eps1, eps2), got {eps!r}")
        self.eps = tuple(non_negative(who, f"eps{i}", e) for i, e in enumerate(eps))
        self.clip_threshold = non_negative(who, "clip_threshold", clip_threshold)
        self.decay_rate = float_range(who, "decay_rate", decay_rate, 0.0, 1.0)
        self.adafactor_decay = float_range(who, "weight_decay", float(weight_decay), 0.0, 1.0,
                                           closed=(True, False))
        for name, value in (("scale_parameter", scale_parameter),
                            ("relative_step", relative_step), ("compression", compression)):
            flag(who, name, value)
        if isinstance(beta1, bool) or not isinstance(beta1, numbers.Real):
            raise TypeError(f"AdaFactor: 'beta1' must be an int or float, got {beta1!r}")
        self.beta1 = non_negative(who, "beta1", float(beta1))
        self.scale_parameter = scale_parameter and self.scale_lr
        self.relative_step, self.warmup_init = relative_step, warmup_init
        self.compression = compression
        self.use_first_moment = self.beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._clone_state("exp_avg", "zeros")
        rows, cols, full = [], [], []
        for p in self.parameters:
            shape, dtype = tuple(p.shape), p.dtype
            factored = len(shape) > 1
            rows.append(_state(shape[:-1] if factored else (1,), dtype,
                               f"exp_avg_sq_row_{p.name}"))
            cols.append(_state(shape[:-2] + shape[-1:] if factored else (1,), dtype,
                               f"exp_avg_sq_col_{p.name}"))
            full.append(_state((1,) if factored else shape,
                               np.float16 if compression and not factored else dtype,
                               f"exp_avg_sq_{p.name}"))
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(full)
        self.step = Parameter(Tensor(np.zeros((1,), np.float32)), name="afactor_step",
                              requires_grad=False)

    def _second_moment(self, k, grad, beta2t):
        """The preconditioned gradient ``g / sqrt(v)`` (``v`` factored for a matrix)."""
        squared = ops.add(ops.mul(grad, grad), self.eps[0])
        if grad.ndim > 1:
            row, col = self.exp_avg_sq_row[k], self.exp_avg_sq_col[k]
            new_row = ops.add(ops.mul(row, beta2t),
                              ops.mul(ops.mean(squared, -1), ops.sub(1.0, beta2t)))
            new_col = ops.add(ops.mul(col, beta2t),
                              ops.mul(ops.mean(squared, -2), ops.sub(1.0, beta2t)))
            row.assign_value(new_row)
            col.assign_value(new_col)
            row_factor = ops.rsqrt(ops.div(new_row, ops.mean(new_row, -1, keep_dims=True)))
            col_factor = ops.rsqrt(new_col)
            return ops.mul(ops.mul(ops.expand_dims(row_factor, -1),
                                   ops.expand_dims(col_factor, -2)), grad)
        v = self.exp_avg_sq[k]
        new_v = ops.add(ops.mul(ops.cast(v, grad.dtype), beta2t),
                        ops.mul(squared, ops.sub(1.0, beta2t)))
        v.assign_value(ops.cast(new_v, v.dtype))
        return ops.mul(ops.rsqrt(ops.cast(v, grad.dtype)), grad)

    def construct(self, gradients):
        gradients = self._check_gradients(gradients)
        lr = self.get_lr()
        step = ops.add(self.step, 1.0)
        self.step.assign_value(step)
        step = ops.reshape(step, ())
        if self.scale_lr and self.relative_step:
            min_step = ops.mul(step, 1e-6) if self.warmup_init else 1e-2
            relative = ops.minimum(min_step, ops.rsqrt(step))
            lr = tuple(relative for _ in self.parameters) if isinstance(lr, tuple) else relative
        beta2t = ops.sub(1.0, ops.pow(step, -self.decay_rate))
        for k, (param, grad) in enumerate(zip(self.parameters, gradients)):
            lr_k = self._lr_of(lr, k)
            if self.scale_parameter:
                lr_k = ops.mul(lr_k, ops.maximum(_rms(param), self.eps[1]))
            update = self._second_moment(k, grad, beta2t)
            clip = ops.maximum(ops.div(_rms(update), self.clip_threshold), 1.0)
            update = ops.mul(ops.div(update, clip), lr_k)
            if self.use_first_moment:
                new_avg = ops.add(ops.mul(self.exp_avg[k], self.beta1),
                                  ops.mul(update, 1.0 - self.beta1))
                self.exp_avg[k].assign_value(new_avg)
                update = new_avg
            value = param
            if self.adafactor_decay > 0:
                value = ops.sub(value, ops.mul(ops.mul(param, self.adafactor_decay), lr_k))
            param.assign_value(ops.sub(value, update))
        return True
