"""Waiting for a collective with a deadline, and finding out which rank is missing.

``Watch.wait(request)`` polls the request (spinning briefly, then sleeping up to 1 ms
between polls so a waiting rank leaves the core to the others). While it waits it
answers questions from other ranks on its own communicator (a duplicate of the group's,
so these messages never mix with the data). Past the deadline it asks every other rank
where it is; see ``faults.py`` for the whole story.
"""
import os
import time

import numpy as np

from . import faults

QUERY, REPLY = 1, 2
POLL_EVERY = 0.01          # seconds between looks at the question channel while waiting
# Open MPI moves a non-blocking collective along only inside MPI calls: the first part of
# a wait polls without pause (a large all-reduce is many rounds of messages)
SPIN = float(os.environ.get("TENSORJIT_COMM_SPIN", "0.05"))


class Watch:
    def __init__(self, group, comm):
        self.group = group
        self.comm = comm
        self.MPI = group.MPI
        self.sent = []           # requests of answers and questions in flight
        self.replies = {}        # group rank -> (seq, waiting) from the last question

    def wait(self, request, what, seq):
        started = time.perf_counter()
        deadline = started + faults.timeout()
        spin_until = started + SPIN
        naps = 0
        next_look = started + POLL_EVERY
        while True:
            now = time.perf_counter()
            try:
                if request.Test():
                    return
                if now >= next_look:       # (a lost process may show here first)
                    self.answer()
                    next_look = now + POLL_EVERY
            except self.MPI.Exception as exc:
                raise self._failed(exc, what, seq) from None
            if now >= deadline:
                if self._look_for_missing(request, what, seq):
                    return
            if now > spin_until:       # a long wait: leave the core to others
                naps += 1
                time.sleep(min(1e-3, naps * 1e-5))

    # ---- questions between ranks ---------------------------------------------------------
    def answer(self):
        """Answer every question waiting for this rank; keep the replies that arrived."""
        MPI = self.MPI
        status = MPI.Status()
        while self.comm.Iprobe(source=MPI.ANY_SOURCE, tag=MPI.ANY_TAG, status=status):
            message = np.empty(2, np.int64)
            self.comm.Recv(message, source=status.Get_source(), tag=status.Get_tag())
            source = status.Get_source()
            if status.Get_tag() == QUERY:
                busy = self.group.current != "idle"
                answer = np.array([self.group.seq, 1 if busy else 0], np.int64)
                self.sent.append(self.comm.Isend(answer, dest=source, tag=REPLY))
            else:
                self.replies[source] = (int(message[0]), bool(message[1]))
        self.sent = [r for r in self.sent if not r.Test()]

    def _look_for_missing(self, request, what, seq):
        """Past the deadline: ask the other ranks where they are. Returns True if the
        collective completed meanwhile; raises a ``CommunicationError`` otherwise."""
        waited = faults.timeout()
        grace = min(30.0, max(2.0, 0.25 * waited))
        others = [r for r in range(self.group.size) if r != self.group.rank]
        self.replies = {}
        question = np.array([seq, 0], np.int64)
        for r in others:
            self.sent.append(self.comm.Isend(question, dest=r, tag=QUERY))
        until = time.perf_counter() + grace
        while time.perf_counter() < until and len(self.replies) < len(others):
            try:
                if request.Test():
                    return True
            except self.MPI.Exception as exc:
                raise self._failed(exc, what, seq) from None
            self.answer()
            time.sleep(1e-3)
        world = self.group.world_ranks
        lost = [world[r] for r in others if r not in self.replies]
        elsewhere = {world[r]: s for r, (s, _) in self.replies.items() if s != seq}
        where = f"{what} #{seq} on group {self.group.name!r}"
        if lost:
            names = ", ".join(map(str, lost))
            message = (f"lost rank {names}: rank {world[self.group.rank]} waited {waited:g} s "
                       f"(TENSORJIT_COMM_TIMEOUT) in {where} and rank {names} neither "
                       f"reached it nor answered within {grace:g} s (hung, stopped or dead)")
        elif elsewhere:
            detail = ", ".join(f"rank {r} is at collective #{s}" for r, s in elsewhere.items())
            message = (f"ranks diverged: rank {world[self.group.rank]} waited {waited:g} s "
                       f"in {where} while {detail}: every rank must call the same "
                       f"collectives in the same order")
        else:
            message = (f"{where} did not complete within {waited:g} s although every rank "
                       f"reached it")
        raise faults.fault(f"tensorjit.communication: {message}")

    def _failed(self, exc, what, seq):
        """MPI reported a failure (ULFM: a process died): name the failed ranks."""
        world = self.group.world_ranks
        failed = []
        try:
            group = self.group.comm.Get_failed()
            n = group.Get_size()
            ranks = self.MPI.Group.Translate_ranks(group, list(range(n)),
                                                   self.group.comm.Get_group())
            failed = sorted(world[r] for r in ranks if r is not None and r >= 0)
        except Exception:          # an MPI without fault tolerance cannot tell
            pass
        who = (f"lost rank {', '.join(map(str, failed))}: its process failed"
               if failed else "a rank was lost")
        return faults.fault(f"tensorjit.communication: {who} during {what} #{seq} on group "
                            f"{self.group.name!r} ({exc.Get_error_string().strip()})")
