"""ResNet-18 (CIFAR layout) and the GPT decoder of ``bench/models.py`` in MindSpore (the
same cells: tensorjit's API is MindSpore's), with MindSpore's own train step
(``value_and_grad`` + the optimizer), in PyNative mode or under ``mindspore.jit``. Runs
in MindSpore's interpreter. The loss is read (``asnumpy``) after every step, which waits
for MindSpore's asynchronous queue."""
import math

import numpy as np
import mindspore
from mindspore import nn, ops, Tensor

import train_data


class BasicBlock(nn.Cell):
    def __init__(self, in_channel, out_channel, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channel, out_channel, kernel_size=3, stride=stride,
                               pad_mode="pad", padding=1)
        self.bn1 = nn.BatchNorm2d(out_channel)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(out_channel, out_channel, kernel_size=3, stride=1,
                               pad_mode="pad", padding=1)
        self.bn2 = nn.BatchNorm2d(out_channel)
        self.down_sample = None
        if stride != 1 or in_channel != out_channel:
            self.down_sample = nn.SequentialCell([
                nn.Conv2d(in_channel, out_channel, kernel_size=1, stride=stride,
                          pad_mode="valid"),
                nn.BatchNorm2d(out_channel)])

    def construct(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.down_sample is not None:
            identity = self.down_sample(x)
        return self.relu(out + identity)


class ResNet18(nn.Cell):
    def __init__(self, num_classes, width):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=3, stride=1, pad_mode="pad", padding=1)
        self.bn1 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU()
        blocks, channels = [], width
        for stage, stride in enumerate((1, 2, 2, 2)):
            out = width * 2 ** stage
            blocks += [BasicBlock(channels, out, stride), BasicBlock(out, out, 1)]
            channels = out
        self.layers = nn.SequentialCell(blocks)
        self.fc = nn.Dense(channels, num_classes)

    def construct(self, x):
        out = self.layers(self.relu(self.bn1(self.conv1(x))))
        return self.fc(out.mean(axis=(2, 3)))


class CausalSelfAttention(nn.Cell):
    def __init__(self, width, heads):
        super().__init__()
        self.heads, self.head_dim = heads, width // heads
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
        self.ln1 = nn.LayerNorm((width,), epsilon=train_data.LN_EPS)
        self.attn = CausalSelfAttention(width, heads)
        self.ln2 = nn.LayerNorm((width,), epsilon=train_data.LN_EPS)
        self.fc1 = nn.Dense(width, 4 * width)
        self.gelu = nn.GELU(approximate=False)
        self.fc2 = nn.Dense(4 * width, width)

    def construct(self, x, mask):
        x = x + self.attn(self.ln1(x), mask)
        return x + self.fc2(self.gelu(self.fc1(self.ln2(x))))


class GPT(nn.Cell):
    def __init__(self, vocab, width, heads, layers, max_seq):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Embedding(max_seq, width)
        self.blocks = nn.CellList([GPTBlock(width, heads) for _ in range(layers)])
        self.ln = nn.LayerNorm((width,), epsilon=train_data.LN_EPS)
        self.head = nn.Dense(width, vocab)
        self.causal = Tensor(np.triu(np.full((max_seq, max_seq), -1e9, np.float32), k=1))
        self.position_ids = Tensor(np.arange(max_seq, dtype=np.int32))

    def construct(self, ids):
        seq = ids.shape[1]
        x = self.tokens(ids) + self.positions(self.position_ids[:seq])
        mask = self.causal[:seq, :seq]
        for block in self.blocks:
            x = block(x, mask)
        return self.head(self.ln(x))


class TokenLoss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")

    def construct(self, logits, labels):
        return self.loss(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1))


def build(workload, variant, request):
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE, device_target="CPU")
    params, batches = train_data.load(request["data"])
    config = request["config"]
    if workload == "resnet18":
        net = ResNet18(config["classes"], config["width"])
    else:
        net = GPT(config["vocab"], config["width"], config["heads"], config["layers"],
                  config["seq"])
    values = dict(params)
    trainable = net.trainable_params()
    if [p.name for p in trainable] != [name for name, _ in params]:
        raise KeyError("MindSpore's parameters differ from tensorjit's: "
                       f"{[p.name for p in trainable][:4]}... vs {list(values)[:4]}...")
    for p in trainable:
        p.set_data(Tensor(values[p.name], p.dtype))
    net.set_train()
    loss_fn = TokenLoss() if workload == "gpt" else nn.SoftmaxCrossEntropyWithLogits(
        sparse=True, reduction="mean")
    kind, settings = train_data.OPTIMIZER[workload]
    if kind == "Momentum":
        optimizer = nn.Momentum(trainable, learning_rate=settings["learning_rate"],
                                momentum=settings["momentum"])
    else:
        optimizer = nn.Adam(trainable, learning_rate=settings["learning_rate"],
                            beta1=settings["beta1"], beta2=settings["beta2"],
                            eps=settings["eps"])

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = mindspore.value_and_grad(forward, None, optimizer.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss
    if variant == "jit":
        step = mindspore.jit(step)
    elif variant != "pynative":
        raise NotImplementedError(f"MindSpore variant {variant!r}")
    batches = [(Tensor(x), Tensor(y.astype(np.int32))) for x, y in batches]
    return train_data.cycle(step, batches), lambda loss: float(loss.asnumpy()), \
        lambda loss: loss.asnumpy()
