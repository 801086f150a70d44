"""The seed workloads, written the way MindSpore users write them.

* ``BasicBlock``: the ResNet basic block of the MindSpore tutorial's ``simple_conv.py``.
* ``LlamaAttention``: the Llama-3 attention of the tutorial's ``simple_attention.py``
  (rotary position embedding, grouped key/value heads, optional additive mask).

The classes use only the public API (``import tensorjit as mindspore``), so they double as
a check that MindSpore-style code runs unchanged. The factory functions build a cell and
its inputs at a named size with a fixed seed:

    "seed"  the tutorial's size (too heavy for 2 CPU cores x 1000 runs),
    "cpu"   the default benchmark size,
    "tiny"  for tests.
"""
import math
from collections import namedtuple

import numpy as np

import tensorjit as mindspore
from tensorjit import nn, ops, Tensor

__all__ = ["BasicBlock", "LlamaRotaryEmbedding", "LlamaAttention", "Workload",
           "RESNET_BLOCK_SIZES", "LLAMA_ATTENTION_SIZES", "resnet_block", "llama_attention",
           "WORKLOADS"]


# ---------------------------------------------------------------------------------------
# ResNet basic block

class BasicBlock(nn.Cell):
    """conv3x3 -> BN -> ReLU -> conv3x3 -> BN, plus the (projected) input, -> ReLU."""
    expansion = 1

    def __init__(self, in_channel, out_channel, stride=1, dtype=mindspore.float32):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channel, out_channel, kernel_size=3, stride=stride,
                               pad_mode="pad", padding=1, dtype=dtype)
        self.bn1 = nn.BatchNorm2d(out_channel, dtype=dtype)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(out_channel, out_channel, kernel_size=3, stride=1,
                               pad_mode="pad", padding=1, dtype=dtype)
        self.bn2 = nn.BatchNorm2d(out_channel, dtype=dtype)
        self.down_sample = None
        if stride != 1 or in_channel != out_channel:
            # The residual must match the main path's shape: project it with a 1x1 conv.
            self.down_sample = nn.SequentialCell([
                nn.Conv2d(in_channel, out_channel, kernel_size=1, stride=stride,
                          pad_mode="valid", dtype=dtype),
                nn.BatchNorm2d(out_channel, dtype=dtype),
            ])

    def construct(self, x):
        identity = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2(out)

        if self.down_sample is not None:
            identity = self.down_sample(x)

        out += identity
        out = self.relu(out)
        return out


# ---------------------------------------------------------------------------------------
# Llama attention

class LlamaRotaryEmbedding(nn.Cell):
    """cos / sin of the rotary position embedding, computed from ``position_ids``."""

    def __init__(self, dim, max_position_embeddings=2048, base=10000.0):
        super().__init__()
        self.dim = dim
        self.max_position_embeddings = max_position_embeddings
        self.base = base
        inv_freq = 1.0 / (base ** (np.arange(0, dim, 2).astype(np.float32) / dim))
        self.inv_freq = Tensor(inv_freq, mindspore.float32)

    def construct(self, x, position_ids):
        # The outer product position x inv_freq as a batched matmul, in float32.
        inv_freq_expanded = self.inv_freq[None, :, None].astype(mindspore.float32).broadcast_to(
            (position_ids.shape[0], -1, 1))
        position_ids_expanded = position_ids[:, None, :].astype(mindspore.float32)
        freqs = ops.matmul(inv_freq_expanded, position_ids_expanded).swapaxes(1, 2)
        emb = ops.cat((freqs, freqs), axis=-1)
        cos = emb.cos().astype(x.dtype)
        sin = emb.sin().astype(x.dtype)
        return ops.stop_gradient(cos), ops.stop_gradient(sin)


class LlamaAttention(nn.Cell):
    """Multi-head attention with rotary embeddings and grouped key/value heads."""

    def __init__(self, hidden_size, num_heads, num_key_value_heads,
                 max_position_embeddings=2048, rope_theta=10000.0, attention_dropout=0.0,
                 dtype=mindspore.float32):
        super().__init__()
        if hidden_size % num_heads:
            raise ValueError(f"LlamaAttention: hidden_size ({hidden_size}) must be divisible "
                             f"by num_heads ({num_heads})")
        if num_heads % num_key_value_heads:
            raise ValueError(f"LlamaAttention: num_heads ({num_heads}) must be divisible by "
                             f"num_key_value_heads ({num_key_value_heads})")
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.num_key_value_heads = num_key_value_heads
        self.num_key_value_groups = num_heads // num_key_value_heads
        self.max_position_embeddings = max_position_embeddings
        self.rope_theta = rope_theta
        self.attention_dropout = attention_dropout
        # The softmax runs in at least float32 ("upcast attention to fp32").
        self.softmax_dtype = mindspore.float64 if dtype == mindspore.float64 \
            else mindspore.float32

        self.q_proj = nn.Dense(hidden_size, num_heads * self.head_dim, has_bias=False,
                               dtype=dtype)
        self.k_proj = nn.Dense(hidden_size, num_key_value_heads * self.head_dim,
                               has_bias=False, dtype=dtype)
        self.v_proj = nn.Dense(hidden_size, num_key_value_heads * self.head_dim,
                               has_bias=False, dtype=dtype)
        self.o_proj = nn.Dense(num_heads * self.head_dim, hidden_size, has_bias=False,
                               dtype=dtype)
        self.rotary_emb = LlamaRotaryEmbedding(self.head_dim, max_position_embeddings,
                                               rope_theta)

    def rotate_half(self, x):
        x1 = x[..., : x.shape[-1] // 2]
        x2 = x[..., x.shape[-1] // 2:]
        return ops.cat((-x2, x1), axis=-1)

    def apply_rotary_pos_emb(self, q, k, cos, sin, unsqueeze_dim=1):
        cos = cos.unsqueeze(unsqueeze_dim)
        sin = sin.unsqueeze(unsqueeze_dim)
        q_embed = (q * cos) + (self.rotate_half(q) * sin)
        k_embed = (k * cos) + (self.rotate_half(k) * sin)
        return q_embed, k_embed

    def repeat_kv(self, hidden_states, n_rep):
        """(batch, kv_heads, seq, dim) -> (batch, kv_heads * n_rep, seq, dim)."""
        batch, num_key_value_heads, slen, head_dim = hidden_states.shape
        if n_rep == 1:
            return hidden_states
        hidden_states = hidden_states[:, :, None, :, :].broadcast_to(
            (batch, num_key_value_heads, n_rep, slen, head_dim))
        return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)

    def construct(self, hidden_states, attention_mask=None, position_ids=None):
        bsz, q_len, _ = hidden_states.shape

        query_states = self.q_proj(hidden_states)
        key_states = self.k_proj(hidden_states)
        value_states = self.v_proj(hidden_states)

        query_states = query_states.view(bsz, q_len, self.num_heads, self.head_dim).swapaxes(1, 2)
        key_states = key_states.view(bsz, q_len, self.num_key_value_heads,
                                     self.head_dim).swapaxes(1, 2)
        value_states = value_states.view(bsz, q_len, self.num_key_value_heads,
                                         self.head_dim).swapaxes(1, 2)

        if position_ids is None:
            position_ids = ops.arange(q_len).reshape(1, q_len)
        cos, sin = self.rotary_emb(value_states, position_ids)
        query_states, key_states = self.apply_rotary_pos_emb(query_states, key_states, cos, sin)

        key_states = self.repeat_kv(key_states, self.num_key_value_groups)
        value_states = self.repeat_kv(value_states, self.num_key_value_groups)

        attn_weights = ops.matmul(query_states, key_states.swapaxes(2, 3)) / math.sqrt(
            self.head_dim)
        if attention_mask is not None:
            causal_mask = attention_mask[:, :, :, : key_states.shape[-2]]
            attn_weights = attn_weights + causal_mask.astype(attn_weights.dtype)

        attn_weights = ops.softmax(attn_weights, axis=-1, dtype=self.softmax_dtype).astype(
            query_states.dtype)
        attn_weights = ops.dropout(attn_weights, p=self.attention_dropout,
                                   training=self.training)
        attn_output = ops.matmul(attn_weights, value_states)

        attn_output = attn_output.swapaxes(1, 2)
        attn_output = attn_output.reshape(bsz, q_len, -1)
        return self.o_proj(attn_output)


# ---------------------------------------------------------------------------------------
# factories

Workload = namedtuple("Workload", "name cell args kwargs")
Workload.__doc__ = "A cell and the inputs to call it with: ``cell(*args, **kwargs)``."

RESNET_BLOCK_SIZES = {
    "seed": dict(batch=1, in_channel=128, out_channel=128, height=256, width=256, stride=1),
    "cpu": dict(batch=1, in_channel=64, out_channel=64, height=56, width=56, stride=1),
    "tiny": dict(batch=2, in_channel=4, out_channel=4, height=6, width=6, stride=1),
}

LLAMA_ATTENTION_SIZES = {
    "seed": dict(batch=1, seq_len=512, hidden_size=4096, num_heads=32, num_key_value_heads=8),
    "cpu": dict(batch=1, seq_len=256, hidden_size=1024, num_heads=8, num_key_value_heads=2),
    "tiny": dict(batch=2, seq_len=6, hidden_size=16, num_heads=4, num_key_value_heads=2),
}


def _size(table, size, overrides, who):
    if size not in table:
        raise ValueError(f"{who}: size must be one of {', '.join(map(repr, table))}, "
                         f"got {size!r}")
    config = dict(table[size])
    unknown = set(overrides) - set(config)
    if unknown:
        raise ValueError(f"{who}: unknown option(s) {sorted(unknown)}; known: {sorted(config)}")
    config.update(overrides)
    return config


def resnet_block(size="cpu", *, seed=0, dtype=mindspore.float32, training=False, **overrides):
    """A ``BasicBlock`` and its NCHW input. ``overrides``: batch, in_channel, out_channel,
    height, width, stride."""
    c = _size(RESNET_BLOCK_SIZES, size, overrides, "resnet_block")
    mindspore.set_seed(seed)
    block = BasicBlock(c["in_channel"], c["out_channel"], c["stride"], dtype=dtype)
    block.set_train(training)
    rng = np.random.default_rng(seed)
    x = Tensor(rng.standard_normal((c["batch"], c["in_channel"], c["height"], c["width"])),
               dtype)
    return Workload("resnet_block", block, (x,), {})


def causal_mask(batch, seq_len, dtype=mindspore.float32):
    """An additive (batch, 1, seq, seq) mask: 0 on and below the diagonal, -1e9 above."""
    mask = np.triu(np.full((seq_len, seq_len), -1e9), k=1)
    return Tensor(np.broadcast_to(mask, (batch, 1, seq_len, seq_len)).copy(), dtype)


def llama_attention(size="cpu", *, seed=0, dtype=mindspore.float32, with_mask=False,
                    training=False, **overrides):
    """A ``LlamaAttention`` and its inputs ``(hidden_states, attention_mask, position_ids)``
    (float32 position ids, as in the tutorial). ``overrides``: batch, seq_len, hidden_size,
    num_heads, num_key_value_heads."""
    c = _size(LLAMA_ATTENTION_SIZES, size, overrides, "llama_attention")
    mindspore.set_seed(seed)
    block = LlamaAttention(c["hidden_size"], c["num_heads"], c["num_key_value_heads"],
                           dtype=dtype)
    block.set_train(training)
    rng = np.random.default_rng(seed)
    x = Tensor(rng.standard_normal((c["batch"], c["seq_len"], c["hidden_size"])), dtype)
    mask = causal_mask(c["batch"], c["seq_len"], dtype) if with_mask else None
    position_ids = Tensor(np.arange(c["seq_len"]).reshape(1, -1), mindspore.float32)
    return Workload("llama_attention", block, (x, mask, position_ids), {})


WORKLOADS = {"resnet_block": resnet_block, "llama_attention": llama_attention}
