"""Data-parallel training: ``DistributedGradReducer`` and rank 0's parameters for all.

Under ``set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL)`` on more than
one rank, each step's gradients are reduced across ranks exactly once:

* by a ``DistributedGradReducer`` (``grads = reducer(grads)``, MindSpore's data-parallel
  loop; ``TrainOneStepCell`` makes one), or
* when no reducer was made for the optimizer's parameters, by the optimizer itself before
  it updates (``Optimizer._check_gradients``), so the plain ``value_and_grad`` + optimizer
  loop trains data-parallel too.

``gradients_mean=True`` divides the sum by the number of ranks. The reducer issues one
``all_reduce`` of many gradients per bucket (``comm_fusion`` MB, gradients of the last
layers first, as they become ready in the backward pass); inside ``jit`` the
``collectives`` pass re-plans the buckets on the graph and makes them non-blocking.

Parameters are broadcast from rank 0 when a data-parallel optimizer or reducer is made
(``parameter_broadcast``, on by default), so every rank starts from the same weights.
"""
import weakref

import numpy as np

from .. import context
from .. import ops
from ..ops import process_groups
from ..ops.collective import all_reduce_many
from ..ops.process_groups import WORLD
from ..state import state
from .cell import Cell

__all__ = ["DistributedGradReducer", "broadcast_parameters"]

_reducers = {}          # id(parameter) -> (weak parameter, weak reducer made for it)
_broadcast_done = {}    # id(parameter) -> weak parameter, once broadcast from rank 0


def _alive(table, param):
    entry = table.get(id(param))
    if entry is None:
        return False
    ref = entry[0] if isinstance(entry, tuple) else entry
    if ref() is not param:
        table.pop(id(param), None)
        return False
    return isinstance(entry, weakref.ref) or entry[1]() is not None


def data_parallel_group_size(group=WORLD):
    """The number of ranks gradients are reduced over (1: nothing to do)."""
    if not context.data_parallel():
        return 1
    return process_groups.group(group).size


def broadcast_parameters(parameters, root=0, group=WORLD):
    """Overwrite ``parameters`` with rank ``root``'s values on every rank (eagerly, one
    message per dtype). Call it on every rank, outside ``jit``."""
    if state.capture is not None:
        raise RuntimeError("broadcast_parameters: call it outside jit (it changes the "
                           "parameters' values before the graph reads them)")
    comm = process_groups.group(group)
    params = list(parameters)
    if comm.size == 1 or not params:
        return
    by_dtype = {}
    for p in params:
        by_dtype.setdefault(np.dtype(p.dtype).str, []).append(p)
    for key in sorted(by_dtype):
        members = by_dtype[key]
        flat = process_groups.pack([np.asarray(p._data) for p in members], np.dtype(key))
        flat = comm.broadcast(flat, root)
        for p, value in zip(members, process_groups.unpack(flat, [tuple(p.shape)
                                                                  for p in members])):
            p.set_data(ops.constant(value.copy()))
            _broadcast_done[id(p)] = weakref.ref(p)


def broadcast_if_data_parallel(parameters):
    """``parameter_broadcast``: rank 0's values for parameters not broadcast yet."""
    if data_parallel_group_size() == 1 or not context.get_auto_parallel_context(
            "parameter_broadcast") or state.capture is not None:
        return
    broadcast_parameters([p for p in parameters if not _alive(_broadcast_done, p)])


def has_reducer(parameters):
    """Was a ``DistributedGradReducer`` made for any of ``parameters`` (and is alive)?"""
    return any(_alive(_reducers, p) for p in parameters)


class DistributedGradReducer(Cell):
    """All-reduce a tuple of gradients across the ranks of ``group`` (MindSpore's
    ``nn.DistributedGradReducer``). ``mean``: divide by ``degree`` (default: the
    ``gradients_mean`` of the parallel context; ``degree`` defaults to the group size)."""

    def __init__(self, parameters, mean=None, degree=None, fusion_type=1, group=WORLD):
        super().__init__(auto_prefix=False)
        params = list(parameters)
        self.group = process_groups.check_group_name(group, "DistributedGradReducer")
        size = process_groups.group(self.group).size
        if degree is None:
            degree = size
        if isinstance(degree, bool) or not isinstance(degree, int) or degree <= 0:
            raise ValueError(f"DistributedGradReducer: 'degree' must be a positive int, got "
                             f"{degree!r}")
        self.mean = context.get_auto_parallel_context("gradients_mean") if mean is None \
            else bool(mean)
        self.degree = degree
        self.fusion_type = fusion_type
        self.shapes = tuple(tuple(p.shape) for p in params)
        me = weakref.ref(self)
        for p in params:
            _reducers[id(p)] = (weakref.ref(p), me)
        broadcast_if_data_parallel(params)

    def construct(self, grads):
        grads = tuple(grads)
        if len(grads) != len(self.shapes):
            raise ValueError(f"DistributedGradReducer: got {len(grads)} gradients for "
                             f"{len(self.shapes)} parameters")
        return reduce_gradients(grads, self.group, self.mean, self.degree)


def reduce_gradients(grads, group=WORLD, mean=None, degree=None):
    """``grads`` summed over the ranks of ``group`` (divided by ``degree``, default the
    group size, if ``mean``; default: the context's ``gradients_mean``), in buckets."""
    size = process_groups.group(group).size
    mean = context.get_auto_parallel_context("gradients_mean") if mean is None else mean
    degree = size if degree is None else degree
    reduced = list(grads)
    if size > 1:
        # the last layers' gradients are ready first in the backward pass
        order = list(range(len(grads)))[::-1]
        nbytes = [int(np.prod(grads[i].shape)) * np.dtype(grads[i].dtype).itemsize
                  for i in order]
        dtypes = [grads[i].dtype for i in order]
        for bucket in process_groups.plan_buckets(nbytes, dtypes,
                                                  context.allreduce_bucket_bytes()):
            indices = [order[k] for k in bucket]
            outs = all_reduce_many([grads[i] for i in indices], group=group)
            for i, out in zip(indices, outs):
                reduced[i] = out
    if mean and degree != 1:
        reduced = [ops.mul(g, 1.0 / degree) for g in reduced]
    return tuple(reduced)
