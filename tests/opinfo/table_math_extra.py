"""Table entries: math, creation and random ops of issue 36's math family (addcdiv /
addcmul, bit counting and inversion, sign tests, the ``*_ext`` spellings, ``range``,
``logspace``, the Hurwitz zeta and multivariate log-gamma functions, the incomplete beta
function, run-time value checks, gamma and Poisson draws), against NumPy / SciPy."""
import numpy as np
from scipy import special

import tensorjit as tj
from tensorjit import dtype as dt

from .core import op, Sample, ErrorCase, Differs, ALL, FLOATS, INTS, NUMERIC, BOOL
from .samples import random, binary, unary

_F32_F64 = (dt.float32, dt.float64)
_NO_TORCH = dict(torch=None)


# ---- addcdiv / addcmul ----------------------------------------------------------------------

def _addc_samples(divide):
    def make(dtype, rng, full):
        def arr(*shape, lo=-2.0, hi=2.0):
            if dt.is_int(dtype):
                lo, hi = (1, 4) if np.iinfo(dtype).min == 0 or divide else (-3, 4)
            return random(rng, shape, dtype, lo, hi)
        denominator = (lambda *s: arr(*s, lo=0.5, hi=2.0)) if divide else arr
        return [Sample(arr(2, 3), arr(2, 3), denominator(2, 3), label="same shapes"),
                Sample(arr(3, 1), arr(1, 3), denominator(3), 2, label="broadcast, value 2"),
                Sample(arr(2), arr(2), denominator(2), np.array(0.5, np.float32),
                       label="tensor value", smooth=False),
                Sample(arr(0, 2), arr(0, 2), denominator(0, 2), label="empty")]
    return make


def _addc_ref(divide):
    def ref(x, a, b, value=1):
        value = np.asarray(value)
        if x.dtype.kind in "iu":
            value = value.astype(np.float64).astype(x.dtype)       # truncated to the dtype
            return x + value * (np.trunc(a / b).astype(x.dtype) if divide else a * b)
        return x + value.astype(np.float64) * (a / b if divide else a * b)
    return ref


_ADDC_ERRORS = [ErrorCase(Sample(np.ones(2, np.float32), np.ones(2), np.ones(2, np.float32)),
                          TypeError, "", "tensors of different dtypes")]
op("addcdiv", ref=_addc_ref(True), dtypes=(dt.float16, dt.float32, dt.float64, dt.int64),
   samples=_addc_samples(True), result=lambda x, *_: x, errors=_ADDC_ERRORS,
   torch=lambda torch, x, a, b, value=1: torch.addcdiv(x, a, b, value=float(value))
   if x.dtype.is_floating_point else None,
   notes={"integers": "int64 divides truncating; a number value takes the input's dtype"})
op("addcmul", ref=_addc_ref(False), samples=_addc_samples(False), result=lambda x, *_: x,
   dtypes=(dt.bfloat16, dt.float16, dt.float32, dt.float64, dt.int8, dt.int32, dt.int64,
           dt.uint8), errors=_ADDC_ERRORS,
   torch=lambda torch, x, a, b, value=1: torch.addcmul(x, a, b, value=float(value))
   if x.dtype.is_floating_point else None)


# ---- bits and signs ---------------------------------------------------------------------------

def _unsigned_view(x):
    return x.view(np.dtype(f"u{x.dtype.itemsize}"))


op("invert", ref=np.invert, dtypes=INTS, samples=unary(), grad=False,
   torch=lambda torch, x: torch.bitwise_not(x))
op("population_count", ref=lambda x: np.bitwise_count(_unsigned_view(x)).astype(np.uint8),
   dtypes=INTS, samples=unary(int_domain=(-300, 300)), grad=False,
   result=lambda x: dt.uint8, **_NO_TORCH)
_DAZ = ("MindSpore 2.10's CPU kernel flushes subnormal inputs to zero (-1.4e-45 counts as "
        "0 there); we keep IEEE subnormals")
op("signbit", ref=lambda x: np.less(x, 0) if x.dtype != np.bool_ else np.zeros(x.shape, bool),
   dtypes=ALL, samples=unary(), grad=False, result=lambda x: dt.bool_,
   only_declared=False, torch=lambda torch, x: torch.signbit(x),
   torch_differs={"value:edge": Differs("PyTorch reads the sign bit (True for -0.0); "
                                        "MindSpore's signbit is x < 0")},
   ms_differs={"value:edge": _DAZ},
   notes={"definition": "x < 0, MindSpore's documented rule: False for -0.0 and NaN"})
op("sgn", ref=lambda x: np.where(np.isnan(x), 0, np.sign(x)).astype(x.dtype),
   dtypes=(dt.int32, dt.int64, dt.float16, dt.bfloat16, dt.float32, dt.float64),
   samples=unary(), grad=False, signed_zeros=False, **_NO_TORCH,
   notes={"complex": "real inputs only: tensorjit has no complex dtype (MindSpore's "
                     "x / |x| of complex inputs does not apply)",
          "NaN": "0, as MindSpore 2.10's sgn"},
   ms_differs={"value:edge": _DAZ})
op("isnan_ext", ref=lambda x: np.isnan(x) if x.dtype.kind == "f" else np.zeros(x.shape, bool),
   dtypes=ALL, samples=unary(), grad=False, result=lambda x: dt.bool_,
   torch=lambda torch, x: torch.isnan(x))


# ---- Python-valued queries, dtype and shape helpers ---------------------------------------------

def _query_check(fn, want):
    def check(entry, sample, got):
        x, = sample.leaves()
        value = fn(tj.Tensor(x))
        return None if type(value) is bool and value == want(x) else \
            f"{value!r}, expected {want(x)!r}"
    return check


_QUERY = dict(dtypes=ALL, grad=False, torch=None, fuzz=False, prims=(), ms=None)
op("is_floating_point", check=_query_check(tj.ops.is_floating_point,
                                           lambda x: x.dtype.kind == "f" or x.dtype == dt.bfloat16),
   samples=lambda dtype, rng, full: [Sample(random(rng, (2, 3), dtype), label="2-d")],
   **_QUERY)
op("is_nonzero", check=_query_check(tj.ops.is_nonzero, lambda x: bool(x.reshape(()) != 0)),
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (1, 1), dtype), label="one element"),
       Sample(np.zeros((), dtype), label="0-d zero"),
       Sample(np.ones((2,), dtype), label="two elements", raises=ValueError)], **_QUERY)


def _other_dtype(dtype):
    return np.dtype(np.int32 if dt.is_float(dtype) else np.float32)


op("type_as", ref=lambda x, other: x.astype(other.dtype), dtypes=(dt.float32, dt.int64),
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (2, 3), dtype), random(rng, (1,), _other_dtype(dtype)),
              label="to another dtype", smooth=False),
       Sample(random(rng, (2,), dtype), random(rng, (), dtype), label="same dtype")],
   result=lambda x, other: other, grad=False, only_declared=False, **_NO_TORCH)
op("view_as", ref=lambda x, other: x.reshape(other.shape), dtypes=ALL,
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (2, 3), dtype), np.zeros((3, 2), np.int32), label="(2,3) as (3,2)"),
       Sample(random(rng, (4,), dtype), np.zeros((2, 1, 2), np.int32), label="to 3-d"),
       Sample(random(rng, (3,), dtype), np.zeros(2, np.int32), label="sizes differ",
              raises=ValueError)],
   result=lambda x, other: x, nondiff=(1,), only_declared=False,
   torch=lambda torch, x, other: x.view_as(other))


def _scalar_samples(number):
    def make(dtype, rng, full):
        lo, hi = (0, 4) if dt.is_int(dtype) or dtype == dt.bool_ else (0.5, 2.0)
        return [Sample(random(rng, (2, 3), dtype, lo, hi), **{number: 2}, label="int"),
                Sample(random(rng, (3,), dtype, lo, hi), **{number: 1.5}, label="float",
                       smooth=False),
                Sample(random(rng, (0,), dtype, lo, hi), **{number: 3}, label="empty")]
    return make


op("tensor_muls", ref=lambda x, other: x * other, dtypes=NUMERIC + BOOL,
   samples=_scalar_samples("other"),
   result=lambda x, other: dt.promote_with_scalar(x, other),
   torch=lambda torch, x, other: torch.mul(x, other) if x.dtype != torch.bool else None)
op("pows", ref=lambda x, exponent: np.power(x, exponent), dtypes=FLOATS + (dt.int32, dt.int64),
   samples=_scalar_samples("exponent"), only_declared=False,
   result=lambda x, exponent: dt.promote_with_scalar(x, exponent),
   torch=lambda torch, x, exponent: torch.pow(x, exponent))
op("float_power_ext", ref=lambda x, exponent: np.power(x.astype(np.float64), exponent),
   dtypes=(dt.float32, dt.float64, dt.int32), samples=_scalar_samples("exponent"),
   result=lambda x, exponent: dt.float64, only_declared=False,
   torch=lambda torch, x, exponent: torch.float_power(x, exponent))


def _diff_samples(dtype, rng, full):
    return [Sample(random(rng, (3, 4), dtype), label="last axis"),
            Sample(random(rng, (3, 4), dtype), 2, 0, label="n=2 along 0"),
            Sample(random(rng, (2, 3), dtype), 1, -1, random(rng, (2, 1), dtype),
                   label="prepend"),
            Sample(random(rng, (3,), dtype), 5, label="n past the size")]


op("diff_ext", ref=lambda x, n=1, dim=-1, prepend=None: np.diff(
    x if prepend is None else np.concatenate([prepend, x], dim), n, dim),
   dtypes=(dt.bool_, dt.int32, dt.float32, dt.float64), samples=_diff_samples,
   only_declared=False,
   torch=lambda torch, x, n=1, dim=-1, prepend=None: torch.diff(x, n, dim, prepend))


def _accumulate_samples(dtype, rng, full):
    return [Sample([random(rng, (2, 3), dtype) for _ in range(3)], label="three"),
            Sample([random(rng, (4,), dtype)], label="one"),
            Sample([random(rng, (2,), dtype), random(rng, (3,), dtype)], label="shapes differ",
                   raises=ValueError)]


op("accumulate_n", ref=lambda xs: sum(xs[1:], xs[0]), dtypes=(dt.float32, dt.float64,
                                                               dt.int32),
   samples=_accumulate_samples, result=lambda *xs: xs[0], only_declared=False,
   torch=lambda torch, xs: sum(xs[1:], xs[0]))


# ---- range and logspace -----------------------------------------------------------------------

def _range_samples(dtype, rng, full):
    if dt.is_int(dtype):
        return [Sample(0, 7, 2, label="up"), Sample(5, -3, -3, label="down"),
                Sample(2, 2, 1, label="empty"), Sample(0, 5, 0, label="zero step",
                                                       raises=ValueError),
                Sample(0, 5, -1, label="step away", raises=ValueError)]
    return [Sample(0.0, 1.0, 0.25, label="quarters"), Sample(1.5, -1.0, -0.5, label="down")]


op("range", ref=lambda start, end, step: np.arange(start, end, step),
   dtypes=(dt.int64, dt.float32), samples=_range_samples, grad=False, fuzz=False,
   only_declared=False,
   result=lambda: None, check=lambda entry, sample, got: _range_check(sample, got),
   torch=None)


def _range_check(sample, got):
    start, end, step = sample.args
    want = np.arange(start, end, step, dtype=np.int64 if isinstance(start, int) else np.float32)
    g, = got
    return None if g.dtype == want.dtype and np.allclose(g, want) and g.shape == want.shape \
        else f"{g!r}, expected {want!r}"


def _logspace_samples(dtype, rng, full):
    def scalar(v):
        return np.array(v, dtype)
    if not dt.is_float(dtype):
        return [Sample(scalar(0), scalar(2), 3, label="not a float")]
    return [Sample(scalar(0.0), scalar(2.0), 3, label="10 ** [0, 1, 2]"),
            Sample(scalar(-1.0), scalar(1.0), 5, 2, label="base 2"),
            Sample(scalar(1.0), scalar(3.0), 1, label="one step"),
            Sample(scalar(1.0), scalar(3.0), 0, label="no step"),
            Sample(scalar(1.0), scalar(3.0), 3, 10, dtype=dt.float64, label="float64 result"),
            Sample(np.ones(1, dtype), scalar(3.0), 3, label="1-d start", raises=ValueError)]


op("logspace", ref=lambda start, end, steps, base=10, dtype=None: np.logspace(
    start, end, steps, base=base), dtypes=(dt.float16, dt.float32, dt.float64),
   samples=_logspace_samples, grad=False, result=lambda *_, dtype=dt.float32: dtype,
   tol={dt.float16: (4e-3, 4e-3)}, notes={"gradient": "none (a creation op)"},
   torch=lambda torch, start, end, steps, base=10, dtype=None: torch.logspace(
       float(start), float(end), steps, base, dtype=torch.float64))


# ---- zeta, mvlgamma, betainc --------------------------------------------------------------------

op("zeta", ref=special.zeta, dtypes=_F32_F64, samples=binary((1.5, 4.0), (0.5, 3.0)),
   nondiff=(0,), tol={dt.float32: (1e-5, 1e-5), dt.float64: (1e-11, 1e-11)},
   torch=lambda torch, x, q: torch.special.zeta(x, q),
   torch_differs={"value:edge grid": Differs("at infinite / zero arguments SciPy and "
                                             "MindSpore give 0 or inf where PyTorch gives NaN"),
                  "grad:edge grid": Differs("the same edge values' gradients")},
   ms_differs={"value:edge grid": "at poles and infinite arguments MindSpore 2.10's CPU "
                                  "kernel gives NaN or 0 where SciPy gives inf or NaN; we "
                                  "follow SciPy"},
   notes={"gradient": "d/dq = -x zeta(x + 1, q); none for x (MindSpore has none)"})


def _mvlgamma_samples(dtype, rng, full):
    return [Sample(random(rng, (2, 3), dtype, 1.6, 4.0), 2, label="p=2"),
            Sample(random(rng, (4,), dtype, 0.5, 3.0), 1, label="p=1"),
            Sample(random(rng, (3,), dtype, 2.1, 5.0), 4, label="p=4"),
            Sample(np.array([3.0, 0.4], dtype), 2, label="x <= (p-1)/2", raises=ValueError),
            Sample(np.ones(2, dtype), 0, label="p=0", raises=ValueError)]


op("mvlgamma", ref=lambda x, p: special.multigammaln(x, p), dtypes=_F32_F64,
   samples=_mvlgamma_samples, tol={dt.float32: (2e-5, 2e-5)}, nondiff=(),
   errors=[ErrorCase(Sample(np.array([3.0, 0.4]), 2), ValueError, "mvlgamma",
                     "an element at most (p-1)/2 (checked when the graph runs)")],
   torch=lambda torch, x, p: torch.mvlgamma(x, p))


def _betainc_samples(dtype, rng, full):
    def arr(lo, hi, shape=(2, 3)):
        return random(rng, shape, dtype, lo, hi)
    if not dt.is_float(dtype):
        return [Sample(arr(1, 3), arr(1, 3), arr(0, 1), label="not a float")]
    return [Sample(arr(0.5, 3.0), arr(0.5, 3.0), arr(0.05, 0.95), label="inside"),
            Sample(np.array([-1.0, 1.0], dtype), np.array([1.0, 1.0], dtype),
                   np.array([0.5, 1.5], dtype), label="outside the domain: NaN",
                   smooth=False),
            Sample(arr(0.5, 3.0, (0,)), arr(0.5, 3.0, (0,)), arr(0.1, 0.9, (0,)), label="empty"),
            Sample(arr(1, 2, (2,)), arr(1, 2, (3,)), arr(0.1, 0.9, (3,)), label="shapes differ",
                   raises=ValueError)]


op("prim:betainc", op=tj.ops.Betainc(), prims=("betainc",),
   ref=special.betainc, dtypes=_F32_F64, samples=_betainc_samples, nondiff=(0, 1),
   tol={dt.float32: (1e-5, 1e-5), dt.float64: (1e-10, 1e-10)}, ms=None, fuzz=False,
   **_NO_TORCH)


def _check_numerics_samples(dtype, rng, full):
    if not dt.is_float(dtype):
        return [Sample(random(rng, (2, 3), dtype), label="not a float")]
    return [Sample(random(rng, (2, 3), dtype), label="finite"),
            Sample(np.array([1.0, np.nan], dtype), label="NaN", raises=RuntimeError),
            Sample(np.array([np.inf], dtype), label="Inf", raises=RuntimeError)]


op("prim:check_values", op=tj.ops.CheckNumerics(), prims=("check_values",),
   ref=lambda x: x, dtypes=FLOATS, samples=_check_numerics_samples, ms=None, fuzz=False,
   errors=[ErrorCase(Sample(np.array([1.0, np.nan])), RuntimeError, "NaN",
                     "NaN in the input (checked when the graph runs)")], **_NO_TORCH)


# ---- gamma and Poisson draws --------------------------------------------------------------------

def _draw_check(moments):
    """dtype per the entry's rule, shape, then the sample mean and variance of the draws
    (seed 5) against ``moments(sample)`` within 5 standard errors, and the same numbers
    after the same seed."""
    def check(entry, sample, got):
        want_dtype, = entry.result_dtypes(sample)

        def draw():
            tj.set_seed(5)
            return entry.op(*sample.tensors(), **sample.kwargs).asnumpy()
        first = draw()
        if first.dtype != want_dtype:
            return f"dtype {first.dtype}, expected {want_dtype}"
        if not np.array_equal(first, draw(), equal_nan=True):
            return "the same seed gave other numbers"
        shape, mean, var = moments(sample)
        if first.shape != shape:
            return f"shape {first.shape}, expected {shape}"
        values = first.astype(np.float64).reshape(-1, *np.shape(mean))
        error = 5 * np.sqrt(var / values.shape[0])
        if np.any(np.abs(values.mean(0) - mean) > error):
            return f"means {values.mean(0)}, expected {mean} +- {error}"
        if np.any(np.abs(values.var(0) - var) > 0.1 * var + 1e-12):
            return f"variances {values.var(0)}, expected {var}"
        return None
    return check


_RANDOM = dict(grad=False, torch=None, fuzz=False, random=True, ms=None)
_PARAMS = np.array([0.4, 2.5, 9.0])


def _prefixed_samples(dtype, rng, full):
    return [Sample(np.array([4000], np.int32), _PARAMS.astype(dtype), label="3 parameters"),
            Sample(np.array([4000, 1], np.int64), _PARAMS[:1].astype(dtype),
                   label="2-d prefix"),
            Sample(np.array([0], np.int32), _PARAMS.astype(dtype), label="empty size",
                   raises=ValueError)]


def _prefixed_moments(var_of):
    def moments(sample):
        shape, param = sample.args
        return tuple(shape) + param.shape, param, var_of(param)
    return moments


op("random_gamma", dtypes=(dt.float16, dt.float32, dt.float64), samples=_prefixed_samples,
   check=_draw_check(_prefixed_moments(lambda a: a)), result=lambda shape, alpha: alpha,
   only_declared=False, notes={"alpha <= 0": "NaN for a negative alpha, 0 for 0 "
                                             "(MindSpore's CPU kernel)"}, **_RANDOM)
op("random_poisson", dtypes=(dt.float32, dt.float64, dt.int64), samples=_prefixed_samples,
   check=_draw_check(_prefixed_moments(lambda r: r)), result=lambda *_: dt.float32,
   only_declared=False, **_RANDOM)


def _broadcast_samples(dtype, rng, full):
    return [Sample((4000, 1), np.array([[0.5, 3.0]], np.float32), np.array([2.0], np.float32),
                   label="alpha per column, beta 2"),
            Sample((4000, 2), np.array([1.0, 1.0], np.float32),
                   np.array([2.0, 3.0], np.float32), label="beta per column"),
            Sample((2, 3), np.ones(2, np.float32), np.ones(1, np.float32),
                   label="shapes do not broadcast", raises=ValueError)]


op("gamma", dtypes=(dt.float32,), samples=_broadcast_samples, result=lambda *_: dt.float32,
   check=_draw_check(lambda s: ((4000, 2), (s.args[1] / s.args[2]).reshape(-1),
                                (s.args[1] / s.args[2] ** 2).reshape(-1))),
   notes={"beta": "the inverse scale: mean alpha / beta"}, **_RANDOM)
op("poisson", dtypes=(dt.float32,), result=lambda *_: dt.int32,
   samples=lambda dtype, rng, full: [
       Sample((4000, 1), np.array([0.7, 6.0], np.float32), label="two means"),
       Sample((4000, 2), np.array([[3.0, 3.0]], np.float32), label="one mean")],
   check=_draw_check(lambda s: ((4000, 2), np.broadcast_to(s.args[1].reshape(-1), (2,)),
                                np.broadcast_to(s.args[1].reshape(-1), (2,)))), **_RANDOM)
