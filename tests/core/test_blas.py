"""ops/blas.py: matrix products through MKL when installed, with np.matmul's semantics."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tensorjit as ms
from tensorjit.ops import blas

HAS_MKL = blas.backend_name() == "mkl"


def _layouts(shape, dtype, rng):
    """The same kind of operand in the layouts kernels pass: contiguous, Fortran order,
    a column window and a strided column slice of a wider array, a transposed view."""
    yield rng.standard_normal(shape).astype(dtype)
    yield np.asfortranarray(rng.standard_normal(shape).astype(dtype))
    wide = rng.standard_normal(shape[:-1] + (2 * shape[-1] + 3,)).astype(dtype)
    yield wide[..., 1:shape[-1] + 1]
    yield wide[..., ::2][..., :shape[-1]]
    yield np.swapaxes(rng.standard_normal(shape[:-2] + shape[:-3:-1]).astype(dtype), -1, -2)


SHAPES = [((5, 3), (3, 4)), ((2, 5, 3), (2, 3, 4)), ((2, 1, 5, 3), (4, 3, 4)),
          ((5, 3), (6, 3, 4)), ((1, 1), (1, 7)), ((7, 1), (1, 1)), ((4, 8), (8, 1)),
          ((3, 2, 4, 6), (3, 2, 6, 5)), ((2, 3, 1, 4), (2, 3, 4, 1))]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_matmul_matches_float64_reference_in_every_layout(dtype, shapes):
    rng = np.random.default_rng(0)
    tol = 2e-5 if dtype == np.float32 else 1e-12
    for a in _layouts(shapes[0], dtype, rng):
        for b in _layouts(shapes[1], dtype, rng):
            ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
            got = blas.matmul(a, b)
            assert got.shape == ref.shape and got.dtype == dtype
            np.testing.assert_allclose(got, ref, rtol=tol, atol=tol)
            out = np.full(ref.shape, np.nan, dtype)
            assert blas.matmul(a, b, out=out) is out
            np.testing.assert_allclose(out, ref, rtol=tol, atol=tol)


def test_other_dtypes_and_empty_shapes_are_numpys():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert blas.matmul(a, a.T).dtype == np.int32
    np.testing.assert_array_equal(blas.matmul(a, a.T), a @ a.T)
    assert blas.matmul(np.ones((2, 0), np.float32), np.ones((0, 3), np.float32)).tolist() \
        == [[0.0] * 3] * 2
    c = np.ones((2, 2), np.complex64)
    np.testing.assert_array_equal(blas.matmul(c, c), c @ c)


@pytest.mark.skipif(not HAS_MKL, reason="MKL is not installed")
def test_same_bits_whatever_the_operands_alignment():
    # strict reproducible mode: a compiled step's buffers and eager mode's land at other
    # addresses; the product must not change with them
    rng = np.random.default_rng(1)
    a = rng.standard_normal((257, 300)).astype(np.float32)
    b = rng.standard_normal((300, 129)).astype(np.float32)
    first = blas.matmul(a, b)
    for shift in range(1, 8):
        buf_a = np.empty(a.size + shift, np.float32)[shift:].reshape(a.shape)
        buf_b = np.empty(b.size + shift, np.float32)[shift:].reshape(b.shape)
        buf_a[...] = a
        buf_b[...] = b
        np.testing.assert_array_equal(blas.matmul(buf_a, buf_b), first)


@pytest.mark.skipif(not HAS_MKL, reason="MKL is not installed")
def test_attention_products_batched_from_views():
    # per-head products of q, k, v sliced out of one projection (strided 4-D views)
    rng = np.random.default_rng(2)
    qkv = rng.standard_normal((2 * 16, 3 * 4 * 8)).astype(np.float32)
    q, k, v = qkv.reshape(2, 16, 3, 4, 8).transpose(2, 0, 3, 1, 4)
    scores = blas.matmul(q, k.transpose(0, 1, 3, 2))
    ref = np.einsum("bhqd,bhkd->bhqk", q.astype(np.float64), k.astype(np.float64))
    np.testing.assert_allclose(scores, ref, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(blas.matmul(scores, v), np.einsum(
        "bhqk,bhkd->bhqd", ref, v.astype(np.float64)), rtol=2e-4, atol=2e-4)


def test_environment_variable_chooses_numpy():
    code = "from tensorjit.ops import blas; print(blas.backend_name())"
    env = dict(os.environ, TENSORJIT_BLAS="numpy")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "numpy"


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_jitted_products_give_eagers_bits(level):
    rng = np.random.default_rng(3)
    x = ms.Tensor(rng.standard_normal((4, 16, 24)).astype(np.float32))
    w = ms.Tensor(rng.standard_normal((24, 24)).astype(np.float32))

    def f(x, w):
        h = ms.ops.matmul(x, w)
        scores = ms.ops.matmul(h, h.swapaxes(-1, -2))
        return ms.ops.matmul(scores, x).sum()

    eager = ms.value_and_grad(f, (0, 1))(x, w)
    jitted = ms.jit(ms.value_and_grad(f, (0, 1)), jit_level=level)(x, w)
    np.testing.assert_array_equal(jitted[0].asnumpy(), eager[0].asnumpy())
    for ge, gj in zip(eager[1], jitted[1]):
        np.testing.assert_array_equal(gj.asnumpy(), ge.asnumpy())


def test_products_written_into_strided_and_overlapping_outputs():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((16, 8, 6)).astype(np.float32)
    b = rng.standard_normal((16, 6, 5)).astype(np.float32)
    ref = np.matmul(a, b)
    # planes skewed apart (Winograd's buffers): each matrix row by row, any plane stride
    skewed = np.full((16, 8 * 5 + 16), np.nan, np.float32)
    out = skewed[:, :40].reshape(16, 8, 5)
    assert blas.matmul(a, b, out=out) is out
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)
    assert np.isnan(skewed[:, 40:]).all()          # nothing written between the planes
    # rows wider than the matrix (a column window of a wider array)
    wide = np.full((16, 8, 9), np.nan, np.float32)
    window = wide[:, :, 2:7]
    blas.matmul(a, b, out=window)
    np.testing.assert_allclose(window, ref, rtol=1e-5, atol=1e-5)
    assert np.isnan(wide[:, :, :2]).all() and np.isnan(wide[:, :, 7:]).all()
    # the output is an operand: the product of the values before the call
    square = rng.standard_normal((4, 7, 7)).astype(np.float32)
    other = rng.standard_normal((4, 7, 7)).astype(np.float32)
    want = np.matmul(square, other)
    blas.matmul(square, other, out=square)
    np.testing.assert_allclose(square, want, rtol=1e-5, atol=1e-5)
    # a column-major output: written through a temporary
    fortran = np.asfortranarray(np.empty((8, 5), np.float32))
    blas.matmul(a[0], b[0], out=fortran)
    np.testing.assert_allclose(fortran, ref[0], rtol=1e-5, atol=1e-5)


def test_a_forked_child_computes_products_with_numpy():
    # GNU OpenMP (MKL's threads) does not survive a fork: the child must not call MKL
    import multiprocessing
    a = np.random.default_rng(5).standard_normal((300, 300)).astype(np.float32)
    blas.matmul(a, a)                       # the parent's thread pool is running
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(1) as pool:
        name, product = pool.apply_async(_product_in_child, (a,)).get(timeout=120)
    assert name == "numpy"
    np.testing.assert_allclose(product, a.astype(np.float64) @ a, rtol=1e-4, atol=1e-3)


def _product_in_child(a):
    return blas.backend_name(), blas.matmul(a, a)
