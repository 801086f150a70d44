"""The communication groups the collective kernels (``collective.py``) run on.

This is the hook between the registry and the MPI backend: ``ops`` sits below
``communication`` and must not import it, so ``communication.init()`` *installs* its MPI
groups here and the kernels look a group up by name when they run. Until then the world
is ``SelfGroup``: one process, rank 0, where every collective is what it is for a group of
one (all-reduce copies, all-gather returns the input, ...). So collectives run, capture and
differentiate in a plain process, and ``get_rank()`` is 0 without ``init()``.

A group object offers, on NumPy arrays:
    rank, size, name
    all_reduce(arrays, op) -> [arrays]          one message for all of them
    all_gather(array) / reduce_scatter(array, op) / broadcast(array, root)
    reduce(array, root, op) / barrier()
    start_all_reduce(arrays, op) -> Pending      non-blocking; finish(pending) -> [arrays]
"""
import numpy as np

WORLD = "hccl_world_group"       # MindSpore's GlobalComm.WORLD_COMM_GROUP
WORLD_ALIASES = frozenset({WORLD, "nccl_world_group", "mccl_world_group", "mpi_world_group"})
REDUCE_OPS = ("sum", "max", "min", "prod")


class Pending:
    """A started all-reduce: the packed buffer the result lands in, the shapes to unpack
    it into, and the backend's request (None when it is already complete)."""
    __slots__ = ("buffer", "shapes", "request", "group", "kind")

    def __init__(self, buffer, shapes, request=None, group=None):
        self.buffer, self.shapes, self.request, self.group = buffer, shapes, request, group
        self.kind = None        # what the backend needs to finish it


def pack(arrays, dtype):
    """One contiguous 1-d buffer holding ``arrays`` one after another (a new array)."""
    if len(arrays) == 1:
        return np.array(arrays[0], dtype=dtype, copy=True).reshape(-1)
    return np.concatenate([np.asarray(a, dtype=dtype).reshape(-1) for a in arrays])


def unpack(buffer, shapes):
    """The arrays of ``shapes`` laid out one after another in ``buffer`` (views of it)."""
    out, start = [], 0
    for shape in shapes:
        size = int(np.prod(shape, dtype=np.int64))
        out.append(buffer[start:start + size].reshape(shape))
        start += size
    return out


class SelfGroup:
    """The world of a process that did not call ``communication.init()``: one rank."""
    rank, size, name, world_ranks = 0, 1, WORLD, (0,)

    def all_reduce(self, arrays, op):
        return [np.array(a, copy=True) for a in arrays]

    def all_gather(self, array):
        return np.array(array, copy=True)

    def reduce_scatter(self, array, op):
        return np.array(array, copy=True)

    def broadcast(self, array, root):
        return np.array(array, copy=True)

    def reduce(self, array, root, op):
        return np.array(array, copy=True)

    def barrier(self):
        return None

    def start_all_reduce(self, arrays, op):
        dtype = np.result_type(*arrays) if arrays else np.float32
        return Pending(pack(arrays, dtype), tuple(np.shape(a) for a in arrays))

    def finish(self, pending):
        return unpack(pending.buffer, pending.shapes)


_SELF = SelfGroup()
_groups = {}                 # name -> group object installed by communication


def install(name, group):
    """Make ``group`` the one collectives with ``group=name`` use (communication layer)."""
    _groups[WORLD if name in WORLD_ALIASES else name] = group


def uninstall(name=None):
    """Forget one group, or every group (``communication.release()``)."""
    if name is None:
        _groups.clear()
    else:
        _groups.pop(WORLD if name in WORLD_ALIASES else name, None)


def group(name):
    """The group object for ``name``; the world is a ``SelfGroup`` before ``init()``."""
    if name in WORLD_ALIASES:
        return _groups.get(WORLD, _SELF)
    found = _groups.get(name)
    if found is None:
        raise ValueError(f"communication group {name!r} does not exist: create it with "
                         f"tensorjit.communication.create_group({name!r}, rank_ids) on its "
                         f"ranks (the world group is {WORLD!r})")
    return found


def world_rank():
    """This process's rank in the world (0 before ``communication.init()``): what code
    below the ``communication`` layer asks, e.g. "am I rank 0, the one that writes the
    checkpoint?" (``communication.get_rank()`` is the same number)."""
    return group(WORLD).rank


def world_size():
    """The number of processes in the world (1 before ``communication.init()``)."""
    return group(WORLD).size


def check_group_name(name, who):
    if not isinstance(name, str):
        raise TypeError(f"{who}: 'group' must be a group name (str), got {name!r}")
    return WORLD if name in WORLD_ALIASES else name


def check_op(op, who):
    op = getattr(op, "value", op)
    if not isinstance(op, str) or op.lower() not in REDUCE_OPS:
        raise ValueError(f"{who}: 'op' must be one of {REDUCE_OPS} (or a ReduceOp), got {op!r}")
    return op.lower()


def plan_buckets(nbytes, dtypes, cap_bytes, conflicts=None):
    """Split items (their sizes in bytes and dtypes, in the order they become ready) into
    buckets of one dtype holding at most ``cap_bytes`` each (an item larger than the cap is
    a bucket of its own). ``conflicts(index, bucket)``: True if item ``index`` may not join
    the items of ``bucket`` (it needs one of their results). Returns lists of item indices,
    the buckets in the order their last item becomes ready."""
    open_buckets, sizes, done = {}, {}, []
    for index, (size, dtype) in enumerate(zip(nbytes, dtypes)):
        if conflicts is not None:      # a bucket whose result this item needs is complete
            for other in [k for k, b in open_buckets.items() if conflicts(index, b)]:
                done.append(open_buckets.pop(other))
        key = np.dtype(dtype).str
        bucket = open_buckets.get(key)
        if bucket is not None and sizes[key] + size > cap_bytes:
            done.append(bucket)
            bucket = None
        if bucket is None:
            bucket = open_buckets[key] = []
            sizes[key] = 0
        bucket.append(index)
        sizes[key] += size
    done.extend(open_buckets.values())
    return sorted(done, key=lambda b: b[-1])
