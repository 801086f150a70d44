"""Padding, resizing and rearranging: ``ops.pad``'s modes, ``ops.mirror_pad``, the padding
layers, ``ops.interpolate`` / ``upsample`` and ``nn.Upsample``, MindSpore's resize operator
classes, pixel / channel shuffle, ``repeat_elements`` and ``LpNorm``.

References: PyTorch (values and autograd) where it has the op, ``np.pad`` and NumPy
formulas, central finite differences, and, for MindSpore's own conventions (TensorFlow-
style ``align_corners`` / ``half_pixel_centers``, ResizeBicubic's kernel, SYMMETRIC),
MindSpore 2.10's outputs recorded by ``record_resize.py`` in ``resize_mindspore_2_10.npz``.
Everything also runs jitted in every capture mode and level (``LayerCheck.in_every_mode``).
"""
import doctest
import importlib

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, ops, Tensor

from . import record_resize as record
from .layer_check import LayerCheck, torch

F = torch.nn.functional if torch is not None else None
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def rand(*shape, seed=0):
    return np.random.default_rng(seed + sum(shape)).standard_normal(shape)


class Call(nn.Cell):
    """A cell calling ``fn(x, *args, **kwargs)``, so LayerCheck checks an op function."""

    def __init__(self, fn, *args, **kwargs):
        super().__init__()
        self.fn, self.args, self.kwargs = fn, args, kwargs

    def construct(self, x):
        return self.fn(x, *self.args, **self.kwargs)


class TorchCall(torch.nn.Module if torch is not None else object):
    def __init__(self, fn, *args, **kwargs):
        super().__init__()
        self.fn, self.args, self.kwargs = fn, args, kwargs

    def forward(self, x):
        return self.fn(x, *self.args, **self.kwargs)


def check_op(fn, torch_fn, x, *args, modes=True, **kwargs):
    """``fn(x, *args, **kwargs)`` against ``torch_fn(x, *args, **kwargs)`` (values and
    gradients), finite differences, and eager vs every capture mode and level."""
    check = LayerCheck(Call(fn, *args, **kwargs), [x])
    if torch_fn is not None:
        check.against_torch(TorchCall(torch_fn, *args, **kwargs))
    check.against_finite_differences()
    if modes:
        check.in_every_mode()
    return check


# ---- ops.pad -----------------------------------------------------------------------------

PAD_CASES = [((2, 7), (2, 3)), ((2, 3, 7), (1, 2)), ((2, 3, 5, 6), (1, 2, 2, 1)),
             ((1, 2, 3, 4, 5), (1, 1, 2, 0, 1, 2))]


@needs_torch
@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
@pytest.mark.parametrize("shape,padding", PAD_CASES, ids=str)
def test_pad_modes_against_torch(mode, shape, padding):
    if mode == "reflect" and len(padding) == 6:
        padding = (1, 1, 2, 0, 1, 1)          # reflection needs padding < the axis size
    x = rand(*shape)
    check_op(ops.pad, lambda t, p, mode: F.pad(t, p, mode=mode), x, padding, mode,
             modes=len(shape) == 4)


@needs_torch
def test_pad_constant_value_and_negative_crop():
    x = rand(2, 3, 5)
    check_op(ops.pad, F.pad, x, (-1, 2, 1, -2), "constant", 1.5)
    ints = Tensor(np.arange(12, dtype=np.int32).reshape(3, 4))
    out = ops.pad(ints, (1, 1), value=7)
    assert out.dtype == ms.int32
    np.testing.assert_array_equal(out.asnumpy(), np.pad(ints.asnumpy(), ((0, 0), (1, 1)),
                                                         constant_values=7))


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_modes_keep_int_dtypes_against_numpy(mode):
    x = np.arange(20, dtype=np.int16).reshape(4, 5)
    numpy_mode = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode]
    out = ops.pad(Tensor(x), (2, 1, 1, 3), mode=mode)
    assert out.dtype == ms.int16
    np.testing.assert_array_equal(out.asnumpy(), np.pad(x, ((1, 3), (2, 1)), mode=numpy_mode))


def test_pad_errors_name_the_problem():
    x = Tensor(np.ones((2, 3, 4), np.float32))
    cases = [(lambda: ops.pad(x, (1, 2, 3)), ValueError, "divisible by 2"),
             (lambda: ops.pad(x, (1,) * 8), ValueError, "more than the 3 axes"),
             (lambda: ops.pad(x, (1, 1), mode="foo"), ValueError, "mode"),
             (lambda: ops.pad(x, (1, 1), mode="reflect", value=1.0), ValueError, "value"),
             (lambda: ops.pad(x, (4, 4), mode="reflect"), ValueError, "at most 3"),
             (lambda: ops.pad(x, (-1, 1), mode="replicate"), ValueError, "non-negative"),
             (lambda: ops.pad(x, (-3, -2)), ValueError, "removes more"),
             (lambda: ops.pad(np.ones(3), (1, 1)), TypeError, "Tensor")]
    for call, exc, words in cases:
        with pytest.raises(exc, match=words):
            call()


@pytest.mark.parametrize("mode", ["REFLECT", "SYMMETRIC"])
def test_mirror_pad_and_its_class_against_numpy(mode):
    x = rand(3, 4, 5)
    paddings = ((1, 2), (0, 3), (4, 1))
    want = np.pad(x, paddings, mode=mode.lower())
    got = ops.mirror_pad(Tensor(x), Tensor(np.array(paddings)), mode)
    np.testing.assert_array_equal(got.asnumpy(), want)
    np.testing.assert_array_equal(ops.MirrorPad(mode)(Tensor(x), paddings).asnumpy(), want)
    check = LayerCheck(Call(ops.mirror_pad, paddings, mode), [x])
    check.against_finite_differences()
    with pytest.raises(ValueError, match="paddings"):
        ops.mirror_pad(Tensor(x), ((1, 1),), mode)
    with pytest.raises(ValueError, match="mode"):
        ops.mirror_pad(Tensor(x), paddings, "EDGE")


# ---- padding layers ----------------------------------------------------------------------

LAYER_CASES = {
    "ConstantPad1d": (lambda: nn.ConstantPad1d((1, 2), 0.5),
                      lambda: torch.nn.ConstantPad1d((1, 2), 0.5), (2, 3, 5)),
    "ConstantPad2d": (lambda: nn.ConstantPad2d((1, -1, 2, 0), -1.0),
                      lambda: torch.nn.ConstantPad2d((1, -1, 2, 0), -1.0), (2, 3, 4, 5)),
    "ConstantPad3d": (lambda: nn.ConstantPad3d(1, 2.0),
                      lambda: torch.nn.ConstantPad3d(1, 2.0), (1, 2, 3, 3, 2)),
    "ReflectionPad1d": (lambda: nn.ReflectionPad1d((3, 1)),
                        lambda: torch.nn.ReflectionPad1d((3, 1)), (2, 3, 5)),
    "ReflectionPad2d": (lambda: nn.ReflectionPad2d(2), lambda: torch.nn.ReflectionPad2d(2),
                        (2, 2, 4, 5)),
    "ReflectionPad3d": (lambda: nn.ReflectionPad3d((1, 0, 2, 1, 1, 1)),
                        lambda: torch.nn.ReflectionPad3d((1, 0, 2, 1, 1, 1)), (1, 2, 3, 4, 2)),
    "ReplicationPad1d": (lambda: nn.ReplicationPad1d(4), lambda: torch.nn.ReplicationPad1d(4),
                         (2, 3)),
    "ReplicationPad2d": (lambda: nn.ReplicationPad2d((1, 2, 3, 0)),
                         lambda: torch.nn.ReplicationPad2d((1, 2, 3, 0)), (2, 2, 3, 4)),
    "ReplicationPad3d": (lambda: nn.ReplicationPad3d(1), lambda: torch.nn.ReplicationPad3d(1),
                         (1, 2, 2, 3, 2)),
    "ZeroPad2d": (lambda: nn.ZeroPad2d((1, 2, 0, 1)), lambda: torch.nn.ZeroPad2d((1, 2, 0, 1)),
                  (2, 2, 3, 3)),
}


@needs_torch
@pytest.mark.parametrize("name", sorted(LAYER_CASES))
def test_padding_layers_against_torch(name):
    make, make_torch, shape = LAYER_CASES[name]
    check = LayerCheck(make(), [rand(*shape)])
    check.against_torch(make_torch())
    check.against_finite_differences()
    if name in ("ConstantPad2d", "ReflectionPad2d", "ReplicationPad3d"):
        check.in_every_mode()


def test_padding_layer_arguments_are_checked():
    with pytest.raises(ValueError, match="4 ints"):
        nn.ConstantPad2d((1, 2), 0.0)
    with pytest.raises(TypeError, match="padding"):
        nn.ReflectionPad1d([1, 2])
    with pytest.raises(ValueError, match="non-negative"):
        nn.ReplicationPad2d(-1)
    with pytest.raises(TypeError, match="value"):
        nn.ConstantPad1d(1, "0")
    with pytest.raises(ValueError, match="mode"):
        nn.Pad(((1, 1),), mode="EDGE")
    with pytest.raises(TypeError, match="tuple"):
        nn.Pad([[1, 1]])
    with pytest.raises(ValueError, match="non-negative"):
        nn.Pad(((-1, 1),))
    with pytest.raises(ValueError, match="rank"):
        nn.Pad(((1, 1),))(Tensor(np.ones((2, 2), np.float32)))


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_nn_pad_against_numpy(mode):
    x = rand(2, 3, 4)
    paddings = ((0, 1), (2, 2), (3, 1))
    check = LayerCheck(nn.Pad(paddings, mode), [x])
    check.against_formula(np.pad(x, paddings, mode=mode.lower()))
    check.against_finite_differences()
    if mode == "SYMMETRIC":
        check.in_every_mode()


# ---- MindSpore 2.10's recorded conventions -----------------------------------------------

RECORDED = np.load(record.RECORD)


def _ours(kind, x, kw):
    """The tensorjit call of a recorded case: the same public API MindSpore ran."""
    kw = dict(kw)
    if kind.startswith(("ops.", "nn.")) and kind != "nn.Pad":
        module, name = kind.split(".")
        made = getattr(ops if module == "ops" else nn, name)(**kw["init"])
        return made(x, *[record._arg(ms, a) for a in kw["args"]])
    if kind == "interpolate":
        return ops.interpolate(x, **kw)
    if kind == "nn.Pad":
        return nn.Pad(kw["paddings"], kw["mode"])(x)
    if kind == "ResizeNearestNeighbor":
        return ops.ResizeNearestNeighbor(**kw)(x)
    if kind == "ResizeLinear1D":
        size = kw.pop("size")
        return ops.ResizeLinear1D(**kw)(x, Tensor(size, ms.int64))
    if kind in ("UpsampleNearest3D", "UpsampleTrilinear3D"):
        output_size, scales = kw.pop("output_size", None), kw.pop("scales", None)
        return getattr(ops, kind)(**kw)(x, output_size, scales)
    size = kw.pop("size")
    return getattr(ops, kind)(**kw)(x, Tensor(size, ms.int32))


@pytest.mark.parametrize("case", record.CASES, ids=lambda c: c[0])
def test_resizing_follows_mindspore_2_10(case):
    name, kind, source, kw = case
    want = RECORDED[name]
    x = Tensor(RECORDED[source])
    if want.dtype.kind == "U":
        # MindSpore 2.10 refuses these (area 1-D is adaptive pooling with divisible sizes
        # only); we give adaptive pooling's answer, checked against PyTorch below
        assert "error" in str(want) and ops.interpolate(x, **kw).shape[-1] == kw["size"][0]
        return
    got = _ours(kind, x, kw)
    assert got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-5, err_msg=name)


def test_the_record_holds_every_case():
    assert {name for name, *_ in record.CASES} <= set(RECORDED.files)


# ---- ops.interpolate against PyTorch -----------------------------------------------------

INTERPOLATE_CASES = [
    ((2, 3, 7), dict(size=11)), ((2, 3, 7), dict(size=(4,))),
    ((2, 3, 7), dict(size=11, mode="linear")),
    ((2, 3, 7), dict(size=4, mode="linear", align_corners=True)),
    ((2, 3, 7), dict(scale_factor=1.7, mode="linear")),
    ((2, 3, 7), dict(scale_factor=1.7)), ((2, 3, 7), dict(size=3, mode="area")),
    ((2, 3, 7), dict(size=11, mode="nearest-exact")),
    ((2, 2, 5, 7), dict(size=(9, 4), mode="nearest-exact")),
    ((2, 2, 5, 7), dict(size=(9, 4), mode="bilinear")),
    ((2, 2, 5, 7), dict(size=(1, 1), mode="bilinear")),
    ((2, 2, 5, 7), dict(size=(9, 4), mode="bilinear", align_corners=True)),
    ((2, 2, 5, 7), dict(size=(3, 4), mode="area")),
    ((2, 2, 5, 7), dict(scale_factor=0.5, mode="area")),
    ((2, 2, 5, 7), dict(scale_factor=(2.5, 1.5), mode="bilinear")),
    ((2, 2, 5, 7), dict(scale_factor=(2.5, 1.5), mode="bilinear",
                        recompute_scale_factor=True)),
    ((2, 2, 5, 7), dict(scale_factor=2.0)),
    ((1, 2, 3, 4, 5), dict(size=(4, 7, 3), mode="trilinear")),
    ((1, 2, 3, 4, 5), dict(size=(4, 7, 3), mode="trilinear", align_corners=True)),
    ((1, 2, 3, 4, 5), dict(scale_factor=1.5, mode="trilinear")),
    ((1, 2, 3, 4, 5), dict(size=(5, 3, 8))),
    ((1, 2, 3, 4, 5), dict(size=(2, 3, 2), mode="area")),
    ((1, 2, 3, 4, 5), dict(scale_factor=(1.5, 2.0, 1.3))),
]


@needs_torch
@pytest.mark.parametrize("shape,kwargs", INTERPOLATE_CASES, ids=str)
def test_interpolate_against_torch(shape, kwargs):
    check_op(ops.interpolate, F.interpolate, rand(*shape), modes=False, **kwargs)


@needs_torch
def test_bicubic_with_align_corners_is_pytorch_s_kernel_read_from_a_table():
    """align_corners=True: PyTorch's a = -0.75 kernel; MindSpore (as TensorFlow) reads the
    weights from a 1024-entry table, so the values agree to ~1e-3 of the input's scale."""
    x = rand(2, 2, 5, 7)
    got = ops.interpolate(Tensor(x), size=(9, 13), mode="bicubic", align_corners=True)
    want = F.interpolate(torch.tensor(x), size=(9, 13), mode="bicubic", align_corners=True)
    np.testing.assert_allclose(got.asnumpy(), want.numpy(), atol=5e-3)
    LayerCheck(Call(ops.interpolate, size=(9, 13), mode="bicubic"),
               [x]).against_finite_differences()


@pytest.mark.parametrize("kwargs", [dict(size=(9, 4), mode="bilinear"),
                                    dict(size=(3, 11), mode="bicubic"),
                                    dict(size=(6, 3), mode="nearest"),
                                    dict(size=(2, 3), mode="area")], ids=str)
def test_interpolate_compiles_and_differentiates_in_every_mode(kwargs):
    check = LayerCheck(Call(ops.interpolate, **kwargs), [rand(1, 2, 5, 7)])
    check.against_finite_differences()
    check.in_every_mode()


@needs_torch
@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "area", "nearest"])
def test_a_non_finite_input_reaches_only_the_outputs_that_read_it(mode):
    x = rand(1, 1, 6, 7)
    x[0, 0, 2, 3], x[0, 0, 4, 1] = np.nan, np.inf
    corners = {"align_corners": True} if mode == "bicubic" else {}   # PyTorch's taps
    got = ops.interpolate(Tensor(x), size=(9, 4), mode=mode, **corners).asnumpy()
    want = F.interpolate(torch.tensor(x), size=(9, 4), mode=mode, **corners).numpy()
    np.testing.assert_array_equal(np.isfinite(got), np.isfinite(want))
    assert np.isfinite(got).sum() > got.size // 3


def test_interpolate_dtypes():
    x = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    for dtype in (ms.float16, ms.bfloat16, ms.float32, ms.float64):
        for mode in ("nearest", "bilinear", "bicubic", "area", "nearest-exact"):
            out = ops.interpolate(Tensor(x, dtype), size=(3, 7), mode=mode)
            assert out.dtype == dtype and out.shape == (2, 3, 3, 7)
    half = ops.interpolate(Tensor(x, ms.float16), size=(3, 7), mode="bilinear")
    full = ops.interpolate(Tensor(x, ms.float32), size=(3, 7), mode="bilinear")
    np.testing.assert_allclose(half.asnumpy().astype(np.float32), full.asnumpy(), rtol=1e-3)
    for dtype in (ms.uint8, ms.int32):                 # nearest modes move values exactly
        out = ops.interpolate(Tensor(x, dtype), size=(8, 10))
        assert out.dtype == dtype
        np.testing.assert_array_equal(out.asnumpy(), x.repeat(2, 2).repeat(2, 3))
        with pytest.raises(TypeError, match="float"):
            ops.interpolate(Tensor(x, dtype), size=(3, 7), mode="bilinear")


def test_interpolate_errors_name_the_problem():
    x = Tensor(np.ones((1, 2, 4, 4), np.float32))
    cases = [(dict(size=(3, 3), scale_factor=2.0), ValueError, "simultaneously"),
             (dict(), ValueError, "both empty"),
             (dict(size=(3, 3), mode="foo"), ValueError, "mode"),
             (dict(size=(3,), mode="nearest"), ValueError, "same spatial dimensions"),
             (dict(size=(3, 0)), ValueError, "size\\[1\\]"),
             (dict(scale_factor=-1.0), ValueError, "scale_factor"),
             (dict(size=(3, 3), align_corners=True), ValueError, "align_corners"),
             (dict(size=(3,), mode="linear"), ValueError, "linear only supports"),
             (dict(size=(3, 3), recompute_scale_factor=True), ValueError, "recompute"),
             (dict(size=(3, 3), mode="bilinear", align_corners=1), TypeError, "bool")]
    for kwargs, exc, words in cases:
        with pytest.raises(exc, match=words):
            ops.interpolate(x, **kwargs)
    with pytest.raises(TypeError, match="tensor"):
        ops.interpolate(np.ones((1, 1, 2, 2)), size=(3, 3))


def test_upsample_and_nn_upsample_are_interpolate():
    x = rand(1, 2, 3, 4)
    want = ops.interpolate(Tensor(x), scale_factor=2.0, mode="bilinear").asnumpy()
    np.testing.assert_array_equal(
        ops.upsample(Tensor(x), scale_factor=2.0, mode="bilinear").asnumpy(), want)
    check = LayerCheck(nn.Upsample(scale_factor=2.0, mode="bilinear"), [x])
    check.against_formula(want)
    check.in_every_mode()


def test_resize_classes_check_their_arguments():
    image = Tensor(np.ones((1, 1, 3, 3), np.float32))
    with pytest.raises(ValueError, match="half_pixel_centers"):
        ops.ResizeBilinearV2(True, True)(image, (4, 4))
    with pytest.raises(ValueError, match="4-D"):
        ops.ResizeBicubic()(Tensor(np.ones((3, 3), np.float32)), (4, 4))
    with pytest.raises(ValueError, match="two positive ints"):
        ops.ResizeNearestNeighborV2()(image, (4,))
    with pytest.raises(TypeError, match="float"):
        ops.ResizeBilinearV2()(Tensor(np.ones((1, 1, 3, 3), np.int32)), (4, 4))
    with pytest.raises(ValueError, match="exactly one"):
        ops.UpsampleNearest3D()(Tensor(np.ones((1, 1, 2, 2, 2), np.float32)))
    with pytest.raises(ValueError, match="coordinate_transformation_mode"):
        ops.ResizeLinear1D("nearest")(Tensor(np.ones((1, 1, 3), np.float32)), (4,))
    ints = ops.ResizeNearestNeighbor((6, 6))(Tensor(np.arange(9, dtype=np.int32).reshape(
        1, 1, 3, 3)))
    np.testing.assert_array_equal(ints.asnumpy()[0, 0], np.arange(9).reshape(3, 3).repeat(
        2, 0).repeat(2, 1))


def test_resize_classes_differentiate_in_every_mode():
    check = LayerCheck(Call(ops.ResizeBicubic(half_pixel_centers=True), (4, 6)),
                       [rand(1, 2, 3, 5)])
    check.against_finite_differences()
    check.in_every_mode()


def test_resize_area_pad_v3_and_padding():
    """ResizeArea is a box average (every input pixel's overlap with the box), float32 for
    every dtype; PadV3 / Padding are ops.pad with MindSpore's conventions."""
    x = rand(1, 4, 6, 2)
    got = ops.ResizeArea()(Tensor(x.astype(np.int32)), (2, 3))
    assert got.dtype == ms.float32
    np.testing.assert_allclose(got.asnumpy(), x.astype(np.int32).reshape(1, 2, 2, 3, 2, 2)
                               .mean((2, 4)), rtol=1e-6)
    check = LayerCheck(Call(ops.ResizeArea(), (3, 4)), [x.astype(np.float32)])
    assert check.outputs[0].shape == (1, 3, 4, 2)
    pad = ops.PadV3(mode="edge", paddings_contiguous=False)(Tensor(x), (1, 2, 0, 3))
    np.testing.assert_array_equal(pad.asnumpy(), np.pad(x, ((0, 0), (0, 0), (2, 3), (1, 0)),
                                                        mode="edge"))
    padded = ops.Padding(3)(Tensor(np.array([[2.0], [5.0]])))
    np.testing.assert_array_equal(padded.asnumpy(), [[2, 0, 0], [5, 0, 0]])
    with pytest.raises(ValueError, match="last dimension"):
        ops.Padding(3)(Tensor(np.ones((2, 2))))
    with pytest.raises(ValueError, match="mode"):
        ops.PadV3(mode="replicate")(Tensor(x), (1, 1))
    with pytest.raises(ValueError, match="4-D"):
        ops.ResizeArea()(Tensor(np.ones((4, 6, 2), np.float32)), (2, 3))


def test_resize_area_differentiates_in_every_mode():
    """(It computes in float32, as MindSpore: finite differences of a linear map with a
    large step.)"""
    check = LayerCheck(Call(ops.ResizeArea(align_corners=True), (3, 4)), [rand(1, 5, 7, 2)])
    check.against_finite_differences(eps=0.5, rtol=1e-5)
    check.in_every_mode(rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("fn", [
    lambda a: ops.interpolate(a, size=(6, 3), mode="bilinear"),
    lambda a: ops.pad(a, (1, 2, 2, 1), mode="reflect"),
    lambda a: ops.pixel_shuffle(a, 1)], ids=["interpolate", "pad", "pixel_shuffle"])
def test_vmap_equals_stacking(fn):
    x = rand(3, 1, 2, 4, 5)
    want = np.stack([fn(Tensor(x[i])).asnumpy() for i in range(3)])
    np.testing.assert_allclose(ms.vmap(fn)(Tensor(x)).asnumpy(), want, rtol=1e-12)


# ---- pixel / channel shuffle, repeat_elements, LpNorm ------------------------------------

@needs_torch
@pytest.mark.parametrize("shape,factor", [((2, 8, 2, 3), 2), ((9, 1, 2), 3),
                                          ((1, 2, 8, 2, 3), 2)], ids=str)
def test_pixel_shuffle_and_unshuffle_against_torch(shape, factor):
    x = rand(*shape)
    check_op(ops.pixel_shuffle, F.pixel_shuffle, x, factor, modes=len(shape) == 4)
    shuffled = ops.pixel_shuffle(Tensor(x), factor).asnumpy()
    check_op(ops.pixel_unshuffle, F.pixel_unshuffle, shuffled, factor, modes=False)
    np.testing.assert_array_equal(ops.pixel_unshuffle(Tensor(shuffled), factor).asnumpy(), x)
    check = LayerCheck(nn.PixelShuffle(factor), [x])
    check.against_torch(torch.nn.PixelShuffle(factor))
    LayerCheck(nn.PixelUnshuffle(factor), [shuffled]).against_torch(
        torch.nn.PixelUnshuffle(factor))


@needs_torch
def test_channel_shuffle_against_torch():
    x = rand(2, 6, 2, 3)
    check_op(ops.channel_shuffle, lambda t, g: F.channel_shuffle(t, g), x, 3)
    LayerCheck(nn.ChannelShuffle(2), [x]).against_torch(torch.nn.ChannelShuffle(2))
    np.testing.assert_array_equal(ops.ChannelShuffle(3)(Tensor(x)).asnumpy(),
                                  ops.channel_shuffle(Tensor(x), 3).asnumpy())


def test_shuffles_of_an_empty_batch():
    """(PyTorch 2.13 returns an empty batch of pixel_unshuffle unchanged.)"""
    empty = Tensor(np.zeros((0, 4, 2, 2), np.float32))
    assert ops.pixel_shuffle(empty, 2).shape == (0, 1, 4, 4)
    assert ops.pixel_unshuffle(empty, 2).shape == (0, 16, 1, 1)
    assert ops.channel_shuffle(empty, 2).shape == (0, 4, 2, 2)


def test_shuffle_errors():
    x = Tensor(np.ones((2, 6, 2, 3), np.float32))
    with pytest.raises(ValueError, match="divisible"):
        ops.pixel_shuffle(x, 4)
    with pytest.raises(ValueError, match="divisible"):
        ops.pixel_unshuffle(x, 2)
    with pytest.raises(ValueError, match="> 0"):
        ops.pixel_shuffle(x, 0)
    with pytest.raises(ValueError, match="at least 3"):
        ops.pixel_shuffle(Tensor(np.ones((4, 4), np.float32)), 2)
    with pytest.raises(ValueError, match="divisible"):
        ops.channel_shuffle(x, 4)
    with pytest.raises(TypeError, match="at least 4"):
        ops.channel_shuffle(Tensor(np.ones((6, 2, 3), np.float32)), 2)
    with pytest.raises(ValueError, match="positive"):
        nn.ChannelShuffle(0)


def test_repeat_elements_against_numpy():
    x = rand(2, 3, 4)
    for rep, axis in ((2, 0), (3, 1), (1, -1)):
        check = LayerCheck(Call(ops.repeat_elements, rep, axis), [x])
        check.against_formula(np.repeat(x, rep, axis))
        check.against_finite_differences()
    ints = ops.repeat_elements(Tensor(np.array([[1, 2]], np.int8)), 2, axis=1)
    assert ints.dtype == ms.int8 and ints.asnumpy().tolist() == [[1, 1, 2, 2]]
    with pytest.raises(ValueError, match="rep"):
        ops.repeat_elements(Tensor(x), 0)
    with pytest.raises(ValueError, match="axis"):
        ops.repeat_elements(Tensor(x), 2, 3)
    with pytest.raises(TypeError, match="Bool"):
        ops.repeat_elements(Tensor(x > 0), 2)


@pytest.mark.parametrize("axis,p,keep_dims", [(1, 2, False), ((1, 2), 1, True), (0, 3, False),
                                              (-1, 0, False), ([0, 1], 2, True)], ids=str)
def test_lp_norm_against_numpy(axis, p, keep_dims):
    x = rand(2, 3, 4)
    axes = tuple(axis) if isinstance(axis, list) else axis
    want = (np.count_nonzero(x, axis=axes, keepdims=keep_dims).astype(float) if p == 0 else
            (np.abs(x) ** p).sum(axes, keepdims=keep_dims) ** (1 / p))
    check = LayerCheck(Call(ops.LpNorm(axis, p, keep_dims)), [x])
    check.against_formula(want)
    if p:
        check.against_finite_differences()
    if p == 3:
        check.in_every_mode()


def test_lp_norm_epsilon_zero_gradient_and_errors():
    zeros = Tensor(np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(ops.LpNorm(0, 2, epsilon=1e-3)(zeros).asnumpy(),
                                  np.full(3, 1e-3, np.float32))
    for p in (2, 3):
        grad = ms.grad(lambda a: ops.LpNorm(0, p)(a).sum())(zeros)
        np.testing.assert_array_equal(grad.asnumpy(), np.zeros((2, 3)))
    with pytest.raises(TypeError, match="'p'"):
        ops.LpNorm(0, 2.5)(zeros)
    with pytest.raises(ValueError, match="'p'"):
        ops.LpNorm(0, -1)(zeros)
    with pytest.raises(TypeError, match="float"):
        ops.LpNorm(0)(Tensor(np.ones((2, 3), np.int32)))


# ---- docstrings -------------------------------------------------------------------------

@pytest.mark.parametrize("module", ["tensorjit.ops.resize", "tensorjit.ops.rearrange",
                                    "tensorjit.nn.layers.padding", "tensorjit.nn.layers.resize"])
def test_docstring_examples_run(module):
    result = doctest.testmod(importlib.import_module(module),
                             optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted > 0


def test_pad_docstring_examples_run():
    for fn in (ops.pad, ops.mirror_pad):
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        for test in doctest.DocTestFinder().find(fn, globs={}):
            runner.run(test)
        assert runner.failures == 0 and runner.tries > 0
