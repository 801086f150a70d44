import pytest

from tensorjit.jit.cache import CACHE


@pytest.fixture(autouse=True)
def fresh_compile_cache():
    """Each test starts with an empty process-wide graph cache, so compile counts are exact."""
    CACHE.clear()
    yield
