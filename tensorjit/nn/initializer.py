"""Parameter initializers (``mindspore.common.initializer``).

``initializer(init, shape, dtype)`` returns a Tensor filled according to ``init``: an
``Initializer`` instance, one of the string names, a number (a constant), or a Tensor /
ndarray that passes through. Random initializers draw from tensorjit's one generator
(``tensorjit.ops.random.generator()``), so ``tensorjit.set_seed(n)`` makes parameter
initialisation reproducible.
"""
import math
import numbers

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from ..ops import random as _random

__all__ = ["Initializer", "initializer", "Normal", "Uniform", "HeUniform", "HeNormal",
           "XavierUniform", "XavierNormal", "TruncatedNormal", "Zero", "One", "Constant"]


def _rng():
    # Looked up on every draw: set_seed replaces the generator object.
    return _random.generator()


def _fans(shape, who):
    """(fan_in, fan_out) of a weight of ``shape``: (out, in, *kernel) layout."""
    if len(shape) < 2:
        raise ValueError(f"{who}: fan_in and fan_out cannot be computed for a tensor with "
                         f"fewer than 2 dimensions, got shape {tuple(shape)}")
    receptive = math.prod(shape[2:]) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity, negative_slope, who):
    """Recommended gain for a nonlinearity (the He initializers scale by it)."""
    nonlinearity = nonlinearity.lower()
    linear = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
              "conv_transpose2d", "conv_transpose3d", "sigmoid")
    if nonlinearity in linear:
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if negative_slope is None else negative_slope
        if isinstance(slope, bool) or not isinstance(slope, numbers.Real):
            raise TypeError(f"{who}: negative_slope must be a number, got {slope!r}")
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"{who}: unsupported nonlinearity {nonlinearity!r}")


class Initializer:
    """Base class: subclasses implement ``_sample(shape) -> float64 ndarray``."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def _sample(self, shape):
        raise NotImplementedError(f"{type(self).__name__} must implement _sample(shape)")

    def __call__(self, arr):
        """MindSpore-style in-place fill of a NumPy array."""
        arr[...] = self._sample(arr.shape)
        return arr

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self._kwargs.items())
        return f"{type(self).__name__}({args})"


class Zero(Initializer):
    def _sample(self, shape):
        return np.zeros(shape)


class One(Initializer):
    def _sample(self, shape):
        return np.ones(shape)


class Constant(Initializer):
    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def _sample(self, shape):
        value = self.value.asnumpy() if isinstance(self.value, Tensor) else self.value
        return np.broadcast_to(np.asarray(value), shape).copy()


class Normal(Initializer):
    """Samples from N(mean, sigma^2)."""

    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def _sample(self, shape):
        return _rng().normal(self.mean, self.sigma, shape)


class Uniform(Initializer):
    """Samples from U(-scale, scale)."""

    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def _sample(self, shape):
        return _rng().uniform(-self.scale, self.scale, shape)


def _check_mode(mode, who):
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"{who}: mode must be 'fan_in' or 'fan_out', got {mode!r}")
    return mode


class HeUniform(Initializer):
    """Kaiming uniform: U(-b, b) with b = gain * sqrt(3 / fan)."""

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = _check_mode(mode, "HeUniform")
        self.nonlinearity = nonlinearity

    def _sample(self, shape):
        fan_in, fan_out = _fans(shape, "HeUniform")
        fan = fan_in if self.mode == "fan_in" else fan_out
        bound = _gain(self.nonlinearity, self.negative_slope, "HeUniform") * math.sqrt(3.0 / fan)
        return _rng().uniform(-bound, bound, shape)


class HeNormal(Initializer):
    """Kaiming normal: N(0, (gain / sqrt(fan))^2)."""

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope = negative_slope
        self.mode = _check_mode(mode, "HeNormal")
        self.nonlinearity = nonlinearity

    def _sample(self, shape):
        fan_in, fan_out = _fans(shape, "HeNormal")
        fan = fan_in if self.mode == "fan_in" else fan_out
        std = _gain(self.nonlinearity, self.negative_slope, "HeNormal") / math.sqrt(fan)
        return _rng().normal(0.0, std, shape)


class XavierUniform(Initializer):
    """Glorot uniform: U(-b, b) with b = gain * sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape):
        fan_in, fan_out = _fans(shape, "XavierUniform")
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return _rng().uniform(-bound, bound, shape)


class XavierNormal(Initializer):
    """Glorot normal: N(0, (gain * sqrt(2 / (fan_in + fan_out)))^2)."""

    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def _sample(self, shape):
        fan_in, fan_out = _fans(shape, "XavierNormal")
        std = self.gain * math.sqrt(2.0 / (fan_in + fan_out))
        return _rng().normal(0.0, std, shape)


class TruncatedNormal(Initializer):
    """N(mean, sigma^2) restricted to [a, b] (absolute bounds, as in MindSpore 2.x)."""

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        if not a < b:
            raise ValueError(f"TruncatedNormal: need a < b, got a={a}, b={b}")
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def _sample(self, shape):
        rng = _rng()
        out = rng.normal(self.mean, self.sigma, shape)
        bad = (out < self.a) | (out > self.b)
        # Redraw the rejected entries; each round keeps at least the in-range mass.
        for _ in range(1000):
            if not bad.any():
                return out
            out[bad] = rng.normal(self.mean, self.sigma, int(bad.sum()))
            bad = (out < self.a) | (out > self.b)
        raise ValueError(f"TruncatedNormal: could not sample inside [{self.a}, {self.b}] "
                         f"with mean {self.mean} and sigma {self.sigma}")


_BY_NAME = {
    "zeros": Zero, "zero": Zero, "ones": One, "one": One,
    "normal": Normal, "uniform": Uniform,
    "heuniform": HeUniform, "henormal": HeNormal,
    "xavieruniform": XavierUniform, "xaviernormal": XavierNormal,
    "truncatednormal": TruncatedNormal,
}


def _as_shape(shape):
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (int(shape),)
    try:
        shape = tuple(int(d) for d in shape)
    except TypeError:
        raise TypeError(f"initializer: shape must be an int or a sequence of ints, "
                        f"got {shape!r}") from None
    if any(d <= 0 for d in shape):
        raise ValueError(f"initializer: every dimension of shape must be positive, got {shape}")
    return shape


def initializer(init, shape=None, dtype=dt.float32):
    """A Tensor of ``shape`` and ``dtype`` initialised by ``init``."""
    if isinstance(init, (Tensor, np.ndarray)):
        tensor = init if isinstance(init, Tensor) else Tensor(init)
        if shape is not None and tuple(tensor.shape) != _as_shape(shape):
            raise ValueError(f"initializer: the given tensor has shape {tuple(tensor.shape)}, "
                             f"but shape {_as_shape(shape)} was requested")
        return tensor
    if shape is None:
        raise ValueError("initializer: shape is required unless init is a Tensor or ndarray")
    shape = _as_shape(shape)
    dtype = dt.as_dtype(dtype)
    if isinstance(init, str):
        cls = _BY_NAME.get(init.lower().replace("_", ""))
        if cls is None:
            raise ValueError(f"initializer: unknown initializer name {init!r}; known names: "
                             f"{', '.join(sorted(set(_BY_NAME)))} (underscores optional)")
        init = cls()
    elif isinstance(init, (bool, numbers.Number, np.generic)):
        init = Constant(init)
    elif not isinstance(init, Initializer):
        raise TypeError(f"initializer: init must be a Tensor, str, number or Initializer, "
                        f"got {type(init).__name__}")
    if _DEFERRING[0]:
        # no_init_parameters: a zero-memory placeholder; the values are drawn when the
        # Parameter made from it is initialised (Parameter.init_data)
        return _PendingInit(init, shape, dtype)
    values = np.asarray(init._sample(shape))
    return Tensor(values.astype(dtype), dtype)


# how many no_init_parameters blocks are open
_DEFERRING = [0]


class _PendingInit(Tensor):
    """An initializer's result whose values are drawn later (``init_thunk``)."""

    def __init__(self, init, shape, dtype):
        super().__init__(np.broadcast_to(np.zeros((), dtype), shape))
        self._data = np.broadcast_to(np.zeros((), dtype), shape)
        self.init_thunk = lambda: np.asarray(init._sample(shape)).astype(dtype)
