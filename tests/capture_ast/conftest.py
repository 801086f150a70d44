import pytest

import tensorjit as ms
from tensorjit.jit.cache import CACHE


@pytest.fixture(autouse=True)
def fresh_state():
    """An empty process-wide graph cache (exact compile counts) and PyNative mode."""
    CACHE.clear()
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)
