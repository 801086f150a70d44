"""SciPy-backed special functions MindSpore names beyond ``special_math.py`` (the Hurwitz
zeta function, the regularized incomplete beta function, the multivariate log-gamma) and
``check_values``, the one primitive that raises when a tensor's *values* are wrong
(``CheckNumerics``' NaN / Inf, ``mvlgamma``'s domain): a kernel that raises at run time, so
a compiled function refuses the same inputs as eager code."""
import math

import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from ..tensor import Tensor
from .primitive import Primitive, NO_OUTPUT
from .binary import binary, _unbroadcast
from . import coerce
from . import elementwise as E
from . import reduction as R
from .batching import to_front
from .special_unary import _NOT_FUSED, _scipy, _wide, lgamma

__all__ = ["zeta", "mvlgamma"]

_F32_F64 = (dt.float32, dt.float64)


# ---- the Hurwitz zeta function ------------------------------------------------------------

def _zeta_vjp(ct, out, x, q):
    # d zeta(x, q) / dq = -x zeta(x + 1, q); no gradient for x (MindSpore has none either)
    return None, _unbroadcast(E.mul(ct, E.neg(E.mul(x, zeta_p.bind(E.add(x, 1.0), q)))), q)


zeta_p = binary("zeta", _wide(_scipy("zeta")), _zeta_vjp, no_scalar=_NOT_FUSED)


def _same_float_pair(x, y, op, dtypes=_F32_F64):
    """Tensors (or numbers taking the tensor's dtype) of one float dtype among ``dtypes``."""
    if not isinstance(x, Tensor) and not isinstance(y, Tensor):
        raise TypeError(f"{op}: at least one of the inputs must be a Tensor")
    like = x if isinstance(x, Tensor) else y
    x = x if isinstance(x, Tensor) else coerce.as_tensor(x, like.dtype, op=op)
    y = y if isinstance(y, Tensor) else coerce.as_tensor(y, like.dtype, op=op)
    for t in (x, y):
        if t.dtype not in dtypes:
            raise TypeError(f"{op}: the inputs must be {' or '.join(map(str, dtypes))} "
                            f"tensors, got {t.dtype}")
    if x.dtype != y.dtype:
        raise TypeError(f"{op}: the inputs must have the same dtype, got {x.dtype} and "
                        f"{y.dtype}")
    return x, y


def zeta(input, other):
    """The Hurwitz zeta function ``sum_k (other + k) ** -input``, elementwise with
    broadcasting; float32 / float64 tensors of one dtype (or a number with a tensor).
    Differentiable in ``other``."""
    x, q = _same_float_pair(input, other, "zeta")
    return zeta_p.bind(*coerce.coerce_pair(x, q, "zeta"))


# ---- the regularized incomplete beta function ---------------------------------------------

def _betainc_rule(a, b, x):
    if not (a.dtype == b.dtype == x.dtype):
        raise TypeError(f"Betainc: a, b and x must have the same dtype, got {a.dtype}, "
                        f"{b.dtype}, {x.dtype}")
    if not (a.shape == b.shape == x.shape):
        raise ValueError(f"Betainc: a, b and x must have the same shape, got {a.shape}, "
                         f"{b.shape}, {x.shape}")
    return ShapedArray(a.shape, a.dtype)


def _betainc_vjp(ct, out, a, b, x):
    # d I_x(a, b) / dx = x^(a-1) (1-x)^(b-1) / B(a, b); a and b get none (as MindSpore's)
    log_density = E.sub(E.add(E.mul(E.sub(a, 1.0), E.log(x)), E.mul(E.sub(b, 1.0),
                                                                      E.log1p(E.neg(x)))),
                        E.sub(E.add(lgamma(a), lgamma(b)), lgamma(E.add(a, b))))
    return None, None, E.mul(ct, E.exp(log_density))


betainc_p = Primitive("betainc", _wide(_scipy("betainc")), _betainc_rule, _betainc_vjp,
                      elementwise=True, no_scalar=_NOT_FUSED)


def betainc(a, b, x):
    """``Betainc()(a, b, x)``: the regularized incomplete beta function I_x(a, b) of three
    float32 / float64 tensors of one shape and dtype (NaN outside its domain)."""
    for name, t in (("a", a), ("b", b), ("x", x)):
        if not isinstance(t, Tensor) or t.dtype not in _F32_F64:
            raise TypeError(f"Betainc: {name} must be a float32 or float64 tensor, got "
                            f"{getattr(t, 'dtype', type(t).__name__)}")
    return betainc_p.bind(a, b, x)


# ---- value checks at run time -------------------------------------------------------------

_ERRORS = {"RuntimeError": RuntimeError, "ValueError": ValueError}


def _check_values_impl(flags, message, error):
    if np.any(flags):
        raise _ERRORS[error](message)
    return ()


def _check_values_batch(prim, dims, flags, **params):
    prim.bind(flags if dims[0] is None else to_front(flags, dims[0]), **params)
    return (), ()


check_values_p = Primitive(
    "check_values", _check_values_impl, lambda flags, **params: (),
    lambda ct, out, flags, **params: (None,), multiple_results=True, effect=True,
    shape_generic=True, aliasing=NO_OUTPUT, batch=_check_values_batch)


def check_values(flags, message, error="ValueError"):
    """Raise ``error(message)`` when any element of the bool tensor ``flags`` is True --
    eagerly now, in a compiled function when it runs."""
    check_values_p.bind(flags, message=message, error=error)


def check_numerics(x):
    """``CheckNumerics()(x)``: ``x`` itself, after RuntimeError if it holds NaN or Inf."""
    if not isinstance(x, Tensor) or not dt.is_float(x.dtype):
        raise TypeError(f"CheckNumerics: the input must be a float tensor, got "
                        f"{getattr(x, 'dtype', type(x).__name__)}")
    check_values(E.isnan(x), "CheckNumerics: Tensor had NaN values", "RuntimeError")
    check_values(E.isinf(x), "CheckNumerics: Tensor had Inf values", "RuntimeError")
    return E.identity(x)


# ---- the multivariate log-gamma function --------------------------------------------------

def mvlgamma(input, p):
    """The multivariate log-gamma function of dimension ``p``:
    ``p (p - 1) / 4 log(pi) + sum_{i < p} lgamma(x - i / 2)``, elementwise on a float32 /
    float64 tensor whose elements all exceed ``(p - 1) / 2`` (ValueError otherwise)."""
    if not isinstance(input, Tensor) or input.dtype not in _F32_F64:
        raise TypeError(f"mvlgamma: the input must be a float32 or float64 tensor, got "
                        f"{getattr(input, 'dtype', type(input).__name__)}")
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p <= 0:
        raise ValueError(f"mvlgamma: p must be an int greater than 0, got {p!r}")
    p = int(p)
    check_values(E.logical_not(E.gt(input, (p - 1) / 2)),
                 f"mvlgamma: all elements of the input must be greater than (p-1)/2 = "
                 f"{(p - 1) / 2}")
    terms = [lgamma(E.sub(input, i / 2)) for i in range(p)]
    total = terms[0]
    for term in terms[1:]:
        total = E.add(total, term)
    return E.add(total, p * (p - 1) / 4 * math.log(math.pi))


def square_sum_all(x, y):
    """``SquareSumAll()(x, y)``: ``(sum(x**2), sum(y**2))`` as 0-d tensors, of two float16 /
    float32 tensors of one shape and dtype."""
    for t in (x, y):
        if not isinstance(t, Tensor) or t.dtype not in (dt.float16, dt.float32):
            raise TypeError(f"SquareSumAll: the inputs must be float16 or float32 tensors, "
                            f"got {getattr(t, 'dtype', type(t).__name__)}")
    if x.dtype != y.dtype:
        raise TypeError(f"SquareSumAll: the inputs must have the same dtype, got {x.dtype} "
                        f"and {y.dtype}")
    if tuple(x.shape) != tuple(y.shape):
        raise ValueError(f"SquareSumAll: the inputs must have the same shape, got "
                         f"{tuple(x.shape)} and {tuple(y.shape)}")
    return R.sum(E.mul(x, x)), R.sum(E.mul(y, y))
