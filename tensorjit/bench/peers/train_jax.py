"""ResNet-18 (CIFAR layout) and the GPT decoder of ``bench/models.py`` as plain
``jax.numpy`` functions of a parameter dict, trained by one ``jax.jit``-compiled step
(``jax.value_and_grad`` and the optimizer update, parameters donated so XLA updates them
in place). Convolutions run channels-last (NHWC images, HWIO weights), XLA's CPU layout.
BatchNorm uses batch statistics (training mode) without running averages, which do not
change the loss."""
import math

import numpy as np
import jax
import jax.numpy as jnp
from jax import lax

import train_data


def _conv(x, w, stride, pad):
    return lax.conv_general_dilated(x, w, (stride, stride), [(pad, pad), (pad, pad)],
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _batch_norm(p, name, x):
    mean = x.mean(axis=(0, 1, 2))
    var = ((x - mean) ** 2).mean(axis=(0, 1, 2))
    return (x - mean) * lax.rsqrt(var + train_data.BN_EPS) * p[f"{name}.gamma"] + \
        p[f"{name}.beta"]


def resnet18(blocks):
    def forward(p, x):
        x = jnp.transpose(x, (0, 2, 3, 1))                      # NCHW batch -> NHWC
        out = jax.nn.relu(_batch_norm(p, "bn1", _conv(x, p["conv1.weight"], 1, 1)))
        for prefix, stride, projection in blocks:
            y = jax.nn.relu(_batch_norm(p, prefix + "bn1",
                                        _conv(out, p[prefix + "conv1.weight"], stride, 1)))
            y = _batch_norm(p, prefix + "bn2", _conv(y, p[prefix + "conv2.weight"], 1, 1))
            if projection:
                out = _batch_norm(p, prefix + "down_sample.1",
                                  _conv(out, p[prefix + "down_sample.0.weight"], stride, 0))
            out = jax.nn.relu(y + out)
        return out.mean(axis=(1, 2)) @ p["fc.weight"].T + p["fc.bias"]
    return forward


def _layer_norm(p, name, x):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + train_data.LN_EPS) * p[f"{name}.gamma"] + \
        p[f"{name}.beta"]


def _dense(p, name, x):
    return x @ p[f"{name}.weight"].T + p[f"{name}.bias"]


def gpt(config):
    heads, layers = config["heads"], config["layers"]
    max_seq = config["seq"]
    causal = jnp.asarray(np.triu(np.full((max_seq, max_seq), -1e9, np.float32), k=1))

    def forward(p, ids):
        b, s = ids.shape
        x = p["tokens.embedding_table"][ids] + p["positions.embedding_table"][:s]
        width = x.shape[-1]
        dim = width // heads
        for i in range(layers):
            pre = f"blocks.{i}."
            h = _layer_norm(p, pre + "ln1", x)
            qkv = _dense(p, pre + "attn.qkv", h).reshape(b, s, 3, heads, dim)
            q, k, v = (qkv[:, :, j].transpose(0, 2, 1, 3) for j in range(3))
            scores = q @ k.transpose(0, 1, 3, 2) * (1.0 / math.sqrt(dim)) + causal[:s, :s]
            out = (jax.nn.softmax(scores, -1) @ v).transpose(0, 2, 1, 3).reshape(b, s, width)
            x = x + _dense(p, pre + "attn.proj", out)
            h = jax.nn.gelu(_dense(p, pre + "fc1", _layer_norm(p, pre + "ln2", x)),
                            approximate=False)
            x = x + _dense(p, pre + "fc2", h)
        return _dense(p, "head", _layer_norm(p, "ln", x))
    return forward


def _momentum(settings):
    lr, momentum = settings["learning_rate"], settings["momentum"]

    def init(params):
        return jax.tree_util.tree_map(jnp.zeros_like, params)

    def update(params, grads, velocity):
        velocity = jax.tree_util.tree_map(lambda v, g: momentum * v + g, velocity, grads)
        params = jax.tree_util.tree_map(lambda p, v: p - lr * v, params, velocity)
        return params, velocity
    return init, update


def _adam(settings):
    lr, b1, b2, eps = (settings[k] for k in ("learning_rate", "beta1", "beta2", "eps"))

    def init(params):
        def zeros():        # two distinct trees: both are donated
            return jax.tree_util.tree_map(jnp.zeros_like, params)
        return (zeros(), zeros(), jnp.zeros((), jnp.float32))

    def update(params, grads, state):
        m, v, t = state
        t = t + 1
        m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
        v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
        size = lr * jnp.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        params = jax.tree_util.tree_map(lambda p, m, v: p - size * m / (jnp.sqrt(v) + eps),
                                        params, m, v)
        return params, (m, v, t)
    return init, update


def build(workload, variant, request):
    if variant != "jit":
        raise NotImplementedError("JAX trains with jax.jit only")
    named, batches = train_data.load(request["data"])
    config = request["config"]
    params = {}
    for name, value in named:
        if value.ndim == 4:                      # conv weights: OIHW -> HWIO
            value = value.transpose(2, 3, 1, 0)
        params[name] = jnp.asarray(value)
    if workload == "resnet18":
        forward = resnet18(train_data.resnet_blocks(named))
    else:
        forward = gpt(config)
    kind, settings = train_data.OPTIMIZER[workload]
    init, update = (_momentum if kind == "Momentum" else _adam)(settings)

    def loss_fn(p, x, y):
        logits = forward(p, x)
        logits = logits.reshape(-1, logits.shape[-1])
        logp = jax.nn.log_softmax(logits, -1)
        return -jnp.take_along_axis(logp, y.reshape(-1, 1), axis=1).mean()

    def train(p, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
        p, opt_state = update(p, grads, opt_state)
        return p, opt_state, loss

    train = jax.jit(train, donate_argnums=(0, 1))
    holder = {"params": params, "opt": init(params)}
    batches = [(jnp.asarray(x), jnp.asarray(y)) for x, y in batches]

    def step(x, y):
        holder["params"], holder["opt"], loss = train(holder["params"], holder["opt"], x, y)
        return loss
    return train_data.cycle(step, batches), lambda loss: float(loss), \
        lambda loss: loss.block_until_ready()
