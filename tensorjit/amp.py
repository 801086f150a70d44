"""``tensorjit.amp``: mixed precision as MindSpore defines it.

``auto_mixed_precision(net, level)`` rewrites a network's cells:

- ``O0``: unchanged.
- ``O1``: the cells of the white list (``Conv2d``, ``Dense``) compute in float16 and hand
  float32 back.
- ``O2``: the whole network computes in float16 except the cells of the black list
  (``BatchNorm1d``, ``BatchNorm2d``, ``LayerNorm``), which compute in float32 and hand
  float16 on; the network's output is float32.
- ``O3``: the whole network in float16, output float32.

``build_train_network`` adds the loss and the train step (with loss scaling for O2, as
MindSpore's level table says); the loss scalers and managers keep the scale in Parameters
so compiled steps read and update it at run time. ``Cell.to_float`` is the mechanism
underneath: a cell set to float16 casts its inputs and trainable parameters when it runs.
"""
import numbers

import numpy as np

from . import ops
from . import dtype as dt
from .tensor import Tensor, Parameter
from . import nn
from .nn.loss_scale import (DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell,
                            TrainOneStepWithLossScaleCell, all_finite)

__all__ = ["auto_mixed_precision", "build_train_network", "get_white_list", "get_black_list",
           "LossScaler", "StaticLossScaler", "DynamicLossScaler", "all_finite",
           "LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager",
           "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell"]

LEVELS = ("O0", "O1", "O2", "O3")


def get_white_list():
    """Cells that O1 runs in low precision."""
    return [nn.Conv2d, nn.Dense]


def get_black_list():
    """Cells that O2 keeps in float32."""
    return [nn.BatchNorm1d, nn.BatchNorm2d, nn.LayerNorm]


class _OutputTo(nn.Cell):
    """Runs ``backbone`` and casts its floating outputs to ``dtype``."""

    def __init__(self, backbone, dtype):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self.dtype = dt.as_dtype(dtype)

    def construct(self, *args, **kwargs):
        return _cast_output(self._backbone(*args, **kwargs), self.dtype)


def _cast_output(value, dtype):
    if isinstance(value, Tensor) and dt.is_float(value.dtype) and value.dtype != dtype:
        return ops.cast(value, dtype)
    if isinstance(value, (tuple, list)):
        return type(value)(_cast_output(v, dtype) for v in value)
    return value


def _replace_children(cell, classes, make):
    """Replace every cell below ``cell`` that is an instance of ``classes`` by
    ``make(child)``; returns how many."""
    count = 0
    for name, child in list(cell._cells.items()):
        if child is None:
            continue
        if isinstance(child, tuple(classes)):
            cell._cells[name] = make(child)
            count += 1
        else:
            count += _replace_children(child, classes, make)
    return count


def auto_mixed_precision(network, amp_level="O0", dtype=dt.float16):
    """The network rewritten for ``amp_level`` (see the module's doc)."""
    if not isinstance(network, nn.Cell):
        raise TypeError(f"auto_mixed_precision: 'network' must be a Cell, got "
                        f"{type(network).__name__}")
    if amp_level not in LEVELS:
        raise ValueError(f"auto_mixed_precision: amp_level must be one of {LEVELS}, got "
                         f"{amp_level!r}")
    dtype = dt.as_dtype(dtype)
    if dtype not in (dt.float16, dt.bfloat16):
        raise ValueError(f"auto_mixed_precision: dtype must be float16 or bfloat16, got {dtype}")
    if amp_level == "O0":
        return network
    if amp_level == "O1":
        def low(child):
            return _OutputTo(child.to_float(dtype), dt.float32)
        if isinstance(network, tuple(get_white_list())):
            network = low(network)
        else:
            _replace_children(network, get_white_list(), low)
    else:
        network.to_float(dtype)
        if amp_level == "O2":
            _replace_children(network, get_black_list(),
                              lambda child: _OutputTo(child.to_float(dt.float32), dtype))
        network = _OutputTo(network, dt.float32)
    object.__setattr__(network, "_amp_level", amp_level)
    return network


# ---- loss scalers (functional style) ---------------------------------------------------

class LossScaler:
    def scale(self, inputs):
        raise NotImplementedError

    def unscale(self, inputs):
        raise NotImplementedError

    def adjust(self, grads_finite):
        raise NotImplementedError


def _map(fn, inputs):
    if isinstance(inputs, Tensor):
        return fn(inputs)
    return type(inputs)(_map(fn, v) for v in inputs) if isinstance(inputs, (tuple, list)) \
        else inputs


def _check_scale(value, who):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or value < 1:
        raise ValueError(f"{who}: 'scale_value' must be a number >= 1, got {value!r}")
    return float(value)


class StaticLossScaler(LossScaler):
    """A fixed scale: ``scale(x) = x * scale_value``, ``unscale(g) = g / scale_value``."""

    def __init__(self, scale_value):
        self.scale_value = Parameter(Tensor(np.float32(_check_scale(scale_value,
                                                                     "StaticLossScaler"))),
                                     name="scale_value", requires_grad=False)

    def scale(self, inputs):
        return _map(lambda t: ops.mul(t, ops.cast(self.scale_value, t.dtype)), inputs)

    def unscale(self, inputs):
        return _map(lambda t: ops.div(t, ops.cast(self.scale_value, t.dtype)), inputs)

    def adjust(self, grads_finite):
        return False


class DynamicLossScaler(StaticLossScaler):
    """A scale that shrinks by ``scale_factor`` (not below 1) when the gradients are not
    finite and grows by it after ``scale_window`` finite steps in a row."""

    def __init__(self, scale_value, scale_factor, scale_window):
        super().__init__(scale_value)
        for name, value in (("scale_factor", scale_factor), ("scale_window", scale_window)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
                raise ValueError(f"DynamicLossScaler: '{name}' must be a positive int, got "
                                 f"{value!r}")
        self.scale_factor, self.scale_window = int(scale_factor), int(scale_window)
        self.counter = Parameter(Tensor(np.int32(0)), name="counter", requires_grad=False)

    def adjust(self, grads_finite):
        grown = ops.mul(self.scale_value, float(self.scale_factor))
        at_window = ops.equal(self.counter, self.scale_window - 1)
        keep_or_grow = ops.where(at_window, ops.where(ops.isfinite(grown), grown,
                                                      self.scale_value), self.scale_value)
        shrunk = ops.maximum(ops.div(self.scale_value, float(self.scale_factor)), 1.0)
        self.scale_value.assign_value(ops.where(grads_finite, keep_or_grow, shrunk))
        counter = ops.mul(ops.remainder(ops.add(self.counter, 1), self.scale_window),
                          ops.cast(grads_finite, dt.int32))
        self.counter.assign_value(counter)
        return True


# ---- loss scale managers (Model / build_train_network) ---------------------------------

class LossScaleManager:
    def get_loss_scale(self):
        raise NotImplementedError

    def get_update_cell(self):
        raise NotImplementedError

    def update_loss_scale(self, overflow):
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A fixed scale; with ``drop_overflow_update`` steps whose gradients overflow are
    skipped, otherwise the optimizer divides by the scale itself (its ``loss_scale``)."""

    def __init__(self, loss_scale=128.0, drop_overflow_update=True):
        if isinstance(loss_scale, bool) or not isinstance(loss_scale, numbers.Real) or \
                loss_scale < 1:
            raise ValueError(f"FixedLossScaleManager: 'loss_scale' must be >= 1, got "
                             f"{loss_scale!r}")
        self.loss_scale = float(loss_scale)
        self.drop_overflow_update = bool(drop_overflow_update)

    def get_loss_scale(self):
        return self.loss_scale

    def get_drop_overflow_update(self):
        return self.drop_overflow_update

    def update_loss_scale(self, overflow):
        pass

    def get_update_cell(self):
        return FixedLossScaleUpdateCell(self.loss_scale) if self.drop_overflow_update else None


class DynamicLossScaleManager(LossScaleManager):
    def __init__(self, init_loss_scale=2 ** 24, scale_factor=2, scale_window=2000):
        if init_loss_scale < 1:
            raise ValueError(f"DynamicLossScaleManager: 'init_loss_scale' must be >= 1, got "
                             f"{init_loss_scale!r}")
        self.loss_scale = float(init_loss_scale)
        self.scale_factor, self.scale_window = scale_factor, scale_window

    def get_loss_scale(self):
        return self.loss_scale

    def get_drop_overflow_update(self):
        return True

    def update_loss_scale(self, overflow):
        self.loss_scale = max(self.loss_scale / self.scale_factor, 1.0) if overflow else \
            self.loss_scale

    def get_update_cell(self):
        return DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


# ---- build_train_network ---------------------------------------------------------------

_LEVEL_CONFIG = {"O0": (dt.float32, None), "O1": (dt.float32, None),
                 "O2": (dt.float16, DynamicLossScaleManager), "O3": (dt.float16, None)}


class _WithLossCellFloat32(nn.Cell):
    """The loss of a low-precision network, computed in float32."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        out = _cast_output(self._backbone(data), dt.float32)
        return self._loss_fn(out, _cast_output(label, dt.float32))


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0",
                        **kwargs):
    """A train step for ``network`` at mixed-precision ``level``: ``step(data, label)`` (or
    ``step(*inputs)`` without ``loss_fn``) returns the loss (and, with a loss scale, whether
    the gradients overflowed and the scale). ``kwargs``: ``cast_model_type``,
    ``keep_batchnorm_fp32``, ``loss_scale_manager`` override the level's settings."""
    if level not in LEVELS:
        raise ValueError(f"build_train_network: level must be one of {LEVELS}, got {level!r}")
    unknown = set(kwargs) - {"cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"}
    if unknown:
        raise ValueError(f"build_train_network: unknown arguments {sorted(unknown)}")
    cast_type, manager_class = _LEVEL_CONFIG[level]
    cast_type = dt.as_dtype(kwargs.get("cast_model_type", cast_type))
    manager = kwargs["loss_scale_manager"] if "loss_scale_manager" in kwargs else (
        manager_class() if manager_class else None)
    keep_bn = kwargs.get("keep_batchnorm_fp32", level == "O2")
    if cast_type in (dt.float16, dt.bfloat16):
        network = auto_mixed_precision(network, "O2" if keep_bn else "O3", cast_type)
    elif level == "O1":
        network = auto_mixed_precision(network, "O1")
    if loss_fn is not None:
        network = (_WithLossCellFloat32(network, loss_fn) if cast_type != dt.float32
                   else nn.WithLossCell(network, loss_fn))
    if manager is None:
        return nn.TrainOneStepCell(network, optimizer).set_train()
    if not isinstance(manager, LossScaleManager):
        raise TypeError(f"build_train_network: 'loss_scale_manager' must be a "
                        f"LossScaleManager, got {type(manager).__name__}")
    update_cell = manager.get_update_cell()
    if update_cell is None:
        # a fixed scale the optimizer divides out itself (its loss_scale argument)
        return nn.TrainOneStepCell(network, optimizer, sens=manager.get_loss_scale()).set_train()
    return TrainOneStepWithLossScaleCell(network, optimizer, update_cell).set_train()
