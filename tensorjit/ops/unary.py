"""Elementwise primitives of one operand -- math (exp, tanh, erf, ...), activations (relu,
sigmoid, silu, gelu), rounding, tests (isnan, ...), casts -- and their functional API.

Each primitive declares its NumPy kernel, shape rule, VJP (written with ops) and scalar
rule for fused kernels (ops/scalar.py) in one call; that is all an op needs to run
eagerly, differentiate, print in the IR and fuse at O1."""
import math

import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray
from ..tensor import Tensor
from ..state import state
from .primitive import Primitive, same_aval, VIEW
from . import coerce



def _erf_kernel(x):
    """erf by SciPy's ufunc (a declared dependency; NumPy has none), imported on first use
    (it takes 0.2 s): one vectorized call, never Python per element. Low-precision floats
    are computed in float32. O1 fuses erf into its kernels with tensorjit's own
    vectorizable erf (backend/numba/scalar_math.py) instead."""
    from scipy.special import erf
    return erf(x if x.dtype.kind == "f" and x.dtype.itemsize >= 4 else x.astype(np.float32))


# ---------------------------------------------------------------------------------------
# shape rules

def _float_unary_rule(name):
    def rule(x):
        if not dt.is_float(x.dtype):
            raise TypeError(f"{name}: expected a floating-point tensor, got {x}")
        return x
    return rule


def _numeric_unary_rule(name):
    def rule(x):
        if x.dtype == dt.bool_:
            raise TypeError(f"{name}: not defined for bool tensors")
        return x
    return rule


# ---------------------------------------------------------------------------------------
# unary primitives

def unary(name, impl, vjp, rule=None, scalar=None, no_scalar=None):
    return Primitive(name, impl, rule or _float_unary_rule(name), vjp, elementwise=True,
                     scalar=scalar, no_scalar=no_scalar)


# ---- scalar rules for fused kernels (see ops/scalar.py) --------------------------------

def _not_bool(template):
    return lambda s, *xs: None if s.is_bool else template.format(*xs)


def _sign_scalar(s, a):
    zero = s.zero()
    minus_one = s.lit(-1) if s.is_float else "-1"
    # np.sign: -0.0 -> 0.0 and NaN -> NaN
    rest = s.select(f"{a} == {a}", zero, a) if s.is_float else zero
    return s.select(f"{a} > {zero}", s.one(), s.select(f"{a} < {zero}", minus_one, rest))


def _softplus_scalar(s, a):
    # np.logaddexp(0, a), branch for branch (NaN falls through to the last)
    return s.select(f"{a} == {s.zero()}", s.lit(math.log(2)),
                    s.select(f"{a} > {s.zero()}", f"{a} + log1p(exp(-{a}))",
                             s.select(f"{a} <= {s.zero()}", f"log1p(exp({a}))", a)))


def _gelu_scalar(s, a):
    half, one = s.lit(0.5), s.one()
    if s.params.get("approximate") == "tanh":
        c = s.lit(math.sqrt(2 / math.pi))
        return f"{half} * {a} * ({one} + tanh({c} * ({a} + {s.lit(0.044715)} * {a} * {a} * {a})))"
    return f"{half} * {a} * ({one} + erf({a} / {s.lit(math.sqrt(2))}))"


def _sigmoid(x):
    with np.errstate(over="ignore"):
        return (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)


def _silu(x):
    return (x * _sigmoid(x)).astype(x.dtype, copy=False)


def _gelu_tanh(x):
    c = math.sqrt(2 / math.pi)
    return (0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))).astype(x.dtype, copy=False)


def _gelu_erf(x):
    return (0.5 * x * (1 + _erf_kernel(x / math.sqrt(2)))).astype(x.dtype, copy=False)


def _erf(x):
    return np.asarray(_erf_kernel(x)).astype(x.dtype, copy=False)


def _softplus(x):
    return np.logaddexp(0, x).astype(x.dtype, copy=False)


def _rsqrt(x):
    return (1 / np.sqrt(x)).astype(x.dtype, copy=False)


neg_p = unary("neg", np.negative, lambda ct, out, x: (neg(ct),), _numeric_unary_rule("neg"),
              scalar=_not_bool("-{0}"))
abs_p = unary("abs", np.abs, lambda ct, out, x: (mul(ct, sign(x)),), _numeric_unary_rule("abs"),
              scalar=_not_bool("abs({0})"))
def _sign(x):
    out = np.sign(x)
    # ml_dtypes' bfloat16 sign keeps -0.0; NumPy's own float dtypes give 0.0
    return out + out.dtype.type(0) if x.dtype.isbuiltin != 1 else out


sign_p = unary("sign", _sign, lambda ct, out, x: (None,), _numeric_unary_rule("sign"),
               scalar=_sign_scalar)
exp_p = unary("exp", np.exp, lambda ct, out, x: (mul(ct, out),), scalar="exp({0})")
log_p = unary("log", np.log, lambda ct, out, x: (div(ct, x),), scalar="log({0})")
log1p_p = unary("log1p", np.log1p, lambda ct, out, x: (div(ct, add(x, 1.0)),),
                scalar="log1p({0})")
expm1_p = unary("expm1", np.expm1, lambda ct, out, x: (mul(ct, add(out, 1.0)),),
                scalar="expm1({0})")
sqrt_p = unary("sqrt", np.sqrt, lambda ct, out, x: (div(ct, mul(out, 2.0)),),
               scalar="sqrt({0})")
rsqrt_p = unary("rsqrt", _rsqrt,
                lambda ct, out, x: (mul(ct, mul(mul(out, out), mul(out, -0.5))),),
                scalar=lambda s, a: f"{s.one()} / sqrt({a})")
sin_p = unary("sin", np.sin, lambda ct, out, x: (mul(ct, cos(x)),), scalar="sin({0})")
cos_p = unary("cos", np.cos, lambda ct, out, x: (neg(mul(ct, sin(x))),), scalar="cos({0})")
tan_p = unary("tan", np.tan, lambda ct, out, x: (mul(ct, add(mul(out, out), 1.0)),),
              scalar="tan({0})")
tanh_p = unary("tanh", np.tanh, lambda ct, out, x: (mul(ct, sub(1.0, mul(out, out))),),
               scalar="tanh({0})")
atan_p = unary("atan", np.arctan, lambda ct, out, x: (div(ct, add(mul(x, x), 1.0)),),
               scalar="atan({0})")
sigmoid_p = unary("sigmoid", _sigmoid,
                  lambda ct, out, x: (mul(ct, mul(out, sub(1.0, out))),),
                  scalar=lambda s, a: f"{s.one()} / ({s.one()} + exp(-{a}))")
relu_p = unary("relu", lambda x: np.maximum(x, 0).astype(x.dtype, copy=False),
               lambda ct, out, x: (where(gt(x, 0), ct, zeros_like(ct)),),
               _numeric_unary_rule("relu"), scalar=lambda s, a: s.maximum(a, s.zero()))
erf_p = unary("erf", _erf,
              lambda ct, out, x: (mul(ct, mul(exp(neg(mul(x, x))), 2 / math.sqrt(math.pi))),),
              scalar="erf({0})")
softplus_p = unary("softplus", _softplus, lambda ct, out, x: (mul(ct, sigmoid(x)),),
                   scalar=_softplus_scalar)
softsign_p = unary("softsign", lambda x: (x / (1 + np.abs(x))).astype(x.dtype, copy=False),
                   lambda ct, out, x: (div(ct, square(add(abs(x), 1.0))),),
                   scalar=lambda s, a: f"{a} / ({s.one()} + abs({a}))")
floor_p = unary("floor", np.floor, lambda ct, out, x: (None,), _numeric_unary_rule("floor"),
                scalar="floor({0})")
ceil_p = unary("ceil", np.ceil, lambda ct, out, x: (None,), _numeric_unary_rule("ceil"),
               scalar="ceil({0})")
round_p = unary("round", np.round, lambda ct, out, x: (None,), _numeric_unary_rule("round"),
                scalar=lambda s, a: s.call("rint", a) if s.is_float else a)


def _silu_vjp(ct, out, x):
    s = sigmoid(x)
    return (mul(ct, mul(s, add(mul(x, sub(1.0, s)), 1.0))),)


silu_p = unary("silu", _silu, _silu_vjp,
               scalar=lambda s, a: f"{a} * ({s.one()} / ({s.one()} + exp(-{a})))")


def _gelu_vjp(ct, out, x, approximate):
    if approximate == "tanh":
        c = math.sqrt(2 / math.pi)
        inner = mul(add(x, mul(mul(mul(x, x), x), 0.044715)), c)
        t = tanh(inner)
        d_inner = mul(add(mul(mul(x, x), 3 * 0.044715), 1.0), c)
        grad = add(mul(add(t, 1.0), 0.5), mul(mul(mul(x, 0.5), sub(1.0, mul(t, t))), d_inner))
    else:
        # erf(x / sqrt(2)) + 1, written as the decomposition writes the forward (O1's CSE
        # then computes erf once per element for both)
        cdf = mul(add(erf(div(x, math.sqrt(2))), 1.0), 0.5)
        pdf = mul(exp(mul(mul(x, x), -0.5)), 1 / math.sqrt(2 * math.pi))
        grad = add(cdf, mul(x, pdf))
    return (mul(ct, grad),)


def _gelu_rule(x, approximate):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return _float_unary_rule("gelu")(x)


def _gelu_decomposition(b, x, *, approximate):
    """Exact GELU as the ops of its formula, so that O1 shares ``erf(x / sqrt(2))`` with the
    gradient's (one erf per element in the fused kernel, not two); the same operations in
    the same order as the kernel, so the same values."""
    if approximate != "none":
        return None
    d = x.aval.dtype
    cdf = b.add(b.erf(b.div(x, b.lit(math.sqrt(2), d))), b.lit(1.0, d))
    return [b.mul(b.mul(x, b.lit(0.5, d)), cdf)]


gelu_p = Primitive("gelu", lambda x, approximate: (_gelu_tanh(x) if approximate == "tanh"
                                                   else _gelu_erf(x)),
                   _gelu_rule, _gelu_vjp, elementwise=True, scalar=_gelu_scalar,
                   decompose=_gelu_decomposition)


def _bool_unary_rule(name, accept=None):
    def rule(x):
        return ShapedArray(x.shape, dt.bool_)
    return rule


logical_not_p = Primitive("logical_not", np.logical_not, _bool_unary_rule("logical_not"),
                          lambda ct, out, x: (None,), elementwise=True, scalar="not {0}")
isnan_p = Primitive("isnan", np.isnan, _bool_unary_rule("isnan"),
                    lambda ct, out, x: (None,), elementwise=True, scalar="{0} != {0}")
isinf_p = Primitive("isinf", np.isinf, _bool_unary_rule("isinf"),
                    lambda ct, out, x: (None,), elementwise=True, scalar="isinf({0})")
isfinite_p = Primitive("isfinite", np.isfinite, _bool_unary_rule("isfinite"),
                       lambda ct, out, x: (None,), elementwise=True, scalar="isfinite({0})")


def _cast_rule(x, dtype):
    return ShapedArray(x.shape, dtype)


def _cast_impl(x, dtype):
    return x.astype(dtype)


def _cast_vjp(ct, out, x, dtype):
    # back to the input's dtype whatever it is (MindSpore's Cast: a float gradient reaching
    # an integer input is truncated; cast(x, int32) of a float x passes the gradient through)
    return (cast(ct, x.dtype),)


cast_p = Primitive("cast", _cast_impl, _cast_rule, _cast_vjp, elementwise=True,
                   scalar=lambda s, a: s.cast(a, s.params["dtype"]))

# identity: a copy (Tensor.copy) and the carrier of stop_gradient's "no gradient" rule
identity_p = Primitive("identity", lambda x: np.array(x), same_aval,
                       lambda ct, out, x: (ct,), elementwise=True, scalar="{0}")
# returns its operand itself: a view for buffer reuse
stop_gradient_p = Primitive("stop_gradient", lambda x: x, same_aval,
                            lambda ct, out, x: (None,), elementwise=True, scalar="{0}",
                            aliasing=VIEW)


# ---------------------------------------------------------------------------------------
# functional API

def _float_operand(x, op):
    x = coerce.as_tensor(x, op=op)
    return x if dt.is_float(x.dtype) else cast(x, dt.DEFAULT_FLOAT)


def _make_unary(prim, float_only=True, bool_ok=True):
    def fn(input):
        x = _float_operand(input, prim.name) if float_only else coerce.as_tensor(input, op=prim.name)
        if not bool_ok and x.dtype == dt.bool_:
            # eager kernels accept bool (np.floor does) but the shape rule, so every
            # capture, does not: refuse it here so that eager and jitted code agree
            raise TypeError(f"{prim.name}: not defined for bool tensors")
        return prim.bind(x)
    fn.__name__ = prim.name
    fn.__doc__ = f"Elementwise {prim.name}."
    return fn


neg = _make_unary(neg_p, float_only=False, bool_ok=False)
abs = _make_unary(abs_p, float_only=False, bool_ok=False)
sign = _make_unary(sign_p, float_only=False, bool_ok=False)
exp = _make_unary(exp_p)
log = _make_unary(log_p)
log1p = _make_unary(log1p_p)
expm1 = _make_unary(expm1_p)
sqrt = _make_unary(sqrt_p)
rsqrt = _make_unary(rsqrt_p)
sin = _make_unary(sin_p)
cos = _make_unary(cos_p)
tan = _make_unary(tan_p)
tanh = _make_unary(tanh_p)
atan = _make_unary(atan_p)
sigmoid = _make_unary(sigmoid_p)
relu = _make_unary(relu_p, float_only=False, bool_ok=False)
erf = _make_unary(erf_p)
softplus = _make_unary(softplus_p)
silu = _make_unary(silu_p)
softsign = _make_unary(softsign_p)
floor = _make_unary(floor_p, float_only=False, bool_ok=False)
ceil = _make_unary(ceil_p, float_only=False, bool_ok=False)
round = _make_unary(round_p, float_only=False, bool_ok=False)
isnan = _make_unary(isnan_p, float_only=False)
isinf = _make_unary(isinf_p, float_only=False)
isfinite = _make_unary(isfinite_p, float_only=False)
logical_not = _make_unary(logical_not_p, float_only=False)
arctan, absolute, negative = atan, abs, neg


def gelu(input, approximate="none"):
    return gelu_p.bind(_float_operand(input, "gelu"), approximate=approximate)


def cast(input, dtype):
    """Convert to ``dtype`` (MindSpore ``ops.cast``)."""
    x = coerce.as_tensor(input, op="cast")
    dtype = dt.as_dtype(dtype)
    if x.dtype == dtype:
        return x
    return cast_p.bind(x, dtype=dtype)


def identity(input):
    return identity_p.bind(coerce.as_tensor(input, op="identity"))


def stop_gradient(input):
    """The value of ``input``, through which no gradient flows."""
    if isinstance(input, (tuple, list)):
        return type(input)(stop_gradient(x) for x in input)
    if not isinstance(input, Tensor):
        return input
    if not state.tapes:
        return input
    return stop_gradient_p.bind(input)


# the VJPs above are written with binary ops, which are written with these (a cycle of
# names, not of values: both modules are complete before any VJP runs)
from .binary import add, sub, mul, div, square, where, gt, zeros_like  # noqa: E402
