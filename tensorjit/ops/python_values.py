"""MindSpore's ``ops`` helpers on Python values -- scalars, tuples, lists, dicts, slices --
and the few that turn them into tensors or back (``tuple_to_array``, ``eps``, ...).

In MindSpore these are graph-mode primitives for what Python syntax does (``x + y`` on two
ints is ``scalar_add``); several of them have no PyNative kernel there. Here Python runs
at capture time, so each is the Python operation it stands for: inside a jitted function
its result is a constant of the graph, and on tensors (``scalar_add(x, 2)``,
``augassign_add``) it is the tensor operator, which records graph nodes."""
import math
import operator

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import creation
from . import elementwise as E

__all__ = [
    "constexpr", "dtype", "typeof", "hastype", "isconstant", "is_", "is_not", "in_dict",
    "not_in_dict", "make_tuple", "make_list", "make_dict", "make_range", "make_slice",
    "list_getitem", "list_setitem", "list_len", "list_equal", "tuple_getitem", "tuple_setitem",
    "tuple_len", "tuple_equal", "tuple_reversed", "tuple_div", "dict_getitem", "dict_setitem",
    "scalar_add", "scalar_sub", "scalar_mul", "scalar_div", "scalar_floordiv", "scalar_mod",
    "scalar_pow", "scalar_eq", "scalar_ne", "scalar_lt", "scalar_le", "scalar_gt", "scalar_ge",
    "scalar_max", "scalar_min", "scalar_log", "scalar_uadd", "scalar_usub", "scalar_cast",
    "bool_and", "bool_or", "bool_not", "bool_eq", "augassign_add", "augassign_sub",
    "augassign_mul", "augassign_div", "augassign_floordiv", "augassign_mod", "shape_mul",
    "tuple_to_array", "scalar_to_array", "array_to_scalar", "eps", "tensor_range",
    "zip_operation", "tensor_add", "tensor_sub", "tensor_mul", "tensor_div", "tensor_floordiv",
    "tensor_mod", "tensor_pow", "tensor_exp", "tensor_expm1", "tensor_gt", "tensor_ge",
    "tensor_lt", "tensor_le"]

# the helpers whose inputs are Python values (or that only read a tensor's dtype / value):
# no tensor computation for the op table to compare, tests/core/test_python_value_ops.py
# checks them
TENSOR_OPS = ("eps", "tensor_range", "tensor_add", "tensor_sub", "tensor_mul", "tensor_div",
              "tensor_floordiv", "tensor_mod", "tensor_pow", "tensor_exp", "tensor_expm1",
              "tensor_gt", "tensor_ge", "tensor_lt", "tensor_le")
PYTHON_VALUE_HELPERS = tuple(n for n in __all__ if n not in TENSOR_OPS)

# MindSpore's older names of the elementwise ops (``F.tensor_add`` is ``ops.add``)
tensor_add, tensor_sub, tensor_mul, tensor_div = E.add, E.sub, E.mul, E.div
tensor_floordiv, tensor_mod, tensor_pow = E.floor_div, E.floor_mod, E.pow
tensor_exp, tensor_expm1 = E.exp, E.expm1
tensor_gt, tensor_ge, tensor_lt, tensor_le = E.gt, E.ge, E.lt, E.le


# ---- compile-time functions and types -------------------------------------------------------

def constexpr(fn=None, get_instance=True, name=None, reuse_result=True, check=True):
    """``@constexpr``: ``fn`` computed on Python values at compile time. Python runs at
    capture time here, so the decorated function is ``fn`` itself, called on the values it
    gets (an instance of an operator class wrapping it; the class with
    ``get_instance=False``)."""
    def decorate(fn):
        def call(self, *args, **kwargs):
            return fn(*args, **kwargs)
        op_class = type(name or fn.__name__, (), {
            "__call__": call, "__doc__": fn.__doc__, "__wrapped__": fn,
            "__repr__": lambda self: f"constexpr({fn.__name__})"})
        return op_class() if get_instance else op_class
    if fn is not None and not callable(fn):
        raise TypeError(f"constexpr: expected a function, got {type(fn).__name__}")
    return decorate(fn) if fn is not None else decorate


def dtype(input):
    """``ops.dtype``: a tensor's dtype (TypeError for anything else, as MindSpore)."""
    if not isinstance(input, Tensor):
        raise TypeError(f"dtype: the input must be a Tensor, got {type(input).__name__}")
    return input.dtype


# MindSpore's types of Python scalars: a float is float32 (``typeof(1.0)`` is Float32)
_SCALAR_DTYPES = ((bool, dt.bool_), (int, dt.int64), (float, dt.float32))


class MindSporeType:
    """What ``typeof`` gives: MindSpore's type of a value, printed as MindSpore prints it
    (``Tensor[Float32]``, ``Int64``, ``Tuple[Int64*2]``). Two are equal when they print the
    same; a scalar's type also equals its dtype (``typeof(1) == int64``)."""

    def __init__(self, text, element=None):
        self.text, self._element = text, element

    def element_type(self):
        """A tensor type's dtype (MindSpore's ``TensorType.element_type()``)."""
        if self._element is None:
            raise TypeError(f"{self.text} has no element type")
        return self._element

    def __eq__(self, other):
        if isinstance(other, MindSporeType):
            return self.text == other.text
        try:
            return self.text == dt.mindspore_name(other)
        except TypeError:
            return NotImplemented

    def __hash__(self):
        return hash(self.text)

    def __repr__(self):
        return self.text


def _type_text(x):
    if isinstance(x, Tensor):
        return f"Tensor[{dt.mindspore_name(x.dtype)}]"
    for kind, scalar_dtype in _SCALAR_DTYPES:
        if isinstance(x, kind):
            return dt.mindspore_name(scalar_dtype)
    if isinstance(x, (tuple, list)):
        items = [_type_text(item) for item in x]
        inner = (f"{items[0]}*{len(items)}" if len(items) > 1 and len(set(items)) == 1
                 else ",".join(items))
        return f"{'Tuple' if isinstance(x, tuple) else 'List'}[{inner}]"
    return {str: "String", type(None): "None", dict: "Dictionary", slice: "Slice"}.get(
        type(x), type(x).__name__)


def typeof(x):
    """``ops.typeof``: MindSpore's type of ``x`` (``Tensor[Float32]`` for a float32 tensor,
    ``Int64`` for a Python int, ``Tuple[Int64*2]``, ``List[Float32]``, ``String``)."""
    return MindSporeType(_type_text(x), x.dtype if isinstance(x, Tensor) else None)


def hastype(x, type_):
    """Whether ``x`` is of ``type_``: a class (``isinstance``) or a dtype (a tensor of that
    dtype, or a Python scalar whose MindSpore type it is: int64, float32, bool)."""
    if isinstance(type_, type):
        return isinstance(x, type_)
    want = dt.as_dtype(type_)
    if isinstance(x, Tensor):
        return x.dtype == want
    for kind, scalar_dtype in _SCALAR_DTYPES:
        if isinstance(x, kind):
            return scalar_dtype == want
    return False


def isconstant(x):
    """Whether ``x`` is known at compile time: every Python value here, and a tensor
    outside a graph (MindSpore's PyNative answer); a tensor a graph computes is not."""
    return not isinstance(x, Tensor) or x._var is None


# ---- identity and containers -----------------------------------------------------------------

is_, is_not = operator.is_, operator.is_not


def in_dict(key, dictionary):
    return key in dictionary


def not_in_dict(key, dictionary):
    return key not in dictionary


def make_tuple(*elements):
    return tuple(elements)


def make_list(*elements):
    return list(elements)


def make_dict(keys, values):
    """``dict(zip(keys, values))``; the two must have the same length."""
    if len(keys) != len(values):
        raise ValueError(f"make_dict: {len(keys)} keys for {len(values)} values")
    return dict(zip(keys, values))


def make_range(*bounds):
    """``tuple(range(*bounds))``: MindSpore's ``range`` in graphs is a tuple of ints."""
    if not 1 <= len(bounds) <= 3:
        raise TypeError(f"make_range: expected 1 to 3 ints, got {len(bounds)}")
    if any(isinstance(b, bool) or not isinstance(b, int) for b in bounds):
        raise TypeError(f"make_range: the bounds must be ints, got {bounds}")
    if len(bounds) == 3 and bounds[2] == 0:
        raise ValueError("make_range: step must not be zero")
    return tuple(range(*bounds))


def make_slice(start, stop, step):
    return slice(start, stop, step)


def _sequence(data, kind, op):
    if not isinstance(data, kind):
        names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise TypeError(f"{op}: the input must be a {names}, got {type(data).__name__}")
    return data


def list_getitem(data, index):
    return _sequence(data, (list, tuple), "list_getitem")[index]


def tuple_getitem(data, index):
    return _sequence(data, (tuple, list), "tuple_getitem")[index]


def list_setitem(data, index, value):
    """A new list: ``data`` with item ``index`` replaced (graph values are immutable)."""
    out = list(_sequence(data, list, "list_setitem"))
    out[index] = value
    return out


def tuple_setitem(data, index, value):
    out = list(_sequence(data, tuple, "tuple_setitem"))
    out[index] = value
    return tuple(out)


def list_len(data):
    return len(_sequence(data, (list, tuple), "list_len"))


def tuple_len(data):
    return len(_sequence(data, (tuple, list), "tuple_len"))


def list_equal(x, y):
    return list(_sequence(x, list, "list_equal")) == list(_sequence(y, list, "list_equal"))


def tuple_equal(x, y):
    return tuple(_sequence(x, tuple, "tuple_equal")) == tuple(_sequence(y, tuple, "tuple_equal"))


def tuple_reversed(data):
    return tuple(reversed(_sequence(data, tuple, "tuple_reversed")))


def tuple_div(x, y):
    """Elementwise exact division of two tuples of ints (shape arithmetic)."""
    x, y = _sequence(x, tuple, "tuple_div"), _sequence(y, tuple, "tuple_div")
    if len(x) != len(y):
        raise ValueError(f"tuple_div: the tuples have lengths {len(x)} and {len(y)}")
    for a, b in zip(x, y):
        if b == 0 or a % b:
            raise RuntimeError(f"tuple_div: {a} is not divisible by {b}")
    return tuple(a // b for a, b in zip(x, y))


def dict_getitem(dictionary, key):
    return _sequence(dictionary, dict, "dict_getitem")[key]


def dict_setitem(dictionary, key, value):
    """A new dict: ``dictionary`` with ``key`` set to ``value``."""
    out = dict(_sequence(dictionary, dict, "dict_setitem"))
    out[key] = value
    return out


def zip_operation(*sequences):
    """The tuples of the sequences' items at each position (``tuple(zip(...))``)."""
    for s in sequences:
        _sequence(s, (tuple, list), "zip_operation")
    return tuple(zip(*sequences))


# ---- scalar arithmetic -------------------------------------------------------------------

def _divisor(y, op, message="the divisor could not be zero"):
    if not isinstance(y, Tensor) and y == 0:
        raise ValueError(f"{op}: {message}")


def scalar_add(x, y):
    return x + y


def scalar_sub(x, y):
    return x - y


def scalar_mul(x, y):
    return x * y


def scalar_div(x, y):
    """True division (an int result is a float); a zero divisor is a ValueError."""
    _divisor(y, "scalar_div")
    return x / y


def scalar_floordiv(x, y):
    _divisor(y, "scalar_floordiv")
    return x // y


def scalar_mod(x, y):
    _divisor(y, "scalar_mod", "cannot perform modulo operation on zero")
    return x % y


def scalar_pow(x, y):
    return x ** y


scalar_eq, scalar_ne, scalar_lt, scalar_le, scalar_gt, scalar_ge = (
    operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge)


def scalar_max(x, y):
    return max(x, y)


def scalar_min(x, y):
    return min(x, y)


def scalar_log(x):
    """The natural logarithm as a float (``math.log``: ValueError at 0 and below)."""
    return math.log(x)


def scalar_uadd(x):
    return +x


def scalar_usub(x):
    return -x


_CASTS = {dt.int64: int, dt.float64: float, dt.bool_: bool}


def scalar_cast(input_x, input_y):
    """A Python scalar converted to ``input_y``: int64 (truncating), float64 or bool."""
    target = dt.as_dtype(input_y)
    if target not in _CASTS:
        raise ValueError(f"scalar_cast: the supported types are int64, float64 and bool, got "
                         f"{target}")
    if isinstance(input_x, Tensor) or not isinstance(input_x, (bool, int, float, np.number)):
        raise TypeError(f"scalar_cast: the input must be a Python number, got "
                        f"{type(input_x).__name__}")
    return _CASTS[target](input_x)


def bool_and(x, y):
    return bool(x) and bool(y)


def bool_or(x, y):
    return bool(x) or bool(y)


def bool_not(x):
    return not x


def bool_eq(x, y):
    return bool(x) == bool(y)


# ``x op= y`` as MindSpore's graphs compile it: Python's operator, which on tensors is the
# tensor operator (a new value; the caller rebinds the name)
augassign_add, augassign_sub, augassign_mul = operator.add, operator.sub, operator.mul
augassign_div, augassign_floordiv, augassign_mod = (
    operator.truediv, operator.floordiv, operator.mod)


def shape_mul(input_data):
    """The product of a shape's dimensions (1 for ``()``)."""
    return math.prod(_sequence(input_data, tuple, "shape_mul"))


# ---- Python values to tensors and back -------------------------------------------------------

def tuple_to_array(input_x):
    """A 1-D tensor of a tuple of numbers: int32 when the first is an int, float32 when it
    is a float (the others converted to that dtype, as MindSpore's TupleToArray)."""
    if not isinstance(input_x, tuple) or not input_x:
        raise TypeError(f"tuple_to_array: the input must be a non-empty tuple of numbers, "
                        f"got {input_x!r}")
    if any(isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.number))
           for v in input_x):
        raise TypeError(f"tuple_to_array: the elements must be ints or floats, got "
                        f"{input_x!r}")
    dtype = dt.float32 if isinstance(input_x[0], (float, np.floating)) else dt.int32
    return coerce.constant(np.array(input_x).astype(dtype))


def scalar_to_array(input_x):
    """A 0-d tensor of a Python number: int64 for an int, float32 for a float, bool."""
    for kind, scalar_dtype in _SCALAR_DTYPES:
        if isinstance(input_x, kind):
            return coerce.constant(np.array(input_x, scalar_dtype))
    raise TypeError(f"scalar_to_array: the input must be an int, float or bool, got "
                    f"{type(input_x).__name__}")


def array_to_scalar(input_x):
    """The Python number a one-element tensor holds."""
    if not isinstance(input_x, Tensor):
        raise TypeError(f"array_to_scalar: the input must be a Tensor, got "
                        f"{type(input_x).__name__}")
    return input_x.item()


def eps(x):
    """A tensor shaped as ``x`` filled with the machine epsilon of its dtype (float16,
    float32, float64)."""
    x = coerce.as_tensor(x, op="eps")
    if x.dtype not in (dt.float16, dt.float32, dt.float64):
        raise TypeError(f"eps: the input must be a float16, float32 or float64 tensor, got "
                        f"{x.dtype}")
    return creation.full_like(E.stop_gradient(x), float(np.finfo(x.dtype).eps))


def tensor_range(start, end, step):
    """``Range``: the numbers from ``start`` below ``end`` by ``step`` (0-d tensors or
    Python numbers); int64 for integers, float32 for floats."""
    values = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if any(isinstance(v, (bool, np.bool_)) for v in values):
        raise TypeError("tensor_range: start, end and step must be numbers, got a bool")
    if values[2] == 0:
        raise ValueError("tensor_range: step must not be zero")
    if (values[1] - values[0]) * values[2] < 0:
        raise ValueError(f"tensor_range: step {values[2]} moves away from end {values[1]} "
                         f"(start {values[0]})")
    floats = any(isinstance(v, (float, np.floating)) for v in values) or any(
        isinstance(v, Tensor) and dt.is_float(v.dtype) for v in (start, end, step))
    return creation.arange(*values, dtype=dt.float32 if floats else dt.int64)
