"""MindSpore's "Model" tutorial (advanced/model: high-level training with callbacks), with
only the import changed and generated MNIST-format files instead of the download.

    python examples/model_callbacks.py [--epochs 3] [--train 2000]
"""
import argparse
import os
import tempfile

import tensorjit as mindspore
from tensorjit import nn
from tensorjit.dataset import vision, transforms
from tensorjit.dataset import MnistDataset
from tensorjit.dataset import synthetic
from tensorjit.train import (Model, CheckpointConfig, ModelCheckpoint, LossMonitor,
                             TimeMonitor, History)

parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--train", type=int, default=2000)
parser.add_argument("--sink", action="store_true", help="dataset_sink_mode=True")
parser.add_argument("--workdir", default=None)
args = parser.parse_args()
workdir = args.workdir or tempfile.mkdtemp(prefix="tensorjit-model-")

# Download data from open datasets  (here: generated MNIST-format files)
synthetic.write_mnist(os.path.join(workdir, "MNIST_Data", "train"), train=args.train, test=0)
synthetic.write_mnist(os.path.join(workdir, "MNIST_Data", "test"), train=0,
                      test=args.train // 4, seed=1)


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
test_dataset = datapipe(os.path.join(workdir, 'MNIST_Data', 'test'), 64)


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
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.SGD(model.trainable_params(), 1e-2)

trainer = Model(model, loss_fn=loss_fn, optimizer=optimizer, metrics={'accuracy'})

# Set the save checkpoint policy
steps_per_epoch = train_dataset.get_dataset_size()
config = CheckpointConfig(save_checkpoint_steps=steps_per_epoch, keep_checkpoint_max=2)
ckpt_callback = ModelCheckpoint(prefix="mnist", directory=os.path.join(workdir, "checkpoint"),
                                config=config)
loss_callback = LossMonitor(steps_per_epoch // 2)
history = History()

trainer.fit(args.epochs, train_dataset, test_dataset,
            callbacks=[ckpt_callback, loss_callback, TimeMonitor(), history],
            dataset_sink_mode=args.sink)

acc = trainer.eval(test_dataset)
print(acc)
print("epoch losses:", [round(float(v), 4) for v in history.history["net_output"]])
print("checkpoints:", sorted(os.listdir(os.path.join(workdir, "checkpoint"))))
