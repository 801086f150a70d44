"""MindSpore's sampling functions beyond rand / randn / normal / uniform: Bernoulli,
categorical and multinomial draws, permutations, Laplace, Cauchy, truncated normal and
integer draws.

Each is a computation on the draws of the two sampling primitives of ``random.py``
(uniform in [0, 1), standard normal) -- inverse CDFs, comparisons, Gumbel keys sorted --
so every capture mode and jit level runs them, and a compiled function draws fresh
numbers on every call. As the existing random ops, they draw from tensorjit's one
generator (``set_seed``): the ``seed`` arguments are accepted and do not select another
stream."""
import math

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as E
from . import reduction as R
from . import shape as S
from . import indexing as I
from . import cumulative as CU
from . import creation as K
from . import sorting as SORT
from . import special_math as SM
from .random import uniform_p, normal_p

__all__ = ["bernoulli", "bernoulli_ext", "multinomial", "multinomial_with_replacement",
           "random_categorical", "randperm", "rand_like", "randn_like", "randint_like",
           "shuffle", "laplace", "standard_laplace", "choice_with_mask"]

_BERNOULLI_DTYPES = (dt.bool_, dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.float32,
                     dt.float64)


def uniform_draws(shape, dtype=dt.float64):
    """Uniform draws in [0, 1) of ``shape`` (float64 by default: no draw rounds to 1)."""
    return uniform_p.bind(shape=tuple(shape), dtype=dt.as_dtype(dtype))


def normal_draws(shape, dtype=dt.float32):
    return normal_p.bind(shape=tuple(shape), dtype=dt.as_dtype(dtype))


def _tensor(x, op):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: the input must be a Tensor, got {type(x).__name__}")
    return x


# ---- Bernoulli ------------------------------------------------------------------------------

def bernoulli_draws(x, p, op):
    """1 with probability ``p`` (a number or a tensor broadcasting to ``x``), else 0, in
    ``x``'s shape and dtype."""
    if isinstance(p, Tensor):
        probability = E.cast(p, dt.float64)
    else:
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise TypeError(f"{op}: p must be a float or a Tensor, got {type(p).__name__}")
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"{op}: p must be in [0, 1], got {p}")
        probability = float(p)
    hits = E.lt(uniform_draws(x.shape), probability)
    if isinstance(p, Tensor) and tuple(hits.shape) != tuple(x.shape):
        raise ValueError(f"{op}: p of shape {tuple(p.shape)} does not broadcast to the "
                         f"input's shape {tuple(x.shape)}")
    return E.cast(hits, x.dtype)


def bernoulli(input, p=0.5, seed=None):
    """Draws of 0 / 1 (1 with probability ``p``), shaped and typed as ``input``."""
    x = _tensor(input, "bernoulli")
    if x.dtype not in _BERNOULLI_DTYPES:
        raise TypeError(f"bernoulli: the input must be bool, int8-int64, uint8, float32 or "
                        f"float64, got {x.dtype}")
    return bernoulli_draws(x, p, "bernoulli")


def bernoulli_ext(input, *, generator=None):
    """Draws of 0 / 1 with the probabilities ``input`` holds (each in [0, 1])."""
    x = _tensor(input, "bernoulli_ext")
    if not dt.is_float(x.dtype):
        raise TypeError(f"bernoulli_ext: the probabilities must be a float tensor, got "
                        f"{x.dtype}")
    return E.cast(E.lt(uniform_draws(x.shape), E.cast(x, dt.float64)), x.dtype)


# ---- categorical draws ----------------------------------------------------------------------

def _gumbel(shape):
    """Gumbel(0, 1) noise: ``-log(-log(u))`` with ``u`` in (0, 1)."""
    u = uniform_draws(shape)
    tiny = float(np.finfo(np.float64).tiny)
    return E.neg(E.log(E.neg(E.log(E.maximum(u, tiny)))))


def _weights(input, op):
    x = _tensor(input, op)
    if x.dtype == dt.bool_ or not (dt.is_float(x.dtype) or dt.is_int(x.dtype)):
        raise TypeError(f"{op}: the weights must be a float or integer tensor, got {x.dtype}")
    if x.ndim not in (1, 2):
        raise ValueError(f"{op}: the weights must be 1-D or 2-D, got shape {tuple(x.shape)}")
    return E.cast(x, dt.float64)


def _count(num_samples, op, name="num_samples"):
    if isinstance(num_samples, Tensor):
        num_samples = num_samples.item()
    if isinstance(num_samples, bool) or not isinstance(num_samples, (int, np.integer)):
        raise TypeError(f"{op}: {name} must be an int, got {type(num_samples).__name__}")
    if num_samples < 0:
        raise ValueError(f"{op}: {name} must be non-negative, got {num_samples}")
    return int(num_samples)


def draw_categories(weights, num_samples, replacement, op):
    """Indices (int64) of categories drawn with probabilities proportional to the
    non-negative ``weights`` (last axis): ``num_samples`` per row."""
    categories = weights.shape[-1]
    if not replacement and num_samples > categories:
        raise ValueError(f"{op}: without replacement num_samples ({num_samples}) must not "
                         f"exceed the number of categories ({categories})")
    weights = E.maximum(weights, 0.0)
    if not replacement:
        # Gumbel top-k: the k largest of log(w) + Gumbel noise are k draws without
        # replacement (zero weights come last)
        if num_samples == 0:
            return I.getitem(E.cast(weights, dt.int64), (Ellipsis, slice(0, 0)))
        tiny = float(np.finfo(np.float64).tiny)
        log_weights = E.where(E.gt(weights, 0.0), E.log(E.maximum(weights, tiny)), -np.inf)
        keys = E.add(log_weights, _gumbel(weights.shape))
        return E.cast(SORT.topk(keys, num_samples)[1], dt.int64)
    # with replacement: how many of the cumulative weights each uniform draw passes
    cdf = CU.cumsum(weights, -1)
    total = I.getitem(cdf, (Ellipsis, slice(-1, None)))
    draws = E.mul(uniform_draws(tuple(weights.shape[:-1]) + (num_samples,)), total)
    passed = E.ge(S.expand_dims(draws, -1),
                  S.expand_dims(I.getitem(cdf, (Ellipsis, slice(0, categories - 1))), -2))
    return R.sum(E.cast(passed, dt.int64), -1)


def multinomial(input, num_samples, replacement=True, seed=None):
    """``num_samples`` category indices (int32) per row of the weights ``input`` (1-D or
    2-D), drawn with probability proportional to each weight."""
    weights = _weights(input, "multinomial")
    num_samples = _count(num_samples, "multinomial")
    drawn = draw_categories(weights, num_samples, bool(replacement), "multinomial")
    return E.cast(drawn, dt.int32)


def multinomial_with_replacement(x, seed, offset, numsamples, replacement=False):
    """``numsamples`` category indices (int64) per row of the probabilities ``x``."""
    op = "multinomial_with_replacement"
    weights = _weights(x, op)
    return draw_categories(weights, _count(numsamples, op, "numsamples"), bool(replacement),
                           op)


def random_categorical(logits, num_sample, seed=0, dtype=dt.int64):
    """``num_sample`` category indices per row of the 2-D ``logits`` (unnormalized log
    probabilities): the argmax of logits + Gumbel noise, in ``dtype`` (int16 / 32 / 64)."""
    op = "random_categorical"
    x = _tensor(logits, op)
    if not dt.is_float(x.dtype):
        raise TypeError(f"{op}: logits must be a float tensor, got {x.dtype}")
    if x.ndim != 2:
        raise ValueError(f"{op}: logits must be 2-D, got shape {tuple(x.shape)}")
    dtype = dt.as_dtype(dtype)
    if dtype not in (dt.int16, dt.int32, dt.int64):
        raise TypeError(f"{op}: dtype must be int16, int32 or int64, got {dtype}")
    num_sample = _count(num_sample, op, "num_sample")
    batch, categories = x.shape
    keys = E.add(S.expand_dims(E.cast(x, dt.float64), 1),
                 _gumbel((batch, num_sample, categories)))
    return E.cast(R.argmax(keys, -1), dtype)


# ---- permutations ---------------------------------------------------------------------------

def permutation(n):
    """A random permutation of range(n) (int64): the order of ``n`` uniform draws."""
    return E.cast(SORT.argsort(uniform_draws((n,))), dt.int64)


def randperm(n, seed=0, offset=0, dtype=dt.int64):
    """A random permutation of the integers 0 .. n-1 in ``dtype``."""
    op = "randperm"
    n = _count(n, op, "n")
    dtype = dt.as_dtype(dtype)
    if dtype == dt.bool_:
        raise TypeError(f"{op}: dtype must be a number type, got bool")
    if n and dt.is_int(dtype) and n - 1 > np.iinfo(dtype).max:
        raise ValueError(f"{op}: n = {n} is too large for dtype {dtype}")
    return E.cast(permutation(n), dtype)


def shuffle(x, seed=None):
    """``x`` with its first axis in random order."""
    x = _tensor(x, "shuffle")
    if x.ndim == 0:
        return E.identity(x)
    return I.gather(x, permutation(x.shape[0]), 0)


# ---- *_like draws ---------------------------------------------------------------------------

def _like_dtype(input, dtype, kind, op):
    x = _tensor(input, op)
    dtype = dt.as_dtype(dtype) if dtype is not None else x.dtype
    good = dt.is_float(dtype) if kind == "float" else dt.is_int(dtype)
    if not good:
        raise ValueError(f"{op}: the dtype must be a{'' if kind == 'float' else 'n'} "
                         f"{kind} type, got {dtype}")
    return x, dtype


def rand_like(input, seed=None, *, dtype=None):
    """Uniform draws in [0, 1) shaped as ``input`` (its dtype, or ``dtype``: a float)."""
    x, dtype = _like_dtype(input, dtype, "float", "rand_like")
    return uniform_p.bind(shape=tuple(x.shape), dtype=dtype)


def randn_like(input, seed=None, *, dtype=None):
    """Standard normal draws shaped as ``input`` (its dtype, or ``dtype``: a float)."""
    x, dtype = _like_dtype(input, dtype, "float", "randn_like")
    return normal_draws(x.shape, dtype)


def integer_draws(shape, low, high, dtype, op):
    """Integers uniform in [low, high) of ``dtype``."""
    if high <= low:
        raise ValueError(f"{op}: high ({high}) must be greater than low ({low})")
    span = float(high) - float(low)
    steps = E.floor(E.mul(uniform_draws(shape), span))
    steps = E.minimum(steps, span - 1.0)        # a draw rounding up to the span
    return E.cast(E.add(steps, float(low)), dtype)


def randint_like(input, low, high, seed=None, *, dtype=None):
    """Integers uniform in [low, high) shaped as ``input`` (its dtype, or ``dtype``: an
    integer type)."""
    x, dtype = _like_dtype(input, dtype, "int", "randint_like")
    for name, v in (("low", low), ("high", high)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"randint_like: {name} must be an int, got {type(v).__name__}")
    return integer_draws(x.shape, int(low), int(high), dtype, "randint_like")


# ---- Laplace ------------------------------------------------------------------------------

def _laplace_noise(shape):
    """Standard Laplace draws (float64): ``-sign(u) log(1 - 2|u|)``, ``u`` in (-1/2, 1/2)."""
    u = E.sub(uniform_draws(shape), 0.5)
    magnitude = E.neg(E.log1p(E.mul(E.abs(u), -2.0)))
    return E.mul(E.sign(u), magnitude)


def _sample_shape(shape, op):
    if isinstance(shape, Tensor):
        raise TypeError(f"{op}: shape must be a tuple of ints, got a Tensor")
    shape = coerce.as_shape(shape, op)
    if any(d < 0 for d in shape):
        raise ValueError(f"{op}: shape must not have negative dimensions, got {shape}")
    return shape


def standard_laplace(shape, seed=None):
    """Laplace(0, 1) draws of ``shape`` (float32)."""
    return E.cast(_laplace_noise(_sample_shape(shape, "standard_laplace")), dt.float32)


def laplace(shape, mean, lambda_param, seed=None):
    """Laplace(mean, lambda_param) draws (float32): ``mean`` and ``lambda_param`` are
    float32 tensors broadcasting with ``shape``."""
    op = "laplace"
    shape = _sample_shape(shape, op)
    for name, v in (("mean", mean), ("lambda_param", lambda_param)):
        if not isinstance(v, Tensor) or v.dtype != dt.float32:
            raise TypeError(f"{op}: {name} must be a float32 tensor, got "
                            f"{getattr(v, 'dtype', type(v).__name__)}")
    out_shape = np.broadcast_shapes(shape, tuple(mean.shape), tuple(lambda_param.shape))
    noise = _laplace_noise(out_shape)
    return E.cast(E.add(E.mul(noise, E.cast(lambda_param, dt.float64)),
                        E.cast(mean, dt.float64)), dt.float32)


# ---- truncated normal, Cauchy, log-normal ---------------------------------------------------

def truncated_normal_draws(shape, low, high):
    """N(0, 1) draws conditioned on [low, high] (float64; tensors or numbers broadcasting
    with ``shape``) by the inverse CDF: ``sqrt(2) erfinv(erf(a) + u (erf(b) - erf(a)))``."""
    root2 = math.sqrt(2.0)
    a = E.erf(E.div(E.cast(coerce.as_tensor(low), dt.float64), root2))
    b = E.erf(E.div(E.cast(coerce.as_tensor(high), dt.float64), root2))
    u = uniform_draws(shape)
    values = E.mul(SM.erfinv(E.add(a, E.mul(u, E.sub(b, a)))), root2)
    return E.minimum(E.maximum(values, E.cast(coerce.as_tensor(low), dt.float64)),
                     E.cast(coerce.as_tensor(high), dt.float64))


def cauchy_draws(shape, median, sigma):
    """Cauchy(median, sigma) draws (float64): ``median + sigma tan(pi (u - 1/2))``."""
    u = uniform_draws(shape)
    return E.add(E.mul(E.tan(E.mul(E.sub(u, 0.5), math.pi)), float(sigma)), float(median))


# ---- choice with mask -----------------------------------------------------------------------

def choice_with_mask(input_x, count=256, seed=None):
    """``count`` randomly ordered indices of the True elements of the bool ``input_x``
    (int32, shape (count, rank)) and a mask (count,) of the valid rows; rows past the
    number of True elements are zero with mask False."""
    op = "choice_with_mask"
    x = _tensor(input_x, op)
    if x.dtype != dt.bool_:
        raise TypeError(f"{op}: the input must be a bool tensor, got {x.dtype}")
    if not 1 <= x.ndim <= 5:
        raise ValueError(f"{op}: the input must have rank 1 to 5, got {x.ndim}")
    count = _count(count, op, "count")
    if count == 0:
        raise ValueError(f"{op}: count must be positive")
    flat = S.reshape(x, (-1,))
    size = flat.shape[0]
    # a random key per True element, -1 for the others: the largest keys are the choice
    keys = E.where(flat, uniform_draws((size,)), -1.0)
    if size < count:
        keys = S.concat([keys, K.full((count - size,), -1.0, dtype=dt.float64)], 0)
    values, order = SORT.topk(keys, count)
    mask = E.ge(values, 0.0)
    order = E.where(mask, E.cast(order, dt.int64), 0)
    coordinates, rest = [], order
    for extent in reversed(x.shape):             # unravel the flat positions
        coordinates.append(E.floor_mod(rest, extent))
        rest = E.floor_div(rest, extent)
    index = S.stack(list(reversed(coordinates)), -1)
    return E.cast(index, dt.int32), mask
