"""A rank that dies or hangs: the others stop within a bounded time, naming it."""
import os
import signal
import time

import pytest

from conftest import needs_mpi, mpirun_command, launcher_command, WORKERS

pytestmark = needs_mpi
WORKER = os.path.join(WORKERS, "faults.py")


def _progress(scratch, rank):
    try:
        pid, step = open(os.path.join(scratch, f"rank{rank}")).read().split()
        return int(pid), int(step)
    except (OSError, ValueError):
        return None, -1


def _wait_for_steps(job, scratch, steps, limit=240):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        progress = [_progress(scratch, r) for r in (0, 1)]
        for pid, _ in progress:
            if pid:
                job.pids.add(pid)
        if all(step >= steps for _, step in progress):
            return progress
        if job.proc.poll() is not None:
            pytest.fail(f"the job ended early:\n{job.proc.stdout.read()[-4000:]}")
        time.sleep(0.2)
    pytest.fail(f"the ranks did not reach step {steps} within {limit} s")


@pytest.mark.parametrize("launcher", ["tensorjit.run", "mpirun"])
def test_killed_rank_is_named_by_the_survivor_within_60_s(job, scratch, launcher):
    cmd = (launcher_command(2, WORKER, "kill", str(scratch)) if launcher == "tensorjit.run"
           else mpirun_command(2, WORKER, "kill", str(scratch)))
    running = job(cmd)
    (pid0, _), (pid1, _) = _wait_for_steps(running, scratch, 3)
    os.kill(pid1, signal.SIGKILL)
    code, out, seconds = running.wait(120)
    assert seconds < 60, f"took {seconds:.0f} s"
    assert code != 0
    if launcher == "tensorjit.run":   # ULFM: rank 0 itself reports which rank it lost
        assert "tensorjit.communication: lost rank 1: its process failed" in out, out[-4000:]
    else:                             # plain mpirun stops the job and names the rank
        assert "rank 1" in out and "signal 9" in out, out[-4000:]


def test_hung_rank_is_named_after_the_timeout(job, scratch):
    cmd = launcher_command(2, WORKER, "hang", str(scratch), options=("--timeout", "5"))
    running = job(cmd)
    _wait_for_steps(running, scratch, 3)
    code, out, seconds = running.wait(120)
    assert seconds < 60, f"took {seconds:.0f} s"
    assert code != 0
    assert "tensorjit.communication: lost rank 1: rank 0 waited 5 s" in out, out[-4000:]
