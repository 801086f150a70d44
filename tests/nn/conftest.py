"""Shared fixtures for tests/nn (cells, layers, losses, optimizers, seed workloads).

Every expected value comes from an independent NumPy reference written in the tests
(``reference.py`` and the test modules), never from the tensorjit code under test.
"""
import numpy as np
import pytest

import tensorjit as ms


@pytest.fixture
def rng():
    return np.random.default_rng(20240611)


@pytest.fixture(autouse=True)
def _seeded():
    # Parameter initialisation draws from tensorjit's generator: keep tests reproducible.
    ms.set_seed(7)
    yield
