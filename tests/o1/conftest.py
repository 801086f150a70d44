import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/matrix.py

import pytest

from tensorjit.jit.cache import CACHE
from tensorjit.passes import fusion


@pytest.fixture(autouse=True)
def fuse_small_graphs(monkeypatch):
    """Tests use tiny shapes: fuse them anyway (kernels below the parallel threshold are
    compiled single-threaded, which is quick, and cached on disk across runs)."""
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 0)
    CACHE.clear()
    yield
    CACHE.clear()
