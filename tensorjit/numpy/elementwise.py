"""Elementwise math of mindspore.numpy: one table of name -> computation.

Each row is ``tensorjit.ops``'s op of that name (one implementation per op) or, where
MindSpore's semantics differ from it or ops lacks the op, a composition of ops; either
way it runs under ``jit`` and differentiates. Float functions of integer or bool tensors
compute in float32 (mindspore.numpy's default float); where MindSpore's CPU kernels raise
a TypeError instead (``exp``, ``log``, ``logaddexp`` of int32), the docstring says so.
"""
import math

import numpy as np

from .. import dtype as dt
from .. import ops
from ..tensor import Tensor
from ._common import both, float_of, make_function, promote, to_tensor, with_dtype

_LN2 = math.log(2.0)


def _tensor(x):
    return x if isinstance(x, Tensor) else to_tensor(x)


def _float_op(name):
    """``tensorjit.ops.<name>`` on float inputs (integer tensors as float32)."""
    def compute(x):
        return getattr(ops, name)(float_of(x))
    return compute


def _float_op2(name):
    """The binary ``tensorjit.ops.<name>`` on float inputs (integers as float32)."""
    def compute(a, b):
        return getattr(ops, name)(*promote(float_of(a), b))
    return compute


# ---- compositions for names whose MindSpore semantics tensorjit.ops does not have (an
# integer result for exp2 / copysign / reciprocal / power, x2 at nan for heaviside,
# float32 for float_power) or which it lacks (cbrt, signbit, rint of integers)

def _trunc(x):
    return x if not dt.is_float(x.dtype) else ops.where(x < 0, ops.ceil(x), ops.floor(x))


def _signbit(x):
    if not dt.is_float(x.dtype):
        return x < 0 if x.dtype.kind == "i" else ops.zeros_like(x) != 0
    # -0.0 has its sign bit set too: atan2(-0.0, -1) is -pi, atan2(0.0, -1) is pi
    return ops.logical_or(x < 0, ops.logical_and(x == 0, ops.atan2(x, -ops.ones_like(x)) < 0))


def _cbrt(x):
    x = float_of(x)
    a = ops.abs(x)
    root = ops.pow(a, 1.0 / 3.0)
    # one Newton step: pow(a, 1/3) is a rounding off (cbrt(27) = 3.0000002 in float32)
    refine = ops.logical_and(root != 0, ops.isfinite(root))
    safe = ops.where(refine, root, ops.ones_like(root))
    root = ops.where(refine, safe - (safe * safe * safe - a) / (3 * safe * safe), root)
    return ops.where(x < 0, -root, root)


def _exp2(x):
    if dt.is_float(x.dtype):
        return ops.exp(x * _LN2)
    # MindSpore keeps an integer tensor's dtype (2 ** x)
    return ops.cast(ops.round(ops.exp(ops.cast(x, dt.float64) * _LN2)), x.dtype)


def _copysign(a, b):
    a, b = promote(_tensor(a), b)
    magnitude = ops.abs(a)
    return ops.where(_signbit(b), -magnitude, magnitude)


def _heaviside(x1, x2):
    x1, x2 = promote(_tensor(x1), x2)
    return ops.where(x1 < 0, ops.zeros_like(x1), ops.where(x1 > 0, ops.ones_like(x1), x2))


def _float_power(a, b):
    a, b = promote(float_of(_tensor(a)), b)
    return ops.pow(a, b)


def _power(a, b):
    a, b = promote(_tensor(a), b)
    if not dt.is_int(a.dtype):
        return ops.pow(a, b)
    # integer ** negative integer: MindSpore truncates the float result (2 ** -1 is 0)
    negative = b < 0
    whole = ops.pow(a, ops.where(negative, ops.zeros_like(b), b))
    fraction = ops.pow(ops.cast(a, dt.float64), ops.cast(b, dt.float64))
    return ops.where(negative, ops.cast(_trunc(fraction), a.dtype), whole)


def _reciprocal(x):
    if dt.is_float(x.dtype):
        return ops.reciprocal(x)
    # integers stay integers, as in MindSpore: 1 // x rounded towards zero
    return ops.cast(_trunc(1.0 / ops.cast(x, dt.float64)), x.dtype)


def _invert(x):
    if x.dtype == dt.bool_:
        return ops.logical_not(x)
    if not dt.is_int(x.dtype):
        raise TypeError(f"invert: the input must be an integer or bool tensor, got {x.dtype}")
    all_ones = np.array(-1).astype(x.dtype) if x.dtype.kind == "i" else np.iinfo(x.dtype).max
    return ops.bitwise_xor(x, to_tensor(np.asarray(all_ones, x.dtype)))


def _positive(x):
    return ops.identity(x)


# name -> (computation on tensors, one-line summary, example inputs, the example's printed
# result, checked by tests/numpy/test_mnp_docs.py).
# Unary computations take a Tensor; binary ones a Tensor and a Tensor or number.
UNARY = {
    "absolute": (ops.abs, "Absolute value, elementwise.", "[-1.5, 2.0]",
        '[1.5 2. ]'),
    "abs": (ops.abs, "Absolute value, elementwise (the same as ``absolute``).", "[-1.5, 2.0]",
        '[1.5 2. ]'),
    "fabs": (lambda x: ops.abs(float_of(x)), "Absolute value as a float, elementwise.",
             "[-1.5, 2.0]",
        '[1.5 2. ]'),
    "negative": (ops.neg, "Numerical negative, elementwise.", "[1.0, -2.0]",
        '[-1.  2.]'),
    "positive": (_positive, "Numerical positive (a copy), elementwise.", "[1.0, -2.0]",
        '[ 1. -2.]'),
    "sign": (ops.sign, "-1, 0 or 1 by the sign of each element.", "[-2.0, 0.0, 3.0]",
        '[-1.  0.  1.]'),
    "signbit": (_signbit, "True where the sign bit is set (negative numbers and -0.0, as "
                "NumPy's; MindSpore's is False at -0.0).",
                "[-2.0, 0.0, 3.0]",
        '[ True False False]'),
    "sqrt": (lambda x: ops.sqrt(float_of(x)), "Square root, elementwise.", "[1.0, 4.0]",
        '[1. 2.]'),
    "square": (ops.square, "Square, elementwise.", "[1.0, -3.0]",
        '[1. 9.]'),
    "cbrt": (_cbrt, "Cube root, elementwise (negative inputs give negative roots).",
             "[8.0, -27.0]",
        '[ 2. -3.]'),
    "reciprocal": (_reciprocal, "1 / x, elementwise (integer tensors stay integer).",
                   "[1.0, 4.0]",
        '[1.   0.25]'),
    "exp": (lambda x: ops.exp(float_of(x)), "e ** x, elementwise.", "[0.0, 1.0]",
        '[1.       2.718282]'),
    "expm1": (lambda x: ops.expm1(float_of(x)), "e ** x - 1, elementwise (precise near 0).",
              "[0.0, 1e-5]",
        '[0.000000e+00 1.000005e-05]'),
    "exp2": (_exp2, "2 ** x, elementwise (integer tensors stay integer, as in MindSpore).",
             "[1.0, 3.0]",
        '[2. 8.]'),
    "log": (lambda x: ops.log(float_of(x)), "Natural logarithm, elementwise.", "[1.0, 2.0]",
        '[0.        0.6931472]'),
    "log2": (_float_op("log2"), "Base-2 logarithm, elementwise.", "[1.0, 8.0]",
        '[0. 3.]'),
    "log10": (_float_op("log10"), "Base-10 logarithm, elementwise.", "[1.0, 100.0]",
        '[0. 2.]'),
    "log1p": (lambda x: ops.log1p(float_of(x)), "log(1 + x), elementwise (precise near 0).",
              "[0.0, 1e-5]",
        '[0.00000e+00 9.99995e-06]'),
    "sin": (lambda x: ops.sin(float_of(x)), "Sine, elementwise.", "[0.0, 1.0]",
        '[0.       0.841471]'),
    "cos": (lambda x: ops.cos(float_of(x)), "Cosine, elementwise.", "[0.0, 1.0]",
        '[1.        0.5403023]'),
    "tan": (lambda x: ops.tan(float_of(x)), "Tangent, elementwise.", "[0.0, 1.0]",
        '[0.        1.5574077]'),
    "arcsin": (_float_op("arcsin"), "Inverse sine, elementwise (nan outside [-1, 1]).",
               "[0.0, 0.5]",
        '[0.        0.5235988]'),
    "arccos": (_float_op("arccos"), "Inverse cosine, elementwise (nan outside [-1, 1]).",
               "[0.0, 0.5]",
        '[1.5707964 1.0471976]'),
    "arctan": (lambda x: ops.atan(float_of(x)), "Inverse tangent, elementwise.", "[0.0, 1.0]",
        '[0.        0.7853982]'),
    "sinh": (_float_op("sinh"), "Hyperbolic sine, elementwise.", "[0.0, 1.0]",
        '[0.        1.1752012]'),
    "cosh": (_float_op("cosh"), "Hyperbolic cosine, elementwise.", "[0.0, 1.0]",
        '[1.        1.5430807]'),
    "tanh": (lambda x: ops.tanh(float_of(x)), "Hyperbolic tangent, elementwise.", "[0.0, 1.0]",
        '[0.        0.7615942]'),
    "arcsinh": (_float_op("arcsinh"), "Inverse hyperbolic sine, elementwise.", "[0.0, 1.0]",
        '[0.        0.8813736]'),
    "arccosh": (_float_op("arccosh"), "Inverse hyperbolic cosine, elementwise (nan below 1).",
                "[1.0, 2.0]",
        '[0.       1.316958]'),
    "arctanh": (_float_op("arctanh"),
                "Inverse hyperbolic tangent, elementwise (nan outside [-1, 1]).",
                "[0.0, 0.5]",
        '[0.         0.54930615]'),
    "deg2rad": (_float_op("deg2rad"), "Degrees to radians, elementwise.",
                "[90.0, 180.0]",
        '[1.5707964 3.1415927]'),
    "radians": (_float_op("deg2rad"),
                "Degrees to radians, elementwise (the same as ``deg2rad``).", "[90.0, 180.0]",
        '[1.5707964 3.1415927]'),
    "rad2deg": (_float_op("rad2deg"), "Radians to degrees, elementwise.",
                "[1.0, 3.0]",
        '[ 57.29578 171.88734]'),
    "floor": (lambda x: ops.floor(float_of(x)), "Largest integer not above x, elementwise.",
              "[-1.5, 1.5]",
        '[-2.  1.]'),
    "ceil": (lambda x: ops.ceil(float_of(x)), "Smallest integer not below x, elementwise.",
             "[-1.5, 1.5]",
        '[-1.  2.]'),
    "trunc": (_float_op("trunc"), "x rounded towards zero, elementwise.", "[-1.5, 1.5]",
        '[-1.  1.]'),
    "rint": (lambda x: ops.round(float_of(x)),
             "x rounded to the nearest integer (halves to even), elementwise.",
             "[0.5, 1.5, 2.5]",
        '[0. 2. 2.]'),
    "isfinite": (ops.isfinite, "True where x is neither infinite nor nan.",
                 "[1.0, float('inf'), float('nan')]",
        '[ True False False]'),
    "isinf": (ops.isinf, "True where x is +inf or -inf.", "[1.0, float('inf'), -float('inf')]",
        '[False  True  True]'),
    "isnan": (ops.isnan, "True where x is nan.", "[1.0, float('nan')]",
        '[False  True]'),
    "isposinf": (lambda x: x == float("inf") if dt.is_float(x.dtype) else ops.zeros_like(x) != 0,
                 "True where x is +inf.", "[1.0, float('inf'), -float('inf')]",
        '[False  True False]'),
    "isneginf": (lambda x: x == float("-inf") if dt.is_float(x.dtype) else ops.zeros_like(x) != 0,
                 "True where x is -inf.", "[1.0, float('inf'), -float('inf')]",
        '[False False  True]'),
    "logical_not": (ops.logical_not, "Logical NOT, elementwise (a bool tensor).", "[True, False]",
        '[False  True]'),
    "invert": (_invert, "Bitwise NOT of integers (logical NOT of bools), elementwise.",
               "[1, -2]",
        '[-2  1]'),
    "bitwise_not": (_invert, "Bitwise NOT (the same as ``invert``), elementwise.", "[1, -2]",
        '[-2  1]'),
}

BINARY = {
    "add": (ops.add, "x1 + x2, elementwise with broadcasting.", "[1, 2], 3",
        '[4 5]'),
    "subtract": (ops.sub, "x1 - x2, elementwise with broadcasting.", "[1, 2], 3",
        '[-2 -1]'),
    "multiply": (ops.mul, "x1 * x2, elementwise with broadcasting.", "[1, 2], 3",
        '[3 6]'),
    "divide": (ops.div, "True division x1 / x2 (integers give float32).", "[1, 2], 4",
        '[0.25 0.5 ]'),
    "true_divide": (ops.div, "True division x1 / x2 (the same as ``divide``).", "[1, 2], 4",
        '[0.25 0.5 ]'),
    "floor_divide": (ops.floor_div, "Floor division x1 // x2, elementwise.", "[5, -5], 2",
        '[ 2 -3]'),
    "remainder": (ops.floor_mod, "Remainder of floor division (the divisor's sign).",
                  "[5, -5], 3",
        '[2 1]'),
    "mod": (ops.floor_mod, "Remainder of floor division (the same as ``remainder``).",
            "[5, -5], 3",
        '[2 1]'),
    "fmod": (ops.fmod, "Remainder of truncated division (the dividend's sign).", "[5, -5], 3",
        '[ 2 -2]'),
    "power": (_power, "x1 ** x2, elementwise (integer ** negative integer truncates).",
              "[2, 3], 2",
        '[4 9]'),
    "float_power": (_float_power, "x1 ** x2 in floating point (float32 for integers, as "
                    "MindSpore; NumPy uses float64).", "[2, 3], 2",
        '[4. 9.]'),
    "maximum": (ops.maximum, "Larger of two values, elementwise (nan wins).", "[1, 5], 3",
        '[3 5]'),
    "minimum": (ops.minimum, "Smaller of two values, elementwise (nan wins).", "[1, 5], 3",
        '[1 3]'),
    "arctan2": (lambda a, b: ops.atan2(*promote(float_of(_tensor(a)), b)),
                "Angle of the point (x2, x1) in radians, elementwise.", "[1.0, -1.0], 1.0",
                '[ 0.7853981 -0.7853981]'),
    "hypot": (_float_op2("hypot"), "sqrt(x1 ** 2 + x2 ** 2) without overflow, elementwise.",
              "[3.0, 5.0], 4.0",
        '[5.        6.4031243]'),
    "logaddexp": (_float_op2("logaddexp"), "log(exp(x1) + exp(x2)) without overflow, elementwise.",
                  "[1.0, 2.0], 1.0", '[1.6931472 2.3132617]'),
    "logaddexp2": (_float_op2("logaddexp2"),
                   "log2(2 ** x1 + 2 ** x2) without overflow, elementwise.",
                   "[1.0, 2.0], 1.0",
        '[2.        2.5849624]'),
    "copysign": (_copysign, "|x1| with the sign of x2 (-0.0 counts as negative, as NumPy's), "
                 "elementwise.", "[1.0, -2.0], -1.0",
        '[-1. -2.]'),
    "heaviside": (_heaviside, "Heaviside step: 0 below zero, 1 above, x2 at zero (and at "
                  "nan, as MindSpore's; NumPy gives nan).",
                  "[-1.0, 0.0, 2.0], 0.5",
        '[0.  0.5 1. ]'),
    "gcd": (ops.gcd, "Greatest common divisor of integers, elementwise.", "[4, 6], 4",
        '[4 2]'),
    "lcm": (ops.lcm, "Least common multiple of integers, elementwise.", "[4, 6], 4",
        '[ 4 12]'),
    "bitwise_and": (ops.bitwise_and, "Bitwise AND of integers or bools.", "[12, 10], 6",
        '[4 2]'),
    "bitwise_or": (ops.bitwise_or, "Bitwise OR of integers or bools.", "[12, 10], 6",
        '[14 14]'),
    "bitwise_xor": (ops.bitwise_xor, "Bitwise XOR of integers or bools.", "[12, 10], 6",
        '[10 12]'),
    "logical_and": (ops.logical_and, "Logical AND, elementwise (a bool tensor).",
                    "[True, False], True",
        '[ True False]'),
    "logical_or": (ops.logical_or, "Logical OR, elementwise (a bool tensor).",
                   "[True, False], False",
        '[ True False]'),
    "logical_xor": (ops.logical_xor, "Logical XOR, elementwise (a bool tensor).",
                    "[True, False], True",
        '[False  True]'),
    "equal": (ops.equal, "x1 == x2, elementwise (a bool tensor).", "[1, 2], 2",
        '[False  True]'),
    "not_equal": (ops.not_equal, "x1 != x2, elementwise (a bool tensor).", "[1, 2], 2",
        '[ True False]'),
    "greater": (ops.greater, "x1 > x2, elementwise (a bool tensor).", "[1, 2], 1",
        '[False  True]'),
    "greater_equal": (ops.greater_equal, "x1 >= x2, elementwise (a bool tensor).", "[1, 2], 2",
        '[False  True]'),
    "less": (ops.less, "x1 < x2, elementwise (a bool tensor).", "[1, 2], 2",
        '[ True False]'),
    "less_equal": (ops.less_equal, "x1 <= x2, elementwise (a bool tensor).", "[1, 2], 1",
        '[ True False]'),
}

# MindSpore's CPU kernels refuse integer inputs for these (TypeError); here they compute
# in float32, as NumPy does
_INT_REFUSED_BY_MINDSPORE = {"exp", "log", "log2", "log1p", "logaddexp", "logaddexp2",
                             "positive", "fabs", "floor", "rint"}


def _doc(name, summary, example, printed, arity):
    args = ("x (Tensor, number or list): the input." if arity == 1 else
            "x1, x2 (Tensor, number or list): the inputs, broadcast together;\n    a Python "
            "int counts as an int32 tensor, a float as float32 (MindSpore's rule).")
    diff = ""
    if name in _INT_REFUSED_BY_MINDSPORE:
        diff = ("\n    Difference from MindSpore: integer inputs compute in float32 (MindSpore's "
                "CPU kernel\n    raises a TypeError).\n")
    first, _, rest = example.partition("], ")
    call = f"mnp.array({example})" if arity == 1 else f"mnp.array({first}]), {rest}"
    return (f"{summary}\n\n    mindspore.numpy.{name}: {args}\n    dtype (optional): the "
            f"result's dtype.\n{diff}\n    >>> import tensorjit.numpy as mnp\n"
            f"    >>> print(mnp.{name}({call}))\n    {printed}\n")


def _unary_function(name, compute, summary, example, printed):
    def function(x, dtype=None):
        return with_dtype(compute(to_tensor(x, name=name)), dtype)
    return make_function(name, function, _doc(name, summary, example, printed, 1))


def _binary_function(name, compute, summary, example, printed):
    def function(x1, x2, dtype=None):
        a, b = both(x1, x2, name)
        return with_dtype(compute(a, b), dtype)
    return make_function(name, function, _doc(name, summary, example, printed, 2))


FUNCTIONS = {}
for _name, _row in UNARY.items():
    FUNCTIONS[_name] = _unary_function(_name, *_row)
for _name, _row in BINARY.items():
    FUNCTIONS[_name] = _binary_function(_name, *_row)


def fix(x):
    """Round to the nearest integer towards zero; the result keeps a float dtype.

    mindspore.numpy.fix: x (Tensor, number or list). Integer inputs give float32, as in
    MindSpore.

    >>> import tensorjit.numpy as mnp
    >>> mnp.fix(mnp.array([-1.5, 1.5])).asnumpy().tolist()
    [-1.0, 1.0]
    """
    return _trunc(float_of(to_tensor(x, name="fix")))


def divmod(x1, x2, dtype=None):  # noqa: A001 (NumPy's name)
    """(floor_divide(x1, x2), remainder(x1, x2)), elementwise.

    mindspore.numpy.divmod: x1, x2 (Tensor, number or list) broadcast together; dtype
    (optional) casts both results.

    >>> import tensorjit.numpy as mnp
    >>> q, r = mnp.divmod(mnp.array([5, -5]), 3)
    >>> q.asnumpy().tolist(), r.asnumpy().tolist()
    ([1, -2], [2, 1])
    """
    return (FUNCTIONS["floor_divide"](x1, x2, dtype), FUNCTIONS["remainder"](x1, x2, dtype))


def clip(x, xmin, xmax, dtype=None):
    """``x`` limited to [xmin, xmax] (either may be None, not both), elementwise.

    mindspore.numpy.clip: xmin / xmax numbers or tensors broadcast with x; dtype
    (optional) of the result.

    >>> import tensorjit.numpy as mnp
    >>> mnp.clip(mnp.array([-1, 5, 9]), 0, 6).asnumpy().tolist()
    [0, 5, 6]
    """
    if xmin is None and xmax is None:
        raise ValueError("clip: xmin and xmax cannot both be None")
    x = to_tensor(x, name="clip")
    if xmin is not None:
        x = ops.maximum(*promote(x, to_tensor(xmin, name="clip")))
    if xmax is not None:
        x = ops.minimum(*promote(x, to_tensor(xmax, name="clip")))
    return with_dtype(x, dtype)
