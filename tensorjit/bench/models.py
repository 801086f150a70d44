"""Whole models for the training benchmarks, written the way MindSpore users write them.

* ``ResNet18``: ResNet-18 in its CIFAR layout (3x3 stem, no max-pool), built from the seed's
  ``BasicBlock``.
* ``GPT``: a GPT-style decoder (token + position embeddings, pre-norm blocks of causal
  multi-head attention and an exact-GELU MLP, tied-free output head).

``train_step(net, optimizer_name)`` returns the idiomatic MindSpore train step over a
network (``value_and_grad`` of forward + loss, then the optimizer), ready for ``jit``.
``MODEL_SIZES`` gives the benchmark's shapes ("cpu", the issue's sizes) and small ones for
tests ("tiny"); ``make_model(name, size)`` builds a network, its train step and a batch
with a fixed seed.
"""
import math
from collections import namedtuple

import numpy as np

import tensorjit as mindspore
from tensorjit import nn, ops, Tensor

from .workloads import BasicBlock

__all__ = ["ResNet18", "GPT", "GPTBlock", "CausalSelfAttention", "train_step", "MODEL_SIZES",
           "make_model", "Model"]


# ---------------------------------------------------------------------------------------
# ResNet-18 (CIFAR layout)

class ResNet18(nn.Cell):
    """conv3x3(64) -> BN -> ReLU -> 4 stages of 2 BasicBlocks -> global average -> Dense."""

    def __init__(self, num_classes=10, width=64, in_channels=3):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, width, kernel_size=3, stride=1, pad_mode="pad",
                               padding=1)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU()
        blocks = []
        channels = width
        for stage, stride in enumerate((1, 2, 2, 2)):
            out_channels = width * 2 ** stage
            blocks.append(BasicBlock(channels, out_channels, stride=stride))
            blocks.append(BasicBlock(out_channels, out_channels, stride=1))
            channels = out_channels
        self.layers = nn.SequentialCell(blocks)
        self.fc = nn.Dense(channels, num_classes)

    def construct(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.layers(out)
        out = out.mean(axis=(2, 3))
        return self.fc(out)


# ---------------------------------------------------------------------------------------
# GPT-style decoder

class CausalSelfAttention(nn.Cell):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = width // heads
        self.qkv = nn.Dense(width, 3 * width)
        self.proj = nn.Dense(width, width)
        self.scale = 1.0 / math.sqrt(self.head_dim)

    def construct(self, x, mask):
        batch, seq, width = x.shape
        qkv = self.qkv(x).reshape(batch, seq, 3, self.heads, self.head_dim)
        qkv = qkv.transpose(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = ops.matmul(q, k.swapaxes(-1, -2)) * self.scale + mask
        weights = ops.softmax(scores, axis=-1)
        out = ops.matmul(weights, v).transpose(0, 2, 1, 3).reshape(batch, seq, width)
        return self.proj(out)


class GPTBlock(nn.Cell):
    def __init__(self, width, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm((width,))
        self.attn = CausalSelfAttention(width, heads)
        self.ln2 = nn.LayerNorm((width,))
        self.fc1 = nn.Dense(width, 4 * width)
        self.gelu = nn.GELU(approximate=False)
        self.fc2 = nn.Dense(4 * width, width)

    def construct(self, x, mask):
        x = x + self.attn(self.ln1(x), mask)
        x = x + self.fc2(self.gelu(self.fc1(self.ln2(x))))
        return x


class GPT(nn.Cell):
    def __init__(self, vocab=2048, width=256, heads=4, layers=4, max_seq=128):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Embedding(max_seq, width)
        self.blocks = nn.CellList([GPTBlock(width, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm((width,))
        self.head = nn.Dense(width, vocab)
        causal = np.triu(np.full((max_seq, max_seq), -1e9, np.float32), k=1)
        self.causal = Tensor(causal)
        self.position_ids = Tensor(np.arange(max_seq, dtype=np.int32))

    def construct(self, ids):
        seq = ids.shape[1]
        x = self.tokens(ids) + self.positions(self.position_ids[:seq])
        mask = self.causal[:seq, :seq]
        for block in self.blocks:
            x = block(x, mask)
        return self.head(self.ln(x))


class _TokenLoss(nn.Cell):
    """Cross-entropy over every position: logits (B, S, V), labels (B, S)."""

    def __init__(self):
        super().__init__()
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, logits, labels):
        vocab = logits.shape[-1]
        return self.loss(logits.reshape(-1, vocab), labels.reshape(-1))


# ---------------------------------------------------------------------------------------
# train steps and sizes

OPTIMIZERS = {
    "Momentum": lambda params: nn.Momentum(params, learning_rate=0.01, momentum=0.9),
    "Adam": lambda params: nn.Adam(params, learning_rate=1e-3),
    "SGD": lambda params: nn.SGD(params, learning_rate=0.01),
}


def train_step(net, loss_fn, optimizer):
    """The idiomatic MindSpore train step: forward + loss, value_and_grad, optimizer."""

    def forward_fn(data, label):
        return loss_fn(net(data), label)

    grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters)

    def step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss
    return step


Model = namedtuple("Model", "net optimizer step inputs forward")

MODEL_SIZES = {
    # name: {size: constructor kwargs and batch shape}
    "resnet18": {
        "cpu": dict(width=64, batch=16, image=32, classes=10),
        "tiny": dict(width=8, batch=4, image=16, classes=10),
    },
    "gpt": {
        "cpu": dict(vocab=2048, width=256, heads=4, layers=4, seq=128, batch=8),
        "tiny": dict(vocab=64, width=32, heads=4, layers=2, seq=16, batch=2),
    },
}


def make_model(name, size="cpu", seed=0, batches=1):
    """Build ``name`` ("resnet18" or "gpt") at ``size``: the net in training mode, its
    optimizer (Momentum for ResNet-18, Adam for GPT), the train step (not jitted) and
    ``batches`` input pairs made with a fixed seed."""
    mindspore.set_seed(seed)
    rng = np.random.default_rng(seed)
    cfg = MODEL_SIZES[name][size]
    if name == "resnet18":
        net = ResNet18(num_classes=cfg["classes"], width=cfg["width"])
        loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        optimizer = OPTIMIZERS["Momentum"](net.trainable_params())
        shape = (cfg["batch"], 3, cfg["image"], cfg["image"])
        inputs = [(Tensor(rng.standard_normal(shape).astype(np.float32)),
                   Tensor(rng.integers(0, cfg["classes"], cfg["batch"]).astype(np.int32)))
                  for _ in range(batches)]
    elif name == "gpt":
        net = GPT(vocab=cfg["vocab"], width=cfg["width"], heads=cfg["heads"],
                  layers=cfg["layers"], max_seq=cfg["seq"])
        loss_fn = _TokenLoss()
        optimizer = OPTIMIZERS["Adam"](net.trainable_params())
        shape = (cfg["batch"], cfg["seq"] + 1)
        inputs = []
        for _ in range(batches):
            tokens = rng.integers(0, cfg["vocab"], shape).astype(np.int32)
            inputs.append((Tensor(tokens[:, :-1].copy()), Tensor(tokens[:, 1:].copy())))
    else:
        raise ValueError(f"unknown model {name!r}: expected one of {sorted(MODEL_SIZES)}")
    net.set_train()
    return Model(net, optimizer, train_step(net, loss_fn, optimizer), inputs, net)
