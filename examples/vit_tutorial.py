"""MindSpore's Vision Transformer tutorial (tutorials/application/cv/vit.md,
https://www.mindspore.cn/tutorials/en/master/cv/vit.html, Apache-2.0) on tensorjit.

The model code below -- Attention, FeedForward, ResidualCell, TransformerEncoder,
PatchEmbedding, init, ViT, CrossEntropySmooth -- is the tutorial's with only the import
lines changed. What differs: the data is synthetic (random images whose class decides a
bright patch, instead of the ImageNet subset the tutorial downloads), the model is small,
and the training loop is the functional one MindSpore 2.x documents
(``value_and_grad`` + optimizer, jitted) instead of ``Model.train`` with checkpoints.

    python examples/vit_tutorial.py            # 32x32 images, 6 classes, 60 steps
    python examples/vit_tutorial.py --small    # 16x16 images, 4 classes, 8 steps
"""
import sys
from typing import Optional

import numpy as np

import tensorjit as ms
from tensorjit import nn, ops
from tensorjit.nn import LossBase
from tensorjit.common.initializer import Normal
from tensorjit.common.initializer import initializer
from tensorjit import Parameter

SMALL = "--small" in sys.argv
num_classes = 4 if SMALL else 6


# ---- the tutorial's model code (imports changed only) ------------------------------------

class Attention(nn.Cell):
    def __init__(self,
                 dim: int,
                 num_heads: int = 8,
                 keep_prob: float = 1.0,
                 attention_keep_prob: float = 1.0):
        super(Attention, self).__init__()

        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = ms.Tensor(head_dim ** -0.5)

        self.qkv = nn.Dense(dim, dim * 3)
        self.attn_drop = nn.Dropout(attention_keep_prob)
        self.out = nn.Dense(dim, dim)
        self.out_drop = nn.Dropout(keep_prob)

        self.attn_matmul_v = ops.BatchMatMul()
        self.q_matmul_k = ops.BatchMatMul(transpose_b=True)
        self.softmax = nn.Softmax(axis=-1)

    def construct(self, x):
        """Attention construct."""
        b, n, c = x.shape
        qkv = self.qkv(x)
        qkv = ops.reshape(qkv, (b, n, 3, self.num_heads, c // self.num_heads))
        qkv = ops.transpose(qkv, (2, 0, 3, 1, 4))
        q, k, v = ops.unstack(qkv, axis=0)
        attn = self.q_matmul_k(q, k)
        attn = ops.mul(attn, self.scale)
        attn = self.softmax(attn)
        attn = self.attn_drop(attn)
        out = self.attn_matmul_v(attn, v)
        out = ops.transpose(out, (0, 2, 1, 3))
        out = ops.reshape(out, (b, n, c))
        out = self.out(out)
        out = self.out_drop(out)

        return out


class FeedForward(nn.Cell):
    def __init__(self,
                 in_features: int,
                 hidden_features: Optional[int] = None,
                 out_features: Optional[int] = None,
                 activation: nn.Cell = nn.GELU,
                 keep_prob: float = 1.0):
        super(FeedForward, self).__init__()
        out_features = out_features or in_features
        hidden_features = hidden_features or in_features
        self.dense1 = nn.Dense(in_features, hidden_features)
        self.activation = activation()
        self.dense2 = nn.Dense(hidden_features, out_features)
        self.dropout = nn.Dropout(keep_prob)

    def construct(self, x):
        """Feed Forward construct."""
        x = self.dense1(x)
        x = self.activation(x)
        x = self.dropout(x)
        x = self.dense2(x)
        x = self.dropout(x)

        return x


class ResidualCell(nn.Cell):
    def __init__(self, cell):
        super(ResidualCell, self).__init__()
        self.cell = cell

    def construct(self, x):
        """ResidualCell construct."""
        return self.cell(x) + x


class TransformerEncoder(nn.Cell):
    def __init__(self,
                 dim: int,
                 num_layers: int,
                 num_heads: int,
                 mlp_dim: int,
                 keep_prob: float = 1.,
                 attention_keep_prob: float = 1.0,
                 drop_path_keep_prob: float = 1.0,
                 activation: nn.Cell = nn.GELU,
                 norm: nn.Cell = nn.LayerNorm):
        super(TransformerEncoder, self).__init__()
        layers = []

        for _ in range(num_layers):
            normalization1 = norm((dim,))
            normalization2 = norm((dim,))
            attention = Attention(dim=dim,
                                  num_heads=num_heads,
                                  keep_prob=keep_prob,
                                  attention_keep_prob=attention_keep_prob)

            feedforward = FeedForward(in_features=dim,
                                      hidden_features=mlp_dim,
                                      activation=activation,
                                      keep_prob=keep_prob)

            layers.append(
                nn.SequentialCell([
                    ResidualCell(nn.SequentialCell([normalization1, attention])),
                    ResidualCell(nn.SequentialCell([normalization2, feedforward]))
                ])
            )
        self.layers = nn.SequentialCell(layers)

    def construct(self, x):
        """Transformer construct."""
        return self.layers(x)


class PatchEmbedding(nn.Cell):
    MIN_NUM_PATCHES = 4

    def __init__(self,
                 image_size: int = 224,
                 patch_size: int = 16,
                 embed_dim: int = 768,
                 input_channels: int = 3):
        super(PatchEmbedding, self).__init__()

        self.image_size = image_size
        self.patch_size = patch_size
        self.num_patches = (image_size // patch_size) ** 2
        self.conv = nn.Conv2d(input_channels, embed_dim, kernel_size=patch_size, stride=patch_size, has_bias=True)

    def construct(self, x):
        """Path Embedding construct."""
        x = self.conv(x)
        b, c, h, w = x.shape
        x = ops.reshape(x, (b, c, h * w))
        x = ops.transpose(x, (0, 2, 1))

        return x


def init(init_type, shape, dtype, name, requires_grad):
    """Init."""
    initial = initializer(init_type, shape, dtype).init_data()
    return Parameter(initial, name=name, requires_grad=requires_grad)


class ViT(nn.Cell):
    def __init__(self,
                 image_size: int = 224,
                 input_channels: int = 3,
                 patch_size: int = 16,
                 embed_dim: int = 768,
                 num_layers: int = 12,
                 num_heads: int = 12,
                 mlp_dim: int = 3072,
                 keep_prob: float = 1.0,
                 attention_keep_prob: float = 1.0,
                 drop_path_keep_prob: float = 1.0,
                 activation: nn.Cell = nn.GELU,
                 norm: Optional[nn.Cell] = nn.LayerNorm,
                 pool: str = 'cls') -> None:
        super(ViT, self).__init__()

        self.patch_embedding = PatchEmbedding(image_size=image_size,
                                              patch_size=patch_size,
                                              embed_dim=embed_dim,
                                              input_channels=input_channels)
        num_patches = self.patch_embedding.num_patches

        self.cls_token = init(init_type=Normal(sigma=1.0),
                              shape=(1, 1, embed_dim),
                              dtype=ms.float32,
                              name='cls',
                              requires_grad=True)

        self.pos_embedding = init(init_type=Normal(sigma=1.0),
                                  shape=(1, num_patches + 1, embed_dim),
                                  dtype=ms.float32,
                                  name='pos_embedding',
                                  requires_grad=True)

        self.pool = pool
        self.pos_dropout = nn.Dropout(keep_prob)
        self.norm = norm((embed_dim,))
        self.transformer = TransformerEncoder(dim=embed_dim,
                                              num_layers=num_layers,
                                              num_heads=num_heads,
                                              mlp_dim=mlp_dim,
                                              keep_prob=keep_prob,
                                              attention_keep_prob=attention_keep_prob,
                                              drop_path_keep_prob=drop_path_keep_prob,
                                              activation=activation,
                                              norm=norm)
        self.dropout = nn.Dropout(keep_prob)
        self.dense = nn.Dense(embed_dim, num_classes)

    def construct(self, x):
        """ViT construct."""
        x = self.patch_embedding(x)
        cls_tokens = ops.tile(self.cls_token, (x.shape[0], 1, 1))
        x = ops.concat((cls_tokens.astype(ms.float16), x), axis=1)
        x += self.pos_embedding

        x = self.pos_dropout(x)
        x = self.transformer(x)
        x = self.norm(x)
        x = x[:, 0]
        if self.training:
            x = self.dropout(x)
        x = self.dense(x)

        return x


class CrossEntropySmooth(LossBase):
    """CrossEntropy."""

    def __init__(self, sparse=True, reduction='mean', smooth_factor=0., num_classes=1000):
        super(CrossEntropySmooth, self).__init__()
        self.onehot = ops.OneHot()
        self.sparse = sparse
        self.on_value = ms.Tensor(1.0 - smooth_factor, ms.float32)
        self.off_value = ms.Tensor(1.0 * smooth_factor / (num_classes - 1), ms.float32)
        self.ce = nn.SoftmaxCrossEntropyWithLogits(reduction=reduction)

    def construct(self, logit, label):
        if self.sparse:
            label = self.onehot(label, ops.shape(logit)[1], self.on_value, self.off_value)
        loss = self.ce(logit, label)
        return loss


# ---- synthetic data and the training loop --------------------------------------------------

IMAGE, PATCH, EMBED, LAYERS, HEADS, MLP = (16, 8, 16, 1, 2, 32) if SMALL else (32, 8, 32, 2, 4, 64)
BATCH, STEPS = (4, 8) if SMALL else (16, 60)


def make_batch(rng, batch=BATCH):
    """Noise images; class c lights up the c-th patch position (a task attention solves)."""
    labels = rng.integers(0, num_classes, batch)
    images = rng.normal(0.0, 0.3, (batch, 3, IMAGE, IMAGE)).astype(np.float32)
    per_row = IMAGE // PATCH
    for i, c in enumerate(labels):
        r, col = divmod(int(c) % (per_row * per_row), per_row)
        images[i, :, r * PATCH:(r + 1) * PATCH, col * PATCH:(col + 1) * PATCH] += 1.5
    return ms.Tensor(images), ms.Tensor(labels.astype(np.int32))


def build(seed=0):
    ms.set_seed(seed)
    network = ViT(image_size=IMAGE, patch_size=PATCH, embed_dim=EMBED, num_layers=LAYERS,
                  num_heads=HEADS, mlp_dim=MLP)
    loss_fn = CrossEntropySmooth(sparse=True, reduction="mean", smooth_factor=0.1,
                                 num_classes=num_classes)
    return network, loss_fn


def make_train_step(network, loss_fn, optimizer, jit=True):
    def forward_fn(data, label):
        return loss_fn(network(data), label)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    return ms.jit(train_step) if jit else train_step


def main():
    network, loss_fn = build()
    optimizer = nn.Adam(network.trainable_params(), 0.003)
    train_step = make_train_step(network, loss_fn, optimizer)
    network.set_train()
    rng = np.random.default_rng(1)
    losses = []
    for step in range(STEPS):
        data, label = make_batch(rng)
        losses.append(float(train_step(data, label).asnumpy()))
        if step % max(1, STEPS // 6) == 0:
            print(f"step {step}: loss {losses[-1]:.4f}")
    network.set_train(False)
    data, label = make_batch(rng, 64)
    accuracy = float((network(data).asnumpy().argmax(1) == label.asnumpy()).mean())
    print(f"first loss {losses[0]:.4f}, last loss {np.mean(losses[-3:]):.4f}, "
          f"accuracy {accuracy:.2f}")


if __name__ == "__main__":
    main()
