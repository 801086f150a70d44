"""Run under MPI by tests/communication/test_faults.py.

    faults.py kill OUT_DIR      train until the test kills a rank
    faults.py hang OUT_DIR      rank 1 stops answering after 3 steps (sleeps)
    faults.py mismatch OUT_DIR  the ranks all-reduce tensors of different shapes

Each rank writes "<pid> <step>" to OUT_DIR/rank<R> after every step.
"""
import os
import sys
import time

import numpy as np

import tensorjit as ms
from tensorjit import nn, ops, communication

mode, out_dir = sys.argv[1], sys.argv[2]
communication.init()
rank = communication.get_rank()


def note(step):
    path = os.path.join(out_dir, f"rank{rank}")
    with open(path + ".tmp", "w") as f:
        f.write(f"{os.getpid()} {step}\n")
    os.replace(path + ".tmp", path)


if mode == "mismatch":
    note(0)
    ops.all_reduce(ms.Tensor(np.ones((2 + rank, 3), np.float32)))
    sys.exit(0)

ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
ms.set_seed(0)
net = nn.Dense(16, 4)
loss_fn = nn.MSELoss()
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.01)
step = ms.jit(nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer),
              capture_mode="trace")
data = ms.Tensor(np.random.default_rng(rank).standard_normal((8, 16)).astype(np.float32))
label = ms.Tensor(np.zeros((8, 4), np.float32))
for i in range(100000):
    step(data, label)
    note(i)
    if mode == "hang" and rank == 1 and i == 3:
        time.sleep(3600)
    time.sleep(0.02)
