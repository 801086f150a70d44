"""Table entries: elementwise ops of two or three operands -- arithmetic, min / max,
comparisons, logic, bitwise ops, ``where``, ``clamp``, ``lerp``, ``isclose``."""
import numpy as np

from tensorjit import dtype as dt

from .core import (op, Sample, Kink, Differs, ErrorCase, ALL, NUMERIC, INTS, BOOL, FLOATS,
                   float_result, bool_result, same)
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
   samples=binary(other=(0.5, 3.0), other_int=(1, 4)), aliases=("floordiv",), grad=False,
   torch=lambda torch, x, y: torch.floor_divide(x, y),
   torch_differs={"value:edge grid": _MOD_EDGES},
   notes=_int_division_edges("floor_div") | {
       "bool": "bool // bool is bool (NumPy's int8 result cast back; MindSpore gives bool)"})
op("floor_mod", prims=("mod",), ref=np.mod, samples=binary(other=(0.5, 3.0), other_int=(1, 4)),
   aliases=("mod", "remainder"), torch=lambda torch, x, y: torch.remainder(x, y),
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
