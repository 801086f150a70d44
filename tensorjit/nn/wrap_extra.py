"""More cell wrappers, as MindSpore's: ``ForwardValueAndGrad`` and ``WithGradCell``
(a network's output and gradients), ``Jvp`` / ``Vjp`` (a function's output with its
Jacobian-vector / vector-Jacobian product), ``ParameterUpdate`` (writes its input into a
Parameter), and ``GradAccumulationCell`` / ``MicroBatchInterleaved`` (the network run on
equal slices of the batch, the outputs summed: MindSpore's pipeline and interleaving
schedules, whose result is this sum)."""
import types

from .. import ops
from ..autodiff import GradOperation, vjp
from ..tensor import Tensor, Parameter
from .cell import Cell, ParameterTuple
from .wrap import WithLossCell

__all__ = ["ForwardValueAndGrad", "WithGradCell", "Jvp", "Vjp", "ParameterUpdate",
           "GradAccumulationCell", "MicroBatchInterleaved"]


class ForwardValueAndGrad(Cell):
    """``(network(*inputs), gradients)``, the gradients as ``GradOperation(get_all,
    get_by_list, sens_param)`` gives them (with ``sens_param`` the last input is the
    sensitivity, not passed to the network)."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False,
                 sens_param=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, types.FunctionType, types.MethodType)):
            raise TypeError(f"ForwardValueAndGrad: 'network' must be a Cell, function or "
                            f"method, got {type(network).__name__}")
        for name, value in (("get_all", get_all), ("get_by_list", get_by_list)):
            if not isinstance(value, bool):
                raise TypeError(f"ForwardValueAndGrad: '{name}' must be a bool, got {value!r}")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError(f"ForwardValueAndGrad: get_by_list=True needs 'weights' to be a "
                            f"list or tuple of Parameters, got {type(weights).__name__}")
        self.network = network
        if isinstance(network, Cell):
            network.set_grad()
        self.weights = weights
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param
        self.grad = GradOperation(get_all=get_all, get_by_list=get_by_list,
                                  sens_param=sens_param)

    def construct(self, *inputs):
        forward_inputs = inputs[:-1] if self.sens_param else inputs
        value = self.network(*forward_inputs)
        if self.get_by_list:
            grads = self.grad(self.network, self.weights)(*inputs)
        else:
            grads = self.grad(self.network)(*inputs)
        return value, grads


class WithGradCell(Cell):
    """The gradients of ``network`` (with ``loss_fn``: of ``loss_fn(network(data),
    label)``) with respect to its trainable parameters; ``sens`` scales them."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network, self.loss_fn, self.sens = network, loss_fn, sens
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = GradOperation(get_by_list=True, sens_param=sens is not None)
        self.network_with_loss = network if loss_fn is None else WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs):
        grad_fn = self.grad(self.network_with_loss, self.weights)
        if self.sens is None:
            return grad_fn(*inputs)
        return grad_fn(*inputs, self.sens)


def _as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _one_or_tuple(values):
    return values[0] if len(values) == 1 else tuple(values)


class Vjp(Cell):
    """``Vjp(fn)(*inputs, v)``: ``(fn(*inputs), v^T J)`` -- the gradient of each input (one
    bare for one input); ``v`` is the output's cotangent (a tuple for several outputs)."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], args[-1]
        output, pullback = vjp(self.fn, *inputs)
        return output, _one_or_tuple(pullback(*_as_tuple(v)))


class Jvp(Cell):
    """``Jvp(fn)(*inputs, v)``: ``(fn(*inputs), J v)`` -- ``v`` holds one tangent per input
    (bare for one input); the result one tangent per output (bare for one output). The
    product is the transpose of the (linear) vector-Jacobian product."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, *args):
        inputs, v = args[:-1], _as_tuple(args[-1])
        if len(v) != len(inputs):
            raise ValueError(f"Jvp: {len(v)} tangent(s) for {len(inputs)} input(s)")
        output, pullback = vjp(self.fn, *inputs)
        outs = [o for o in _as_tuple(output) if isinstance(o, Tensor)]
        placeholders = [ops.zeros_like(o) for o in outs]
        _, transpose = vjp(lambda *cotangents: pullback(*cotangents), *placeholders)
        return output, _one_or_tuple(transpose(*v))


class ParameterUpdate(Cell):
    """Writes its input into ``param`` and returns it."""

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"ParameterUpdate: 'param' must be a Parameter, got "
                            f"{type(param).__name__}")
        self._param = param

    def construct(self, x):
        self._param.assign_value(x)
        return x


class _Sliced(Cell):
    """The network on ``parts`` equal slices of every input's first axis, summed."""
    _who = ""

    def __init__(self, network, parts, name):
        super().__init__(auto_prefix=False)
        who = type(self).__name__
        if isinstance(parts, bool) or not isinstance(parts, int):
            raise TypeError(f"{who}: '{name}' must be an int, got {type(parts).__name__}")
        if parts <= 0:
            raise ValueError(f"{who}: '{name}' must be > 0, got {parts}")
        self.network, self.parts = network, parts

    def construct(self, *inputs):
        for x in inputs:
            if x.shape[0] % self.parts:
                raise ValueError(f"{type(self).__name__}: the first axis of every input "
                                 f"({x.shape[0]}) must be divisible by {self.parts}")
        total = None
        for i in range(self.parts):
            chunk = tuple(x[i * (x.shape[0] // self.parts):(i + 1) * (x.shape[0] // self.parts)]
                          for x in inputs)
            out = self.network(*chunk)
            total = out if total is None else ops.add(total, out)
        return total


class GradAccumulationCell(_Sliced):
    def __init__(self, network, micro_size):
        if not isinstance(network, Cell):
            raise TypeError(f"GradAccumulationCell: 'network' must be a Cell, got "
                            f"{type(network).__name__}")
        super().__init__(network, micro_size, "micro_size")
        self.micro_size = micro_size


class MicroBatchInterleaved(_Sliced):
    def __init__(self, network, interleave_num=2):
        super().__init__(network, interleave_num, "interleave_num")
        self.interleave_num = interleave_num
