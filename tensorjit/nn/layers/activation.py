"""Activation cells and ``get_activation`` (name -> cell)."""
from ... import ops
from ..cell import Cell
from .. import _checks

__all__ = ["ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax",
           "LogSoftmax", "ELU", "Mish", "get_activation"]


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
    "logsoftmax": LogSoftmax, "elu": ELU, "mish": Mish,
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
