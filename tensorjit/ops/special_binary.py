"""Elementwise math of two operands beyond ``binary.py``: hypot, logaddexp, fmod,
copysign, the incomplete gamma functions, integer number theory (gcd, lcm, shifts,
truncating division) and the formulas MindSpore names (xlogy, xdivy, fmax, heaviside, ...).
Kernels and documentation helpers are shared with ``special_unary.py``."""
import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from .unary import neg, sign, exp, log, isnan, cast, abs, logical_not
from .binary import (binary, _unbroadcast, sub, mul, div, pow, where, eq, lt, gt, maximum,
                     minimum, logical_and, zeros_like, ones_like, floor_div, floor_mod)
from .special_unary import _NOT_FUSED, _doc, _named, _scipy, _wide, exp2, lgamma, trunc


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
