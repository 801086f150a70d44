"""Launching MPI jobs from tests: bounded in time, and every process cleaned up."""
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "workers")

try:
    import mpi4py  # noqa: F401
    from tensorjit.communication.launch import find_mpirun
    MPIRUN = find_mpirun()
except (ImportError, FileNotFoundError) as exc:
    MPIRUN, MISSING = None, str(exc)
else:
    MISSING = ""

needs_mpi = pytest.mark.skipif(MPIRUN is None, reason=f"needs mpi4py and mpirun "
                                                     f"(pip install -e '.[mpi]'): {MISSING}")


def mpi_env(**extra):
    """The environment of a job: this checkout first on the path, running as root
    allowed, one thread per rank."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
               NUMBA_NUM_THREADS="1", PYTHONUNBUFFERED="1")
    env.update(extra)
    return env


def mpirun_command(ranks, *program):
    """Plain mpirun, as a user types it (plus what a shared 2-core machine needs)."""
    return [MPIRUN, "-n", str(ranks), "--oversubscribe", "--bind-to", "none",
            sys.executable] + list(program)


def launcher_command(ranks, *program, options=()):
    """python -m tensorjit.run."""
    return [sys.executable, "-m", "tensorjit.run", "-n", str(ranks), *options] + list(program)


class Job:
    """A running MPI job in its own session; ``stop()`` kills every process of it."""

    def __init__(self, cmd, env=None, cwd=ROOT):
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=env or mpi_env(), text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.pids = set()

    def wait(self, timeout):
        """(exit code, output, seconds); the job is killed if it outlives ``timeout``."""
        started = time.monotonic()
        try:
            out, _ = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            out, _ = self.proc.communicate()
            pytest.fail(f"the MPI job did not finish within {timeout} s:\n{out[-4000:]}")
        return self.proc.returncode, out, time.monotonic() - started

    def stop(self):
        for pid in list(self.pids):
            _kill(pid)
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


@pytest.fixture
def job():
    """Start jobs with ``job(cmd, env=None)``; all are killed at the end of the test."""
    started = []

    def start(cmd, env=None):
        started.append(Job(cmd, env))
        return started[-1]
    yield start
    for j in started:
        j.stop()


@pytest.fixture
def scratch(tmp_path):
    yield tmp_path
    shutil.rmtree(tmp_path, ignore_errors=True)
