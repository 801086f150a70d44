"""``Optimizer``: the base of the parameter-updating cells.

An optimizer is called with the tuple of gradients in ``optimizer.parameters`` order and
updates every parameter in place. All of its arithmetic is tensorjit ops and every write
goes through ``Parameter.assign_value``; its state (learning rate, step count, moments)
lives in Parameters. So a compiled graph of a training step records the updates as
side effects and reads the state at call time: nothing is frozen into the graph as a
Python number.

Learning rate: a number (fixed), a 0-d Tensor / Parameter (fixed; a Parameter given by the
user is used as is, so changing it changes the rate), a list / 1-D Tensor (dynamic: step
``i`` uses entry ``i``; past the end the last entry is kept), or a ``LearningRateSchedule``
cell (dynamic: called with the step counter, computed with ops at run time).

Parameter groups (MindSpore): ``params`` may be a list of dicts with keys ``params``,
``lr``, ``weight_decay`` and ``order_params``.
"""
import numbers
from collections.abc import Iterable

import numpy as np

from ... import ops
from ...tensor import Tensor, Parameter
from ..cell import Cell, ParameterTuple
from .. import parallel
from ..learning_rate_schedule import LearningRateSchedule

__all__ = ["Optimizer"]


def _decay_filter(param):
    """Without parameter groups, weight decay skips normalisation scales and shifts."""
    name = param.name or ""
    return "beta" not in name and "gamma" not in name


class Optimizer(Cell):
    # set by a wrapping optimizer (LARS) that reduces the gradients before it changes them
    gradients_reduced_outside = False

    def __init__(self, learning_rate, parameters, weight_decay=0.0, loss_scale=1.0):
        super().__init__(auto_prefix=False)
        name = type(self).__name__
        if isinstance(parameters, (Parameter, dict)) or not isinstance(parameters, Iterable):
            raise TypeError(f"{name}: 'params' must be a list of Parameters or of dicts, got "
                            f"{type(parameters).__name__}")
        parameters = list(parameters)
        if not parameters:
            raise ValueError(f"{name}: 'params' is empty: there is nothing to optimize")
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, numbers.Real):
            raise TypeError(f"{name}: 'loss_scale' must be a float, got {loss_scale!r}")
        if loss_scale <= 0:
            raise ValueError(f"{name}: 'loss_scale' must be > 0, got {loss_scale}")
        self.loss_scale = float(loss_scale)
        self.need_scale = self.loss_scale != 1.0
        weight_decay = self._check_weight_decay(weight_decay)

        if all(isinstance(p, Parameter) for p in parameters):
            self.is_group = self.is_group_lr = False
            self.parameters = ParameterTuple(parameters)
            self.learning_rate = self._build_lr(learning_rate, "learning_rate")
            # The decay is applied to the scaled gradient, hence the loss_scale factor.
            self.weight_decay = weight_decay * self.loss_scale
            self.decay_flags = tuple(_decay_filter(p) for p in self.parameters)
            lrs = [self.learning_rate]
        elif all(isinstance(p, dict) for p in parameters):
            self.is_group = True
            lrs = self._init_groups(parameters, learning_rate, weight_decay)
        else:
            raise TypeError(f"{name}: every element of 'params' must be a Parameter, or "
                            f"every element a dict (parameter groups)")
        self.exec_weight_decay = any(d and w > 0 for d, w in
                                     zip(self.decay_flags, self._decays()))
        self.dynamic_lr = any(isinstance(lr, LearningRateSchedule) or lr.ndim == 1
                              for lr in lrs)
        # The step count is a Parameter updated with ops, so a compiled training step
        # reads and advances it at run time (it drives dynamic learning rates).
        self.global_step = Parameter(Tensor(np.zeros((1,), np.int32)), name="global_step",
                                     requires_grad=False)
        # data parallel: every rank starts from rank 0's weights (nn/parallel.py)
        parallel.broadcast_if_data_parallel(self.parameters)

    # ---- construction helpers ---------------------------------------------------------
    def _check_weight_decay(self, weight_decay):
        if isinstance(weight_decay, bool) or not isinstance(weight_decay, numbers.Real):
            raise TypeError(f"{type(self).__name__}: 'weight_decay' must be a float, got "
                            f"{weight_decay!r}")
        if weight_decay < 0:
            raise ValueError(f"{type(self).__name__}: 'weight_decay' must be >= 0, got "
                             f"{weight_decay}")
        return float(weight_decay)

    def _build_lr(self, learning_rate, name):
        who = type(self).__name__
        if isinstance(learning_rate, LearningRateSchedule):
            return learning_rate
        if isinstance(learning_rate, Parameter):
            if learning_rate.ndim > 1:
                raise ValueError(f"{who}: a learning-rate tensor must be 0-d or 1-d, got "
                                 f"shape {tuple(learning_rate.shape)}")
            return learning_rate
        if isinstance(learning_rate, Tensor):
            values = learning_rate.asnumpy()
        elif isinstance(learning_rate, bool):
            raise TypeError(f"{who}: 'learning_rate' must be a number, a Tensor or a list, "
                            f"got a bool")
        elif isinstance(learning_rate, numbers.Real):
            values = np.asarray(learning_rate)
        elif isinstance(learning_rate, Iterable) and not isinstance(learning_rate, (str, dict)):
            values = np.asarray(list(learning_rate))
        else:
            raise TypeError(f"{who}: 'learning_rate' must be a number, a Tensor, a list or a "
                            f"LearningRateSchedule, got {type(learning_rate).__name__}")
        if values.ndim > 1 or values.size == 0 or values.dtype.kind not in "iuf":
            raise ValueError(f"{who}: 'learning_rate' must be a number or a non-empty 1-d "
                             f"sequence of numbers, got {learning_rate!r}")
        if (values < 0).any():
            raise ValueError(f"{who}: 'learning_rate' must be >= 0, got {learning_rate!r}")
        return Parameter(Tensor(values.astype(np.float32)), name=name, requires_grad=False)

    def _init_groups(self, groups, learning_rate, weight_decay):
        who = type(self).__name__
        params, param_lrs, param_decays, group_lrs, order = [], [], [], [], None
        default_lr = None
        for i, group in enumerate(groups):
            if "order_params" in group:
                order = list(group["order_params"])
                continue
            if "params" not in group:
                raise ValueError(f"{who}: parameter group {i} has no 'params' key")
            members = list(group["params"])
            if not members or not all(isinstance(p, Parameter) for p in members):
                raise TypeError(f"{who}: 'params' of group {i} must be a non-empty list of "
                                f"Parameters")
            if "lr" in group:
                lr = self._build_lr(group["lr"], f"learning_rate_group_{i}")
                group_lrs.append(lr)
            else:
                if default_lr is None:
                    default_lr = self._build_lr(learning_rate, "learning_rate")
                lr = default_lr
            decay = self._check_weight_decay(group.get("weight_decay", weight_decay))
            for p in members:
                params.append(p)
                param_lrs.append(lr)
                param_decays.append(decay * self.loss_scale)
        if order is not None:
            index = {id(p): k for k, p in enumerate(params)}
            missing = [p.name for p in order if id(p) not in index]
            if missing or len(order) != len(params):
                raise ValueError(f"{who}: 'order_params' must list exactly the parameters of "
                                 f"the groups; not in any group: {missing}")
            perm = [index[id(p)] for p in order]
            params = [params[k] for k in perm]
            param_lrs = [param_lrs[k] for k in perm]
            param_decays = [param_decays[k] for k in perm]
        self.parameters = ParameterTuple(params)
        self.is_group_lr = bool(group_lrs)
        lrs = list(group_lrs)
        if default_lr is not None:
            lrs.insert(0, default_lr)
        # Register every distinct learning-rate Parameter (and schedule) as state.
        if len(lrs) == 1:
            self.learning_rate = lrs[0]
        else:
            self.learning_rate = ParameterTuple(lr for lr in lrs if isinstance(lr, Parameter))
            for k, lr in enumerate(lrs):
                if isinstance(lr, LearningRateSchedule):
                    setattr(self, f"learning_rate_schedule_{k}", lr)
        self._param_lrs = tuple(param_lrs)
        self.weight_decay = tuple(param_decays)
        self.decay_flags = tuple(d > 0 for d in param_decays)
        return lrs

    def _decays(self):
        if isinstance(self.weight_decay, tuple):
            return self.weight_decay
        return (self.weight_decay,) * len(self.parameters)

    def _clone_state(self, prefix, init="zeros"):
        """Per-parameter state named ``<prefix>.<param name>`` (not trained)."""
        state = self.parameters.clone(prefix=prefix, init=init)
        for p in state:
            p.requires_grad = False
        return state

    # ---- the update pipeline (all ops) ------------------------------------------------
    def _check_gradients(self, gradients):
        who = type(self).__name__
        gradients = tuple(gradients)
        if len(gradients) != len(self.parameters):
            raise ValueError(f"{who}: got {len(gradients)} gradients for "
                             f"{len(self.parameters)} parameters")
        for g, p in zip(gradients, self.parameters):
            if not isinstance(g, Tensor) or tuple(g.shape) != tuple(p.shape):
                shape = tuple(g.shape) if isinstance(g, Tensor) else type(g).__name__
                raise ValueError(f"{who}: the gradient of parameter {p.name!r} has shape "
                                 f"{shape}, expected {tuple(p.shape)}")
        return self._reduce_across_ranks(gradients)

    def _reduce_across_ranks(self, gradients):
        """Data parallel with no ``DistributedGradReducer`` made for these parameters:
        the optimizer reduces the gradients itself (nn/parallel.py)."""
        if (parallel.data_parallel_group_size() == 1 or self.gradients_reduced_outside
                or parallel.has_reducer(self.parameters)):
            return gradients
        return parallel.reduce_gradients(gradients)

    def decay_weight(self, gradients):
        """``g + weight_decay * param`` for the parameters that decay."""
        if not self.exec_weight_decay:
            return gradients
        return tuple(ops.add(g, ops.mul(p, wd)) if flag and wd > 0 else g
                     for g, p, flag, wd in zip(gradients, self.parameters, self.decay_flags,
                                               self._decays()))

    def scale_grad(self, gradients):
        """Undo the loss scale: ``g / loss_scale``."""
        if not self.need_scale:
            return gradients
        return tuple(ops.mul(g, 1.0 / self.loss_scale) for g in gradients)

    def _lr_value(self, lr):
        """The rate of this step: the Parameter itself, entry ``global_step`` of a dynamic
        list (clamped to its last entry) or the schedule's value at ``global_step``."""
        if isinstance(lr, LearningRateSchedule):
            return ops.reshape(ops.cast(lr(self.global_step), np.float32), ())
        if lr.ndim == 0:
            return lr
        index = ops.minimum(self.global_step, lr.shape[0] - 1)
        return ops.reshape(ops.gather(lr, index, 0), ())

    def get_lr(self):
        """This step's learning rate (a tuple, one per parameter, with group rates); also
        advances ``global_step``."""
        if self.is_group:
            values = {}
            lrs = []
            for lr in self._param_lrs:
                if id(lr) not in values:
                    values[id(lr)] = self._lr_value(lr)
                lrs.append(values[id(lr)])
            result = tuple(lrs)
        else:
            result = self._lr_value(self.learning_rate)
        self.global_step.assign_value(ops.add(self.global_step, 1))
        return result

    def get_lr_parameter(self, param):
        """The learning-rate Parameter used for ``param`` (or a list for a list)."""
        if isinstance(param, (list, tuple)):
            return [self.get_lr_parameter(p) for p in param]
        for k, p in enumerate(self.parameters):
            if p is param:
                return self._param_lrs[k] if self.is_group else self.learning_rate
        raise ValueError(f"{type(self).__name__}: {param!r} is not optimized by this optimizer")

    @staticmethod
    def _lr_of(lr, k):
        return lr[k] if isinstance(lr, tuple) else lr

    def construct(self, gradients):
        raise NotImplementedError(f"{type(self).__name__}: an Optimizer subclass must define "
                                  f"construct(gradients)")

    def extend_repr(self):
        return f"parameters={len(self.parameters)}"
