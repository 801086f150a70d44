"""Data-parallel training of a small CNN on several processes, MindSpore style.

    mpirun -n 2 python examples/data_parallel.py            # (as root: add --allow-run-as-root)
    python -m tensorjit.run -n 2 examples/data_parallel.py
    python examples/data_parallel.py                        # one process works too

Every rank builds the same network (with a different seed: the optimizer broadcasts rank
0's weights at start), takes its shard of each global batch, and trains with the data
parallel loop of MindSpore's tutorial: ``value_and_grad`` of forward + loss, a
``DistributedGradReducer`` (all-reduce of the gradients, divided by the number of ranks:
``gradients_mean=True``), then the optimizer -- the whole step compiled with ``jit``.
``--loop train_one_step`` uses ``nn.TrainOneStepCell`` instead; ``--loop plain`` leaves the
reducer out (the optimizer then reduces).

``--check``: afterwards every rank's weights must be identical, and equal (float tolerance)
to one process training the same network on the whole global batch; prints the
differences and exits 1 if not.
"""
import argparse
import sys

import numpy as np

import tensorjit as ms
from tensorjit import nn, ops, communication


class SmallCNN(nn.Cell):
    def __init__(self, classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, pad_mode="same", has_bias=True)
        self.conv2 = nn.Conv2d(8, 16, 3, pad_mode="same", has_bias=True)
        self.pool = nn.MaxPool2d(2, 2)
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.dense = nn.Dense(16 * 3 * 3, classes)

    def construct(self, x):
        x = self.pool(self.relu(self.conv1(x)))
        x = self.pool(self.relu(self.conv2(x)))
        return self.dense(self.flatten(x))


def global_batches(steps, batch, seed=7):
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal((batch, 3, 12, 12)).astype(np.float32),
             rng.integers(0, 10, batch).astype(np.int32)) for _ in range(steps)]


def make_step(net, loop, capture_mode, jit_level):
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    if loop == "train_one_step":
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
        return ms.jit(step, capture_mode=capture_mode, jit_level=jit_level)

    def forward_fn(data, label):
        return loss_fn(net(data), label)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)
    grad_reducer = nn.DistributedGradReducer(optimizer.parameters) if loop == "reducer" \
        else None

    def train_step(data, label):
        loss, grads = grad_fn(data, label)
        if grad_reducer is not None:
            grads = grad_reducer(grads)
        optimizer(grads)
        return loss

    return ms.jit(train_step, capture_mode=capture_mode, jit_level=jit_level)


def train(seed, batches, loop, capture_mode, jit_level, shard=None):
    """Build the CNN with ``seed`` and train on ``batches`` (this rank's ``shard`` =
    (index, count) of each batch); returns the net and the losses."""
    ms.set_seed(seed)
    net = SmallCNN()
    step = make_step(net, loop, capture_mode, jit_level)
    losses = []
    for data, label in batches:
        if shard is not None:
            index, count = shard
            size = len(data) // count
            rows = slice(index * size, (index + 1) * size)
            data, label = data[rows], label[rows]
        losses.append(float(step(ms.Tensor(data), ms.Tensor(label)).asnumpy()))
    return net, losses


def weights(net):
    return {p.name: p.asnumpy().copy() for p in net.trainable_params()}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--batch", type=int, default=8, help="global batch (split over the ranks)")
    p.add_argument("--loop", choices=("reducer", "train_one_step", "plain"), default="reducer")
    p.add_argument("--capture-mode", default="ast", choices=("ast", "bytecode", "trace"))
    p.add_argument("--jit-level", default="O0", choices=("O0", "O1"))
    p.add_argument("--check", action="store_true",
                   help="compare with one process training on the global batch")
    args = p.parse_args(argv)

    communication.init()
    rank, size = communication.get_rank(), communication.get_group_size()
    if args.batch % size:
        raise SystemExit(f"--batch {args.batch} must divide by the {size} ranks")
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                 gradients_mean=True)
    batches = global_batches(args.steps, args.batch)
    # a seed per rank: equal weights come from the broadcast of rank 0's, not from luck
    net, losses = train(1 + rank, batches, args.loop, args.capture_mode, args.jit_level,
                        shard=(rank, size))
    print(f"rank {rank}/{size}: losses {' '.join(f'{v:.4f}' for v in losses)}", flush=True)
    if not args.check:
        return 0

    mine = weights(net)
    flat = np.concatenate([mine[k].ravel() for k in sorted(mine)])
    gathered = communication.all_gather(ms.Tensor(flat[None])).asnumpy()
    spread = float(np.abs(gathered - gathered[0]).max())
    # the reference: one process (stand-alone, no reducer), whole batches, rank 0's seed
    ms.reset_auto_parallel_context()
    reference, _ = train(1, batches, "plain" if args.loop == "reducer" else args.loop,
                         args.capture_mode, args.jit_level)
    ref = weights(reference)
    difference = max(float(np.abs(mine[k] - ref[k]).max() / max(1.0, np.abs(ref[k]).max()))
                     for k in ref)
    ok = spread == 0.0 and difference < 1e-4
    print(f"rank {rank}/{size}: weights identical on all ranks: {spread == 0.0} "
          f"(largest difference {spread:.3g}); largest relative difference to one process "
          f"on the global batch: {difference:.3g}; {'OK' if ok else 'MISMATCH'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
