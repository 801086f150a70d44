"""MindSpore's "Saving and Loading the Model" tutorial (beginner/save_load), with only the
import changed. A few training steps on generated data come first, so the saved weights
are not the initial ones and the reloaded model can be checked to give the same loss.

    python examples/save_load.py [--steps 30]
"""
import argparse
import os
import tempfile

import numpy as np

import tensorjit as mindspore
from tensorjit import nn
from tensorjit import Tensor

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=30)
parser.add_argument("--workdir", default=None)
args = parser.parse_args()
workdir = args.workdir or tempfile.mkdtemp(prefix="tensorjit-save-load-")
os.chdir(workdir)


def network():
    model = nn.SequentialCell(
                nn.Flatten(),
                nn.Dense(28*28, 512),
                nn.ReLU(),
                nn.Dense(512, 512),
                nn.ReLU(),
                nn.Dense(512, 10))
    return model


# (not in the tutorial: train the model a little on generated digits)
rng = np.random.default_rng(0)
patterns = rng.standard_normal((10, 1, 28, 28)).astype(np.float32)
labels = rng.integers(0, 10, 256).astype(np.int32)
images = patterns[labels] + 0.5 * rng.standard_normal((256, 1, 28, 28)).astype(np.float32)
model = network()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.SGD(model.trainable_params(), 1e-2)
grad_fn = mindspore.value_and_grad(lambda x, y: loss_fn(model(x), y), None,
                                   optimizer.parameters)


@mindspore.jit
def train_step(x, y):
    loss, grads = grad_fn(x, y)
    optimizer(grads)
    return loss


losses = []
for step in range(args.steps):
    k = (step * 32) % 256
    losses.append(float(train_step(Tensor(images[k:k + 32]), Tensor(labels[k:k + 32]))
                        .asnumpy()))
print(f"training loss: first {losses[0]:.4f}, last {losses[-1]:.4f}")

# Save and Load the Model Weight
mindspore.save_checkpoint(model, "model.ckpt")

model = network()
param_dict = mindspore.load_checkpoint("model.ckpt")
param_not_load, _ = mindspore.load_param_into_net(model, param_dict)
print(param_not_load)

# (not in the tutorial: the reloaded model computes what the trained one did)
reloaded = float(loss_fn(model(Tensor(images)), Tensor(labels)).asnumpy())
print(f"reloaded model loss on all images: {reloaded:.4f}")
print("saved files:", sorted(os.listdir(".")))
