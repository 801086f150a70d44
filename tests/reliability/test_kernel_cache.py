"""The on-disk cache of O1's native kernels (backend/numba/), from fresh processes: a
truncated or corrupted entry (kernel source, Numba's index or data file) is detected and
recompiled with a warning, with right results; entries in a directory that is not owned by
the user or is writable by others are not loaded. (tests/o1/test_passes.py covers garbage
entries, a world-writable root on first use, and loading in a second process.)"""
import os
import shutil
import subprocess
import sys

import pytest

from tensorjit.backend import numba as native

pytestmark = pytest.mark.skipif(not native.numba_available(), reason="needs Numba")

CHILD = """
import os, sys, warnings
import numpy as np
if os.environ.get("TJ_TEST_OTHER_UID"):          # pretend the cache belongs to someone else
    real = os.getuid()
    os.getuid = lambda: real + 1
import tensorjit as ms
from tensorjit import ops
from tensorjit.backend import numba as native
from tensorjit.passes import fusion
fusion.MIN_ELEMENTS = 0

def g(x):
    return ops.relu(x * 0.75 - 0.125) * x + 2.0

x = ms.Tensor(np.linspace(-1, 1, 32, dtype=np.float32).reshape(4, 8))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    out = ms.jit(g, capture_mode="trace", jit_level="O1")(x)
right = bool(np.allclose(out.asnumpy(), g(x).asnumpy()))
print(native.STATS["compiled"], native.STATS["loaded"], native.STATS["recovered"], right)
for w in caught:
    print("WARNING", w.message)
"""


def run_child(root, **env):
    result = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                            timeout=300, env=dict(os.environ, TENSORJIT_CACHE_DIR=str(root),
                                                  TENSORJIT_BACKGROUND_COMPILE="0",
                                                  **env))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    compiled, loaded, recovered, right = lines[0].split()
    warnings = [line[len("WARNING "):] for line in lines[1:]]
    assert right == "True"
    return int(compiled), int(loaded), int(recovered), warnings


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    root = tmp_path_factory.mktemp("template") / "tjcache"
    assert run_child(root)[:2] == (1, 0)               # compiled and stored
    return root


@pytest.fixture
def populated(template, tmp_path):
    """A copy of a cache holding one good kernel (modes kept: 0700 directories)."""
    root = tmp_path / "tjcache"
    shutil.copytree(template, root)
    return root


def _truncate(paths, keep):
    assert paths
    for path in paths:
        data = path.read_bytes()
        path.write_bytes(data[:keep])


def test_a_good_entry_is_loaded(populated):
    assert run_child(populated)[:3] == (0, 1, 0)


@pytest.mark.parametrize("entry, keep", [("k_*.py", 120), ("__pycache__/*.nbi", 24),
                                         ("__pycache__/*.nbc", 0)])
def test_truncated_entries_are_recompiled_with_a_warning(populated, entry, keep):
    _truncate(list((populated / "kernels").glob(entry)), keep)
    compiled, loaded, recovered, warnings = run_child(populated)
    assert (compiled, loaded, recovered) == (1, 0, 1)
    assert any("corrupted" in w or "could not be loaded" in w for w in warnings), warnings


@pytest.mark.parametrize("where", ["root", "kernels"])
def test_entries_in_a_directory_writable_by_others_are_not_loaded(populated, where):
    directory = populated if where == "root" else populated / "kernels"
    os.chmod(directory, 0o777)
    compiled, loaded, _, warnings = run_child(populated)
    assert (compiled, loaded) == (1, 0)                # compiled in memory, nothing read
    assert any("not using the kernel cache" in w for w in warnings), warnings
    os.chmod(directory, 0o700)


def test_entries_in_a_directory_owned_by_someone_else_are_not_loaded(populated):
    env = {}
    try:
        os.chown(populated, os.getuid() + 4242, -1)      # possible as root
    except PermissionError:
        env["TJ_TEST_OTHER_UID"] = "1"
    compiled, loaded, _, warnings = run_child(populated, **env)
    assert (compiled, loaded) == (1, 0)
    assert any("not owned by this user" in w for w in warnings), warnings


def test_a_stored_kernel_is_found_on_disk_by_its_index_file_name(template):
    """``NativeKernel.on_disk`` (no NumPy stand-in while a cached kernel loads) looks up
    the index file by the name Numba gives it, for the kernel the child stored."""
    from tensorjit.backend.numba.disk_cache import index_path
    kernels = template / "kernels"
    stems = [name[:-3] for name in os.listdir(kernels) if name.endswith(".py")]
    assert stems
    for stem in stems:
        source = (kernels / (stem + ".py")).read_text()
        assert os.path.exists(index_path(str(kernels), stem, source)), stem
        assert not os.path.exists(index_path(str(kernels), stem, "\n" + source))
