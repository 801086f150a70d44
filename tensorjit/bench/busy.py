"""Background load for the benchmarks: other work on the same cores, in processes of its own.

    with busy.load("blas") as neighbour:
        ...                         # measured beside it
    neighbour.cores                 # cores it kept busy meanwhile (CPU time / wall time)

Scenarios (``SCENARIOS``):

* ``spin``: one plain Python process in a busy loop, no threads, no BLAS. A fair neighbour:
  a program beside it should slow down by about the share of the cores it takes.
* ``blas``: a second job on the kind of threads tensorjit's own steps use. It imports this
  checkout's tensorjit with its default settings (its own choice of BLAS and threading
  layer; no thread count pinned) and loops over what a train step does: a 1024x256 @
  256x1024 float32 product through ``tensorjit.ops.blas.matmul``, then a jitted O1
  elementwise chain on 4 MB (a Numba parallel kernel). Two pools of threads that spin
  while they wait, on the same few cores, is where a shared machine hurts most.

A load runs this file as a script (``python busy.py SCENARIO``) in a session and process
group of its own, which also holds whatever it starts (tensorjit's compile server). It
prints one JSON line once its loop runs, and ``load`` returns only then. Leaving the
``with`` block, however it is left (an exception, Ctrl-C), kills the whole group and reaps
it; so does the interpreter's exit. If the benchmark dies without cleaning up (SIGKILL), the
load sees its stdin close and kills its own group: no orphan keeps spinning.
"""
import atexit
import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time

SCENARIOS = {
    "spin": "one plain Python process in a busy loop",
    "blas": "a second tensorjit job: 1024x256 @ 256x1024 float32 products "
            "(ops.blas.matmul) and an O1 elementwise chain on 4 MB, default threads",
}
READY_TIMEOUT_S = 600.0      # a cold kernel cache: the blas load compiles its kernel first
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))      # the checkout holding this tensorjit

_LIVE = set()                # loads started and not yet stopped (stopped at exit too)


class LoadError(RuntimeError):
    """A load that exited or did not get ready."""


class Load:
    """One load process (and its group), running from construction until ``stop()``."""

    def __init__(self, scenario, ready_timeout=READY_TIMEOUT_S):
        if scenario not in SCENARIOS:
            raise ValueError(f"unknown load {scenario!r}; known: {', '.join(SCENARIOS)}")
        self.scenario = scenario
        self.info = {}
        self.cpu_s = self.wall_s = None          # used between ready and stop (unpaused)
        self._start, self._stopped = None, False
        self._paused_at, self._paused_s = None, 0.0
        self._stderr = tempfile.TemporaryFile()
        environment = dict(os.environ, PYTHONWARNINGS="ignore", PYTHONPATH=os.pathsep.join(
            [ROOT] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "busy.py"), scenario],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, text=True,
            env=environment, start_new_session=True)
        _LIVE.add(self)
        try:
            self.info = self._wait_ready(ready_timeout)
        except BaseException:
            self.stop()
            raise
        self._start = (time.perf_counter(), self.cpu_time())

    @property
    def pid(self):
        """The load's process id, which is also its process group's id."""
        return self.process.pid

    @property
    def cores(self):
        """CPU time over wall time between ready and stop: the cores it kept busy."""
        return self.cpu_s / self.wall_s if self.cpu_s is not None and self.wall_s else None

    def cpu_time(self):
        """CPU seconds (user + system, every thread) the load process has used so far;
        None where /proc is not there or once it has exited."""
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        # after the command name: state is field 3 of proc(5), utime 14 and stime 15
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def running(self):
        return self.process.poll() is None

    def pause(self):
        """Stop the whole group (SIGSTOP) until ``resume``: quiet rounds between loaded ones
        measure both at the same minutes. (If the benchmark dies meanwhile, the group is
        orphaned with stopped members, which the kernel sends SIGHUP: it ends.)"""
        if self._paused_at is None:
            os.killpg(self.pid, signal.SIGSTOP)
            self._paused_at = time.perf_counter()

    def resume(self):
        if self._paused_at is not None:
            os.killpg(self.pid, signal.SIGCONT)
            self._paused_s += time.perf_counter() - self._paused_at
            self._paused_at = None

    def stop(self):
        """Kill the load's whole process group and reap the load; safe to call twice."""
        if self._stopped:
            return
        self._stopped = True
        _LIVE.discard(self)
        if self._start is not None:
            start_wall, start_cpu = self._start
            now = self.cpu_time()
            if self._paused_at is not None:
                self._paused_s += time.perf_counter() - self._paused_at
            self.wall_s = time.perf_counter() - start_wall - self._paused_s
            self.cpu_s = None if now is None or start_cpu is None else now - start_cpu
        try:
            # SIGKILL at once: a load holds nothing worth saving, and a spinning process
            # must not run on into the next measurement
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self._stderr):
            stream.close()

    def _wait_ready(self, timeout):
        lines = queue.SimpleQueue()
        threading.Thread(target=lambda: lines.put(self.process.stdout.readline()),
                         daemon=True).start()
        try:
            line = lines.get(timeout=timeout)
        except queue.Empty:
            raise LoadError(f"load {self.scenario!r} not ready after {timeout:g} s") from None
        if not line:                 # it exited (its traceback is written by then)
            self._stderr.seek(0)
            error = self._stderr.read().decode(errors="replace").strip().splitlines()
            raise LoadError(f"load {self.scenario!r} exited: " + (
                error[-1][:300] if error else "no message"))
        return json.loads(line)


@contextlib.contextmanager
def load(scenario, ready_timeout=READY_TIMEOUT_S):
    """Run ``scenario``'s load for the duration of the ``with`` block (ready on entry)."""
    neighbour = Load(scenario, ready_timeout)
    try:
        yield neighbour
    finally:
        neighbour.stop()


def running():
    """The loads started and not yet stopped."""
    return list(_LIVE)


@atexit.register
def _stop_all():
    for neighbour in list(_LIVE):
        neighbour.stop()


# ---------------------------------------------------------------------------------------
# in the load process (this file run as a script)

def _spin():
    total = 0
    for i in range(100_000):
        total += i
    return total


def _blas_job():
    """The step of the ``blas`` load and what tensorjit chose for it, once its O1 kernel
    is native (compiled in the background on the first call)."""
    import numpy as np
    import tensorjit as ms
    from tensorjit.ops import blas
    from tensorjit.backend.numba import background

    rng = np.random.default_rng(1)
    a = rng.standard_normal((1024, 256), dtype=np.float32)
    b = rng.standard_normal((256, 1024), dtype=np.float32)
    v = ms.Tensor(rng.standard_normal(1 << 20, dtype=np.float32))

    def chain(v):
        return ms.ops.exp(ms.ops.tanh(v * 1.5 + 2) * v - 0.5) * 0.1 + v
    chain = ms.jit(chain, jit_level="O1")

    def step():
        blas.matmul(a, b)
        chain(v)
    step()
    if not background.wait(READY_TIMEOUT_S):
        raise RuntimeError("the O1 kernel did not compile")
    step()
    info = {"blas": blas.backend_name()}
    try:
        import numba
        info.update(numba_threading_layer=numba.threading_layer(),
                    numba_threads=numba.get_num_threads())
    except (ImportError, ValueError):        # no parallel kernel ran: nothing to name
        pass
    return step, info


def _exit_with_parent():
    """Block until the benchmark closes our stdin (it stopped us, or it died), then kill
    this process group: the load and whatever it started."""
    sys.stdin.read()
    if os.getpgid(0) == os.getpid():          # our own group (start_new_session)
        os.killpg(0, signal.SIGKILL)
    os._exit(0)


def _serve(scenario):
    threading.Thread(target=_exit_with_parent, daemon=True).start()
    step, info = (_spin, {}) if scenario == "spin" else _blas_job()
    print(json.dumps(dict(info, ready=scenario)), flush=True)
    while True:
        step()


if __name__ == "__main__":
    # run as a script, this directory is first on sys.path; its modules (models, system,
    # ...) must not shadow anything tensorjit or NumPy import
    if sys.path and os.path.abspath(sys.path[0] or ".") == HERE:
        del sys.path[0]
    _serve(sys.argv[1])
