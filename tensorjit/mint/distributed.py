"""``tensorjit.mint.distributed``: MindSpore's ``mint.distributed`` (PyTorch's
``torch.distributed`` names) on tensorjit's collective ops.

The collectives write their result into the tensors given (PyTorch's in-place style) and
run on the process groups ``ops.process_groups`` holds: the world of this one process
until ``tensorjit.communication.init()`` installs the MPI ranks (``python -m tensorjit.run``),
then every rank. ``init_process_group`` only records that the API was initialised (the
ranks come from the launcher). Differences from MindSpore: only the world group exists
(``new_group`` of a subset raises ValueError), the uneven variants need equal sizes
across ranks, and point-to-point ``send`` / ``recv`` have no peer in one process.

>>> import tensorjit as ms
>>> from tensorjit import mint
>>> t = ms.Tensor([1., 2.])
>>> mint.distributed.all_reduce(t)
"""
import pickle

import numpy as np

from .. import ops
from ..ops import process_groups
from ..ops import coerce

__all__ = ["init_process_group", "destroy_process_group", "get_rank", "get_world_size",
           "new_group", "get_backend", "get_global_rank", "get_process_group_ranks",
           "get_group_rank", "all_reduce", "all_gather_into_tensor",
           "all_gather_into_tensor_uneven", "all_to_all", "all_to_all_single",
           "reduce_scatter_tensor", "reduce_scatter_tensor_uneven", "isend", "irecv", "send",
           "recv", "send_object_list", "recv_object_list", "gather", "scatter", "all_gather",
           "reduce_scatter", "barrier", "broadcast", "reduce", "P2POp", "batch_isend_irecv",
           "all_gather_object", "broadcast_object_list", "gather_object",
           "scatter_object_list", "is_available", "is_initialized"]

_BACKENDS = ("hccl", "nccl", "mccl", "gloo", "mpi")
_state = {"initialized": False, "backend": None}


class _Work:
    """What ``async_op=True`` returns: the collective has already completed."""

    def wait(self, timeout=None):
        return True

    def is_completed(self):
        return True


def _done(async_op):
    return _Work() if async_op else None


def _group(group):
    name = process_groups.WORLD if group is None else group
    process_groups.check_group_name(name, "mint.distributed")
    return name


def is_available():
    """Whether the distributed API exists (always True).

    >>> mint.distributed.is_available()
    True
    """
    return True


def is_initialized():
    """Whether ``init_process_group`` was called (and not destroyed since).

    >>> flag = mint.distributed.is_initialized()
    """
    return _state["initialized"]


def init_process_group(backend="hccl", init_method=None, timeout=None, world_size=-1, rank=-1,
                       store=None, group_name="", pg_options=None, device_id=None):
    """Record the API as initialised; the ranks are the launcher's (one process without
    ``tensorjit.communication.init()``). ``world_size`` / ``rank``, when given, must match.

    >>> mint.distributed.init_process_group(); mint.distributed.destroy_process_group()
    """
    if backend not in _BACKENDS:
        raise ValueError(f"init_process_group: backend must be one of {_BACKENDS}, got "
                         f"{backend!r}")
    size, own = process_groups.world_size(), process_groups.world_rank()
    if world_size not in (-1, size) or rank not in (-1, own):
        raise ValueError(f"init_process_group: world_size={world_size}, rank={rank} do not "
                         f"match the launched world (size {size}, this rank {own})")
    _state.update(initialized=True, backend=backend)


def destroy_process_group(group=None):
    """Forget the initialisation (the world group stays usable).

    >>> mint.distributed.destroy_process_group()
    """
    _group(group)
    _state.update(initialized=False, backend=None)


def get_rank(group=None):
    """This process's rank in ``group``.

    >>> rank = mint.distributed.get_rank()
    """
    _group(group)
    return process_groups.world_rank()


def get_world_size(group=None):
    """The number of ranks in ``group``.

    >>> size = mint.distributed.get_world_size()
    """
    _group(group)
    return process_groups.world_size()


def get_backend(group=None):
    """The backend name given to ``init_process_group``.

    >>> mint.distributed.init_process_group(); name = mint.distributed.get_backend()
    >>> mint.distributed.destroy_process_group()
    """
    _group(group)
    if not _state["initialized"]:
        raise RuntimeError("get_backend: init_process_group has not been called")
    return _state["backend"]


def new_group(ranks=None, timeout=None, backend=None, pg_options=None,
              use_local_synchronization=False, group_desc=None):
    """A group of ``ranks``: only the whole world is supported (its name is returned).

    >>> name = mint.distributed.new_group()
    """
    size = process_groups.world_size()
    if ranks is not None and sorted(ranks) != list(range(size)):
        raise ValueError(f"new_group: only the whole world (ranks 0..{size - 1}) is "
                         f"supported, got {list(ranks)}")
    return process_groups.WORLD


def get_process_group_ranks(group=None):
    """The world ranks of ``group``.

    >>> ranks = mint.distributed.get_process_group_ranks()
    """
    _group(group)
    return list(range(process_groups.world_size()))


def _check_rank(rank, who):
    size = process_groups.world_size()
    if not 0 <= rank < size:
        raise ValueError(f"{who}: rank {rank} is not in the group of {size} ranks")
    return rank


def get_global_rank(group, group_rank):
    """The world rank of ``group_rank`` in ``group`` (the world: itself).

    >>> rank = mint.distributed.get_global_rank(None, 0)
    """
    _group(group)
    return _check_rank(group_rank, "get_global_rank")


def get_group_rank(group, global_rank):
    """The rank in ``group`` of world rank ``global_rank`` (the world: itself).

    >>> rank = mint.distributed.get_group_rank(None, 0)
    """
    _group(group)
    return _check_rank(global_rank, "get_group_rank")


# ---- collectives on tensors (results written in place) ----------------------------------
def all_reduce(tensor, op="sum", group=None, async_op=False):
    """``tensor`` becomes the reduction (``'sum'``, ``'max'``, ``'min'``, ``'prod'``) over
    the ranks.

    >>> t = ms.Tensor([1., 2.]); mint.distributed.all_reduce(t)
    """
    tensor.assign_value(ops.all_reduce(tensor, op, _group(group)))
    return _done(async_op)


def all_gather_into_tensor(output_tensor, input_tensor, group=None, async_op=False):
    """``output_tensor`` becomes every rank's ``input_tensor`` concatenated along axis 0.

    >>> out = ms.Tensor([0., 0.]); mint.distributed.all_gather_into_tensor(out, ms.Tensor([1., 2.]))
    """
    output_tensor.assign_value(ops.all_gather(input_tensor, _group(group)))
    return _done(async_op)


def all_gather_into_tensor_uneven(output, input, output_split_sizes=None, group=None,
                                  async_op=False):
    """``all_gather_into_tensor``; the split sizes must all equal ``input``'s axis 0.

    >>> out = ms.Tensor([0., 0.]); mint.distributed.all_gather_into_tensor_uneven(out, ms.Tensor([1., 2.]))
    """
    if output_split_sizes is not None and len(set(output_split_sizes) | {input.shape[0]}) > 1:
        raise ValueError(f"all_gather_into_tensor_uneven: unequal split sizes "
                         f"{list(output_split_sizes)} are not supported")
    return all_gather_into_tensor(output, input, group, async_op)


def all_gather(tensor_list, tensor, group=None, async_op=False):
    """``tensor_list[r]`` becomes rank ``r``'s ``tensor``.

    >>> parts = [ms.Tensor([0., 0.])]; mint.distributed.all_gather(parts, ms.Tensor([1., 2.]))
    """
    size = process_groups.world_size()
    if len(tensor_list) != size:
        raise ValueError(f"all_gather: tensor_list has {len(tensor_list)} tensors, the group "
                         f"{size} ranks")
    gathered = ops.all_gather(ops.unsqueeze(tensor, 0), _group(group))
    for rank, target in enumerate(tensor_list):
        target.assign_value(gathered[rank])
    return _done(async_op)


def reduce_scatter_tensor(output, input, op="sum", group=None, async_op=False):
    """``output`` becomes this rank's part (along axis 0) of the reduction of ``input``.

    >>> out = ms.Tensor([0., 0.]); mint.distributed.reduce_scatter_tensor(out, ms.Tensor([1., 2.]))
    """
    output.assign_value(ops.reduce_scatter(input, op, _group(group)))
    return _done(async_op)


def reduce_scatter_tensor_uneven(output, input, input_split_sizes=None, op="sum", group=None,
                                 async_op=False):
    """``reduce_scatter_tensor``; the split sizes must be equal.

    >>> out = ms.Tensor([0., 0.]); mint.distributed.reduce_scatter_tensor_uneven(out, ms.Tensor([1., 2.]))
    """
    if input_split_sizes is not None and len(set(input_split_sizes)) > 1:
        raise ValueError(f"reduce_scatter_tensor_uneven: unequal split sizes "
                         f"{list(input_split_sizes)} are not supported")
    return reduce_scatter_tensor(output, input, op, group, async_op)


def reduce_scatter(output, input_list, op="sum", group=None, async_op=False):
    """``output`` becomes the reduction over ranks of their ``input_list[this rank]``.

    >>> out = ms.Tensor([0., 0.]); mint.distributed.reduce_scatter(out, [ms.Tensor([1., 2.])])
    """
    stacked = ops.cat([ops.unsqueeze(t, 0) for t in input_list], 0)
    output.assign_value(ops.squeeze(ops.reduce_scatter(stacked, op, _group(group)), 0))
    return _done(async_op)


def all_to_all(output_tensor_list, input_tensor_list, group=None, async_op=False):
    """``output_tensor_list[r]`` becomes rank ``r``'s ``input_tensor_list[this rank]``
    (tensors of one shape).

    >>> outs = [ms.Tensor([0.])]; mint.distributed.all_to_all(outs, [ms.Tensor([1.])])
    """
    size, own = process_groups.world_size(), process_groups.world_rank()
    if len(input_tensor_list) != size or len(output_tensor_list) != size:
        raise ValueError(f"all_to_all: expected {size} input and output tensors, got "
                         f"{len(input_tensor_list)} and {len(output_tensor_list)}")
    stacked = ops.stack(list(input_tensor_list), 0)                     # size, ...
    gathered = ops.all_gather(ops.unsqueeze(stacked, 0), _group(group))   # size, size, ...
    for rank, target in enumerate(output_tensor_list):
        target.assign_value(gathered[rank, own])
    return _done(async_op)


def all_to_all_single(output, input, output_split_sizes=None, input_split_sizes=None,
                      group=None, async_op=False):
    """``all_to_all`` of the equal parts of ``input`` along axis 0, into ``output``.

    >>> out = ms.Tensor([0., 0.]); mint.distributed.all_to_all_single(out, ms.Tensor([1., 2.]))
    """
    for sizes in (output_split_sizes, input_split_sizes):
        if sizes is not None and len(set(sizes)) > 1:
            raise ValueError(f"all_to_all_single: unequal split sizes {list(sizes)} are not "
                             f"supported")
    size = process_groups.world_size()
    parts = list(ops.split(input, input.shape[0] // size, 0))
    outputs = [ops.zeros_like(p) for p in parts]
    all_to_all(outputs, parts, group)
    output.assign_value(ops.cat(outputs, 0))
    return _done(async_op)


def broadcast(tensor, src, group=None, async_op=False):
    """``tensor`` becomes rank ``src``'s ``tensor``.

    >>> t = ms.Tensor([1., 2.]); mint.distributed.broadcast(t, 0)
    """
    tensor.assign_value(ops.broadcast(tensor, src, _group(group)))
    return _done(async_op)


def reduce(tensor, dst, op="sum", group=None, async_op=False):
    """On rank ``dst``, ``tensor`` becomes the reduction over the ranks.

    >>> t = ms.Tensor([1., 2.]); mint.distributed.reduce(t, 0)
    """
    result = ops.reduce(tensor, dst, op, _group(group))
    if process_groups.world_rank() == dst:
        tensor.assign_value(result)
    return _done(async_op)


def gather(tensor, gather_list, dst=0, group=None, async_op=False):
    """On rank ``dst``, ``gather_list[r]`` becomes rank ``r``'s ``tensor``.

    >>> parts = [ms.Tensor([0.])]; mint.distributed.gather(ms.Tensor([1.]), parts)
    """
    _check_rank(dst, "gather")
    gathered = ops.all_gather(ops.unsqueeze(tensor, 0), _group(group))
    if process_groups.world_rank() == dst:
        for rank, target in enumerate(gather_list):
            target.assign_value(gathered[rank])
    return _done(async_op)


def scatter(tensor, scatter_list, src=0, group=None, async_op=False):
    """``tensor`` becomes rank ``src``'s ``scatter_list[this rank]``.

    >>> t = ms.Tensor([0.]); mint.distributed.scatter(t, [ms.Tensor([1.])])
    """
    size, own = process_groups.world_size(), process_groups.world_rank()
    _check_rank(src, "scatter")
    if own == src:
        if scatter_list is None or len(scatter_list) != size:
            raise ValueError(f"scatter: rank {src} needs a scatter_list of {size} tensors")
        stacked = ops.stack(list(scatter_list), 0)
    else:
        stacked = ops.zeros((size,) + tuple(tensor.shape), tensor.dtype)
    tensor.assign_value(ops.broadcast(stacked, src, _group(group))[own])
    return _done(async_op)


def barrier(group=None, async_op=False, device_ids=None):
    """Wait until every rank of ``group`` gets here.

    >>> mint.distributed.barrier()
    """
    ops.barrier(_group(group))
    return _done(async_op)


# ---- point to point: a peer is another process -------------------------------------------
def _peer(peer, who):
    _check_rank(peer, who)
    if peer == process_groups.world_rank():
        raise ValueError(f"{who}: rank {peer} is this process; point-to-point needs another "
                         f"rank (world of {process_groups.world_size()})")
    raise NotImplementedError(f"{who}: point-to-point messages between ranks are not "
                              f"supported; use the collectives (broadcast, all_gather)")


def send(tensor, dst=0, group=None, tag=0):
    """Send ``tensor`` to rank ``dst`` (another process; not supported: see module doc).

    >>> try: mint.distributed.send(ms.Tensor([1.]), 0)
    ... except ValueError: pass
    """
    _peer(dst, "send")


def recv(tensor, src=0, group=None, tag=0):
    """Receive ``tensor`` from rank ``src`` (another process; not supported).

    >>> try: mint.distributed.recv(ms.Tensor([1.]), 0)
    ... except ValueError: pass
    """
    _peer(src, "recv")


def isend(tensor, dst=0, group=None, tag=0):
    """Non-blocking ``send``.

    >>> try: mint.distributed.isend(ms.Tensor([1.]), 0)
    ... except ValueError: pass
    """
    _peer(dst, "isend")


def irecv(tensor, src=0, group=None, tag=0):
    """Non-blocking ``recv``.

    >>> try: mint.distributed.irecv(ms.Tensor([1.]), 0)
    ... except ValueError: pass
    """
    _peer(src, "irecv")


def send_object_list(object_list, dst, group=None, device=None):
    """Send picklable objects to rank ``dst`` (another process; not supported).

    >>> try: mint.distributed.send_object_list([1], 0)
    ... except ValueError: pass
    """
    _peer(dst, "send_object_list")


def recv_object_list(object_list, src=0, group=None, device=None):
    """Receive picklable objects from rank ``src`` (another process; not supported).

    >>> try: mint.distributed.recv_object_list([None], 0)
    ... except ValueError: pass
    """
    _peer(src, "recv_object_list")


class P2POp:
    """One point-to-point operation (``isend`` / ``irecv``, a tensor, a peer) for
    ``batch_isend_irecv``.

    >>> op = mint.distributed.P2POp(mint.distributed.isend, ms.Tensor([1.]), 0)
    """

    def __init__(self, op, tensor, peer, group=None, tag=0):
        if op not in (isend, irecv):
            raise ValueError("P2POp: op must be mint.distributed.isend or irecv")
        self.op, self.tensor, self.peer, self.group, self.tag = op, tensor, peer, group, tag


def batch_isend_irecv(p2p_op_list):
    """Run a list of ``P2POp``s.

    >>> out = mint.distributed.batch_isend_irecv([])
    """
    return [op.op(op.tensor, op.peer, op.group, op.tag) for op in p2p_op_list]


# ---- collectives on picklable objects (host side) ----------------------------------------
def _gather_objects(obj, group):
    """Every rank's ``obj``, in rank order: pickled bytes padded to the longest."""
    payload = np.frombuffer(pickle.dumps(obj), np.uint8)
    length = ops.all_gather(coerce.constant(np.array([payload.size], np.int64)), group)
    longest = int(length.asnumpy().max())
    padded = np.zeros(longest, np.uint8)
    padded[:payload.size] = payload
    gathered = ops.all_gather(coerce.constant(padded[None]), group).asnumpy()
    return [pickle.loads(row[:n].tobytes()) for row, n in zip(gathered, length.asnumpy())]


def all_gather_object(object_list, obj, group=None):
    """``object_list[r]`` becomes rank ``r``'s ``obj``.

    >>> found = [None]; mint.distributed.all_gather_object(found, {"step": 1})
    """
    object_list[:] = _gather_objects(obj, _group(group))


def gather_object(obj, object_gather_list=None, dst=0, group=None):
    """On rank ``dst``, ``object_gather_list[r]`` becomes rank ``r``'s ``obj``.

    >>> found = [None]; mint.distributed.gather_object("x", found)
    """
    _check_rank(dst, "gather_object")
    objects = _gather_objects(obj, _group(group))
    if process_groups.world_rank() == dst:
        object_gather_list[:] = objects


def broadcast_object_list(object_list, src=0, group=None, device=None):
    """``object_list`` becomes rank ``src``'s ``object_list``.

    >>> items = [1, "a"]; mint.distributed.broadcast_object_list(items)
    """
    _check_rank(src, "broadcast_object_list")
    object_list[:] = _gather_objects(list(object_list), _group(group))[src]


def scatter_object_list(scatter_object_output_list, scatter_object_input_list, src=0,
                        group=None):
    """``scatter_object_output_list[0]`` becomes rank ``src``'s
    ``scatter_object_input_list[this rank]``.

    >>> out = [None]; mint.distributed.scatter_object_list(out, ["a"])
    """
    _check_rank(src, "scatter_object_list")
    objects = _gather_objects(scatter_object_input_list, _group(group))[src]
    scatter_object_output_list[0] = objects[process_groups.world_rank()]
