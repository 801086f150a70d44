"""Elementwise math (methods and ops.*) and reductions with axis/keepdims, against NumPy
and Python's math module evaluated in float64."""
import math

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops

from .helpers import assert_close

_erf = np.vectorize(math.erf)


def _gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


# (name, function under test, float64 reference, domain low, domain high)
UNARY = [
    ("cos", lambda t: t.cos(), np.cos, -3, 3),
    ("sin", lambda t: t.sin(), np.sin, -3, 3),
    ("tan", lambda t: t.tan(), np.tan, -1.2, 1.2),
    ("exp", lambda t: t.exp(), np.exp, -3, 3),
    ("log", lambda t: t.log(), np.log, 0.1, 5),
    ("log1p", lambda t: t.log1p(), np.log1p, -0.5, 3),
    ("expm1", lambda t: ops.expm1(t), np.expm1, -2, 2),
    ("sqrt", lambda t: t.sqrt(), np.sqrt, 0.0, 5),
    ("rsqrt", lambda t: t.rsqrt(), lambda x: 1 / np.sqrt(x), 0.1, 5),
    ("tanh", lambda t: t.tanh(), np.tanh, -3, 3),
    ("atan", lambda t: ops.atan(t), np.arctan, -3, 3),
    ("abs", lambda t: t.abs(), np.abs, -3, 3),
    ("neg", lambda t: t.neg(), np.negative, -3, 3),
    ("square", lambda t: t.square(), np.square, -3, 3),
    ("reciprocal", lambda t: t.reciprocal(), lambda x: 1 / x, 0.2, 3),
    ("sigmoid", lambda t: t.sigmoid(), lambda x: 1 / (1 + np.exp(-x)), -6, 6),
    ("relu", lambda t: t.relu(), lambda x: np.maximum(x, 0), -3, 3),
    ("erf", lambda t: t.erf(), _erf, -2, 2),
    ("softplus", lambda t: ops.softplus(t), lambda x: np.log(1 + np.exp(x)), -4, 4),
    ("silu", lambda t: ops.silu(t), lambda x: x / (1 + np.exp(-x)), -4, 4),
    ("gelu", lambda t: ops.gelu(t), lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))), -3, 3),
    ("gelu tanh", lambda t: ops.gelu(t, approximate="tanh"), _gelu_tanh, -3, 3),
    ("sign", lambda t: t.sign(), np.sign, -3, 3),
    ("floor", lambda t: t.floor(), np.floor, -3, 3),
    ("ceil", lambda t: t.ceil(), np.ceil, -3, 3),
    ("round", lambda t: t.round(), np.round, -3, 3),
    ("clip", lambda t: t.clip(-0.5, 1.0), lambda x: np.minimum(np.maximum(x, -0.5), 1.0), -3, 3),
    ("clamp min", lambda t: t.clamp(min=0.25), lambda x: np.maximum(x, 0.25), -3, 3),
    ("clamp max", lambda t: ops.clamp(t, None, 0.25), lambda x: np.minimum(x, 0.25), -3, 3),
    ("relu6", lambda t: ops.relu6(t * 3), lambda x: np.clip(x * 3, 0, 6), -3, 3),
    ("leaky_relu", lambda t: ops.leaky_relu(t, 0.1), lambda x: np.where(x > 0, x, 0.1 * x), -3, 3),
    ("elu", lambda t: ops.elu(t), lambda x: np.where(x > 0, x, np.expm1(x)), -3, 3),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name,fn,ref,lo,hi", UNARY, ids=[u[0] for u in UNARY])
def test_unary_math(name, fn, ref, lo, hi, dtype, rng):
    x = rng.uniform(lo, hi, (3, 5)).astype(dtype)
    if name == "round":
        x = np.round(x * 4) / 4 + 0.1                     # keep away from .5 ties
    assert_close(fn(Tensor(x)), ref(x.astype(np.float64)), dtype=dtype)


def test_unary_math_on_integers_gives_float32():
    i = np.array([0, 1, 2])
    assert_close(Tensor(i).cos(), np.cos(i), dtype=np.float32)
    assert_close(Tensor(i).exp(), np.exp(i), dtype=np.float32)
    assert_close(Tensor(i).sqrt(), np.sqrt(i), dtype=np.float32)
    out = Tensor(np.array([-2, 3], np.int32)).abs()
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), [2, 3])
    out = Tensor([-2, 3]).clip(0, 2)
    assert out.dtype == ms.int64
    np.testing.assert_array_equal(out.asnumpy(), [0, 2])


def test_binary_math_functions(rng):
    a = rng.uniform(-2, 2, (3, 4))
    b = rng.uniform(0.5, 2, (4,))
    assert_close(ops.maximum(Tensor(a), Tensor(b)), np.maximum(a, b), dtype=np.float64)
    assert_close(ops.minimum(Tensor(a), 0.0), np.minimum(a, 0.0), dtype=np.float64)
    assert_close(ops.atan2(Tensor(a), Tensor(b)), np.arctan2(a, b), dtype=np.float64)
    assert_close(ops.pow(Tensor(b), Tensor(a)), b ** a, dtype=np.float64)
    assert_close(ops.where(Tensor(a > 0), Tensor(a), Tensor(b)), np.where(a > 0, a, b),
                 dtype=np.float64)
    assert_close(ops.where(Tensor(a > 0), Tensor(a), 0.0), np.where(a > 0, a, 0.0),
                 dtype=np.float64)
    assert_close(ops.lerp(Tensor(a), Tensor(b), 0.25), a + (b - a) * 0.25, dtype=np.float64)
    assert_close(Tensor(b).outer(Tensor(b)), np.outer(b, b), dtype=np.float64)
    assert_close(ops.outer(Tensor(a[0]), Tensor(b)), np.outer(a[0], b), dtype=np.float64)
    close = ops.isclose(Tensor([1.0, 1.0 + 1e-9, 1.1]), Tensor([1.0, 1.0, 1.0]))
    np.testing.assert_array_equal(close.asnumpy(), [True, True, False])


# ---- reductions ----------------------------------------------------------------------------

X = np.random.default_rng(5).permutation(60).reshape(3, 4, 5).astype(np.float64) / 7 - 4
AXES = [None, 0, 1, -1, (0, 2), (1, -1), (0, 1, 2)]


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("name,ref", [
    ("sum", np.sum), ("mean", np.mean), ("max", np.max), ("min", np.min), ("prod", np.prod),
    ("amax", np.max), ("amin", np.min),
])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_reductions(name, ref, axis, keepdims, dtype):
    x = X.astype(dtype)
    t = Tensor(x)
    if name == "sum":
        out = t.sum(axis, keepdims=keepdims)
    elif name == "mean":
        out = t.mean(axis, keepdims)
    elif name in ("max", "min"):
        out = getattr(t, name)(axis, keepdims)
    elif name == "prod":
        out = ops.prod(t, axis, keepdims)
    else:
        out = getattr(ops, name)(t, axis, keepdims)
    expected = ref(x.astype(np.float64), axis=axis, keepdims=keepdims)
    assert_close(out, expected, dtype=dtype, rtol=1e-4 if dtype == np.float32 else None)


@pytest.mark.parametrize("axis", [None, 0, 2, (0, 1)], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_var_std_logsumexp(axis, keepdims):
    t = Tensor(X)
    assert_close(t.var(axis, keepdims=keepdims), np.var(X, axis=axis, keepdims=keepdims),
                 dtype=np.float64)
    assert_close(ops.var(t, axis, ddof=1, keepdims=keepdims),
                 np.var(X, axis=axis, ddof=1, keepdims=keepdims), dtype=np.float64)
    assert_close(t.std(axis, keepdims=keepdims), np.std(X, axis=axis, keepdims=keepdims),
                 dtype=np.float64)
    if axis is not None:
        expected = np.log(np.sum(np.exp(X), axis=axis, keepdims=keepdims))
        assert_close(ops.logsumexp(t, axis, keepdims), expected, dtype=np.float64)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_argmax_argmin(axis, keepdims):
    t = Tensor(X)
    for method, ref in (("argmax", np.argmax), ("argmin", np.argmin)):
        out = getattr(t, method)(axis, keepdims)
        assert out.dtype == ms.int64
        expected = ref(X, axis=axis, keepdims=keepdims)
        np.testing.assert_array_equal(out.asnumpy(), expected)
        fn = getattr(ops, method)(t, axis, keepdims)
        np.testing.assert_array_equal(fn.asnumpy(), expected)


def test_integer_and_bool_reductions():
    i = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    s = Tensor(i).sum()
    assert s.dtype == ms.int64 and s.item() == 21          # small ints accumulate in int64
    np.testing.assert_array_equal(Tensor(i).sum(0).asnumpy(), [5, 7, 9])
    m = Tensor(i).mean()
    assert m.dtype == ms.float32 and m.item() == 3.5
    assert Tensor(i).max().item() == 6 and Tensor(i).max().dtype == ms.int32
    b = np.array([[True, False], [True, True]])
    assert Tensor(b).sum().item() == 3
    np.testing.assert_array_equal(Tensor(b).all(1).asnumpy(), [False, True])
    np.testing.assert_array_equal(Tensor(b).any(0).asnumpy(), [True, True])
    assert ops.any(Tensor([0, 0])).item() is False
    assert ops.all(Tensor([1.0, 2.0])).item() is True
    np.testing.assert_array_equal(ops.all(Tensor(b), 0, keep_dims=True).asnumpy(), [[True, False]])


def test_sum_with_dtype_argument():
    out = Tensor(np.array([1, 2], np.int8)).sum(dtype=ms.float64)
    assert out.dtype == ms.float64 and out.item() == 3.0


def test_reductions_of_0d_tensor():
    t = Tensor(3.5)
    for out in (t.sum(), t.mean(), t.max(), t.min(), ops.prod(t)):
        assert out.shape == () and out.item() == 3.5
    assert t.argmax().item() == 0


def test_tensor_dot():
    # MindSpore's ops.tensor_dot: an int N pairs the last N axes of x1 with the first N of x2
    a, b = np.random.default_rng(3).standard_normal((2, 3, 4)), np.arange(60.0).reshape(4, 3, 5)
    out = ops.tensor_dot(Tensor(a), Tensor(b), ((1, 2), (1, 0)))
    np.testing.assert_allclose(out.asnumpy(), np.tensordot(a, b, ((1, 2), (1, 0))))
    np.testing.assert_allclose(ops.tensor_dot(Tensor(a[0]), Tensor(b[:, 0]), 1).asnumpy(),
                               np.tensordot(a[0], b[:, 0], 1))
    assert ops.tensor_dot(Tensor(a[0, 0]), Tensor(b[:, 0, 0]), axes=1).shape == ()
    with pytest.raises(ValueError, match="differ in size"):
        ops.tensor_dot(Tensor(a), Tensor(b), ((0,), (0,)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sum_over_leading_axes_as_a_product_with_ones(dtype):
    """A bias gradient's column sum goes through BLAS (ops/reduction.py ``_column_sum``):
    exact to float32 rounding of the float64 sum, in every keepdims / axes form, and a
    strided input or too few rows still takes NumPy's sum."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((8, 128, 96)).astype(dtype)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for axes, keep in (((0, 1), True), ((0, 1), False), ((0,), False), ((0,), True)):
        want = x.astype(np.float64).sum(axis=axes, keepdims=keep)
        got = ops.sum(Tensor(x), axis=axes, keepdims=keep).asnumpy()
        assert got.shape == want.shape and got.dtype == dtype
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * 30)
    strided = x[:, :, ::2]
    np.testing.assert_allclose(ops.sum(Tensor(strided), axis=(0, 1)).asnumpy(),
                               strided.astype(np.float64).sum((0, 1)), rtol=tol, atol=tol * 30)
    few = x[:2, :3]
    np.testing.assert_array_equal(ops.sum(Tensor(few), axis=(0, 1)).asnumpy(),
                                  np.sum(few, axis=(0, 1)))
