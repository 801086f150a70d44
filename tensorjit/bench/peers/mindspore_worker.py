"""MindSpore rows: PyNative and ``mindspore.jit`` with the capture modes, levels and
backends of seed 000, on MindSpore's CPU backend, with the same weights and inputs as
tensorjit. Runs in MindSpore's own interpreter (``TENSORJIT_MINDSPORE_PYTHON``).

The cells are the seed scripts' ``BasicBlock`` and ``LlamaAttention``; forward+backward is
``mindspore.value_and_grad(block, None, block.trainable_params())`` inside ``fp_and_bp``,
as in the seed. Trace rows use the decorator form, which the seed says MindSpore needs.
MindSpore executes asynchronously (PyNative queues kernels) and on CPU
``mindspore.runtime.synchronize()`` is "not supported": the loop instead waits once at its
end for the last result (``asnumpy``), which drains the in-order queue. Waiting after every
call would add milliseconds of hand-off per call and is not how a MindSpore loop runs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common  # noqa: E402

import numpy as np  # noqa: E402
import mindspore  # noqa: E402
from mindspore import nn, ops, Tensor  # noqa: E402


class BasicBlock(nn.Cell):
    def __init__(self, in_channels, channels, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, channels, kernel_size=3, stride=stride,
                               padding=1, pad_mode="pad")
        self.bn1 = nn.BatchNorm2d(channels)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(channels, channels, kernel_size=3, stride=1, padding=1,
                               pad_mode="pad")
        self.bn2 = nn.BatchNorm2d(channels)
        self.down_sample = None

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


class LlamaRotaryEmbedding(nn.Cell):
    def __init__(self, dim, max_position_embeddings=2048, base=10000):
        super().__init__()
        self.dim = dim
        inv_freq = 1.0 / (base ** (np.arange(0, dim, 2).astype(np.float32) / dim))
        self.inv_freq = Tensor(inv_freq.astype(np.float32), mindspore.float32)

    def construct(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].to(mindspore.float32).broadcast_to(
            (position_ids.shape[0], -1, 1))
        position_ids_expanded = position_ids[:, None, :].to(mindspore.float32)
        freqs = ops.matmul(inv_freq_expanded, position_ids_expanded).swapdims(1, 2)
        emb = ops.cat((freqs, freqs), axis=-1)
        cos = emb.cos()
        sin = emb.sin()
        cos, sin = cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)
        return ops.stop_gradient(cos), ops.stop_gradient(sin)


class LlamaAttention(nn.Cell):
    def __init__(self, hidden_size, num_heads, num_key_value_heads, rope_theta,
                 max_position_embeddings):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.num_key_value_heads = num_key_value_heads
        self.num_key_value_groups = num_heads // num_key_value_heads
        self.attention_dropout = 0.0
        self.q_proj = nn.Dense(hidden_size, num_heads * self.head_dim, has_bias=False)
        self.k_proj = nn.Dense(hidden_size, num_key_value_heads * self.head_dim, has_bias=False)
        self.v_proj = nn.Dense(hidden_size, num_key_value_heads * self.head_dim, has_bias=False)
        self.o_proj = nn.Dense(hidden_size, hidden_size, has_bias=False)
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
        query_states = query_states.view(bsz, q_len, self.num_heads, self.head_dim).swapdims(1, 2)
        key_states = key_states.view(bsz, q_len, self.num_key_value_heads,
                                     self.head_dim).swapdims(1, 2)
        value_states = value_states.view(bsz, q_len, self.num_key_value_heads,
                                         self.head_dim).swapdims(1, 2)
        cos, sin = self.rotary_emb(value_states, position_ids)
        query_states, key_states = self.apply_rotary_pos_emb(query_states, key_states, cos, sin)
        key_states = self.repeat_kv(key_states, self.num_key_value_groups)
        value_states = self.repeat_kv(value_states, self.num_key_value_groups)
        attn_weights = ops.matmul(query_states, key_states.swapdims(2, 3)) / (self.head_dim ** 0.5)
        attn_weights = ops.cast(attn_weights, mindspore.float32)
        if attention_mask is not None:
            causal_mask = attention_mask[:, :, :, : key_states.shape[-2]]
            attn_weights = attn_weights + ops.cast(causal_mask, attn_weights.dtype)
        attn_weights = ops.softmax(attn_weights, axis=-1, dtype=mindspore.float32).to(
            query_states.dtype)
        attn_weights = ops.dropout(attn_weights, p=self.attention_dropout, training=self.training)
        attn_output = ops.matmul(attn_weights, value_states)
        attn_output = attn_output.swapdims(1, 2)
        attn_output = attn_output.reshape(bsz, q_len, -1)
        return self.o_proj(attn_output)


def jit_kwargs(row):
    kwargs = {"capture_mode": row["capture_mode"]}
    if row["backend"] == "GE":
        kwargs["backend"] = "GE"
    else:
        kwargs["jit_level"] = row["jit_level"]
    if row["fullgraph"]:
        kwargs["fullgraph"] = True
    return kwargs


def simple_function(row):
    def f(a, b, c):
        return a * b + c
    if row["capture_mode"] is None:
        return f
    kwargs = jit_kwargs(row)
    if row["capture_mode"] == "trace":
        @mindspore.jit(**kwargs)
        def traced(a, b, c):
            return a * b + c
        return traced
    return mindspore.jit(f, **kwargs)


def main():
    spec, arrays = _common.load()
    mindspore.set_context(device_target="CPU")
    recorder = _common.Recorder(spec)
    to_numpy = lambda out: _common.flat(out, lambda t: t.asnumpy())  # noqa: E731

    def sync(out):
        _common.flat(out, lambda t: t.asnumpy())

    def make(row):
        def build():
            calls = _common.pool(spec, arrays, lambda a: Tensor(a, mindspore.float32))
            if spec["workload"] == "simple":
                return simple_function(row), calls
            c = spec["config"]
            if spec["workload"] == "conv":
                block = BasicBlock(c["in_channel"], c["out_channel"], c["stride"])
            else:
                block = LlamaAttention(c["hidden_size"], c["num_heads"],
                                       c["num_key_value_heads"], c["rope_theta"],
                                       c["max_position_embeddings"])
            values = _common.params(arrays)
            for name, p in block.parameters_and_names():
                if name not in values:
                    raise KeyError(f"no value for MindSpore parameter {name!r}")
                p.set_data(Tensor(values[name], p.dtype))
            if spec["direction"] == "forward":
                def fp(*args):
                    out = block(*args)
                    return out
                fn = fp
            else:
                grad_fn = mindspore.value_and_grad(block, None, block.trainable_params())

                def fp_and_bp(*args):
                    out, grads = grad_fn(*args)
                    return out, grads
                fn = fp_and_bp
            if row["capture_mode"] is None:
                return fn, calls
            if row["capture_mode"] == "trace":
                inner = fn

                @mindspore.jit(**jit_kwargs(row))
                def traced(*args):
                    return inner(*args)
                return traced, calls
            return mindspore.jit(fn, **jit_kwargs(row)), calls
        return build

    for row in spec["variants"]:
        _common.measure(recorder, row["id"], make(row), to_numpy, sync=sync, label=row["id"],
                        sync_each=False)


if __name__ == "__main__":
    main()
