"""PyTorch rows: eager and ``torch.compile``, the same weights and inputs as tensorjit.

forward runs under ``torch.no_grad()``; forward+backward returns the output and
``torch.autograd.grad(out, trainable, ones_like(out))``, which is what
``value_and_grad(block, None, block.trainable_params())`` computes."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402


class BasicBlock(nn.Module):
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out, eps=1e-5)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out, eps=1e-5)

    def forward(self, x):
        identity = x
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = out + identity
        return torch.relu(out)


class LlamaAttention(nn.Module):
    def __init__(self, hidden, heads, kv_heads, rope_theta):
        super().__init__()
        self.heads, self.kv_heads, self.dim = heads, kv_heads, hidden // heads
        self.q_proj = nn.Linear(hidden, heads * self.dim, bias=False)
        self.k_proj = nn.Linear(hidden, kv_heads * self.dim, bias=False)
        self.v_proj = nn.Linear(hidden, kv_heads * self.dim, bias=False)
        self.o_proj = nn.Linear(heads * self.dim, hidden, bias=False)
        inv_freq = 1.0 / (rope_theta ** (np.arange(0, self.dim, 2).astype(np.float32) / self.dim))
        self.register_buffer("inv_freq", torch.from_numpy(inv_freq.astype(np.float32)))

    @staticmethod
    def rotate_half(x):
        half = x.shape[-1] // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)

    def repeat_kv(self, x, n_rep):
        b, kv, s, d = x.shape
        if n_rep == 1:
            return x
        return x[:, :, None].expand(b, kv, n_rep, s, d).reshape(b, kv * n_rep, s, d)

    def forward(self, h, mask, position_ids):
        bsz, q_len, _ = h.shape
        q = self.q_proj(h).view(bsz, q_len, self.heads, self.dim).transpose(1, 2)
        k = self.k_proj(h).view(bsz, q_len, self.kv_heads, self.dim).transpose(1, 2)
        v = self.v_proj(h).view(bsz, q_len, self.kv_heads, self.dim).transpose(1, 2)
        inv = self.inv_freq[None, :, None].expand(position_ids.shape[0], -1, 1)
        freqs = torch.matmul(inv, position_ids[:, None, :].float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos, sin = emb.cos().unsqueeze(1), emb.sin().unsqueeze(1)
        q = q * cos + self.rotate_half(q) * sin
        k = k * cos + self.rotate_half(k) * sin
        groups = self.heads // self.kv_heads
        k, v = self.repeat_kv(k, groups), self.repeat_kv(v, groups)
        w = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.dim)
        if mask is not None:
            w = w + mask[:, :, :, : k.shape[-2]]
        w = torch.softmax(w, dim=-1, dtype=torch.float32)
        out = torch.matmul(w, v).transpose(1, 2).reshape(bsz, q_len, -1)
        return self.o_proj(out)


TORCH_NAMES = {"gamma": "weight", "beta": "bias", "moving_mean": "running_mean",
               "moving_variance": "running_var"}


def torch_name(name):
    prefix, _, leaf = name.rpartition(".")
    return f"{prefix}.{TORCH_NAMES.get(leaf, leaf)}" if prefix else TORCH_NAMES.get(leaf, leaf)


def build_block(spec, arrays):
    c = spec["config"]
    if spec["workload"] == "conv":
        block = BasicBlock(c["in_channel"], c["out_channel"], c["stride"])
    else:
        block = LlamaAttention(c["hidden_size"], c["num_heads"], c["num_key_value_heads"],
                               c["rope_theta"])
    state = block.state_dict()
    for name, value in _common.params(arrays).items():
        key = torch_name(name)
        if key not in state:
            raise KeyError(f"no PyTorch tensor for parameter {name!r}")
        state[key] = torch.from_numpy(np.ascontiguousarray(value))
    block.load_state_dict(state)
    block.eval()
    return block


def main():
    spec, arrays = _common.load()
    threads = os.environ.get("TENSORJIT_BENCH_THREADS")
    if threads:
        torch.set_num_threads(int(threads))
    recorder = _common.Recorder(spec)
    to_numpy = lambda out: _common.flat(out, lambda t: t.detach().numpy())  # noqa: E731

    def make(variant):
        def build():
            calls = _common.pool(spec, arrays, torch.from_numpy)
            if spec["workload"] == "simple":
                def f(a, b, c):
                    return a * b + c
                return (torch.compile(f) if variant == "compile" else f), calls
            block = build_block(spec, arrays)
            module = torch.compile(block) if variant == "compile" else block
            if spec["direction"] == "forward":
                def fp(*args):
                    with torch.no_grad():
                        return module(*args)
                return fp, calls
            named = dict(block.named_parameters())
            trainable = [named[torch_name(n)] for n in spec["trainable"]]

            def fp_and_bp(*args):
                out = module(*args)
                grads = torch.autograd.grad(out, trainable, torch.ones_like(out))
                return out.detach(), grads
            return fp_and_bp, calls
        return build

    labels = {"eager": "eager", "compile": "torch.compile (default: inductor)"}
    for variant in spec["variants"]:
        _common.measure(recorder, variant, make(variant), to_numpy, label=labels[variant])


if __name__ == "__main__":
    main()
