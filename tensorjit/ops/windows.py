"""Window functions (``bartlett_window``, ``blackman_window``, ``hamming_window``,
``hann_window``, ``kaiser_window``) with MindSpore 2.10's arguments and dtypes.

A window depends only on Python values (its length, flags, coefficients), so it is a
constant: computed in float64 by the formula and rounded once to the requested dtype, as
``arange`` is. ``periodic=True`` gives the first ``N`` points of the symmetric window of
``N + 1`` (for spectral analysis); a window of length 1 is ``[1]``."""
import math

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce

__all__ = ["bartlett_window", "blackman_window", "hamming_window", "hann_window",
           "kaiser_window"]

_WINDOW_DTYPES = (dt.float16, dt.float32, dt.float64)
MAX_LENGTH = 1000000      # MindSpore's bound on a length given as a tensor


def _symmetric(name, n, **coefficients):
    """The symmetric window of ``n`` points in float64 (``n >= 2``)."""
    k = np.arange(n, dtype=np.float64)
    phase = 2.0 * math.pi * k / (n - 1)
    if name == "bartlett":
        return 1.0 - np.abs(2.0 * k / (n - 1) - 1.0)
    if name == "blackman":
        return 0.42 - 0.5 * np.cos(phase) + 0.08 * np.cos(2.0 * phase)
    if name == "hamming":
        return coefficients["alpha"] - coefficients["beta"] * np.cos(phase)
    if name == "hann":
        return 0.5 - 0.5 * np.cos(phase)
    ratio = 2.0 * k / (n - 1) - 1.0        # kaiser: I0(beta sqrt(1 - r^2)) / I0(beta)
    beta = coefficients["beta"]
    return np.i0(beta * np.sqrt(np.maximum(1.0 - ratio * ratio, 0.0))) / np.i0(beta)


def _window(name, length, periodic, dtype, **coefficients):
    if length <= 1:
        values = np.ones(length, np.float64)
    else:
        values = _symmetric(name, length + 1 if periodic else length, **coefficients)
        values = values[:length]
    return coerce.constant(values.astype(dtype))


def _flag(op, periodic):
    if not isinstance(periodic, (bool, np.bool_)):
        raise TypeError(f"{op}: periodic must be a bool, got {type(periodic).__name__}")
    return bool(periodic)


def _dtype(op, dtype, default, allowed=_WINDOW_DTYPES):
    dtype = dt.as_dtype(dtype if dtype is not None else default)
    if dtype not in allowed:
        raise TypeError(f"{op}: dtype must be one of {', '.join(map(str, allowed))}, got "
                        f"{dtype}")
    return dtype


def _length_tensor(op, window_length):
    """BartlettWindow / BlackmanWindow: the length is a 0-d int32 or int64 tensor."""
    if not isinstance(window_length, Tensor):
        raise TypeError(f"{op}: window_length must be a Tensor, got "
                        f"{type(window_length).__name__}")
    if window_length.dtype not in (dt.int32, dt.int64):
        raise TypeError(f"{op}: window_length must be an int32 or int64 tensor, got "
                        f"{window_length.dtype}")
    if window_length.ndim != 0:
        raise ValueError(f"{op}: window_length must be 0-d, got shape "
                         f"{tuple(window_length.shape)}")
    coerce.shape_decision()        # the value is the result's shape
    length = int(window_length.item())
    if not 0 <= length <= MAX_LENGTH:
        raise ValueError(f"{op}: window_length must be in [0, {MAX_LENGTH}], got {length}")
    return length


def _length_int(op, window_length):
    """hamming / hann / kaiser: the length is a non-negative Python int."""
    if isinstance(window_length, bool) or not isinstance(window_length, int):
        raise TypeError(f"{op}: window_length must be an int, got "
                        f"{type(window_length).__name__}")
    if window_length < 0:
        raise ValueError(f"{op}: window_length must be non-negative, got {window_length}")
    return window_length


def bartlett_window(window_length, periodic=True, *, dtype=None):
    """The triangular window ``1 - |2k / (N - 1) - 1|``; ``window_length`` a 0-d int
    tensor; float32 by default."""
    op = "bartlett_window"
    length = _length_tensor(op, window_length)
    return _window("bartlett", length, _flag(op, periodic), _dtype(op, dtype, dt.float32))


def blackman_window(window_length, periodic=True, *, dtype=None):
    """``0.42 - 0.5 cos(2 pi k / (N - 1)) + 0.08 cos(4 pi k / (N - 1))``; ``window_length``
    a 0-d int tensor; float32 by default."""
    op = "blackman_window"
    length = _length_tensor(op, window_length)
    return _window("blackman", length, _flag(op, periodic), _dtype(op, dtype, dt.float32))


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    """``alpha - beta cos(2 pi k / (N - 1))``; float32 by default."""
    op = "hamming_window"
    length = _length_int(op, window_length)
    for coefficient, value in (("alpha", alpha), ("beta", beta)):
        if not isinstance(value, float):
            raise TypeError(f"{op}: {coefficient} must be a float, got {type(value).__name__}")
    return _window("hamming", length, _flag(op, periodic), _dtype(op, dtype, dt.float32),
                   alpha=alpha, beta=beta)


def hann_window(window_length, periodic=True, *, dtype=None):
    """``0.5 - 0.5 cos(2 pi k / (N - 1))``; float64 by default, as MindSpore 2.10 (which
    also allows bfloat16 here)."""
    op = "hann_window"
    length = _length_int(op, window_length)
    return _window("hann", length, _flag(op, periodic),
                   _dtype(op, dtype, dt.float64, dt.FLOAT_DTYPES))


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """``I0(beta sqrt(1 - (2k / (N - 1) - 1)^2)) / I0(beta)``; float64 by default, as
    MindSpore 2.10."""
    op = "kaiser_window"
    length = _length_int(op, window_length)
    if isinstance(beta, bool) or not isinstance(beta, (int, float)):
        raise TypeError(f"{op}: beta must be a number, got {type(beta).__name__}")
    return _window("kaiser", length, _flag(op, periodic),
                   _dtype(op, dtype, dt.float64, dt.FLOAT_DTYPES), beta=float(beta))


def compute_window_class(function):
    """BartlettWindow / BlackmanWindow(periodic, dtype)(window_length)."""
    def compute(window_length, *, periodic, dtype):
        return function(window_length, periodic, dtype=dtype)
    compute.__doc__ = function.__doc__
    return compute


def compute_hamming_window(length, *, periodic, alpha, beta, dtype):
    """HammingWindow(periodic, alpha, beta, dtype)(length): ``length`` a 1-element 1-D
    int tensor."""
    op = "HammingWindow"
    if not isinstance(length, Tensor) or not dt.is_int(length.dtype):
        raise TypeError(f"{op}: length must be an integer tensor, got {length!r}")
    if length.ndim != 1 or length.shape[0] != 1:
        raise ValueError(f"{op}: length must be a 1-D tensor of one element, got shape "
                         f"{tuple(length.shape)}")
    coerce.shape_decision()
    n = int(length.item())
    if n < 0:
        raise ValueError(f"{op}: length must be non-negative, got {n}")
    return _window("hamming", n, _flag(op, periodic), _dtype(op, dtype, dt.float32),
                   alpha=float(alpha), beta=float(beta))
