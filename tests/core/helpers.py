"""Comparison helpers for tests/core: every expected value is an independent reference."""
import numpy as np

import tensorjit as ms

BF16 = np.dtype(ms.bfloat16)


def is_floating(dtype):
    dtype = np.dtype(dtype)
    return dtype.kind == "f" or dtype == BF16


def tols(dtype):
    """(rtol, atol) suited to comparing a ``dtype`` result with a float64 reference."""
    dtype = np.dtype(dtype)
    if dtype == BF16:
        return 3e-2, 3e-2
    if dtype == np.float16:
        return 5e-3, 5e-3
    if dtype == np.float32:
        return 2e-5, 2e-5
    if dtype == np.float64:
        return 1e-10, 1e-12
    return 0, 0


def assert_close(actual, expected, dtype=None, rtol=None, atol=None):
    """Compare a Tensor (or array) with a reference array; checks dtype when given."""
    if isinstance(actual, ms.Tensor):
        actual = actual.asnumpy()
    actual = np.asarray(actual)
    if dtype is not None:
        assert actual.dtype == np.dtype(dtype), f"dtype {actual.dtype} != expected {dtype}"
    d_rtol, d_atol = tols(actual.dtype)
    rtol = d_rtol if rtol is None else rtol
    atol = d_atol if atol is None else atol
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, f"shape {actual.shape} != expected {expected.shape}"
    if is_floating(actual.dtype):
        actual = actual.astype(np.float64)
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)
