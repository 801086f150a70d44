"""mint's creation and random functions (PyTorch's ``size`` / ``dtype`` / ``generator``
arguments) over ops' creation and random ops."""
import numpy as np

from .. import dtype as dt
from .. import ops
from ._translate import slice_along
from ..tensor import Tensor
from ._arrays import _int64


# ---- creation ----------------------------------------------------------------------------
def _size(size, op):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def zeros(size, *, dtype=None):
    """A tensor of zeros (float32 unless ``dtype``).

    >>> out = mint.zeros((2, 3))
    """
    return ops.zeros(size if isinstance(size, (tuple, list)) else (size,), dtype or dt.float32)


def empty(*size, dtype=None, device=None):
    """An uninitialised tensor of shape ``size``: zeros here (float32 unless ``dtype``).

    >>> out = mint.empty(2, 3)
    """
    return ops.zeros(_size(size, "empty"), dtype or dt.float32)


def empty_like(input, *, dtype=None, device=None):
    """An uninitialised tensor like ``input``: zeros here.

    >>> out = mint.empty_like(ms.Tensor([1., 2.]))
    """
    return ops.zeros(tuple(input.shape), dtype or input.dtype)


def full(size, fill_value, *, dtype=None):
    """A tensor of shape ``size`` filled with ``fill_value`` (dtype from the value: bool,
    int64 or float32, unless ``dtype``).

    >>> out = mint.full((2,), 3.)
    """
    if dtype is None:
        dtype = (dt.bool_ if isinstance(fill_value, (bool, np.bool_)) else
                 fill_value.dtype if isinstance(fill_value, Tensor) else
                 dt.int64 if isinstance(fill_value, (int, np.integer)) else dt.float32)
    return ops.full(tuple(size) if isinstance(size, (tuple, list)) else (size,), fill_value,
                    dtype=dtype)


def eye(n, m=None, dtype=None):
    """The ``n`` x ``m`` identity matrix (float32 unless ``dtype``).

    >>> out = mint.eye(2)
    """
    return ops.eye(n, n if m is None else m, dtype or dt.float32)


def arange(start=0, end=None, step=1, *, dtype=None):
    """``start, start + step, ...`` below ``end`` (int64 for integer bounds, else float32).

    >>> out = mint.arange(0, 5, 2)
    """
    if step == 0:
        raise ValueError("mint.arange: step must be non-zero")
    if end is None:
        start, end = 0, start
    if dtype is None:
        bounds = [start, end, step]
        is_float = any(isinstance(v, float) or isinstance(v, Tensor) and dt.is_float(v.dtype)
                       for v in bounds)
        dtype = dt.float32 if is_float else dt.int64
    return ops.arange(start, end, step, dtype=dtype)


# ---- random ------------------------------------------------------------------------------
def _float(dtype):
    return dt.as_dtype(dtype) if dtype is not None else dt.float32


def rand(*size, generator=None, dtype=None, device=None):
    """Uniform samples in [0, 1) of shape ``size`` (float32 unless ``dtype``).
    ``generator`` is accepted and unused: draws follow the global seed (``ms.set_seed``).

    >>> out = mint.rand(2, 3)
    """
    return ops.rand(*_size(size, "rand"), dtype=_float(dtype))


def randn(*size, generator=None, dtype=None, device=None):
    """Standard normal samples of shape ``size`` (float32 unless ``dtype``).
    ``generator`` is accepted and unused: draws follow the global seed (``ms.set_seed``).

    >>> out = mint.randn(2, 3)
    """
    return ops.randn(*_size(size, "randn"), dtype=_float(dtype))


def rand_like(input, *, dtype=None, device=None):
    """``rand`` with ``input``'s shape and dtype.

    >>> out = mint.rand_like(ms.Tensor([1., 2.]))
    """
    return ops.rand(*input.shape, dtype=dtype or input.dtype)


def randn_like(input, *, dtype=None, device=None):
    """``randn`` with ``input``'s shape and dtype.

    >>> out = mint.randn_like(ms.Tensor([1., 2.]))
    """
    return ops.randn(*input.shape, dtype=dtype or input.dtype)


def _bounds(args, op):
    if len(args) == 1:
        return 0, args[0]
    if len(args) == 2:
        return args
    raise TypeError(f"mint.{op}: expected (high) or (low, high), got {len(args)} bounds")


def randint(*args, generator=None, dtype=None, device=None):
    """Integers uniform in [low, high): ``randint(high, size)`` or
    ``randint(low, high, size)`` (int64 unless ``dtype``).
    ``generator`` is accepted and unused: draws follow the global seed (``ms.set_seed``).

    >>> out = mint.randint(0, 10, (3,))
    """
    if len(args) < 2:
        raise TypeError("mint.randint: expected (high, size) or (low, high, size)")
    low, high = _bounds(args[:-1], "randint")
    return ops.randint(low, high, tuple(args[-1]), dtype=dtype or dt.int64)


def randint_like(input, *args, dtype=None, device=None):
    """``randint`` with ``input``'s shape: ``randint_like(input, high)`` or
    ``randint_like(input, low, high)`` (``input``'s dtype unless ``dtype``).

    >>> out = mint.randint_like(ms.Tensor([1, 2]), 10)
    """
    low, high = _bounds(args, "randint_like")
    return ops.randint(low, high, tuple(input.shape), dtype=dtype or input.dtype)


def randperm(n, *, generator=None, dtype=dt.int64):
    """A random permutation of ``0 .. n-1``.
    ``generator`` is accepted and unused: draws follow the global seed (``ms.set_seed``).

    >>> out = mint.randperm(4)
    """
    if n < 0:
        raise ValueError(f"mint.randperm: n must be non-negative, got {n}")
    return ops.cast(ops.argsort(ops.rand(n)), dtype)


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Normal samples with ``mean`` and ``std`` (numbers or tensors, broadcast); ``size``
    when both are numbers.
    ``generator`` is accepted and unused: draws follow the global seed (``ms.set_seed``).

    >>> out = mint.normal(0.0, 1.0, (2,))
    """
    tensors = [v for v in (mean, std) if isinstance(v, Tensor)]
    if tensors:
        shape = ops.broadcast_shapes(*[tuple(v.shape) for v in tensors])
        dtype = tensors[0].dtype
    else:
        if size is None:
            raise TypeError("mint.normal: size is required when mean and std are numbers")
        shape, dtype = tuple(size), dt.float32
    return ops.add(ops.mul(ops.randn(*shape, dtype=dtype), std), mean)


def bernoulli(input, *, generator=None):
    """0 / 1 samples (``input``'s dtype), 1 with probability ``input``.
    ``generator`` is accepted and unused: draws follow the global seed (``ms.set_seed``).

    >>> out = mint.bernoulli(ms.Tensor([0., 1.]))
    """
    return ops.cast(ops.lt(ops.rand(*input.shape, dtype=input.dtype), input), input.dtype)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """int64 indices sampled from each row of non-negative weights ``input`` (1-D or 2-D);
    without replacement by the Gumbel top-k trick, with it by the inverse CDF.
    ``generator`` is accepted and unused: draws follow the global seed (``ms.set_seed``).

    >>> out = mint.multinomial(ms.Tensor([0., 1., 1.]), 2)
    """
    if input.ndim not in (1, 2):
        raise ValueError(f"mint.multinomial: expected 1-D or 2-D weights, got {input.ndim}-D")
    categories = input.shape[-1]
    if not replacement and num_samples > categories:
        raise ValueError(f"mint.multinomial: cannot draw {num_samples} samples without "
                         f"replacement from {categories} categories")
    if replacement:
        cdf = ops.cumsum(input, -1)
        cdf = ops.div(cdf, slice_along(cdf, -1 % input.ndim, categories - 1, categories))
        u = ops.rand(*input.shape[:-1], num_samples, dtype=input.dtype)
        picked = ops.sum(ops.cast(ops.le(ops.unsqueeze(cdf, -2), ops.unsqueeze(u, -1)),
                                  dt.int64), -1)
        return ops.clamp(picked, 0, categories - 1)
    u = ops.rand(*input.shape, dtype=input.dtype)
    gumbel = ops.neg(ops.log(ops.neg(ops.log(ops.clamp(u, 1e-20, 1.0)))))
    positive = ops.gt(input, 0)
    safe = ops.where(positive, input, ops.ones_like(input))     # no log(0) computed
    keys = ops.where(positive, ops.add(ops.log(safe), gumbel), ops.full_like(input, -np.inf))
    return _int64(ops.topk(keys, num_samples, -1)[1])
