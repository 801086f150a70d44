"""ResNet-18 (CIFAR layout) and the GPT decoder of ``bench/models.py`` in PyTorch, trained
the way a PyTorch user writes it: ``loss.backward()`` and ``optimizer.step()`` (SGD with
momentum, or Adam with MindSpore's placement of eps, to give the same numbers).
``torch.compile`` compiles the model (forward and, through AOTAutograd, backward)."""
import math

import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

import train_data


class BasicBlock(nn.Module):
    def __init__(self, c_in, c_out, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(c_in, c_out, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(c_out, eps=train_data.BN_EPS)
        self.conv2 = nn.Conv2d(c_out, c_out, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(c_out, eps=train_data.BN_EPS)
        self.down_sample = None
        if stride != 1 or c_in != c_out:
            self.down_sample = nn.Sequential(nn.Conv2d(c_in, c_out, 1, stride, bias=False),
                                             nn.BatchNorm2d(c_out, eps=train_data.BN_EPS))

    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        identity = x if self.down_sample is None else self.down_sample(x)
        return torch.relu(out + identity)


class ResNet18(nn.Module):
    def __init__(self, width, classes):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width, eps=train_data.BN_EPS)
        blocks, channels = [], width
        for stage, stride in enumerate((1, 2, 2, 2)):
            out = width * 2 ** stage
            blocks += [BasicBlock(channels, out, stride), BasicBlock(out, out, 1)]
            channels = out
        self.layers = nn.Sequential(*blocks)
        self.fc = nn.Linear(channels, classes)

    def forward(self, x):
        out = self.layers(torch.relu(self.bn1(self.conv1(x))))
        return self.fc(out.mean(dim=(2, 3)))


class Attention(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads, self.head_dim = heads, width // heads
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.scale = 1.0 / math.sqrt(self.head_dim)

    def forward(self, x, mask):
        b, s, w = x.shape
        qkv = self.qkv(x).reshape(b, s, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        weights = torch.softmax(q @ k.transpose(-1, -2) * self.scale + mask, dim=-1)
        return self.proj((weights @ v).transpose(1, 2).reshape(b, s, w))


class Block(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(width, eps=train_data.LN_EPS)
        self.attn = Attention(width, heads)
        self.ln2 = nn.LayerNorm(width, eps=train_data.LN_EPS)
        self.fc1 = nn.Linear(width, 4 * width)
        self.fc2 = nn.Linear(4 * width, width)

    def forward(self, x, mask):
        x = x + self.attn(self.ln1(x), mask)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self, vocab, width, heads, layers, max_seq):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Embedding(max_seq, width)
        self.blocks = nn.ModuleList([Block(width, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm(width, eps=train_data.LN_EPS)
        self.head = nn.Linear(width, vocab)
        causal = np.triu(np.full((max_seq, max_seq), -1e9, np.float32), k=1)
        self.register_buffer("causal", torch.from_numpy(causal))

    def forward(self, ids):
        seq = ids.shape[1]
        x = self.tokens(ids) + self.positions(torch.arange(seq))
        mask = self.causal[:seq, :seq]
        for block in self.blocks:
            x = block(x, mask)
        return self.head(self.ln(x))


class MindSporeAdam(torch.optim.Optimizer):
    """Adam as MindSpore computes it (eps added to sqrt(v), not to the corrected one), in
    PyTorch's multi-tensor ops: torch.optim.Adam would drift from the others by ~1e-5."""

    def __init__(self, params, lr, beta1, beta2, eps):
        super().__init__(params, dict(lr=lr, beta1=beta1, beta2=beta2, eps=eps))
        self.t = 0

    @torch.no_grad()
    def step(self):
        self.t += 1
        for group in self.param_groups:
            b1, b2 = group["beta1"], group["beta2"]
            params = [p for p in group["params"] if p.grad is not None]
            grads = [p.grad for p in params]
            for p in params:
                if not self.state[p]:
                    self.state[p] = {"m": torch.zeros_like(p), "v": torch.zeros_like(p)}
            ms = [self.state[p]["m"] for p in params]
            vs = [self.state[p]["v"] for p in params]
            torch._foreach_lerp_(ms, grads, 1 - b1)
            torch._foreach_mul_(vs, b2)
            torch._foreach_addcmul_(vs, grads, grads, value=1 - b2)
            size = group["lr"] * math.sqrt(1 - b2 ** self.t) / (1 - b1 ** self.t)
            denominators = torch._foreach_add(torch._foreach_sqrt(vs), group["eps"])
            torch._foreach_addcdiv_(params, ms, denominators, value=-size)


def build(workload, variant, request):
    """(step, to_float, sync): ``step()`` trains on the next batch and returns the loss."""
    params, batches = train_data.load(request["data"])
    config = request["config"]
    if workload == "resnet18":
        model = ResNet18(config["width"], config["classes"])
    else:
        model = GPT(config["vocab"], config["width"], config["heads"], config["layers"],
                    config["seq"])
    state = model.state_dict()
    for name, value in params:
        key = train_data.torch_name(name)
        if key not in state or tuple(state[key].shape) != value.shape:
            raise KeyError(f"no PyTorch parameter {key!r} of shape {value.shape}")
        state[key] = torch.from_numpy(np.ascontiguousarray(value))
    model.load_state_dict(state)
    model.train()
    named = dict(model.named_parameters())
    trainable = [named[train_data.torch_name(name)] for name, _ in params]
    kind, settings = train_data.OPTIMIZER[workload]
    if kind == "Momentum":
        optimizer = torch.optim.SGD(trainable, lr=settings["learning_rate"],
                                    momentum=settings["momentum"])
    else:
        optimizer = MindSporeAdam(trainable, settings["learning_rate"], settings["beta1"],
                                  settings["beta2"], settings["eps"])
    forward = torch.compile(model) if variant == "compile" else model
    batches = [(torch.from_numpy(x), torch.from_numpy(y).long()) for x, y in batches]

    def step(x, y):
        optimizer.zero_grad(set_to_none=True)
        logits = forward(x)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        loss.backward()
        optimizer.step()
        return loss.detach()
    return train_data.cycle(step, batches), lambda loss: float(loss), None
