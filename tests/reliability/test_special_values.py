"""NaN, inf and signed zeros propagate exactly as in eager at every level (no fast-math
change of semantics: O1's simplifications and fused native kernels included), and empty and
0-d tensors work everywhere -- every capture mode x jit_level x backend."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit.tools.fuzz import CONFIGS, config_label

CONFIG_IDS = [config_label(c) for c in CONFIGS]
SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5, 3e38, 1e-40, 0.5]


def run(fn, config, *args, calls=3):
    """Jitted results of ``calls`` calls (first compile, then cache / fast path)."""
    jitted = ms.jit(fn, **config)
    return [jitted(*args) for _ in range(calls)]


def leaves(tree):
    if isinstance(tree, (tuple, list)):
        return [a for t in tree for a in leaves(t)]
    return [tree.asnumpy() if isinstance(tree, Tensor) else np.asarray(tree)]


def assert_exact(actual, expected, reductions=False, ulps=0):
    """Same dtypes, shapes, NaN and inf positions and signs of zeros and infinities;
    values bit-exact (within float rounding of a reduction's order with ``reductions``;
    within ``ulps`` units in the last place where O1 computes exp, tanh, log, ... with its
    own polynomials instead of NumPy's, ``backend/numba/scalar_math.py``)."""
    a_all, e_all = leaves(actual), leaves(expected)
    assert len(a_all) == len(e_all)
    for k, (a, e) in enumerate(zip(a_all, e_all)):
        assert a.dtype == e.dtype and a.shape == e.shape, (k, a, e)
        if a.dtype.kind != "f" and a.dtype != ms.bfloat16:
            np.testing.assert_array_equal(a, e, err_msg=f"result {k}")
            continue
        a64, e64 = a.astype(np.float64), e.astype(np.float64)
        np.testing.assert_array_equal(np.isnan(a64), np.isnan(e64), err_msg=f"NaN, result {k}")
        real = ~np.isnan(e64)
        np.testing.assert_array_equal(np.isinf(a64[real]), np.isinf(e64[real]),
                                      err_msg=f"inf, result {k}")
        np.testing.assert_array_equal(np.signbit(a64[real]), np.signbit(e64[real]),
                                      err_msg=f"sign, result {k}")
        if reductions:
            np.testing.assert_allclose(a64[real], e64[real], rtol=1e-5, err_msg=f"result {k}")
        elif ulps:
            finite = np.isfinite(e64)
            spacing = np.spacing(np.abs(e).astype(e.dtype)).astype(np.float64)[finite]
            assert np.all(np.abs(a64[finite] - e64[finite]) <= ulps * spacing), (k, a, e)
        else:
            np.testing.assert_array_equal(a64[real], e64[real], err_msg=f"result {k}")


@pytest.fixture(params=[np.float32, np.float64, np.float16], ids=["f32", "f64", "f16"])
def specials(request):
    values = np.array(SPECIALS * 2, np.float64)
    with np.errstate(over="ignore"):
        return Tensor(values.astype(request.param).reshape(4, 5))


# ---- NaN / inf / -0.0 -----------------------------------------------------------------------

def arithmetic(x):
    return (x * 2.0 + 1.0, x / x, 1.0 / x, x - x, x * 0.0, 1.0 / (x + 0.0), 1.0 / (0.0 + x),
            1.0 / (x - 0.0), 1.0 / (x + -0.0), -(-x), x * 1.0, x / 1.0, x * -1.0, x - x * 2.0)


def selections(x):
    y = x[::-1, ::-1]
    return (ops.maximum(x, 0.0), ops.relu(x), ops.minimum(x, 1.0), ops.clamp(x, -1.0, 1.0),
            ops.maximum(x, y), ops.minimum(x, y), ops.where(ops.isnan(x), 0.0, x),
            ops.where(x > 0, x, y), x > 0, x == x, x != x, x <= y, ops.isnan(x), ops.isinf(x),
            ops.isfinite(x), ops.sign(x), ops.abs(x), ops.neg(x))


def transcendental(x):
    return (ops.exp(x), ops.log(x), ops.sqrt(x), ops.tanh(x), ops.sigmoid(x), ops.log1p(x),
            ops.expm1(x), x ** 2, x ** 0.5, ops.floor(x), ops.ceil(x), ops.round(x),
            ops.sin(x), ops.rsqrt(x), ops.reciprocal(x), ops.softplus(x))


def casts(x):
    return (x.astype(ms.float16), x.astype(ms.bfloat16), x.astype(ms.float64),
            x.astype(ms.bool_), (x * 2.0).astype(ms.float32))


def fused_chains(x):
    """Chains of two or more elementwise ops: O1 turns them into one native kernel."""
    y = x[::-1, ::-1]
    return (2.0 / ops.maximum(-x, 0.0), 2.0 / ops.minimum(x * 2.0, -0.0),
            1.0 / ops.relu(x * -1.0), 1.0 / ops.maximum(x * 2.0, y * 2.0),
            1.0 / ops.minimum(x - 1.0, y - 1.0), ops.where(x > 0, x, -x) * 3.0,
            (x + 1.0) * (x - 1.0), 1.0 / ops.clamp(x * 1.5, -1.0, 0.0), (x * x) / (x * 3.0),
            ops.maximum(ops.abs(x) - 1.0, 0.0) * -1.0, (-x > 0) | ops.isnan(x * 0.0))


def reductions(x):
    return (x.sum(), x.sum(1), x.max(), x.max(0), x.min(1, True), x.mean(1), x.prod(1),
            x.argmax(1), x.argmin(0), ops.softmax(x, 1), ops.log_softmax(x, 0),
            x - x.max(1, True), (x * 2.0).sum(0, keepdims=True), ops.any(ops.isnan(x), 1),
            ops.all(x > -1.0, 0), ops.amax(ops.relu(x) + 1.0, 1))


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@pytest.mark.parametrize("fn", [arithmetic, selections, transcendental, casts, fused_chains])
def test_elementwise_special_values_are_exactly_eager(fn, config, specials):
    with np.errstate(all="ignore"):
        expected = fn(specials)
        for out in run(fn, config, specials):
            assert_exact(out, expected, ulps=4 if fn is transcendental else 0)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_reductions_propagate_nan_and_inf_as_eager(config, specials):
    with np.errstate(all="ignore"):
        expected = reductions(specials)
        for out in run(reductions, config, specials):
            assert_exact(out, expected, reductions=True)


def nan_through_control_flow(x):
    y = x * 2.0
    if y.max() > 0:                 # max with a NaN is NaN: the condition is false
        y = y + 1.0
    else:
        y = y - 1.0
    n = 0
    while (y.sum() < 100) & (n < 3):    # a NaN sum: the loop never runs
        y = y * 2.0
        n += 1
    return y, ops.isnan(y).sum()


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_nan_conditions_take_the_same_path_as_eager(config):
    for values in ([1.0, np.nan, 2.0], [1.0, 2.0, 3.0], [np.inf, -np.inf, 0.0]):
        x = Tensor(np.array(values, np.float32))
        with np.errstate(all="ignore"):
            expected = nan_through_control_flow(x)
            for out in run(nan_through_control_flow, config, x):
                assert_exact(out, expected)


# ---- empty and 0-d tensors ------------------------------------------------------------------

def elementwise_and_shapes(x, y):
    z = x * 2.0 + y
    return (z, ops.relu(z), z.reshape(-1), z.T, ops.expand_dims(z, 0),
            z[..., ::-1] if z.ndim else z[...],
            ops.concat((z, z), 0) if z.ndim else z, z.astype(ms.int32), ops.zeros_like(z),
            ops.where(z > 0, z, 0.0), ops.broadcast_to(z, (2,) + tuple(z.shape)))


def empty_reductions(x):
    return (x.sum(), x.mean(), x.prod(), ops.any(x > 0), ops.all(x > 0), x.sum(-1, keepdims=True),
            (x * x).sum(0), x.mean(0))


def zero_d_ops(x):
    y = x * 3.0 - 1.0
    if y > 0:
        y = y * 2.0
    n = 0
    while y < 10.0 and n < 5:
        y = y + 4.0
        n += 1
    return (y, x.sum(), x.max(), x.argmax(), x.reshape(1, 1), ops.expand_dims(x, 0),
            ops.stack((x, y)), x.astype(ms.float64), ops.softmax(x.reshape(1), 0))


EMPTY_SHAPES = [((0,), (0,)), ((2, 0), (0,)), ((0, 3), (1, 3)), ((0, 3), ()), ((), ())]


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_empty_and_zero_d_tensors_through_every_config(config):
    for sx, sy in EMPTY_SHAPES:
        x = Tensor(np.ones(sx, np.float32))
        y = Tensor(np.full(sy, 2.0, np.float32))
        expected = elementwise_and_shapes(x, y)
        for out in run(elementwise_and_shapes, config, x, y):
            assert_exact(out, expected)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4)], ids=str)
def test_reductions_of_empty_tensors(config, shape):
    x = Tensor(np.ones(shape, np.float32))
    with np.errstate(all="ignore"):
        expected = empty_reductions(x)
        for out in run(empty_reductions, config, x):
            assert_exact(out, expected)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_zero_d_values_control_flow_and_reductions(config):
    for value in (-2.0, 0.1, 5.0, np.nan):
        x = Tensor(np.float32(value))
        with np.errstate(all="ignore"):
            expected = zero_d_ops(x)
            for out in run(zero_d_ops, config, x):
                assert_exact(out, expected)


def matmul_empty(a, b):
    return a @ b, (a @ b).sum(), ops.matmul(a, b) + 1.0


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_matmul_with_empty_contraction_and_batch(config):
    for sa, sb in (((2, 0), (0, 3)), ((0, 2), (2, 3)), ((0, 2, 2), (2, 1))):
        a, b = Tensor(np.ones(sa, np.float32)), Tensor(np.ones(sb, np.float32))
        expected = matmul_empty(a, b)
        for out in run(matmul_empty, config, a, b):
            assert_exact(out, expected)


def max_of(x):
    return x.max() + 1.0


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_max_of_an_empty_tensor_is_the_same_error_as_eager(config):
    x = Tensor(np.ones((0, 2), np.float32))
    with pytest.raises(ValueError, match="reduce_max|amax|empty|size 0") as eager:
        max_of(x)
    with pytest.raises(type(eager.value), match="size 0"):
        ms.jit(max_of, **config)(x)
