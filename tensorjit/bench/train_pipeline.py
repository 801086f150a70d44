"""Does the dataset pipeline keep a training loop fed? A small CNN's jitted train step on
JPEG files (96x96, generated; one folder per class), fed three ways, measured in
alternation:

    python -m tensorjit.bench pipeline [--rounds 7] [--batch 32]

Rows (each in its own persistent worker process, ``peers/server.py``; one call = one
training step including getting its batch):

- ``in-memory batches``: the batches made beforehand (no pipeline at all);
- ``pipeline, 1 worker``: ``ImageFolderDataset`` -> ``map`` (decode with Pillow, resize to
  36, random crop 32, flip, rescale, normalize, HWC2CHW) -> ``batch``, all on the
  training thread;
- ``pipeline, 2 threads``: the same with ``num_parallel_workers=2``: worker threads map
  rows and a thread batches ahead (prefetch depth 2, so a timing sample measures the
  steady state, not a full queue);
- ``pipeline, 2 processes``: the same with ``python_multiprocessing=True`` (forked
  workers: no shared interpreter lock; rows travel in groups of 8).

Each timing sample is ``--steps`` consecutive steps (default 40), so the few batches the
workers made ahead while the other rows ran are a small part of it: the figure is the
steady state, where the pipeline must keep up with the step.

Reported: steps/s (median over rounds) and the median per-round ratio to the in-memory
row; 1.00 means the pipeline costs the training loop nothing.
"""
import argparse
import os
import tempfile

import numpy as np

from . import alternate
from .cli import THREAD_VARIABLES

VARIANTS = [("in-memory batches", "memory"), ("pipeline, 1 worker", "workers1"),
            ("pipeline, 2 threads", "workers2"), ("pipeline, 2 processes", "processes2")]
BATCH = 32


def _network():
    from .. import nn

    class SmallCNN(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 16, 3)
            self.conv2 = nn.Conv2d(16, 32, 3)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()
            self.fc = nn.Dense(32 * 8 * 8, 10)

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            return self.fc(self.flatten(x))
    return SmallCNN()


def _write_images(count=320, size=96, classes=10):
    """JPEG files in one folder per class (class pattern + noise), as ImageFolderDataset
    reads them."""
    try:
        from PIL import Image
    except ImportError:
        raise NotImplementedError("the pipeline benchmark decodes JPEG files: it needs "
                                  "Pillow (pip install pillow)") from None
    from ..dataset import synthetic
    directory = tempfile.mkdtemp(prefix="tensorjit-bench-images-")
    images, labels = synthetic.class_images(count, (size, size, 3), classes, seed=0)
    for k, (image, label) in enumerate(zip(images, labels)):
        folder = os.path.join(directory, f"class{label}")
        os.makedirs(folder, exist_ok=True)
        Image.fromarray(image).save(os.path.join(folder, f"{k}.jpg"), quality=90)
    return directory


def _pipeline(directory, workers, batch, processes=False):
    from .. import dataset as ds
    from ..dataset import vision, transforms
    from .. import int32
    data = ds.ImageFolderDataset(directory, shuffle=True)
    augment = [vision.Decode(), vision.Resize(36), vision.RandomCrop(32),
               vision.RandomHorizontalFlip(), vision.Rescale(1.0 / 255.0, 0.0),
               vision.Normalize([0.4914, 0.4822, 0.4465], [0.247, 0.243, 0.261]),
               vision.HWC2CHW()]
    data = data.map(augment, "image", num_parallel_workers=workers,
                    python_multiprocessing=processes)
    data = data.map(transforms.TypeCast(int32), "label")
    return data.batch(batch, drop_remainder=True)


def build(variant, batch=BATCH):
    """``(step, [], to_numpy, None)`` for the benchmark worker: ``step()`` takes the next
    batch and trains on it, returning the loss."""
    import tensorjit as ms
    from .. import nn
    from ..dataset import config
    if variant not in dict((v, k) for k, v in VARIANTS):
        raise NotImplementedError(f"unknown variant {variant!r}")
    config.set_seed(0)
    config.set_prefetch_size(2)
    directory = _write_images()
    ms.set_seed(0)
    net = _network().set_train()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optimizer.parameters)

    @ms.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    workers = {"memory": 2, "workers1": 1, "workers2": 2, "processes2": 2}[variant]
    pipeline = _pipeline(directory, workers, batch, processes=variant == "processes2")
    if variant == "memory":
        batches = list(pipeline.create_tuple_iterator(num_epochs=1))
        state = {"k": 0}

        def next_batch():
            state["k"] = (state["k"] + 1) % len(batches)
            return batches[state["k"]]
    else:
        iterator = pipeline.create_tuple_iterator(num_epochs=-1)

        def endless():
            while True:
                yield from iterator
        rows = endless()

        def next_batch():
            return next(rows)

    def step():
        x, y = next_batch()
        return train_step(x, y)
    return step, [], lambda t: np.asarray(t.asnumpy()), None


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m tensorjit.bench pipeline", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--steps", type=int, default=40,
                   help="consecutive train steps per timing sample (default 40)")
    p.add_argument("--threads", type=int, default=1,
                   help="BLAS / OpenMP threads of each worker (default 1: the other core is "
                        "left to the pipeline's threads; 0: the libraries' defaults)")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    rows = measure(args.rounds, args.threads, args.steps)
    return 0 if all(r.samples for r in rows) else 1


def measure(rounds, threads=1, steps=40):
    print(f"small CNN train step (batch {BATCH}, 3x32x32 crops of 96x96 JPEG files), {rounds} "
          f"alternated rounds of {steps} steps per row, one worker process per row, "
          f"{threads or 'default'} BLAS thread(s); steps/s: median over rounds; "
          f"ratio: median of per-round ratios to the in-memory row")
    env = {name: str(threads) for name in THREAD_VARIABLES} if threads else {}
    workers = [alternate.Worker("tensorjit", env=env) for _ in VARIANTS]
    rows = [alternate.Row(label, worker, "cnn_train", variant)
            for (label, variant), worker in zip(VARIANTS, workers)]
    try:
        with alternate.scratch_dir() as scratch:
            alternate.build(rows, scratch)
            for row in rows:
                row.calls = steps
            alternate.alternate(rows, rounds)
    finally:
        for worker in workers:
            worker.close()
    reference = rows[0]
    print(f"  {'':22s} {'first loss':>10s} {'steps/s':>9s} {'ms/step':>9s} {'vs in-memory':>13s}")
    for row in rows:
        if not row.samples:
            print(f"  {row.label:22s} {row.error or 'no result'}")
            continue
        ratio = alternate.ratio(reference, row) if reference.samples else None
        loss = float(np.asarray(row.output).reshape(-1)[0]) if row.output is not None else \
            float("nan")
        print(f"  {row.label:22s} {loss:10.4f} {1 / row.median():9.1f} "
              f"{row.median() * 1e3:9.2f} {'-' if ratio is None else f'{ratio:.2f}x':>13s}")
    return rows


if __name__ == "__main__":
    raise SystemExit(main())
