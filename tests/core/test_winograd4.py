"""Winograd F(4x4, 3x3) (ops/winograd4.py, transforms in ops/winograd4_transforms.py)
against a float64 convolution written out in the test (a sum over kernel offsets), in
float32 and float64: the forward convolution, the weight gradient against the reference's
adjoint (<conv(x, w), dy> = <w, weight_grad(x, dy)>) and finite differences, and the input
gradient as the forward of dy with the flipped kernel, as conv_kernels.py runs it.

Float32 tolerance: 5e-5 of the reference's largest magnitude. F(4x4)'s transforms have
larger coefficients than F(2x2)'s (B^T d B up to 25, A^T m A up to 64, G's 1/6 and 1/24),
and the products summed over channels cancel in the output transform: measured on random
normal data, batch 2, 8x8 and 16x16 images, 64 to 512 channels (3 seeds each), the largest
error relative to max |y| was 6e-6 (64 channels) to 1.4e-5 (256 and 512 channels) for the
forward and up to 6.5e-6 for the weight gradient; F(2x2) 8e-7 on the same data. 5e-5 leaves
a margin of 3.5x over the worst."""
import numpy as np
import pytest

from tensorjit.ops import winograd, winograd4

pytestmark = pytest.mark.skipif(not winograd.available(), reason="needs Numba")

TOLERANCE = {np.dtype(np.float32): 5e-5, np.dtype(np.float64): 1e-12}


@pytest.fixture(scope="module", autouse=True)
def compiled():
    for dtype in (np.float32, np.float64):
        assert winograd.wait(dtype)


def _padded(x, padding):
    top, bottom, left, right = padding
    return np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))


def reference_conv(x, w, padding):
    """y[n, o, p, q] = sum over c, i, j of w[o, c, i, j] * xpad[n, c, p + i, q + j]."""
    xp = _padded(x.astype(np.float64), padding)
    oh, ow = xp.shape[2] - 2, xp.shape[3] - 2
    y = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,oc->nohw", xp[:, :, i:i + oh, j:j + ow], w[:, :, i, j])
    return y


def reference_weight_grad(x, dy, padding):
    """dw[o, c, i, j] = sum over n, p, q of dy[n, o, p, q] * xpad[n, c, p + i, q + j]."""
    xp = _padded(x.astype(np.float64), padding)
    oh, ow = dy.shape[2:]
    dw = np.zeros((dy.shape[1], x.shape[1], 3, 3))
    for i in range(3):
        for j in range(3):
            dw[:, :, i, j] = np.einsum("nopq,ncpq->oc", dy, xp[:, :, i:i + oh, j:j + ow])
    return dw


def reference_input_grad(dy, w, x_shape, padding):
    """dx: each output's gradient spread back over the window it read (the adjoint)."""
    top, _, left, _ = padding
    h, wd = x_shape[2:]
    oh, ow = dy.shape[2:]
    grid = np.zeros((x_shape[0], x_shape[1], oh + 2, ow + 2))
    for i in range(3):
        for j in range(3):
            grid[:, :, i:i + oh, j:j + ow] += np.einsum("nopq,oc->ncpq", dy, w[:, :, i, j])
    return grid[:, :, top:top + h, left:left + wd]


def _assert_close(got, want, dtype):
    assert got.dtype == dtype and got.shape == want.shape and got.flags.c_contiguous
    tol = TOLERANCE[np.dtype(dtype)]
    np.testing.assert_allclose(got, want, rtol=0, atol=tol * max(np.abs(want).max(), 1e-30))


# (N, C, H, W), O, padding (top, bottom, left, right), chunk_bytes, what it covers
CASES = [
    ((2, 5, 9, 11), 3, (1, 1, 1, 1), None, "odd sizes, partial last tiles"),
    ((2, 3, 8, 8), 4, (1, 1, 1, 1), None, "whole tiles"),
    ((1, 1, 1, 1), 1, (1, 1, 1, 1), None, "1 px image, C = O = 1"),
    ((3, 2, 2, 3), 4, (1, 1, 1, 1), None, "2 and 3 px"),
    ((2, 3, 3, 3), 2, (0, 0, 0, 0), None, "3 px, no padding: one output"),
    ((2, 4, 7, 13), 5, (2, 0, 0, 3), None, "asymmetric padding"),
    ((1, 3, 5, 6), 2, (4, 5, 3, 6), None, "padding past the kernel's reach"),
    ((4, 6, 10, 6), 1, (1, 1, 1, 1), None, "O = 1"),
    ((2, 1, 12, 10), 6, (1, 2, 2, 1), None, "C = 1"),
    ((3, 5, 21, 23), 4, (1, 1, 1, 1), None, "blocks of tiles across planes and tile rows"),
    ((3, 16, 12, 10), 16, (1, 1, 1, 1), 1, "one image per chunk"),
    ((5, 8, 10, 9), 8, (1, 1, 1, 1), 30_000, "two images per chunk"),
    ((4, 7, 14, 5), 3, (0, 2, 1, 0), 60_000, "chunks, asymmetric padding"),
]
IDS = [c[-1] for c in CASES]


def _operands(case, dtype, seed=0):
    x_shape, o, padding, _, _ = case
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal((o, x_shape[1], 3, 3)).astype(dtype)
    oh = x_shape[2] + padding[0] + padding[1] - 2
    ow = x_shape[3] + padding[2] + padding[3] - 2
    dy = rng.standard_normal((x_shape[0], o, oh, ow)).astype(dtype)
    return x, w, dy


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_forward_and_weight_gradient_equal_the_reference(case, dtype):
    x, w, dy = _operands(case, dtype)
    padding, chunk_bytes = case[2], case[3]
    _assert_close(winograd4.forward(x, w, padding, chunk_bytes=chunk_bytes),
                  reference_conv(x, w.astype(np.float64), padding), dtype)
    _assert_close(winograd4.weight_grad(x, dy, padding, chunk_bytes=chunk_bytes),
                  reference_weight_grad(x, dy.astype(np.float64), padding), dtype)


FULL_PADDING_CASES = [c for c in CASES if max(c[2]) <= 2]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", FULL_PADDING_CASES, ids=[c[-1] for c in FULL_PADDING_CASES])
def test_input_gradient_is_the_forward_of_dy_with_the_flipped_kernel(case, dtype):
    """As conv_kernels.input_grad runs it: padding 2 - p on each side, the kernel flipped
    and its channels swapped."""
    x, w, dy = _operands(case, dtype)
    padding, chunk_bytes = case[2], case[3]
    full = tuple(2 - p for p in padding)
    flipped = np.ascontiguousarray(w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3))
    _assert_close(winograd4.forward(dy, flipped, full, chunk_bytes=chunk_bytes),
                  reference_input_grad(dy.astype(np.float64), w.astype(np.float64), x.shape,
                                       padding), dtype)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_weight_gradient_is_the_adjoint_of_the_forward(case):
    """<forward(x, w), dy> = <w, weight_grad(x, dy)> for the kernels' own forward."""
    x, w, dy = _operands(case, np.float64, seed=1)
    padding, chunk_bytes = case[2], case[3]
    inner = np.vdot(winograd4.forward(x, w, padding, chunk_bytes=chunk_bytes), dy)
    dw = winograd4.weight_grad(x, dy, padding, chunk_bytes=chunk_bytes)
    np.testing.assert_allclose(np.vdot(w, dw), inner, rtol=1e-12)


@pytest.mark.parametrize("case", [CASES[0], CASES[5], CASES[11]],
                         ids=[CASES[0][-1], CASES[5][-1], CASES[11][-1]])
def test_weight_gradient_against_finite_differences(case):
    x, w, dy = _operands(case, np.float64, seed=2)
    padding, chunk_bytes = case[2], case[3]
    dw = winograd4.weight_grad(x, dy, padding, chunk_bytes=chunk_bytes)
    eps = 1e-6
    for flat in np.random.default_rng(3).choice(w.size, 8, replace=False):
        index = np.unravel_index(flat, w.shape)
        saved = w[index]
        w[index] = saved + eps
        up = np.vdot(winograd4.forward(x, w, padding, chunk_bytes=chunk_bytes), dy)
        w[index] = saved - eps
        down = np.vdot(winograd4.forward(x, w, padding, chunk_bytes=chunk_bytes), dy)
        w[index] = saved
        assert abs((up - down) / (2 * eps) - dw[index]) < 1e-6 * max(1.0, abs(dw[index]))


def test_float32_at_many_channels_within_the_stated_bound():
    """The bound in this file's docstring at the channel counts it was measured at (64:
    the smallest; the error grows slowly with the channels, see the docstring)."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 64, 8, 8))
    w = rng.standard_normal((64, 64, 3, 3))
    dy = rng.standard_normal((2, 64, 8, 8))
    padding = (1, 1, 1, 1)
    x32, w32, dy32 = (a.astype(np.float32) for a in (x, w, dy))
    _assert_close(winograd4.forward(x32, w32, padding), reference_conv(x, w, padding),
                  np.float32)
    _assert_close(winograd4.weight_grad(x32, dy32, padding),
                  reference_weight_grad(x, dy, padding), np.float32)


@pytest.mark.parametrize("algorithm", [winograd, winograd4], ids=["F(2x2)", "F(4x4)"])
def test_the_chunk_size_changes_only_how_the_batch_goes_through(algorithm):
    """Both algorithms take ``chunk_bytes``: one image per chunk, a few, the whole batch
    give the same numbers (float64: to rounding)."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((5, 16, 9, 10))
    w = rng.standard_normal((12, 16, 3, 3))
    dy = rng.standard_normal((5, 12, 9, 10))
    padding = (1, 1, 1, 1)
    whole = (algorithm.forward(x, w, padding, chunk_bytes=1 << 40),
             algorithm.weight_grad(x, dy, padding, chunk_bytes=1 << 40))
    for chunk_bytes in (1, 50_000):
        got = (algorithm.forward(x, w, padding, chunk_bytes=chunk_bytes),
               algorithm.weight_grad(x, dy, padding, chunk_bytes=chunk_bytes))
        for g, e in zip(got, whole):
            np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12 * np.abs(e).max())


def test_image_chunks_are_even_and_bounded():
    """At most ``chunk_bytes`` of transformed input per chunk (or one image), as few
    chunks as that allows, their sizes differing by at most one, covering the batch in
    order."""
    for n, per_image, chunk_bytes in ((16, 100, 800), (16, 100, 750), (5, 100, 1), (7, 10, 10_000),
                                      (16, 3, 10)):
        chunks = winograd.image_chunks(n, per_image, chunk_bytes)
        sizes = [j - i for i, j in chunks]
        assert chunks[0][0] == 0 and chunks[-1][1] == n
        assert all(a[1] == b[0] for a, b in zip(chunks, chunks[1:]))
        assert max(sizes) - min(sizes) <= 1
        assert all(s * per_image <= chunk_bytes or s == 1 for s in sizes)
        assert len(chunks) == -(-n // max(1, chunk_bytes // per_image))
