"""MindSpore's in-place tensor helpers (``zero_``, ``clamp_``, ``put_``, ``normal_``, ...):
each computes the new value with the functional ops and stores it in the tensor
(``Tensor._assign``: eagerly its memory, under a capture a graph assignment, on autodiff
tapes an alias), then returns that same tensor object. ``stop_gradient_`` returns None, as
MindSpore's.

MindSpore 2.10 has CPU kernels for none of them (they are Ascend kernels there); their
meaning is the one documented, which is PyTorch's for the same names."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import elementwise as E
from . import shape as S
from . import indexing as I
from . import special_math as SM
from .sampling import bernoulli_draws, uniform_draws, normal_draws, integer_draws

__all__ = ["zero_", "clamp_", "erfinv_", "tanh_", "inplace_sigmoid", "put_", "bernoulli_",
           "normal_", "uniform_", "random_", "exponential_", "stop_gradient_"]


def _tensor(input, op):
    if not isinstance(input, Tensor):
        raise TypeError(f"{op}: the input must be a Tensor, got {type(input).__name__}")
    return input


def _float(input, op):
    x = _tensor(input, op)
    if not dt.is_float(x.dtype):
        raise TypeError(f"{op}: the input must be a float tensor (the result is stored in "
                        f"it), got {x.dtype}")
    return x


def _store(x, value):
    """Write ``value`` (cast to ``x``'s dtype) into ``x``; returns ``x``."""
    if value.dtype != x.dtype:
        value = E.cast(value, x.dtype)
    return x._assign(value)


def zero_(input):
    """Fill ``input`` with zeros."""
    x = _tensor(input, "zero_")
    return _store(x, E.zeros_like(x))


def clamp_(input, min=None, max=None):
    """Clamp ``input`` to [min, max] (numbers or tensors; one of them may be None)."""
    x = _tensor(input, "clamp_")
    if min is None and max is None:
        raise ValueError("clamp_: at least one of min and max must not be None")
    return _store(x, E.clamp(x, min, max))


def erfinv_(input):
    """``input`` replaced by its inverse error function."""
    return _store(_float(input, "erfinv_"), SM.erfinv(input))


def tanh_(input):
    """``input`` replaced by its hyperbolic tangent."""
    return _store(_float(input, "tanh_"), E.tanh(input))


def inplace_sigmoid(input):
    """``input`` replaced by its logistic sigmoid."""
    return _store(_float(input, "inplace_sigmoid"), E.sigmoid(input))


def put_(input, index, source, accumulate=False):
    """Write ``source`` at the flat positions ``index`` of ``input`` (row-major, negative
    positions from the end), or add it there with ``accumulate`` (repeated positions then
    add up)."""
    op = "put_"
    x = _tensor(input, op)
    for name, v in (("index", index), ("source", source)):
        if not isinstance(v, Tensor):
            raise TypeError(f"{op}: {name} must be a Tensor, got {type(v).__name__}")
    if not dt.is_int(index.dtype):
        raise TypeError(f"{op}: index must be an integer tensor, got {index.dtype}")
    if index.size != source.size:
        raise ValueError(f"{op}: index has {index.size} elements and source {source.size}")
    size = x.size
    if index._var is None and index.size:
        positions = index.asnumpy()
        if positions.min() < -size or positions.max() >= size:
            raise ValueError(f"{op}: an index is out of range for a tensor of {size} "
                             f"elements: {positions[(positions < -size) | (positions >= size)][:4]}")
    flat_index = S.reshape(E.cast(index, dt.int64), (-1,))
    flat_index = E.where(E.lt(flat_index, 0), E.add(flat_index, size), flat_index)
    values = E.cast(S.reshape(source, (-1,)), x.dtype)
    flat = S.reshape(x, (-1,))
    flat = I.index_add(flat, flat_index, values) if accumulate else \
        I.setitem_value(flat, flat_index, values)
    return _store(x, S.reshape(flat, tuple(x.shape)))


def bernoulli_(input, p=0.5, *, generator=None):
    """Fill ``input`` with 0 / 1 draws, 1 with probability ``p`` (a number or a tensor)."""
    x = _tensor(input, "bernoulli_")
    return _store(x, bernoulli_draws(x, p, "bernoulli_"))


def normal_(input, mean=0, std=1, *, generator=None):
    """Fill ``input`` with N(mean, std^2) draws."""
    x = _float(input, "normal_")
    if std < 0:
        raise ValueError(f"normal_: std must be non-negative, got {std}")
    draws = normal_draws(x.shape, dt.float64)
    return _store(x, E.add(E.mul(draws, float(std)), float(mean)))


def uniform_(input, from_=0, to=1, *, generator=None):
    """Fill ``input`` with draws uniform in [from_, to)."""
    x = _float(input, "uniform_")
    if from_ > to:
        raise ValueError(f"uniform_: from_ ({from_}) must not exceed to ({to})")
    value = E.cast(E.add(E.mul(uniform_draws(x.shape), float(to) - float(from_)),
                         float(from_)), x.dtype)
    if to > from_:       # a draw that rounds up to ``to`` in a narrow dtype stays below it
        step = abs(float(to)) * 2 * float(dt.epsneg(x.dtype)) + \
            float(dt.smallest_subnormal(x.dtype))
        value = E.where(E.lt(value, float(to)), value, max(float(from_), float(to) - step))
    return _store(x, value)


# random_'s exclusive upper bound when ``to`` is None: the integers a float dtype holds
# exactly (2^digits, as PyTorch); an integer dtype's maximum, at most 2^53 (the draws are
# computed in float64, whose integers are exact up to there)
_FLOAT_DIGITS = {dt.float16: 11, dt.bfloat16: 8, dt.float32: 24, dt.float64: 53}


def _default_bound(dtype):
    if dtype == dt.bool_:
        return 2
    if dt.is_float(dtype):
        return 2 ** _FLOAT_DIGITS[dtype] + 1
    return min(int(np.iinfo(dtype).max), 2 ** 53)


def random_(input, from_=0, to=None, *, generator=None):
    """Fill ``input`` with integers uniform in [from_, to) (``to`` None: the largest
    integer range the dtype holds exactly)."""
    x = _tensor(input, "random_")
    if to is None:
        to = _default_bound(x.dtype)
    if from_ >= to:
        raise ValueError(f"random_: from_ ({from_}) must be less than to ({to})")
    return _store(x, integer_draws(x.shape, int(from_), int(to), dt.float64, "random_"))


def exponential_(input, lambd=1, *, generator=None):
    """Fill ``input`` with Exponential(lambd) draws: ``-log(1 - u) / lambd``."""
    x = _float(input, "exponential_")
    if lambd <= 0:
        raise ValueError(f"exponential_: lambd must be positive, got {lambd}")
    draws = E.div(E.neg(E.log1p(E.neg(uniform_draws(x.shape)))), float(lambd))
    return _store(x, draws)


def stop_gradient_(input):
    """Make ``input`` a value no gradient flows through (in place); returns None."""
    x = _tensor(input, "stop_gradient_")
    x._assign(E.stop_gradient(x))
