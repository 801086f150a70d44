"""MindSpore's elementwise and creation math built from registry ops: addcdiv / addcmul,
the no-NaN division and product, bit counting and inversion, sign tests, the ``*_ext``
spellings, dtype / shape helpers (``type_as``, ``view_as``), ``range`` and ``logspace``.
Each follows MindSpore 2.10's dtypes and errors; being compositions of primitives, each
differentiates and compiles in every capture mode."""
import builtins

import numpy as np

from .. import dtype as dt
from ..tensor import Tensor
from . import coerce
from . import elementwise as E
from . import shape as S
from .arrays import diff
from .compat import addn
from .creation import arange
from .special_binary import bitwise_right_shift, truncate_div, float_power

__all__ = ["addcdiv", "addcmul", "invert", "population_count", "signbit", "sgn",
           "is_floating_point", "is_nonzero", "type_as", "view_as", "tensor_muls", "pows",
           "float_power_ext", "diff_ext", "isnan_ext", "accumulate_n", "range", "logspace"]

_ADDCDIV_DTYPES = (dt.float16, dt.float32, dt.float64, dt.int64)
_ADDCMUL_DTYPES = (dt.bfloat16, dt.float16, dt.float32, dt.float64, dt.int8, dt.int32,
                   dt.int64, dt.uint8)
_VALUE_DTYPES = (dt.bfloat16, dt.float16, dt.float32, dt.float64, dt.int32, dt.int64)


def _tensor(x, op, name="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"{op}: {name} must be a Tensor, got {type(x).__name__}")
    return x


def _addc_operands(op, input, tensor1, tensor2, value, dtypes):
    for name, t in (("input", input), ("tensor1", tensor1), ("tensor2", tensor2)):
        _tensor(t, op, name)
    if input.dtype not in dtypes:
        raise TypeError(f"{op}: input must be one of {', '.join(map(str, dtypes))}, got "
                        f"{input.dtype}")
    if not input.dtype == tensor1.dtype == tensor2.dtype:
        raise TypeError(f"{op}: input, tensor1 and tensor2 must have the same dtype, got "
                        f"{input.dtype}, {tensor1.dtype}, {tensor2.dtype}")
    if isinstance(value, Tensor):
        if value.dtype not in _VALUE_DTYPES:
            raise TypeError(f"{op}: value must be a float or int32 / int64 tensor, got "
                            f"{value.dtype}")
        value = E.cast(value, input.dtype)
    elif isinstance(value, bool) or not isinstance(value, (int, float, np.integer,
                                                           np.floating)):
        raise TypeError(f"{op}: value must be a number or a Tensor, got "
                        f"{type(value).__name__}")
    else:       # a number takes the input's dtype (an integer input truncates it)
        value = coerce.as_tensor(int(value) if dt.is_int(input.dtype) else float(value),
                                 input.dtype)
    return value


def addcdiv(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 / tensor2`` with broadcasting (float16 / 32 / 64, int64:
    integers divide truncating); the three tensors share one dtype, ``value`` is a number
    or a tensor cast to it."""
    value = _addc_operands("addcdiv", input, tensor1, tensor2, value, _ADDCDIV_DTYPES)
    quotient = truncate_div(tensor1, tensor2) if dt.is_int(input.dtype) else \
        E.div(tensor1, tensor2)
    return E.add(input, E.mul(value, quotient))


def addcmul(input, tensor1, tensor2, value=1):
    """``input + value * tensor1 * tensor2`` with broadcasting; the three tensors share one
    dtype, ``value`` is a number or a tensor cast to it."""
    value = _addc_operands("addcmul", input, tensor1, tensor2, value, _ADDCMUL_DTYPES)
    return E.add(input, E.mul(value, E.mul(tensor1, tensor2)))


def div_no_nan(x1, x2):
    """``DivNoNan()(x1, x2)``: ``x1 / x2``, and 0 where ``x2`` is 0 (float inputs)."""
    x, y = coerce.coerce_pair(x1, x2, "DivNoNan")
    if x.dtype not in (dt.float16, dt.float32, dt.float64):
        raise TypeError(f"DivNoNan: the inputs must be float16, float32 or float64, got "
                        f"{x.dtype}")
    zero = E.eq(y, 0)
    return E.where(zero, E.zeros_like(x), E.div(x, E.where(zero, E.ones_like(y), y)))


def mul_no_nan(x, y):
    """``MulNoNan()(x, y)``: ``x * y``, and 0 where ``y`` is 0 even if ``x`` is NaN / Inf."""
    a, b = coerce.coerce_pair(x, y, "MulNoNan")
    if a.dtype == dt.bool_:
        raise TypeError("MulNoNan: not defined for bool tensors")
    product = E.mul(a, b)
    return E.where(E.eq(b, 0), E.zeros_like(product), product)


def rint(x):
    """``Rint()(x)``: the nearest integer, halves to even (float16 / 32 / 64)."""
    if not isinstance(x, Tensor) or x.dtype not in (dt.float16, dt.float32, dt.float64):
        raise TypeError(f"Rint: the input must be a float16, float32 or float64 tensor, got "
                        f"{getattr(x, 'dtype', type(x).__name__)}")
    return E.round(x)


def _integer_tensor(x, op):
    if not isinstance(x, Tensor) or not dt.is_int(x.dtype):
        raise TypeError(f"{op}: the input must be an integer tensor, got "
                        f"{getattr(x, 'dtype', type(x).__name__)}")
    return x


def invert(x):
    """Bitwise NOT of an integer tensor (``~x``)."""
    x = _integer_tensor(x, "invert")
    every_bit = np.iinfo(x.dtype).max if np.iinfo(x.dtype).min == 0 else -1
    return E.bitwise_xor(x, coerce.constant(np.array(every_bit, x.dtype)))


_UNSIGNED = {1: dt.uint8, 2: dt.uint16, 4: dt.uint32, 8: dt.uint64}


def population_count(input_x):
    """The number of 1 bits of each element (two's complement for negative integers), as
    uint8."""
    x = _integer_tensor(input_x, "population_count")
    bits = E.cast(E.cast(x, _UNSIGNED[np.dtype(x.dtype).itemsize]), dt.uint64)

    def u64(v):
        return coerce.constant(np.array(v, np.uint64))

    def shifted(v, n):
        return bitwise_right_shift(v, u64(n))
    # the bit counts of pairs, nibbles, then bytes, summed (no products: nothing wraps)
    bits = E.sub(bits, E.bitwise_and(shifted(bits, 1), u64(0x5555555555555555)))
    bits = E.add(E.bitwise_and(bits, u64(0x3333333333333333)),
                 E.bitwise_and(shifted(bits, 2), u64(0x3333333333333333)))
    bits = E.bitwise_and(E.add(bits, shifted(bits, 4)), u64(0x0F0F0F0F0F0F0F0F))
    for n in (8, 16, 32):
        bits = E.add(bits, shifted(bits, n))
    return E.cast(E.bitwise_and(bits, u64(0x7F)), dt.uint8)


def signbit(input):
    """True where an element is less than 0, as MindSpore defines it (bool): -0.0 and NaN
    are False there (NumPy and PyTorch read the sign bit: True for -0.0); False for
    unsigned integers and bool."""
    x = _tensor(input, "signbit")
    if dt.is_float(x.dtype):
        return E.lt(x, 0)
    if x.dtype == dt.bool_ or np.iinfo(x.dtype).min == 0:
        return E.zeros_like(x, dt.bool_)
    return E.lt(x, 0)


_SGN_DTYPES = (dt.int32, dt.int64, dt.float16, dt.float32, dt.float64, dt.bfloat16)


def sgn(input):
    """The sign (-1, 0, 1) of real tensors (int32 / int64 / floats), 0 for NaN. tensorjit
    has no complex dtype: MindSpore's ``x / |x|`` for complex inputs does not apply."""
    x = _tensor(input, "sgn")
    if x.dtype not in _SGN_DTYPES:
        raise TypeError(f"sgn: the input must be int32, int64 or a float tensor, got "
                        f"{x.dtype}")
    if not dt.is_float(x.dtype):
        return E.sign(x)
    return E.where(E.isnan(x), E.zeros_like(x), E.sign(x))


def is_floating_point(input):
    """Whether the tensor's dtype is a floating-point type (a Python bool)."""
    return dt.is_float(_tensor(input, "is_floating_point").dtype)


def is_nonzero(input):
    """Whether the one element of a tensor is not zero (a Python bool; ValueError unless it
    has exactly one element)."""
    x = _tensor(input, "is_nonzero")
    if x.size != 1:
        raise ValueError(f"is_nonzero: the input must have exactly one element, got "
                         f"{x.size}")
    return bool(S.reshape(x, ()).item() != 0)


def type_as(input, other):
    """``input`` cast to the dtype of ``other``."""
    return E.cast(_tensor(input, "type_as"), _tensor(other, "type_as", "other").dtype)


def view_as(input, other):
    """``input`` reshaped to the shape of ``other`` (of the same number of elements)."""
    x, y = _tensor(input, "view_as"), _tensor(other, "view_as", "other")
    if x.size != y.size:
        raise ValueError(f"view_as: an input of {x.size} elements cannot take the shape "
                         f"{tuple(y.shape)}")
    coerce.shape_decision()
    return S.reshape(x, tuple(y.shape))


def _number(value, op, name):
    if not coerce.is_scalar(value):
        raise TypeError(f"{op}: {name} must be a number, got {type(value).__name__}")
    return value


def tensor_muls(input, other):
    """``input * other`` for a tensor and a number (MindSpore's promotion of the number)."""
    return E.mul(_tensor(input, "tensor_muls"), _number(other, "tensor_muls", "other"))


def pows(input, exponent):
    """``input ** exponent`` (MindSpore's promotion: an integer tensor to a float power is
    float32, bool to an integer power int64)."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise TypeError("pows: input or exponent must be a Tensor")
    return E.pow(input, exponent)


def float_power_ext(input, exponent):
    """``input ** exponent`` in float64 (either may be a number; not both)."""
    return float_power(input, exponent)


def diff_ext(input, n=1, dim=-1, prepend=None, append=None):
    """The ``n``-th forward difference along ``dim`` (``prepend`` / ``append`` joined
    first); bool inputs take not-equal."""
    return diff(_tensor(input, "diff_ext"), n, dim, prepend, append)


def isnan_ext(tensor):
    """True where the input is NaN (bool; integers and bool are never NaN)."""
    return E.isnan(coerce.as_tensor(tensor, op="isnan_ext"))


def accumulate_n(x):
    """The elementwise sum of a list or tuple of tensors of one shape and dtype (a tensor
    alone is returned as it is)."""
    if isinstance(x, Tensor):
        return x
    if not isinstance(x, (list, tuple)):
        raise TypeError(f"accumulate_n: x must be a list or tuple of tensors, got "
                        f"{type(x).__name__}")
    if not x:
        raise ValueError("accumulate_n: x must hold at least one tensor")
    if not all(isinstance(t, Tensor) for t in x):
        raise TypeError("accumulate_n: every element of x must be a Tensor")
    if len({t.dtype for t in x}) != 1:
        raise TypeError(f"accumulate_n: the tensors must have the same dtype, got "
                        f"{sorted({str(t.dtype) for t in x})}")
    return addn(list(x))


def _range_value(v, op):
    if isinstance(v, Tensor):
        if v.ndim != 0 and v.size != 1:
            raise ValueError(f"{op}: start, end and step must be scalars or 0-d tensors")
        return v.item(), v.dtype
    if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"{op}: start, end and step must be numbers, got {type(v).__name__}")
    return v, (dt.int64 if isinstance(v, (int, np.integer)) else dt.float32)


def range(start, end, step, maxlen=1000000):
    """``start, start + step, ...`` up to (not including) ``end``: int64 for integers,
    float32 for floats (the three of one kind); ValueError for a zero step or one pointing
    away from ``end``."""
    op = "range"
    values, dtypes = zip(*[_range_value(v, op) for v in (start, end, step)])
    kinds = {dt.is_int(d) for d in dtypes}
    if len(kinds) != 1:
        raise TypeError(f"{op}: start, end and step must all be integers or all floats, "
                        f"got {[str(d) for d in dtypes]}")
    begin, stop, delta = values
    if delta == 0:
        raise ValueError(f"{op}: step must not be zero")
    if (stop > begin and delta < 0) or (stop < begin and delta > 0):
        raise ValueError(f"{op}: step {delta} points away from end {stop} (start {begin})")
    if isinstance(maxlen, bool) or not isinstance(maxlen, (int, np.integer)) or maxlen <= 0:
        raise ValueError(f"{op}: maxlen must be a positive int, got {maxlen!r}")
    dtype = dt.int64 if kinds == {True} else dt.float32
    return arange(begin, stop, delta, dtype=dtype)


def log_space(start, end, steps, base, dtype, op):
    """``base ** linspace(start, end, steps)`` in ``dtype`` (float16 / 32 / 64), from 0-d
    float tensors of one dtype."""
    for name, t in (("start", start), ("end", end)):
        if not isinstance(t, Tensor) or not dt.is_float(t.dtype) or t.dtype == dt.bfloat16:
            raise TypeError(f"{op}: {name} must be a float16 / float32 / float64 tensor, "
                            f"got {getattr(t, 'dtype', type(t).__name__)}")
        if t.ndim != 0:
            raise ValueError(f"{op}: {name} must be 0-d, got shape {tuple(t.shape)}")
    if start.dtype != end.dtype:
        raise TypeError(f"{op}: start and end must have the same dtype, got {start.dtype} "
                        f"and {end.dtype}")
    for name, v in (("steps", steps), ("base", base)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"{op}: {name} must be an int >= 0, got {v!r}")
    dtype = dt.as_dtype(dtype)
    if dtype not in (dt.float16, dt.float32, dt.float64):
        raise TypeError(f"{op}: dtype must be float16, float32 or float64, got {dtype}")
    # a creation op: no gradient flows to start / end
    a, b = (E.stop_gradient(E.cast(t, dt.float64)) for t in (start, end))
    fraction = arange(steps, dtype=dt.float64)
    if steps > 1:
        fraction = E.div(fraction, float(steps - 1))
    exponents = E.add(a, E.mul(E.sub(b, a), fraction))
    return E.cast(E.pow(float(base), exponents), dtype)


def logspace(start, end, steps, base=10, *, dtype=dt.float32):
    """``steps`` numbers from ``base ** start`` to ``base ** end``, evenly spaced in the
    exponent (``start`` / ``end``: 0-d float tensors of one dtype), in ``dtype``."""
    return log_space(start, end, steps, base, dtype, "logspace")


