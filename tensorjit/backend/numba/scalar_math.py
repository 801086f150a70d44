"""Branch-free float32 / float64 math for fused kernels: exp, expm1, log, log1p, tanh, erf
and float32 pow, written so that LLVM vectorizes the loops that call them.

The llvmlite wheels have no SVML, so ``np.exp`` in a Numba kernel is one scalar libm call
per element, about 10x slower than NumPy's SIMD loops. These functions use only
arithmetic, comparisons, selects and bit casts: range reduction, a polynomial, then
selects for the special values (NaN, +-inf, +-0, overflow and underflow), which must come
out exactly as NumPy's. Polynomials are series of the functions (textbook coefficients,
1/(2k+1) ...) or Chebyshev interpolants fitted at import, long enough for the precision;
float32 tanh is a fitted rational function (tools/fit_tanh.py).
``tests/o1/test_scalar_math.py`` measures the error in ulps against NumPy over the range.

The functions are ordinary ``njit`` functions, not inlined by Numba (``inline="always"``
copies their IR into every kernel: compiling took 1.5-3x longer); LLVM inlines them into the
kernel's loop anyway, which then vectorizes as before (measured: the same speed or faster).

A kernel module binds ``exp = tj_exp`` and so on (scalars.py); ``tj_exp`` dispatches on
the argument's type at compile time. ``scalars.FAST`` lists the (function, dtype) pairs
this module implements; the others stay scalar libm calls. Only kernel modules import
this one (it needs Numba, an optional dependency).
"""
import math

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic, overload

F32, F64 = np.float32, np.float64


# ---- bit casts -------------------------------------------------------------------------

def _bitcast(src, dst):
    @intrinsic
    def cast(typingctx, value):
        def codegen(context, builder, signature, args):
            return builder.bitcast(args[0], context.get_value_type(dst))
        return dst(src), codegen
    return cast


f32_from_bits = _bitcast(types.int32, types.float32)
f32_bits = _bitcast(types.float32, types.int32)
f64_from_bits = _bitcast(types.int64, types.float64)
f64_bits = _bitcast(types.float64, types.int64)


# ---- fused multiply-add ----------------------------------------------------------------
# One rounding instead of two, and one instruction where the CPU has FMA (Numba never
# contracts a * b + c itself: that needs fastmath). Without FMA, a multiply and an add (a
# libm fma call per element would be slower than both).

def _host_has_fma():
    try:
        import llvmlite.binding as llvm
        return bool(llvm.get_host_cpu_features().get("fma"))
    except Exception:   # pragma: no cover - depends on the machine
        return False


HAS_FMA = _host_has_fma()


@intrinsic
def _llvm_fma(typingctx, a, b, c):
    def codegen(context, builder, signature, args):
        t = args[0].type
        fn = builder.module.declare_intrinsic("llvm.fma", [t], ir.FunctionType(t, [t, t, t]))
        return builder.call(fn, args)
    return a(a, b, c), codegen


if HAS_FMA:
    @njit
    def fma(a, b, c):
        return _llvm_fma(a, b, c)
else:   # pragma: no cover - CPUs without FMA
    @njit
    def fma(a, b, c):
        return a * b + c


# ---- straight-line polynomials ----------------------------------------------------------
# Written out term by term: a loop over a tuple of coefficients stays a loop in Numba, and
# a loop inside the kernel's loop keeps LLVM from vectorizing it.

def _horner(coefficients, dtype):
    """``p(r) = ((c0 r + c1) r + c2) ...`` as one inlined expression of fused
    multiply-adds."""
    constants = {f"c{i}": dtype(c) for i, c in enumerate(coefficients)}
    expr = "c0"
    for i in range(1, len(coefficients)):
        expr = f"fma({expr}, r, c{i})"
    return _compiled(f"def poly(r):\n    return {expr}\n", "poly", constants)


def _compiled(source, name, constants):
    namespace = dict(constants, np=np, fma=fma)
    exec(compile(source, f"<tensorjit scalar_math {name}>", "exec"), namespace)
    return njit(namespace[name])


def _chebyshev_fit(f, lo, hi, degree):
    """Monomial coefficients (highest first) of the degree-``degree`` polynomial through
    ``f`` at the Chebyshev points of [lo, hi], as a function of t = (x - mid) / half."""
    from numpy.polynomial import chebyshev, polynomial
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    fit = chebyshev.Chebyshev.interpolate(
        lambda t: np.array([f(mid + half * v) for v in t]), degree)
    return list(fit.convert(kind=polynomial.Polynomial).coef[::-1])


def _scaled_fit(f, half, degree):
    """Monomial coefficients (highest first), in x itself, of the Chebyshev interpolant of
    ``f`` on [-half, half]: near-minimax, so a shorter polynomial than the Taylor series
    reaches the same error."""
    return [c / half ** k for k, c in
            zip(range(degree, -1, -1), _chebyshev_fit(f, -half, half, degree))]


# ---- exp ------------------------------------------------------------------------------
# x = n ln2 + r with |r| <= ln2/2 (ln2 split in a high part with trailing zero bits, so
# n * LN2_HI is exact, and the rest); e^x = 2^n e^r, 2^n applied in two halves so that
# results near the overflow and subnormal boundaries round once.

_LN2_HI32, _LN2_LO32 = F32(0.693145751953125), F32(1.4286068203094173e-06)
_LN2_HI64, _LN2_LO64 = F64(0.6931471803691238), F64(1.9082149292705877e-10)
_INV_LN2_32, _INV_LN2_64 = F32(1 / math.log(2)), F64(1 / math.log(2))
_exp_poly32 = _horner(_scaled_fit(math.exp, math.log(2) / 2, 6), F32)
_exp_poly64 = _horner([1 / math.factorial(k) for k in range(14)][::-1], F64)


@njit
def exp32_core(x):
    """e^x for -104 <= x <= 89 (no NaN handling: callers that can see one select)."""
    n = np.floor(x * _INV_LN2_32 + F32(0.5))
    r = fma(n, -_LN2_LO32, fma(n, -_LN2_HI32, x))
    p = _exp_poly32(r)
    k = np.int32(n)
    half = k >> 1
    return p * f32_from_bits((half + 127) << 23) * f32_from_bits((k - half + 127) << 23)


# Below the underflow bound the result is +0. Such inputs (a masked softmax's -1e9) are
# replaced by 0 before the arithmetic and the result selected afterwards: computed at the
# bound, every lane would multiply subnormals, which the CPU does in microcode (measured:
# attention's masked softmax 3.7x slower).

@njit
def exp32(x):
    under = x < F32(-104.0)
    xc = x if x == x and not under else F32(0.0)
    xc = F32(89.0) if xc > F32(89.0) else xc
    y = exp32_core(xc)
    y = F32(0.0) if under else y
    return y if x == x else x


@njit
def exp64(x):
    under = x < F64(-746.0)
    xc = x if x == x and not under else F64(0.0)
    xc = F64(710.0) if xc > F64(710.0) else xc
    n = np.floor(xc * _INV_LN2_64 + F64(0.5))
    r = (xc - n * _LN2_HI64) - n * _LN2_LO64
    p = _exp_poly64(r)
    k = np.int64(n)
    half = k >> 1
    y = p * f64_from_bits((half + 1023) << 52) * f64_from_bits((k - half + 1023) << 52)
    y = F64(0.0) if under else y
    return y if x == x else x


# ---- expm1 ------------------------------------------------------------------------------
# small |x|: the series x + x^2/2! + ... (no cancellation); otherwise e^x - 1

_expm1_poly32 = _horner([1 / math.factorial(k) for k in range(2, 11)][::-1], F32)
_expm1_poly64 = _horner([1 / math.factorial(k) for k in range(2, 19)][::-1], F64)


@njit
def expm1_32(x):
    small = x + x * (x * _expm1_poly32(x))
    y = small if abs(x) < F32(0.5) else exp32(x) - F32(1.0)
    return x if x == F32(0.0) else y


@njit
def expm1_64(x):
    small = x + x * (x * _expm1_poly64(x))
    y = small if abs(x) < F64(0.5) else exp64(x) - F64(1.0)
    return x if x == F64(0.0) else y


# ---- log ------------------------------------------------------------------------------
# x = 2^e m with m in [sqrt(1/2), sqrt(2)) read from the bits (subnormals scaled first);
# log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716: 2s (1 + s^2/3 + s^4/5 + ...)

_atanh_poly32 = _horner([1 / (2 * k + 1) for k in range(1, 6)][::-1], F32)
_atanh_poly64 = _horner([1 / (2 * k + 1) for k in range(1, 12)][::-1], F64)
_SQRT2_32, _SQRT2_64 = F32(math.sqrt(2)), F64(math.sqrt(2))


@njit
def log32(x):
    tiny = x < F32(1.1754943508222875e-38)
    xs = x * F32(8388608.0) if tiny else x              # 2^23
    bits = f32_bits(xs)
    e = ((bits >> 23) & 0xFF) - 127 - (23 if tiny else 0)
    m = f32_from_bits((bits & 0x7FFFFF) | 0x3F800000)
    big = m > _SQRT2_32
    m = m * F32(0.5) if big else m
    e = e + 1 if big else e
    f = m - F32(1.0)
    s = f / (m + F32(1.0))
    z = s * s
    p = _atanh_poly32(z)
    ef = F32(e)
    # log m = f - 2s * (f/2 - (f/2 - s... )): written as f - s*(f - p*z*2) keeps f exact
    log_m = f - s * (f - F32(2.0) * z * p)
    y = ef * _LN2_HI32 + (log_m + ef * _LN2_LO32)
    y = x if x == F32(np.inf) else y
    y = F32(-np.inf) if x == F32(0.0) else y
    return F32(np.nan) if x < F32(0.0) or x != x else y


@njit
def log64(x):
    tiny = x < F64(2.2250738585072014e-308)
    xs = x * F64(4503599627370496.0) if tiny else x      # 2^52
    bits = f64_bits(xs)
    e = ((bits >> 52) & 0x7FF) - 1023 - (52 if tiny else 0)
    m = f64_from_bits((bits & 0xFFFFFFFFFFFFF) | 0x3FF0000000000000)
    big = m > _SQRT2_64
    m = m * F64(0.5) if big else m
    e = e + 1 if big else e
    f = m - F64(1.0)
    s = f / (m + F64(1.0))
    z = s * s
    p = _atanh_poly64(z)
    ef = F64(e)
    log_m = f - s * (f - F64(2.0) * z * p)
    y = ef * _LN2_HI64 + (log_m + ef * _LN2_LO64)
    y = x if x == F64(np.inf) else y
    y = F64(-np.inf) if x == F64(0.0) else y
    return F64(np.nan) if x < F64(0.0) or x != x else y


# ---- log1p ----------------------------------------------------------------------------
# log1p(x) = log(u) * x / (u - 1) with u = 1 + x: the quotient corrects the rounding of u

@njit
def log1p32(x):
    u = F32(1.0) + x
    d = u - F32(1.0)
    y = log32(u) * (x / (d if d != F32(0.0) else F32(1.0)))
    y = x if d == F32(0.0) else y
    return x if x == F32(np.inf) else y


@njit
def log1p64(x):
    u = F64(1.0) + x
    d = u - F64(1.0)
    y = log64(u) * (x / (d if d != F64(0.0) else F64(1.0)))
    y = x if d == F64(0.0) else y
    return x if x == F64(np.inf) else y


# ---- tanh -----------------------------------------------------------------------------
# float32: tanh a = a P(t) / Q(t), t = (a/9)^2, for a = |x| <= 9, a rational fit of
# relative error 9e-9 (tools/fit_tanh.py made it; coefficients in hex, exact); above 9 it
# rounds to 1. One division and no exp: half the work of 1 - 2/(1 + e^2a). float64:
# tanh a = t / (t + 2), t = expm1(2a), a clamped where tanh rounds to 1.

_TANH_P = ["0x1.ffffffe58b517p-1", "0x1.53372c998a386p+3", "0x1.4630d591913c0p+4",
           "0x1.7c8aa60d01f2ap+2", "-0x1.c0b3cb323d778p-1", "0x1.7d4b0253f00afp-3",
           "-0x1.8fcef582847dep-6"]
_TANH_Q = ["0x1.0000000000000p+0", "0x1.2ccdc92e69f91p+5", "0x1.4199d4231b13ep+7",
           "0x1.0f22d7c0766afp+7"]
_tanh_p32 = _horner([float.fromhex(c) for c in _TANH_P[::-1]], F32)
_tanh_q32 = _horner([float.fromhex(c) for c in _TANH_Q[::-1]], F32)


@njit
def tanh32(x):
    a = abs(x)
    a = F32(9.0) if a > F32(9.0) else a
    t = a * a * F32(1 / 81)
    r = a * _tanh_p32(t) / _tanh_q32(t)
    r = F32(1.0) if a >= F32(9.0) else r
    r = -r if x < F32(0.0) else r
    return x if x == F32(0.0) or x != x else r


@njit
def tanh64(x):
    a = abs(x)
    a = F64(20.0) if a > F64(20.0) else a
    t = expm1_64(F64(2.0) * a)
    r = t / (t + F64(2.0))
    r = -r if x < F64(0.0) else r
    return x if x == F64(0.0) or x != x else r


# ---- erf ------------------------------------------------------------------------------
# float32: below 1, erf x = x P(x^2); from 1 to 3.92 (where erf rounds to 1),
# erf x = 1 - e^(-x^2) Q(x) with Q ~ e^(x^2) erfc x. P and Q are polynomials fitted here,
# at import, by Chebyshev interpolation of the stdlib's math.erf / math.erfc (float64), Q
# in a variable scaled to [-1, 1] so that its monomial form is well conditioned.
# float64: erf x = 2/sqrt(pi) e^(-x^2) sum_n 2^n x^(2n+1) / (2n+1)!!, every term positive
# (no cancellation), evaluated from the inside out, up to 2; then Laplace's continued
# fraction erfc x = e^(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))), as a
# ratio of two recurrences (one division), with x^2 split exactly (Dekker) so e^(-x^2) is
# accurate.

_ERF_CUT32, _ERF_CUT64, _ERF_SWITCH64 = F32(3.92), F64(5.93), F64(2.0)
_TWO_OVER_SQRT_PI = F64(2 / math.sqrt(math.pi))
_INV_SQRT_PI = F64(1 / math.sqrt(math.pi))
_SPLIT = F64(134217729.0)                                   # 2^27 + 1


def _erf_over_x(z):        # erf(sqrt z) / sqrt z
    return math.erf(math.sqrt(z)) / math.sqrt(z) if z > 0 else 2 / math.sqrt(math.pi)


_ERF_MID32, _ERF_HALF32 = (1.0 + 3.92) / 2, (3.92 - 1.0) / 2
_erf_small32 = _horner(_chebyshev_fit(_erf_over_x, 0.0, 1.0, 6), F32)      # in 2z - 1
_erfcx32 = _horner(_chebyshev_fit(lambda x: math.erfc(x) * math.exp(x * x),
                                  1.0, 3.92, 11), F32)


@njit
def erf32(x):
    a = abs(x)
    a = _ERF_CUT32 if a > _ERF_CUT32 else a
    z = a * a
    small = a * _erf_small32(fma(z, F32(2.0), F32(-1.0)))
    t = (a - F32(_ERF_MID32)) * F32(1 / _ERF_HALF32)
    large = F32(1.0) - exp32_core(-z) * _erfcx32(t)
    y = small if a < F32(1.0) else large
    y = F32(1.0) if abs(x) >= _ERF_CUT32 else y
    y = -y if x < F32(0.0) else y
    return x if x == F32(0.0) or x != x else y


def _erf_series(terms):
    """``s(a) = a (1 + 2a^2/3 (1 + 2a^2/5 (...)))`` written out."""
    constants = {f"c{k}": F64(2 / (2 * k + 1)) for k in range(1, terms + 1)}
    expr = "1.0"
    for k in range(terms, 0, -1):
        expr = f"1.0 + ({expr}) * (x2 * c{k})"
    return _compiled(f"def series(a):\n    x2 = a * a\n    return a * ({expr})\n",
                     "series", constants)


def _erfc_fraction(depth):
    """``1 / (x + (1/2)/(x + ...))`` as numerator / denominator recurrences."""
    lines = ["def fraction(x):", "    n = x", "    d = 1.0"]
    for k in range(depth, 0, -1):
        lines.append(f"    n, d = x * n + {k / 2!r} * d, n")
    lines.append("    return d / n")
    return _compiled("\n".join(lines) + "\n", "fraction", {})


_erf_series64 = _erf_series(30)
_erfc_fraction64 = _erfc_fraction(60)


@njit
def erf64(x):
    a = abs(x)
    a = _ERF_CUT64 if a > _ERF_CUT64 else a
    hi = a * _SPLIT - (a * _SPLIT - a)                      # a = hi + lo exactly
    lo = a - hi
    sq = a * a
    err = ((hi * hi - sq) + F64(2.0) * hi * lo) + lo * lo   # a^2 = sq + err exactly
    g = exp64(-sq) * (F64(1.0) - err)                       # e^(-a^2)
    small = _TWO_OVER_SQRT_PI * g * _erf_series64(_ERF_SWITCH64 if a > _ERF_SWITCH64 else a)
    large = F64(1.0) - _INV_SQRT_PI * g * _erfc_fraction64(a if a > _ERF_SWITCH64
                                                           else _ERF_SWITCH64)
    y = large if a > _ERF_SWITCH64 else small
    y = F64(1.0) if abs(x) >= _ERF_CUT64 else y
    y = -y if x < F64(0.0) else y
    return x if x == F64(0.0) or x != x else y


# ---- pow (float32) ----------------------------------------------------------------------
# |x|^y = exp(y log|x|) in float64 (accurate to float32 rounding), then NumPy's special
# cases: y == 0 or x == 1 -> 1; a negative x needs an integer y (odd y: negative result);
# zeros and infinities by the signs of x and y.

@njit
def pow32(x, y):
    ax = F64(abs(x))
    yd = F64(y)
    mag = exp64(yd * log64(ax))
    is_int = np.floor(yd) == yd
    odd = is_int and np.floor(yd * F64(0.5)) != yd * F64(0.5)
    neg = x < F32(0.0) or (x == F32(0.0) and f32_bits(x) < 0)
    r = F32(-mag) if neg and odd else F32(mag)
    r = F32(np.nan) if x < F32(0.0) and not is_int and ax != F64(np.inf) and \
        abs(yd) != F64(np.inf) else r
    # x = +-inf or |y| = inf follow the limits exp(y log|x|) gives, except |x| = 1
    r = F32(1.0) if ax == F64(1.0) and abs(yd) == F64(np.inf) else r
    r = F32(np.nan) if x != x or y != y else r
    r = F32(1.0) if y == F32(0.0) or x == F32(1.0) else r
    return r


# ---- dispatch by type -------------------------------------------------------------------

def _generic(name, for32, for64):
    def stub(x):
        raise NotImplementedError(f"{name} runs only inside compiled kernels")
    stub.__name__ = name

    @overload(stub)
    def _choose(x):
        if isinstance(x, types.Float) and x.bitwidth == 32 and for32 is not None:
            return lambda x: for32(x)
        if isinstance(x, types.Float) and x.bitwidth == 64 and for64 is not None:
            return lambda x: for64(x)
    return stub


tj_exp = _generic("tj_exp", exp32, exp64)
tj_expm1 = _generic("tj_expm1", expm1_32, expm1_64)
tj_log = _generic("tj_log", log32, log64)
tj_log1p = _generic("tj_log1p", log1p32, log1p64)
tj_tanh = _generic("tj_tanh", tanh32, tanh64)
tj_erf = _generic("tj_erf", erf32, erf64)


def tj_pow(x, y):
    raise NotImplementedError("tj_pow runs only inside compiled kernels")


@overload(tj_pow)
def _choose_pow(x, y):
    if isinstance(x, types.Float) and x.bitwidth == 32 and isinstance(y, types.Float) \
            and y.bitwidth == 32:
        return lambda x, y: pow32(x, y)
    if isinstance(x, types.Float) and isinstance(y, types.Float):
        return lambda x, y: np.power(x, y)              # float64: libm
    if isinstance(x, types.Integer) and isinstance(y, types.Integer):
        return lambda x, y: np.power(x, y)
