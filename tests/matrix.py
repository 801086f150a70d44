"""The test matrix shared by the O1/GE tests: capture modes x levels x backends.

Add a capture mode by adding it to ``CAPTURE_MODES``; a mode whose capture raises
``NotImplementedError`` is skipped, not failed."""
import numpy as np
import pytest

import tensorjit as ms

CAPTURE_MODES = ["trace", "ast", "bytecode"]

# every configuration is compared with jit_level="O0", backend="ms_backend"
CONFIGS = {
    "O1": dict(jit_level="O1"),
    "GE": dict(backend="GE"),
    "O1+GE": dict(jit_level="O1", backend="GE"),
    "O1-dfs": dict(jit_level="O1", exec_order="dfs"),
}


def jit_call(fn, mode, config, *args, calls=3):
    """Jit ``fn`` and call it ``calls`` times (slow path, then the generated fast path);
    returns the last result. Skips the test for a capture mode that is not implemented."""
    jitted = ms.jit(fn, capture_mode=mode, **config)
    out = None
    try:
        for _ in range(calls):
            out = jitted(*args)
    except NotImplementedError as exc:
        pytest.skip(f"capture_mode={mode!r}: {exc}")
    return out


def to_numpy(tree):
    if isinstance(tree, ms.Tensor):
        return [tree.asnumpy()]
    if isinstance(tree, (tuple, list)):
        return [a for t in tree for a in to_numpy(t)]
    return [np.asarray(tree)]


def assert_same(actual, expected, rtol=1e-4, atol=1e-5):
    a, e = to_numpy(actual), to_numpy(expected)
    assert len(a) == len(e)
    for x, y in zip(a, e):
        assert x.shape == y.shape and x.dtype == y.dtype
        np.testing.assert_allclose(x, y, rtol=rtol, atol=atol)
