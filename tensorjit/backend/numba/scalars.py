"""How a kernel module spells the names scalar rules use (``ops/scalar.py``), and which of
them are scalar libm calls in Numba."""
from ...ops import scalar

# how the kernel module provides each name scalar rules may use (ops.scalar.NAMES)
SCALAR_BINDINGS = {
    "exp": "np.exp", "expm1": "np.expm1", "log": "np.log", "log1p": "np.log1p",
    "sqrt": "np.sqrt", "sin": "np.sin", "cos": "np.cos", "tan": "np.tan", "tanh": "np.tanh",
    "atan": "np.arctan", "atan2": "np.arctan2", "erf": "math.erf", "pow": "np.power",
    "floor": "np.floor", "ceil": "np.ceil", "rint": "np.rint", "abs": "np.abs",
    "isinf": "np.isinf", "isfinite": "np.isfinite", "inf": "np.inf", "nan": "np.nan",
    **{name: f"np.{name}" for name in scalar.DTYPE_NAMES},
}
# functions Numba compiles to scalar libm calls unless SVML is on
LIBM_CALLS = frozenset({"exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh", "atan",
                        "atan2", "erf", "pow"})
# the text of scalar rules is plain Python over those names: no spelling to change
NUMBA_SCALAR = scalar.ScalarContext
