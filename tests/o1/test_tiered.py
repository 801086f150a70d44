"""Tiered compilation (backend/numba/background.py): O1's native kernels compile in the
background -- in a compile server process when the kernel cache is on disk -- while their
NumPy versions run; results equal eager before, during and after, in every capture mode
and GE; a forked child compiles the kernels its parent had queued; with
TENSORJIT_BACKGROUND_COMPILE=0 kernels are compiled before the first call returns."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import ops, Tensor
from tensorjit.backend import numba as native
from tensorjit.backend.numba import background, kernel as native_kernel
from tensorjit.jit.cache import CACHE

from matrix import CAPTURE_MODES, assert_same

pytestmark = pytest.mark.skipif(not native.numba_available(), reason="needs Numba")


def block(x, w):
    """Fused chains on both sides of a matmul, a softmax and a reduction."""
    h = ops.tanh(x * 1.5 + 0.25) * x
    y = ops.matmul(h, w)
    return ops.softmax(y * 0.5 - 1.0, axis=-1) * ops.exp(-y * y), (h * h).sum()


@pytest.fixture
def fresh_kernels(tmp_path, monkeypatch):
    """An empty kernel cache of this test's own, no kernel known to the process."""
    monkeypatch.setenv("TENSORJIT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(native_kernel, "_sources", {})
    monkeypatch.setattr(background, "ENABLED", True)
    assert background.wait(120)
    CACHE.clear()
    yield
    assert background.wait(120)
    CACHE.clear()


def _kernels(jitted, *args):
    """The native kernels of a jitted function's fused nodes (inside GE units too)."""
    def fused(graph):
        for node in graph.nodes:
            if node.prim.name == "fused":
                yield native_kernel.kernel_for(node.params["graph"], node.params.get("inplace", ())).native
            else:
                for sub in graph.subgraphs(node):
                    yield from fused(sub)
    low = jitted.lower(*args)
    kernels = list(fused(low.graph))
    assert kernels, low.as_text()
    return kernels


@pytest.mark.parametrize("mode", CAPTURE_MODES)
@pytest.mark.parametrize("config", [{}, {"backend": "GE"}], ids=["O1", "O1+GE"])
def test_results_equal_eager_while_kernels_compile_and_after(fresh_kernels, monkeypatch,
                                                             mode, config):
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((64, 96)).astype(np.float32))
    w = Tensor(rng.standard_normal((96, 80)).astype(np.float32))
    expected = block(x, w)
    held, start = [], background._start_locked  # the worker may not start yet
    monkeypatch.setattr(background, "USE_SERVER", False)
    background._start_locked = lambda: held.append(1)
    try:
        jitted = ms.jit(block, capture_mode=mode, jit_level="O1", **config)
        for _ in range(3):
            assert_same(jitted(x, w), expected)
        kernels = _kernels(jitted, x, w)
        assert held and not any(k.ready for k in kernels)     # NumPy versions ran
    finally:
        background._start_locked = start
    assert background.wait(240)
    assert all(k.ready for k in kernels)
    for _ in range(3):
        assert_same(jitted(x, w), expected)


def test_the_compile_server_fills_the_cache_and_the_process_loads_from_it(fresh_kernels):
    compiled, loaded = native.STATS["compiled"], native.STATS["loaded"]
    x = Tensor(np.linspace(-2, 2, 4096, dtype=np.float32).reshape(64, 64))
    jitted = ms.jit(lambda t: ops.tanh(t * 0.7) * t + 1.0, jit_level="O1")
    first = jitted(x)
    assert background.wait(240)
    (kernel,) = _kernels(jitted, x)
    assert kernel.ready and kernel.server_done           # compiled by the server ...
    assert native.STATS["loaded"] > loaded and native.STATS["compiled"] == compiled
    np.testing.assert_allclose(jitted(x).asnumpy(), first.asnumpy(), rtol=1e-6)  # ... loaded


def test_without_background_compilation_kernels_are_ready_after_the_first_call(
        fresh_kernels, monkeypatch):
    monkeypatch.setattr(background, "ENABLED", False)
    x = Tensor(np.linspace(-2, 2, 4096, dtype=np.float32).reshape(64, 64))
    jitted = ms.jit(lambda t: ops.exp(t * 0.3) - t, jit_level="O1")
    jitted(x)
    assert not background.pending() and all(k.ready for k in _kernels(jitted, x))


FORK_CHILD = r"""
import os, sys
import numpy as np
import tensorjit as ms
from tensorjit import ops
from tensorjit.backend.numba import background
background.USE_SERVER = False
start = background._start_locked
background._start_locked = lambda: None          # the parent compiles nothing
x = ms.Tensor(np.linspace(-2, 2, 4096, dtype=np.float32).reshape(64, 64))
def f(t):
    return ops.tanh(t * 0.7) * t + ops.exp(-t * t)
jitted = ms.jit(f, jit_level="O1", capture_mode="trace")
ok = np.allclose(jitted(x).asnumpy(), f(x).asnumpy(), rtol=1e-5, atol=1e-6)
assert background.pending() > 0
pid = os.fork()
if pid == 0:
    background._start_locked = start             # the child compiles what was queued
    done = background.wait(240)
    again = np.allclose(jitted(x).asnumpy(), f(x).asnumpy(), rtol=1e-5, atol=1e-6)
    os._exit(0 if done and again and background.pending() == 0 else 3)
_, status = os.waitpid(pid, 0)
print("child", os.waitstatus_to_exitcode(status), "parent", ok)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_a_forked_child_compiles_the_kernels_its_parent_queued(tmp_path):
    env = dict(os.environ, TENSORJIT_CACHE_DIR=str(tmp_path / "cache"), PYTHONWARNINGS="ignore")
    result = subprocess.run([sys.executable, "-c", FORK_CHILD], capture_output=True,
                            text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "child 0 parent True" in result.stdout, (result.stdout, result.stderr[-3000:])


class _Kernel:
    """What the server is told about a kernel: where its cache is, its name and source."""
    def __init__(self, directory, k):
        self.directory, self.stem = str(directory), f"k_{k}"
        self.source = f"# kernel {k}\n" + "x = 0\n" * 2000          # ~12 KB


def test_queueing_for_the_server_never_waits_for_its_compiles(tmp_path, monkeypatch):
    """A server busy compiling reads one request per compile; the program's thread must
    not wait on the pipe (64 KB) when it queues more than that: a writer thread sends."""
    import collections
    import threading
    monkeypatch.setattr(background, "SERVER_COMMAND",
                        [sys.executable, "-c", "import time; time.sleep(300)"])  # never reads
    monkeypatch.setattr(background, "_state", {"worker": None, "interval": None,
                                               "server": None, "outbox": None})
    monkeypatch.setattr(background, "_waiting", {})
    monkeypatch.setattr(background, "_queue", collections.deque())
    monkeypatch.setattr(background, "_start_locked", lambda: None)
    monkeypatch.setattr(background, "USE_SERVER", True)
    key = (("<f4", 2, True, True),)
    queued = threading.Thread(target=lambda: [background.submit(_Kernel(tmp_path, k), key, ())
                                              for k in range(40)], daemon=True)
    queued.start()
    queued.join(120)                   # a hang check: with blocking writes, for ever
    server = background._state["server"]
    try:
        assert not queued.is_alive(), "submit waited for the server to read"
        assert sum(len(v) for v in background._waiting.values()) == 40
    finally:
        server.kill()
        server.wait()
    for _ in range(600):               # the reply reader saw the server go: all re-queued
        if background._state["server"] is False:
            break
        threading.Event().wait(0.05)
    assert background._state["server"] is False and len(background._queue) == 40


def test_with_a_warm_cache_kernels_load_before_the_first_call_returns(fresh_kernels,
                                                                       monkeypatch):
    x = Tensor(np.linspace(-2, 2, 4096, dtype=np.float32).reshape(64, 64))

    def f(t):
        return ops.tanh(t * 0.9) * t - 2.0
    ms.jit(f, jit_level="O1")(x)
    assert background.wait(240)                     # compiled into the disk cache
    monkeypatch.setattr(native_kernel, "_sources", {})   # as in a new process
    CACHE.clear()
    loaded = native.STATS["loaded"]
    jitted = ms.jit(f, jit_level="O1")
    np.testing.assert_allclose(jitted(x).asnumpy(), f(x).asnumpy(), rtol=1e-5, atol=1e-6)
    assert all(k.ready for k in _kernels(jitted, x)) and native.STATS["loaded"] > loaded
