"""Activation cells and ``get_activation`` (name -> cell)."""
import numpy as np

from ... import ops
from ...tensor import Tensor, Parameter
from ..cell import Cell
from ..initializer import initializer
from .. import _checks
from . import activation_extra as _extra

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "ELU", "Mish", "HSwish", "HSigmoid", "PReLU", "SeLU", "CELU",
           "LogSigmoid", "Softsign", "Hardtanh", "Softplus", "GLU", "get_activation"]


class ReLU(Cell):
    def construct(self, x):
        return ops.relu(x)


class ReLU6(Cell):
    def construct(self, x):
        return ops.relu6(x)


class LeakyReLU(Cell):
    def __init__(self, alpha=0.2):
        super().__init__()
        self.alpha = _checks.number(alpha, "alpha", "LeakyReLU")

    def construct(self, x):
        return ops.leaky_relu(x, self.alpha)

    def extend_repr(self):
        return f"alpha={self.alpha}"


class GELU(Cell):
    """GELU; ``approximate=True`` (MindSpore's default) uses the tanh approximation."""

    def __init__(self, approximate=True):
        super().__init__()
        self.approximate = _checks.boolean(approximate, "approximate", "GELU")

    def construct(self, x):
        return ops.gelu(x, approximate="tanh" if self.approximate else "none")

    def extend_repr(self):
        return f"approximate={self.approximate}"


class SiLU(Cell):
    def construct(self, x):
        return ops.silu(x)


class Sigmoid(Cell):
    def construct(self, x):
        return ops.sigmoid(x)


class Tanh(Cell):
    def construct(self, x):
        return ops.tanh(x)


class ELU(Cell):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = _checks.number(alpha, "alpha", "ELU")

    def construct(self, x):
        return ops.elu(x, self.alpha)


class Mish(Cell):
    def construct(self, x):
        return ops.mish(x)


class HSwish(Cell):
    """Hard swish: ``x * relu6(x + 3) / 6``."""

    def construct(self, input):
        return ops.hardswish(input)


class HSigmoid(Cell):
    """Hard sigmoid: ``relu6(x + 3) / 6``."""

    def construct(self, input):
        return ops.hardsigmoid(input)


class SeLU(Cell):
    def construct(self, input_x):
        return ops.selu(input_x)


class CELU(Cell):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = _checks.number(alpha, "alpha", "CELU")
        if self.alpha == 0:
            raise ValueError("CELU: 'alpha' must not be 0")

    def construct(self, x):
        return ops.celu(x, self.alpha)


class LogSigmoid(Cell):
    def construct(self, input):
        return ops.logsigmoid(input)


class Softsign(Cell):
    def construct(self, x):
        return ops.softsign(x)


class Hardtanh(Cell):
    def __init__(self, min_val=-1.0, max_val=1.0):
        super().__init__()
        self.min_val = _checks.number(min_val, "min_val", "Hardtanh")
        self.max_val = _checks.number(max_val, "max_val", "Hardtanh")
        if self.min_val > self.max_val:
            raise ValueError(f"Hardtanh: min_val ({min_val}) must not exceed max_val "
                             f"({max_val})")

    def construct(self, input):
        return ops.hardtanh(input, self.min_val, self.max_val)


class Softplus(Cell):
    """``log(1 + exp(beta * x)) / beta``, and ``x`` where ``beta * x > threshold``."""

    def __init__(self, beta=1, threshold=20):
        super().__init__()
        self.beta = _checks.number(beta, "beta", "Softplus", 0.0, low_open=True)
        self.threshold = _checks.number(threshold, "threshold", "Softplus")

    def construct(self, input):
        return ops.softplus(input, self.beta, self.threshold)


class GLU(Cell):
    """Gated linear unit: the first half of ``axis`` times the sigmoid of the second."""

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _axis(axis, "GLU")

    def construct(self, x):
        return ops.glu(x, self.axis)


class PReLU(Cell):
    """``x`` where positive, else ``w * x`` with a learned slope ``w`` per channel (axis 1)
    or one shared slope (``channel=1``); the Parameter is named 'a', as in MindSpore."""

    def __init__(self, channel=1, w=0.25):
        super().__init__()
        self.channel = _checks.positive_int(channel, "channel", "PReLU")
        if isinstance(w, (int, float)) and not isinstance(w, bool):
            values = initializer(float(w), (self.channel,))
        elif isinstance(w, (list, tuple)):
            values = Tensor(np.asarray(w, np.float32))
        elif isinstance(w, Tensor):
            values = w
        else:
            raise TypeError(f"PReLU: 'w' must be a float, a list or a Tensor, got "
                            f"{type(w).__name__}")
        if tuple(values.shape) != (self.channel,):
            raise ValueError(f"PReLU: 'w' must have {self.channel} values, got shape "
                             f"{tuple(values.shape)}")
        self.w = Parameter(values, name="a")

    def construct(self, x):
        return ops.prelu(x, self.w)


def _axis(axis, layer):
    if isinstance(axis, bool) or not isinstance(axis, (int, tuple, list)):
        raise TypeError(f"{layer}: 'axis' must be an int, got {axis!r}")
    if isinstance(axis, (tuple, list)):
        if len(axis) != 1:
            raise ValueError(f"{layer}: only a single axis is supported, got {axis!r}")
        axis = axis[0]
    return int(axis)


class Softmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _axis(axis, "Softmax")

    def construct(self, x):
        return ops.softmax(x, self.axis)

    def extend_repr(self):
        return f"axis={self.axis}"


class LogSoftmax(Cell):
    def __init__(self, axis=-1):
        super().__init__()
        self.axis = _axis(axis, "LogSoftmax")

    def construct(self, x):
        return ops.log_softmax(x, self.axis)

    def extend_repr(self):
        return f"axis={self.axis}"


_ACTIVATIONS = {
    "relu": ReLU, "relu6": ReLU6, "leakyrelu": LeakyReLU, "gelu": GELU, "silu": SiLU,
    "swish": SiLU, "sigmoid": Sigmoid, "tanh": Tanh, "softmax": Softmax,
    "logsoftmax": LogSoftmax, "elu": ELU, "mish": Mish, "hswish": HSwish,
    "hsigmoid": HSigmoid, "prelu": PReLU, "selu": SeLU, "celu": CELU,
    "logsigmoid": LogSigmoid, "softsign": Softsign, "hardtanh": Hardtanh,
    "softplus": Softplus,
    # activation_extra.py's cells, under MindSpore's names ("fast_gelu" is "fastgelu" here)
    "hshrink": _extra.HShrink, "softshrink": _extra.SoftShrink, "rrelu": _extra.RReLU,
    "tanhshrink": _extra.Tanhshrink, "softmin": _extra.Softmin,
    "softmax2d": _extra.Softmax2d, "fastgelu": _extra.FastGelu, "preluext": _extra.PReLUExt,
    "threshold": _extra.Threshold,
}


def get_activation(name, prim_name=None):
    """The activation cell called ``name`` ('relu', 'gelu', ...); None gives None."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise TypeError(f"get_activation: the name must be a str, got {type(name).__name__}")
    cls = _ACTIVATIONS.get(name.lower().replace("_", ""))
    if cls is None:
        who = prim_name or "get_activation"
        raise ValueError(f"{who}: unknown activation {name!r}; known: "
                         f"{', '.join(sorted(_ACTIVATIONS))}")
    return cls()
