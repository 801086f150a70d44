"""Train a LeNet-style CNN with a jitted train step, written the way a MindSpore user would.

    python examples/train_lenet.py                 # 300 steps, eager and jitted
    python examples/train_lenet.py --steps 40 --size 8 --capture-mode bytecode

The data set is synthetic but learnable: each class is a fixed random template plus noise.
The loss must fall below --target (exit status 1 if it does not), and the script reports
the time per step of eager training and of the jitted train step.
"""
import argparse
import time

import numpy as np

import tensorjit as mindspore
from tensorjit import Tensor, nn, ops


class LeNet(nn.Cell):
    def __init__(self, num_classes=4, size=16):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3, pad_mode="pad", padding=1)
        self.bn1 = nn.BatchNorm2d(6)
        self.conv2 = nn.Conv2d(6, 12, 3, pad_mode="pad", padding=1)
        self.bn2 = nn.BatchNorm2d(12)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(12 * (size // 4) * (size // 4), 32)
        self.fc2 = nn.Dense(32, num_classes)

    def construct(self, x):
        x = self.pool(self.relu(self.bn1(self.conv1(x))))
        x = self.pool(self.relu(self.bn2(self.conv2(x))))
        x = self.relu(self.fc1(self.flatten(x)))
        return self.fc2(x)


def make_dataset(num_classes, size, count, seed=0):
    rng = np.random.default_rng(seed)
    templates = rng.standard_normal((num_classes, 1, size, size)).astype(np.float32)
    labels = rng.integers(0, num_classes, count).astype(np.int32)
    images = templates[labels] + 0.8 * rng.standard_normal((count, 1, size, size)).astype(
        np.float32)
    return images, labels


def build(size, num_classes, learning_rate, seed=0):
    mindspore.set_seed(seed)
    net = LeNet(num_classes, size)
    net.set_train()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=learning_rate, momentum=0.9)

    def forward_fn(data, label):
        logits = net(data)
        return loss_fn(logits, label)

    grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    return net, train_step


def train(step_fn, images, labels, steps, batch):
    """Losses, time of the first step (compiling, for a jitted step), time per later step."""
    losses = []
    start = time.perf_counter()
    for i in range(steps):
        if i == 1:
            first, start = time.perf_counter() - start, time.perf_counter()
        lo = (i * batch) % (len(images) - batch + 1)
        data, label = Tensor(images[lo:lo + batch]), Tensor(labels[lo:lo + batch])
        losses.append(float(step_fn(data, label).asnumpy()))
    return losses, first, (time.perf_counter() - start) / max(steps - 1, 1)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--size", type=int, default=16, help="image side (multiple of 4)")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--capture-mode", default="ast", choices=["ast", "bytecode", "trace"])
    parser.add_argument("--jit-level", default="O1", choices=["O0", "O1"])
    parser.add_argument("--target", type=float, default=0.1,
                        help="the final loss (mean of the last 10 steps) must be below this")
    args = parser.parse_args(argv)
    classes = 4
    images, labels = make_dataset(classes, args.size, 20 * args.batch)

    _, eager_step = build(args.size, classes, 0.02)
    eager_losses, _, eager_time = train(eager_step, images, labels, args.steps, args.batch)

    _, step = build(args.size, classes, 0.02)
    jitted = mindspore.jit(step, capture_mode=args.capture_mode, jit_level=args.jit_level)
    losses, prepare, jit_time = train(jitted, images, labels, args.steps, args.batch)

    final = float(np.mean(losses[-10:]))
    print(f"steps {args.steps}, batch {args.batch}, images {args.size}x{args.size}, "
          f"jit(capture_mode={args.capture_mode!r}, jit_level={args.jit_level!r})")
    for i in sorted({0, args.steps // 4, args.steps // 2, args.steps - 1}):
        print(f"  step {i:4d}  loss eager {eager_losses[i]:.4f}  jitted {losses[i]:.4f}")
    print(f"time per step: eager {eager_time * 1e3:.2f} ms, jitted {jit_time * 1e3:.2f} ms "
          f"({eager_time / jit_time:.2f}x faster); first jitted step (compiling) "
          f"{prepare:.2f} s")
    print(f"final loss {final:.4f} (target < {args.target})")
    return 0 if final < args.target else 1


if __name__ == "__main__":
    raise SystemExit(main())
