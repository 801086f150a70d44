"""Fault injection for O1's kernel cache (issue 17): whatever goes wrong with the cache
directory, a fused function gives the right result, with at most one warning, and never
crashes or hangs. Each case runs in a fresh process (``CHILD``), with the fault set up
by the test or injected in the child (the tests run as root here, where permission bits
do not stop writes, so a read-only or full disk is simulated at the system calls)."""
import importlib.util
import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from tensorjit.backend import numba as native

pytestmark = pytest.mark.skipif(not native.numba_available(), reason="needs Numba")

CHILD = r"""
import errno, os, sys, tempfile, warnings
import numpy as np
fault = os.environ.get("TJ_FAULT", "")
if fault == "umask000":
    os.umask(0)
if fault == "other_uid":                # pretend to be another user
    real = os.getuid()
    os.getuid = lambda: real + 1
if fault in ("readonly", "full"):       # no file can be created in the cache
    code = errno.EACCES if fault == "readonly" else errno.ENOSPC
    def refuse(*args, **kwargs):
        raise OSError(code, os.strerror(code))
    tempfile.mkstemp = refuse
if fault in ("full", "numba_full"):     # and Numba's own cache files cannot be saved
    from numba.core import caching
    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    caching.IndexDataCacheFile.save = full
import tensorjit as ms
from tensorjit import ops
from tensorjit.backend import numba as native
from tensorjit.passes import fusion
fusion.MIN_ELEMENTS = 0

def g(x):
    return ops.relu(x * 0.75 - 0.125) * x + 2.0

def h(x):
    return ops.tanh(x * 3.0) * x - 1.0

x = ms.Tensor(np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    right = True
    for fn in (g, h, g):
        out = ms.jit(fn, capture_mode="trace", jit_level="O1")(x)
        right = right and bool(np.allclose(out.asnumpy(), fn(x).asnumpy(), rtol=1e-6))
print(native.STATS["compiled"], native.STATS["loaded"], right)
for w in caught:
    print("WARNING", w.message)
"""


def run_child(root, fault=""):
    # kernels compile at prepare time here (not in the background): the counts below
    # are of one process's own compilations and loads
    env = dict(os.environ, TENSORJIT_CACHE_DIR=str(root), TJ_FAULT=fault,
               TENSORJIT_BACKGROUND_COMPILE="0")
    result = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                            timeout=300, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    compiled, loaded, right = lines[0].split()
    assert right == "True", result.stdout
    warnings = [line[len("WARNING "):] for line in lines[1:]]
    return int(compiled), int(loaded), warnings


@pytest.mark.parametrize("fault", ["readonly", "full", "numba_full"])
def test_an_unwritable_cache_compiles_in_memory_with_one_warning(tmp_path, fault):
    compiled, loaded, warnings = run_child(tmp_path / "cache", fault)
    assert compiled == 2 and loaded == 0, (compiled, loaded)
    assert len(warnings) == 1 and "compiled in memory" in warnings[0], warnings


def test_a_damaged_bytecode_file_is_never_read(tmp_path):
    root = tmp_path / "cache"
    assert run_child(root)[:2] == (2, 0)
    pycache = root / "kernels" / "__pycache__"
    pycache.mkdir(exist_ok=True)
    for source in (root / "kernels").glob("k_*.py"):
        # the header an import would trust (magic, the source's mtime and size), then
        # garbage, as a crash while writing could leave
        st = source.stat()
        header = (importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little")
                  + (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
                  + (st.st_size & 0xFFFFFFFF).to_bytes(4, "little"))
        name = f"{source.stem}.{sys.implementation.cache_tag}.pyc"
        (pycache / name).write_bytes(header + b"\xff" * 64)
    compiled, loaded, warnings = run_child(root)
    assert (compiled, loaded) == (0, 2) and not warnings, warnings


def test_files_and_directories_are_private_whatever_the_umask(tmp_path):
    root = tmp_path / "cache"
    run_child(root, "umask000")
    paths = [root] + list(root.rglob("*"))
    assert len(paths) > 5
    for path in paths:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (0o700 if path.is_dir() else 0o600), (path, oct(mode))


def test_no_cache_is_created_where_another_user_can_write(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)                        # writable by all, not sticky
    root = shared / "cache"
    compiled, loaded, warnings = run_child(root, "other_uid")
    assert (compiled, loaded) == (2, 0)
    assert not root.exists()                       # checked before anything is created
    assert len(warnings) == 1 and "another user can write" in warnings[0], warnings


def test_a_symlink_into_another_users_directory_is_not_followed(tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(theirs)
    compiled, loaded, warnings = run_child(link, "other_uid")
    assert (compiled, loaded) == (2, 0)
    assert list(theirs.iterdir()) == []
    assert len(warnings) == 1, warnings


FORK_CHILD = r"""
import os, sys, threading, time
import numpy as np
import tensorjit as ms
from tensorjit import ops
from tensorjit.passes import fusion
fusion.MIN_ELEMENTS = 0

def big(x):                                   # a kernel that takes a while to compile
    for k in range(6):
        x = ops.tanh(x * 1.01 + 0.01 * k) + ops.exp(-x * x)
    return x

def small(x):
    return ops.tanh(x * 2.0) - x

x = ms.Tensor(np.linspace(-1, 1, 64, dtype=np.float32))
worker = threading.Thread(target=lambda: ms.jit(big, jit_level="O1", capture_mode="trace")(x))
worker.start()
time.sleep(float(sys.argv[1]))                # fork while the thread compiles
pid = os.fork()
if pid == 0:
    out = ms.jit(small, jit_level="O1", capture_mode="trace")(x).asnumpy()
    ok = np.allclose(out, small(x).asnumpy(), rtol=1e-6)
    again = ms.jit(big, jit_level="O1", capture_mode="trace")(x).asnumpy()
    ok = ok and np.allclose(again, big(x).asnumpy(), rtol=1e-5)
    os._exit(0 if ok else 3)
worker.join()
_, status = os.waitpid(pid, 0)
print("child", os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
@pytest.mark.parametrize("delay", [0.05, 0.5])
def test_a_fork_while_a_kernel_compiles_never_hangs_the_child(tmp_path, delay):
    env = dict(os.environ, TENSORJIT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONWARNINGS="ignore")
    proc = subprocess.Popen([sys.executable, "-c", FORK_CHILD, str(delay)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=240)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the forked child hung")
    assert proc.returncode == 0, err[-3000:]
    assert "child 0" in out, (out, err[-3000:])
