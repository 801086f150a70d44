import pytest

from tensorjit.jit.cache import CACHE
from tensorjit.passes import fusion


@pytest.fixture(autouse=True)
def fuse_everything(monkeypatch):
    """Tiny shapes here: fuse them anyway, so O1 runs native kernels (compiled once per
    structure and kept in the on-disk kernel cache); each test starts with an empty graph
    cache (exact compile counts)."""
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 0)
    CACHE.clear()
    yield
    CACHE.clear()
