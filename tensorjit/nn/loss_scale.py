"""Loss scaling for float16 training (MindSpore's ``nn`` cells): the update cells that keep
the scale, and ``TrainOneStepWithLossScaleCell``, a train step that scales the loss,
unscales the gradients and skips the optimizer update when they overflow.

Everything is ops on Parameters, with no Python branch on a tensor: a skipped update is
the optimizer's update followed by ``where(overflow, old, new)`` on every value it wrote,
so the step compiles to one graph in every capture mode.
"""
import numbers

import numpy as np

from .. import ops
from ..tensor import Tensor, Parameter
from ..autodiff import value_and_grad
from .cell import Cell
from .optim.optimizer import Optimizer

__all__ = ["DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "TrainOneStepWithLossScaleCell", "all_finite"]


def all_finite(inputs):
    """A bool 0-d tensor: every element of every tensor in ``inputs`` is finite."""
    inputs = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    flags = [ops.all(ops.isfinite(t)) for t in inputs]
    result = flags[0]
    for flag in flags[1:]:
        result = ops.logical_and(result, flag)
    return result


def _scale_value(value, who):
    if isinstance(value, Parameter):
        return value
    if isinstance(value, Tensor):
        value = float(value.asnumpy())
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value <= 0:
        raise ValueError(f"{who}: the loss scale must be a number > 0, got {value!r}")
    return Parameter(Tensor(np.float32(value)), name="loss_scale", requires_grad=False)


class DynamicLossScaleUpdateCell(Cell):
    """Called with ``(loss_scale, overflow)``: on overflow divides the scale by
    ``scale_factor`` (not below 1); after ``scale_window`` steps without one multiplies it
    by ``scale_factor``. Returns ``overflow``."""

    def __init__(self, loss_scale_value, scale_factor, scale_window):
        super().__init__()
        for name, value in (("scale_factor", scale_factor), ("scale_window", scale_window)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
                raise ValueError(f"DynamicLossScaleUpdateCell: '{name}' must be a positive "
                                 f"int, got {value!r}")
        self.loss_scale_value = float(loss_scale_value)
        self.scale_factor = float(scale_factor)
        self.scale_window = int(scale_window)
        self.cur_iter = Parameter(Tensor(np.int32(1)), name="current_iterator_step",
                                  requires_grad=False)
        self.last_overflow_iter = Parameter(Tensor(np.int32(0)), name="last_overflow_iterator_step",
                                            requires_grad=False)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        on_overflow = ops.where(overflow, ops.maximum(ops.div(loss_scale, self.scale_factor),
                                                      1.0), loss_scale)
        grow = ops.le(self.scale_window, ops.sub(self.cur_iter, self.last_overflow_iter))
        self.last_overflow_iter.assign_value(
            ops.where(ops.logical_or(overflow, grow), self.cur_iter, self.last_overflow_iter))
        grown = ops.mul(on_overflow, self.scale_factor)
        loss_scale.assign_value(ops.where(ops.logical_and(grow, ops.logical_not(overflow)),
                                          grown, on_overflow))
        self.cur_iter.assign_value(ops.add(self.cur_iter, 1))
        return overflow


class FixedLossScaleUpdateCell(Cell):
    """Keeps the scale; returns ``overflow`` (so the update is skipped on overflow)."""

    def __init__(self, loss_scale_value):
        super().__init__()
        self.loss_scale_value = float(loss_scale_value)

    def get_loss_scale(self):
        return self.loss_scale_value

    def construct(self, loss_scale, overflow):
        return overflow


class TrainOneStepWithLossScaleCell(Cell):
    """``loss, overflow, scale = step(*inputs)``: gradients of ``loss * scale``, divided by
    the scale; if any is not finite the optimizer leaves every parameter and its own state
    as they were. ``scale_sense`` is an update cell (its scale becomes a Parameter) or a
    Tensor / number (a fixed scale)."""

    def __init__(self, network, optimizer, scale_sense):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"TrainOneStepWithLossScaleCell: 'network' must be a Cell, got "
                            f"{type(network).__name__}")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"TrainOneStepWithLossScaleCell: 'optimizer' must be an "
                            f"nn.Optimizer, got {type(optimizer).__name__}")
        self.network = network
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        if isinstance(scale_sense, Cell):
            self.loss_scaling_manager = scale_sense
            self.scale_sense = _scale_value(scale_sense.get_loss_scale(),
                                            "TrainOneStepWithLossScaleCell")
        else:
            self.loss_scaling_manager = None
            self.scale_sense = _scale_value(scale_sense, "TrainOneStepWithLossScaleCell")
        self.grad_fn = value_and_grad(self._scaled_loss, None, self.weights, has_aux=True)
        # everything the optimizer may write: restored where the gradients overflowed
        self._optimizer_state = tuple({id(p): p for p in list(self.weights)
                                       + list(optimizer.get_parameters())}.values())

    def _scaled_loss(self, *inputs):
        loss = self.network(*inputs)
        return ops.mul(loss, ops.cast(self.scale_sense, loss.dtype)), loss

    def set_sense_scale(self, sens):
        self.scale_sense.set_data(Tensor(np.float32(float(sens.asnumpy() if isinstance(
            sens, Tensor) else sens))).reshape(self.scale_sense.shape))

    def construct(self, *inputs):
        (_, loss), grads = self.grad_fn(*inputs)
        scale = self.scale_sense
        grads = tuple(ops.div(g, ops.cast(scale, g.dtype)) for g in grads)
        overflow = ops.logical_not(all_finite(grads))
        if self.loss_scaling_manager is not None:
            overflow = self.loss_scaling_manager(scale, overflow)
        before = [ops.identity(p) for p in self._optimizer_state]
        self.optimizer(grads)
        for p, old in zip(self._optimizer_state, before):
            p.assign_value(ops.where(overflow, old, p))
        return loss, overflow, scale
