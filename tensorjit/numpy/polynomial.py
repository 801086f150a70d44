"""Polynomials as 1-D coefficient tensors, highest power first (NumPy's poly1d order):
add, subtract, multiply, evaluate, differentiate, integrate. Built from ops."""
import numpy as np

from .. import ops
from ..ops import coerce
from ._common import float_of, promote, static_values, to_tensor
from .statistics import convolve


def _poly(p, name):
    p = to_tensor(p, name=name)
    if p.ndim == 0:
        p = ops.reshape(p, (1,))
    if p.ndim != 1:
        raise ValueError(f"{name}: input array must be scalar or 1-d sequence")
    return p


def _aligned(a1, a2, name):
    a, b = promote(_poly(a1, name), _poly(a2, name))
    n = max(a.shape[0], b.shape[0])
    # pad the shorter on the left: the highest powers come first
    a = ops.pad(a, (n - a.shape[0], 0)) if a.shape[0] < n else a
    b = ops.pad(b, (n - b.shape[0], 0)) if b.shape[0] < n else b
    return a, b


def polyadd(a1, a2):
    """The sum of two polynomials.

    >>> import tensorjit.numpy as mnp
    >>> mnp.polyadd(mnp.array([1, 2]), mnp.array([1])).asnumpy().tolist()
    [1, 3]
    """
    a, b = _aligned(a1, a2, "polyadd")
    return a + b


def polysub(a1, a2):
    """The difference of two polynomials (a1 - a2).

    >>> import tensorjit.numpy as mnp
    >>> mnp.polysub(mnp.array([2, 5]), mnp.array([1])).asnumpy().tolist()
    [2, 4]
    """
    a, b = _aligned(a1, a2, "polysub")
    return a - b


def polymul(a1, a2):
    """The product of two polynomials (the convolution of their coefficients).

    >>> import tensorjit.numpy as mnp
    >>> mnp.polymul(mnp.array([1, 1]), mnp.array([1, -1])).asnumpy().tolist()
    [1, 0, -1]
    """
    return convolve(_poly(a1, "polymul"), _poly(a2, "polymul"))


def polyval(p, x):
    """The polynomial ``p`` evaluated at ``x`` (Horner's rule); float32 for integer
    inputs, as MindSpore's.

    >>> import tensorjit.numpy as mnp
    >>> float(mnp.polyval(mnp.array([1, 2]), 3))
    5.0
    """
    p = float_of(_poly(p, "polyval"))
    x = float_of(to_tensor(x, name="polyval"))
    p, x = promote(p, x)
    result = ops.zeros_like(x)
    for i in range(p.shape[0]):
        result = result * x + p[i]
    return result


def polyder(p, m=1):
    """The m-th derivative of the polynomial ``p`` (integer coefficients stay integer).

    >>> import tensorjit.numpy as mnp
    >>> mnp.polyder(mnp.array([1, 2, 3])).asnumpy().tolist()
    [2, 2]
    """
    if not isinstance(m, int) or m < 0:
        raise ValueError(f"polyder: order of derivative must be non-negative, got {m!r}")
    p = _poly(p, "polyder")
    for _ in range(m):
        n = p.shape[0] - 1
        if n <= 0:
            return ops.zeros((0,), dtype=p.dtype)
        powers = coerce.constant(np.arange(n, 0, -1).astype(p.dtype))
        p = ops.getitem(p, slice(0, n)) * powers
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative of ``p`` with integration constants ``k`` (a number, or m
    numbers, lowest order first; default 0); float32 for integer inputs.

    >>> import tensorjit.numpy as mnp
    >>> mnp.polyint(mnp.array([3.0, 2.0])).asnumpy().tolist()
    [1.5, 2.0, 0.0]
    """
    if not isinstance(m, int) or m < 0:
        raise ValueError(f"polyint: order of integral must be non-negative, got {m!r}")
    p = float_of(_poly(p, "polyint"))
    if m == 0:
        return p
    constants = [0.0] * m if k is None else list(np.ravel(static_values(k, "polyint")))
    if len(constants) == 1 and m > 1:
        constants = constants * m
    if len(constants) < m:
        raise ValueError("polyint: k must be a scalar or a sequence of m numbers")
    for i in range(m):
        n = p.shape[0]
        divisors = coerce.constant(np.arange(n, 0, -1).astype(p.dtype))
        p = ops.concat([p / divisors, ops.full((1,), float(constants[i]), dtype=p.dtype)], 0)
    return p
