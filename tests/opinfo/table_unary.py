"""Table entries: one-operand elementwise ops (math, activations, rounding, tests, casts)."""
import math

import numpy as np
from scipy import special

import tensorjit as tj
from tensorjit import dtype as dt

from .core import (op, Sample, Kink, Differs, ErrorCase, ALL, NUMERIC, float_result,
                   bool_result, compare)
from .samples import unary, grad_unary, random, specials, extreme

FLOAT_OPS = dict(dtypes=ALL, result=float_result)
FLOAT_NOTE = ("bool and integer inputs compute in float32, as MindSpore's `sqrt` and "
              "`reciprocal` do and PyTorch does for every float function; MindSpore 2.10's "
              "CPU kernels of the others reject integers")


def _t(name):
    """A PyTorch function by name (entries name what they compare with)."""
    return lambda torch, *args, **kw: getattr(torch, name)(*args, **kw)


def _float_op(name, ref, domain=(-2.0, 2.0), grad_domain=None, torch=None, **extra):
    notes = extra.pop("notes", {})
    notes.setdefault("dtypes", FLOAT_NOTE)
    return op(name, ref=ref, samples=unary(domain), grad_samples=grad_unary(grad_domain or domain),
              torch=torch or _t(name), notes=notes, **FLOAT_OPS, **extra)


_float_op("exp", np.exp, (-3, 3), method="exp")
_float_op("log", np.log, (0.1, 4.0), (0.2, 3.0), method="log")
_float_op("log1p", np.log1p, (-0.9, 3.0), method="log1p")
_float_op("expm1", np.expm1, (-3, 3))
_float_op("sqrt", np.sqrt, (0.0, 4.0), (0.2, 3.0), method="sqrt", kinks=[
    Kink(Sample(np.array([0.0, -0.0])), [np.array([np.inf, -np.inf])],
         "d sqrt(x)/dx = 1 / (2 sqrt(x)): +inf at 0.0 and -inf at -0.0 (sqrt(-0.0) is "
         "-0.0), as in PyTorch")])
_float_op("rsqrt", lambda x: 1 / np.sqrt(x), (0.1, 4.0), method="rsqrt")
_float_op("sin", np.sin, (-4, 4), method="sin")
_float_op("cos", np.cos, (-4, 4), method="cos")
_float_op("tan", np.tan, (-1.2, 1.2), method="tan")
_float_op("tanh", np.tanh, (-3, 3), method="tanh")
_float_op("atan", np.arctan, (-3, 3), aliases=("arctan",))
_float_op("sigmoid", special.expit, (-6, 6), method="sigmoid")
_float_op("erf", special.erf, (-2.5, 2.5), method="erf")
_float_op("softplus", lambda x: np.logaddexp(0.0, x), (-5, 5),
          torch=lambda torch, x: torch.nn.functional.softplus(x, threshold=1e9))
_float_op("silu", lambda x: x * special.expit(x), (-5, 5),
          torch=lambda torch, x: torch.nn.functional.silu(x))
_float_op("softsign", lambda x: x / (1 + np.abs(x)), (-4, 4),
          torch=lambda torch, x: torch.nn.functional.softsign(x), torch_differs={
              "grad:edge": Differs("the gradient at +-inf is 0, the limit of 1 / (1 + |x|)^2 "
                                   "(PyTorch gives NaN)", lambda x: np.isinf(x))})
_float_op("reciprocal", lambda x: 1 / x, (0.2, 3.0), prims=(), method="reciprocal")


def _gelu_ref(x, approximate="none"):
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + special.erf(x / math.sqrt(2)))


def _gelu_samples(dtype, rng, full):
    base = unary((-4, 4))(dtype, rng, full)
    return base + [Sample(s.args[0], approximate="tanh", label=s.label + " tanh",
                          smooth=s.smooth) for s in base]


op("gelu", ref=_gelu_ref, samples=_gelu_samples, **FLOAT_OPS,
   torch=lambda torch, x, approximate="none": torch.nn.functional.gelu(x, approximate=approximate),
   notes={"dtypes": FLOAT_NOTE}, torch_differs={
       "value:edge": Differs("gelu(+inf) is +inf and gelu(max) is max (x * Phi(x)); "
                             "PyTorch's float32 kernel gives NaN and inf there",
                             lambda x: x > 1e38)})


# ---- ops keeping their dtype -----------------------------------------------------------

def _int_note(what):
    return {"dtypes": f"integers keep their dtype ({what}); bool is rejected, as in PyTorch"}


op("neg", ref=np.negative, dtypes=NUMERIC, samples=unary(), method="neg",
   aliases=("negative",), torch=_t("neg"),
   notes={"dtypes": "unsigned integers wrap (neg(1) of uint8 is 255), as in NumPy and MindSpore; "
                    "bool is rejected (MindSpore and PyTorch reject it too)"})
op("abs", ref=np.abs, dtypes=NUMERIC, samples=unary(), method="abs", aliases=("absolute",),
   torch=_t("abs"), torch_differs={"grad:edge": Differs(
       "the gradient at NaN is NaN (sign(NaN)); PyTorch gives 0", lambda x: np.isnan(x))},
   kinks=[
       Kink(Sample(np.array([0.0, -0.0, 1.0])), [np.array([0.0, 0.0, 1.0])],
            "sign(x) is the subgradient: 0 at +-0, as in PyTorch and MindSpore")],
   notes={"dtypes": "abs of an integer's minimum wraps to itself, as in NumPy and PyTorch; "
                    "bool is rejected (MindSpore 2.10 returns it unchanged)"})
op("sign", ref=np.sign, dtypes=NUMERIC, samples=unary(), method="sign", torch=_t("sign"),
   torch_differs={"value:edge": Differs("sign(NaN) is NaN, as in NumPy; PyTorch gives 0",
                                        lambda x: np.isnan(x))},
   notes={"dtypes": "every integer dtype keeps its dtype (MindSpore 2.10's CPU kernel has "
                    "int32 / int64 only); sign(NaN) is NaN, sign(-0.0) is 0.0 (NumPy)"})
op("relu", ref=lambda x: np.maximum(x, 0).astype(x.dtype), dtypes=NUMERIC, samples=unary(),
   method="relu", torch=_t("relu"), signed_zeros=False, torch_differs={"grad:edge": Differs(
       "the gradient at NaN is 0 (the cotangent passes where x > 0); PyTorch passes it "
       "where not x <= 0", lambda x: np.isnan(x))}, kinks=[
       Kink(Sample(np.array([0.0, -0.0, 2.0, -1.0])), [np.array([0.0, 0.0, 1.0, 0.0])],
            "the gradient at 0 is 0, as in PyTorch and MindSpore")],
   notes={"dtypes": "bool is rejected (MindSpore 2.10 returns it unchanged)",
          "signed zeros": "relu(-0.0) is -0.0 or 0.0 (IEEE leaves the sign of max(-0, +0) "
                          "open; PyTorch gives -0.0)"})
op("floor", ref=np.floor, dtypes=NUMERIC, samples=unary((-5, 5)), method="floor",
   torch=_t("floor"), grad=False, notes=_int_note("floor of an integer is itself"))
op("ceil", ref=np.ceil, dtypes=NUMERIC, samples=unary((-5, 5)), method="ceil",
   torch=_t("ceil"), grad=False, notes=_int_note("ceil of an integer is itself"))
op("round", ref=np.round, dtypes=NUMERIC, samples=unary((-5, 5)), method="round",
   torch=_t("round"), grad=False,
   notes=_int_note("round of an integer is itself") | {
       "rounding": "halves round to even (np.round, PyTorch, MindSpore)"})
op("square", ref=lambda x: x * x, dtypes=ALL, samples=unary(), prims=(), method="square",
   torch=_t("square"), torch_differs={"grad:edge": Differs(
       "the gradient ct*x + ct*x stays finite where PyTorch's (2x)*ct overflows (|x| near "
       "the float64 maximum)", lambda x: np.abs(x) > 1e307)},
   notes={"dtypes": "square of bool is bool (x and x), as x * x is"})


# ---- tests: bool results ----------------------------------------------------------------

for _name, _ref in (("isnan", np.isnan), ("isinf", np.isinf), ("isfinite", np.isfinite)):
    op(_name, ref=_ref, dtypes=ALL, samples=unary(), result=bool_result, method=_name,
       torch=_t(_name), grad=False)
op("logical_not", ref=np.logical_not, dtypes=ALL, samples=unary(), result=bool_result,
   method="logical_not", torch=_t("logical_not"), grad=False)


# ---- casts and copies --------------------------------------------------------------------

CAST_TARGETS = (dt.bool_, dt.int8, dt.uint8, dt.int32, dt.int64, dt.float16, dt.bfloat16,
                dt.float32, dt.float64)


def _castable(values, target):
    """The values whose conversion to ``target`` is defined: to an integer dtype only
    finite values inside its range (out-of-range float -> int is undefined in C, NumPy,
    PyTorch and MindSpore alike)."""
    if not dt.is_int(target) or not dt.is_float(values.dtype):
        return values
    info = np.iinfo(target)
    wide = values.astype(np.float64)
    keep = np.isfinite(wide) & (wide >= info.min) & (wide <= info.max)
    return values[keep]


def _cast_samples(dtype, rng, full):
    out = []
    for target in CAST_TARGETS:
        out.append(Sample(random(rng, (3, 4), dtype, -3, 3), dtype=target, label=f"to {target}"))
        out.append(Sample(_castable(specials(dtype), target), dtype=target,
                          label=f"edge to {target}", smooth=False))
    out.append(Sample(np.zeros((2, 0), dtype), dtype=dt.float32, label="empty"))
    return out


def _cast_ref(x, dtype):
    return x.astype(dtype)


def _cast_grad_samples(rng, full):
    return [Sample(rng.standard_normal((3, 4)), dtype=dt.float32, label="to float32"),
            Sample(rng.standard_normal((3, 4)), dtype=dt.float64, label="to float64"),
            Sample(rng.integers(-3, 3, (2, 2)).astype(np.float64), dtype=dt.int32,
                   label="to int32")]


op("cast", ref=_cast_ref, dtypes=ALL, samples=_cast_samples, grad_samples=_cast_grad_samples,
   fd=(1e-3, 1e-4),
   result=lambda *d, dtype: dtype, torch=lambda torch, x, dtype: x.to(_torch_dtype(torch, dtype)),
   notes={"conversions": "float to integer truncates toward zero; NaN, inf and values "
                         "outside the target's range give unspecified integers (as in C, "
                         "NumPy, PyTorch and MindSpore)"})


def _torch_dtype(torch, dtype):
    return {"bfloat16": torch.bfloat16}.get(dtype.name) or getattr(torch, dtype.name)


op("identity", ref=lambda x: x.copy(), dtypes=ALL, samples=unary(), method=None,
   torch=lambda torch, x: x.clone())
op("stop_gradient", ref=lambda x: x, dtypes=ALL, samples=unary(), grad=False,
   torch=lambda torch, x: x.detach(),
   notes={"gradient": "no gradient flows through it (MindSpore `stop_gradient`, PyTorch "
                      "`detach`)"})


# ---- special_math.py: inverse / hyperbolic trigonometry, logs, special functions -----------

_EDGE_GRADS = Differs("at NaN, infinite, zero, subnormal or huge inputs the gradient is its "
                      "formula's value, where PyTorch's formulas round to other NaN / inf / 0",
                      extreme)


def _edge_grads(outside, where):
    """``_EDGE_GRADS`` and the edge values ``where`` selects: outside the domain the
    gradient's formula gives NaN where PyTorch's gives other values."""
    return Differs(f"at NaN, infinite, zero, subnormal or huge inputs and {outside} the "
                   f"gradient is its formula's value (NaN outside the domain), where "
                   f"PyTorch's formulas give other NaN / inf / values",
                   lambda x: extreme(x) | where(x))


_MS_FLUSHES = ("MindSpore 2.10's CPU kernel reads subnormal inputs as zero (the log of a "
               "negative subnormal is -inf there, NaN here)")
_OUTSIDE_UNIT = _edge_grads("at |x| >= 1", lambda x: np.abs(x) >= 1)
_POLES = _edge_grads("at x <= 0 (poles)", lambda x: x <= 0)
_float_op("acos", np.arccos, (-1.0, 1.0), (-0.9, 0.9), method="acos", aliases=("arccos",),
          torch_differs={"grad:edge": _OUTSIDE_UNIT})
_float_op("asin", np.arcsin, (-1.0, 1.0), (-0.9, 0.9), method="asin", aliases=("arcsin",),
          torch_differs={"grad:edge": _OUTSIDE_UNIT})
_float_op("acosh", np.arccosh, (1.0, 4.0), (1.2, 3.0), method="acosh", aliases=("arccosh",),
          torch_differs={"grad:edge": _edge_grads("at x < 1", lambda x: x < 1)})
_float_op("asinh", np.arcsinh, (-3, 3), method="asinh", aliases=("arcsinh",),
          torch_differs={"grad:edge": _EDGE_GRADS})
_float_op("atanh", np.arctanh, (-1.0, 1.0), (-0.9, 0.9), method="atanh", aliases=("arctanh",),
          torch_differs={"grad:edge": _OUTSIDE_UNIT})
_float_op("cosh", np.cosh, (-3, 3), method="cosh", torch_differs={"grad:edge": _EDGE_GRADS})
_float_op("sinh", np.sinh, (-3, 3), method="sinh", torch_differs={"grad:edge": _EDGE_GRADS})
_float_op("log2", np.log2, (0.1, 8.0), (0.2, 3.0), method="log2",
          ms_differs={"value:edge": _MS_FLUSHES},
          torch_differs={"grad:edge": _EDGE_GRADS})
_float_op("log10", np.log10, (0.1, 8.0), (0.2, 3.0), method="log10",
          ms_differs={"value:edge": _MS_FLUSHES},
          torch_differs={"grad:edge": _EDGE_GRADS})
_float_op("exp2", np.exp2, (-3, 3), ms_differs={
    "dtype": "bfloat16 stays bfloat16 (as every float function here); MindSpore 2.10 "
             "returns float32"}, torch_differs={"grad:edge": _EDGE_GRADS})
_float_op("erfc", special.erfc, (-2.5, 2.5), method="erfc",
          torch_differs={"grad:edge": _EDGE_GRADS})
_float_op("erfinv", special.erfinv, (-1.0, 1.0), (-0.9, 0.9), method="erfinv",
          torch_differs={"grad:edge": _OUTSIDE_UNIT, "value:edge": Differs(
              "erfinv(-0.0) is -0.0 (SciPy); PyTorch gives 0.0", lambda x: x == 0)})


def _lgamma_ref(x):
    # C's lgamma: +inf at -inf (SciPy's gammaln gives -inf there)
    return np.where(np.isneginf(x), np.inf, special.gammaln(x))


_float_op("lgamma", _lgamma_ref, (0.1, 5.0), (0.3, 4.0), method="lgamma",
          torch_differs={"grad:edge": _POLES, "value:edge": Differs(
              "every huge negative float is an integer, a pole: +inf (SciPy, C's lgamma); "
              "PyTorch's float64 kernel gives 744.44; and at subnormals, which this "
              "process may read as 0 (denormals-are-zero, set by the native libraries), "
              "the pole's +inf", lambda x: (x < -1e30) | extreme(x))})
_float_op("digamma", special.psi, (0.1, 5.0), (0.3, 4.0), method="digamma",
          torch_differs={"grad:edge": _POLES, "value:edge": Differs(
              "digamma(+-0) is NaN (SciPy's pole); PyTorch gives -inf", lambda x: x == 0)})

_TORCH_BESSEL = {"bessel_i0": "i0", "bessel_i0e": "special.i0e", "bessel_i1": "special.i1",
                 "bessel_i1e": "special.i1e", "bessel_j0": "special.bessel_j0",
                 "bessel_j1": "special.bessel_j1", "bessel_k0": "special.modified_bessel_k0",
                 "bessel_k0e": "special.scaled_modified_bessel_k0",
                 "bessel_k1": "special.modified_bessel_k1",
                 "bessel_k1e": "special.scaled_modified_bessel_k1",
                 "bessel_y0": "special.bessel_y0", "bessel_y1": "special.bessel_y1"}


def _torch_path(path):
    def fn(torch, *args):
        target = torch
        for part in path.split("."):
            target = getattr(target, part)
        return target(*args)
    return fn


for _name, _path in _TORCH_BESSEL.items():
    _positive = _name[-2] in "ky" or _name[-3] in "ky"      # K and Y: x > 0
    _float_op(_name, getattr(special, _name.split("_")[1]),
              (0.1, 4.0) if _positive else (-4.0, 4.0), (0.3, 3.0) if _positive else None,
              torch=_torch_path(_path), aliases=("i0",) if _name == "bessel_i0" else (),
              method="i0" if _name == "bessel_i0" else None, torch_grad=False,
              # PyTorch's own J / Y kernels agree to 1e-8, not to the last bits
              tol={dt.float64: (1e-8, 1e-8)} if _name[-2] in "jy" else None,
              torch_differs={"value:edge": Differs(
                  "at subnormal, zero and huge inputs SciPy's Cephes kernels give the "
                  "function's value or limit where PyTorch's give inf / NaN", extreme)},
              ms_differs={"value:edge": "K and Y are NaN for x < 0 (SciPy, PyTorch); "
                                        "MindSpore 2.10's CPU kernels give +-inf there and "
                                        "read subnormals as 0"} if _positive else {},
              notes={"dtypes": FLOAT_NOTE, "gradient": "differentiable everywhere (DLMF "
                     "10.6, 10.29); PyTorch has no gradient for most of these"})

_SINC_HUGE = Differs("sinc of a huge finite value is 0 (every value from 1 / eps on is an "
                     "integer); pi * x overflows to inf in NumPy's / PyTorch's formula, which "
                     "gives NaN", lambda x: np.isfinite(x) & (np.abs(x) > 1e30))
_float_op("sinc", np.sinc, (-3, 3), method="sinc", prims=(), signed_zeros=False,
          ref_differs={"edge": _SINC_HUGE},
          ms_differs={"value:edge": _SINC_HUGE.why},
          torch_differs={"grad:edge": _EDGE_GRADS, "value:edge": _SINC_HUGE},
          kinks=[Kink(Sample(np.array([0.0])), [np.array([0.0])],
                      "the gradient at 0 is 0, the limit (PyTorch too)")])
_float_op("deg2rad", np.deg2rad, (-360, 360), method="deg2rad", prims=(),
          ms_differs={"value:edge": "x * (pi / 180) stays finite near the float32 maximum; "
                                    "MindSpore 2.10 overflows to inf (x * pi first)"},
          notes={"dtypes": "bool and integer inputs compute in float32 (MindSpore 2.10 "
                           "rejects them with TypeError)"})
_float_op("rad2deg", np.rad2deg, (-4, 4), method="rad2deg", prims=(),
          notes={"dtypes": "bool and integer inputs compute in float32 (MindSpore 2.10 "
                           "rejects them with TypeError)"})


def _logit_ref(x, eps=None):
    if eps is not None:
        x = np.clip(x, eps, 1 - eps)
    with np.errstate(all="ignore"):
        return np.log(x / (1 - x))


def _logit_samples(dtype, rng, full):
    base = unary((0.02, 0.98))(dtype, rng, full)
    return base + [Sample(s.args[0], eps=0.25, label=s.label + " eps", smooth=s.smooth)
                   for s in base[:2]]


op("logit", ref=_logit_ref, samples=_logit_samples, grad_samples=grad_unary((0.1, 0.9)),
   method="logit", prims=(), torch=lambda torch, x, eps=None: torch.logit(x, eps),
   torch_differs={"grad:edge": _edge_grads("outside (0, 1)", lambda x: (x <= 0) | (x >= 1))},
   notes={"dtypes": FLOAT_NOTE}, **FLOAT_OPS)


def _torch_polygamma(torch, n, x):
    """PyTorch's polygamma takes an int order: a tensor n is computed order by order."""
    if not isinstance(n, torch.Tensor):
        return torch.polygamma(n, x)
    n, x = torch.broadcast_tensors(n, x)
    out = torch.empty_like(x)
    for k in n.unique().tolist():
        out[n == k] = torch.polygamma(int(k), x[n == k])
    return out


def _polygamma_samples(dtype, rng, full):
    out = [Sample(n, s.args[0], label=f"{s.label} n={n}", smooth=s.smooth)
           for n in (0, 1, 3) for s in unary((0.2, 4.0))(dtype, rng, full)]
    # n as a tensor, one order per row (MindSpore's form: an operand)
    return out + [Sample(np.array([[0], [1], [2]]), random(rng, (3, 4), dtype, 0.2, 4.0),
                         label="tensor n")]


op("polygamma", ref=lambda n, x: special.polygamma(n, x), samples=_polygamma_samples,
   grad_samples=lambda rng, full: [
       Sample(n, rng.uniform(0.3, 3.0, (3, 4)), label=f"n={n}") for n in (0, 1, 2)],
   torch=_torch_polygamma, dtypes=ALL,
   result=lambda *dtypes: float_result(dtypes[-1]),      # x's; n is an integer operand
   tol={dt.float64: (1e-8, 1e-8)},     # PyTorch's trigamma is off by 1e-9 (SciPy: 2e-16)
   torch_differs={
       **{f"value:edge n={n}": Differs(
           "at x <= 0 (poles) and +inf SciPy gives inf / NaN / 0 where PyTorch gives "
           "other values", lambda x: (x <= 0) | np.isinf(x)) for n in (0, 1, 3)},
       **{f"grad:edge n={n}": _POLES for n in (0, 1, 3)}},
   errors=[ErrorCase(Sample(-1, np.ones(3)), ValueError, "polygamma",
                     "a negative order n given as a Python int")],
   notes={"dtypes": FLOAT_NOTE, "n": "a non-negative int or an integer tensor (an operand: "
                                     "a jitted function may take it as an argument)"})


def _trunc_ref(x):
    return np.trunc(x) if dt.is_float(x.dtype) else x


op("trunc", ref=_trunc_ref, dtypes=NUMERIC, samples=unary((-5, 5)), method="trunc",
   torch=_t("trunc"), grad=False, notes=_int_note("trunc of an integer is itself"))
op("frac", ref=lambda x: x - np.trunc(x) if dt.is_float(x.dtype) else x - x,
   dtypes=NUMERIC, samples=unary((-5, 5)), method="frac", prims=(), torch=_t("frac"),
   signed_zeros=False, torch_differs={"grad:edge": _EDGE_GRADS},
   notes=_int_note("frac of an integer is 0") | {
       "signed zeros": "frac(-2.0) is 0.0 or -0.0 (x - trunc(x))"})
op("positive", ref=lambda x: x, dtypes=ALL, samples=unary(), method="positive", prims=(),
   torch=_t("positive"), notes={"dtypes": "every dtype, bool included (MindSpore; PyTorch "
                                          "refuses bool)"})
for _name, _ref in (("isneginf", np.isneginf), ("isposinf", np.isposinf),
                    ("isreal", lambda x: np.ones(x.shape, bool))):
    op(_name, ref=_ref, dtypes=ALL, samples=unary(), result=bool_result, method=_name,
       prims=(), torch=_t(_name), grad=False,
       notes={"dtypes": "every dtype (integers and bool give False / True); MindSpore "
                        "2.10's CPU kernels take float64 only"})


def _nan_to_num_ref(x, nan=None, posinf=None, neginf=None):
    """In the input's own dtype: the default replacements are its limits."""
    if not dt.is_float(x.dtype):
        return x
    info = dt._finfo(x.dtype)
    out = np.where(np.isnan(x), 0.0 if nan is None else nan, x.astype(np.float64))
    out = np.where(np.isposinf(x), info.max if posinf is None else posinf, out)
    return np.where(np.isneginf(x), info.min if neginf is None else neginf, out)


def _nan_to_num_check(entry, sample, got):
    x = sample.leaves()[0]
    want = _nan_to_num_ref(x, *sample.args[1:], **sample.kwargs)
    rtol, atol = entry.tolerance(x.dtype)
    return compare(got[0], want, x.dtype, rtol, atol)


def _nan_to_num_samples(dtype, rng, full):
    base = unary()(dtype, rng, full)
    edge = specials(dtype)
    return base + [Sample(edge, 1.0, 2.0, -3.0, label="edge given", smooth=False),
                   Sample(edge, nan=1.5, label="edge nan only", smooth=False)]


op("nan_to_num", ref=_nan_to_num_ref, check=_nan_to_num_check, dtypes=ALL,
   samples=_nan_to_num_samples,
   method="nan_to_num", prims=(), torch=lambda torch, x, *a, **k: torch.nan_to_num(x, *a, **k),
   torch_differs={"grad:edge": _EDGE_GRADS, "grad:edge given": _EDGE_GRADS,
                  "grad:edge nan only": _EDGE_GRADS},
   notes={"dtypes": "integer and bool tensors are returned unchanged (NumPy, PyTorch; "
                    "MindSpore 2.10 takes float16 / float32)"})
