"""The convolution kernels (ops/conv_kernels.py), every algorithm on every shape it applies
to -- Winograd F(4x4, 3x3) and F(2x2, 3x3) (ops/winograd4.py, ops/winograd.py), shifted
stride-1 GEMMs over row blocks, weight-major products over Numba's im2col, channels-last
im2col and col2im, 1x1 GEMMs -- and the path the built-in rule (ops/conv_select.py, the
tests' TENSORJIT_TUNE=0) takes, against a
convolution written out in the test (a sum over kernel offsets of windows), and the two
gradient kernels against the forward one: they are its adjoints,
<conv(x, w), dy> = <x, input_grad(dy, w)> = <w, weight_grad(x, dy)>, and against finite
differences."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import ops
from tensorjit.ops import conv as conv_ops
from tensorjit.ops import conv_select, winograd

from tests.matrix import CAPTURE_MODES, jit_call, assert_same

needs_numba = pytest.mark.skipif(not winograd.available(), reason="needs Numba")


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
    ((2, 16, 16, 16), (5, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "winograd"),
    ((2, 16, 17, 19), (6, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "winograd, odd sizes"),
    ((1, 16, 16, 17), (16, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "winograd, input gradient"),
    ((1, 16, 19, 18), (4, 3, 3), (1, 1), (0, 0, 0, 0), (1, 1), "winograd, no pad"),
    ((2, 16, 4, 4), (16, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1),
     "winograd: 4x4, forward and weight gradient"),
    ((2, 17, 16, 17), (3, 3, 3), (1, 1), (2, 1, 0, 2), (1, 1), "winograd, asymmetric pad"),
    ((2, 16, 8, 8), (5, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "shifted"),
    ((2, 16, 9, 7), (5, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "shifted, odd sizes"),
    ((2, 16, 10, 10), (4, 3, 3), (1, 1), (2, 2, 2, 2), (2, 2), "shifted, dilated"),
    ((2, 16, 10, 9), (4, 5, 3), (1, 1), (2, 2, 1, 1), (1, 1), "shifted, 5x3"),
    ((2, 16, 8, 8), (5, 2, 2), (1, 1), (0, 1, 0, 1), (1, 1), "shifted, asymmetric pad"),
    ((2, 16, 10, 10), (4, 3, 3), (1, 1), (0, 0, 0, 0), (1, 1), "shifted, no pad"),
    ((1, 32, 3, 3), (8, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "im2col: small image"),
    ((2, 3, 8, 8), (4, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), "im2col: few channels"),
    ((2, 16, 8, 8), (5, 3, 3), (2, 2), (1, 1, 1, 1), (1, 1), "im2col / col2im: stride 2"),
    ((2, 16, 11, 9), (5, 3, 3), (3, 2), (2, 1, 0, 2), (1, 2), "im2col / col2im: mixed"),
    ((1, 16, 4, 5), (6, 5, 5), (1, 1), (2, 2, 2, 2), (1, 1), "im2col: 5x5, small image"),
    ((2, 16, 7, 9), (5, 3, 3), (3, 2), (3, 0, 2, 1), (2, 1),
     "im2col / col2im: padding past the kernel's reach"),
    ((2, 4, 9, 9), (3, 3, 3), (2, 2), (0, 0, 0, 0), (1, 1), "im2col / col2im: no pad"),
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
    winograd.wait(dtype)
    x, w, geometry = _operands(case, dtype)
    assert conv_select.fast_path(x, w, 1)
    got = conv_ops._conv_impl(x, w, **geometry)
    want = reference_conv(x.astype(np.float64), w.astype(np.float64), geometry["stride"],
                          geometry["padding"], geometry["dilation"])
    assert got.dtype == dtype and got.shape == want.shape and got.flags.c_contiguous
    tol = 1e-5 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_gradients_are_the_adjoints_of_the_forward_kernel(case):
    winograd.wait(np.float64)
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


def _algorithms(case, primitive):
    x_shape, (o, kh, kw), stride, padding, dilation, _ = case
    geometry = conv_select.Geometry(x_shape, (o, x_shape[1], kh, kw), stride, padding,
                                    dilation, np.float32)
    return [a for a in conv_select.ALGORITHMS if geometry.applies(primitive, a)]


ALGORITHM_CASES = [(case, primitive, algorithm) for case in CASES
                   for primitive in ("forward", "input_grad", "weight_grad")
                   for algorithm in _algorithms(case, primitive)]


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case, primitive, algorithm", ALGORITHM_CASES,
                         ids=[f"{c[-1]}-{p}-{a}" for c, p, a in ALGORITHM_CASES])
def test_every_algorithm_that_applies_against_the_reference(case, primitive, algorithm,
                                                            dtype):
    """Each algorithm the tuner may pick for a shape computes its primitive: the forward
    against the offset sum, the gradients as its adjoints (<conv(x, w), dy> = <x, dx> =
    <w, dw>, with the reference's forward)."""
    assert winograd.wait(dtype)
    x, w, geometry = _operands(case, dtype)
    args = (geometry["stride"], geometry["padding"], geometry["dilation"])
    want = reference_conv(x.astype(np.float64), w.astype(np.float64), *args)
    dy = np.random.default_rng(1).standard_normal(want.shape).astype(dtype)
    run = conv_select._kernel(primitive, algorithm, None)
    # F(4x4)'s transforms round more (ops/winograd4.py): 1.4e-5 of the largest output
    tol = (5e-5 if algorithm == "winograd4" else 1e-5) if dtype == np.float32 else 1e-11
    if primitive == "forward":
        got = run(x, w, *args)
        assert got.dtype == dtype and got.shape == want.shape and got.flags.c_contiguous
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())
        return
    inner = np.vdot(want, dy.astype(np.float64))
    if primitive == "input_grad":
        got = run(dy, w, x.shape, *args)
        assert got.shape == x.shape and got.dtype == dtype and got.flags.c_contiguous
        pair = np.vdot(x.astype(np.float64), got.astype(np.float64))
        scale = np.abs(x).sum() * np.abs(got).max()
    else:
        got = run(x, dy, w.shape, *args)
        assert got.shape == w.shape and got.dtype == dtype and got.flags.c_contiguous
        pair = np.vdot(w.astype(np.float64), got.astype(np.float64))
        scale = np.abs(w).sum() * np.abs(got).max()
    assert abs(pair - inner) <= tol * scale, (pair, inner)


FD_CASES = [c for c in CASES if c[-1] in ("winograd, input gradient", "shifted",
                                          "im2col / col2im: stride 2")]


@pytest.mark.parametrize("case", FD_CASES, ids=[c[-1] for c in FD_CASES])
def test_gradients_against_finite_differences(case):
    winograd.wait(np.float64)
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
    assert not conv_select.fast_path(x, w, 1) and not conv_select.fast_path(
        x.astype(np.float32), w.astype(np.float32), 2)
    out = conv_ops._conv_impl(x.astype(np.float32), w.astype(np.float32), (1, 1),
                              (1, 1, 1, 1), (1, 1), 2)
    assert out[0, 0, 2, 2] == 18.0 and out[0, 0, 0, 0] == 8.0


# ---------------------------------------------------------------------------------------
# Winograd F(2x2, 3x3)

WINOGRAD_CASES = [c for c in CASES if c[-1].startswith("winograd")]


def _rule(case, primitive, ready=True):
    x_shape, (o, kh, kw), stride, padding, dilation, _ = case
    geometry = conv_select.Geometry(x_shape, (o, x_shape[1], kh, kw), stride, padding,
                                    dilation, np.float32)
    return conv_select._RULES[primitive](geometry, ready)


@needs_numba
@pytest.mark.parametrize("case", WINOGRAD_CASES, ids=[c[-1] for c in WINOGRAD_CASES])
def test_the_built_in_rule_takes_winograd_where_it_paid_on_the_development_machine(case):
    """Without measurements (TENSORJIT_TUNE=0, or before the Numba kernels have compiled)
    the rule picks: F(2x2) for the forward and weight gradient from 4x4 outputs, for the
    input gradient from 8x8 images and 16 output channels -- and nothing that needs Numba before it has compiled."""
    assert _rule(case, "forward") == _rule(case, "weight_grad") == "winograd2"
    # the input gradient is a convolution of dy: its channels are the output's
    takes = case[1][0] >= conv_select.MIN_SHIFT_CHANNELS and case[0][2] * case[0][3] >= 64
    assert (_rule(case, "input_grad") == "winograd2") == takes
    for primitive in ("forward", "input_grad", "weight_grad"):
        assert _rule(case, primitive, ready=False) in ("shifted", "im2col")


@needs_numba
def test_winograd_weight_gradient_is_the_correlation_of_input_and_output_gradient():
    """dw[o, c, i, j] = sum over n, p, q of dy[n, o, p, q] * xpad[n, c, p + i, q + j]."""
    rng = np.random.default_rng(3)
    assert winograd.wait(np.float64)
    x = rng.standard_normal((2, 16, 16, 18))
    dy = rng.standard_normal((2, 7, 16, 18))
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    want = np.empty((7, 16, 3, 3))
    for i in range(3):
        for j in range(3):
            want[:, :, i, j] = np.einsum("nopq,ncpq->oc", dy, xp[:, :, i:i + 16, j:j + 18])
    np.testing.assert_allclose(winograd.weight_grad(x, dy, (1, 1, 1, 1)), want, rtol=1e-10,
                               atol=1e-10)


@needs_numba
@pytest.mark.parametrize("mode", CAPTURE_MODES)
@pytest.mark.parametrize("level", ["O0", "O1"])
def test_winograd_convolution_gradients_equal_eager_under_jit(mode, level):
    """A conv -> batch norm -> ReLU -> conv chain at 16x16 (its 3x3 convolutions take
    Winograd), differentiated: every capture mode and level gives eager's numbers."""
    assert winograd.wait(np.float32)
    rng = np.random.default_rng(4)
    x = ms.Tensor(rng.standard_normal((2, 16, 16, 16)).astype(np.float32))
    w1 = ms.Tensor((rng.standard_normal((16, 16, 3, 3)) * 0.1).astype(np.float32))
    w2 = ms.Tensor((rng.standard_normal((8, 16, 3, 3)) * 0.1).astype(np.float32))
    gamma, beta = ms.Tensor(np.ones(16, np.float32)), ms.Tensor(np.zeros(16, np.float32))

    def loss(x, w1, w2):
        h = ops.conv2d(x, w1, pad_mode="pad", padding=1)
        h = ops.relu(ops.batch_norm(h, ops.zeros(16, ms.float32), ops.ones(16, ms.float32),
                                    gamma, beta, training=True))
        return (ops.conv2d(h, w2, pad_mode="pad", padding=1) ** 2).mean()

    grad_fn = ms.value_and_grad(loss, grad_position=(0, 1, 2))
    assert_same(jit_call(grad_fn, mode, dict(jit_level=level), x, w1, w2),
                grad_fn(x, w1, w2), rtol=1e-4, atol=1e-5)


@needs_numba
@pytest.mark.parametrize("chunk_bytes", [1, 110_000])
def test_winograd_in_chunks_of_images_is_the_same_convolution(chunk_bytes, monkeypatch):
    """The batch goes through Winograd in chunks of images (one image per chunk, two):
    forward and weight gradient (summed over the chunks) against the float64 reference and
    the input gradient's adjoint identity."""
    assert winograd.wait(np.float64)
    monkeypatch.setattr(winograd, "CHUNK_BYTES", chunk_bytes)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((5, 16, 9, 10))
    w = rng.standard_normal((16, 16, 3, 3))
    geometry = dict(stride=(1, 1), padding=(1, 1, 1, 1), dilation=(1, 1), groups=1)
    n, c, th, tw = 5, 16, 5, 5
    assert len(winograd._image_chunks(n, c, th, tw, 8)) == (5 if chunk_bytes == 1 else 3)
    y = conv_ops._conv_impl(x, w, **geometry)
    np.testing.assert_allclose(y, reference_conv(x, w, (1, 1), (1, 1, 1, 1), (1, 1)),
                               rtol=1e-12, atol=1e-12 * np.abs(y).max())
    dy = rng.standard_normal(y.shape)
    dx = conv_ops._conv_input_grad_impl(dy, w, x.shape, **geometry)
    dw = conv_ops._conv_weight_grad_impl(x, dy, w.shape, **geometry)
    want_dw = np.einsum("nohw,nchwij->ocij", dy, np.lib.stride_tricks.sliding_window_view(
        np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1))), (3, 3), axis=(2, 3)))
    np.testing.assert_allclose(dw, want_dw, rtol=1e-11, atol=1e-11 * np.abs(want_dw).max())
    np.testing.assert_allclose(np.vdot(x, dx), np.vdot(y, dy), rtol=1e-12)


@needs_numba
def test_winograd_compiles_in_the_background_and_the_other_kernels_run_meanwhile(
        monkeypatch):
    """Before its transforms are ready, a convolution Winograd would take gives the same
    result on the shifted GEMMs, without waiting; afterwards it takes Winograd."""
    monkeypatch.setattr(winograd, "_ready", set())
    monkeypatch.setattr(winograd, "_threads", {})
    monkeypatch.setattr(winograd, "BACKGROUND", True)
    x, w, geometry = _operands(CASES[0], np.float32)
    assert _rule(CASES[0], "forward", ready=winograd.ready(np.float32)) == "shifted"
    before = conv_ops._conv_impl(x, w, **geometry)          # starts the compile thread
    assert winograd.wait(np.float32, timeout=600)
    assert _rule(CASES[0], "forward", ready=winograd.ready(np.float32)) == "winograd2"
    np.testing.assert_allclose(conv_ops._conv_impl(x, w, **geometry), before, rtol=1e-4,
                               atol=1e-5 * np.abs(before).max())


# ---------------------------------------------------------------------------------------
# weight-major products over Numba's NCHW im2col / col2im (ops/column_kernels.py)

COLUMN_CASES = [c for c in CASES if c[-1].startswith("im2col")]


@needs_numba
@pytest.mark.parametrize("case", COLUMN_CASES, ids=[c[-1] for c in COLUMN_CASES])
def test_weight_major_kernels_are_taken_and_match_the_channels_last_ones(case, monkeypatch):
    """Once Numba's kernels are ready the im2col shapes take the weight-major products
    (all three primitives); before, the channels-last im2col / col2im: both give the same
    numbers (float64: to rounding)."""
    assert winograd.wait(np.float64)
    x, w, geometry = _operands(case, np.float64)
    taken = []
    for name in ("forward", "input_grad", "weight_grad"):
        real = conv_select._RUNNERS[name]["weight_major"]
        monkeypatch.setitem(conv_select._RUNNERS[name], "weight_major",
                            lambda *a, _real=real, _name=name: taken.append(_name) or _real(*a))
    y = conv_ops._conv_impl(x, w, **geometry)
    dy = np.random.default_rng(1).standard_normal(y.shape)
    got = (y, conv_ops._conv_input_grad_impl(dy, w, x.shape, **geometry),
           conv_ops._conv_weight_grad_impl(x, dy, w.shape, **geometry))
    assert len(taken) == 3
    monkeypatch.setattr(winograd, "ready", lambda dtype: False)
    want = (conv_ops._conv_impl(x, w, **geometry),
            conv_ops._conv_input_grad_impl(dy, w, x.shape, **geometry),
            conv_ops._conv_weight_grad_impl(x, dy, w.shape, **geometry))
    assert len(taken) == 3
    for g, e in zip(got, want):
        assert g.shape == e.shape and g.flags.c_contiguous
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12 * np.abs(e).max())


@needs_numba
def test_the_background_compile_covers_every_signature_the_kernels_call():
    """Numba's kernels are compiled ahead for the array layouts the convolutions pass
    (padded 16-plane buffers, 36-plane rows, NCHW columns): a call never compiles in the
    program's step. F(4x4) (ops/winograd4.py) is called directly: the choice of it is
    the tuner's."""
    from tensorjit.ops import winograd_transforms, winograd4_transforms, column_kernels
    from tensorjit.ops import winograd4
    assert winograd.wait(np.float32) and winograd.wait(np.float64)
    names = ("input_transform", "output_transform", "output_transform_adjoint",
             "filter_transform", "filter_transform_adjoint")
    kernels = [getattr(module, name) for module in (winograd_transforms, winograd4_transforms)
               for name in names]
    kernels += [column_kernels.im2col, column_kernels.col2im]
    before = [set(k.signatures) for k in kernels]
    for dtype in (np.float32, np.float64):
        for case in (CASES[0], CASES[1], CASES[-6], CASES[-5]):
            x, w, geometry = _operands(case, dtype)
            y = conv_ops._conv_impl(x, w, **geometry)
            conv_ops._conv_input_grad_impl(y, w, x.shape, **geometry)
            conv_ops._conv_weight_grad_impl(x, y, w.shape, **geometry)
        for case in (CASES[0], CASES[1], CASES[5]):
            x, w, geometry = _operands(case, dtype)
            y = winograd4.forward(x, w, geometry["padding"])
            winograd4.forward(x[:, :, ::2], w, geometry["padding"], chunk_bytes=1)
            winograd4.weight_grad(x, y, geometry["padding"], chunk_bytes=1)
            winograd4.weight_grad(x, y[:, :, :, ::-1], geometry["padding"])
    assert [set(k.signatures) for k in kernels] == before
