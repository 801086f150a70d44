"""MindSpore's "Quick Start" tutorial in its ``mint`` form (the PyTorch-style API of
MindSpore 2.5+: ``mint.nn.Linear`` in float16, ``mint.flatten``, ``mint.nn.ReLU``,
``mint.nn.CrossEntropyLoss``), with only the import changed.

The tutorial downloads MNIST; here the same files (IDX format) are generated: each digit
class is a fixed pattern plus noise (tensorjit.dataset.synthetic). Everything else is the
tutorial's code: dataset pipeline, network, train / test loops, save and load.

    python examples/quick_start_mint.py [--epochs 3] [--train 2000]
"""
import argparse
import os
import tempfile

import tensorjit as mindspore
from tensorjit import mint
from tensorjit.nn import Cell, SGD
from tensorjit.dataset import vision, transforms
from tensorjit.dataset import MnistDataset
from tensorjit.dataset import synthetic

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--train", type=int, default=2000, help="training images to generate")
parser.add_argument("--workdir", default=None)
args = parser.parse_args()
workdir = args.workdir or tempfile.mkdtemp(prefix="tensorjit-quick-start-")

# Download data from open datasets  (here: generated MNIST-format files)
synthetic.write_mnist(os.path.join(workdir, "MNIST_Data", "train"), train=args.train, test=0)
synthetic.write_mnist(os.path.join(workdir, "MNIST_Data", "test"), train=0,
                      test=args.train // 4, seed=1)

train_dataset = MnistDataset(os.path.join(workdir, "MNIST_Data", "train"))
test_dataset = MnistDataset(os.path.join(workdir, "MNIST_Data", "test"))

print(train_dataset.get_col_names())


def datapipe(dataset, batch_size):
    image_transforms = [
        vision.Rescale(1.0 / 255.0, 0),
        vision.Normalize(mean=(0.1307,), std=(0.3081,)),
        vision.HWC2CHW(),
        transforms.TypeCast(mindspore.float16)
    ]
    label_transform = transforms.TypeCast(mindspore.int32)

    dataset = dataset.map(image_transforms, 'image')
    dataset = dataset.map(label_transform, 'label')
    dataset = dataset.batch(batch_size)
    return dataset


# Map vision transforms and batch dataset
train_dataset = datapipe(train_dataset, 64)
test_dataset = datapipe(test_dataset, 64)

for image, label in test_dataset.create_tuple_iterator():
    print(f"Shape of image [N, C, H, W]: {image.shape} {image.dtype}")
    print(f"Shape of label: {label.shape} {label.dtype}")
    break


# Define model
class Network(Cell):
    def __init__(self):
        super().__init__()
        self.flatten = mint.flatten
        self.dense1 = mint.nn.Linear(28*28, 512, dtype=mindspore.float16)
        self.dense2 = mint.nn.Linear(512, 512, dtype=mindspore.float16)
        self.dense3 = mint.nn.Linear(512, 10, dtype=mindspore.float16)
        self.relu = mint.nn.ReLU()

    def construct(self, x):
        x = self.flatten(x, start_dim=1)
        x = self.dense1(x)
        x = self.relu(x)
        x = self.dense2(x)
        x = self.relu(x)
        logits = self.dense3(x)
        return logits


model = Network()
print(model)

# Instantiate loss function and optimizer
loss_fn = mint.nn.CrossEntropyLoss()
optimizer = SGD(model.trainable_params(), 1e-2)


# 1. Define forward function
def forward_fn(data, label):
    logits = model(data)
    loss = loss_fn(logits, label)
    return loss, logits


# 2. Get gradient function
grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)


# 3. Define function of one-step training
def train_step(data, label):
    (loss, _), grads = grad_fn(data, label)
    optimizer(grads)
    return loss


def train(model, dataset):
    size = dataset.get_dataset_size()
    model.set_train()
    for batch, (data, label) in enumerate(dataset.create_tuple_iterator()):
        loss = train_step(data, label)

        if batch % 10 == 0:
            loss, current = loss.asnumpy(), batch
            print(f"loss: {loss:>7f}  [{current:>3d}/{size:>3d}]")


def test(model, dataset, loss_fn):
    num_batches = dataset.get_dataset_size()
    model.set_train(False)
    total, test_loss, correct = 0, 0, 0
    for data, label in dataset.create_tuple_iterator():
        pred = model(data)
        total += len(data)
        test_loss += loss_fn(pred, label).asnumpy()
        correct += (pred.argmax(1) == label).asnumpy().sum()
    test_loss /= num_batches
    correct /= total
    print(f"Test: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")
    return test_loss


epochs = args.epochs
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train(model, train_dataset)
    test(model, test_dataset, loss_fn)
print("Done!")

# Save checkpoint
mindspore.save_checkpoint(model, os.path.join(workdir, "model.ckpt"))
print("Saved Model to model.ckpt")

# Instantiate a random initialized model
model = Network()
# Load checkpoint and load parameter to model
param_dict = mindspore.load_checkpoint(os.path.join(workdir, "model.ckpt"))
param_not_load, _ = mindspore.load_param_into_net(model, param_dict)
print(param_not_load)

model.set_train(False)
for data, label in test_dataset:
    pred = model(data)
    predicted = pred.argmax(1)
    print(f'Predicted: "{predicted[:10]}", Actual: "{label[:10]}"')
    break
print(f"reloaded test loss: {test(model, test_dataset, loss_fn):>8f}")
