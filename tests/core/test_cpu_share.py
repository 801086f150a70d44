"""ops/cpu_share.py: threads follow the CPUs other processes leave free."""
import subprocess
import sys
import time

import numpy as np
import pytest

from tensorjit.ops import blas, cpu_share
from tensorjit.ops.tuning import machine, timing


class _Machine:
    """Fake readings: wall time, every process's busy CPU seconds, ours, and the working
    thread's seconds running and waiting for a CPU."""

    def __init__(self):
        self.wall = self.system = self.own = 0.0
        self.run_s = self.wait_s = 0.0

    def work(self, seconds, ours, crowded, others, step=0.01):
        """``seconds`` of work, calling fit_to_load every ``step``: our threads use ``ours``
        CPUs, the working thread waits ``crowded`` seconds per second it runs, other
        processes use ``others`` CPUs."""
        for _ in range(round(seconds / step)):
            self.wall += step
            self.own += ours * step
            self.system += (ours + others) * step
            self.run_s += step / (1 + crowded)
            self.wait_s += step * crowded / (1 + crowded)
            cpu_share.fit_to_load()
        return cpu_share.threads()

    def idle(self, seconds, others):
        self.wall += seconds
        self.system += others * seconds


@pytest.fixture
def fake(monkeypatch):
    box = _Machine()
    monkeypatch.setattr(cpu_share.time, "monotonic", lambda: box.wall)
    monkeypatch.setattr(timing, "system_busy_seconds", lambda: box.system)
    monkeypatch.setattr(timing, "own_cpu_seconds", lambda: box.own)
    monkeypatch.setattr(cpu_share, "_thread_times", lambda tid: (box.run_s, box.wait_s))
    monkeypatch.setattr(machine, "usable_cpus", lambda: 4)
    for name in cpu_share.THREAD_LIMITS:
        monkeypatch.delenv(name, raising=False)
    box.set_to = []
    monkeypatch.setattr(cpu_share, "_set_blas_threads", box.set_to.append)
    monkeypatch.setattr(cpu_share, "_share", cpu_share._Share())
    return box


def test_threads_leave_crowded_cores_and_take_free_ones_back(fake):
    assert fake.work(1.0, 4, 0.0, 0.1) == 4          # quiet
    assert fake.work(0.6, 4, 0.5, 1.0) == 3          # the working thread queues for a CPU
    assert fake.work(0.6, 3, 0.5, 1.5) == 2          # still crowded: one more
    assert fake.work(1.0, 2, 0.05, 1.6) == 2         # not crowded now, but no core free
    assert fake.work(1.0, 2, 0.0, 1.2) == 3          # three quarters of a core free
    assert fake.work(1.0, 3, 0.0, 0.1) == 4
    assert fake.set_to == [3, 2, 3, 4]


def test_what_others_do_while_we_are_idle_does_not_count(fake):
    fake.work(1.0, 4, 0.0, 0.0)
    fake.work(0.6, 4, 1.0, 3.0)
    fake.work(0.6, 3, 1.0, 3.0)
    assert cpu_share.threads() == 2
    for _ in range(5):             # a neighbour keeps every core busy while we wait ...
        fake.idle(0.5, others=4.0)
        fake.work(0.3, 2, 0.0, 0.1)     # ... and leaves room while we work
    assert cpu_share.threads() == 4
    for _ in range(5):             # and the opposite: idle when they are away
        fake.idle(0.5, others=0.0)
        fake.work(0.3, 4, 0.1, 1.0)
    assert cpu_share.threads() == 4


def test_threads_grow_no_further_than_the_environment_allows(fake, monkeypatch):
    monkeypatch.setenv("MKL_NUM_THREADS", "2")     # as an MPI launcher sets per rank
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    assert cpu_share.threads() == 2
    assert fake.work(0.6, 2, 0.5, 1.0) == 1          # crowded: one thread less
    assert fake.work(2.0, 1, 0.0, 0.0) == 2          # three cores free, but 2 is the limit
    assert fake.set_to == [1, 2]


def test_never_fewer_than_one_thread(fake):
    fake.work(5.0, 1, 3.0, 8.0)
    assert cpu_share.threads() == 1


@pytest.mark.skipif(machine.usable_cpus() < 2 or not cpu_share._thread_times(
    __import__("threading").get_native_id()), reason="needs two CPUs and Linux's schedstat")
def test_products_beside_a_busy_neighbour_leave_it_a_core():
    a = np.ones((512, 512), np.float32)
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(machine.usable_cpus())]
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and cpu_share.threads() >= machine.usable_cpus():
            blas.matmul(a, a)
        assert cpu_share.threads() < machine.usable_cpus()
        import threadpoolctl
        counts = [lib.num_threads for lib in threadpoolctl.ThreadpoolController().lib_controllers
                  if lib.user_api == "blas"]
        assert counts and max(counts) == cpu_share.threads(), counts
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def test_a_fixed_thread_count_does_not_follow_the_load(fake, monkeypatch):
    monkeypatch.setenv("TENSORJIT_NUM_THREADS", "3")
    assert fake.work(1.0, 3, 2.0, 3.0) == 3
    assert fake.set_to == [3]
    monkeypatch.setattr(cpu_share, "_share", cpu_share._Share())
    monkeypatch.setenv("TENSORJIT_NUM_THREADS", "many")
    with pytest.raises(ValueError, match="TENSORJIT_NUM_THREADS='many'"):
        cpu_share.fit_to_load()
