"""The ports in examples/ of MindSpore's ViT and sentiment-LSTM tutorials and of mindcv's
MobileNetV2 file: they run as scripts, learn, and their networks compute what a NumPy
re-statement of the model computes from the same parameters; gradients agree with finite
differences; compiled training steps equal eager ones."""
import importlib.util
import os
import subprocess
import sys

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor

from nn.test_recurrent import numpy_layer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")


def run_script(name, *args):
    env = dict(os.environ, PYTHONWARNINGS="ignore", PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), *args],
                          capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def load(name, small=True):
    """The example as a module (``--small`` sizes)."""
    argv = sys.argv
    sys.argv = [name] + (["--small"] if small else [])
    try:
        spec = importlib.util.spec_from_file_location(f"example_{name[:-3]}",
                                                      os.path.join(EXAMPLES, name))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.argv = argv
    return module


def final_numbers(out):
    last = out.strip().splitlines()[-1]
    return {k.strip(): float(v) for k, v in (part.rsplit(" ", 1) for part in last.split(", "))}


def params(cell):
    return {p.name: p.asnumpy().astype(np.float64) for p in cell.get_parameters()}


def layer_norm(x, gamma, beta, eps):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + eps) * gamma + beta


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def directional_check(loss, leaves, grads, eps, rtol, seed=0):
    """<grad, d> against a central difference of ``loss()`` along random d."""
    rng = np.random.default_rng(seed)
    base = [p.asnumpy().copy() for p in leaves]
    dirs = [rng.standard_normal(b.shape).astype(b.dtype) for b in base]
    analytic = sum(float((g.asnumpy().astype(np.float64) * d).sum()) for g, d in zip(grads, dirs))

    def at(e):
        for p, b, d in zip(leaves, base, dirs):
            p.set_data(Tensor(b + e * d))
        try:
            return float(loss().asnumpy())
        finally:
            for p, b in zip(leaves, base):
                p.set_data(Tensor(b))

    numeric = (at(eps) - at(-eps)) / (2 * eps)
    assert abs(numeric - analytic) <= rtol * (abs(numeric) + 1e-3), (numeric, analytic)


# ---- ViT ---------------------------------------------------------------------------------

def numpy_vit(network, x, mod):
    p = params(network)
    b = x.shape[0]
    conv_w, conv_b = p["patch_embedding.conv.weight"], p["patch_embedding.conv.bias"]
    e, _, size, _ = conv_w.shape
    patches = x.reshape(b, 3, x.shape[2] // size, size, x.shape[3] // size, size)
    emb = np.einsum("bchpwq,ecpq->behw", patches, conv_w) + conv_b[None, :, None, None]
    emb = emb.reshape(b, e, -1).transpose(0, 2, 1)
    cls = p["cls"].astype(np.float16).astype(np.float64)     # the tutorial's astype(float16)
    h = np.concatenate([np.repeat(cls, b, 0), emb], 1) + p["pos_embedding"]
    heads = mod.HEADS
    for i in range(mod.LAYERS):
        pre = f"transformer.layers.{i}."
        y = layer_norm(h, p[pre + "0.cell.0.gamma"], p[pre + "0.cell.0.beta"], 1e-7)
        qkv = y @ p[pre + "0.cell.1.qkv.weight"].T + p[pre + "0.cell.1.qkv.bias"]
        n, d = y.shape[1], e // heads
        q, k, v = qkv.reshape(b, n, 3, heads, d).transpose(2, 0, 3, 1, 4)
        att = softmax(q @ k.transpose(0, 1, 3, 2) * d ** -0.5) @ v
        att = att.transpose(0, 2, 1, 3).reshape(b, n, e)
        h = h + att @ p[pre + "0.cell.1.out.weight"].T + p[pre + "0.cell.1.out.bias"]
        y = layer_norm(h, p[pre + "1.cell.0.gamma"], p[pre + "1.cell.0.beta"], 1e-7)
        y = y @ p[pre + "1.cell.1.dense1.weight"].T + p[pre + "1.cell.1.dense1.bias"]
        y = 0.5 * y * (1 + np.tanh(np.sqrt(2 / np.pi) * (y + 0.044715 * y ** 3)))
        h = h + y @ p[pre + "1.cell.1.dense2.weight"].T + p[pre + "1.cell.1.dense2.bias"]
    h = layer_norm(h, p["norm.gamma"], p["norm.beta"], 1e-7)[:, 0]
    return h @ p["dense.weight"].T + p["dense.bias"]


def test_vit_tutorial():
    mod = load("vit_tutorial.py")
    network, loss_fn = mod.build()
    data, label = mod.make_batch(np.random.default_rng(0))
    expected = numpy_vit(network, data.asnumpy().astype(np.float64), mod)
    np.testing.assert_allclose(network(data).asnumpy(), expected, rtol=2e-4, atol=2e-4)
    for mode in ("trace", "ast", "bytecode"):
        jitted = ms.jit(network, capture_mode=mode, jit_level="O1")
        jitted(data)
        np.testing.assert_allclose(jitted(data).asnumpy(), expected, rtol=2e-4, atol=2e-4)
    # (the class token goes through the tutorial's float16 cast, whose rounding finite
    # differences see: it is left out of this check)
    weights = [w for w in network.trainable_params() if w.name != "cls"]
    grads = ms.grad(lambda d, l: loss_fn(network(d), l), None, weights)(data, label)
    directional_check(lambda: loss_fn(network(data), label), weights, grads, 1e-2, 2e-2)
    out = final_numbers(run_script("vit_tutorial.py"))
    assert out["last loss"] < 0.5 * out["first loss"] and out["accuracy"] >= 0.9


# ---- sentiment LSTM ------------------------------------------------------------------------

def test_sentiment_lstm_tutorial():
    mod = load("sentiment_lstm.py")
    model, loss_fn, optimizer = mod.build()
    data, label = mod.make_batch(np.random.default_rng(0))
    p = params(model)
    embedded = p["embedding.embedding_table"][data.asnumpy()]
    lengths = np.full(data.shape[0], data.shape[1])
    _, (hidden, _) = numpy_layer("LSTM", model.rnn, embedded, lengths)
    expected = np.concatenate([hidden[-2], hidden[-1]], 1) @ p["fc.weight"].T + p["fc.bias"]
    np.testing.assert_allclose(model(data).asnumpy(), expected, rtol=1e-4, atol=1e-5)
    assert model.embedding.embedding_table.asnumpy()[mod.PAD].tolist() == [0.0] * mod.EMBED
    weights = optimizer.parameters
    grads = ms.grad(lambda d, l: loss_fn(model(d), l), None, weights)(data, label)
    directional_check(lambda: loss_fn(model(data), label), list(weights), grads, 1e-2, 2e-2)
    # the tutorial's train_step, compiled, equals eager step for step
    losses = {}
    for jit in (False, True):
        model, loss_fn, optimizer = mod.build()
        step = mod.make_train_step(model, loss_fn, optimizer, jit=jit)
        rng = np.random.default_rng(3)
        losses[jit] = [float(step(*mod.make_batch(rng)).asnumpy()) for _ in range(3)]
    np.testing.assert_allclose(losses[True], losses[False], rtol=1e-5)
    out = final_numbers(run_script("sentiment_lstm.py"))
    assert out["last loss"] < 0.95 * out["first loss"] and out["accuracy"] >= 0.7


# ---- mindcv MobileNetV2 ----------------------------------------------------------------

def _conv(x, w, stride, groups):
    """Zero-padded ('pad', padding (k-1)/2) grouped convolution by sliding windows."""
    k = w.shape[-1]
    pad = (k - 1) // 2
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    win = np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(2, 3))
    win = win[:, :, ::stride, ::stride]
    n, c = x.shape[:2]
    o = w.shape[0]
    win = win.reshape(n, groups, c // groups, *win.shape[2:])
    wg = w.reshape(groups, o // groups, c // groups, k, k)
    out = np.einsum("ngchwij,gocij->ngohw", win, wg)
    return out.reshape(n, o, *out.shape[-2:])


def numpy_mobilenet(network, x):
    from tensorjit import nn

    def run(cell, x):
        if isinstance(cell, nn.SequentialCell):
            for child in cell:
                x = run(child, x)
            return x
        if isinstance(cell, nn.Conv2d):
            return _conv(x, cell.weight.asnumpy().astype(np.float64), cell.stride[0], cell.group)
        if isinstance(cell, nn.BatchNorm2d):
            shape = (1, -1, 1, 1)
            mean, var = cell.moving_mean.asnumpy(), cell.moving_variance.asnumpy()
            return ((x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + cell.eps)
                    * cell.gamma.asnumpy().reshape(shape) + cell.beta.asnumpy().reshape(shape))
        if isinstance(cell, nn.ReLU6):
            return np.clip(x, 0, 6)
        if type(cell).__name__ == "InvertedResidual":
            y = run(cell.layers, x)
            return x + y if cell.use_res_connect else y
        raise AssertionError(f"unexpected cell {cell}")

    h = run(network.features, x).mean((2, 3))
    dense = network.classifier[1]
    return h @ dense.weight.asnumpy().T + dense.bias.asnumpy()


def test_mindcv_mobilenet_v2():
    mod = load("mindcv_mobilenet_v2.py")
    network = mod.build()
    from tensorjit import nn
    convs = [c for _, c in network.cells_and_names() if isinstance(c, nn.Conv2d)]
    assert len(convs) == 52
    big = max(convs, key=lambda c: c.weight.size)        # the file's own initialisation
    n = big.kernel_size[0] * big.kernel_size[1] * big.out_channels
    assert abs(big.weight.asnumpy().std() / np.sqrt(2.0 / n) - 1) < 0.05
    dense = network.classifier[1]
    assert abs(dense.weight.asnumpy().std() / 0.01 - 1) < 0.05 and not dense.bias.asnumpy().any()
    data, label = mod.make_batch(np.random.default_rng(0))
    expected = numpy_mobilenet(network, data.asnumpy().astype(np.float64))
    np.testing.assert_allclose(network(data).asnumpy(), expected, rtol=1e-3, atol=1e-5)
    # compiled training steps equal eager ones (inference-mode BatchNorm and dropout, so
    # both runs see the same numbers)
    losses = {}
    for jit in (False, True):
        net = mod.build()
        optimizer = ms.nn.Momentum(net.trainable_params(), 0.01, 0.9)
        step = mod.make_train_step(net, optimizer, jit=jit)
        rng = np.random.default_rng(3)
        losses[jit] = [float(step(*mod.make_batch(rng)).asnumpy()) for _ in range(3)]
    np.testing.assert_allclose(losses[True], losses[False], rtol=1e-4)
    out = final_numbers(run_script("mindcv_mobilenet_v2.py", "--small"))
    assert np.isfinite(out["last loss"]) and out["parameters"] > 1e5
