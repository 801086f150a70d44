"""The convolution kernels (ops/conv_kernels.py) on every path they choose -- shifted
stride-1 GEMMs over row blocks, channels-last im2col and col2im, 1x1 GEMMs -- against a
convolution written out in the test (a sum over kernel offsets of windows), and the two
gradient kernels against the forward one: they are its adjoints,
<conv(x, w), dy> = <x, input_grad(dy, w)> = <w, weight_grad(x, dy)>, and against finite
differences."""
import numpy as np
import pytest

from tensorjit.ops import conv as conv_ops
from tensorjit.ops import conv_kernels


def reference_conv(x, w, stride, padding, dilation):
    """out[n, o, p, q] = sum over c, i, j of w[o, c, i, j] * xpad[n, c, p*sh + i*dh, q*sw + j*dw]."""
    top, bottom, left, right = padding
    xp = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    _, _, kh, kw = w.shape
    (sh, sw), (dh, dw) = stride, dilation
    oh = (xp.shape[2] - dh * (kh - 1) - 1) // sh + 1
    ow = (xp.shape[3] - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((x.shape[0], w.shape[0], oh, ow), np.float64)
    for i in range(kh):
        for j in range(kw):
            window = xp[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                        j * dw:j * dw + sw * (ow - 1) + 1:sw]
            out += np.einsum("nchw,oc->nohw", window, w[:, :, i, j])
    return out


# (N, C, H, W), (O, kh, kw), stride, padding, dilation, path the kernels take
CASES = [
    ((2, 16, 8, 8), (5, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "shifted"),
    ((2, 16, 9, 7), (5, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "shifted, odd sizes"),
    ((2, 16, 10, 10), (4, 3, 3), (1, 1), (2, 2, 2, 2), (2, 2), "shifted, dilated"),
    ((2, 16, 10, 9), (4, 5, 3), (1, 1), (2, 2, 1, 1), (1, 1), "shifted, 5x3"),
    ((2, 16, 8, 8), (5, 2, 2), (1, 1), (0, 1, 0, 1), (1, 1), "shifted, asymmetric pad"),
    ((2, 16, 10, 10), (4, 3, 3), (1, 1), (0, 0, 0, 0), (1, 1), "shifted, no pad"),
    ((1, 32, 4, 4), (8, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "im2col: small image"),
    ((2, 3, 8, 8), (4, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "im2col: few channels"),
    ((2, 16, 8, 8), (5, 3, 3), (2, 2), (1, 1, 1, 1), (1, 1), "im2col / col2im: stride 2"),
    ((2, 16, 11, 9), (5, 3, 3), (3, 2), (2, 1, 0, 2), (1, 2), "im2col / col2im: mixed"),
    ((2, 16, 8, 8), (5, 1, 1), (1, 1), (0, 0, 0, 0), (1, 1), "1x1"),
    ((2, 16, 8, 8), (5, 1, 1), (2, 2), (0, 0, 0, 0), (1, 1), "1x1, stride 2"),
]
IDS = [c[-1] for c in CASES]


def _operands(case, dtype, seed=0):
    x_shape, (o, kh, kw), stride, padding, dilation, _ = case
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal((o, x_shape[1], kh, kw)).astype(dtype)
    geometry = dict(stride=stride, padding=padding, dilation=dilation, groups=1)
    return x, w, geometry


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_forward_equals_the_offset_sum(case, dtype):
    x, w, geometry = _operands(case, dtype)
    assert conv_kernels.fast_path(x, w, 1)
    got = conv_ops._conv_impl(x, w, **geometry)
    want = reference_conv(x.astype(np.float64), w.astype(np.float64), geometry["stride"],
                          geometry["padding"], geometry["dilation"])
    assert got.dtype == dtype and got.shape == want.shape and got.flags.c_contiguous
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_gradients_are_the_adjoints_of_the_forward_kernel(case):
    x, w, geometry = _operands(case, np.float64)
    y = conv_ops._conv_impl(x, w, **geometry)
    dy = np.random.default_rng(1).standard_normal(y.shape)
    dx = conv_ops._conv_input_grad_impl(dy, w, x.shape, **geometry)
    dw = conv_ops._conv_weight_grad_impl(x, dy, w.shape, **geometry)
    assert dx.shape == x.shape and dw.shape == w.shape
    assert dx.flags.c_contiguous and dw.flags.c_contiguous
    inner = np.vdot(y, dy)
    np.testing.assert_allclose(np.vdot(x, dx), inner, rtol=1e-12)
    np.testing.assert_allclose(np.vdot(w, dw), inner, rtol=1e-12)


@pytest.mark.parametrize("case", [CASES[0], CASES[8]], ids=[IDS[0], IDS[8]])
def test_gradients_against_finite_differences(case):
    x, w, geometry = _operands(case, np.float64)
    dy = np.random.default_rng(1).standard_normal(conv_ops._conv_impl(x, w, **geometry).shape)
    dx = conv_ops._conv_input_grad_impl(dy, w, x.shape, **geometry)
    dw = conv_ops._conv_weight_grad_impl(x, dy, w.shape, **geometry)
    rng = np.random.default_rng(2)
    eps = 1e-6
    for array, grad in ((x, dx), (w, dw)):
        for flat in rng.choice(array.size, 12, replace=False):
            index = np.unravel_index(flat, array.shape)
            saved = array[index]
            array[index] = saved + eps
            up = np.vdot(conv_ops._conv_impl(x, w, **geometry), dy)
            array[index] = saved - eps
            down = np.vdot(conv_ops._conv_impl(x, w, **geometry), dy)
            array[index] = saved
            assert abs((up - down) / (2 * eps) - grad[index]) < 1e-6 * max(1, abs(grad[index]))


def test_other_dtypes_and_groups_take_the_general_path():
    x = np.ones((1, 4, 5, 5), np.float16)
    w = np.ones((4, 2, 3, 3), np.float16)
    assert not conv_kernels.fast_path(x, w, 1) and not conv_kernels.fast_path(
        x.astype(np.float32), w.astype(np.float32), 2)
    out = conv_ops._conv_impl(x.astype(np.float32), w.astype(np.float32), (1, 1),
                              (1, 1, 1, 1), (1, 1), 2)
    assert out[0, 0, 2, 2] == 18.0 and out[0, 0, 0, 0] == 8.0
