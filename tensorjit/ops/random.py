"""Random numbers: one process-wide generator, drawn from at run time (so a compiled
dropout draws a fresh mask on every call), and the dropout primitive."""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray, check_float
from .primitive import Primitive, FRESH
from . import coerce
from . import elementwise as _ew

_generator = np.random.default_rng()


def set_seed(seed):
    """Seed tensorjit's random generator (``mindspore.set_seed``)."""
    global _generator
    _generator = np.random.default_rng(seed)
    np.random.seed(seed % (2 ** 32))


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
    return coerce.constant(_generator.integers(low, high, shape).astype(
        dt.as_dtype(dtype) if dtype is not None else dt.int64))
