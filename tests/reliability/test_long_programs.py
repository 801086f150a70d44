"""Long and recursive programs compile in every capture mode and level (issue 17): a chain
of 10,000 dependent ops, and recursion whose depth is a Python value."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor

CONFIGS = [(mode, level) for mode in ("ast", "bytecode", "trace") for level in ("O0", "O1")]
STEPS = 5000          # two ops per step


def long_chain(x):
    for _ in range(STEPS):
        x = x * 1.0001 + 0.0001
    return x


@pytest.mark.parametrize("mode,level", CONFIGS)
def test_a_ten_thousand_op_chain_compiles_and_runs(mode, level):
    # the code generator writes single-use values into their user's expression; nested
    # without a limit, 100 steps already exceeded Python's 200 nested parentheses
    x = np.linspace(-1, 1, 4096).astype(np.float32)
    want = long_chain(Tensor(x)).asnumpy()              # eager, the same float32 steps
    jitted = ms.jit(long_chain, capture_mode=mode, jit_level=level)
    for _ in range(2):
        got = jitted(Tensor(x)).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert jitted.lower(Tensor(x)).as_text().count("mul") >= STEPS


def power(x, n):
    if n == 0:
        return x * 0.0 + 1.0
    return x * power(x, n - 1)


def series(x, n):
    return x if n <= 1 else x * n + series(x, n - 1)


def outer(x, depth):
    def down(y, k):                   # recursion through a closure cell
        return y if k == 0 else down(y * 0.5 + 1.0, k - 1)
    return down(x, depth)


@pytest.mark.parametrize("mode,level", CONFIGS)
def test_recursion_with_a_static_depth(mode, level):
    # ast capture compiled a function's converted copy under the function's own name, so
    # a recursive call looked for it in the closure and failed with an internal ValueError
    x = Tensor(np.array([1.5, -2.0, 0.25], np.float32))
    for fn, n in [(power, 4), (series, 5), (outer, 6)]:
        want = fn(x, n).asnumpy()
        got = ms.jit(fn, capture_mode=mode, jit_level=level, static_argnums=1)(x, n)
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
