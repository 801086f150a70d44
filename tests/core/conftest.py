"""Shared fixtures for the core test suite (Tensor, dtypes, ops, autodiff).

Every expected value in tests/core comes from an independent reference written in the
test itself (a NumPy formula, a naive loop, finite differences), never from tensorjit.
"""
import numpy as np
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(1234)
