"""What happens when a rank is lost: errors that name it, and an exit that cannot hang.

A collective waits in a polling loop (``mpi_group.MPIGroup.wait``) with a deadline, so no
rank ever blocks forever:

* a rank whose **process dies** is reported by MPI itself when the job runs with ULFM
  fault tolerance (``python -m tensorjit.run`` launches with ``--with-ft ulfm``): the
  pending request fails with ``MPI_ERR_PROC_FAILED`` and ``Comm.Get_failed()`` names the
  rank. (Under a plain ``mpirun`` without it, ``mpirun`` itself stops the job and names the
  rank that died.)
* a rank that **hangs** (or is too slow) makes the others' collective pass its deadline
  (``TENSORJIT_COMM_TIMEOUT`` seconds, default 300, or ``init(timeout=...)`` /
  ``set_timeout``). The waiting rank then asks every other rank, on a separate duplicate of
  the group's communicator, which collective it is in; ranks waiting in a collective
  answer from their polling loop. Ranks that do not answer within a short grace period
  are named as lost; ranks that answer from another collective are named as diverged.

The error is a ``CommunicationError``. A process that ends on one (uncaught) leaves with
``os._exit(1)`` instead of ``MPI_Finalize``, which would wait for the lost rank forever;
mpirun then sees a rank exit non-zero without finalizing and stops the others (the hung
rank included), and its exit status is non-zero. (``MPI_Abort`` would stop them too, but
under ULFM mpirun then exits with status 0.)
"""
import atexit
import os
import sys

DEFAULT_TIMEOUT = 300.0
_state = {"timeout": None, "fault": None, "hooked": False}


class CommunicationError(RuntimeError):
    """A collective could not complete: a rank was lost, diverged or sent other shapes."""


def timeout():
    """Seconds a collective may wait before the missing ranks are looked for."""
    if _state["timeout"] is not None:
        return _state["timeout"]
    raw = os.environ.get("TENSORJIT_COMM_TIMEOUT")
    if raw is None:
        return DEFAULT_TIMEOUT
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"TENSORJIT_COMM_TIMEOUT must be a number of seconds, got {raw!r}") \
            from None
    if value <= 0:
        raise ValueError(f"TENSORJIT_COMM_TIMEOUT must be > 0, got {raw!r}")
    return value


def set_timeout(seconds):
    """How long (seconds) a collective waits for the other ranks before it reports the
    ranks it is missing (``None``: back to ``$TENSORJIT_COMM_TIMEOUT`` or 300 s)."""
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0:
            raise ValueError(f"set_timeout: seconds must be a positive number, got {seconds!r}")
        seconds = float(seconds)
    _state["timeout"] = seconds


def fault(message):
    """A ``CommunicationError`` for ``message``, remembered so the process exits at once
    (without finalizing MPI)."""
    _state["fault"] = message
    return CommunicationError(message)


def install_exit_hook():
    """After ``init()``: on exit after a fault, leave at once instead of finalizing."""
    if not _state["hooked"]:
        atexit.register(_exit_hook)     # runs before mpi4py's finalize (registered earlier)
    _state["hooked"] = True


def _exit_hook():
    if _state["fault"] is None:
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(1)
