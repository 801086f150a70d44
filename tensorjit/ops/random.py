"""Random numbers: one process-wide generator, drawn from at run time (so a compiled
dropout draws a fresh mask on every call), and the dropout primitive."""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray, check_float
from .primitive import Primitive, FRESH
from . import coerce
from . import elementwise as _ew

_generator = np.random.default_rng()
_seed = None


def set_seed(seed):
    """Seed tensorjit's random generator (``mindspore.set_seed``)."""
    global _generator, _seed
    _generator = np.random.default_rng(seed)
    _seed = seed
    np.random.seed(seed % (2 ** 32))


def get_seed():
    """The seed last given to ``set_seed`` (None if it was never called)."""
    return _seed


def generator():
    return _generator


def _dropout_impl(x, p):
    keep = _generator.random(x.shape, dtype=np.float32) >= p
    scale = np.asarray(1.0 / (1.0 - p), x.dtype)
    return x * keep * scale, keep


def _dropout_rule(x, p):
    check_float("dropout", x)
    if not 0.0 <= p < 1.0:
        raise ValueError(f"dropout: p must be in [0, 1), got {p}")
    return x, ShapedArray(x.shape, dt.bool_)


def _dropout_vjp(cts, outs, x, p):
    ct, _ = cts
    _, keep = outs
    return (_ew.mul(_ew.mul(ct, _ew.cast(keep, x.dtype)), 1.0 / (1.0 - p)),)


def _dropout_batch(prim, dims, x, p):
    # one mask element per element of the batch, as MindSpore's Dropout rule does (sampling
    # ops without tensor inputs, ops.rand in a vmapped function, draw once for all examples)
    return prim.bind(x, p=p), (dims[0], dims[0])


dropout_p = Primitive("dropout", _dropout_impl, _dropout_rule, _dropout_vjp,
                      multiple_results=True, random=True, shape_generic=False, aliasing=FRESH,
                      batch=_dropout_batch)


def dropout(input, p=0.5, training=True, seed=None):
    """Zero elements with probability ``p`` and scale the rest by 1/(1-p)."""
    x = coerce.as_tensor(input, op="dropout")
    if not dt.is_float(x.dtype):     # the kernel would scale integers into floats
        raise TypeError(f"dropout: expected a floating-point tensor, got {x.dtype}")
    if not 0 <= p <= 1:
        raise ValueError(f"dropout: p must be in [0, 1], got {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return _ew.zeros_like(x)
    return dropout_p.bind(x, p=float(p))[0]


def _sample_rule(shape, dtype):
    return ShapedArray(shape, dtype)


# Sampling primitives take no tensor inputs; being primitives (not constants) they draw
# fresh numbers on every call of a compiled graph, as in eager mode.
def _uniform(shape, dtype):
    """Uniform in [0, 1) for ``dtype``: a draw that rounds up to 1.0 in float16 / bfloat16
    becomes the largest value below 1."""
    values = _generator.random(shape).astype(dtype)
    below_one = dtype.type(1.0 - dt.epsneg(dtype))
    return np.minimum(values, below_one) if values.size else values


uniform_p = Primitive("random_uniform", _uniform,
                      _sample_rule, lambda ct, out, **params: (), random=True, shape_generic=False,
                      aliasing=FRESH)
normal_p = Primitive("random_normal",
                     lambda shape, dtype: _generator.standard_normal(shape).astype(dtype),
                     _sample_rule, lambda ct, out, **params: (), random=True, shape_generic=False,
                     aliasing=FRESH)


def _size(size, op):
    size = size[0] if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    return coerce.as_shape(size, op)


def rand(*size, dtype=None, seed=None):
    """Uniform samples in [0, 1)."""
    return uniform_p.bind(shape=_size(size, "rand"), dtype=dt.as_dtype(dtype or dt.float32))


def randn(*size, dtype=None, seed=None):
    """Standard normal samples."""
    return normal_p.bind(shape=_size(size, "randn"), dtype=dt.as_dtype(dtype or dt.float32))


def randint(low, high, size, seed=None, *, dtype=None):
    shape = coerce.as_shape(size, "randint")
    if low >= high:
        raise ValueError(f"randint: low ({low}) must be less than high ({high})")
    from .sampling import integer_draws     # (sampling builds on this module's primitives)
    # drawn by a primitive, not made a constant: a compiled graph draws anew on every call
    return integer_draws(shape, int(low), int(high),
                         dt.as_dtype(dtype) if dtype is not None else dt.int64, "randint")


def _float_dtype(dtype, op):
    dtype = dt.as_dtype(dtype or dt.float32)
    if not dt.is_float(dtype):
        raise TypeError(f"{op}: dtype must be a floating type, got {dtype}")
    return dtype


def standard_normal(shape, seed=None):
    """Standard normal samples of ``shape`` (``ops.standard_normal``)."""
    return normal_p.bind(shape=coerce.as_shape(shape, "standard_normal"), dtype=dt.float32)


def normal(shape, mean, stddev, seed=None):
    """Samples from N(mean, stddev^2) (``ops.normal``); ``mean`` and ``stddev`` may be
    tensors, which broadcast with ``shape``."""
    mean = coerce.as_tensor(mean, op="normal")
    stddev = coerce.as_tensor(stddev, op="normal")
    dtype = mean.dtype if dt.is_float(mean.dtype) else dt.float32
    samples = normal_p.bind(shape=coerce.as_shape(shape, "normal"), dtype=dtype)
    return _ew.add(_ew.mul(samples, _ew.cast(stddev, dtype)), _ew.cast(mean, dtype))


def uniform(shape, minval, maxval, seed=None, dtype=dt.float32):
    """Samples from U[minval, maxval) (``ops.uniform``); the bounds may be tensors."""
    dtype = _float_dtype(dtype, "uniform")
    samples = uniform_p.bind(shape=coerce.as_shape(shape, "uniform"), dtype=dtype)
    low = coerce.as_tensor(minval, dtype, op="uniform")
    high = coerce.as_tensor(maxval, dtype, op="uniform")
    value = _ew.add(_ew.mul(samples, _ew.sub(high, low)), low)
    # low + u (high - low) can round up to high (float16: u = 0.9995 on [10, 12) gives 12):
    # such draws move below high by at most two units in the last place, into the range
    step = _ew.add(_ew.mul(_ew.abs(high), 2 * dt.epsneg(dtype)),
                   float(dt.smallest_subnormal(dtype)))
    below = _ew.maximum(low, _ew.sub(high, step))
    return _ew.where(_ew.lt(value, high), value, below)


def _channel_dropout(input, p, training, spatial, op):
    """Zero whole channels: one draw per (sample, channel), shared by the last
    ``spatial`` axes."""
    x = coerce.as_tensor(input, op=op)
    check_float(op, x.aval)
    if x.ndim not in (spatial + 1, spatial + 2):
        raise ValueError(f"{op}: expected a {spatial + 1}-D or {spatial + 2}-D input, got "
                         f"shape {tuple(x.shape)}")
    if not 0 <= p <= 1:
        raise ValueError(f"{op}: p must be in [0, 1], got {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return _ew.zeros_like(x)
    mask_shape = tuple(x.shape[:-spatial]) + (1,) * spatial
    keep = _ew.ge(uniform_p.bind(shape=mask_shape, dtype=x.dtype), p)
    return _ew.mul(x, _ew.mul(_ew.cast(keep, x.dtype), 1.0 / (1.0 - p)))


def dropout1d(input, p=0.5, training=True):
    """Zero whole channels of an (N, C, L) or (C, L) input with probability ``p``, scaling
    the kept ones by 1/(1-p)."""
    return _channel_dropout(input, p, training, 1, "dropout1d")


def dropout2d(input, p=0.5, training=True):
    """Zero whole channels of an (N, C, H, W) or (C, H, W) input with probability ``p``,
    scaling the kept ones by 1/(1-p)."""
    return _channel_dropout(input, p, training, 2, "dropout2d")


def dropout3d(input, p=0.5, training=True):
    """Zero whole channels of an (N, C, D, H, W) or (C, D, H, W) input."""
    return _channel_dropout(input, p, training, 3, "dropout3d")
