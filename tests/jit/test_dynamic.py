"""``jit(dynamic=...)``: what each value does, in every capture mode.

* None (default, automatic): a graph whose capture proves it does not depend on the input
  shapes (no shape read by user code, every kernel shape-generic) serves every shape; other
  graphs are compiled per input-shape signature.
* 0 / False (MindSpore's "no dynamic shape compilation"): one graph per input-shape
  signature, always.
* 1 / True (MindSpore's "dynamic shape compilation"): one graph for every shape where the
  capture proves it possible; where it cannot (the function reads shapes, has graph breaks
  or shape-specific kernels) a warning says so once, naming the function and shapes, and
  each shape compiles again.
Results never depend on the choice: every call is compared with eager.
"""
import warnings

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor
from tensorjit.jit.function import STATS

from matrix import CAPTURE_MODES

SHAPES = [(2, 3), (4, 3), (5, 2, 2), (0, 3)]


def elementwise(a, b):
    return a * b + 1.0


def reads_shape(a, b):
    return a.sum(axis=0) * a.shape[0] + b.sum()


def run(fn, mode, dynamic):
    jitted = ms.jit(fn, capture_mode=mode, dynamic=dynamic)
    before = STATS["compiles"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for shape in SHAPES:
            rng = np.random.default_rng(len(shape))
            a = rng.standard_normal(shape).astype(np.float32)
            b = rng.standard_normal(shape).astype(np.float32)
            for _ in range(2):
                out = jitted(Tensor(a), Tensor(b)).asnumpy()
                np.testing.assert_allclose(out, fn(Tensor(a), Tensor(b)).asnumpy(),
                                           rtol=1e-6)
    messages = [str(w.message) for w in caught if "dynamic=True" in str(w.message)]
    return STATS["compiles"] - before, messages


@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_each_value_of_dynamic(mode):
    assert run(elementwise, mode, None) == (1, [])
    assert run(elementwise, mode, False) == (len(SHAPES), [])
    assert run(elementwise, mode, True) == (1, [])
    assert run(reads_shape, mode, None) == (len(SHAPES), [])
    assert run(reads_shape, mode, False) == (len(SHAPES), [])
    compiles, messages = run(reads_shape, mode, True)
    assert compiles == len(SHAPES) and len(messages) == 1
    assert "reads_shape" in messages[0] and "reads tensor shapes" in messages[0]


@pytest.mark.parametrize("value, same_as", [(0, False), (1, True)])
def test_mindspore_integers_are_the_booleans(value, same_as):
    """MindSpore spells the option 0 / 1: the same cache entries as False / True."""
    x = Tensor(np.ones((2, 2), np.float32))
    ms.jit(elementwise, dynamic=same_as)(x, x)
    before = STATS["compiles"]
    ms.jit(elementwise, dynamic=value)(x, x)
    assert STATS["compiles"] == before


@pytest.mark.parametrize("value", [2, -1, "yes", 1.0])
def test_invalid_values_are_rejected_at_jit(value):
    with pytest.raises(ValueError, match="dynamic must be None"):
        ms.jit(elementwise, dynamic=value)
