"""Elementwise math of one operand beyond ``unary.py``: inverse and hyperbolic
trigonometry, logarithms and powers of base 2 and 10, the special functions (error, gamma,
Bessel), and the formulas MindSpore names (sinc, logit, nan_to_num, ...).

A function becomes a new primitive only when no composition of existing ones computes it
accurately (acos, the Bessel functions, ...); the others are written with registry ops, so
they capture, fuse and differentiate like any composition. New primitives are declared by
table (name -> kernel, derivative, scalar rule), one general mechanism rather than a
wrapper each. (Two-operand math: ``special_binary.py``; both: ``special_math.py``.)"""
import math

import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray, broadcast_shapes
from ..tensor import Tensor
from .primitive import Primitive
from . import coerce
from .unary import (unary, _make_unary, _float_operand, _numeric_unary_rule, neg, sign, exp,
                    log, sqrt, sin, isnan, isinf, cast, abs, logical_not)
from .binary import (_unbroadcast, add, sub, mul, div, where, eq, lt, gt, logical_and,
                     logical_or, zeros_like, ones_like, clamp)


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
