"""float16 and bfloat16: results keep their dtype (elementwise, matmul, softmax,
reductions, normalisation, gradients) and match a float64 reference within the format's
precision; softmax(dtype=float32) computes and returns float32."""
import math

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops

from .helpers import BF16, assert_close

LOW = [np.dtype(np.float16), BF16]
IDS = ["float16", "bfloat16"]


def low(rng, shape, dtype, lo=-2.0, hi=2.0):
    """Random values representable in ``dtype`` (and their exact float64 copy)."""
    x = rng.uniform(lo, hi, shape).astype(dtype)
    return x, x.astype(np.float64)


@pytest.mark.parametrize("dtype", LOW, ids=IDS)
@pytest.mark.parametrize("name,fn,ref,lo,hi", [
    ("exp", ops.exp, np.exp, -2, 2),
    ("log", ops.log, np.log, 0.2, 4),
    ("sqrt", ops.sqrt, np.sqrt, 0.1, 4),
    ("sin", ops.sin, np.sin, -3, 3),
    ("tanh", ops.tanh, np.tanh, -3, 3),
    ("sigmoid", ops.sigmoid, lambda x: 1 / (1 + np.exp(-x)), -4, 4),
    ("relu", ops.relu, lambda x: np.maximum(x, 0), -2, 2),
    ("gelu", ops.gelu, lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2))), -3, 3),
    ("silu", ops.silu, lambda x: x / (1 + np.exp(-x)), -3, 3),
    ("abs", ops.abs, np.abs, -2, 2),
    ("neg", ops.neg, np.negative, -2, 2),
    ("square", ops.square, np.square, -2, 2),
    ("rsqrt", ops.rsqrt, lambda x: 1 / np.sqrt(x), 0.2, 4),
])
def test_unary_keeps_dtype(name, fn, ref, lo, hi, dtype, rng):
    x, xd = low(rng, (4, 6), dtype, lo, hi)
    assert_close(fn(Tensor(x)), ref(xd), dtype=dtype)


@pytest.mark.parametrize("dtype", LOW, ids=IDS)
def test_binary_keeps_dtype(dtype, rng):
    x, xd = low(rng, (3, 4), dtype, 0.5, 2)
    y, yd = low(rng, (4,), dtype, 0.5, 2)
    a, b = Tensor(x), Tensor(y)
    assert_close(a + b, xd + yd, dtype=dtype)
    assert_close(a - b, xd - yd, dtype=dtype)
    assert_close(a * b, xd * yd, dtype=dtype)
    assert_close(a / b, xd / yd, dtype=dtype)
    assert_close(a ** b, xd ** yd, dtype=dtype)
    assert_close(ops.maximum(a, b), np.maximum(xd, yd), dtype=dtype)
    assert_close(a * 3.0, xd * 3.0, dtype=dtype)                 # a Python scalar is weak
    assert_close(2 - a, 2 - xd, dtype=dtype)
    assert_close(a * Tensor([2], ms.int32), xd * 2, dtype=dtype)  # int tensor: float wins
    assert_close(ops.where(a > 1.0, a, 0.0), np.where(xd > 1, xd, 0), dtype=dtype)
    out = a > b
    assert out.dtype == ms.bool_
    np.testing.assert_array_equal(out.asnumpy(), xd > yd)


def test_float16_with_bfloat16_gives_float32():
    out = Tensor([1.5], ms.float16) * Tensor([2.0], ms.bfloat16)
    assert_close(out, [3.0], dtype=np.float32)


@pytest.mark.parametrize("dtype", LOW, ids=IDS)
@pytest.mark.parametrize("sa,sb", [((3, 8), (8, 5)), ((2, 3, 8), (8, 4)), ((8,), (8, 2))])
def test_matmul_keeps_dtype(sa, sb, dtype, rng):
    x, xd = low(rng, sa, dtype, -1, 1)
    y, yd = low(rng, sb, dtype, -1, 1)
    assert_close(ops.matmul(Tensor(x), Tensor(y)), np.matmul(xd, yd), dtype=dtype,
                 rtol=5e-2, atol=5e-2)


@pytest.mark.parametrize("dtype", LOW, ids=IDS)
def test_softmax_keeps_dtype_or_follows_dtype_argument(dtype, rng):
    x, xd = low(rng, (3, 7), dtype, -4, 4)
    e = np.exp(xd - xd.max(1, keepdims=True))
    expected = e / e.sum(1, keepdims=True)
    assert_close(ops.softmax(Tensor(x)), expected, dtype=dtype)
    assert_close(ops.softmax(Tensor(x), dtype=ms.float32), expected, dtype=np.float32)
    assert_close(ops.log_softmax(Tensor(x)), np.log(expected), dtype=dtype,
                 rtol=3e-2, atol=5e-2)
    assert_close(ops.log_softmax(Tensor(x), dtype=ms.float32), np.log(expected),
                 dtype=np.float32)


@pytest.mark.parametrize("dtype", LOW, ids=IDS)
def test_reductions_keep_dtype(dtype, rng):
    x, xd = low(rng, (4, 5), dtype, 0.5, 1.5)
    t = Tensor(x)
    assert_close(t.sum(), xd.sum(), dtype=dtype, rtol=2e-2)
    assert_close(t.sum(1), xd.sum(1), dtype=dtype, rtol=2e-2)
    assert_close(t.mean(0), xd.mean(0), dtype=dtype)
    assert_close(t.mean(), xd.mean(), dtype=dtype)
    assert_close(t.max(1), xd.max(1), dtype=dtype)
    assert_close(t.min(), xd.min(), dtype=dtype)
    assert_close(ops.prod(t, 1), xd.prod(1), dtype=dtype, rtol=5e-2)
    assert_close(t.var(1), xd.var(1), dtype=dtype, atol=2e-2)
    assert_close(ops.logsumexp(t, 1), np.log(np.exp(xd).sum(1)), dtype=dtype, rtol=2e-2)
    np.testing.assert_array_equal(t.argmax(1).asnumpy(), xd.argmax(1))


@pytest.mark.parametrize("dtype", LOW, ids=IDS)
def test_normalization_and_conv_keep_dtype(dtype, rng):
    x, xd = low(rng, (4, 3, 2, 2), dtype)
    gamma = Tensor(np.ones(3), dtype)
    beta = Tensor(np.zeros(3), dtype)
    out = ops.batch_norm(Tensor(x), None, None, gamma, beta, training=True)
    mean = xd.mean((0, 2, 3), keepdims=True)
    var = xd.var((0, 2, 3), keepdims=True)
    assert_close(out, (xd - mean) / np.sqrt(var + 1e-5), dtype=dtype, rtol=5e-2, atol=5e-2)
    out = ops.layer_norm(Tensor(x), (2, 2))
    m = xd.mean((2, 3), keepdims=True)
    v = xd.var((2, 3), keepdims=True)
    assert_close(out, (xd - m) / np.sqrt(v + 1e-5), dtype=dtype, rtol=5e-2, atol=5e-2)
    w, wd = low(rng, (2, 3, 2, 2), dtype, -1, 1)
    out = ops.conv2d(Tensor(x), Tensor(w))
    expected = np.einsum("nchw,ochw->no", xd, wd).reshape(4, 2, 1, 1)
    assert_close(out, expected, dtype=dtype, rtol=5e-2, atol=5e-2)


@pytest.mark.parametrize("dtype", LOW, ids=IDS)
def test_gradients_keep_dtype(dtype, rng):
    x, xd = low(rng, (3, 4), dtype, -1, 1)
    w, wd = low(rng, (4, 2), dtype, -1, 1)
    gx, gw = ms.grad(lambda a, b: ops.matmul(a, b).sum(), (0, 1))(Tensor(x), Tensor(w))
    assert_close(gx, np.broadcast_to(wd.sum(1), (3, 4)), dtype=dtype, rtol=2e-2, atol=2e-2)
    assert_close(gw, np.broadcast_to(xd.sum(0)[:, None], (4, 2)), dtype=dtype,
                 rtol=2e-2, atol=2e-2)
    g = ms.grad(lambda a: (a * a * 3.0).sum())(Tensor(x))
    assert_close(g, 6 * xd, dtype=dtype)


def test_casts_between_precisions():
    x = np.array([1.0, 2.5, -3.25, 65504.0])
    h = Tensor(x, ms.float16)
    b = h.astype(ms.bfloat16)
    assert b.dtype == ms.bfloat16
    assert_close(b, x.astype(BF16).astype(np.float64), dtype=BF16, rtol=0, atol=0)
    back = b.astype(ms.float32)
    assert back.dtype == ms.float32
    assert_close(back, x.astype(BF16).astype(np.float64), dtype=np.float32, rtol=0, atol=0)
    with np.errstate(over="ignore"):
        assert_close(Tensor([70000.0]).astype(ms.float16), [np.inf], dtype=np.float16)
