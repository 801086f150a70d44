"""Gamma and Poisson draws: ``random_gamma`` / ``gamma`` / ``RandomGamma`` / ``Gamma`` and
``random_poisson`` / ``poisson`` / ``RandomPoisson`` / ``Poisson``.

Their samplers are rejection loops whose number of uniform draws is not fixed, so, unlike
the inverse-CDF draws of ``sampling.py``, each is one sampling primitive drawing from
tensorjit's one generator (``set_seed``) when it runs -- as ``random_uniform`` does, so a
compiled function draws anew on every call. The parameters are inputs (a draw per
element); the ``seed`` arguments are accepted and do not select another stream."""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from ..tensor import Tensor
from .primitive import Primitive, FRESH
from . import coerce
from . import elementwise as E
from . import shape as S
from . import random as RND

__all__ = ["random_gamma", "gamma", "random_poisson", "poisson"]

_FLOATS = (dt.float16, dt.float32, dt.float64)


def _gamma_impl(alpha, shape, dtype):
    """Gamma(alpha, 1) draws of shape ``shape + alpha.shape``: NaN for alpha < 0 (or NaN),
    0 for alpha = 0 (MindSpore's CPU kernel)."""
    a = np.broadcast_to(alpha.astype(np.float64), tuple(shape) + alpha.shape)
    valid = a > 0
    draws = RND.generator().standard_gamma(np.where(valid, a, 1.0))
    return np.where(valid, draws, np.where(a == 0, 0.0, np.nan)).astype(dtype)


def _poisson_impl(rate, shape, dtype):
    """Poisson(rate) draws of shape ``shape + rate.shape`` (0 where rate <= 0)."""
    lam = np.broadcast_to(rate.astype(np.float64), tuple(shape) + rate.shape)
    safe = np.where(lam > 0, np.minimum(lam, 1e18), 0.0)
    return RND.generator().poisson(safe).astype(dtype)


def _sample_rule(param, shape, dtype):
    return ShapedArray(tuple(shape) + tuple(param.shape), dtype)


def _batch(prim, dims, param, shape, dtype):
    # each example's parameters draw their own numbers: the batch axis follows the prefix
    return prim.bind(param, shape=shape, dtype=dtype), len(shape) + dims[0]


def _no_gradient(ct, out, param, **params):
    return (None,)


random_gamma_p = Primitive("random_gamma", _gamma_impl, _sample_rule, _no_gradient,
                           random=True, shape_generic=False, aliasing=FRESH, batch=_batch)
random_poisson_p = Primitive("random_poisson", _poisson_impl, _sample_rule, _no_gradient,
                             random=True, shape_generic=False, aliasing=FRESH, batch=_batch)


def _shape_tensor(shape, op):
    """The 1-D int32 / int64 tensor of positive sizes ``random_gamma`` / ``random_poisson``
    take as their shape."""
    if not isinstance(shape, Tensor):
        raise TypeError(f"{op}: shape must be a 1-D int32 / int64 tensor, got "
                        f"{type(shape).__name__}")
    if shape.dtype not in (dt.int32, dt.int64):
        raise TypeError(f"{op}: shape must be int32 or int64, got {shape.dtype}")
    if shape.ndim != 1:
        raise ValueError(f"{op}: shape must be a 1-D tensor, got {shape.ndim}-D")
    coerce.shape_decision()
    sizes = tuple(int(v) for v in shape.asnumpy())
    if any(v <= 0 for v in sizes):
        raise ValueError(f"{op}: each dimension of shape must be greater than 0, got {sizes}")
    return sizes


def _float_tensor(x, op, name, dtypes=_FLOATS):
    if not isinstance(x, Tensor) or x.dtype not in dtypes:
        raise TypeError(f"{op}: {name} must be a {' / '.join(map(str, dtypes))} tensor, got "
                        f"{getattr(x, 'dtype', type(x).__name__)}")
    return x


def random_gamma(shape, alpha, seed=None):
    """Gamma(alpha, 1) draws of shape ``shape + alpha.shape`` in alpha's dtype (float16 /
    32 / 64); ``shape`` is a 1-D int32 / int64 tensor of positive sizes."""
    op = "random_gamma"
    sizes = _shape_tensor(shape, op)
    alpha = _float_tensor(alpha, op, "alpha")
    return random_gamma_p.bind(alpha, shape=sizes, dtype=alpha.dtype)


def _broadcast(shape, shapes, op):
    try:
        return tuple(np.broadcast_shapes(tuple(shape), *[tuple(s) for s in shapes]))
    except ValueError:
        raise ValueError(f"{op}: shape {tuple(shape)} and the parameters' shapes "
                         f"{[tuple(s) for s in shapes]} do not broadcast") from None


def _tuple_shape(shape, op):
    if not isinstance(shape, tuple):
        raise TypeError(f"{op}: shape must be a tuple, got {type(shape).__name__}")
    return coerce.as_shape(shape, op)


def gamma(shape, alpha, beta, seed=None):
    """Gamma draws with shape parameter ``alpha`` and inverse scale ``beta`` (float32
    tensors), of the broadcast shape of ``shape``, alpha's and beta's (float32)."""
    op = "gamma"
    shape = _tuple_shape(shape, op)
    alpha = _float_tensor(alpha, op, "alpha", (dt.float32,))
    beta = _float_tensor(beta, op, "beta", (dt.float32,))
    out = _broadcast(shape, (alpha.shape, beta.shape), op)
    draws = random_gamma_p.bind(S.broadcast_to(alpha, out), shape=(), dtype=dt.float32)
    return E.div(draws, beta)


_POISSON_DTYPES = (dt.int64, dt.int32, dt.float16, dt.float32, dt.float64)


def random_poisson(shape, rate, seed=None, dtype=dt.float32):
    """Poisson(rate) draws of shape ``shape + rate.shape`` in ``dtype`` (int32 / int64 /
    float16 / 32 / 64); ``rate`` is a float16 / 32 / 64 or int32 / int64 tensor, 0 draws
    where it is not positive."""
    op = "random_poisson"
    sizes = _shape_tensor(shape, op)
    rate = _float_tensor(rate, op, "rate", _FLOATS + (dt.int32, dt.int64))
    dtype = dt.as_dtype(dtype)
    if dtype not in _POISSON_DTYPES:
        raise TypeError(f"{op}: dtype must be int64, int32, float16, float32 or float64, "
                        f"got {dtype}")
    return random_poisson_p.bind(rate, shape=sizes, dtype=dtype)


def poisson(shape, mean, seed=None):
    """Poisson(mean) draws (int32) of the broadcast shape of ``shape`` (a tuple) and the
    float32 tensor ``mean``'s."""
    op = "poisson"
    shape = _tuple_shape(shape, op)
    mean = _float_tensor(mean, op, "mean", (dt.float32,))
    out = _broadcast(shape, (mean.shape,), op)
    return random_poisson_p.bind(S.broadcast_to(mean, out), shape=(), dtype=dt.int32)


def compute_random_gamma(shape, alpha, *, seed, seed2):
    return random_gamma(shape, alpha)


def compute_gamma(shape, alpha, beta, *, seed, seed2):
    return gamma(shape, alpha, beta)


def compute_random_poisson(shape, rate, *, seed, seed2, dtype):
    return random_poisson(shape, rate, dtype=dtype)


def compute_poisson(shape, mean, *, seed, seed2):
    return poisson(shape, mean)
