"""MindSpore's "Automatic Mixed Precision" tutorial (beginner/mixed_precision), with only
the import changed and generated MNIST-format files instead of the download: a network in
float16 (O2), dynamic loss scaling in a jitted train step with a tensor ``if``, then the
same with ``Model(..., amp_level="O2")``.

    python examples/mixed_precision.py [--epochs 2] [--train 1200]
"""
import argparse
import os
import tempfile

import tensorjit as mindspore
from tensorjit import nn
from tensorjit import value_and_grad
from tensorjit.dataset import vision, transforms
from tensorjit.dataset import MnistDataset
from tensorjit.dataset import synthetic
from tensorjit import amp
from tensorjit.train import Model, LossMonitor
from tensorjit.amp import FixedLossScaleManager

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--train", type=int, default=1200)
parser.add_argument("--workdir", default=None)
args = parser.parse_args()
workdir = args.workdir or tempfile.mkdtemp(prefix="tensorjit-amp-")

# Download data from open datasets  (here: generated MNIST-format files)
synthetic.write_mnist(os.path.join(workdir, "MNIST_Data", "train"), train=args.train, test=0)


def datapipe(path, batch_size):
    image_transforms = [
        vision.Rescale(1.0 / 255.0, 0),
        vision.Normalize(mean=(0.1307,), std=(0.3081,)),
        vision.HWC2CHW()
    ]
    label_transform = transforms.TypeCast(mindspore.int32)

    dataset = MnistDataset(path)
    dataset = dataset.map(image_transforms, 'image')
    dataset = dataset.map(label_transform, 'label')
    dataset = dataset.batch(batch_size)
    return dataset


train_dataset = datapipe(os.path.join(workdir, 'MNIST_Data', 'train'), 64)


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28*28, 512),
            nn.ReLU(),
            nn.Dense(512, 512),
            nn.ReLU(),
            nn.Dense(512, 10)
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


model = Network()
model = amp.auto_mixed_precision(model, 'O2')

loss_fn = nn.CrossEntropyLoss()
optimizer = nn.SGD(model.trainable_params(), 1e-2)

loss_scaler = amp.DynamicLossScaler(scale_value=2**16, scale_factor=2, scale_window=50)


def forward_fn(data, label):
    logits = model(data)
    loss = loss_fn(logits, label)
    # scale up the loss value
    loss = loss_scaler.scale(loss)
    return loss, logits


grad_fn = value_and_grad(forward_fn, None, model.trainable_params(), has_aux=True)


@mindspore.jit
def train_step(data, label):
    (loss, _), grads = grad_fn(data, label)
    loss = loss_scaler.unscale(loss)

    is_finite = amp.all_finite(grads)
    if is_finite:
        grads = loss_scaler.unscale(grads)
        optimizer(grads)
    loss_scaler.adjust(is_finite)
    return loss


size = train_dataset.get_dataset_size()
losses = []
for epoch in range(args.epochs):
    model.set_train()
    for batch, (data, label) in enumerate(train_dataset.create_tuple_iterator()):
        loss = train_step(data, label)
        losses.append(float(loss.asnumpy()))
        if batch % 10 == 0:
            loss, current = loss.asnumpy(), batch
            print(f"loss: {loss:>7f}  [{current:>3d}/{size:>3d}]")
print(f"functional O2: first loss {losses[0]:.4f}, last loss {losses[-1]:.4f}, "
      f"loss scale {float(loss_scaler.scale_value.asnumpy()):g}")

# The same with the high-level Model
model = Network()
loss_scale_manager = FixedLossScaleManager()
optimizer = nn.SGD(model.trainable_params(), 1e-2)
trainer = Model(model, loss_fn=loss_fn, optimizer=optimizer, metrics={"accuracy"},
                amp_level="O2", loss_scale_manager=loss_scale_manager)
trainer.train(args.epochs, train_dataset, callbacks=[LossMonitor(size)])
