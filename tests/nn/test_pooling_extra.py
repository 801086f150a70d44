"""The pooling layers beyond 2-D max / average pooling (1-D and 3-D max / average,
adaptive 1-3-D, LP, max unpooling) and MindSpore's pooling operator classes: against
PyTorch's modules, finite differences, and eagerly against every capture mode and level
(tests/nn/layer_check.py); against MindSpore 2.10's recorded results where PyTorch has no
counterpart (record_pooling_extra.py); and their argument errors."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, ops, Tensor

from .layer_check import LayerCheck, torch
from . import record_pooling_extra as recorded


def distinct(*shape, seed=0):
    """Values without ties: a unique maximum per window (finite differences need one)."""
    rng = np.random.default_rng(seed + sum(shape))
    return rng.permutation(int(np.prod(shape))).reshape(shape) * 0.1 - 1.0


# fractional pooling's samples (N=1, C=2, one per axis), float64 as the inputs
SAMPLES = {2: np.array([[[0.3, 0.8], [0.55, 0.1]]]),
           3: np.array([[[0.3, 0.8, 0.2], [0.55, 0.1, 0.9]]])}


def tm(name, *args, **kwargs):
    if torch is None:
        return None
    samples = kwargs.get("_random_samples")
    if isinstance(samples, np.ndarray):
        kwargs["_random_samples"] = torch.tensor(samples)
    return getattr(torch.nn, name)(*args, **kwargs)


# ---- layers against PyTorch, finite differences and every mode --------------------------------

# name: (tensorjit layer, PyTorch module factory, input shape)
CASES = {
    "AvgPool1d pad ceil": (lambda: nn.AvgPool1d(3, 2, "pad", 1, True, False),
                           lambda: tm("AvgPool1d", 3, 2, 1, True, False), (2, 3, 9)),
    "AvgPool1d unbatched": (lambda: nn.AvgPool1d(2, 1),
                            lambda: tm("AvgPool1d", 2, 1), (3, 6)),
    "MaxPool1d pad dilation indices": (
        lambda: nn.MaxPool1d(3, 2, "pad", 1, 2, True, True),
        lambda: tm("MaxPool1d", 3, 2, 1, 2, True, True), (2, 3, 9)),
    "AvgPool3d pad divisor": (
        lambda: nn.AvgPool3d((2, 3, 2), (1, 2, 1), "pad", (1, 1, 0), True, False, 5),
        lambda: tm("AvgPool3d", (2, 3, 2), (1, 2, 1), (1, 1, 0), True, False, 5),
        (1, 2, 4, 5, 4)),
    "MaxPool3d pad indices": (lambda: nn.MaxPool3d(2, 2, "pad", 1, 1, True, True),
                              lambda: tm("MaxPool3d", 2, 2, 1, 1, True, True), (1, 2, 4, 5, 3)),
    "MaxPool3d unbatched": (lambda: nn.MaxPool3d(2, 1), lambda: tm("MaxPool3d", 2, 1),
                            (2, 3, 3, 4)),
    "AdaptiveAvgPool1d": (lambda: nn.AdaptiveAvgPool1d(4),
                          lambda: tm("AdaptiveAvgPool1d", 4), (2, 3, 9)),
    "AdaptiveAvgPool3d": (lambda: nn.AdaptiveAvgPool3d((2, None, 3)),
                          lambda: tm("AdaptiveAvgPool3d", (2, None, 3)), (1, 2, 5, 3, 4)),
    "AdaptiveMaxPool1d": (lambda: nn.AdaptiveMaxPool1d(4),
                          lambda: tm("AdaptiveMaxPool1d", 4), (2, 3, 9)),
    "AdaptiveMaxPool2d indices": (lambda: nn.AdaptiveMaxPool2d((3, 4), True),
                                  lambda: tm("AdaptiveMaxPool2d", (3, 4), True), (2, 2, 7, 5)),
    "AdaptiveMaxPool3d": (lambda: nn.AdaptiveMaxPool3d((2, 3, 2)),
                          lambda: tm("AdaptiveMaxPool3d", (2, 3, 2)), (1, 2, 5, 4, 3)),
    "LPPool1d": (lambda: nn.LPPool1d(2, 3, 2), lambda: tm("LPPool1d", 2, 3, 2), (2, 3, 9)),
    "LPPool2d ceil": (lambda: nn.LPPool2d(3, 2, 2, True),
                      lambda: tm("LPPool2d", 3, 2, 2, True), (1, 2, 5, 5)),
    "FractionalMaxPool2d": (
        lambda: nn.FractionalMaxPool2d(2, (3, 4), return_indices=True,
                                       _random_samples=Tensor(SAMPLES[2])),
        lambda: tm("FractionalMaxPool2d", 2, (3, 4), return_indices=True,
                   _random_samples=SAMPLES[2]), (1, 2, 6, 7)),
    "FractionalMaxPool3d": (
        lambda: nn.FractionalMaxPool3d(2, output_ratio=(0.5, 0.6, 0.7),
                                       _random_samples=Tensor(SAMPLES[3])),
        lambda: tm("FractionalMaxPool3d", 2, output_ratio=(0.5, 0.6, 0.7),
                   _random_samples=SAMPLES[3]), (1, 2, 5, 5, 6)),
    # the options MaxPool2d / AvgPool2d / AdaptiveAvgPool2d gained with these layers
    "MaxPool2d pad ceil indices": (lambda: nn.MaxPool2d(3, 2, "pad", 1, 2, True, True),
                                   lambda: tm("MaxPool2d", 3, 2, 1, 2, True, True),
                                   (1, 2, 7, 8)),
    "AvgPool2d pad ceil": (lambda: nn.AvgPool2d(3, 2, "pad", 1, True, False),
                           lambda: tm("AvgPool2d", 3, 2, 1, True, False), (2, 2, 7, 8)),
    "AdaptiveAvgPool2d uneven": (lambda: nn.AdaptiveAvgPool2d((3, 5)),
                                 lambda: tm("AdaptiveAvgPool2d", (3, 5)), (1, 2, 7, 8)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_pooling_layers_against_torch_differences_and_every_mode(name):
    make, make_torch, shape = CASES[name]
    x = distinct(*shape)
    if "LPPool" in name:
        x = np.abs(x) + 0.5          # positive windows: x ** p has a derivative
    check = LayerCheck(make(), [x])
    check.against_torch(make_torch())
    check.against_finite_differences()
    check.in_every_mode()


@pytest.mark.parametrize("rank", [1, 2, 3])
def test_max_unpool_inverts_max_pool_with_indices(rank):
    shape = {1: (2, 3, 8), 2: (2, 2, 6, 4), 3: (1, 2, 4, 4, 2)}[rank]
    x = distinct(*shape)
    pool = {1: nn.MaxPool1d, 2: None, 3: nn.MaxPool3d}[rank]
    if pool is None:
        values, indices = ops.MaxPoolWithArgmaxV2(2, 2)(Tensor(x))
    else:
        values, indices = pool(2, 2, "pad", return_indices=True)(Tensor(x))
    unpool = getattr(nn, f"MaxUnpool{rank}d")(2)
    restored = unpool(values, indices).asnumpy()
    # every window's maximum back in its place, the rest 0
    kept = restored != 0
    np.testing.assert_array_equal(restored[kept], x[kept])
    assert kept.sum() == values.size
    check = LayerCheck(unpool, [values.asnumpy(), indices.asnumpy()])
    if torch is not None:
        check.against_torch(tm(f"MaxUnpool{rank}d", 2))
    check.against_finite_differences()
    check.in_every_mode()
    # an explicit output size, the whole shape or the spatial sizes
    sizes = tuple(shape[2:])
    np.testing.assert_array_equal(unpool(values, indices, shape).asnumpy(), restored)
    np.testing.assert_array_equal(unpool(values, indices, sizes).asnumpy(), restored)


# ---- against MindSpore 2.10's recorded results -------------------------------------------------

RECORD = dict(np.load(recorded.RECORD))


@pytest.mark.parametrize("case", recorded.CASES, ids=[c[0] for c in recorded.CASES])
def test_layers_and_operator_classes_follow_mindspore(case):
    label, name, args, kwargs, names = case
    inputs = [Tensor(RECORD[n]) for n in names]
    cell = recorded.build(ms, name, args, kwargs, RECORD)
    out = cell(*inputs)
    outs = out if isinstance(out, tuple) else (out,)
    assert sum(k.startswith(label + "#") for k in RECORD) == len(outs)
    for i, o in enumerate(outs):
        want = RECORD[f"{label}#{i}"]
        assert o.dtype == want.dtype, (i, o.dtype, want.dtype)
        np.testing.assert_allclose(o.asnumpy(), want, rtol=1e-5, atol=1e-6, err_msg=str(i))


def test_operator_classes_run_in_every_mode():
    x = Tensor(RECORD["x5"])
    sizes = Tensor(RECORD["sizes"])
    classes = [ops.AvgPool3D(2, 2, "same"), ops.MaxPool3D(2, 2, "pad", 1, True),
               ops.MaxPool3DWithArgmax(2, 2, 1), ops.AdaptiveAvgPool3D((3, 4, None))]

    def run(x):
        outs = [c(x) for c in classes] + [ops.AdaptiveMaxPool3D()(x, sizes)]
        return [o for out in outs for o in (out if isinstance(out, tuple) else (out,))]
    expected = [o.asnumpy() for o in run(x)]
    for mode in ("trace", "ast", "bytecode"):
        for level in ("O0", "O1"):
            got = ms.jit(run, capture_mode=mode, jit_level=level)(x)
            for g, e in zip(got, expected):
                np.testing.assert_array_equal(g.asnumpy(), e, err_msg=f"{mode} {level}")


# ---- argument errors name the layer --------------------------------------------------------------

@pytest.mark.parametrize("make, exc, match", [
    (lambda: nn.AvgPool1d(0), ValueError, "AvgPool1d: 'kernel_size' must be >= 1"),
    (lambda: nn.AvgPool1d(2, pad_mode="full"), ValueError, "AvgPool1d: 'pad_mode'"),
    (lambda: nn.AvgPool1d(2, padding=1), ValueError, "AvgPool1d: 'padding' must be 0"),
    (lambda: nn.MaxPool1d(2, return_indices=True), ValueError, "MaxPool1d: .*pad_mode='pad'"),
    (lambda: nn.MaxPool3d(2, 1, dilation=2), ValueError, "MaxPool3d: .*pad_mode='pad'"),
    (lambda: nn.AvgPool3d((2, 2), 1), TypeError, "AvgPool3d: 'kernel_size' must be an int or"),
    (lambda: nn.AvgPool3d(2, divisor_override=0), ValueError, "AvgPool3d: 'divisor_override'"),
    (lambda: nn.AdaptiveAvgPool1d(0), ValueError, "AdaptiveAvgPool1d: 'output_size'"),
    (lambda: nn.AdaptiveMaxPool2d((2, 2, 2)), TypeError, "AdaptiveMaxPool2d: 'output_size'"),
    (lambda: nn.LPPool1d(0, 2), ValueError, "LPPool1d: 'norm_type' can not be 0"),
    (lambda: nn.LPPool2d("2", 2), TypeError, "LPPool2d: 'norm_type'"),
    (lambda: nn.MaxUnpool2d(2, padding=-1), ValueError, "MaxUnpool2d: 'padding' must be >= 0"),
])
def test_bad_arguments_name_the_layer(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


@pytest.mark.parametrize("call, exc, match", [
    (lambda: nn.AvgPool1d(2)(Tensor(np.ones((1, 2, 3, 4), np.float32))), ValueError,
     "AvgPool1d: expected a 2-D or 3-D input"),
    (lambda: nn.AvgPool3d(2)(Tensor(np.ones((1, 2, 4, 4, 4), np.int32))), TypeError,
     "AvgPool3d: the input must be a float"),
    (lambda: nn.MaxPool3d(2)(Tensor(np.ones((1, 2, 4, 4, 4), bool))), TypeError,
     "MaxPool3d: not defined for bool"),
    (lambda: nn.MaxPool1d(5)(Tensor(np.ones((1, 2, 3), np.float32))), ValueError,
     "MaxPool1d: the kernel .* is larger than the padded input"),
    (lambda: nn.AdaptiveAvgPool1d(2)(Tensor(np.ones((2, 4), np.float32))), ValueError,
     "AdaptiveAvgPool1d: expected a 3-D input"),
    (lambda: nn.MaxUnpool1d(2)(Tensor(np.ones((1, 2, 3), np.float32)),
                               Tensor(np.zeros((1, 2, 3), np.float32))), TypeError,
     "MaxUnpool1d: 'indices' must be an int32 or int64"),
    (lambda: nn.MaxUnpool1d(2)(Tensor(np.ones((1, 2, 3), np.float32)),
                               Tensor(np.zeros((1, 2, 3), np.int64)), (1, 2, 20)), ValueError,
     "MaxUnpool1d: 'output_size'"),
    (lambda: ops.max_pool3d(Tensor(np.ones((1, 2, 4, 4, 4), np.float32)), 2, 1, 2), ValueError,
     "max_pool3d: the padding on each side must be at most half the kernel"),
])
def test_bad_inputs_name_the_op(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_errors_inside_jit_are_the_same():
    cell = nn.AvgPool3d(2)
    x = Tensor(np.ones((1, 2, 4, 4, 4), np.int32))
    for mode in ("trace", "ast", "bytecode"):
        with pytest.raises(TypeError, match="AvgPool3d: the input must be a float"):
            ms.jit(cell, capture_mode=mode)(x)
