import pytest

from tensorjit.jit.cache import CACHE


@pytest.fixture(autouse=True)
def fresh_compile_cache():
    CACHE.clear()
    yield
    CACHE.clear()
