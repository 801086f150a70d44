"""More activation cells: shrinking, thresholding, softmin, randomized leaky ReLU, fast GELU
and PReLUExt (one cell per ``ops`` function, with MindSpore's constructor arguments)."""
import numpy as np

from ... import ops
from ... import dtype as dt
from ...tensor import Tensor, Parameter
from ..cell import Cell
from .. import _checks

__all__ = ["HShrink", "SoftShrink", "Tanhshrink", "Threshold", "Softmin", "Softmax2d",
           "RReLU", "FastGelu", "PReLUExt"]


class HShrink(Cell):
    """Hard shrink (``ops.hardshrink``): ``x`` where ``|x| > lambd``, else 0.

    Args: ``lambd`` a number (0.5).

    >>> import tensorjit as ms
    >>> ms.nn.HShrink()(ms.Tensor([-1.0, 0.25])).asnumpy().tolist()
    [-1.0, 0.0]
    """

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _checks.number(lambd, "lambd", "HShrink")

    def construct(self, input):
        return ops.hardshrink(input, self.lambd)


class SoftShrink(Cell):
    """Soft shrink (``ops.softshrink``): ``x`` moved ``lambd`` towards 0, and 0 within
    ``[-lambd, lambd]``.

    Args: ``lambd`` a number >= 0 (0.5; a negative one raises RuntimeError when called).

    >>> import tensorjit as ms
    >>> ms.nn.SoftShrink()(ms.Tensor([-1.0, 0.25])).asnumpy().tolist()
    [-0.5, 0.0]
    """

    def __init__(self, lambd=0.5):
        super().__init__()
        self.lambd = _checks.number(lambd, "lambd", "SoftShrink")

    def construct(self, input):
        return ops.softshrink(input, self.lambd)


class Tanhshrink(Cell):
    """``x - tanh(x)``; integer inputs compute in float32 (as in MindSpore).

    >>> import tensorjit as ms
    >>> ms.nn.Tanhshrink()(ms.Tensor([0.0])).asnumpy().tolist()
    [0.0]
    """

    def construct(self, x):
        x = ops.as_tensor(x)
        if not dt.is_float(x.dtype):
            x = ops.cast(x, dt.float32)
        return ops.sub(x, ops.tanh(x))


class Threshold(Cell):
    """``x`` where ``x > threshold``, else ``value`` (``ops.threshold``).

    Args: ``threshold``, ``value`` numbers (required).

    >>> import tensorjit as ms
    >>> ms.nn.Threshold(0.5, 9.0)(ms.Tensor([0.1, 1.0])).asnumpy().tolist()
    [9.0, 1.0]
    """

    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = _checks.number(threshold, "threshold", "Threshold")
        self.value = _checks.number(value, "value", "Threshold")

    def construct(self, input_x):
        return ops.threshold(input_x, self.threshold, self.value)


class Softmin(Cell):
    """``softmax(-x, axis)`` (``ops.softmin``).

    Args: ``axis`` an int (-1).

    >>> import tensorjit as ms
    >>> ms.nn.Softmin()(ms.Tensor([1.0, 1.0])).asnumpy().tolist()
    [0.5, 0.5]
    """

    def __init__(self, axis=-1):
        super().__init__()
        self.axis = axis

    def construct(self, x):
        return ops.softmin(x, self.axis)


class Softmax2d(Cell):
    """Softmax over the channels (axis -3) of a (C, H, W) or (N, C, H, W) tensor; other
    ranks raise ValueError.

    >>> import tensorjit as ms, numpy as np
    >>> ms.nn.Softmax2d()(ms.Tensor(np.zeros((2, 1, 1), np.float32))).asnumpy().ravel().tolist()
    [0.5, 0.5]
    """

    def construct(self, x):
        if x.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: the input must have 3 or 4 dims, got {x.ndim} "
                             f"(shape {tuple(x.shape)})")
        return ops.softmax(x, -3)


class RReLU(Cell):
    """Randomized leaky ReLU: negative inputs are scaled by a slope drawn uniformly from
    [lower, upper) per element in training mode; in inference mode (``set_train(False)``)
    by the mean slope ``(lower + upper) / 2`` (PyTorch's rule; MindSpore 2.10's cell draws
    at random in both modes).

    Args: ``lower`` (1/8), ``upper`` (1/3): numbers with ``lower <= upper`` (else ValueError).

    >>> import tensorjit as ms
    >>> layer = ms.nn.RReLU(0.2, 0.4); _ = layer.set_train(False)
    >>> [round(v, 4) for v in layer(ms.Tensor([-1.0, 2.0])).asnumpy().tolist()]
    [-0.3, 2.0]
    """

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3):
        super().__init__()
        self.lower = _checks.number(lower, "lower", "RReLU")
        self.upper = _checks.number(upper, "upper", "RReLU")
        if self.lower > self.upper:
            raise ValueError(f"RReLU: 'upper' must be greater than or equal to 'lower', got "
                             f"upper {upper}, lower {lower}")

    def construct(self, x):
        if self.training:
            return ops.rrelu(x, self.lower, self.upper)
        return ops.leaky_relu(x, (self.lower + self.upper) / 2)

    def extend_repr(self):
        return f"lower={self.lower}, upper={self.upper}"


class FastGelu(Cell):
    """Fast GELU ``x * sigmoid(1.702 x)`` (``ops.fast_gelu``); integer inputs raise
    TypeError, as in MindSpore.

    >>> import tensorjit as ms
    >>> ms.nn.FastGelu()(ms.Tensor([0.0])).asnumpy().tolist()
    [0.0]
    """

    def construct(self, x):
        x = ops.as_tensor(x)
        if not dt.is_float(x.dtype):
            raise TypeError(f"FastGelu: expected a floating-point tensor, got {x.dtype}")
        return ops.fast_gelu(x)


class PReLUExt(Cell):
    """PReLU with PyTorch's constructor: a learned slope ``weight`` of ``num_parameters``
    values (1: shared; else one per channel, axis 1), each starting at ``init``.

    Args: ``num_parameters`` a positive int (1); ``init`` a number (0.25); ``dtype`` the
    Parameter's dtype (float32 when None).

    >>> import tensorjit as ms
    >>> ms.nn.PReLUExt()(ms.Tensor([-1.0, 2.0])).asnumpy().tolist()
    [-0.25, 2.0]
    """

    def __init__(self, num_parameters=1, init=0.25, dtype=None):
        super().__init__()
        count = _checks.positive_int(num_parameters, "num_parameters", "PReLUExt")
        init = _checks.number(init, "init", "PReLUExt")
        values = np.full((count,), init, dt.as_dtype(dtype) if dtype is not None else
                         np.float32)
        self.weight = Parameter(Tensor(values), name="weight")

    def construct(self, input):
        return ops.prelu(input, self.weight)
