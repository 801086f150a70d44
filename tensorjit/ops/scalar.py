"""Scalar rules: how one element of an elementwise primitive is computed.

A fused kernel (O1) runs a chain of elementwise primitives in one loop, one element at a
time. Each elementwise primitive declares in the registry how its element is computed, as
a Python expression over its operands' element values (names, already of the operands'
dtypes), in one of two forms:

  * a format string such as ``"{0} + {1}"`` or ``"exp({0})"``;
  * a function ``rule(s, *operands) -> str | None`` of a ``ScalarContext`` ``s`` (the
    output dtype, the operand dtypes, the node's params, typed literals, selects); None
    means "not for these dtypes" (the node then stays a NumPy call).

Expressions may use Python's arithmetic, comparison and bitwise operators, conditional
expressions, and the names in ``NAMES``: each function with NumPy's semantics for one
element (NaN, inf and signed zeros included), the dtype constructors and ``inf``/``nan``.
A backend that builds kernels binds every one of them (a test checks it), and may inspect
``calls(expression)`` to decide whether the functions an op needs are fast enough to fuse.
"""
import ast
import math

import numpy as np

# function -> what it computes (NumPy's semantics)
FUNCTIONS = {
    "exp": "e**x", "expm1": "e**x - 1", "log": "natural logarithm", "log1p": "log(1 + x)",
    "sqrt": "square root", "sin": "sine", "cos": "cosine", "tan": "tangent",
    "tanh": "hyperbolic tangent", "atan": "arc tangent", "atan2": "arc tangent of y/x",
    "erf": "error function", "pow": "x**y", "floor": "round down", "ceil": "round up",
    "rint": "round half to even", "abs": "absolute value", "isinf": "x is +-inf",
    "isfinite": "x is neither inf nor NaN",
    "acos": "arc cosine", "asin": "arc sine", "acosh": "inverse hyperbolic cosine",
    "asinh": "inverse hyperbolic sine", "atanh": "inverse hyperbolic tangent",
    "cosh": "hyperbolic cosine", "sinh": "hyperbolic sine", "log2": "base-2 logarithm",
    "log10": "base-10 logarithm", "exp2": "2**x", "erfc": "1 - erf(x)",
    "lgamma": "log |Gamma(x)|", "trunc": "round toward zero", "hypot": "sqrt(x*x + y*y)",
    "copysign": "|x| with the sign of y",
}
DTYPE_NAMES = ("bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float32", "float64")
CONSTANTS = ("inf", "nan")
NAMES = frozenset(FUNCTIONS) | frozenset(DTYPE_NAMES) | frozenset(CONSTANTS)


class ScalarContext:
    """What a scalar rule may use besides its operands. The text it produces is plain
    Python over the names in ``NAMES``."""

    def __init__(self, out_dtype, in_dtypes=(), params=None):
        self.dtype = np.dtype(out_dtype)
        self.in_dtypes = tuple(np.dtype(d) for d in in_dtypes)
        self.params = params or {}

    @property
    def is_float(self):
        return self.dtype.kind == "f"

    @property
    def is_bool(self):
        return self.dtype == np.bool_

    def lit(self, value, dtype=None):
        """A constant of ``dtype`` (default: the output dtype), exactly typed so it never
        widens the expression (float32 arithmetic stays float32)."""
        dtype = np.dtype(dtype or self.dtype)
        value = np.asarray(value).item()
        if dtype == np.bool_:
            return repr(bool(value))
        if isinstance(value, float) and not math.isfinite(value):
            text = "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
        else:
            text = repr(float(value) if dtype.kind == "f" else int(value))
        return f"{dtype.name}({text})"

    def constant(self, operand):
        """The value of an operand that is a literal (``lit``'s text), else None: rules may
        specialize on constant operands as NumPy does."""
        name, _, rest = operand.partition("(")
        if name not in DTYPE_NAMES or not rest.endswith(")"):
            return None
        try:
            return float(rest[:-1])
        except ValueError:
            return None

    def one(self):
        return self.lit(1) if self.is_float else "1"

    def zero(self):
        return self.lit(0) if self.is_float else "0"

    def call(self, function, *args):
        if function not in FUNCTIONS:
            raise ValueError(f"scalar rule: unknown function {function!r}; see "
                             f"tensorjit.ops.scalar.FUNCTIONS")
        return f"{function}({', '.join(args)})"

    def select(self, condition, if_true, if_false):
        """A branch-free choice (vectorizable)."""
        return f"({if_true} if {condition} else {if_false})"

    def maximum(self, a, b):
        """NumPy's maximum: NaN-propagating, and the second operand when they compare
        equal (np.maximum(-0.0, 0.0) is 0.0), as a select so loops vectorize."""
        return f"(({a} if {a} > {b} else {b}) if (({a} == {a}) & ({b} == {b})) else {a} + {b})"

    def minimum(self, a, b):
        return f"(({a} if {a} < {b} else {b}) if (({a} == {a}) & ({b} == {b})) else {a} + {b})"

    def cast(self, a, dtype):
        dtype = np.dtype(dtype)
        if dtype == np.bool_:
            return f"{a} != 0"
        return f"{dtype.name}({a})"


def expression(prim, operands, out_dtype, in_dtypes, params, context=ScalarContext):
    """The scalar expression of one node of ``prim``, or None if it has no rule (or none
    for these dtypes)."""
    rule = prim.scalar
    if rule is None:
        return None
    if isinstance(rule, str):
        return rule.format(*operands)
    return rule(context(out_dtype, in_dtypes, params), *operands)


def calls(expr):
    """The functions of ``FUNCTIONS`` an expression calls."""
    return {node.func.id for node in ast.walk(ast.parse(expr, mode="eval"))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in FUNCTIONS}


def names(expr):
    """Every free name an expression uses (operands and ``NAMES``)."""
    return {node.id for node in ast.walk(ast.parse(expr, mode="eval"))
            if isinstance(node, ast.Name)}
