"""``tensorjit.communication``: MindSpore's collective communication API, on MPI.

    from tensorjit.communication import init, get_rank, get_group_size
    init()                                   # under mpirun / python -m tensorjit.run
    total = communication.all_reduce(x)      # or ops.AllReduce()(x), in eager or in jit

Management (``management.py``), the functional collectives and MindSpore's operator
classes (the primitives of ``ops/collective.py``), fault handling (``faults.py``,
``watch.py``) and the MPI groups (``mpi_group.py``). The launcher is
``python -m tensorjit.run`` (``launch.py``).
"""
from ..ops.collective import (ReduceOp, AllReduce, AllGather, ReduceScatter, Broadcast,
                              Barrier, all_reduce, all_reduce_many, all_gather,
                              reduce_scatter, broadcast, reduce, barrier)
from .faults import CommunicationError, set_timeout
from .management import (GlobalComm, init, release, is_initialized, get_rank, get_group_size,
                         get_local_rank, get_local_rank_size, get_world_rank_from_group_rank,
                         get_group_rank_from_world_rank, get_process_group_ranks,
                         get_comm_name, create_group, destroy_group, stats, reset_stats,
                         HCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, MCCL_WORLD_COMM_GROUP)

__all__ = [
    "GlobalComm", "init", "release", "is_initialized", "get_rank", "get_group_size",
    "get_local_rank", "get_local_rank_size", "get_world_rank_from_group_rank",
    "get_group_rank_from_world_rank", "get_process_group_ranks", "get_comm_name",
    "create_group", "destroy_group", "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP",
    "MCCL_WORLD_COMM_GROUP", "ReduceOp", "AllReduce", "AllGather", "ReduceScatter",
    "Broadcast", "Barrier", "all_reduce", "all_reduce_many", "all_gather", "reduce_scatter",
    "broadcast", "reduce", "barrier", "CommunicationError", "set_timeout", "stats",
    "reset_stats",
]
