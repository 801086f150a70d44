"""Elementwise primitives of two or three operands -- arithmetic, min/max, comparisons,
logic, bitwise ops, ``where`` -- and their functional API (with broadcasting and
MindSpore's type promotion, ``coerce.coerce_pair``)."""
import numpy as np

from .. import dtype as dt
from ..aval import ShapedArray, broadcast_shapes
from .primitive import Primitive
from . import coerce
from . import reduction as _red
from .unary import neg, log, floor, cast, isnan, isfinite, _float_operand, _not_bool


def _binary_rule(name, result_dtype=None):
    def rule(x, y):
        if x.dtype != y.dtype:
            raise TypeError(f"{name}: operand dtypes differ ({x} and {y}); "
                            f"cast them to one dtype first")
        shape = broadcast_shapes(name, x.shape, y.shape)
        return ShapedArray(shape, result_dtype or x.dtype)
    return rule


# ---------------------------------------------------------------------------------------
# binary primitives

def _unbroadcast(ct, x):
    return _red.sum_to(ct, x.shape) if ct is not None else None


def _add_vjp(ct, out, x, y):
    return _unbroadcast(ct, x), _unbroadcast(ct, y)


def _sub_vjp(ct, out, x, y):
    return _unbroadcast(ct, x), _unbroadcast(neg(ct), y)


def _mul_vjp(ct, out, x, y):
    return _unbroadcast(mul(ct, y), x), _unbroadcast(mul(ct, x), y)


def _div_vjp(ct, out, x, y):
    gx = div(ct, y)
    return _unbroadcast(gx, x), _unbroadcast(neg(mul(gx, out)), y)


def _pow_vjp(ct, out, x, y):
    gx = mul(ct, mul(y, pow(x, sub(y, 1.0))))
    safe_log = log(where(gt(x, 0), x, ones_like(x)))
    gy = mul(ct, mul(out, safe_log))
    return _unbroadcast(gx, x), _unbroadcast(gy, y)


def _minmax_vjp(take_x_op):
    def vjp(ct, out, x, y):
        tie = eq(x, y)
        half = mul(ct, 0.5)
        gx = where(tie, half, where(take_x_op(x, y), ct, zeros_like(ct)))
        gy = where(tie, half, where(take_x_op(x, y), zeros_like(ct), ct))
        return _unbroadcast(gx, x), _unbroadcast(gy, y)
    return vjp


def _mod_vjp(ct, out, x, y):
    return _unbroadcast(ct, x), _unbroadcast(neg(mul(ct, floor(div(x, y)))), y)


def _atan2_vjp(ct, out, x, y):
    denom = add(mul(x, x), mul(y, y))
    return _unbroadcast(div(mul(ct, y), denom), x), _unbroadcast(neg(div(mul(ct, x), denom)), y)


def _no_grad2(ct, out, x, y):
    return None, None


def binary(name, impl, vjp, result_dtype=None, codegen=None, scalar=None, no_scalar=None):
    return Primitive(name, impl, _binary_rule(name, result_dtype), vjp, elementwise=True,
                     codegen=codegen, scalar=scalar, no_scalar=no_scalar)


# Numba's floor_divide / remainder give other results than NumPy's at +-inf and signed
# zeros, and integer division by zero traps (SIGFPE) instead of giving 0
_NUMBA_DIVMOD = ("a native kernel cannot reproduce NumPy's floor division / modulo at "
                 "+-inf, signed zeros and integer division by zero")


def _keep_dtype(fn):
    def kernel(x, y):
        out = fn(x, y)
        return out if out.dtype == x.dtype else out.astype(x.dtype)
    kernel.__name__ = fn.__name__
    return kernel


add_p = binary("add", np.add, _add_vjp, codegen="({0} + {1})",
               # NumPy's bool + bool is logical or, bool * bool logical and
               scalar=lambda s, a, b: f"{a} | {b}" if s.is_bool else f"{a} + {b}")
sub_p = binary("sub", np.subtract, _sub_vjp, codegen="({0} - {1})",
               scalar=_not_bool("{0} - {1}"))
mul_p = binary("mul", np.multiply, _mul_vjp, codegen="({0} * {1})",
               scalar=lambda s, a, b: f"{a} & {b}" if s.is_bool else f"{a} * {b}")
div_p = binary("div", _keep_dtype(np.true_divide), _div_vjp, scalar="{0} / {1}")
floordiv_p = binary("floordiv", _keep_dtype(np.floor_divide), _no_grad2,   # bool // bool
                    no_scalar=_NUMBA_DIVMOD)
mod_p = binary("mod", _keep_dtype(np.mod), _mod_vjp, no_scalar=_NUMBA_DIVMOD)  # int8 in NumPy


def _numpy_power_half_is_sqrt(dtype):
    """Whether this NumPy computes ``power(x, 0.5)`` as a square root for ``dtype``: NumPy 2.3
    and later do (``power(-inf, 0.5)`` is sqrt's NaN), earlier releases call pow (inf)."""
    with np.errstate(all="ignore"):
        return bool(np.isnan(np.power(np.array([-np.inf], dtype), dtype.type(0.5)))[0])


_HALF_IS_SQRT = {name: _numpy_power_half_is_sqrt(np.dtype(name))
                 for name in ("float16", "float32", "float64")}


def _pow_scalar(s, a, b):
    # kernels follow NumPy's own shortcuts for a scalar exponent, special values included
    exponent = s.constant(b)
    if exponent == 2:
        return f"{a} * {a}"
    if exponent == 0.5 and s.is_float and _HALF_IS_SQRT.get(str(s.dtype), False):
        return f"sqrt({a})"
    return f"pow({a}, {b})"


pow_p = binary("pow", _keep_dtype(np.power), _pow_vjp, scalar=_pow_scalar)
maximum_p = binary("maximum", np.maximum, _minmax_vjp(lambda x, y: gt(x, y)),
                   scalar=lambda s, a, b: s.maximum(a, b))
minimum_p = binary("minimum", np.minimum, _minmax_vjp(lambda x, y: lt(x, y)),
                   scalar=lambda s, a, b: s.minimum(a, b))
atan2_p = binary("atan2", np.arctan2, _atan2_vjp, scalar="atan2({0}, {1})")
eq_p = binary("eq", np.equal, _no_grad2, dt.bool_, scalar="{0} == {1}")
ne_p = binary("ne", np.not_equal, _no_grad2, dt.bool_, scalar="{0} != {1}")
lt_p = binary("lt", np.less, _no_grad2, dt.bool_, scalar="{0} < {1}")
le_p = binary("le", np.less_equal, _no_grad2, dt.bool_, scalar="{0} <= {1}")
gt_p = binary("gt", np.greater, _no_grad2, dt.bool_, scalar="{0} > {1}")
ge_p = binary("ge", np.greater_equal, _no_grad2, dt.bool_, scalar="{0} >= {1}")
logical_and_p = binary("logical_and", np.logical_and, _no_grad2, dt.bool_,
                       scalar="{0} and {1}")
logical_or_p = binary("logical_or", np.logical_or, _no_grad2, dt.bool_, scalar="{0} or {1}")
logical_xor_p = binary("logical_xor", np.logical_xor, _no_grad2, dt.bool_,
                       scalar="{0} != {1}")
bitwise_and_p = binary("bitwise_and", np.bitwise_and, _no_grad2, scalar="{0} & {1}")
bitwise_or_p = binary("bitwise_or", np.bitwise_or, _no_grad2, scalar="{0} | {1}")
bitwise_xor_p = binary("bitwise_xor", np.bitwise_xor, _no_grad2, scalar="{0} ^ {1}")


def _where_rule(c, x, y):
    if c.dtype != dt.bool_:
        raise TypeError(f"where: the condition must be a bool tensor, got {c}")
    if x.dtype != y.dtype:
        raise TypeError(f"where: branch dtypes differ ({x} and {y})")
    return ShapedArray(broadcast_shapes("where", c.shape, x.shape, y.shape), x.dtype)


def _where_vjp(ct, out, c, x, y):
    zero = zeros_like(ct)
    return None, _unbroadcast(where(c, ct, zero), x), _unbroadcast(where(c, zero, ct), y)


where_p = Primitive("where", np.where, _where_rule, _where_vjp, elementwise=True,
                    scalar="({1} if {0} else {2})")


# ---------------------------------------------------------------------------------------
# functional API

def _make_binary(prim, int_to_float=False, bool_ok=True):
    def fn(input, other):
        x, y = coerce.coerce_pair(input, other, prim.name)
        if int_to_float and not dt.is_float(x.dtype):
            x, y = cast(x, dt.DEFAULT_FLOAT), cast(y, dt.DEFAULT_FLOAT)
        elif not bool_ok and x.dtype == dt.bool_:
            raise TypeError(f"{prim.name}: not defined for bool tensors")
        return prim.bind(x, y)
    fn.__name__ = prim.name
    fn.__doc__ = f"Elementwise {prim.name} with broadcasting and type promotion."
    return fn


add = _make_binary(add_p)
sub = _make_binary(sub_p)
mul = _make_binary(mul_p)
div = _make_binary(div_p, int_to_float=True)
floor_div = _make_binary(floordiv_p)
floor_mod = _make_binary(mod_p)
pow = _make_binary(pow_p, bool_ok=False)
maximum = _make_binary(maximum_p)
minimum = _make_binary(minimum_p)
atan2 = _make_binary(atan2_p, int_to_float=True)
equal = eq = _make_binary(eq_p)
not_equal = ne = _make_binary(ne_p)
less = lt = _make_binary(lt_p)
less_equal = le = _make_binary(le_p)
greater = gt = _make_binary(gt_p)
greater_equal = ge = _make_binary(ge_p)
subtract, multiply, true_divide, divide, remainder = sub, mul, div, div, floor_mod
floor_div.__doc__ = """Division rounded down (Python's ``//``), elementwise with broadcasting
and MindSpore's type promotion; also ``floor_divide`` and ``floordiv``.

Every dtype keeps its (promoted) dtype (bool // bool is bool); integers divided by 0 give 0
(NumPy; MindSpore's CPU kernel gives the integer limits). No gradient.

>>> import tensorjit as ms
>>> ms.ops.floor_div(ms.Tensor([7, -7]), 2).asnumpy().tolist()
[3, -4]
"""
floor_mod.__doc__ = """The remainder of floor division, with the divisor's sign (Python's ``%``),
elementwise with broadcasting and type promotion; also ``floormod``, ``mod``, ``remainder``.

Every dtype keeps its (promoted) dtype; integer remainders by 0 are 0 (NumPy). Gradient: 1
for x, ``-floor(x / y)`` for y.

>>> import tensorjit as ms
>>> ms.ops.floor_mod(ms.Tensor([7, -7]), 3).asnumpy().tolist()
[1, 2]
"""
floordiv, mod, arctan2 = floor_div, floor_mod, atan2


def _as_bool(x, op):
    x = coerce.as_tensor(x, op=op)
    return x if x.dtype == dt.bool_ else ne(x, 0)


def logical_and(input, other):
    return logical_and_p.bind(_as_bool(input, "logical_and"), _as_bool(other, "logical_and"))


def logical_or(input, other):
    return logical_or_p.bind(_as_bool(input, "logical_or"), _as_bool(other, "logical_or"))


def logical_xor(input, other):
    return logical_xor_p.bind(_as_bool(input, "logical_xor"), _as_bool(other, "logical_xor"))


def _make_bitwise(prim, logical):
    def fn(input, other):
        x, y = coerce.coerce_pair(input, other, prim.name)
        if x.dtype == dt.bool_:
            return logical(x, y)
        if not dt.is_int(x.dtype):
            raise TypeError(f"{prim.name}: expected integer or bool tensors, got {x.dtype}")
        return prim.bind(x, y)
    fn.__name__ = prim.name
    return fn


bitwise_and = _make_bitwise(bitwise_and_p, logical_and)
bitwise_or = _make_bitwise(bitwise_or_p, logical_or)
bitwise_xor = _make_bitwise(bitwise_xor_p, logical_xor)


def where(condition, x=None, y=None):
    """``x`` where ``condition`` holds, else ``y`` (scalars allowed)."""
    if x is None and y is None:
        from .indexing import nonzero
        return nonzero(condition, as_tuple=True)
    cond = _as_bool(condition, "where")
    x, y = coerce.coerce_pair(x, y, "where")
    return where_p.bind(cond, x, y)


def clamp(input, min=None, max=None):
    """Limit values to [min, max] (either bound may be None): ``x < min`` gives min and
    ``x > max`` gives max, so NaN stays NaN, ``min > max`` gives max (PyTorch's rule), and
    at a bound the gradient goes to the input (MindSpore, PyTorch)."""
    x = coerce.as_tensor(input, op="clamp")
    if x.dtype == dt.bool_:
        raise TypeError("clamp: not defined for bool tensors")
    if min is not None:
        x, low = coerce.coerce_pair(x, min, "clamp")
        x = where(lt(x, low), low, x)
    if max is not None:
        x, high = coerce.coerce_pair(x, max, "clamp")
        x = where(gt(x, high), high, x)
    return x


clip = clip_by_value = clamp


def zeros_like(input, dtype=None):
    from .creation import full_like
    return full_like(input, 0, dtype)


def ones_like(input, dtype=None):
    from .creation import full_like
    return full_like(input, 1, dtype)


def lerp(input, end, weight):
    """``input + (end - input) * weight`` on floating-point tensors (MindSpore, PyTorch)."""
    for value in (input, end, weight):
        if not (coerce.is_scalar(value) or dt.is_float(coerce.as_tensor(value, op="lerp").dtype)):
            raise TypeError(f"lerp: expected floating-point tensors, got "
                            f"{coerce.as_tensor(value, op='lerp').dtype}")
    return add(input, mul(sub(end, input), weight))


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``|x - y| <= atol + rtol * |y|`` for finite values, equality for infinities (NumPy's
    rule); bool and integers compare in float64, so ``x - y`` cannot wrap."""
    x, y = coerce.coerce_pair(input, other, "isclose")
    if not dt.is_float(x.dtype):
        x, y = cast(x, dt.float64), cast(y, dt.float64)
    near = le(abs(sub(x, y)), add(mul(abs(y), rtol), atol))
    close = logical_or(eq(x, y), logical_and(logical_and(isfinite(x), isfinite(y)), near))
    if equal_nan:
        close = logical_or(close, logical_and(isnan(x), isnan(y)))
    return close


def square(input):
    x = coerce.as_tensor(input, op="square")
    return mul(x, x)


def reciprocal(input):
    return div(1.0, _float_operand(input, "reciprocal"))
