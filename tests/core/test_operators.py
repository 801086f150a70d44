"""Tensor operators: arithmetic, comparison, logical/bitwise, broadcasting, MindSpore type
promotion, and in-place updates. References are NumPy expressions in float64/int64 and a
promotion table written out by hand."""
import operator

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops

from .helpers import BF16, assert_close

# ---- type promotion: the expected table, written out (MindSpore / PyTorch rules) -----------

F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
I8, I16, I32, I64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
U8, B = np.dtype(np.uint8), np.dtype(np.bool_)

TENSOR_TENSOR = [
    (F32, F32, F32), (F16, F32, F32), (F32, F64, F64), (F16, F64, F64), (BF16, F32, F32),
    (BF16, F16, F32), (BF16, F64, F64), (BF16, BF16, BF16), (F16, F16, F16),
    (I32, I64, I64), (I8, I16, I16), (I8, I32, I32), (U8, I8, I16), (U8, I16, I16),
    (U8, I64, I64), (U8, U8, U8),
    (I32, F16, F16), (I64, F32, F32), (I64, BF16, BF16), (U8, F32, F32), (I8, F64, F64),
    (B, I8, I8), (B, I32, I32), (B, U8, U8), (B, F16, F16), (B, F32, F32), (B, B, B),
]

TENSOR_SCALAR = [
    # (tensor dtype, python scalar, result dtype): a Python scalar is "weak"
    (F32, 2.0, F32), (F16, 2.0, F16), (BF16, 2.0, BF16), (F64, 2.0, F64),
    (F32, 2, F32), (F16, 3, F16),
    (I32, 2, I32), (I8, 2, I8), (U8, 2, U8), (I64, 2, I64),
    (I32, 2.5, F32), (I64, 2.5, F32), (U8, 0.5, F32),
    (B, 1, I64), (B, 1.5, F32), (B, True, B),
    (I32, True, I32), (F16, True, F16),
]


def _values(dtype, rng, shape=(2, 3)):
    if dtype == B:
        return rng.random(shape) > 0.5
    if dtype.kind in "iu":
        return rng.integers(1, 5, shape).astype(dtype)
    return rng.uniform(0.5, 2.0, shape).astype(dtype)


@pytest.mark.parametrize("da,db,expected", TENSOR_TENSOR,
                         ids=[f"{a.name}+{b.name}" for a, b, _ in TENSOR_TENSOR])
def test_tensor_tensor_promotion(da, db, expected, rng):
    a, b = _values(da, rng), _values(db, rng)
    for x, y in ((a, b), (b, a)):           # promotion is symmetric
        out = Tensor(x) + Tensor(y)
        assert out.dtype == expected
        if expected != B:
            assert_close(out, x.astype(np.float64) + y.astype(np.float64), dtype=expected)
        else:
            np.testing.assert_array_equal(out.asnumpy(), x | y)
    prod = Tensor(a) * Tensor(b)
    assert prod.dtype == expected


@pytest.mark.parametrize("dtype,scalar,expected", TENSOR_SCALAR,
                         ids=[f"{d.name}*{s!r}" for d, s, _ in TENSOR_SCALAR])
def test_tensor_scalar_promotion(dtype, scalar, expected, rng):
    a = _values(dtype, rng)
    ref = a.astype(np.float64) * float(scalar)
    for out in (Tensor(a) * scalar, scalar * Tensor(a), ops.mul(Tensor(a), scalar)):
        assert out.dtype == expected, f"{dtype} * {scalar!r} gave {out.dtype}"
        if expected == B:
            np.testing.assert_array_equal(out.asnumpy(), a & scalar)
        else:
            assert_close(out, ref, dtype=expected)


def test_scalar_does_not_upcast_float32():
    x = Tensor(np.array([1.5, 2.5], np.float32))
    for out in (x * 2.0, x + 1, 2.0 - x, x / 3.0, x ** 2.0, 1.0 / x, x - 0.1):
        assert out.dtype == ms.float32


def test_int_true_division_gives_float32():
    a, b = np.array([1, -7, 9]), np.array([2, 2, 4])
    out = Tensor(a) / Tensor(b)
    assert_close(out, a / b, dtype=np.float32)
    out = Tensor(a, ms.int32) / 2
    assert_close(out, a / 2, dtype=np.float32)


# ---- arithmetic vs NumPy, with broadcasting -------------------------------------------------

BINARY = [
    ("add", operator.add, np.add),
    ("sub", operator.sub, np.subtract),
    ("mul", operator.mul, np.multiply),
    ("truediv", operator.truediv, np.true_divide),
    ("pow", operator.pow, np.power),
]
SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((3, 1), (1, 4)), ((2, 1, 3), (4, 1)), ((), (2, 2)),
          ((2, 3), ())]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("sa,sb", SHAPES)
@pytest.mark.parametrize("name,op,ref", BINARY, ids=[b[0] for b in BINARY])
def test_float_arithmetic_broadcasting(name, op, ref, sa, sb, dtype, rng):
    a = rng.uniform(0.5, 2.0, sa).astype(dtype)
    b = rng.uniform(0.5, 2.0, sb).astype(dtype)
    expected = ref(a.astype(np.float64), b.astype(np.float64))
    assert_close(op(Tensor(a), Tensor(b)), expected, dtype=dtype)
    assert_close(getattr(ops, {"truediv": "div"}.get(name, name))(Tensor(a), Tensor(b)),
                 expected, dtype=dtype)


def test_integer_floor_division_and_modulo_follow_python():
    a = np.array([7, -7, 7, -7, 0, 5])
    b = np.array([2, 2, -2, -2, 3, 5])
    fd = Tensor(a) // Tensor(b)
    md = Tensor(a) % Tensor(b)
    assert fd.dtype == ms.int64 and md.dtype == ms.int64
    np.testing.assert_array_equal(fd.asnumpy(), [x // y for x, y in zip(a.tolist(), b.tolist())])
    np.testing.assert_array_equal(md.asnumpy(), [x % y for x, y in zip(a.tolist(), b.tolist())])
    np.testing.assert_array_equal((Tensor(a) % 3).asnumpy(), [x % 3 for x in a.tolist()])
    np.testing.assert_array_equal((10 // Tensor(b)).asnumpy(), [10 // y for y in b.tolist()])


def test_float_floor_division_and_modulo():
    a = np.array([7.5, -7.5, 2.25, -0.5], np.float32)
    assert_close(Tensor(a) // 2.0, np.floor(a.astype(np.float64) / 2.0), dtype=np.float32)
    assert_close(Tensor(a) % 2.0, [7.5 % 2.0, -7.5 % 2.0, 2.25 % 2.0, -0.5 % 2.0],
                 dtype=np.float32)


def test_reflected_operators_with_scalars_and_arrays():
    a = np.array([1.0, 2.0, 4.0], np.float32)
    t = Tensor(a)
    assert_close(3 - t, 3 - a.astype(np.float64), dtype=np.float32)
    assert_close(3 / t, 3 / a.astype(np.float64), dtype=np.float32)
    assert_close(2 ** t, 2 ** a.astype(np.float64), dtype=np.float32)
    assert_close(1 + t, 1 + a.astype(np.float64), dtype=np.float32)
    # an ndarray on the left defers to the Tensor
    out = np.array([1.0, 1.0, 1.0], np.float32) * t
    assert isinstance(out, Tensor)
    assert_close(out, a, dtype=np.float32)
    assert_close(t + [1.0, 2.0, 3.0], a + np.array([1.0, 2.0, 3.0]), dtype=np.float32)


def test_integer_arithmetic_exact():
    a = np.array([[3, -4, 5]], np.int32)
    b = np.array([[2], [-3]], np.int32)
    for op in (operator.add, operator.sub, operator.mul):
        out = op(Tensor(a), Tensor(b))
        assert out.dtype == ms.int32
        np.testing.assert_array_equal(out.asnumpy(), op(a.astype(np.int64), b.astype(np.int64)))
    out = Tensor(a) ** 2
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [[9, 16, 25]])


def test_integer_overflow_with_scalar_wraps():
    # a Python int out of the tensor dtype's range wraps like the dtype's arithmetic does
    out = Tensor([3], ms.int8) * 100
    assert out.dtype == ms.int8
    assert out.asnumpy()[0] == (300 + 128) % 256 - 128
    out = Tensor([3], ms.uint8) + 300
    assert out.dtype == ms.uint8 and out.asnumpy()[0] == (3 + 300) % 256


def test_unary_operators():
    a = np.array([-1.5, 0.0, 2.0], np.float32)
    t = Tensor(a)
    assert_close(-t, -a.astype(np.float64), dtype=np.float32)
    assert_close(+t, a, dtype=np.float32)
    assert_close(abs(t), np.abs(a.astype(np.float64)), dtype=np.float32)
    i = np.array([0, 5, -3])
    inv = ~Tensor(i)
    assert inv.dtype == ms.int64
    np.testing.assert_array_equal(inv.asnumpy(), [-1, -6, 2])
    np.testing.assert_array_equal((~Tensor([True, False])).asnumpy(), [False, True])
    np.testing.assert_array_equal((-Tensor(i, ms.int8)).asnumpy(), -i)


# ---- comparisons and logic -----------------------------------------------------------------

COMPARE = [operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge]


@pytest.mark.parametrize("op", COMPARE, ids=lambda o: o.__name__)
def test_comparisons_broadcast_to_bool(op, rng):
    a = rng.integers(0, 3, (2, 3)).astype(np.float32)
    b = rng.integers(0, 3, (3,))
    out = op(Tensor(a), Tensor(b))
    assert out.dtype == ms.bool_
    np.testing.assert_array_equal(out.asnumpy(), op(a, b))
    out = op(Tensor(a), 1)
    np.testing.assert_array_equal(out.asnumpy(), op(a, 1))
    out = op(1.5, Tensor(a))                      # reflected comparison
    np.testing.assert_array_equal(out.asnumpy(), op(1.5, a))


def test_comparison_with_unrelated_objects():
    t = Tensor([1, 2])
    assert (t == None) is False        # noqa: E711  (falls back to identity)
    assert (t != "a") is True
    assert t in [t]                    # hashable by identity


def test_comparison_mixed_dtypes():
    out = Tensor([1, 2, 3], ms.int32) < Tensor([1.5, 1.5, 3.5], ms.float16)
    np.testing.assert_array_equal(out.asnumpy(), [True, False, True])
    out = Tensor([1, 2, 3]) == 2.0
    np.testing.assert_array_equal(out.asnumpy(), [False, True, False])


def test_logical_and_bitwise(rng):
    p = rng.random((3, 4)) > 0.5
    q = rng.random((4,)) > 0.5
    for op in (operator.and_, operator.or_, operator.xor):
        out = op(Tensor(p), Tensor(q))
        assert out.dtype == ms.bool_
        np.testing.assert_array_equal(out.asnumpy(), op(p, q))
    np.testing.assert_array_equal(ops.logical_and(Tensor(p), Tensor(q)).asnumpy(), p & q)
    np.testing.assert_array_equal(ops.logical_or(Tensor(p), Tensor(q)).asnumpy(), p | q)
    np.testing.assert_array_equal(ops.logical_xor(Tensor(p), Tensor(q)).asnumpy(), p ^ q)
    np.testing.assert_array_equal(ops.logical_not(Tensor(p)).asnumpy(), ~p)
    # logical ops on numbers test for non-zero
    x = np.array([0.0, 1.5, -2.0])
    np.testing.assert_array_equal(ops.logical_not(Tensor(x)).asnumpy(), x == 0)
    np.testing.assert_array_equal(ops.logical_and(Tensor(x), 1).asnumpy(), x != 0)
    i, j = np.array([12, 10, -1], np.int32), np.array([10, 6, 7], np.int32)
    for op in (operator.and_, operator.or_, operator.xor):
        out = op(Tensor(i), Tensor(j))
        assert out.dtype == ms.int32
        np.testing.assert_array_equal(out.asnumpy(), op(i, j))


def test_isnan_isinf_isfinite():
    a = np.array([1.0, np.nan, np.inf, -np.inf, 0.0], np.float32)
    np.testing.assert_array_equal(ops.isnan(Tensor(a)).asnumpy(), np.isnan(a))
    np.testing.assert_array_equal(ops.isinf(Tensor(a)).asnumpy(), np.isinf(a))
    np.testing.assert_array_equal(ops.isfinite(Tensor(a)).asnumpy(), np.isfinite(a))


# ---- in-place operators -----------------------------------------------------------------

@pytest.mark.parametrize("iop,op", [(operator.iadd, operator.add), (operator.isub, operator.sub),
                                    (operator.imul, operator.mul),
                                    (operator.itruediv, operator.truediv)])
def test_inplace_float_keeps_identity_and_dtype(iop, op, rng):
    a = rng.uniform(1, 2, (2, 3)).astype(np.float32)
    b = rng.uniform(1, 2, (3,))                           # float64 operand, broadcast
    t = Tensor(a)
    alias = t
    t = iop(t, Tensor(b))
    assert t is alias and t.dtype == ms.float32
    assert_close(alias, op(a.astype(np.float64), b), dtype=np.float32)


def test_inplace_integer_keeps_dtype():
    a = np.array([1, 2, 3], np.int32)
    t = Tensor(a)
    alias = t
    t += 2
    t *= 3
    assert t is alias and t.dtype == ms.int32
    np.testing.assert_array_equal(alias.asnumpy(), (a + 2) * 3)
    t *= 2.5                                               # result cast back to int32
    assert t.dtype == ms.int32
    np.testing.assert_array_equal(alias.asnumpy(), ((a + 2) * 3 * 2.5).astype(np.int32))
    t //= 4
    t %= 5
    np.testing.assert_array_equal(alias.asnumpy(), ((a + 2) * 3 * 2.5).astype(np.int32) // 4 % 5)


def test_inplace_on_float16_and_bfloat16():
    for dtype in (ms.float16, ms.bfloat16):
        t = Tensor([1.0, 2.0], dtype)
        t += Tensor([0.5, 0.5], ms.float32)
        t **= 2
        assert t.dtype == dtype
        assert_close(t, [2.25, 6.25], dtype=dtype)


def test_inplace_bitwise():
    t = Tensor([True, False, True])
    t &= Tensor([True, True, False])
    np.testing.assert_array_equal(t.asnumpy(), [True, False, False])
    t |= Tensor([False, True, False])
    np.testing.assert_array_equal(t.asnumpy(), [True, True, False])
    t ^= Tensor([True, True, True])
    np.testing.assert_array_equal(t.asnumpy(), [False, False, True])


def test_inplace_matmul():
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    t = Tensor(a)
    t @= Tensor(np.eye(2, dtype=np.float32) * 2)
    np.testing.assert_array_equal(t.asnumpy(), a * 2)
