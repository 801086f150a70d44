"""Independent NumPy reference implementations used by tests/nn.

Written from the mathematical definitions (loops, einsum, explicit formulas), sharing no
code with tensorjit.
"""
import math

import numpy as np


def same_padding(size, kernel, stride, dilation):
    """MindSpore/TF 'same': output ceil(size / stride), extra padding at the end."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


def conv2d(x, w, b=None, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """Direct convolution: one dot product per output element."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    top, bottom, left, right = padding
    sh, sw = stride
    dh, dw = dilation
    xp = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    oh = (h + top + bottom - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + left + right - dw * (kw - 1) - 1) // sw + 1
    og = o // groups
    out = np.zeros((n, o, oh, ow))
    for oc in range(o):
        g = oc // og
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * cg:(g + 1) * cg,
                           i * sh:i * sh + dh * (kh - 1) + 1:dh,
                           j * sw:j * sw + dw * (kw - 1) + 1:dw]
                out[:, oc, i, j] = np.einsum("nckl,ckl->n", patch, w[oc])
    if b is not None:
        out += np.asarray(b).reshape(1, -1, 1, 1)
    return out


def pool2d(x, kernel, stride, padding=(0, 0, 0, 0), mode="max"):
    n, c, h, w = x.shape
    kh, kw = kernel
    sh, sw = stride
    top, bottom, left, right = padding
    fill = -np.inf if mode == "max" else 0.0
    xp = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=fill)
    oh = (h + top + bottom - kh) // sh + 1
    ow = (w + left + right - kw) // sw + 1
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            win = xp[:, :, i * sh:i * sh + kh, j * sw:j * sw + kw]
            out[:, :, i, j] = win.max(axis=(2, 3)) if mode == "max" else win.mean(axis=(2, 3))
    return out


def batch_norm_train(x, gamma, beta, moving_mean, moving_var, momentum, eps):
    """(y, new_moving_mean, new_moving_var) with MindSpore's momentum convention:
    moving = momentum * moving + (1 - momentum) * batch, unbiased batch variance."""
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    count = x.size // x.shape[1]
    mean = x.mean(axis=axes)
    var = ((x - mean.reshape(shape)) ** 2).mean(axis=axes)
    y = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps) * gamma.reshape(shape) \
        + beta.reshape(shape)
    unbiased = var * count / (count - 1)
    return (y, momentum * moving_mean + (1 - momentum) * mean,
            momentum * moving_var + (1 - momentum) * unbiased)


def batch_norm_eval(x, gamma, beta, moving_mean, moving_var, eps):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return (x - moving_mean.reshape(shape)) / np.sqrt(moving_var.reshape(shape) + eps) \
        * gamma.reshape(shape) + beta.reshape(shape)


def layer_norm(x, begin_axis, gamma, beta, eps):
    axes = tuple(range(begin_axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def basic_block(x, params, stride, training, momentum=0.9, eps=1e-5):
    """The ResNet basic block. ``params``: name -> array (the cell's parameter names).
    Returns (out, {moving-stat name: new value}) -- updates are only made in training."""
    updates = {}

    def bn(t, prefix):
        gamma, beta = params[prefix + ".gamma"], params[prefix + ".beta"]
        mm, mv = params[prefix + ".moving_mean"], params[prefix + ".moving_variance"]
        if training:
            y, updates[prefix + ".moving_mean"], updates[prefix + ".moving_variance"] = \
                batch_norm_train(t, gamma, beta, mm, mv, momentum, eps)
            return y
        return batch_norm_eval(t, gamma, beta, mm, mv, eps)

    out = conv2d(x, params["conv1.weight"], stride=(stride, stride), padding=(1, 1, 1, 1))
    out = np.maximum(bn(out, "bn1"), 0)
    out = conv2d(out, params["conv2.weight"], padding=(1, 1, 1, 1))
    out = bn(out, "bn2")
    identity = x
    if "down_sample.0.weight" in params:
        identity = bn(conv2d(x, params["down_sample.0.weight"], stride=(stride, stride)),
                      "down_sample.1")
    return np.maximum(out + identity, 0), updates


def llama_attention(x, wq, wk, wv, wo, num_heads, num_kv_heads, position_ids, mask=None,
                    theta=10000.0):
    """Grouped-query attention with rotary embeddings, in float64."""
    b, s, hidden = x.shape
    d = hidden // num_heads
    q = (x @ wq.T).reshape(b, s, num_heads, d).transpose(0, 2, 1, 3)
    k = (x @ wk.T).reshape(b, s, num_kv_heads, d).transpose(0, 2, 1, 3)
    v = (x @ wv.T).reshape(b, s, num_kv_heads, d).transpose(0, 2, 1, 3)
    inv_freq = 1.0 / theta ** (np.arange(0, d, 2) / d)
    angles = np.asarray(position_ids, np.float64)[..., None] * inv_freq      # (pb, s, d/2)
    angles = np.concatenate([angles, angles], axis=-1)[:, None]               # (pb, 1, s, d)
    cos, sin = np.cos(angles), np.sin(angles)

    def rotate_half(t):
        return np.concatenate([-t[..., d // 2:], t[..., :d // 2]], axis=-1)

    q = q * cos + rotate_half(q) * sin
    k = k * cos + rotate_half(k) * sin
    groups = num_heads // num_kv_heads
    k = np.repeat(k, groups, axis=1)          # head h attends with kv head h // groups
    v = np.repeat(v, groups, axis=1)
    scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d)
    if mask is not None:
        scores = scores + mask
    out = softmax(scores) @ v                  # (b, heads, s, d)
    return out.transpose(0, 2, 1, 3).reshape(b, s, hidden) @ wo.T
