"""MindSpore's "Dataset" and "Transforms" tutorials (beginner/dataset, beginner/transforms),
with only the import changed and generated MNIST-format files instead of the download;
at the end a small CNN trains on the pipeline (map with 2 workers, shuffle, batch).

    python examples/dataset_pipeline.py [--train 1200] [--epochs 2]
"""
import argparse
import os
import tempfile

import numpy as np

import tensorjit as mindspore
from tensorjit import nn
from tensorjit.dataset import vision, transforms
from tensorjit.dataset import GeneratorDataset, MnistDataset
from tensorjit.dataset import synthetic
from tensorjit.train import Model, LossMonitor

parser = argparse.ArgumentParser()
parser.add_argument("--train", type=int, default=1200)
parser.add_argument("--epochs", type=int, default=2)
parser.add_argument("--workdir", default=None)
args = parser.parse_args()
workdir = args.workdir or tempfile.mkdtemp(prefix="tensorjit-dataset-")

# Download data from open datasets  (here: generated MNIST-format files)
synthetic.write_mnist(os.path.join(workdir, "MNIST_Data", "train"), train=args.train, test=0)

train_dataset = MnistDataset(os.path.join(workdir, "MNIST_Data", "train"), shuffle=False)
print(type(train_dataset))

# Data iteration
for image, label in train_dataset.create_tuple_iterator():
    print(f"Shape of image [N, C, H, W]: {image.shape} {image.dtype}")
    print(f"Shape of label: {label.shape} {label.dtype}")
    break

# Common operations: shuffle, map, batch
train_dataset = train_dataset.shuffle(buffer_size=64)
image = next(train_dataset.create_tuple_iterator())[0]
print(image.shape, image.dtype)
train_dataset = train_dataset.map(vision.Rescale(1.0 / 255.0, 0), input_columns='image')
image, label = next(train_dataset.create_tuple_iterator())
print(image.shape, image.dtype)
train_dataset = train_dataset.batch(batch_size=32)
image, label = next(train_dataset.create_tuple_iterator())
print(image.shape, image.dtype)


# Customizing a dataset: random-accessible
class RandomAccessDataset:
    def __init__(self):
        self._data = np.ones((5, 2))
        self._label = np.zeros((5, 1))

    def __getitem__(self, index):
        return self._data[index], self._label[index]

    def __len__(self):
        return len(self._data)


loader = RandomAccessDataset()
dataset = GeneratorDataset(source=loader, column_names=["data", "label"])
for data in dataset:
    print(data)


# Customizing a dataset: generator
def my_generator(start, end):
    for i in range(start, end):
        yield i


dataset = GeneratorDataset(source=lambda: my_generator(3, 6), column_names=["data"])
for d in dataset:
    print(d)

# Transforms (beginner/transforms): Compose, vision and common transforms
composed = transforms.Compose(
    [
        vision.Rescale(1.0 / 255.0, 0),
        vision.Normalize(mean=(0.1307,), std=(0.3081,)),
        vision.HWC2CHW()
    ]
)
pipeline = MnistDataset(os.path.join(workdir, "MNIST_Data", "train"))
pipeline = pipeline.map(composed, 'image', num_parallel_workers=2)
pipeline = pipeline.map(transforms.TypeCast(mindspore.int32), 'label')
pipeline = pipeline.batch(64, drop_remainder=True)
image, label = next(pipeline.create_tuple_iterator())
print(image.shape, label.shape)


# (not in the tutorials: train a small CNN on the pipeline)
class LeNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()
        self.fc1 = nn.Dense(16 * 4 * 4, 84)
        self.fc2 = nn.Dense(84, 10)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        return self.fc2(self.relu(self.fc1(self.flatten(x))))


net = LeNet()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.Momentum(net.trainable_params(), 0.05, 0.9)
model = Model(net, loss_fn, optimizer)
model.train(args.epochs, pipeline, callbacks=[LossMonitor(pipeline.get_dataset_size())])
