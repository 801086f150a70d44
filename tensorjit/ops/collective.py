"""Collective communication primitives: all-reduce, all-gather, reduce-scatter, broadcast,
reduce to a root, barrier; and the non-blocking all-reduce pair the compiler issues.

Every rank runs the same program, so each collective is one call per rank, matched across
ranks by its order. They are ``effect`` primitives: passes never remove, merge, reorder or
fold them (a collective skipped or moved on one rank would pair with the wrong call on the
others). Their kernels run on the group named by ``group`` (``process_groups``: a
one-process world until ``tensorjit.communication.init()`` installs MPI).

Gradients (summed over every rank's loss, the data-parallel objective):
    all_reduce(sum)   <->  all_reduce(sum)          max/min: all_reduce(ct) where x == out
    all_gather        <->  reduce_scatter(sum)
    broadcast(root)   <->  reduce(sum, root)        (the root gets every rank's cotangent)

``all_gather`` concatenates along axis 0 (MindSpore's AllGather); ``reduce_scatter`` sums
and gives rank ``r`` the ``r``-th slice of axis 0; ``reduce`` leaves the result on the
root and zeros elsewhere. ``all_reduce`` takes several tensors and reduces them in one
message (coalesced); ``all_reduce_start`` / ``all_reduce_wait`` are what the
``passes/collectives.py`` pass turns a graph's all-reduces into (never bound by users).
"""
import numpy as np

from ..aval import ShapedArray
from ..tensor import Tensor
from .primitive import Primitive, FRESH, NO_OUTPUT
from . import elementwise as ew
from . import batching
from . import process_groups
from .process_groups import WORLD, check_group_name, check_op

__all__ = ["ReduceOp", "all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce",
           "barrier", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "Barrier"]


class ReduceOp:
    """Reduction operations of the collectives (MindSpore's ``ops.ReduceOp``)."""
    SUM = "sum"
    MAX = "max"
    MIN = "min"
    PROD = "prod"


def _group_of(name, size):
    """The group a kernel runs on; the graph was built for a group of ``size`` ranks."""
    found = process_groups.group(name)
    if found.size != size:
        raise RuntimeError(
            f"collective on group {name!r}: this code was prepared for {size} process(es) "
            f"but the group now has {found.size}; call tensorjit.communication.init() "
            f"before jitting functions that communicate")
    return found


def _same_avals(*avals, **params):
    return list(avals)


# ---- all_reduce (several tensors, one message) -----------------------------------------

def _all_reduce_impl(*arrays, op, group, size):
    return tuple(_group_of(group, size).all_reduce(list(arrays), op))


def _all_reduce_vjp(ct, out, *args, op, group, size):
    if op == "sum":
        return tuple(all_reduce_p.bind(*ct, op="sum", group=group, size=size))
    if op in ("max", "min"):
        summed = all_reduce_p.bind(*ct, op="sum", group=group, size=size)
        return tuple(ew.mul(s, ew.cast(ew.eq(x, o), x.dtype))
                     for s, x, o in zip(summed, args, out))
    summed = all_reduce_p.bind(*[ew.mul(c, o) for c, o in zip(ct, out)], op="sum",
                               group=group, size=size)
    return tuple(ew.div(s, x) for s, x in zip(summed, args))


def _per_element_batch(prim, dims, *args, **params):
    """vmap of a collective that combines ranks element by element (all-reduce,
    broadcast, reduce): each example's elements meet the same elements of the other
    ranks wherever the batch axis is."""
    out = prim.bind(*args, **params)
    return out, (tuple(dims) if prim.multiple_results else dims[0])


def _along_axis0_batch(prim, dims, x, **params):
    """vmap of a collective along the example's axis 0 (all-gather, reduce-scatter): the
    batch axis goes second, so axis 0 stays the example's."""
    if x.ndim < 2:
        raise ValueError(f"vmap of {prim.name}: each example must have rank >= 1")
    return prim.bind(batching.moveaxis(x, dims[0], 1), **params), 1


all_reduce_p = Primitive("all_reduce", _all_reduce_impl, _same_avals, _all_reduce_vjp,
                         multiple_results=True, effect=True, communicates=True, shape_generic=False,
                         aliasing=FRESH, batch=_per_element_batch)


# ---- all_gather / reduce_scatter -------------------------------------------------------

def _all_gather_rule(x, group, size):
    if x.ndim == 0:
        raise ValueError(f"all_gather: needs a tensor of rank >= 1 (it concatenates along "
                         f"axis 0), got {x}")
    return ShapedArray((x.shape[0] * size,) + tuple(x.shape[1:]), x.dtype)


def _all_gather_vjp(ct, out, x, group, size):
    return (reduce_scatter_p.bind(ct, op="sum", group=group, size=size),)


all_gather_p = Primitive(
    "all_gather", lambda x, group, size: _group_of(group, size).all_gather(x),
    _all_gather_rule, _all_gather_vjp, effect=True, communicates=True, shape_generic=False, aliasing=FRESH,
    batch=_along_axis0_batch)


def _reduce_scatter_rule(x, op, group, size):
    if x.ndim == 0 or x.shape[0] % size:
        raise ValueError(f"reduce_scatter: axis 0 of {x} must divide into the group's "
                         f"{size} ranks")
    return ShapedArray((x.shape[0] // size,) + tuple(x.shape[1:]), x.dtype)


def _reduce_scatter_vjp(ct, out, x, op, group, size):
    if op != "sum":
        raise NotImplementedError(f"reduce_scatter: the gradient exists for op='sum' only, "
                                  f"not {op!r}")
    return (all_gather_p.bind(ct, group=group, size=size),)


reduce_scatter_p = Primitive(
    "reduce_scatter", lambda x, op, group, size: _group_of(group, size).reduce_scatter(x, op),
    _reduce_scatter_rule, _reduce_scatter_vjp, effect=True, communicates=True, shape_generic=False,
    aliasing=FRESH, batch=_along_axis0_batch)


# ---- broadcast / reduce to a root ------------------------------------------------------

def _broadcast_vjp(ct, out, x, root, group, size):
    return (reduce_p.bind(ct, root=root, op="sum", group=group, size=size),)


broadcast_p = Primitive(
    "broadcast", lambda x, root, group, size: _group_of(group, size).broadcast(x, root),
    lambda x, root, group, size: x, _broadcast_vjp, effect=True, communicates=True, shape_generic=False,
    aliasing=FRESH, batch=_per_element_batch)


def _reduce_vjp(ct, out, x, root, op, group, size):
    if op != "sum":
        raise NotImplementedError(f"reduce: the gradient exists for op='sum' only, not {op!r}")
    return (broadcast_p.bind(ct, root=root, group=group, size=size),)


reduce_p = Primitive(
    "reduce", lambda x, root, op, group, size: _group_of(group, size).reduce(x, root, op),
    lambda x, root, op, group, size: x, _reduce_vjp, effect=True, communicates=True, shape_generic=False,
    aliasing=FRESH, batch=_per_element_batch)


def _barrier_impl(group, size):
    _group_of(group, size).barrier()
    return ()


barrier_p = Primitive("barrier", _barrier_impl, lambda group, size: [],
                      lambda ct, out, group, size: (), multiple_results=True, effect=True, communicates=True,
                      shape_generic=True, aliasing=NO_OUTPUT)


# ---- the non-blocking pair the compiler issues ----------------------------------------

class PendingArray(np.ndarray):
    """The packed buffer of a started all-reduce; ``pending`` says how to finish it."""
    pending = None


def _start_impl(*arrays, op, group, size):
    pending = _group_of(group, size).start_all_reduce(list(arrays), op)
    handle = pending.buffer.view(PendingArray)
    handle.pending = pending
    return handle


def _start_rule(*avals, op, group, size):
    dtypes = {a.dtype for a in avals}
    if len(dtypes) != 1:
        raise TypeError(f"all_reduce_start: a bucket holds one dtype, got "
                        f"{sorted(map(str, dtypes))}")
    total = sum(int(np.prod(a.shape, dtype=np.int64)) for a in avals)
    return ShapedArray((total,), avals[0].dtype)


def _no_grad(ct, out, *args, **params):
    return (None,) * len(args)


_COMPILER_ISSUED = "issued by the compiler's collective passes after capture, never traced"

all_reduce_start_p = Primitive("all_reduce_start", _start_impl, _start_rule, _no_grad,
                               effect=True, communicates=True, shape_generic=False, aliasing=FRESH,
                               no_batch=_COMPILER_ISSUED)


def _wait_impl(handle, shapes, op, group, size):
    pending = getattr(handle, "pending", None)
    if pending is None:
        raise RuntimeError("all_reduce_wait: its operand is not a started all-reduce")
    return tuple(pending.group.finish(pending) if pending.group is not None else
                 process_groups.unpack(pending.buffer, pending.shapes))


def _wait_rule(handle, shapes, op, group, size):
    return [ShapedArray(tuple(s), handle.dtype) for s in shapes]


all_reduce_wait_p = Primitive("all_reduce_wait", _wait_impl, _wait_rule, _no_grad,
                              multiple_results=True, effect=True, communicates=True, shape_generic=False,
                              aliasing=FRESH, no_batch=_COMPILER_ISSUED)


# ---- functional API ----------------------------------------------------------------------

def _tensor(x, who):
    if not isinstance(x, Tensor):
        raise TypeError(f"{who}: expected a Tensor, got {type(x).__name__}")
    return x


def _prepare(group, who):
    name = check_group_name(group, who)
    return name, process_groups.group(name).size


def _check_root(root, who, name):
    """The group rank of world rank ``root`` (MindSpore names roots by world rank)."""
    if isinstance(root, bool) or not isinstance(root, (int, np.integer)):
        raise TypeError(f"{who}: the root rank must be an int, got {root!r}")
    ranks = tuple(process_groups.group(name).world_ranks)
    if int(root) not in ranks:
        raise ValueError(f"{who}: rank {root} is not in group {name!r} (its ranks: "
                         f"{list(ranks)})")
    return ranks.index(int(root))


def all_reduce(tensor, op=ReduceOp.SUM, group=WORLD):
    """The element-wise reduction (``op``: sum, max, min, prod) of ``tensor`` over every
    rank of ``group``; every rank gets the result."""
    name, size = _prepare(group, "all_reduce")
    op = check_op(op, "all_reduce")
    return all_reduce_p.bind(_tensor(tensor, "all_reduce"), op=op, group=name, size=size)[0]


def all_reduce_many(tensors, op=ReduceOp.SUM, group=WORLD):
    """``all_reduce`` of several tensors in one message (a tuple of results)."""
    name, size = _prepare(group, "all_reduce")
    op = check_op(op, "all_reduce")
    tensors = [_tensor(t, "all_reduce") for t in tensors]
    if not tensors:
        return ()
    return tuple(all_reduce_p.bind(*tensors, op=op, group=name, size=size))


def all_gather(tensor, group=WORLD):
    """Every rank's ``tensor`` concatenated along axis 0, in rank order."""
    name, size = _prepare(group, "all_gather")
    return all_gather_p.bind(_tensor(tensor, "all_gather"), group=name, size=size)


def reduce_scatter(tensor, op=ReduceOp.SUM, group=WORLD):
    """The reduction over ranks of ``tensor``, split along axis 0: rank ``r`` gets part
    ``r`` (axis 0 must divide by the group size)."""
    name, size = _prepare(group, "reduce_scatter")
    op = check_op(op, "reduce_scatter")
    return reduce_scatter_p.bind(_tensor(tensor, "reduce_scatter"), op=op, group=name,
                                 size=size)


def broadcast(tensor, src=0, group=WORLD):
    """Rank ``src``'s ``tensor`` on every rank of ``group`` (``src``: a world rank)."""
    name, size = _prepare(group, "broadcast")
    root = _check_root(src, "broadcast", name)
    return broadcast_p.bind(_tensor(tensor, "broadcast"), root=root, group=name, size=size)


def reduce(tensor, dst=0, op=ReduceOp.SUM, group=WORLD):
    """The reduction over ranks of ``tensor`` on (world) rank ``dst``; zeros elsewhere."""
    name, size = _prepare(group, "reduce")
    root = _check_root(dst, "reduce", name)
    op = check_op(op, "reduce")
    return reduce_p.bind(_tensor(tensor, "reduce"), root=root, op=op, group=name, size=size)


def barrier(group=WORLD):
    """Wait until every rank of ``group`` gets here."""
    name, size = _prepare(group, "barrier")
    barrier_p.bind(group=name, size=size)


# ---- MindSpore's operator classes ------------------------------------------------------

class AllReduce:
    """``ops.AllReduce(op=ReduceOp.SUM, group=...)(x)``."""

    def __init__(self, op=ReduceOp.SUM, group=WORLD):
        self.op = check_op(op, "AllReduce")
        self.group = check_group_name(group, "AllReduce")

    def __call__(self, x):
        return all_reduce(x, self.op, self.group)


class AllGather:
    """``ops.AllGather(group=...)(x)``: concatenation along axis 0."""

    def __init__(self, group=WORLD):
        self.group = check_group_name(group, "AllGather")

    def __call__(self, x):
        return all_gather(x, self.group)


class ReduceScatter:
    """``ops.ReduceScatter(op=ReduceOp.SUM, group=...)(x)``."""

    def __init__(self, op=ReduceOp.SUM, group=WORLD):
        self.op = check_op(op, "ReduceScatter")
        self.group = check_group_name(group, "ReduceScatter")

    def __call__(self, x):
        return reduce_scatter(x, self.op, self.group)


class Broadcast:
    """``ops.Broadcast(root_rank, group=...)((x, ...))``: a tuple in, a tuple out."""

    def __init__(self, root_rank, group=WORLD):
        if isinstance(root_rank, bool) or not isinstance(root_rank, int):
            raise TypeError(f"Broadcast: 'root_rank' must be an int, got {root_rank!r}")
        self.root_rank = root_rank
        self.group = check_group_name(group, "Broadcast")

    def __call__(self, x):
        if isinstance(x, Tensor):
            return broadcast(x, self.root_rank, self.group)
        return tuple(broadcast(t, self.root_rank, self.group) for t in x)


class Barrier:
    """``ops.Barrier(group=...)()``."""

    def __init__(self, group=WORLD):
        self.group = check_group_name(group, "Barrier")

    def __call__(self):
        barrier(self.group)

