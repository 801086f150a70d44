"""What O1 made is visible (``lower(...).kernels``), single composite ops get a kernel of
their own, and reductions in kernels keep eager's results."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops

pytest.importorskip("numba")


def chain(v):
    return ((v * 1.5 + 2).tanh() * v - 0.5).exp() * 0.1 + v


def test_lower_shows_the_fused_kernel_source():
    x = Tensor(np.linspace(-3, 3, 64, dtype=np.float32))
    lowered = ms.jit(chain, jit_level="O1").lower(x)
    assert "fused" in lowered.code
    [kernel] = lowered.kernels
    assert "@njit" in kernel and "tanh(" in kernel and "exp(" in kernel
    assert ms.jit(chain, jit_level="O0").lower(x).kernels == []


def gelu(x):            # named like the primitive it calls: the generated code must cope
    return ops.gelu(x, approximate="none")


@pytest.mark.parametrize("fn", [gelu, ops.sigmoid, ops.silu, ops.exp])
def test_one_composite_or_transcendental_op_gets_a_kernel(fn):
    x = Tensor(np.linspace(-6, 6, 4096, dtype=np.float32))
    jitted = ms.jit(fn, jit_level="O1", capture_mode="trace")
    assert len(jitted.lower(x).kernels) == 1
    np.testing.assert_allclose(jitted(x).asnumpy(), fn(x).asnumpy(), rtol=4e-7, atol=1e-38)


def test_one_cheap_op_stays_a_numpy_call():
    x = Tensor(np.linspace(-6, 6, 4096, dtype=np.float32))
    assert ms.jit(ops.sqrt, jit_level="O1", capture_mode="trace").lower(x).kernels == []


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_vectorized_reductions_match_eager(dtype):
    rng = np.random.default_rng(0)
    x = Tensor((rng.standard_normal((37, 301)) * 10).astype(dtype))

    def norms(x):
        return (ops.softmax(x, -1), ops.log_softmax(x, -1), x - x.max(1, True),
                (x * 2.0).sum(1, keepdims=True), ops.amin(x * x, 1, True))
    eager = norms(x)
    # a sum's rounding depends on its order (NumPy: pairwise in the dtype; kernels: SIMD
    # lanes in float64): allow a few ulp of the sum of the magnitudes
    eps = np.finfo(dtype).eps
    scale = 2 * np.abs(x.asnumpy().astype(np.float64)).sum()
    for got, want in zip(ms.jit(norms, jit_level="O1")(x), eager):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=8 * eps,
                                   atol=4 * eps * scale / x.shape[0])


def test_softmax_kernel_computes_exp_once_and_reads_it_back():
    x = Tensor(np.random.default_rng(1).standard_normal((3, 1500)).astype(np.float32))
    softmax = ms.jit(lambda x: ops.softmax(x, -1), jit_level="O1", capture_mode="trace")
    [kernel] = softmax.lower(x).kernels
    assert kernel.count("exp(") == 1
    np.testing.assert_allclose(softmax(x).asnumpy(), ops.softmax(x, -1).asnumpy(),
                               rtol=4e-7, atol=1e-12)


@pytest.mark.parametrize("mode", ["ast", "bytecode", "trace"])
def test_stashing_kernel_never_writes_into_an_operand_it_still_reads(mode):
    # the softmax's input is a fresh, dying buffer (a matmul's result, a product): buffer
    # reuse may offer it as the output, but the kernel stores exp(...) in its output before
    # the last stage reads the input again
    rng = np.random.default_rng(2)
    a = Tensor(rng.standard_normal((6, 40)).astype(np.float32))
    b = Tensor(rng.standard_normal((40, 700)).astype(np.float32))

    def f(a, b):
        m = ops.matmul(a, b)
        y = m * 0.5
        return ops.softmax(y, -1) * y + ops.softmax(m, 0)

    want = f(a, b).asnumpy()
    for _ in range(2):
        got = ms.jit(f, jit_level="O1", capture_mode=mode)(a, b).asnumpy()
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-6)


def test_float32_sums_of_long_rows_are_as_accurate_as_numpy():
    # blocks of float32 lanes, blocks added in float64: error no larger than NumPy's
    # pairwise float32 sum, on rows of a million values and on rows not a multiple of
    # the block
    rng = np.random.default_rng(3)
    for shape in [(2, 1 << 20), (5, 1537), (7, 1)]:
        x = (rng.random(shape) + 0.5).astype(np.float32)
        exact = x.astype(np.float64).sum(1)
        got = ms.jit(lambda t: (t * 1.0).sum(1), jit_level="O1")(Tensor(x)).asnumpy()
        numpy_error = np.abs(x.sum(1, dtype=np.float32) - exact) / exact
        error = np.abs(got.astype(np.float64) - exact) / exact
        assert np.all(error <= np.maximum(numpy_error, np.finfo(np.float32).eps)), shape


@pytest.mark.parametrize("mode", ["ast", "bytecode", "trace"])
def test_a_stashed_value_is_read_before_other_outputs_overwrite_it(mode):
    # found by the fuzzer (seed 21, programs 889 and 1426): exp(v) was stashed in another
    # output's buffer, which the last stage wrote before reading the stash back
    from tensorjit.passes import fusion

    def f(x):
        v = ops.where(x < 1, x, x * 0.5)
        e = ops.exp(v)
        total = (e - v).sum(axis=None, keepdims=True)
        return v * 1.0, e % 3.0, total

    x = Tensor(np.array([1.3, -0.7, 0.25, 2.0], np.float32))
    want = f(x)
    saved, fusion.MIN_ELEMENTS = fusion.MIN_ELEMENTS, 0
    try:
        got = ms.jit(f, jit_level="O1", capture_mode=mode)(x)
    finally:
        fusion.MIN_ELEMENTS = saved
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=2e-6)
