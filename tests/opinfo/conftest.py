import pytest


@pytest.fixture
def full(request):
    """Whether to sample at the nightly depth (``pytest --full``)."""
    return bool(request.config.getoption("--full", default=False))
