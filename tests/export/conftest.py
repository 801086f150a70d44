import pytest

from . import models


@pytest.fixture(scope="module")
def built():
    """``built(name)`` -> (net, inputs, eager outputs), each program built once per module."""
    cache = {}

    def get(name):
        if name not in cache:
            net, inputs = models.build(name)
            cache[name] = (net, inputs, models.eager(net, inputs))
        return cache[name]
    return get
