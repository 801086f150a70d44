"""Learning-rate schedules as cells: ``schedule(global_step)`` gives the 0-d float32 rate of
that step, computed with ops, so an optimizer built with one reads its step counter (a
Parameter) at run time and a compiled training step never recompiles as the step grows.
"""
import math

from .. import ops
from .. import dtype as dt
from .cell import Cell
from .dynamic_lr import _number, _positive_int

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR",
           "CosineDecayLR", "PolynomialDecayLR", "WarmUpLR"]


class LearningRateSchedule(Cell):
    """Base class: subclasses define ``construct(global_step)``."""

    def construct(self, global_step):
        raise NotImplementedError(f"{type(self).__name__}: a LearningRateSchedule must define "
                                  f"construct(global_step)")

    @staticmethod
    def _step(global_step):
        return ops.reshape(ops.cast(global_step, dt.float32), ())


class _DecayLR(LearningRateSchedule):
    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        who = type(self).__name__
        self.learning_rate = _number(learning_rate, "learning_rate", who)
        self.decay_rate = _number(decay_rate, "decay_rate", who)
        self.decay_steps = float(_positive_int(decay_steps, "decay_steps", who))
        if not isinstance(is_stair, bool):
            raise TypeError(f"{who}: 'is_stair' must be a bool, got {is_stair!r}")
        self.is_stair = is_stair

    def _progress(self, global_step):
        p = ops.div(self._step(global_step), self.decay_steps)
        return ops.floor(p) if self.is_stair else p


class ExponentialDecayLR(_DecayLR):
    """``learning_rate * decay_rate ** (step / decay_steps)``."""

    def construct(self, global_step):
        return ops.mul(ops.pow(ops.full((), self.decay_rate, dtype=dt.float32),
                               self._progress(global_step)), self.learning_rate)


class NaturalExpDecayLR(_DecayLR):
    """``learning_rate * exp(-decay_rate * step)`` (stair: the step rounded down to a
    multiple of ``decay_steps``)."""

    def construct(self, global_step):
        step = self._step(global_step)
        if self.is_stair:
            step = ops.mul(ops.floor(ops.div(step, self.decay_steps)), self.decay_steps)
        return ops.mul(ops.exp(ops.mul(step, -self.decay_rate)), self.learning_rate)


class InverseDecayLR(_DecayLR):
    """``learning_rate / (1 + decay_rate * step / decay_steps)``."""

    def construct(self, global_step):
        return ops.div(self.learning_rate,
                       ops.add(ops.mul(self._progress(global_step), self.decay_rate), 1.0))


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + (max_lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps)) / 2``."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        who = type(self).__name__
        self.min_lr = _number(min_lr, "min_lr", who, positive=False)
        self.max_lr = _number(max_lr, "max_lr", who)
        if self.max_lr <= self.min_lr:
            raise ValueError(f"{who}: 'max_lr' must be > 'min_lr', got {max_lr} and {min_lr}")
        self.decay_steps = float(_positive_int(decay_steps, "decay_steps", who))

    def construct(self, global_step):
        p = ops.div(ops.minimum(self._step(global_step), self.decay_steps), self.decay_steps)
        cosine = ops.add(ops.cos(ops.mul(p, math.pi)), 1.0)
        return ops.add(ops.mul(cosine, 0.5 * (self.max_lr - self.min_lr)), self.min_lr)


class PolynomialDecayLR(LearningRateSchedule):
    """``(learning_rate - end) * (1 - step / decay_steps) ** power + end``, the step capped at
    ``decay_steps``; ``update_decay_steps`` stretches ``decay_steps`` to the next multiple of
    itself past the step instead (the decay restarts)."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power,
                 update_decay_steps=False):
        super().__init__()
        who = type(self).__name__
        self.learning_rate = _number(learning_rate, "learning_rate", who)
        self.end_learning_rate = _number(end_learning_rate, "end_learning_rate", who,
                                         positive=False)
        self.decay_steps = float(_positive_int(decay_steps, "decay_steps", who))
        self.power = _number(power, "power", who)
        if not isinstance(update_decay_steps, bool):
            raise TypeError(f"{who}: 'update_decay_steps' must be a bool, got "
                            f"{update_decay_steps!r}")
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step = self._step(global_step)
        if self.update_decay_steps:
            span = ops.mul(ops.maximum(ops.ceil(ops.div(step, self.decay_steps)), 1.0),
                           self.decay_steps)
        else:
            span = self.decay_steps
            step = ops.minimum(step, self.decay_steps)
        remaining = ops.sub(1.0, ops.div(step, span))
        return ops.add(ops.mul(ops.pow(remaining, self.power),
                               self.learning_rate - self.end_learning_rate),
                       self.end_learning_rate)


class WarmUpLR(LearningRateSchedule):
    """``learning_rate * min(step, warmup_steps) / warmup_steps``."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        who = type(self).__name__
        self.learning_rate = _number(learning_rate, "learning_rate", who)
        self.warmup_steps = float(_positive_int(warmup_steps, "warmup_steps", who))

    def construct(self, global_step):
        p = ops.div(ops.minimum(self._step(global_step), self.warmup_steps), self.warmup_steps)
        return ops.mul(p, self.learning_rate)
