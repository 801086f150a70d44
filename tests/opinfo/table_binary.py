"""Table entries: elementwise ops of two or three operands -- arithmetic, min / max,
comparisons, logic, bitwise ops, ``where``, ``clamp``, ``lerp``, ``isclose``."""
import numpy as np

from tensorjit import dtype as dt

from .core import (op, Sample, Kink, Differs, ErrorCase, ALL, NUMERIC, INTS, BOOL, FLOATS,
                   float_result, bool_result, same, compare)
from .samples import binary, random, specials, extreme

ARITH = dict(dtypes=NUMERIC, promotes=True)

_MOD_EDGES = Differs(
    "with a zero, infinite or extreme operand the result follows NumPy's floor_divide / "
    "remainder (PyTorch gives other NaN, infinities and signed zeros there)", extreme)
_EXTREME_GRADS = Differs(
    "at NaN, infinite, zero, subnormal or huge operands the gradient is its formula's value "
    "(written in the primitive's VJP), where PyTorch's formulas round to other NaN / inf / 0",
    extreme)


def _t(name):
    return lambda torch, *args, **kw: getattr(torch, name)(*args, **kw)


def _bool_ok(name, ref, torch, **extra):
    """Arithmetic that NumPy (and MindSpore) define on bool as logic: + is or, * is and."""
    return op(name, ref=ref, dtypes=ALL, samples=binary(), torch=torch, promotes=True, **extra)


_bool_ok("add", np.add, _t("add"), method="add",
         notes={"bool": "bool + bool is logical or (NumPy; MindSpore 2.10's CPU kernel "
                        "rejects it, PyTorch gives or too)"})
_bool_ok("mul", np.multiply, _t("mul"), method="mul", aliases=("multiply",),
         notes={"bool": "bool * bool is logical and (NumPy, MindSpore, PyTorch)"})
op("sub", ref=np.subtract, samples=binary(), torch=_t("sub"), method="sub",
   aliases=("subtract",), **ARITH,
   notes={"bool": "bool - bool is refused, as in NumPy and PyTorch"})


def _int_division_edges(name):
    """Integer division by zero gives 0 (NumPy's choice): PyTorch raises, MindSpore 2.10's
    CPU kernel returns the integer limits."""
    return {"division by zero": f"{name} of integers by 0 is 0, as in NumPy (PyTorch raises "
                                f"ZeroDivisionError; MindSpore 2.10's CPU kernel returns "
                                f"the integer limits)"}


op("div", ref=np.true_divide, samples=binary(other=(0.5, 2.0)), result=float_result,
   torch=_t("div"), method="div", aliases=("divide", "true_divide"), dtypes=ALL,
   promotes=True, torch_differs={"grad:edge grid": _EXTREME_GRADS},
   notes={"dtypes": "bool and integers divide in float32 (MindSpore, PyTorch)"})


def _floor_div_ref(x, y):
    return np.floor_divide(x, y)


op("floor_div", prims=("floordiv",), ref=_floor_div_ref, dtypes=ALL, promotes=True,
   samples=binary(other=(0.5, 3.0), other_int=(1, 4)), aliases=("floordiv", "floor_divide"),
   grad=False,
   torch=lambda torch, x, y: torch.floor_divide(x, y),
   torch_differs={"value:edge grid": _MOD_EDGES},
   notes=_int_division_edges("floor_div") | {
       "bool": "bool // bool is bool (NumPy's int8 result cast back; MindSpore gives bool)"})
op("floor_mod", prims=("mod",), ref=np.mod, samples=binary(other=(0.5, 3.0), other_int=(1, 4)),
   aliases=("mod", "remainder", "floormod"), torch=lambda torch, x, y: torch.remainder(x, y),
   torch_differs={"value:edge grid": _MOD_EDGES, "grad:edge grid": _EXTREME_GRADS},
   dtypes=ALL, promotes=True,
   signed_zeros=False,
   kinks=[Kink(Sample(np.array([2.0, -2.0]), np.array([1.0, 1.0])),
               [np.array([1.0, 1.0]), np.array([-2.0, 2.0])],
               "at an exact multiple the gradient takes the right-hand branch: d/dy = "
               "-floor(x / y), as in PyTorch")],
   notes=_int_division_edges("floor_mod") | {
       "sign": "the result has the divisor's sign (Python's %, NumPy's mod, PyTorch's "
               "remainder, MindSpore's floor_mod); the sign of a zero result is NumPy's",
       "bool": "bool % bool is bool (NumPy's int8 result cast back, as floor_div; MindSpore "
               "and PyTorch refuse it)"})


def _pow_samples(dtype, rng, full):
    out = binary(domain=(0.3, 2.0), other=(-2.0, 2.0), int_domain=(-4, 4), other_int=(0, 3),
                 edges=False)(dtype, rng, full)
    e = specials(dtype)
    if dt.is_float(dtype):
        out.append(Sample(np.repeat(e, e.size), np.tile(e, e.size), label="edge grid",
                          smooth=False))
    elif dtype != dt.bool_:
        powers = np.array([0, 1, 2, 3], dtype)
        out.append(Sample(np.repeat(e, 4), np.tile(powers, e.size), label="edge grid",
                          smooth=False))
    return out


op("pow", ref=np.power, samples=_pow_samples, dtypes=NUMERIC, promotes=True,
   torch=_t("pow"), method="pow",
   errors=[ErrorCase(Sample(np.array([2, 3]), np.array([-1, 2])), ValueError, "pow(",
                     "an integer to a negative integer power")],
   torch_differs={"grad:edge grid": Differs(
       "at x <= 0 and at extreme operands the gradient follows its formula y * x**(y-1), "
       "log(x) taken as 0 where x <= 0, which gives other NaN / inf than PyTorch's special "
       "cases", lambda x, y: (x <= 0) | extreme(x, y))},
   notes={"integers": "an integer to a negative integer power raises ValueError (NumPy); "
                      "PyTorch raises too",
          "bool": "refused, as in MindSpore and PyTorch",
          "gradient": "d/dy x**y = x**y log(x) with log(x) taken as 0 where x <= 0"})


def _tie_grads(half):
    return [np.array([half, 1.0, 0.0]), np.array([half, 0.0, 1.0])]


_MINMAX_NOTE = {"NaN": "NaN propagates (NumPy's maximum / minimum, PyTorch, MindSpore)",
                "bool": "maximum of bools is or, minimum and (MindSpore, NumPy, PyTorch)",
                "ties": "at a tie each operand gets half the gradient (MindSpore, PyTorch)"}
op("maximum", ref=np.maximum, samples=binary(), torch=_t("maximum"), method="maximum",
   dtypes=ALL, promotes=True, notes=_MINMAX_NOTE, signed_zeros=False, torch_differs={
       "grad:edge grid": Differs("ties of NaN (no tie: NaN != NaN) get the whole gradient "
                                 "on the second operand; PyTorch splits it",
                                 lambda x, y: np.isnan(x) | np.isnan(y))},
   kinks=[Kink(Sample(np.array([1.0, 2.0, -1.0]), np.array([1.0, 0.0, 3.0])),
               _tie_grads(0.5), "a tie splits the gradient evenly (MindSpore, PyTorch)")])
op("minimum", ref=np.minimum, samples=binary(), torch=_t("minimum"), method="minimum",
   dtypes=ALL, promotes=True, notes=_MINMAX_NOTE, signed_zeros=False, torch_differs={
       "grad:edge grid": Differs("ties of NaN (no tie: NaN != NaN) get the whole gradient "
                                 "on the second operand; PyTorch splits it",
                                 lambda x, y: np.isnan(x) | np.isnan(y))},
   kinks=[Kink(Sample(np.array([1.0, -2.0, 4.0]), np.array([1.0, 0.0, 3.0])),
               _tie_grads(0.5), "a tie splits the gradient evenly (MindSpore, PyTorch)")])
op("atan2", ref=np.arctan2, samples=binary(other=(0.3, 2.0)), result=float_result, dtypes=ALL,
   promotes=True, torch=_t("atan2"), aliases=("arctan2",),
   torch_differs={"grad:edge grid": _EXTREME_GRADS},
   notes={"dtypes": "bool and integers compute in float32, as in PyTorch (MindSpore 2.10's CPU "
                    "kernel rejects them)"})

# ---- comparisons and logic: bool results ---------------------------------------------------

for _name, _ref, _aliases, _torch in (
        ("eq", np.equal, ("equal",), "eq"), ("ne", np.not_equal, ("not_equal",), "ne"),
        ("lt", np.less, ("less",), "lt"), ("le", np.less_equal, ("less_equal",), "le"),
        ("gt", np.greater, ("greater",), "gt"), ("ge", np.greater_equal, ("greater_equal",), "ge")):
    op(_name, ref=_ref, samples=binary(), dtypes=ALL, result=bool_result, promotes=True,
       aliases=_aliases, torch=_t(_torch), grad=False)

for _name in ("logical_and", "logical_or", "logical_xor"):
    op(_name, ref=getattr(np, _name), samples=binary(), dtypes=ALL, result=bool_result,
       promotes=True, torch=_t(_name), grad=False, method=None if _name == "logical_xor" else _name)

for _name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    op(_name, ref=getattr(np, _name), samples=binary(int_domain=(-100, 100)), dtypes=BOOL + INTS,
       promotes=True, torch=_t(_name), grad=False,
       notes={"dtypes": "bool operands give the logical op; floats are refused"})


# ---- three operands ----------------------------------------------------------------------

def _where_args(dtype, rng, shapes):
    c, x, y = shapes
    return rng.random(c) < 0.5, random(rng, x, dtype), random(rng, y, dtype)


def _ternary(make_args, edges=None):
    def make(dtype, rng, full):
        shapes = [((3, 4),) * 3, ((3, 1), (1, 4), ()), ((0,),) * 3, ((2, 0), (1, 0), ())]
        if full:
            shapes.append(((2, 1, 4), (3, 1), (1, 3, 4)))
        out = [Sample(*make_args(dtype, rng, s), label=f"shapes {s}") for s in shapes]
        return out + (edges(dtype, rng) if edges else [])
    return make


def _where_edges(dtype, rng):
    e = specials(dtype)
    return [Sample(rng.random(e.size) < 0.5, e, e[::-1].copy(), label="edge", smooth=False)]


op("where", ref=np.where, samples=_ternary(_where_args, _where_edges), dtypes=ALL,
   result=lambda c, x, y: same(x, y), nondiff=(0,), torch=_t("where"),
   notes={"condition": "a non-bool condition is compared with 0 (x != 0), as PyTorch's "
                       "`where` on a bool cast"})


def _clamp_samples(dtype, rng, full):
    lo, hi = ((-1, 1) if dt.is_float(dtype) else (1, 3))
    cast = (float if dt.is_float(dtype) else int)
    out = [Sample(random(rng, (3, 4), dtype, -3, 3), cast(lo), cast(hi), label="scalar bounds"),
           Sample(random(rng, (3, 4), dtype, -3, 3), None, cast(hi), label="upper only"),
           Sample(random(rng, (3, 4), dtype, -3, 3), cast(lo), None, label="lower only"),
           Sample(random(rng, (3, 4), dtype, -3, 3), random(rng, (3, 1), dtype, -2, 0),
                  random(rng, (4,), dtype, 0, 2), label="tensor bounds"),
           Sample(np.zeros((2, 0), dtype), cast(lo), cast(hi), label="empty"),
           Sample(specials(dtype), cast(lo), cast(hi), label="edge", smooth=False)]
    return out


def _clamp_ref(x, lo, hi):
    if lo is not None:
        x = np.where(x < lo, lo, x)
    if hi is not None:
        x = np.where(x > hi, hi, x)
    return x


def _clamp_result(x, *bounds):
    return same(x, *bounds)


op("clamp", ref=_clamp_ref, samples=_clamp_samples, dtypes=NUMERIC, result=_clamp_result,
   aliases=("clip", "clip_by_value"), method="clamp",
   torch=lambda torch, x, lo, hi: torch.clamp(x, lo, hi), torch_differs={"grad:edge": Differs(
       "at a NaN input the gradient passes to the input (NaN is neither below min nor above "
       "max); PyTorch gives 0", lambda x, *bounds: np.isnan(x))},
   kinks=[Kink(Sample(np.array([-1.0, 0.0, 1.0, 2.0]), -1.0, 1.0),
               [np.array([1.0, 1.0, 1.0, 0.0])],
               "at a bound the gradient passes to the input (MindSpore, PyTorch)")],
   notes={"bounds": "x < min gives min and x > max gives max, so NaN inputs stay NaN; "
                    "with min > max the result is max (PyTorch's rule)",
          "bool": "refused, as in MindSpore and PyTorch"})


def _lerp_args(dtype, rng, shapes):
    a, b, w = shapes
    return random(rng, a, dtype), random(rng, b, dtype), random(rng, w, dtype, 0, 1)


op("lerp", ref=lambda a, b, w: a + (b - a) * w, samples=_ternary(_lerp_args), dtypes=FLOATS,
   prims=(), method="lerp", torch=_t("lerp"), promotes=False)


def _isclose_samples(dtype, rng, full):
    out = binary()(dtype, rng, full)
    x = random(rng, (3, 4), dtype)
    out.append(Sample(x, x, label="equal"))
    out.append(Sample(x, random(rng, (3, 4), dtype), rtol=0.5, atol=0.5, label="loose"))
    if dt.is_float(dtype):
        e = specials(dtype)
        out.append(Sample(e, e, equal_nan=True, label="edge equal_nan", smooth=False))
    return out


op("isclose", ref=lambda x, y, rtol=1e-5, atol=1e-8, equal_nan=False: np.isclose(
    x, y, rtol=rtol, atol=atol, equal_nan=equal_nan), samples=_isclose_samples,
   dtypes=ALL, result=bool_result, prims=(), grad=False,
   torch=lambda torch, x, y, **kw: torch.isclose(x, y, **kw),
   notes={"integers": "bool and integers compare in float64, as in NumPy (so x - y cannot "
                      "wrap)"})


# ---- special_math.py: two-operand math ------------------------------------------------------

FLOAT_MATH = dict(dtypes=ALL, result=float_result, promotes=True)
_FLOAT_NOTE = {"dtypes": "bool and integers compute in float32 (MindSpore 2.10's CPU kernels "
                         "take floats only)"}
op("hypot", ref=np.hypot, samples=binary(), method="hypot", torch=_t("hypot"),
   torch_differs={"grad:edge grid": _EXTREME_GRADS}, notes=_FLOAT_NOTE, **FLOAT_MATH)
op("logaddexp", ref=np.logaddexp, samples=binary((-5, 5), (-5, 5)), method="logaddexp",
   ms_differs={"value:edge grid": "log(e**inf + e**inf) is inf (NumPy, PyTorch); MindSpore "
                                  "2.10 gives NaN (inf - inf inside its formula)"},
   torch=_t("logaddexp"), torch_differs={"grad:edge grid": _EXTREME_GRADS}, notes=_FLOAT_NOTE,
   **FLOAT_MATH)
op("logaddexp2", ref=np.logaddexp2, samples=binary((-5, 5), (-5, 5)), method="logaddexp2",
   ms_differs={"value:edge grid": "log(e**inf + e**inf) is inf (NumPy, PyTorch); MindSpore "
                                  "2.10 gives NaN (inf - inf inside its formula)"},
   torch=_t("logaddexp2"), torch_differs={"grad:edge grid": _EXTREME_GRADS},
   notes=_FLOAT_NOTE, **FLOAT_MATH)


def _nan_ignoring(pick):
    return lambda x, y: np.where(np.isnan(y), x, np.where(np.isnan(x), y, pick(x, y)))


for _name, _pick in (("fmax", np.maximum), ("fmin", np.minimum)):
    op(_name, ref=_nan_ignoring(_pick), prims=(), samples=binary(), method=_name,
       torch=_t(_name), signed_zeros=False, **ARITH, torch_differs={
           "grad:edge grid": Differs("ties and NaN: at a tie each operand gets half the "
                                     "gradient (as maximum / minimum), PyTorch gives it to "
                                     "one", lambda x, y: (x == y) | np.isnan(x) | np.isnan(y))},
       notes={"NaN": "NaN loses: the other operand is the result (NaN only where both are)",
              "bool": "refused (MindSpore and PyTorch refuse it too)"})


def _trunc_div(x, y):
    """C's truncated division, written out: floor division moved toward zero."""
    with np.errstate(all="ignore"):
        if dt.is_float(x.dtype):
            return np.trunc(x / y)
        q = np.floor_divide(x, y)
        return q + ((np.remainder(x, y) != 0) & ((x < 0) != (y < 0))).astype(q.dtype)


op("fmod", ref=lambda x, y: np.fmod(x, y), samples=binary(other=(0.5, 3.0), other_int=(1, 4)),
   aliases=("truncate_mod",), method="fmod", torch=_t("fmod"), signed_zeros=False,
   ms_differs={"value:edge grid": "fmod(x, +-inf) is x for finite x (C, NumPy, PyTorch); "
                                  "MindSpore 2.10 gives NaN"},
   torch_differs={"value:edge grid": _MOD_EDGES, "grad:edge grid": _EXTREME_GRADS}, **ARITH,
   kinks=[Kink(Sample(np.array([3.0, -3.0]), np.array([2.0, 2.0])),
               [np.array([1.0, 1.0]), np.array([-1.0, 1.0])],
               "d/dy fmod(x, y) = -trunc(x / y), as in PyTorch")],
   notes=_int_division_edges("fmod") | {
       "sign": "the result has the dividend's sign (C's fmod, PyTorch's fmod, MindSpore's "
               "fmod / truncate_mod)", "bool": "refused (MindSpore returns bool)"})
op("truncate_div", ref=_trunc_div, samples=binary(other=(0.5, 3.0), other_int=(1, 4)),
   grad=False, torch=lambda torch, x, y: torch.div(x, y, rounding_mode="trunc"),
   ms_differs={"value:edge grid": "NaN / 0 is NaN; MindSpore 2.10's CPU kernel gives -inf"},
   signed_zeros=False, torch_differs={"value:edge grid": _MOD_EDGES}, **ARITH,
   notes=_int_division_edges("truncate_div") | {"bool": "refused, as in MindSpore"})
op("copysign", ref=np.copysign, samples=binary(), method="copysign", torch=_t("copysign"),
   ms_differs={"value:edge grid": "the sign of -0.0 counts (C, NumPy, PyTorch): "
                                  "copysign(1, -0.0) is -1; MindSpore 2.10 gives 1"},
   dtypes=NUMERIC, result=float_result, promotes=True,
   torch_differs={"grad:edge grid": _EXTREME_GRADS},
   kinks=[Kink(Sample(np.array([0.0, 2.0]), np.array([-1.0, -1.0])),
               [np.array([0.0, -1.0]), np.array([0.0, 0.0])],
               "the gradient for x is sign(x) sign(result): 0 at x = 0 (PyTorch too)")],
   notes={"dtypes": "integers compute in float32 (MindSpore, PyTorch); bool is refused "
                    "(MindSpore)"})


def _heaviside_ref(x, values):
    step = np.where(x > 0, np.ones_like(values), np.zeros_like(values))
    return np.where(x == 0, values, step).astype(np.result_type(x, values))


op("heaviside", ref=_heaviside_ref, prims=(), samples=binary(), method="heaviside",
   torch=_t("heaviside"), grad=False, **ARITH,
   ms_differs={"value:edge grid": "a subnormal input is positive (1); MindSpore 2.10's CPU "
                                  "kernel reads it as 0 (values)"},
   notes={"NaN": "heaviside(NaN) is 0 (MindSpore and PyTorch; NumPy gives NaN)",
          "bool": "refused, as in MindSpore and PyTorch"})
for _name in ("gcd", "lcm"):
    op(_name, ref=getattr(np, _name), samples=binary(int_domain=(-30, 30)), dtypes=INTS,
       promotes=True, method=_name, torch=_t(_name), grad=False,
       notes={"dtypes": "every integer dtype (MindSpore 2.10's CPU kernels: int32 / int64, "
                        "and int16 for gcd); floats and bool are refused"})


_SHIFT_EDGES = Differs("a shift by a negative count or by the width or more gives NumPy's "
                       "0 / -1; PyTorch's kernel leaves it to the hardware",
                       lambda x, y: (y < 0) | (y >= 8 * np.asarray(x).dtype.itemsize))
op("bitwise_left_shift", prims=("left_shift",), ref=np.left_shift,
   samples=binary(int_domain=(-20, 20), other_int=(0, 6)), dtypes=INTS, promotes=True,
   method="bitwise_left_shift", torch=_t("bitwise_left_shift"), grad=False,
   torch_differs={"value:edge grid": _SHIFT_EDGES},
   notes={"count": _SHIFT_EDGES.why, "dtypes": "integers only; floats and bool are refused"})
op("bitwise_right_shift", prims=("right_shift",), ref=np.right_shift,
   samples=binary(int_domain=(-20, 20), other_int=(0, 6)), dtypes=INTS, promotes=True,
   method="bitwise_right_shift", torch=_t("bitwise_right_shift"), grad=False,
   torch_differs={"value:edge grid": _SHIFT_EDGES},
   notes={"count": _SHIFT_EDGES.why, "dtypes": "integers only; floats and bool are refused"})


def _igamma(upper):
    def ref(a, x):
        from scipy import special
        return (special.gammaincc if upper else special.gammainc)(a, x)
    return ref


for _name, _upper, _torch in (("igamma", False, "igamma"), ("igammac", True, "igammac")):
    op(_name, ref=_igamma(_upper), samples=binary((0.3, 4.0), (0.1, 5.0)), method=_name,
       torch=_t(_torch), nondiff=(0,), torch_grad=False, notes=_FLOAT_NOTE | {
           "gradient": "for the second operand (x) only; MindSpore's gradient for a is "
                       "Ascend-only, PyTorch has none"},
       torch_differs={"value:edge grid": Differs(
           "at a <= 0, x < 0 and non-finite operands SciPy gives NaN / its limits where "
           "PyTorch gives other values", lambda a, x: (a <= 0) | (x < 0) | extreme(a, x))},
       ms_differs={"value:edge grid": "at a = inf or x = inf and at NaN operands SciPy's "
                                      "limits (0 / 1, NaN) differ from MindSpore 2.10's"},
       **FLOAT_MATH)


def _nextafter_samples(dtype, rng, full):
    out = binary()(dtype, rng, full)
    if dtype == dt.float16:        # promotion (the table's promotion check is float64's)
        out.append(Sample(random(rng, (3, 4), dtype), random(rng, (3, 4), dt.float32),
                          label="float16 with float32"))
    return out


op("nextafter", ref=np.nextafter, samples=_nextafter_samples, dtypes=(dt.float16, dt.float32,
                                                                      dt.float64),
   method="nextafter", torch=_t("nextafter"), grad=False,
   ms_differs={"value:edge grid": "nextafter(max, inf) is inf (C, NumPy); MindSpore 2.10 "
                                  "gives max",
               "value:broadcast (3, 1)x(1, 4)": "MindSpore 2.10's CPU kernel does not "
                                                "broadcast (wrong values); NumPy's rule here",
               "value:broadcast ()x(2, 3)": "MindSpore 2.10's CPU kernel does not broadcast "
                                            "(wrong values); NumPy's rule here"},
   check=lambda entry, sample, got: _nextafter_check(sample, got),
   notes={"dtypes": "float16 / float32 / float64 (MindSpore: float32 / float64); bfloat16 "
                    "is refused; mixed dtypes promote (checked exactly in the promoted "
                    "dtype by the entry's own check)"})


def _nextafter_check(sample, got):
    """Exact, in the operands' own dtype (a float64 reference would step by float64's ulp)."""
    x, y = sample.leaves()
    d = np.result_type(x, y)
    want = np.nextafter(x.astype(d), y.astype(d))
    return compare(got[0], want, d, 0.0, 0.0)


def _ldexp_ref(x, y):
    return x * np.exp2(y)


op("ldexp", ref=_ldexp_ref, prims=(), samples=binary(other=(-4, 4)), method="ldexp",
   torch=lambda torch, x, y: torch.ldexp(x, y), notes=_FLOAT_NOTE, ref_differs={
       "edge grid": Differs("2**y overflows float32 for y > 127 before the product (0 * inf "
                            "is NaN), as in MindSpore's formula", lambda x, y: y > 127)},
   torch_differs={"grad:edge grid": _EXTREME_GRADS,
                  "value:edge grid": Differs("x * 2**y rounds 2**y first (MindSpore's formula)",
                                             extreme)}, **FLOAT_MATH)


def _float_power_samples(dtype, rng, full):
    out = binary(domain=(0.3, 2.0), other=(-2.0, 2.0), int_domain=(1, 4),
                 other_int=(0, 3))(dtype, rng, full)
    return out + [Sample(random(rng, (3, 4), dtype, 1, 3), 2, label="number exponent")]


op("float_power", ref=lambda x, y: np.power(x, y), prims=(), samples=_float_power_samples,
   dtypes=ALL, result=lambda *d: dt.float64, method="float_power",
   torch=lambda torch, x, y: torch.float_power(x, y),
   torch_differs={"grad:edge grid": Differs(
       "at x <= 0 and extreme operands the gradient follows pow's formula",
       lambda x, y: (x <= 0) | extreme(x, y))},
   notes={"dtypes": "every dtype computes and returns float64 (MindSpore, PyTorch)"})


def _xlogy_ref(x, y):
    from scipy import special
    return special.xlogy(x, y)


def _xdivy_ref(x, y):
    with np.errstate(all="ignore"):
        return np.where(x == 0, 0.0, x / y)


op("xlogy", ref=_xlogy_ref, prims=(), samples=binary(other=(0.2, 3.0)), method="xlogy",
   ms_differs={"value:edge grid": "xlogy(0, y) is 0 for every y but NaN (SciPy, PyTorch); "
                                  "MindSpore 2.10 gives NaN for y <= 0 and +-inf"},
   torch=_t("xlogy"), torch_differs={"grad:edge grid": _EXTREME_GRADS},
   notes=_FLOAT_NOTE | {"zero": "xlogy(0, y) is 0 for every y but NaN (SciPy, PyTorch); "
                                "MindSpore 2.10's CPU kernel gives NaN for xlogy(0, 0)"},
   **FLOAT_MATH)
op("xdivy", ref=_xdivy_ref, prims=(), samples=binary(other=(0.5, 3.0)), method="xdivy",
   torch=None, notes=_FLOAT_NOTE | {"zero": "xdivy(0, y) is 0 for every y, NaN included "
                                             "(MindSpore)"}, **FLOAT_MATH)


def _approx_samples(dtype, rng, full):
    out = binary()(dtype, rng, full)
    x = random(rng, (3, 4), dtype)
    return out + [Sample(x, x, label="equal"),
                  Sample(x, random(rng, (3, 4), dtype), tolerance=0.5, label="tolerance 0.5")]


op("approximate_equal", ref=lambda x, y, tolerance=1e-5: np.abs(x - y) < tolerance,
   prims=(), samples=_approx_samples, dtypes=FLOATS, result=bool_result, promotes=True,
   method="approximate_equal", grad=False,
   notes={"dtypes": "floats only (TypeError otherwise), as in MindSpore"})
