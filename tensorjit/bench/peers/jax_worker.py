"""JAX rows: ``jax.jit`` and op-by-op (no jit), the same weights and inputs as tensorjit.

forward+backward is ``jax.vjp`` with a cotangent of ones, over the trainable weights (the
same as ``value_and_grad(block, None, block.trainable_params())``). JAX dispatches
asynchronously: every call is followed by ``block_until_ready``."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _common  # noqa: E402

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402


def basic_block(p, x, stride=1, eps=1e-5):
    def conv(x, w, s):
        return lax.conv_general_dilated(x, w, (s, s), [(1, 1), (1, 1)],
                                        dimension_numbers=("NCHW", "OIHW", "NCHW"))

    def bn(x, name):
        shape = (1, -1, 1, 1)
        scale = p[f"{name}.gamma"].reshape(shape) / jnp.sqrt(
            p[f"{name}.moving_variance"].reshape(shape) + eps)
        return (x - p[f"{name}.moving_mean"].reshape(shape)) * scale + p[f"{name}.beta"].reshape(shape)

    out = jax.nn.relu(bn(conv(x, p["conv1.weight"], stride), "bn1"))
    out = bn(conv(out, p["conv2.weight"], 1), "bn2")
    return jax.nn.relu(out + x)


def attention(p, h, mask, position_ids, heads, kv_heads, inv_freq):
    bsz, q_len, hidden = h.shape
    dim = hidden // heads

    def proj(name, x):
        return x @ p[f"{name}.weight"].T

    q = proj("q_proj", h).reshape(bsz, q_len, heads, dim).transpose(0, 2, 1, 3)
    k = proj("k_proj", h).reshape(bsz, q_len, kv_heads, dim).transpose(0, 2, 1, 3)
    v = proj("v_proj", h).reshape(bsz, q_len, kv_heads, dim).transpose(0, 2, 1, 3)
    inv = jnp.broadcast_to(inv_freq[None, :, None], (position_ids.shape[0], inv_freq.shape[0], 1))
    freqs = jnp.matmul(inv, position_ids[:, None, :].astype(jnp.float32)).transpose(0, 2, 1)
    emb = jnp.concatenate((freqs, freqs), axis=-1)
    cos, sin = jnp.cos(emb)[:, None], jnp.sin(emb)[:, None]

    def rotate_half(x):
        half = x.shape[-1] // 2
        return jnp.concatenate((-x[..., half:], x[..., :half]), axis=-1)

    q = q * cos + rotate_half(q) * sin
    k = k * cos + rotate_half(k) * sin
    groups = heads // kv_heads
    k, v = jnp.repeat(k, groups, axis=1), jnp.repeat(v, groups, axis=1)
    w = jnp.matmul(q, k.transpose(0, 1, 3, 2)) / math.sqrt(dim)
    if mask is not None:
        w = w + mask[:, :, :, : k.shape[-2]]
    w = jax.nn.softmax(w.astype(jnp.float32), axis=-1)
    out = jnp.matmul(w, v).transpose(0, 2, 1, 3).reshape(bsz, q_len, -1)
    return proj("o_proj", out)


def main():
    spec, arrays = _common.load()
    recorder = _common.Recorder(spec)
    to_numpy = lambda out: _common.flat(out, np.asarray)  # noqa: E731

    def sync(out):
        jax.block_until_ready(out)

    def make(variant):
        wrap = jax.jit if variant == "jit" else (lambda fn: fn)

        def build():
            calls = _common.pool(spec, arrays, jnp.asarray)
            if spec["workload"] == "simple":
                def f(a, b, c):
                    return a * b + c
                return wrap(f), calls
            c = spec["config"]
            params = {k: jnp.asarray(v) for k, v in _common.params(arrays).items()}
            if spec["workload"] == "conv":
                def forward(p, x):
                    return basic_block(p, x, c["stride"])
            else:
                dim = c["hidden_size"] // c["num_heads"]
                inv_freq = jnp.asarray((1.0 / (c["rope_theta"] ** (
                    np.arange(0, dim, 2).astype(np.float32) / dim))).astype(np.float32))

                def forward(p, h, mask, position_ids):
                    return attention(p, h, mask, position_ids, c["num_heads"],
                                     c["num_key_value_heads"], inv_freq)
            if spec["direction"] == "forward":
                step = wrap(forward)
                return (lambda *args: step(params, *args)), calls
            names = spec["trainable"]
            train = {n: params[n] for n in names}
            frozen = {n: v for n, v in params.items() if n not in train}

            def fp_and_bp(train, frozen, *args):
                out, vjp = jax.vjp(lambda t: forward({**frozen, **t}, *args), train)
                (grads,) = vjp(jnp.ones_like(out))
                return out, [grads[n] for n in names]
            step = wrap(fp_and_bp)
            return (lambda *args: step(train, frozen, *args)), calls
        return build

    labels = {"jit": "jax.jit", "eager": "op by op (no jit)"}
    for variant in spec["variants"]:
        _common.measure(recorder, variant, make(variant), to_numpy, sync=sync,
                        label=labels[variant])


if __name__ == "__main__":
    main()
