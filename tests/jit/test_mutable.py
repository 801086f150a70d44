"""``mutable``: Python numbers as run-time values of a compiled graph."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor
from tensorjit.jit.function import STATS


@pytest.mark.parametrize("mode", ["trace", "bytecode"])
def test_mutable_number_changes_without_recompiling_and_promotes_weakly(mode):
    def f(x, s):
        return x * s + s

    jitted = ms.jit(f, capture_mode=mode)
    x = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    before = STATS["compiles"]
    for value in (1.5, 2.5, -3.0, 4.0):
        out = jitted(x, ms.mutable(value))
        assert out.dtype == ms.float32            # like x * 2.5: the number is weak
        np.testing.assert_allclose(out.asnumpy(), x.asnumpy() * value + value, rtol=1e-6)
    assert STATS["compiles"] - before == 1


def test_plain_numbers_are_constants_and_recompile():
    jitted = ms.jit(lambda x, s: x * s, capture_mode="trace")
    x = Tensor(np.ones(2, np.float32))
    before = STATS["compiles"]
    for value in (1.0, 2.0, 3.0):
        np.testing.assert_allclose(jitted(x, value).asnumpy(), [value, value])
    assert STATS["compiles"] - before == 3


def test_mutable_containers_and_errors():
    a, b = ms.mutable((1, 2.0))
    assert int(a) == 1 and float(b) == 2.0
    assert ms.mutable({"k": 3})["k"].item() == 3
    with pytest.raises(TypeError, match="mutable: expected a number"):
        ms.mutable("text")
