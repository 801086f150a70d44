"""Run under MPI by tests/communication/test_mpi.py: each rank profiles a jitted step with
an all-reduce, rank 1 arriving late, and writes its trace to ``<dir>/rank<r>.json``."""
import os
import sys
import time

import numpy as np

import tensorjit as ms
from tensorjit import ops, communication
from tensorjit.profiler import profile

communication.init()
RANK = communication.get_rank()


@ms.jit
def step(x):
    return ops.all_reduce(x * 2.0) + 1.0


x = ms.Tensor(np.full((64, 64), RANK + 1, np.float32))
step(x)                                    # compiled before recording
with profile() as prof:
    for _ in range(3):
        if RANK == 1:
            time.sleep(0.05)               # rank 0 waits in the all-reduce
        out = step(x)
        prof.step()
expected = 2.0 * sum(r + 1 for r in range(communication.get_group_size())) + 1.0
assert np.allclose(out.asnumpy(), expected), out.asnumpy()[0, 0]
prof.export_chrome_trace(os.path.join(sys.argv[1], f"rank{RANK}.json"))
print(f"rank {RANK}: trace written", flush=True)
