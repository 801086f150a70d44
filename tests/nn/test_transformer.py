"""MultiheadAttention and the Transformer layers against PyTorch with the same weights, a
NumPy formula of attention, finite differences and every capture mode and level."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor

from .layer_check import LayerCheck, torch

F64 = ms.float64


def rand(*shape, seed=0):
    return np.random.default_rng(seed + 5 * sum(shape)).standard_normal(shape)


def torch_names(name):
    """MindSpore's parameter names -> PyTorch's."""
    for ours, theirs in ((".gamma", ".weight"), (".beta", ".bias"), ("dense1", "linear1"),
                         ("dense2", "linear2")):
        name = name.replace(ours, theirs)
    return name


def _torch(value):
    return torch.tensor(value.asnumpy() if isinstance(value, Tensor) else value)


def _mapping(cell):
    return {p.name: torch_names(p.name) for p in cell.get_parameters()}


def causal(n):
    return np.triu(np.ones((n, n), bool), 1)


def numpy_attention(q, k, v, cell, key_padding_mask, attn_mask):
    """Batch-first attention written from its definition, for comparison."""
    p = {x.name: x.asnumpy() for x in cell.get_parameters()}
    e, h = cell.embed_dim, cell.num_heads
    wq, wk, wv = np.split(p["in_proj_weight"], 3)
    bq, bk, bv = np.split(p["in_proj_bias"], 3)
    d = e // h
    out = np.zeros(q.shape)
    weights = np.zeros((q.shape[0], q.shape[1], k.shape[1]))
    for n in range(q.shape[0]):
        Q, K, V = q[n] @ wq.T + bq, k[n] @ wk.T + bk, v[n] @ wv.T + bv
        heads = []
        for i in range(h):
            s = Q[:, i * d:(i + 1) * d] @ K[:, i * d:(i + 1) * d].T / np.sqrt(d)
            s = np.where(attn_mask | key_padding_mask[n][None, :], -np.inf, s)
            a = np.exp(s - s.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            weights[n] += a / h
            heads.append(a @ V[:, i * d:(i + 1) * d])
        out[n] = np.concatenate(heads, -1) @ p["out_proj.weight"].T + p["out_proj.bias"]
    return out, weights


def test_multihead_attention_masks_batch_first():
    cell = nn.MultiheadAttention(8, 2, batch_first=True, dtype=F64)
    q, k, v = rand(2, 4, 8), rand(2, 5, 8, seed=1), rand(2, 5, 8, seed=2)
    padding = np.array([[False] * 4 + [True], [False] * 5])
    mask = np.zeros((4, 5), bool)
    mask[0, 3:] = True
    kwargs = dict(key_padding_mask=Tensor(padding), attn_mask=Tensor(mask))
    check = LayerCheck(cell, [q, k, v], kwargs)
    check.against_formula(numpy_attention(q, k, v, cell, padding, mask))
    if torch is not None:
        module = torch.nn.MultiheadAttention(8, 2, batch_first=True).double()
        check.against_torch(module, kwargs=dict(key_padding_mask=_torch(padding),
                                                attn_mask=_torch(mask)))
    check.against_finite_differences()
    check.in_every_mode()


def test_multihead_attention_kdim_bias_kv_zero_attn_float_mask():
    cell = nn.MultiheadAttention(6, 3, add_bias_kv=True, add_zero_attn=True, kdim=4, vdim=5,
                                 dtype=F64)
    q, k, v = rand(3, 2, 6), rand(4, 2, 4, seed=1), rand(4, 2, 5, seed=2)
    float_mask = rand(3, 4, seed=3) * 0.5
    kwargs = dict(attn_mask=Tensor(float_mask), average_attn_weights=False)
    check = LayerCheck(cell, [q, k, v], kwargs)
    assert check.outputs[1].shape == (2, 3, 3, 6)            # per head; S + bias_kv + zero
    if torch is not None:
        module = torch.nn.MultiheadAttention(6, 3, add_bias_kv=True, add_zero_attn=True,
                                             kdim=4, vdim=5).double()
        check.against_torch(module, kwargs=dict(attn_mask=_torch(float_mask),
                                                average_attn_weights=False))
    check.against_finite_differences()
    check.in_every_mode()


def test_multihead_attention_unbatched_and_without_weights():
    cell = nn.MultiheadAttention(4, 2, dtype=F64)
    x = Tensor(rand(3, 4))
    out, weights = cell(x, x, x)
    assert out.shape == (3, 4) and weights.shape == (3, 3)
    only = cell(x, x, x, need_weights=False)
    assert isinstance(only, tuple) and len(only) == 1                 # MindSpore's convention
    np.testing.assert_allclose(only[0].asnumpy(), out.asnumpy())
    batched, _ = cell(Tensor(x.asnumpy()[:, None]), Tensor(x.asnumpy()[:, None]),
                      Tensor(x.asnumpy()[:, None]))
    np.testing.assert_allclose(batched.asnumpy()[:, 0], out.asnumpy())
    with pytest.raises(ValueError, match="embed_dim \\(6\\) must be divisible by num_heads"):
        nn.MultiheadAttention(6, 4)


@pytest.mark.parametrize("norm_first,activation", [(False, "relu"), (True, "gelu")])
def test_encoder_layer(norm_first, activation):
    cell = nn.TransformerEncoderLayer(8, 2, 12, dropout=0.0, activation=activation,
                                      batch_first=True, norm_first=norm_first, dtype=F64)
    src = rand(2, 5, 8)
    padding = np.array([[False] * 5, [False] * 3 + [True] * 2])
    kwargs = dict(src_key_padding_mask=Tensor(padding))
    check = LayerCheck(cell, [src], kwargs)
    if torch is not None:
        module = torch.nn.TransformerEncoderLayer(8, 2, 12, dropout=0.0, activation=activation,
                                                  batch_first=True,
                                                  norm_first=norm_first).double()
        check.against_torch(module, param_map=_mapping(cell),
                            kwargs=dict(src_key_padding_mask=_torch(padding)))
    check.against_finite_differences()
    check.in_every_mode()


def test_decoder_layer_with_causal_mask():
    cell = nn.TransformerDecoderLayer(8, 2, 12, dropout=0.0, dtype=F64)
    tgt, memory = rand(4, 2, 8), rand(5, 2, 8, seed=1)
    memory_padding = np.array([[False] * 5, [False] * 4 + [True]])
    kwargs = dict(tgt_mask=Tensor(causal(4)), memory_key_padding_mask=Tensor(memory_padding))
    check = LayerCheck(cell, [tgt, memory], kwargs)
    if torch is not None:
        module = torch.nn.TransformerDecoderLayer(8, 2, 12, dropout=0.0).double()
        check.against_torch(module, param_map=_mapping(cell),
                            kwargs=dict(tgt_mask=_torch(causal(4)),
                                        memory_key_padding_mask=_torch(memory_padding)))
    check.against_finite_differences()
    check.in_every_mode()


def test_encoder_and_decoder_stacks():
    layer = nn.TransformerEncoderLayer(8, 2, 12, dropout=0.0, dtype=F64)
    encoder = nn.TransformerEncoder(layer, 2, nn.LayerNorm((8,), epsilon=1e-5, dtype=F64))
    assert encoder.layers[0].dense1.weight is not encoder.layers[1].dense1.weight
    check = LayerCheck(encoder, [rand(5, 2, 8)], dict(mask=Tensor(causal(5))))
    if torch is not None:
        module = torch.nn.TransformerEncoder(
            torch.nn.TransformerEncoderLayer(8, 2, 12, dropout=0.0), 2,
            torch.nn.LayerNorm(8), enable_nested_tensor=False).double()
        check.against_torch(module, param_map=_mapping(encoder),
                            kwargs=dict(mask=_torch(causal(5))))
    check.against_finite_differences()
    check.in_every_mode()
    decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 12, dropout=0.0,
                                                               dtype=F64), 2)
    check = LayerCheck(decoder, [rand(3, 2, 8), rand(5, 2, 8, seed=2)])
    if torch is not None:
        module = torch.nn.TransformerDecoder(
            torch.nn.TransformerDecoderLayer(8, 2, 12, dropout=0.0), 2).double()
        check.against_torch(module, param_map=_mapping(decoder))
    check.against_finite_differences()
    check.in_every_mode(configs=[("ast", "O1"), ("bytecode", "O0")])


def test_transformer():
    cell = nn.Transformer(8, 2, 1, 1, 12, dropout=0.0, batch_first=True, dtype=F64)
    src, tgt = rand(2, 5, 8), rand(2, 3, 8, seed=1)
    kwargs = dict(tgt_mask=Tensor(causal(3)))
    check = LayerCheck(cell, [src, tgt], kwargs)
    if torch is not None:
        module = torch.nn.Transformer(8, 2, 1, 1, 12, dropout=0.0, batch_first=True).double()
        check.against_torch(module, param_map=_mapping(cell),
                            kwargs=dict(tgt_mask=_torch(causal(3))))
    check.against_finite_differences()
    check.in_every_mode()


def test_dropout_in_attention_only_in_training():
    ms.set_seed(0)
    cell = nn.MultiheadAttention(8, 2, dropout=0.5, dtype=F64)
    x = Tensor(rand(4, 2, 8))
    a = cell(x, x, x)[0].asnumpy()
    np.testing.assert_array_equal(a, cell(x, x, x)[0].asnumpy())
    cell.set_train()
    assert not np.allclose(cell(x, x, x)[0].asnumpy(), cell(x, x, x)[0].asnumpy())
