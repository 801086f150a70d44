"""The seed workloads (ResNet BasicBlock, Llama attention) against independent NumPy
implementations, and their parameter gradients against finite differences (float64)."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor
from tensorjit.bench import workloads as W

from . import reference as ref


def params_by_name(cell):
    return {p.name: p.asnumpy().copy() for p in cell.get_parameters()}


def randomize_batchnorms(block, rng):
    """Non-trivial BN parameters and moving statistics, so eval mode is a real test."""
    for _, cell in block.cells_and_names():
        if isinstance(cell, nn.BatchNorm2d):
            c = cell.num_features
            cell.gamma.set_data(Tensor(rng.uniform(0.5, 1.5, c)))
            cell.beta.set_data(Tensor(rng.standard_normal(c) * 0.1))
            cell.moving_mean.set_data(Tensor(rng.standard_normal(c) * 0.1))
            cell.moving_variance.set_data(Tensor(rng.uniform(0.5, 2.0, c)))


def finite_difference_check(fn, params, grads, rng, entries=4, eps=1e-6):
    """Compare ``grads`` with central differences of ``fn()`` on a few entries of each
    parameter."""
    assert len(grads) == len(params)
    for p, g in zip(params, grads):
        assert tuple(g.shape) == tuple(p.shape), p.name
        g = g.asnumpy()
        original = p.asnumpy().copy()
        for k in rng.choice(original.size, min(entries, original.size), replace=False):
            index = np.unravel_index(k, original.shape)
            values = []
            for delta in (eps, -eps):
                shifted = original.copy()
                shifted[index] += delta
                p.set_data(Tensor(shifted))
                values.append(fn())
            p.set_data(Tensor(original))
            numeric = (values[0] - values[1]) / (2 * eps)
            assert abs(numeric - g[index]) <= 1e-6 + 1e-5 * abs(numeric), \
                f"{p.name}{index}: analytic {g[index]}, numeric {numeric}"


# ---- BasicBlock -------------------------------------------------------------------------

@pytest.mark.parametrize("in_channel, out_channel, stride", [(4, 4, 1), (3, 5, 2)])
def test_basic_block_eval_forward(rng, in_channel, out_channel, stride):
    w = W.resnet_block("tiny", dtype=ms.float64, in_channel=in_channel,
                       out_channel=out_channel, stride=stride)
    block = w.cell
    assert block.training is False
    assert (block.down_sample is not None) == (stride != 1 or in_channel != out_channel)
    randomize_batchnorms(block, rng)
    params = params_by_name(block)
    x = w.args[0].asnumpy()
    expected, _ = ref.basic_block(x, params, stride, training=False)
    out = block(*w.args)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-10, atol=1e-12)
    # Inference leaves the moving statistics alone.
    for name, value in params_by_name(block).items():
        np.testing.assert_array_equal(value, params[name])


@pytest.mark.parametrize("in_channel, out_channel, stride", [(4, 4, 1), (3, 5, 2)])
def test_basic_block_train_forward_updates_moving_stats(rng, in_channel, out_channel, stride):
    w = W.resnet_block("tiny", dtype=ms.float64, training=True, in_channel=in_channel,
                       out_channel=out_channel, stride=stride)
    block = w.cell
    randomize_batchnorms(block, rng)
    params = params_by_name(block)
    x = w.args[0].asnumpy()
    expected, updates = ref.basic_block(x, params, stride, training=True)
    out = block(*w.args)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-10, atol=1e-12)
    after = params_by_name(block)
    assert len(updates) == (6 if block.down_sample is not None else 4)
    for name, value in updates.items():
        np.testing.assert_allclose(after[name], value, rtol=1e-10, atol=1e-12, err_msg=name)


def test_basic_block_parameter_names():
    block = W.BasicBlock(3, 5, stride=2)
    assert [p.name for p in block.trainable_params()] == [
        "conv1.weight", "bn1.gamma", "bn1.beta", "conv2.weight", "bn2.gamma", "bn2.beta",
        "down_sample.0.weight", "down_sample.1.gamma", "down_sample.1.beta"]
    assert block.conv1.weight.shape == (5, 3, 3, 3)


@pytest.mark.parametrize("training", [False, True])
def test_basic_block_gradients_match_finite_differences(rng, training):
    w = W.resnet_block("tiny", dtype=ms.float64, training=training, in_channel=3,
                       out_channel=4, stride=2)
    block = w.cell
    randomize_batchnorms(block, rng)
    params = block.trainable_params()
    grad_fn = ms.value_and_grad(block, None, params)
    out, grads = grad_fn(*w.args)
    assert tuple(out.shape) == (2, 4, 3, 3)
    finite_difference_check(lambda: float(block(*w.args).asnumpy().sum()), params, grads, rng)


# ---- LlamaAttention ---------------------------------------------------------------------

def attention_reference(block, hidden, mask, position_ids):
    return ref.llama_attention(
        hidden.asnumpy(), block.q_proj.weight.asnumpy(), block.k_proj.weight.asnumpy(),
        block.v_proj.weight.asnumpy(), block.o_proj.weight.asnumpy(), block.num_heads,
        block.num_key_value_heads, position_ids,
        None if mask is None else mask.asnumpy(), block.rope_theta)


@pytest.mark.parametrize("with_mask", [False, True])
@pytest.mark.parametrize("heads, kv_heads", [(4, 2), (4, 4), (2, 1)])
def test_llama_attention_forward(with_mask, heads, kv_heads):
    w = W.llama_attention("tiny", dtype=ms.float64, with_mask=with_mask, num_heads=heads,
                          num_key_value_heads=kv_heads)
    block = w.cell
    hidden, mask, position_ids = w.args
    assert (mask is not None) == with_mask
    out = block(hidden, mask, position_ids)
    expected = attention_reference(block, hidden, mask, position_ids.asnumpy())
    # cos / sin come from float32 frequencies (as in the seed): ~1e-7 relative.
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-5, atol=1e-7)
    assert out.dtype == ms.float64 and out.shape == hidden.shape


def test_llama_attention_mask_is_causal():
    w = W.llama_attention("tiny", dtype=ms.float64, with_mask=True)
    hidden, mask, position_ids = w.args
    full = w.cell(hidden, mask, position_ids).asnumpy()
    # With a causal mask, the first k positions do not depend on later tokens.
    k = 3
    prefix = w.cell(Tensor(hidden.asnumpy()[:, :k]), Tensor(mask.asnumpy()[:, :, :k, :k]),
                    Tensor(position_ids.asnumpy()[:, :k])).asnumpy()
    np.testing.assert_allclose(full[:, :k], prefix, rtol=1e-10, atol=1e-12)


def test_llama_attention_default_position_ids_and_float32():
    w = W.llama_attention("tiny")
    block = w.cell
    hidden, _, position_ids = w.args
    assert hidden.dtype == ms.float32
    out = block(hidden)                       # position_ids default to 0..seq-1
    np.testing.assert_allclose(out.asnumpy(), block(hidden, None, position_ids).asnumpy(),
                               rtol=1e-6, atol=1e-7)
    expected = attention_reference(block, hidden, None, np.arange(hidden.shape[1])[None])
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-4, atol=1e-5)
    assert [p.name for p in block.trainable_params()] == [
        "q_proj.weight", "k_proj.weight", "v_proj.weight", "o_proj.weight"]
    assert block.q_proj.bias is None


def test_llama_attention_dropout_only_in_training():
    w = W.llama_attention("tiny", dtype=ms.float64)
    block = W.LlamaAttention(16, 4, 2, attention_dropout=0.5, dtype=ms.float64)
    hidden, mask, position_ids = w.args
    inference = block(hidden, mask, position_ids).asnumpy()
    expected = attention_reference(block, hidden, mask, position_ids.asnumpy())
    np.testing.assert_allclose(inference, expected, rtol=1e-5, atol=1e-7)
    block.set_train()
    training = block(hidden, mask, position_ids).asnumpy()
    assert np.isfinite(training).all() and not np.allclose(training, inference)


@pytest.mark.parametrize("with_mask", [False, True])
def test_llama_attention_gradients_match_finite_differences(rng, with_mask):
    w = W.llama_attention("tiny", dtype=ms.float64, with_mask=with_mask)
    block = w.cell
    params = block.trainable_params()
    grad_fn = ms.value_and_grad(block, None, params)
    out, grads = grad_fn(*w.args)
    assert tuple(out.shape) == (2, 6, 16)
    finite_difference_check(lambda: float(block(*w.args).asnumpy().sum()), params, grads, rng)


def test_llama_attention_rejects_bad_head_counts():
    with pytest.raises(ValueError, match="divisible by num_heads"):
        W.LlamaAttention(10, 4, 2)
    with pytest.raises(ValueError, match="num_key_value_heads"):
        W.LlamaAttention(16, 4, 3)


# ---- factories --------------------------------------------------------------------------

def test_factories_are_deterministic_and_sized():
    a, b = W.resnet_block("tiny", seed=5), W.resnet_block("tiny", seed=5)
    for pa, pb in zip(a.cell.get_parameters(), b.cell.get_parameters()):
        np.testing.assert_array_equal(pa.asnumpy(), pb.asnumpy())
    np.testing.assert_array_equal(a.args[0].asnumpy(), b.args[0].asnumpy())
    c = W.resnet_block("tiny", seed=6)
    assert not np.array_equal(a.cell.conv1.weight.asnumpy(), c.cell.conv1.weight.asnumpy())
    assert W.RESNET_BLOCK_SIZES["seed"]["height"] == 256
    assert W.LLAMA_ATTENTION_SIZES["seed"]["hidden_size"] == 4096
    with pytest.raises(ValueError, match="size"):
        W.llama_attention("huge")
    with pytest.raises(ValueError, match="unknown option"):
        W.resnet_block("tiny", channels=3)
    assert set(W.WORKLOADS) == {"resnet_block", "llama_attention"}


def test_cpu_sizes_run():
    resnet = W.resnet_block("cpu")
    assert resnet.args[0].shape == (1, 64, 56, 56)
    assert resnet.cell(*resnet.args).shape == (1, 64, 56, 56)
    attention = W.llama_attention("cpu")
    assert attention.args[0].shape == (1, 256, 1024)
    assert attention.cell(*attention.args).shape == (1, 256, 1024)
