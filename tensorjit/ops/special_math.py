"""Longer than 500 lines for now: one family of elementwise primitives and their
functions, landed at once; to be split (unary special functions / binary ones).

Elementwise math beyond ``unary.py`` / ``binary.py``: inverse and hyperbolic
trigonometry, logarithms and powers of base 2 and 10, the special functions (error, gamma,
Bessel, incomplete gamma), integer number theory (gcd, lcm, shifts) and the formulas
MindSpore names (xlogy, sinc, nan_to_num, fmax, ...).

A function becomes a new primitive only when no composition of existing ones computes it
accurately (acos, the Bessel functions, ...); the others are written with registry ops, so
they capture, fuse and differentiate like any composition. New primitives are declared by
table (name -> kernel, derivative, scalar rule), one general mechanism rather than a
wrapper each."""
import math

import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray, broadcast_shapes
from ..tensor import Tensor
from .primitive import Primitive
from . import coerce
from .unary import (unary, _make_unary, _float_operand, _numeric_unary_rule, neg, sign, exp,
                    log, sqrt, sin, isnan, isinf, cast, abs, logical_not)
from .binary import (binary, _unbroadcast, add, sub, mul, div, pow, where, eq,
                     lt, gt, maximum, minimum, logical_and, logical_or, zeros_like, ones_like,
                     clamp, floor_div, floor_mod)


def _wide(fn):
    """A NumPy / SciPy function as a kernel: float16 and bfloat16 are computed in float32
    (SciPy has no loops for them, NumPy's float16 loops do the same) and the result is
    rounded back to the input's dtype; floating-point warnings are silent (NaN / inf are
    results, as in NumPy's defaults for tensors)."""
    def kernel(*xs, **params):
        dtype = xs[0].dtype
        args = [x.astype(np.float32) if dt.is_float(x.dtype) and x.dtype.itemsize < 4
                else x for x in xs]
        with np.errstate(all="ignore"):
            out = fn(*args, **params)
        return np.asarray(out).astype(dtype, copy=False)
    kernel.__name__ = getattr(fn, "__name__", "kernel")
    return kernel


def _double(fn):
    """``fn`` computed in float64 for every float dtype: NumPy's float32 log10 is off by an
    ulp at powers of 10 (log10(100) is 2.0000002); rounding the float64 result is exact."""
    def kernel(x):
        with np.errstate(all="ignore"):
            return fn(x.astype(np.float64)).astype(x.dtype)
    kernel.__name__ = fn.__name__
    return kernel


def _scipy(name):
    """``scipy.special.<name>``, imported on first use (the import takes 0.2 s)."""
    def fn(*args, **params):
        from scipy import special
        return getattr(special, name)(*args, **params)
    fn.__name__ = name
    return fn


def _lgamma(x):
    # C's lgamma (and PyTorch's) gives +inf at -inf; SciPy's gammaln gives -inf
    return np.where(np.isneginf(x), np.inf, _scipy("gammaln")(x))


def _ones_where_zero(x):
    """``x`` with its zeros replaced by 1: a safe divisor whose gradient never meets 0/0."""
    return where(eq(x, 0), ones_like(x), x)


# ---------------------------------------------------------------------------------------
# derivatives of the new one-operand primitives, d f(x) / dx from x and out = f(x)

def _bessel_over_x(value_at_zero, f):
    """``f(x, safe_x)`` where x != 0, ``value_at_zero`` at 0 (the limit of the formula)."""
    def derivative(x, out):
        safe = _ones_where_zero(x)
        return where(eq(x, 0), add(zeros_like(x), value_at_zero), f(x, out, safe))
    return derivative


LN2, LN10 = math.log(2.0), math.log(10.0)

# name: (kernel, derivative(x, out), scalar rule or None (not fused))
_UNARY = {
    "acos": (np.arccos, lambda x, out: neg(div(1.0, sqrt(sub(1.0, mul(x, x))))), "acos({0})"),
    "asin": (np.arcsin, lambda x, out: div(1.0, sqrt(sub(1.0, mul(x, x)))), "asin({0})"),
    "acosh": (np.arccosh, lambda x, out: div(1.0, mul(sqrt(sub(x, 1.0)), sqrt(add(x, 1.0)))),
              "acosh({0})"),
    "asinh": (np.arcsinh, lambda x, out: div(1.0, sqrt(add(mul(x, x), 1.0))), "asinh({0})"),
    "atanh": (np.arctanh, lambda x, out: div(1.0, sub(1.0, mul(x, x))), "atanh({0})"),
    "cosh": (np.cosh, lambda x, out: sinh(x), "cosh({0})"),
    "sinh": (np.sinh, lambda x, out: cosh(x), "sinh({0})"),
    "log2": (_double(np.log2), lambda x, out: div(1.0, mul(x, LN2)), "log2({0})"),
    "log10": (_double(np.log10), lambda x, out: div(1.0, mul(x, LN10)), "log10({0})"),
    "exp2": (np.exp2, lambda x, out: mul(out, LN2), "exp2({0})"),
    "erfc": (_scipy("erfc"), lambda x, out: mul(exp(neg(mul(x, x))), -2 / math.sqrt(math.pi)),
             "erfc({0})"),
    "erfinv": (_scipy("erfinv"),
               lambda x, out: mul(exp(mul(out, out)), math.sqrt(math.pi) / 2), None),
    "lgamma": (_lgamma, lambda x, out: digamma(x), "lgamma({0})"),
    "digamma": (_scipy("psi"), lambda x, out: polygamma(1, x), None),
    # Bessel functions (SciPy's Cephes kernels) and their derivatives (DLMF 10.6, 10.29)
    "bessel_i0": (_scipy("i0"), lambda x, out: bessel_i1(x), None),
    "bessel_i0e": (_scipy("i0e"), lambda x, out: sub(bessel_i1e(x), mul(sign(x), out)), None),
    "bessel_i1": (_scipy("i1"), _bessel_over_x(
        0.5, lambda x, out, safe: sub(bessel_i0(x), div(out, safe))), None),
    "bessel_i1e": (_scipy("i1e"), _bessel_over_x(
        0.5, lambda x, out, safe: sub(bessel_i0e(x), mul(out, add(sign(x), div(1.0, safe))))),
        None),
    "bessel_j0": (_scipy("j0"), lambda x, out: neg(bessel_j1(x)), None),
    "bessel_j1": (_scipy("j1"), _bessel_over_x(
        0.5, lambda x, out, safe: sub(bessel_j0(x), div(out, safe))), None),
    "bessel_k0": (_scipy("k0"), lambda x, out: neg(bessel_k1(x)), None),
    "bessel_k0e": (_scipy("k0e"), lambda x, out: sub(out, bessel_k1e(x)), None),
    "bessel_k1": (_scipy("k1"), lambda x, out: neg(add(bessel_k0(x), div(out, x))), None),
    "bessel_k1e": (_scipy("k1e"),
                   lambda x, out: sub(sub(out, bessel_k0e(x)), div(out, x)), None),
    "bessel_y0": (_scipy("y0"), lambda x, out: neg(bessel_y1(x)), None),
    "bessel_y1": (_scipy("y1"), lambda x, out: sub(bessel_y0(x), div(out, x)), None),
}
_NOT_FUSED = ("Numba's math module has no such function: the node stays a SciPy call "
              "between fused kernels")


def _unary_vjp(derivative):
    return lambda ct, out, x: (mul(ct, derivative(x, out)),)


UNARY_PRIMITIVES = {
    name: unary(name, _wide(kernel), _unary_vjp(derivative), scalar=scalar,
                no_scalar=None if scalar else _NOT_FUSED)
    for name, (kernel, derivative, scalar) in _UNARY.items()}


def _trunc(x):
    return np.trunc(x).astype(x.dtype, copy=False) if dt.is_float(x.dtype) else x.copy()


trunc_p = unary("trunc", _wide(_trunc), lambda ct, out, x: (None,), _numeric_unary_rule("trunc"),
                scalar=lambda s, a: s.call("trunc", a) if s.is_float else a)


def _polygamma_rule(n, x):
    if not dt.is_int(n.dtype):
        raise TypeError(f"polygamma: n must be an integer tensor, got {n}")
    if not dt.is_float(x.dtype):
        raise TypeError(f"polygamma: expected a floating-point tensor, got {x}")
    return ShapedArray(broadcast_shapes("polygamma", n.shape, x.shape), x.dtype)


def _polygamma_kernel(n, x):
    wide = x.astype(np.float32) if x.dtype.itemsize < 4 else x
    with np.errstate(all="ignore"):
        return np.asarray(_scipy("polygamma")(n, wide)).astype(x.dtype, copy=False)


def _polygamma_vjp(ct, out, n, x):
    return None, _unbroadcast(mul(ct, polygamma_p.bind(add(n, 1), x)), x)


# n is an operand (an integer tensor), not a parameter: MindSpore's Polygamma takes it as a
# tensor, so a jitted function may receive it as an argument
polygamma_p = Primitive("polygamma", _polygamma_kernel, _polygamma_rule, _polygamma_vjp,
                        elementwise=True, no_scalar=_NOT_FUSED)


# ---------------------------------------------------------------------------------------
# two-operand primitives

def _hypot_vjp(ct, out, x, y):
    return _unbroadcast(mul(ct, div(x, out)), x), _unbroadcast(mul(ct, div(y, out)), y)


def _logaddexp_vjp(base_exp):
    def vjp(ct, out, x, y):
        return (_unbroadcast(mul(ct, base_exp(sub(x, out))), x),
                _unbroadcast(mul(ct, base_exp(sub(y, out))), y))
    return vjp


def _fmod_vjp(ct, out, x, y):
    return _unbroadcast(ct, x), _unbroadcast(neg(mul(ct, trunc(div(x, y)))), y)


def _copysign_vjp(ct, out, x, y):
    # d copysign(x, y) / dx is +-1 (-1 where the sign flips); 0 at x = 0, as sign(x) is
    return _unbroadcast(mul(ct, mul(sign(x), sign(out))), x), zeros_like(y)


def _igamma_vjp(upper):
    def vjp(ct, out, a, x):
        # d P(a, x) / dx = x^(a - 1) e^(-x) / Gamma(a); no gradient for a (as MindSpore's
        # CPU kernels: IgammaGradA is Ascend-only)
        density = exp(sub(sub(mul(sub(a, 1.0), log(x)), x), lgamma(a)))
        return None, _unbroadcast(mul(ct, neg(density) if upper else density), x)
    return vjp


def _no_grad(ct, out, x, y):
    return None, None


def _truncate_div_kernel(x, y):
    if dt.is_float(x.dtype):
        return np.trunc(np.true_divide(x, y)).astype(x.dtype, copy=False)
    # C division of integers: floor division moved up by one where the signs differ and
    # the division is inexact; by 0 it is 0 (NumPy's floor division)
    quotient, remainder = np.floor_divide(x, y), np.remainder(x, y)
    inexact = (remainder != 0) & ((x < 0) != (y < 0))
    return (quotient + inexact.astype(x.dtype)).astype(x.dtype, copy=False)


_INTEGER_DIVISION = ("integer division by zero traps in a native kernel (SIGFPE) where "
                     "NumPy gives 0")
_NOT_FUSED_BINARY = "a library call per element (NumPy / SciPy): not worth fusing"

hypot_p = binary("hypot", _wide(np.hypot), _hypot_vjp, scalar="hypot({0}, {1})")
logaddexp_p = binary("logaddexp", _wide(np.logaddexp), _logaddexp_vjp(lambda d: exp(d)),
                     no_scalar=_NOT_FUSED_BINARY)
logaddexp2_p = binary("logaddexp2", _wide(np.logaddexp2), _logaddexp_vjp(lambda d: exp2(d)),
                      no_scalar=_NOT_FUSED_BINARY)
fmod_p = binary("fmod", _wide(np.fmod), _fmod_vjp, no_scalar=_INTEGER_DIVISION)
copysign_p = binary("copysign", _wide(np.copysign), _copysign_vjp,
                    scalar="copysign({0}, {1})")
gcd_p = binary("gcd", np.gcd, _no_grad, no_scalar=_NOT_FUSED_BINARY)
lcm_p = binary("lcm", np.lcm, _no_grad, no_scalar=_NOT_FUSED_BINARY)
left_shift_p = binary("left_shift", _wide(np.left_shift), _no_grad,
                      no_scalar="a native shift by the width or more is undefined (NumPy: 0)")
right_shift_p = binary("right_shift", _wide(np.right_shift), _no_grad,
                       no_scalar="a native shift by the width or more is undefined (NumPy: 0 "
                                 "or -1)")
igamma_p = binary("igamma", _wide(_scipy("gammainc")), _igamma_vjp(False),
                  no_scalar=_NOT_FUSED)
igammac_p = binary("igammac", _wide(_scipy("gammaincc")), _igamma_vjp(True),
                   no_scalar=_NOT_FUSED)
# never widened: the next float16 after x is not the next float32's rounding
nextafter_p = binary("nextafter", np.nextafter, _no_grad,
                     no_scalar=_NOT_FUSED_BINARY)
truncate_div_p = binary("truncate_div", _wide(_truncate_div_kernel), _no_grad,
                        no_scalar=_INTEGER_DIVISION)


# ---------------------------------------------------------------------------------------
# functional API: documentation

def _doc(summary, example, dtypes="bool and integer inputs compute in float32", note=""):
    """A docstring: what it does, dtypes, MindSpore difference, a runnable example."""
    text = f"{summary}\n\n{dtypes}."
    if note:
        text += f"\n\nDifference from MindSpore 2.10: {note}"
    return text + (f"\n\n>>> import tensorjit as ms\n>>> {example[0]}\n{example[1]}")


def _named(fn, name, doc):
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


FLOAT_DTYPES = ("Float tensors keep their dtype; bool and integer inputs compute in "
                "float32 (MindSpore 2.10's CPU kernels reject most of them)")

# name: (summary, (example call, its output)); every example runs
_UNARY_DOCS = {
    "acos": ("Arc cosine, elementwise: NaN outside [-1, 1].",
             "ms.ops.acos(ms.Tensor([1.0, 0.0])).asnumpy().tolist()", "[0.0, 1.5707963705062866]"),
    "asin": ("Arc sine, elementwise: NaN outside [-1, 1].",
             "ms.ops.asin(ms.Tensor([0.0, 1.0])).asnumpy().tolist()", "[0.0, 1.5707963705062866]"),
    "acosh": ("Inverse hyperbolic cosine, elementwise: NaN below 1.",
              "ms.ops.acosh(ms.Tensor([1.0])).asnumpy().tolist()", "[0.0]"),
    "asinh": ("Inverse hyperbolic sine, elementwise.",
              "ms.ops.asinh(ms.Tensor([0.0])).asnumpy().tolist()", "[0.0]"),
    "atanh": ("Inverse hyperbolic tangent, elementwise: +-inf at +-1, NaN outside [-1, 1].",
              "ms.ops.atanh(ms.Tensor([0.0, 1.0])).asnumpy().tolist()", "[0.0, inf]"),
    "cosh": ("Hyperbolic cosine, elementwise.",
             "ms.ops.cosh(ms.Tensor([0.0])).asnumpy().tolist()", "[1.0]"),
    "sinh": ("Hyperbolic sine, elementwise.",
             "ms.ops.sinh(ms.Tensor([0.0])).asnumpy().tolist()", "[0.0]"),
    "log2": ("Base-2 logarithm, elementwise (exact at powers of 2).",
             "ms.ops.log2(ms.Tensor([8.0, 0.5])).asnumpy().tolist()", "[3.0, -1.0]"),
    "log10": ("Base-10 logarithm, elementwise.",
              "ms.ops.log10(ms.Tensor([100.0])).asnumpy().tolist()", "[2.0]"),
    "exp2": ("2 to the power of the input, elementwise.",
             "ms.ops.exp2(ms.Tensor([3.0, -1.0])).asnumpy().tolist()", "[8.0, 0.5]"),
    "erfc": ("Complementary error function 1 - erf(x), accurate where erf(x) is near 1.",
             "ms.ops.erfc(ms.Tensor([0.0])).asnumpy().tolist()", "[1.0]"),
    "erfinv": ("Inverse error function: +-inf at +-1, NaN outside [-1, 1].",
               "ms.ops.erfinv(ms.Tensor([0.0, 1.0])).asnumpy().tolist()", "[0.0, inf]"),
    "lgamma": ("log |Gamma(x)|, elementwise: +inf at the poles 0, -1, -2, ... and at +-inf.",
               "ms.ops.lgamma(ms.Tensor([1.0, 3.0])).asnumpy().tolist()",
               "[0.0, 0.6931471824645996]"),
    "digamma": ("The digamma function d/dx log Gamma(x), elementwise.",
                "ms.ops.digamma(ms.Tensor([1.0])).asnumpy().tolist()", "[-0.5772156715393066]"),
}
# name: (what it computes, its value at 1.0 rounded to 4 digits)
_BESSEL_DOCS = {
    "bessel_i0": ("modified Bessel function of the first kind, order 0, I0(x)", 1.2661),
    "bessel_i0e": ("exponentially scaled I0: exp(-|x|) I0(x)", 0.4658),
    "bessel_i1": ("modified Bessel function of the first kind, order 1, I1(x)", 0.5652),
    "bessel_i1e": ("exponentially scaled I1: exp(-|x|) I1(x)", 0.2079),
    "bessel_j0": ("Bessel function of the first kind, order 0, J0(x)", 0.7652),
    "bessel_j1": ("Bessel function of the first kind, order 1, J1(x)", 0.4401),
    "bessel_k0": ("modified Bessel function of the second kind, order 0, K0(x) (NaN for x < 0)",
                  0.421),
    "bessel_k0e": ("exponentially scaled K0: exp(x) K0(x) (NaN for x < 0)", 1.1445),
    "bessel_k1": ("modified Bessel function of the second kind, order 1, K1(x) (NaN for x < 0)",
                  0.6019),
    "bessel_k1e": ("exponentially scaled K1: exp(x) K1(x) (NaN for x < 0)", 1.6362),
    "bessel_y0": ("Bessel function of the second kind, order 0, Y0(x) (NaN for x < 0)", 0.0883),
    "bessel_y1": ("Bessel function of the second kind, order 1, Y1(x) (NaN for x < 0)", -0.7812),
}
_BESSEL_NOTE = ("bool and integer inputs compute in float32 and bfloat16 is accepted "
                "(MindSpore 2.10 rejects them); the gradient is defined on every dtype")


def _float_function(name, arg):
    prim = UNARY_PRIMITIVES[name]
    base = _make_unary(prim)
    # MindSpore's parameter name (``input`` or ``x``), so keyword calls work
    fn = (lambda input: base(input)) if arg == "input" else (lambda x: base(x))
    return fn


def _build_unary():
    made = {}
    for name, (summary, example, output) in _UNARY_DOCS.items():
        made[name] = _named(_float_function(name, "input"), name,
                            _doc(summary, (example, output), FLOAT_DTYPES))
    for name, (what, at_one) in _BESSEL_DOCS.items():
        made[name] = _named(_float_function(name, "x"), name, _doc(
            f"The {what}, elementwise.",
            (f"ms.ops.{name}(ms.Tensor([1.0], ms.float64)).asnumpy().round(4).tolist()",
             f"[{at_one}]"),
            FLOAT_DTYPES, _BESSEL_NOTE))
    return made


_MADE = _build_unary()
(acos, asin, acosh, asinh, atanh, cosh, sinh, log2, log10, exp2, erfc, erfinv, lgamma, digamma,
 bessel_i0, bessel_i0e, bessel_i1, bessel_i1e, bessel_j0, bessel_j1, bessel_k0, bessel_k0e,
 bessel_k1, bessel_k1e, bessel_y0, bessel_y1) = (_MADE[name] for name in _UNARY)


def trunc(input):
    """Round toward zero, elementwise (``trunc(-2.7)`` is -2.0; the sign of zero is kept).

    Integers are returned unchanged in their dtype; bool is refused with TypeError
    (MindSpore 2.10 returns it unchanged). No gradient (zero almost everywhere).

    >>> import tensorjit as ms
    >>> ms.ops.trunc(ms.Tensor([-2.7, 2.7])).asnumpy().tolist()
    [-2.0, 2.0]
    """
    x = coerce.as_tensor(input, op="trunc")
    if x.dtype == dt.bool_:
        raise TypeError("trunc: not defined for bool tensors")
    return trunc_p.bind(x)


def polygamma(n, input):
    """The n-th derivative of the digamma function, elementwise with broadcasting
    (``polygamma(0, x)`` is ``digamma(x)``).

    ``n``: a non-negative int or an integer tensor (NaN where an element of it is
    negative). ``input``: floats keep their dtype; bool and integers compute in float32
    (MindSpore 2.10 takes a tensor ``n`` only and float inputs). Differentiable in
    ``input``.

    >>> import tensorjit as ms
    >>> round(ms.ops.polygamma(1, ms.Tensor([1.0])).asnumpy().item(), 4)
    1.6449
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer, Tensor)):
        raise TypeError(f"polygamma: n must be an int or an integer tensor, got "
                        f"{type(n).__name__}")
    if not isinstance(n, Tensor) and n < 0:
        raise ValueError(f"polygamma: n must be non-negative, got {n}")
    order = coerce.as_tensor(n, dt.int64 if not isinstance(n, Tensor) else None,
                             op="polygamma")
    if not dt.is_int(order.dtype):
        raise TypeError(f"polygamma: n must be an integer tensor, got {order.dtype}")
    return polygamma_p.bind(order, _float_operand(input, "polygamma"))


# the arc* spellings are the same functions
arccos, arcsin, arccosh, arcsinh, arctanh = acos, asin, acosh, asinh, atanh
i0 = bessel_i0


def deg2rad(x):
    """Degrees to radians: ``x * pi / 180``, elementwise.

    Floats keep their dtype; bool and integers compute in float32 (MindSpore 2.10 rejects
    them with TypeError).

    >>> import tensorjit as ms
    >>> ms.ops.deg2rad(ms.Tensor([180.0])).asnumpy().tolist()
    [3.1415927410125732]
    """
    return mul(_float_operand(x, "deg2rad"), math.pi / 180)


def rad2deg(x):
    """Radians to degrees: ``x * 180 / pi``, elementwise.

    Floats keep their dtype; bool and integers compute in float32 (MindSpore 2.10 rejects
    them with TypeError).

    >>> import tensorjit as ms
    >>> ms.ops.rad2deg(ms.Tensor([0.0, 1.0], ms.float64)).asnumpy().round(4).tolist()
    [0.0, 57.2958]
    """
    return mul(_float_operand(x, "rad2deg"), 180 / math.pi)


def frac(x):
    """The fractional part ``x - trunc(x)``, with the sign of ``x`` (``frac(-2.5)`` is
    -0.5; NaN at +-inf).

    Integers give zeros of their dtype; bool is refused with TypeError (MindSpore 2.10
    returns int64 zeros). The gradient is 1.

    >>> import tensorjit as ms
    >>> ms.ops.frac(ms.Tensor([-2.5, 1.25])).asnumpy().tolist()
    [-0.5, 0.25]
    """
    x = coerce.as_tensor(x, op="frac")
    if x.dtype == dt.bool_:
        raise TypeError("frac: not defined for bool tensors")
    return sub(x, trunc(x))


def sinc(input):
    """The normalized sinc ``sin(pi x) / (pi x)``, 1 at x = 0, elementwise.

    Floats keep their dtype; bool and integers compute in float32. The gradient at 0 is 0.

    >>> import tensorjit as ms
    >>> ms.ops.sinc(ms.Tensor([0.0, 0.5])).asnumpy().tolist()
    [1.0, 0.6366197466850281]
    """
    x = _float_operand(input, "sinc")
    if x.dtype.itemsize < 4:
        # pi * x rounded to float16 / bfloat16 would be off by up to a radian: float32
        return cast(sinc(cast(x, dt.float32)), x.dtype)
    # from 1 / eps on every value is an integer, where sinc is 0 (and pi * x may overflow)
    magnitude = abs(x)
    whole = logical_and(logical_not(lt(magnitude, 1.0 / float(dt._finfo(x.dtype).eps))),
                        lt(magnitude, math.inf))
    special_point = logical_or(eq(x, 0), whole)
    # the unused branch divides by 1, so neither it nor its gradient is ever 0 / 0
    angle = where(special_point, ones_like(x), mul(x, math.pi))
    value = where(whole, zeros_like(x), div(sin(angle), angle))
    return where(eq(x, 0), ones_like(x), value)


def logit(input, eps=None):
    """``log(x / (1 - x))``, elementwise; with ``eps`` (float, default None) the input is
    first clamped to ``[eps, 1 - eps]``.

    Floats keep their dtype; bool and integers compute in float32 (MindSpore 2.10 rejects
    them with TypeError).

    >>> import tensorjit as ms
    >>> ms.ops.logit(ms.Tensor([0.5, 1.0], ms.float64), eps=0.25).asnumpy().round(4).tolist()
    [0.0, 1.0986]
    """
    x = _float_operand(input, "logit")
    if eps is not None:
        if not isinstance(eps, (int, float)) or isinstance(eps, bool):
            raise TypeError(f"logit: eps must be a float, got {type(eps).__name__}")
        x = clamp(x, eps, 1.0 - eps)
    return log(div(x, sub(1.0, x)))


def positive(input):
    """``+input``: the input itself, of any dtype (bool included, as MindSpore; PyTorch
    refuses bool).

    >>> import tensorjit as ms
    >>> ms.ops.positive(ms.Tensor([-1, 2])).asnumpy().tolist()
    [-1, 2]
    """
    return coerce.as_tensor(input, op="positive")


def _no_float_value(x, value):
    """A bool tensor of ``value`` shaped like ``x`` (integers are never NaN or inf)."""
    from .creation import full_like
    return full_like(x, value, dt.bool_)


def isneginf(input):
    """Whether each element is -inf (a bool tensor); integers and bool give False.

    >>> import tensorjit as ms
    >>> ms.ops.isneginf(ms.Tensor([-float("inf"), 1.0])).asnumpy().tolist()
    [True, False]
    """
    x = coerce.as_tensor(input, op="isneginf")
    if not dt.is_float(x.dtype):
        return _no_float_value(x, False)
    return logical_and(isinf(x), lt(x, 0))


def isposinf(input):
    """Whether each element is +inf (a bool tensor); integers and bool give False.

    >>> import tensorjit as ms
    >>> ms.ops.isposinf(ms.Tensor([float("inf"), 1.0])).asnumpy().tolist()
    [True, False]
    """
    x = coerce.as_tensor(input, op="isposinf")
    if not dt.is_float(x.dtype):
        return _no_float_value(x, False)
    return logical_and(isinf(x), gt(x, 0))


def isreal(input):
    """Whether each element is real: True everywhere (tensorjit has no complex dtypes).

    >>> import tensorjit as ms
    >>> ms.ops.isreal(ms.Tensor([1.0, 2.0])).asnumpy().tolist()
    [True, True]
    """
    return _no_float_value(coerce.as_tensor(input, op="isreal"), True)


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """NaN, +inf and -inf replaced by ``nan`` (default 0.0), ``posinf`` (default: the
    dtype's largest value) and ``neginf`` (default: its lowest value).

    Floats keep their dtype; integer and bool tensors are returned unchanged (MindSpore
    2.10 accepts float16 / float32 only). The gradient passes where the input is finite.

    >>> import tensorjit as ms
    >>> ms.ops.nan_to_num(ms.Tensor([float("nan"), float("inf"), 5.0]), 1.0, 2.0).asnumpy().tolist()
    [1.0, 2.0, 5.0]
    """
    x = coerce.as_tensor(input, op="nan_to_num")
    for label, value in (("nan", nan), ("posinf", posinf), ("neginf", neginf)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise TypeError(f"nan_to_num: {label} must be a number, got {type(value).__name__}")
    if not dt.is_float(x.dtype):
        return x
    info = dt._finfo(x.dtype)
    x = where(isnan(x), 0.0 if nan is None else float(nan), x)
    x = where(logical_and(isinf(x), gt(x, 0)), float(info.max) if posinf is None
              else float(posinf), x)
    return where(logical_and(isinf(x), lt(x, 0)), float(info.min) if neginf is None
                 else float(neginf), x)


# ---------------------------------------------------------------------------------------
# two-operand functions

def _float_pair(input, other, op):
    """Both operands promoted (MindSpore's rules), then bool / integers as float32."""
    x, y = coerce.coerce_pair(input, other, op)
    if not dt.is_float(x.dtype):
        x, y = cast(x, dt.DEFAULT_FLOAT), cast(y, dt.DEFAULT_FLOAT)
    return x, y


def _numeric_pair(input, other, op):
    x, y = coerce.coerce_pair(input, other, op)
    if x.dtype == dt.bool_:
        raise TypeError(f"{op}: not defined for bool tensors")
    return x, y


def _integer_pair(input, other, op):
    x, y = coerce.coerce_pair(input, other, op)
    if not dt.is_int(x.dtype):
        raise TypeError(f"{op}: expected integer tensors, got {x.dtype}")
    return x, y


def hypot(input, other):
    """``sqrt(x**2 + y**2)`` without overflow or underflow in between, with broadcasting.

    Floats keep their (promoted) dtype; bool and integers compute in float32 (MindSpore
    2.10's CPU kernel takes float32 / float64 only).

    >>> import tensorjit as ms
    >>> ms.ops.hypot(ms.Tensor([3.0]), ms.Tensor([4.0])).asnumpy().tolist()
    [5.0]
    """
    return hypot_p.bind(*_float_pair(input, other, "hypot"))


def logaddexp(input, other):
    """``log(exp(x) + exp(y))`` without overflow, with broadcasting.

    Floats keep their (promoted) dtype; bool and integers compute in float32 (MindSpore
    2.10 raises TypeError for them).

    >>> import tensorjit as ms
    >>> ms.ops.logaddexp(ms.Tensor([0.0], ms.float64), 0.0).asnumpy().round(4).tolist()
    [0.6931]
    """
    return logaddexp_p.bind(*_float_pair(input, other, "logaddexp"))


def logaddexp2(input, other):
    """``log2(2**x + 2**y)`` without overflow, with broadcasting.

    Floats keep their (promoted) dtype; bool and integers compute in float32 (MindSpore
    2.10 raises TypeError for them).

    >>> import tensorjit as ms
    >>> ms.ops.logaddexp2(ms.Tensor([1.0]), ms.Tensor([1.0])).asnumpy().tolist()
    [2.0]
    """
    return logaddexp2_p.bind(*_float_pair(input, other, "logaddexp2"))


def _nan_ignoring(pick, name):
    def fn(input, other):
        x, y = _numeric_pair(input, other, name)
        if not dt.is_float(x.dtype):
            return pick(x, y)
        # NaN loses: the other operand wins, NaN only where both are NaN
        return where(isnan(y), x, where(isnan(x), y, pick(x, y)))
    return fn


fmax = _named(_nan_ignoring(maximum, "fmax"), "fmax", _doc(
    "The larger of two tensors, elementwise, ignoring NaN (NaN only where both are NaN).",
    ("ms.ops.fmax(ms.Tensor([1.0, float('nan')]), ms.Tensor([2.0, 3.0])).asnumpy().tolist()",
     "[2.0, 3.0]"),
    "Numeric dtypes keep their (promoted) dtype; bool is refused with TypeError",
    "MindSpore 2.10's CPU kernel takes float16 / float32 / float64 / int32 / int64"))
fmin = _named(_nan_ignoring(minimum, "fmin"), "fmin", _doc(
    "The smaller of two tensors, elementwise, ignoring NaN (NaN only where both are NaN).",
    ("ms.ops.fmin(ms.Tensor([1.0, float('nan')]), ms.Tensor([2.0, 3.0])).asnumpy().tolist()",
     "[1.0, 3.0]"),
    "Numeric dtypes keep their (promoted) dtype; bool is refused with TypeError",
    "MindSpore 2.10 has no CPU kernel for Fmin (RuntimeError)"))


def fmod(input, other):
    """The remainder of truncated division, ``x - trunc(x / y) * y``, with the sign of
    ``x`` (C's fmod), with broadcasting. ``truncate_mod`` is the same function.

    Numeric dtypes keep their (promoted) dtype; bool is refused with TypeError (MindSpore
    2.10 returns bool). Integer remainders by 0 are 0 (NumPy; MindSpore's CPU kernel gives
    other values). Gradient: 1 for x, ``-trunc(x / y)`` for y.

    >>> import tensorjit as ms
    >>> ms.ops.fmod(ms.Tensor([-3.0, 3.0]), ms.Tensor([2.0, 2.0])).asnumpy().tolist()
    [-1.0, 1.0]
    """
    return fmod_p.bind(*_numeric_pair(input, other, "fmod"))


truncate_mod = fmod


def copysign(x, other):
    """The magnitude of ``x`` with the sign of ``other`` (signed zeros and NaN's sign bit
    included), with broadcasting; ``other`` may be a number.

    Floats keep their (promoted) dtype; integers compute in float32; bool is refused with
    TypeError (as MindSpore). Gradient: +-1 for ``x`` (0 at x = 0), none for ``other``.

    >>> import tensorjit as ms
    >>> ms.ops.copysign(ms.Tensor([1.0, -2.0]), -0.0).asnumpy().tolist()
    [-1.0, -2.0]
    """
    a, b = coerce.coerce_pair(x, other, "copysign")
    if a.dtype == dt.bool_:
        raise TypeError("copysign: not defined for bool tensors")
    return copysign_p.bind(*_float_pair(a, b, "copysign"))


def heaviside(input, values):
    """The step function: 0 where ``input < 0``, ``values`` where it is 0, 1 where it is
    positive, with broadcasting; NaN gives 0 (MindSpore and PyTorch; NumPy gives NaN).

    Numeric dtypes keep their (promoted) dtype; bool is refused with TypeError.

    >>> import tensorjit as ms
    >>> ms.ops.heaviside(ms.Tensor([-1.0, 0.0, 2.0]), ms.Tensor(0.5)).asnumpy().tolist()
    [0.0, 0.5, 1.0]
    """
    x, v = _numeric_pair(input, values, "heaviside")
    step = where(gt(x, 0), ones_like(x), zeros_like(x))
    return where(eq(x, 0), v, step)


def gcd(input, other):
    """Greatest common divisor, elementwise with broadcasting (``gcd(0, 0)`` is 0; the
    result is non-negative except where an operand is the dtype's minimum).

    Integer dtypes only (TypeError otherwise); MindSpore 2.10's CPU kernel takes
    int16 / int32 / int64.

    >>> import tensorjit as ms
    >>> ms.ops.gcd(ms.Tensor([12, -9]), ms.Tensor([8, 6])).asnumpy().tolist()
    [4, 3]
    """
    return gcd_p.bind(*_integer_pair(input, other, "gcd"))


def lcm(input, other):
    """Least common multiple, elementwise with broadcasting (0 if either is 0).

    Integer dtypes only (TypeError otherwise); MindSpore 2.10's CPU kernel takes
    int32 / int64.

    >>> import tensorjit as ms
    >>> ms.ops.lcm(ms.Tensor([4, -6]), ms.Tensor([6, 4])).asnumpy().tolist()
    [12, 12]
    """
    return lcm_p.bind(*_integer_pair(input, other, "lcm"))


def ldexp(x, other):
    """``x * 2**other``, elementwise with broadcasting (``other`` need not be an integer).

    Floats keep their (promoted) dtype; bool and integers compute in float32 (MindSpore).

    >>> import tensorjit as ms
    >>> ms.ops.ldexp(ms.Tensor([3.0]), ms.Tensor([2])).asnumpy().tolist()
    [12.0]
    """
    a, b = _float_pair(x, other, "ldexp")
    return mul(a, exp2(b))


def float_power(input, exponent):
    """``input ** exponent`` computed and returned in float64, whatever the input dtypes
    (either may be a number).

    >>> import tensorjit as ms
    >>> ms.ops.float_power(ms.Tensor([2]), 3).asnumpy().tolist()
    [8.0]
    """
    def as_float64(value):
        if coerce.is_scalar(value):
            if isinstance(value, complex):
                raise TypeError("float_power: complex numbers are not supported")
            return float(value)
        return cast(coerce.as_tensor(value, op="float_power"), dt.float64)
    base, power = as_float64(input), as_float64(exponent)
    if not isinstance(base, Tensor) and not isinstance(power, Tensor):
        raise TypeError("float_power: at least one of input and exponent must be a tensor")
    if not isinstance(base, Tensor):
        base = coerce.as_tensor(base, dt.float64, op="float_power")
    return pow(base, power)


floor_divide, floormod = floor_div, floor_mod


def xlogy(input, other):
    """``x * log(y)``, 0 where x is 0 (unless y is NaN), with broadcasting.

    Floats keep their (promoted) dtype; bool and integers compute in float32. The gradient
    for x is ``log(y)`` (0 where x is 0), for y ``x / y``.

    Difference from MindSpore 2.10: its CPU kernel gives NaN for ``xlogy(0, 0)``; this
    follows SciPy and PyTorch (0).

    >>> import tensorjit as ms
    >>> ms.ops.xlogy(ms.Tensor([0.0, 2.0]), ms.Tensor([0.0, 1.0])).asnumpy().tolist()
    [0.0, 0.0]
    """
    x, y = _float_pair(input, other, "xlogy")
    zero = logical_and(eq(x, 0), logical_not(isnan(y)))
    safe_y = where(zero, ones_like(y), y)
    return where(zero, zeros_like(safe_y), mul(x, log(safe_y)))


def xdivy(x, y):
    """``x / y``, 0 where x is 0 (whatever y is, as MindSpore), with broadcasting.

    Floats keep their (promoted) dtype; bool and integers compute in float32 (MindSpore
    2.10 rejects integers).

    >>> import tensorjit as ms
    >>> ms.ops.xdivy(ms.Tensor([0.0, 3.0]), ms.Tensor([0.0, 2.0])).asnumpy().tolist()
    [0.0, 1.5]
    """
    a, b = _float_pair(x, y, "xdivy")
    zero = eq(a, 0)
    safe_b = where(zero, ones_like(b), b)
    return where(zero, zeros_like(safe_b), div(a, safe_b))


def _shift(prim, name, example):
    def fn(input, other):
        return prim.bind(*_integer_pair(input, other, name))
    return _named(fn, name, _doc(
        f"Bitwise {'left' if prim is left_shift_p else 'right'} shift of ``input`` by "
        f"``other`` bits, elementwise with broadcasting (either may be a number).",
        example, "Integer dtypes only (TypeError otherwise)",
        "a shift by a negative count or by the width or more gives 0 (-1 for a right shift "
        "of a negative number), NumPy's rule; MindSpore's and PyTorch's CPU kernels leave "
        "it to the hardware"))


bitwise_left_shift = _shift(left_shift_p, "bitwise_left_shift", (
    "ms.ops.bitwise_left_shift(ms.Tensor([1, 3]), 2).asnumpy().tolist()", "[4, 12]"))
bitwise_right_shift = _shift(right_shift_p, "bitwise_right_shift", (
    "ms.ops.bitwise_right_shift(ms.Tensor([8, -8]), 2).asnumpy().tolist()", "[2, -2]"))


def igamma(input, other):
    """The regularized lower incomplete gamma function P(a, x), ``a = input``,
    ``x = other``, with broadcasting (NaN where a <= 0 or x < 0).

    Floats keep their (promoted) dtype; bool and integers compute in float32 (MindSpore
    2.10 takes float32 / float64). Differentiable in ``other`` only (MindSpore's gradient
    for ``input`` is Ascend-only).

    >>> import tensorjit as ms
    >>> ms.ops.igamma(ms.Tensor([1.0], ms.float64), 1.0).asnumpy().round(4).tolist()
    [0.6321]
    """
    return igamma_p.bind(*_float_pair(input, other, "igamma"))


def igammac(input, other):
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x), ``a =
    input``, ``x = other``, with broadcasting.

    Floats keep their (promoted) dtype; bool and integers compute in float32. Differentiable
    in ``other`` only.

    >>> import tensorjit as ms
    >>> ms.ops.igammac(ms.Tensor([1.0], ms.float64), 1.0).asnumpy().round(4).tolist()
    [0.3679]
    """
    return igammac_p.bind(*_float_pair(input, other, "igammac"))


def nextafter(input, other):
    """The next representable number after ``input`` toward ``other``, elementwise with
    broadcasting.

    float16 / float32 / float64 (float16 is an addition to MindSpore's float32 / float64);
    other dtypes, bfloat16 included, are refused with TypeError. No gradient.

    >>> import tensorjit as ms
    >>> ms.ops.nextafter(ms.Tensor([1.0]), ms.Tensor([2.0])).asnumpy().tolist()
    [1.0000001192092896]
    """
    x, y = coerce.coerce_pair(input, other, "nextafter")
    if not dt.is_float(x.dtype) or x.dtype == dt.bfloat16:
        raise TypeError(f"nextafter: expected float16, float32 or float64 tensors, got "
                        f"{x.dtype}")
    return nextafter_p.bind(x, y)


def truncate_div(x, y):
    """Division rounded toward zero, ``trunc(x / y)``, with broadcasting.

    Numeric dtypes keep their (promoted) dtype; bool is refused with TypeError. Integers
    divide exactly (C's division); by 0 they give 0 (NumPy's rule; MindSpore's CPU kernel
    gives other values). No gradient.

    >>> import tensorjit as ms
    >>> ms.ops.truncate_div(ms.Tensor([-7, 7]), ms.Tensor([2, 2])).asnumpy().tolist()
    [-3, 3]
    """
    return truncate_div_p.bind(*_numeric_pair(x, y, "truncate_div"))


def approximate_equal(x, y, tolerance=1e-05):
    """Whether ``|x - y| < tolerance``, elementwise with broadcasting (a bool tensor).

    Float tensors only (TypeError otherwise, as MindSpore); ``tolerance`` a number
    (default 1e-5).

    >>> import tensorjit as ms
    >>> ms.ops.approximate_equal(ms.Tensor([1.0, 2.0]), 2.0, tolerance=0.5).asnumpy().tolist()
    [False, True]
    >>> ms.ops.approximate_equal(ms.Tensor([1.0]), ms.Tensor([1.000001])).asnumpy().tolist()
    [True]
    """
    a, b = coerce.coerce_pair(x, y, "approximate_equal")
    if not dt.is_float(a.dtype):
        raise TypeError(f"approximate_equal: expected float tensors, got {a.dtype}")
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)):
        raise TypeError(f"approximate_equal: tolerance must be a number, got "
                        f"{type(tolerance).__name__}")
    return lt(abs(sub(a, b)), tolerance)


__all__ = sorted(list(_UNARY_DOCS) + list(_BESSEL_DOCS) + """
    trunc polygamma arccos arcsin arccosh arcsinh arctanh i0 deg2rad rad2deg frac sinc logit
    positive isneginf isposinf isreal nan_to_num hypot logaddexp logaddexp2 fmax fmin fmod
    truncate_mod copysign heaviside gcd lcm ldexp float_power floor_divide floormod xlogy
    xdivy bitwise_left_shift bitwise_right_shift igamma igammac nextafter truncate_div
    approximate_equal""".split())
# MindSpore's Tensor has these as methods (``x.acos()``)
TENSOR_METHODS = [n for n in __all__ if n not in (
    "polygamma", "exp2", "floormod", "truncate_div", "truncate_mod") and not n.startswith("bessel")]
