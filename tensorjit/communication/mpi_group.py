"""A communication group on MPI (mpi4py): the collectives the kernels of
``ops/collective.py`` call, each checked and bounded in time.

Every collective:
  1. counts itself (``seq``: the n-th collective of this group on this rank) and checks,
     with one small all-gather, that every rank is at the same collective with the same
     kind, operation, dtype and shapes -- MPI itself does not check, and mismatched
     counts corrupt memory or hang; a mismatch raises a ``CommunicationError`` naming
     each rank's shapes on every rank;
  2. runs as a non-blocking MPI call (``Iallreduce``, ``Iallgather``, ...) finished by
     ``wait``: a polling loop with a deadline that answers other ranks' questions and
     reports lost ranks (``faults.py``, ``watch.py``).

Float16 and bfloat16 travel as float32 (MPI has no such types); bool cannot be reduced.
"""
import time
import zlib

import numpy as np

from ..ops.process_groups import Pending, pack, unpack
from . import faults
from .watch import Watch

_TRANSPORT = {np.dtype(np.float16): np.dtype(np.float32)}


def _transport_dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype.name == "bfloat16":
        return np.dtype(np.float32)
    return _TRANSPORT.get(dtype, dtype)


class Stats:
    """What this process spent in communication (``communication.stats()``)."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.collectives = 0
        self.bytes = 0
        self.wait_seconds = 0.0

    def as_dict(self):
        return {"collectives": self.collectives, "bytes": self.bytes,
                "wait_seconds": self.wait_seconds}


STATS = Stats()


class MPIGroup:
    def __init__(self, MPI, comm, name, world_ranks):
        self.MPI = MPI
        self.comm = comm
        self.name = name
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()
        self.world_ranks = tuple(world_ranks)
        self.seq = 0
        self.current = "idle"
        self.ops = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN, "prod": MPI.PROD}
        self.watch = Watch(self, comm.Dup())

    # ---- the collectives ----------------------------------------------------------------
    def all_reduce(self, arrays, op):
        return self.finish(self.start_all_reduce(arrays, op))

    def start_all_reduce(self, arrays, op):
        dtype = np.result_type(*arrays)
        self._reducible(dtype, "all_reduce")
        shapes = tuple(np.shape(a) for a in arrays)
        self._begin("all_reduce", op, dtype, shapes)
        buffer = pack(arrays, _transport_dtype(dtype))
        request = self.comm.Iallreduce(self.MPI.IN_PLACE, buffer, op=self.ops[op])
        STATS.bytes += buffer.nbytes
        pending = Pending(buffer, shapes, request, self)
        pending.kind = ("all_reduce", self.seq, dtype)
        return pending

    def finish(self, pending):
        kind, seq, dtype = pending.kind
        self.wait(pending.request, kind, seq)
        out = unpack(pending.buffer, pending.shapes)
        return [a.astype(dtype) for a in out] if pending.buffer.dtype != dtype else out

    def all_gather(self, array):
        array = np.asarray(array)
        self._begin("all_gather", None, array.dtype, (array.shape,))
        send = np.ascontiguousarray(array, dtype=_transport_dtype(array.dtype))
        out = np.empty((self.size,) + send.shape, send.dtype)
        self._run(self.comm.Iallgather(send, out), "all_gather", send.nbytes)
        out = out.reshape((self.size * array.shape[0],) + array.shape[1:])
        return out.astype(array.dtype, copy=False)

    def reduce_scatter(self, array, op):
        array = np.asarray(array)
        self._reducible(array.dtype, "reduce_scatter")
        self._begin("reduce_scatter", op, array.dtype, (array.shape,))
        send = np.ascontiguousarray(array, dtype=_transport_dtype(array.dtype))
        out = np.empty((array.shape[0] // self.size,) + array.shape[1:], send.dtype)
        self._run(self.comm.Ireduce_scatter_block(send, out, op=self.ops[op]),
                  "reduce_scatter", send.nbytes)
        return out.astype(array.dtype, copy=False)

    def broadcast(self, array, root):
        array = np.asarray(array)
        self._begin("broadcast", root, array.dtype, (array.shape,))
        buffer = np.array(array, dtype=_transport_dtype(array.dtype), copy=True, order="C")
        self._run(self.comm.Ibcast(buffer, root=root), "broadcast", buffer.nbytes)
        return buffer.astype(array.dtype, copy=False)

    def reduce(self, array, root, op):
        array = np.asarray(array)
        self._reducible(array.dtype, "reduce")
        self._begin("reduce", (root, op), array.dtype, (array.shape,))
        send = np.ascontiguousarray(array, dtype=_transport_dtype(array.dtype))
        out = np.zeros_like(send)
        self._run(self.comm.Ireduce(send, out if self.rank == root else None,
                                    op=self.ops[op], root=root), "reduce", send.nbytes)
        return out.astype(array.dtype, copy=False)

    def barrier(self):
        self._begin("barrier", None, None, ())
        self._run(self.comm.Ibarrier(), "barrier", 0)

    # ---- checks, waiting ------------------------------------------------------------------
    def _reducible(self, dtype, what):
        if np.dtype(dtype) == np.bool_:
            raise TypeError(f"{what}: bool tensors cannot be reduced; cast them to an "
                            f"integer type")

    def _run(self, request, what, nbytes):
        STATS.bytes += nbytes
        self.wait(request, what, self.seq)

    def _begin(self, kind, op, dtype, shapes):
        """Count this collective and check every rank calls the same one."""
        self.seq += 1
        STATS.collectives += 1
        detail = f"{kind} {op} {dtype} {shapes}"
        mine = np.array([self.seq, zlib.crc32(detail.encode())], np.int64)
        everyone = np.empty((self.size, 2), np.int64)
        self.wait(self.comm.Iallgather(mine, everyone), kind, self.seq)
        if (everyone == mine).all():
            return
        details = self.comm.allgather(f"{kind} #{self.seq} ({_describe(op, dtype, shapes)})")
        lines = "; ".join(f"rank {self.world_ranks[r]}: {d}" for r, d in enumerate(details))
        raise faults.CommunicationError(
            f"collectives do not match across the ranks of group {self.name!r}: {lines}. "
            f"Every rank must call the same collectives in the same order with tensors of "
            f"the same shapes and dtypes")

    def wait(self, request, what, seq):
        """Finish ``request`` or raise a ``CommunicationError`` naming the lost ranks."""
        started = time.perf_counter()
        self.current = f"{what} #{seq}"
        try:
            self.watch.wait(request, what, seq)
        finally:
            self.current = "idle"
            STATS.wait_seconds += time.perf_counter() - started

    def free(self):
        for comm in (self.watch.comm, self.comm):
            try:
                comm.Free()
            except Exception:      # an MPI that is finalized or a comm already freed
                pass


def _describe(op, dtype, shapes):
    parts = [str(dtype)] if dtype is not None else []
    if op is not None:
        parts.append(f"op={op}")
    parts += [f"shape {tuple(s)}" for s in shapes]
    return ", ".join(parts) if parts else "no data"
