"""A communication group on MPI (mpi4py): the collectives the kernels of
``ops/collective.py`` call, each checked and bounded in time.

Every collective is a non-blocking MPI call (``Iallreduce``, ``Iallgather``, ...) posted
together with a small all-gather of its *signature*: its number on this group (``seq``),
a CRC of its kind, operation, dtype and shapes, and that description as text. MPI itself
does not check that ranks agree (mismatched counts give truncation errors, garbage or a
hang), so the signatures are compared first: a mismatch raises a ``CommunicationError``
naming every rank's shapes, on every rank. Both requests are finished by ``wait``: a
polling loop with a deadline that answers other ranks' questions and reports lost ranks
(``faults.py``, ``watch.py``). Posting the check with the data costs no extra round trip.

Float16 and bfloat16 travel as float32 (MPI has no such types); bool cannot be reduced.
"""
import time
import zlib

import numpy as np

from ..ops.process_groups import Pending, pack, unpack
from . import faults
from .watch import Watch

_TRANSPORT = {np.dtype(np.float16): np.dtype(np.float32)}
SIGNATURE_WORDS = 32        # seq, CRC, then the description's first 240 bytes


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
        self.in_flight = []      # requests of started, unfinished all-reduces

    # ---- the collectives ----------------------------------------------------------------
    def all_reduce(self, arrays, op):
        return self.finish(self.start_all_reduce(arrays, op))

    def start_all_reduce(self, arrays, op):
        dtype = np.result_type(*arrays)
        self._reducible(dtype, "all_reduce")
        shapes = tuple(np.shape(a) for a in arrays)
        signature = self._signature("all_reduce", op, dtype, shapes)
        buffer = pack(arrays, _transport_dtype(dtype))
        request = self.comm.Iallreduce(self.MPI.IN_PLACE, buffer, op=self.ops[op])
        STATS.bytes += buffer.nbytes
        # Open MPI moves non-blocking collectives along only inside MPI calls: each start
        # also gives the buckets started before it a turn
        self.in_flight = [r for r in self.in_flight if not self._done(r)]
        self.in_flight.append(request)
        pending = Pending(buffer, shapes, request, self)
        pending.kind = (signature, dtype)
        return pending

    def _done(self, request):
        try:
            return request.Test()
        except self.MPI.Exception:     # a failure: reported by the wait that finishes it
            return True

    def finish(self, pending):
        signature, dtype = pending.kind
        self._finish(signature, pending.request, "all_reduce")
        out = unpack(pending.buffer, pending.shapes)
        return [a.astype(dtype) for a in out] if pending.buffer.dtype != dtype else out

    def all_gather(self, array):
        array = np.asarray(array)
        signature = self._signature("all_gather", None, array.dtype, (array.shape,))
        send = np.ascontiguousarray(array, dtype=_transport_dtype(array.dtype))
        out = np.empty((self.size,) + send.shape, send.dtype)
        self._run(signature, self.comm.Iallgather(send, out), "all_gather", send.nbytes)
        out = out.reshape((self.size * array.shape[0],) + array.shape[1:])
        return out.astype(array.dtype, copy=False)

    def reduce_scatter(self, array, op):
        array = np.asarray(array)
        self._reducible(array.dtype, "reduce_scatter")
        signature = self._signature("reduce_scatter", op, array.dtype, (array.shape,))
        send = np.ascontiguousarray(array, dtype=_transport_dtype(array.dtype))
        out = np.empty((array.shape[0] // self.size,) + array.shape[1:], send.dtype)
        self._run(signature, self.comm.Ireduce_scatter_block(send, out, op=self.ops[op]),
                  "reduce_scatter", send.nbytes)
        return out.astype(array.dtype, copy=False)

    def broadcast(self, array, root):
        array = np.asarray(array)
        signature = self._signature("broadcast", f"root={root}", array.dtype, (array.shape,))
        buffer = np.array(array, dtype=_transport_dtype(array.dtype), copy=True, order="C")
        self._run(signature, self.comm.Ibcast(buffer, root=root), "broadcast", buffer.nbytes)
        return buffer.astype(array.dtype, copy=False)

    def reduce(self, array, root, op):
        array = np.asarray(array)
        self._reducible(array.dtype, "reduce")
        signature = self._signature("reduce", f"{op}, root={root}", array.dtype, (array.shape,))
        send = np.ascontiguousarray(array, dtype=_transport_dtype(array.dtype))
        out = np.zeros_like(send)
        self._run(signature, self.comm.Ireduce(send, out if self.rank == root else None,
                                    op=self.ops[op], root=root), "reduce", send.nbytes)
        return out.astype(array.dtype, copy=False)

    def barrier(self):
        signature = self._signature("barrier", None, None, ())
        self._run(signature, self.comm.Ibarrier(), "barrier", 0)

    # ---- checks, waiting ------------------------------------------------------------------
    def _reducible(self, dtype, what):
        if np.dtype(dtype) == np.bool_:
            raise TypeError(f"{what}: bool tensors cannot be reduced; cast them to an "
                            f"integer type")

    def _run(self, signature, request, what, nbytes):
        STATS.bytes += nbytes
        self._finish(signature, request, what)

    def _signature(self, kind, op, dtype, shapes):
        """Count this collective and post the all-gather of its signature."""
        self.seq += 1
        STATS.collectives += 1
        text = f"{kind} #{self.seq} ({_describe(op, dtype, shapes)})"
        mine = np.zeros(SIGNATURE_WORDS, np.int64)
        mine[0], mine[1] = self.seq, zlib.crc32(text.encode())
        raw = text.encode()[:8 * (SIGNATURE_WORDS - 2)]
        mine.view(np.uint8)[16:16 + len(raw)] = np.frombuffer(raw, np.uint8)
        everyone = np.empty((self.size, SIGNATURE_WORDS), np.int64)
        return self.seq, mine, everyone, self.comm.Iallgather(mine, everyone)

    def _finish(self, signature, request, what):
        """Check the signatures (the data request waits if they differ), then the data."""
        seq, mine, everyone, check = signature
        self.wait(check, what, seq)
        if not (everyone[:, :2] == mine[:2]).all():
            lines = "; ".join(f"rank {self.world_ranks[r]}: {_text(row)}"
                              for r, row in enumerate(everyone))
            # the data collective was posted with mismatched sizes: MPI's state is broken
            raise faults.fault(
                f"collectives do not match across the ranks of group {self.name!r}: {lines}. "
                f"Every rank must call the same collectives in the same order with tensors "
                f"of the same shapes and dtypes")
        self.wait(request, what, seq)

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


def _text(signature):
    """The description carried by a signature (``_signature``)."""
    return signature.view(np.uint8)[16:].tobytes().rstrip(bytes(1)).decode(errors="replace")


def _describe(op, dtype, shapes):
    parts = [str(dtype)] if dtype is not None else []
    if op is not None:
        parts.append(f"op={op}")
    parts += [f"shape {tuple(s)}" for s in shapes]
    return ", ".join(parts) if parts else "no data"
