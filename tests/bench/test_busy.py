"""Background load (``bench/busy.py``): a load really takes CPU while it runs, and once it
is stopped -- normally, on an exception, on Ctrl-C, or because the benchmark itself was
killed -- nothing of its process group is left."""
import os
import signal
import subprocess
import sys
import time

import pytest

from tensorjit.bench import busy

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc (Linux)")


def group_members(pgid):
    """Live (not zombie) processes in process group ``pgid``."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:   # state, then ppid, then pgrp
            found.append(int(name))
    return found


def gone(pgid, within=10.0):
    deadline = time.monotonic() + within
    while group_members(pgid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def busy_for(neighbour, seconds=0.6):
    before = neighbour.cpu_time()
    time.sleep(seconds)
    return neighbour.cpu_time() - before


def test_spin_load_takes_a_core_and_is_gone_after():
    with busy.load("spin") as neighbour:
        assert neighbour.info == {"ready": "spin"} and neighbour.running()
        assert busy.running() == [neighbour]
        assert busy_for(neighbour) > 0.15            # a shared machine: not a whole core
    assert not neighbour.running() and busy.running() == []
    assert gone(neighbour.pid)
    assert neighbour.cores > 0.1 and neighbour.wall_s > 0.5
    neighbour.stop()                                   # twice is harmless


def test_blas_load_runs_tensorjit_on_its_own_threads():
    with busy.load("blas") as neighbour:
        info = neighbour.info
        assert info["ready"] == "blas" and info["blas"] in ("mkl", "numpy")
        assert info["numba_threads"] >= 1 and info["numba_threading_layer"]
        assert busy_for(neighbour) > 0.15
        pid = neighbour.pid
    assert gone(pid)                  # with whatever it started (the compile server)


@pytest.mark.parametrize("raised", [RuntimeError, KeyboardInterrupt])
def test_load_is_killed_when_the_measurement_raises(raised):
    with pytest.raises(raised):
        with busy.load("spin") as neighbour:
            raise raised("measurement failed")
    assert busy.running() == [] and gone(neighbour.pid)


def test_load_kills_itself_when_the_benchmark_is_killed():
    parent = subprocess.Popen(
        [sys.executable, "-c", "import time\nfrom tensorjit.bench import busy\n"
         "print(busy.Load('spin').pid, flush=True)\ntime.sleep(120)"],
        stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        pid = int(parent.stdout.readline())
        assert group_members(pid)
    finally:
        parent.kill()                 # SIGKILL: no atexit, no finally in the benchmark
        parent.wait()
        parent.stdout.close()
    assert gone(pid)


def test_unknown_load():
    with pytest.raises(ValueError, match="known: spin, blas"):
        busy.Load("disk")
