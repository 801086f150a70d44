"""Run under MPI by tests/communication/test_mpi.py: data-parallel datasets read one shard
per rank, and a checkpoint is written once (rank 0) and loaded by every rank.

    data_and_checkpoints.py OUT_DIR
"""
import os
import sys

import numpy as np

import tensorjit as ms
from tensorjit import nn, communication
from tensorjit.dataset import NumpySlicesDataset, GeneratorDataset

out_dir = sys.argv[1]
communication.init()
rank, size = communication.get_rank(), communication.get_group_size()
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)

rows = np.arange(10, dtype=np.float32)
seen = [int(r[0]) for r in NumpySlicesDataset(rows, ["x"], shuffle=False)
        .create_tuple_iterator(output_numpy=True)]
generated = [int(r[0]) for r in GeneratorDataset(lambda: ((np.float32(v),) for v in rows), ["x"])
             .create_tuple_iterator(output_numpy=True)]
gathered = communication.all_gather(ms.Tensor(np.array(seen[:5], np.float32))).asnumpy()
explicit = [int(r[0]) for r in NumpySlicesDataset(rows, ["x"], shuffle=False, num_shards=1,
                                                  shard_id=0)
            .create_tuple_iterator(output_numpy=True)]
print(f"rank {rank}: rows {seen} generated {generated} all {sorted(int(v) for v in gathered)} "
      f"explicit {len(explicit)}", flush=True)

ms.set_seed(rank)                         # each rank's own weights: only rank 0's are saved
net = nn.Dense(3, 2)
path = os.path.join(out_dir, "net.ckpt")
ms.save_checkpoint(net, path)
communication.barrier()
written = sorted(os.listdir(out_dir))
loaded = nn.Dense(3, 2)
ms.load_param_into_net(loaded, ms.load_checkpoint(path))
same = communication.all_gather(loaded.weight.reshape(1, -1)).asnumpy()
print(f"rank {rank}: files {written} loaded equal on all ranks: "
      f"{bool(np.array_equal(same[0], same[1]))} equal to own: "
      f"{bool(np.array_equal(loaded.weight.asnumpy(), net.weight.asnumpy()))}", flush=True)
