"""MindSpore's functional-programming tutorial "Automatic Vectorization (Vmap)": a 1-D
convolution written for one example, batched by hand (a loop, then by rewriting it), then
by ``vmap`` (in_axes / out_axes, nested, under ``jit``), and model ensembling by vmapping a
``CellList``, ported to tensorjit. The imports differ, and tensorjit has no
``mindspore.numpy``: ``mnp.arange`` / ``mnp.array`` / ``mnp.dot`` / ``mnp.stack`` /
``mnp.sum`` are written with ``ops`` and ``Tensor``. tests/core/test_tutorials.py checks
every printed value against NumPy.

    python examples/tutorial_vmap.py
"""
import time

import tensorjit as mindspore
from tensorjit import Tensor, ops, nn, vmap, jit

# ## Manual vectorization

x = ops.arange(5).astype('float32')
w = Tensor([1., 2., 3.])


def convolve(x, w):
    output = []
    for i in range(1, len(x) - 1):
        output.append(ops.tensor_dot(x[i - 1 : i + 2], w, axes=1))
    return ops.stack(output)


print(convolve(x, w))

x_batch = ops.stack([x, x + 1, x + 2])
w_batch = ops.stack([w, w * 2, w * 3])


def manually_batch_conv(x_batch, w_batch):
    output = []
    for i in range(x_batch.shape[0]):
        output.append(convolve(x_batch[i], w_batch[i]))
    return ops.stack(output)


print(manually_batch_conv(x_batch, w_batch))


def manually_vectorization_conv(x_batch, w_batch):
    output = []
    for i in range(1, x_batch.shape[-1] - 1):
        output.append(ops.sum(x_batch[:, i - 1 : i + 2] * w_batch, 1))
    return ops.stack(output, axis=1)


print(manually_vectorization_conv(x_batch, w_batch))

# ## Automatic vectorization

auto_batch_convolve = vmap(convolve)
print(auto_batch_convolve(x_batch, w_batch))

# in_axes: the batch of x along its axis 1, one w for every example; out_axes: the batch
# of the results along their axis 1
x_batch_t = ops.transpose(x_batch, (1, 0))
auto_batch_convolve_axes = vmap(convolve, in_axes=(1, None), out_axes=1)
print(auto_batch_convolve_axes(x_batch_t, w))

# nested: every x of the batch with every w of the batch
all_pairs = vmap(vmap(convolve, in_axes=(None, 0)), in_axes=(0, None))
print(all_pairs(x_batch, w_batch))

# ## Performance: the loop, the hand-vectorized function and vmap, compiled


@jit
def loop_conv(x_batch, w_batch):
    return manually_batch_conv(x_batch, w_batch)


@jit
def vectorized_conv(x_batch, w_batch):
    return manually_vectorization_conv(x_batch, w_batch)


@jit
def vmap_conv(x_batch, w_batch):
    return vmap(convolve)(x_batch, w_batch)


for name, fn in (("loop", loop_conv), ("hand-vectorized", vectorized_conv), ("vmap", vmap_conv)):
    fn(x_batch, w_batch)
    start = time.perf_counter()
    for _ in range(100):
        out = fn(x_batch, w_batch)
    print(f"{name}: {(time.perf_counter() - start) * 10:.3f} ms per call", out.shape)

# ## Model ensembling


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(8, 16)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(16, 4)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


mindspore.set_seed(0)
num_models = 3
models = nn.CellList([MLP() for _ in range(num_models)])
minibatches = ops.randn(num_models, 5, 8)
same_minibatch = ops.randn(5, 8)

# each model sees its own minibatch
predictions_diff_minibatch = vmap(models, in_axes=0)(minibatches)
print(predictions_diff_minibatch.shape)
# every model sees the same minibatch
predictions_same_minibatch = vmap(models, in_axes=None)(same_minibatch)
print(predictions_same_minibatch.shape)
