"""Table entries: one-operand elementwise ops (math, activations, rounding, tests, casts)."""
import math

import numpy as np
from scipy import special

from tensorjit import dtype as dt

from .core import op, Sample, Kink, Differs, ALL, NUMERIC, float_result, bool_result
from .samples import unary, grad_unary, random, specials

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
