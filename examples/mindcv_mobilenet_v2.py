"""mindcv's MobileNetV2 model file (mindcv/models/mobilenet_v2.py,
https://github.com/mindspore-lab/mindcv, Apache-2.0) on tensorjit: inverted residual
blocks of depthwise (``group``) convolutions, BatchNorm2d, ReLU6, ``Dropout(keep_prob=)``,
and the file's own weight initialisation through ``mindspore.common.initializer``
(``init.initializer(init.Normal(...))`` + ``Parameter.set_data`` over
``cells_and_names()``).

``InvertedResidual`` and ``MobileNetV2`` are the file's with only the import lines changed;
the two helpers it imports from mindcv's package (``make_divisible`` from ``helpers.py``,
``GlobalAvgPooling`` from ``layers/pooling.py``) are re-stated below from their
definitions, and the model-registry functions are left out. The training data is
synthetic (the class of an image decides which colour channel is brighter).

    python examples/mindcv_mobilenet_v2.py           # width 0.35, 32x32 images, 30 steps
    python examples/mindcv_mobilenet_v2.py --small   # width 0.35, 16x16 images, 4 steps
"""
import sys

import numpy as np

import math

import tensorjit.common.initializer as init
from tensorjit import Tensor, nn
import tensorjit as ms
from tensorjit import ops

SMALL = "--small" in sys.argv


# ---- what the file imports from mindcv's package --------------------------------------------

def make_divisible(v, divisor=8, min_value=None):
    """The nearest multiple of ``divisor`` to ``v``, not below ``min_value`` (default
    ``divisor``) and not more than 10% below ``v``."""
    min_value = min_value or divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class GlobalAvgPooling(nn.Cell):
    """The mean over the spatial axes (kept as size 1 with ``keep_dims``)."""

    def __init__(self, keep_dims: bool = False) -> None:
        super().__init__()
        self.keep_dims = keep_dims

    def construct(self, x):
        x = ops.mean(x, axis=(2, 3), keep_dims=self.keep_dims)
        return x


# ---- the model file's classes (imports changed only) -----------------------------------------

class InvertedResidual(nn.Cell):
    """Inverted Residual Block of MobileNetV2"""

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        stride: int,
        expand_ratio: int,
    ) -> None:
        super().__init__()
        assert stride in [1, 2]
        hidden_dim = round(in_channels * expand_ratio)
        self.use_res_connect = stride == 1 and in_channels == out_channels

        layers = []
        if expand_ratio != 1:
            # pw
            layers.extend([
                nn.Conv2d(in_channels, hidden_dim, 1, 1, pad_mode="pad", padding=0, has_bias=False),
                nn.BatchNorm2d(hidden_dim),
                nn.ReLU6()
            ])
        layers.extend([
            # dw
            nn.Conv2d(hidden_dim, hidden_dim, 3, stride, pad_mode="pad", padding=1, group=hidden_dim, has_bias=False),
            nn.BatchNorm2d(hidden_dim),
            nn.ReLU6(),
            # pw-linear
            nn.Conv2d(hidden_dim, out_channels, 1, 1, pad_mode="pad", padding=0, has_bias=False),
            nn.BatchNorm2d(out_channels),
        ])
        self.layers = nn.SequentialCell(layers)

    def construct(self, x: Tensor) -> Tensor:
        if self.use_res_connect:
            return x + self.layers(x)
        return self.layers(x)


class MobileNetV2(nn.Cell):
    r"""MobileNetV2 model class, based on
    `"MobileNetV2: Inverted Residuals and Linear Bottlenecks" <https://arxiv.org/abs/1801.04381>`_

    Args:
        alpha: scale factor of model width. Default: 1.
        round_nearest: divisor of make divisible function. Default: 8.
        in_channels: number the channels of the input. Default: 3.
        num_classes: number of classification classes. Default: 1000.
    """

    def __init__(
        self,
        alpha: float = 1.0,
        round_nearest: int = 8,
        in_channels: int = 3,
        num_classes: int = 1000,
    ) -> None:
        super().__init__()
        input_channels = make_divisible(32 * alpha, round_nearest)
        # Setting of inverted residual blocks.
        # t: The expansion factor.
        # c: Number of output channel.
        # n: Number of block.
        # s: First block stride.
        inverted_residual_setting = [
            # t, c, n, s
            [1, 16, 1, 1],
            [6, 24, 2, 2],
            [6, 32, 3, 2],
            [6, 64, 4, 2],
            [6, 96, 3, 1],
            [6, 160, 3, 2],
            [6, 320, 1, 1],
        ]
        last_channels = make_divisible(1280 * max(1.0, alpha), round_nearest)

        # Building stem conv layer.
        features = [
            nn.Conv2d(in_channels, input_channels, 3, 2, pad_mode="pad", padding=1, has_bias=False),
            nn.BatchNorm2d(input_channels),
            nn.ReLU6(),
        ]

        total_reduction = 2
        self.feature_info = []
        self.flatten_sequential = True

        # Building inverted residual blocks.
        for t, c, n, s in inverted_residual_setting:
            output_channel = make_divisible(c * alpha, round_nearest)
            for i in range(n):
                stride = s if i == 0 else 1
                features.append(InvertedResidual(input_channels, output_channel, stride, expand_ratio=t))
                input_channels = output_channel

                total_reduction *= stride

                if len(features) == 16:
                    self.feature_info.append(dict(chs=output_channel, reduction=total_reduction, name=f'features.{len(features) - 1}'))

        # Building last point-wise layers.
        features.extend([
            nn.Conv2d(input_channels, last_channels, 1, 1, pad_mode="pad", padding=0, has_bias=False),
            nn.BatchNorm2d(last_channels),
            nn.ReLU6(),
        ])

        self.feature_info.append(dict(chs=last_channels, reduction=total_reduction, name=f'features.{len(features) - 1}'))

        self.features = nn.SequentialCell(features)

        self.pool = GlobalAvgPooling()
        self.classifier = nn.SequentialCell([
            nn.Dropout(keep_prob=0.8),  # confirmed by paper authors
            nn.Dense(last_channels, num_classes),
        ])
        self._initialize_weights()

    def _initialize_weights(self) -> None:
        """Initialize weights for cells."""
        for _, cell in self.cells_and_names():
            if isinstance(cell, nn.Conv2d):
                n = cell.kernel_size[0] * cell.kernel_size[1] * cell.out_channels
                cell.weight.set_data(
                    init.initializer(init.Normal(sigma=math.sqrt(2. / n), mean=0.0),
                                     cell.weight.shape, cell.weight.dtype))
                if cell.bias is not None:
                    cell.bias.set_data(init.initializer("zeros", cell.bias.shape, cell.bias.dtype))
            elif isinstance(cell, nn.BatchNorm2d):
                cell.gamma.set_data(init.initializer("ones", cell.gamma.shape, cell.gamma.dtype))
                cell.beta.set_data(init.initializer("zeros", cell.beta.shape, cell.beta.dtype))
            elif isinstance(cell, nn.Dense):
                cell.weight.set_data(
                    init.initializer(init.Normal(sigma=0.01, mean=0.0), cell.weight.shape, cell.weight.dtype))
                if cell.bias is not None:
                    cell.bias.set_data(init.initializer("zeros", cell.bias.shape, cell.bias.dtype))

    def forward_features(self, x: Tensor) -> Tensor:
        x = self.features(x)
        return x

    def forward_head(self, x: Tensor) -> Tensor:
        x = self.pool(x)
        x = self.classifier(x)
        return x

    def construct(self, x: Tensor) -> Tensor:
        x = self.forward_features(x)
        x = self.forward_head(x)
        return x


# ---- synthetic data and training ----------------------------------------------------------

ALPHA, IMAGE, CLASSES = 0.35, (16 if SMALL else 32), 3
BATCH, STEPS = (8, 4) if SMALL else (16, 40)


def make_batch(rng, batch=BATCH):
    labels = rng.integers(0, CLASSES, batch)
    images = rng.normal(0, 1, (batch, 3, IMAGE, IMAGE)).astype(np.float32)
    images[np.arange(batch), labels] += 1.0
    return Tensor(images), Tensor(labels.astype(np.int32))


def build(seed=0):
    ms.set_seed(seed)
    return MobileNetV2(alpha=ALPHA, num_classes=CLASSES)


def make_train_step(network, optimizer, jit=True):
    loss_fn = nn.CrossEntropyLoss()

    def forward_fn(data, label):
        return loss_fn(network(data), label)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    return ms.jit(train_step) if jit else train_step


def main():
    network = build()
    optimizer = nn.Momentum(network.trainable_params(), 0.01, 0.9)
    train_step = make_train_step(network, optimizer)
    network.set_train()
    rng = np.random.default_rng(1)
    losses = []
    for step in range(STEPS):
        data, label = make_batch(rng)
        losses.append(float(train_step(data, label).asnumpy()))
        if step % max(1, STEPS // 6) == 0:
            print(f"step {step}: loss {losses[-1]:.4f}")
    print(f"parameters {sum(p.size for p in network.trainable_params())}, "
          f"first loss {losses[0]:.4f}, last loss {np.mean(losses[-3:]):.4f}")


if __name__ == "__main__":
    main()
