"""Layers against NumPy references: Dense, Conv2d, BatchNorm, LayerNorm, pooling, Embedding,
Dropout, activations; and the constructor checks."""
import math

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor

from . import reference as ref

F32 = dict(rtol=1e-5, atol=1e-5)
F64 = dict(rtol=1e-10, atol=1e-12)


def arr(t):
    return t.asnumpy()


# ---- Dense ------------------------------------------------------------------------------

def test_dense_matches_affine_map(rng):
    dense = nn.Dense(5, 3)
    assert dense.weight.shape == (3, 5) and dense.bias.shape == (3,)
    x = rng.standard_normal((4, 5)).astype(np.float32)
    expected = x @ arr(dense.weight).T + arr(dense.bias)
    np.testing.assert_allclose(arr(dense(Tensor(x))), expected, **F32)
    x3 = rng.standard_normal((2, 4, 5)).astype(np.float32)           # leading batch axes
    np.testing.assert_allclose(arr(dense(Tensor(x3))), x3 @ arr(dense.weight).T + arr(dense.bias),
                               **F32)


def test_dense_default_init_bounds():
    dense = nn.Dense(50, 40)
    bound = math.sqrt(2 / (1 + 5)) * math.sqrt(3 / 50)      # HeUniform(sqrt(5)), fan_in 50
    assert np.abs(arr(dense.weight)).max() <= bound
    assert np.abs(arr(dense.bias)).max() <= 1 / math.sqrt(50)


def test_dense_options(rng):
    w = rng.standard_normal((3, 2)).astype(np.float32)
    dense = nn.Dense(2, 3, weight_init=Tensor(w), has_bias=False, activation="relu")
    assert dense.bias is None
    assert [p.name for p in dense.get_parameters()] == ["weight"]
    x = rng.standard_normal((4, 2)).astype(np.float32)
    np.testing.assert_allclose(arr(dense(Tensor(x))), np.maximum(x @ w.T, 0), **F32)
    d64 = nn.Dense(2, 2, bias_init="ones", dtype=ms.float64)
    assert d64.weight.dtype == ms.float64
    np.testing.assert_array_equal(arr(d64.bias), [1.0, 1.0])


def test_dense_errors():
    with pytest.raises(ValueError, match="Dense.*in_channels.*0"):
        nn.Dense(0, 3)
    with pytest.raises(TypeError, match="Dense.*out_channels"):
        nn.Dense(3, 2.5)
    with pytest.raises(ValueError, match="Dense.*weight_init"):
        nn.Dense(3, 2, weight_init=Tensor(np.zeros((3, 2), np.float32)))
    with pytest.raises(ValueError, match="Dense.*nope"):
        nn.Dense(3, 2, activation="nope")
    with pytest.raises(ValueError, match="Dense.*last axis"):
        nn.Dense(3, 2)(Tensor(np.zeros((1, 4), np.float32)))


# ---- Conv2d -----------------------------------------------------------------------------

@pytest.mark.parametrize("case", [
    dict(kernel=3, stride=1, pad_mode="same", padding=0, dilation=1, group=1),
    dict(kernel=3, stride=2, pad_mode="same", padding=0, dilation=1, group=1),
    dict(kernel=(2, 3), stride=(1, 2), pad_mode="valid", padding=0, dilation=1, group=1),
    dict(kernel=3, stride=1, pad_mode="pad", padding=1, dilation=1, group=1),
    dict(kernel=3, stride=2, pad_mode="pad", padding=(1, 0, 2, 1), dilation=1, group=1),
    dict(kernel=3, stride=1, pad_mode="same", padding=0, dilation=2, group=1),
    dict(kernel=1, stride=1, pad_mode="valid", padding=0, dilation=1, group=2),
])
def test_conv2d_matches_direct_convolution(rng, case):
    cin, cout, h, w = 4, 6, 7, 8
    conv = nn.Conv2d(cin, cout, case["kernel"], stride=case["stride"], pad_mode=case["pad_mode"],
                     padding=case["padding"], dilation=case["dilation"], group=case["group"],
                     has_bias=True, dtype=ms.float64)
    x = rng.standard_normal((2, cin, h, w))
    kh, kw = conv.kernel_size
    sh, sw = conv.stride
    dh, dw = conv.dilation
    if case["pad_mode"] == "same":
        pads = ref.same_padding(h, kh, sh, dh) + ref.same_padding(w, kw, sw, dw)
    elif case["pad_mode"] == "pad":
        p = case["padding"]
        pads = (p,) * 4 if isinstance(p, int) else p
    else:
        pads = (0, 0, 0, 0)
    expected = ref.conv2d(x, arr(conv.weight), arr(conv.bias), (sh, sw), pads, (dh, dw),
                          case["group"])
    np.testing.assert_allclose(arr(conv(Tensor(x))), expected, **F64)
    if case["pad_mode"] == "same":
        assert conv(Tensor(x)).shape[2:] == (math.ceil(h / sh), math.ceil(w / sw))


def test_conv2d_defaults_and_weight_shape():
    conv = nn.Conv2d(4, 6, 3, group=2)
    assert conv.weight.shape == (6, 2, 3, 3) and conv.bias is None
    assert conv.pad_mode == "same" and conv.weight.name == "weight"


@pytest.mark.parametrize("kwargs, error, pattern", [
    (dict(pad_mode="smae"), ValueError, "Conv2d.*pad_mode.*smae"),
    (dict(pad_mode="same", padding=1), ValueError, "Conv2d.*padding"),
    (dict(in_channels=0), ValueError, "Conv2d.*in_channels"),
    (dict(out_channels=-2), ValueError, "Conv2d.*out_channels"),
    (dict(group=3), ValueError, "Conv2d.*group"),
    (dict(kernel_size=0), ValueError, "Conv2d.*kernel_size"),
    (dict(stride=(1, 2, 3)), TypeError, "Conv2d.*stride"),
    (dict(data_format="NHWC"), ValueError, "Conv2d.*NHWC"),
    (dict(has_bias=1), TypeError, "Conv2d.*has_bias"),
])
def test_conv2d_constructor_errors(kwargs, error, pattern):
    args = dict(in_channels=4, out_channels=4, kernel_size=3)
    args.update(kwargs)
    with pytest.raises(error, match=pattern):
        nn.Conv2d(**args)


def test_conv2d_rejects_wrong_channels():
    with pytest.raises(ValueError, match="Conv2d.*4 channels"):
        nn.Conv2d(4, 2, 3)(Tensor(np.zeros((1, 3, 5, 5), np.float32)))


# ---- BatchNorm --------------------------------------------------------------------------

def _randomize_bn(bn, rng):
    c = bn.num_features
    bn.gamma.set_data(Tensor(rng.uniform(0.5, 1.5, c)))
    bn.beta.set_data(Tensor(rng.standard_normal(c)))
    bn.moving_mean.set_data(Tensor(rng.standard_normal(c)))
    bn.moving_variance.set_data(Tensor(rng.uniform(0.5, 2.0, c)))


def test_batchnorm2d_training_uses_batch_stats_and_updates_moving(rng):
    bn = nn.BatchNorm2d(3, momentum=0.8, dtype=ms.float64).set_train()
    _randomize_bn(bn, rng)
    x = rng.standard_normal((4, 3, 5, 5)) * 2 + 1
    state = [arr(p).copy() for p in (bn.gamma, bn.beta, bn.moving_mean, bn.moving_variance)]
    y = bn(Tensor(x))
    expected, mean, var = ref.batch_norm_train(x, *state, momentum=0.8, eps=1e-5)
    np.testing.assert_allclose(arr(y), expected, **F64)
    np.testing.assert_allclose(arr(bn.moving_mean), mean, **F64)
    np.testing.assert_allclose(arr(bn.moving_variance), var, **F64)
    # A second step starts from the updated moving statistics.
    x2 = rng.standard_normal((4, 3, 5, 5))
    _, mean2, var2 = ref.batch_norm_train(x2, state[0], state[1], mean, var, 0.8, 1e-5)
    bn(Tensor(x2))
    np.testing.assert_allclose(arr(bn.moving_mean), mean2, **F64)
    np.testing.assert_allclose(arr(bn.moving_variance), var2, **F64)


def test_batchnorm2d_eval_uses_moving_stats_and_keeps_them(rng):
    bn = nn.BatchNorm2d(3, eps=1e-3, dtype=ms.float64)          # inference by default
    _randomize_bn(bn, rng)
    x = rng.standard_normal((2, 3, 4, 4))
    before = arr(bn.moving_mean).copy(), arr(bn.moving_variance).copy()
    expected = ref.batch_norm_eval(x, arr(bn.gamma), arr(bn.beta), *before, eps=1e-3)
    np.testing.assert_allclose(arr(bn(Tensor(x))), expected, **F64)
    np.testing.assert_array_equal(arr(bn.moving_mean), before[0])
    np.testing.assert_array_equal(arr(bn.moving_variance), before[1])


def test_batchnorm_use_batch_statistics_overrides_mode(rng):
    x = rng.standard_normal((3, 2, 4, 4))
    always = nn.BatchNorm2d(2, use_batch_statistics=True, dtype=ms.float64)   # eval mode
    expected, _, _ = ref.batch_norm_train(x, np.ones(2), np.zeros(2), np.zeros(2), np.ones(2),
                                          0.9, 1e-5)
    np.testing.assert_allclose(arr(always(Tensor(x))), expected, **F64)
    never = nn.BatchNorm2d(2, use_batch_statistics=False, dtype=ms.float64).set_train()
    np.testing.assert_allclose(arr(never(Tensor(x))), x / np.sqrt(1 + 1e-5), **F64)
    np.testing.assert_array_equal(arr(never.moving_mean), np.zeros(2))


def test_batchnorm_parameters_and_float32_default(rng):
    bn = nn.BatchNorm2d(4)
    assert [p.name for p in bn.trainable_params()] == ["gamma", "beta"]
    assert [p.name for p in bn.untrainable_params()] == ["moving_mean", "moving_variance"]
    assert bn.gamma.dtype == ms.float32
    frozen = nn.BatchNorm2d(4, affine=False)
    assert frozen.trainable_params() == []
    x = rng.standard_normal((2, 4, 3, 3)).astype(np.float32)
    bn.set_train()
    expected, _, _ = ref.batch_norm_train(x.astype(np.float64), np.ones(4), np.zeros(4),
                                          np.zeros(4), np.ones(4), 0.9, 1e-5)
    np.testing.assert_allclose(arr(bn(Tensor(x))), expected, rtol=1e-4, atol=1e-5)


def test_batchnorm1d(rng):
    bn = nn.BatchNorm1d(3, dtype=ms.float64).set_train()
    x = rng.standard_normal((8, 3))
    expected, mean, var = ref.batch_norm_train(x, np.ones(3), np.zeros(3), np.zeros(3),
                                               np.ones(3), 0.9, 1e-5)
    np.testing.assert_allclose(arr(bn(Tensor(x))), expected, **F64)
    np.testing.assert_allclose(arr(bn.moving_variance), var, **F64)
    x3 = rng.standard_normal((4, 3, 5))
    expected3, _, _ = ref.batch_norm_train(x3, np.ones(3), np.zeros(3), np.zeros(3),
                                           np.ones(3), 0.9, 1e-5)
    np.testing.assert_allclose(arr(bn(Tensor(x3))), expected3, **F64)


def test_batchnorm_errors():
    with pytest.raises(ValueError, match="BatchNorm2d.*momentum"):
        nn.BatchNorm2d(3, momentum=1.5)
    with pytest.raises(ValueError, match="BatchNorm2d.*num_features"):
        nn.BatchNorm2d(0)
    with pytest.raises(ValueError, match="BatchNorm2d.*eps"):
        nn.BatchNorm2d(3, eps=0)
    with pytest.raises(ValueError, match="BatchNorm2d.*4-D"):
        nn.BatchNorm2d(3)(Tensor(np.zeros((2, 3), np.float32)))
    with pytest.raises(ValueError, match="BatchNorm1d"):
        nn.BatchNorm1d(3)(Tensor(np.zeros((2, 4), np.float32)))


# ---- LayerNorm --------------------------------------------------------------------------

def test_layernorm_last_axis(rng):
    ln = nn.LayerNorm((6,), dtype=ms.float64)
    ln.gamma.set_data(Tensor(rng.standard_normal(6)))
    ln.beta.set_data(Tensor(rng.standard_normal(6)))
    x = rng.standard_normal((2, 3, 6)) * 3
    expected = ref.layer_norm(x, -1, arr(ln.gamma), arr(ln.beta), 1e-7)
    np.testing.assert_allclose(arr(ln(Tensor(x))), expected, rtol=1e-9, atol=1e-10)
    assert [p.name for p in ln.get_parameters()] == ["gamma", "beta"]


def test_layernorm_several_axes_and_split_axes(rng):
    x = rng.standard_normal((2, 3, 4))
    ln = nn.LayerNorm((3, 4), begin_norm_axis=1, begin_params_axis=1, epsilon=1e-5,
                      dtype=ms.float64)
    ln.gamma.set_data(Tensor(rng.standard_normal((3, 4))))
    expected = ref.layer_norm(x, 1, arr(ln.gamma), arr(ln.beta), 1e-5)
    np.testing.assert_allclose(arr(ln(Tensor(x))), expected, rtol=1e-9, atol=1e-10)
    # Normalise over axes 1.. but scale only along the last axis.
    split = nn.LayerNorm((4,), begin_norm_axis=1, begin_params_axis=-1, dtype=ms.float64)
    split.gamma.set_data(Tensor(rng.standard_normal(4)))
    expected = ref.layer_norm(x, 1, arr(split.gamma), arr(split.beta), 1e-7)
    np.testing.assert_allclose(arr(split(Tensor(x))), expected, rtol=1e-9, atol=1e-10)


def test_layernorm_errors():
    with pytest.raises(TypeError, match="LayerNorm.*normalized_shape"):
        nn.LayerNorm("4")
    with pytest.raises(ValueError, match="LayerNorm.*does not match"):
        nn.LayerNorm((5,))(Tensor(np.zeros((2, 4), np.float32)))


# ---- pooling ----------------------------------------------------------------------------

def test_max_and_avg_pool(rng):
    x = rng.standard_normal((2, 3, 7, 6))
    t = Tensor(x)
    np.testing.assert_allclose(arr(nn.MaxPool2d(2, 2)(t)), ref.pool2d(x, (2, 2), (2, 2)), **F64)
    np.testing.assert_allclose(arr(nn.MaxPool2d((3, 2), (1, 2))(t)),
                               ref.pool2d(x, (3, 2), (1, 2)), **F64)
    np.testing.assert_allclose(arr(nn.AvgPool2d(2, 2)(t)),
                               ref.pool2d(x, (2, 2), (2, 2), mode="avg"), **F64)
    pads = ref.same_padding(7, 3, 2, 1) + ref.same_padding(6, 3, 2, 1)
    np.testing.assert_allclose(arr(nn.MaxPool2d(3, 2, pad_mode="same")(t)),
                               ref.pool2d(x, (3, 3), (2, 2), pads), **F64)
    np.testing.assert_allclose(arr(nn.MaxPool2d(3, 1, pad_mode="pad", padding=1)(t)),
                               ref.pool2d(x, (3, 3), (1, 1), (1, 1, 1, 1)), **F64)


def test_adaptive_avg_pool(rng):
    x = rng.standard_normal((2, 3, 6, 4))
    np.testing.assert_allclose(arr(nn.AdaptiveAvgPool2d(1)(Tensor(x))),
                               x.mean(axis=(2, 3), keepdims=True), **F64)
    expected = x.reshape(2, 3, 3, 2, 2, 2).mean(axis=(3, 5))
    np.testing.assert_allclose(arr(nn.AdaptiveAvgPool2d((3, 2))(Tensor(x))), expected, **F64)
    keep_h = x.reshape(2, 3, 6, 1, 4).mean(axis=4)
    np.testing.assert_allclose(arr(nn.AdaptiveAvgPool2d((None, 1))(Tensor(x))), keep_h, **F64)


def test_pool_errors():
    with pytest.raises(ValueError, match="MaxPool2d.*pad_mode"):
        nn.MaxPool2d(2, pad_mode="full")
    with pytest.raises(ValueError, match="AvgPool2d.*padding"):
        nn.AvgPool2d(2, padding=1)
    with pytest.raises(ValueError, match="MaxPool2d.*kernel_size"):
        nn.MaxPool2d(0)


# ---- Embedding --------------------------------------------------------------------------

def test_embedding_lookup(rng):
    emb = nn.Embedding(10, 4)
    table = arr(emb.embedding_table)
    assert table.shape == (10, 4) and emb.embedding_table.name == "embedding_table"
    assert abs(table.std() - 0.01) < 0.01                 # 'normal' = N(0, 0.01^2)
    ids = rng.integers(0, 10, (3, 5)).astype(np.int32)
    np.testing.assert_array_equal(arr(emb(Tensor(ids))), table[ids])
    one_hot = nn.Embedding(10, 4, use_one_hot=True, embedding_table=Tensor(table))
    np.testing.assert_allclose(arr(one_hot(Tensor(ids))), table[ids], rtol=1e-6, atol=1e-7)


def test_embedding_padding_idx_and_errors():
    emb = nn.Embedding(5, 3, embedding_table="ones", padding_idx=2)
    np.testing.assert_array_equal(arr(emb.embedding_table)[2], np.zeros(3))
    np.testing.assert_array_equal(arr(emb.embedding_table)[1], np.ones(3))
    with pytest.raises(ValueError, match="Embedding.*padding_idx"):
        nn.Embedding(5, 3, padding_idx=5)
    with pytest.raises(ValueError, match="Embedding.*vocab_size"):
        nn.Embedding(0, 3)
    with pytest.raises(TypeError, match="Embedding.*integer"):
        emb(Tensor(np.zeros(2, np.float32)))


# ---- Dropout ----------------------------------------------------------------------------

def test_dropout_identity_cases(rng):
    x = Tensor(rng.standard_normal((50, 40)).astype(np.float32))
    assert nn.Dropout(p=0.5)(x) is x                        # inference mode
    assert nn.Dropout(p=0.0).set_train()(x) is x
    assert nn.Dropout(keep_prob=1.0).set_train()(x) is x


def test_dropout_training_scales_kept_and_zeroes_a_fraction_p():
    x = np.ones((400, 250), np.float32)
    for p in (0.2, 0.5):
        out = arr(nn.Dropout(p=p).set_train()(Tensor(x)))
        kept = out != 0
        np.testing.assert_allclose(out[kept], 1.0 / (1.0 - p), rtol=1e-6)
        assert abs((~kept).mean() - p) < 0.01               # 100k draws: sd ~ 0.0016
    drop = nn.Dropout(keep_prob=0.75)
    assert drop.p == pytest.approx(0.25) and nn.Dropout().p == 0.5


def test_dropout_errors():
    with pytest.raises(ValueError, match="Dropout.*p"):
        nn.Dropout(p=1.0)
    with pytest.raises(ValueError, match="Dropout.*keep_prob"):
        nn.Dropout(keep_prob=0.0)
    with pytest.raises(TypeError, match="Dropout"):
        nn.Dropout(p="0.5")


# ---- activations and small layers -------------------------------------------------------

def test_activations(rng):
    x = rng.standard_normal((3, 5)) * 3
    t = Tensor(x)
    c = math.sqrt(2 / math.pi)
    gelu_tanh = 0.5 * x * (1 + np.tanh(c * (x + 0.044715 * x ** 3)))
    erf = np.vectorize(math.erf)
    cases = [
        (nn.ReLU(), np.maximum(x, 0)),
        (nn.ReLU6(), np.clip(x, 0, 6)),
        (nn.LeakyReLU(0.1), np.where(x > 0, x, 0.1 * x)),
        (nn.GELU(), gelu_tanh),
        (nn.GELU(approximate=False), 0.5 * x * (1 + erf(x / math.sqrt(2)))),
        (nn.SiLU(), x / (1 + np.exp(-x))),
        (nn.Sigmoid(), 1 / (1 + np.exp(-x))),
        (nn.Tanh(), np.tanh(x)),
        (nn.Softmax(), ref.softmax(x)),
        (nn.Softmax(axis=0), ref.softmax(x, axis=0)),
        (nn.LogSoftmax(), ref.log_softmax(x)),
        (nn.ELU(), np.where(x > 0, x, np.expm1(x))),
    ]
    for cell, expected in cases:
        np.testing.assert_allclose(arr(cell(t)), expected, rtol=1e-9, atol=1e-12,
                                   err_msg=type(cell).__name__)


def test_flatten_and_identity(rng):
    x = rng.standard_normal((2, 3, 4, 5))
    assert nn.Flatten()(Tensor(x)).shape == (2, 60)
    np.testing.assert_array_equal(arr(nn.Flatten(0, 1)(Tensor(x))), x.reshape(6, 4, 5))
    t = Tensor(x)
    assert nn.Identity()(t) is t
