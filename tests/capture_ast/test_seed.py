"""Seed 000's ast rows: ``a * b + c`` jitted by ast at O0, O1 and GE, each with and
without ``fullgraph=True``, equals eager mode; wrapping and decorating both work."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor

from .helpers import compiles


def f(a: Tensor, b: Tensor, c: Tensor):
    return a * b + c


ROWS = [dict(jit_level="O0"), dict(jit_level="O1"), dict(backend="GE")]


@pytest.mark.parametrize("fullgraph", [False, True])
@pytest.mark.parametrize("options", ROWS, ids=["O0", "O1", "GE"])
def test_seed_simple_function_ast_rows_equal_eager(options, fullgraph):
    rng = np.random.default_rng(0)
    dataset = [[Tensor(rng.standard_normal((2, 3)), ms.float32) for _ in range(3)]
               for _ in range(5)]
    wrapped = ms.jit(f, capture_mode="ast", fullgraph=fullgraph, **options)

    @ms.jit(capture_mode="ast", fullgraph=fullgraph, **options)
    def decorated(a, b, c):
        return a * b + c

    for jitted in (wrapped, decorated):
        for inputs in dataset:            # slow path first, then the generated fast path
            out = jitted(*inputs)
            expected = f(*inputs)
            assert isinstance(out, Tensor) and out.shape == (2, 3)
            assert out.dtype == ms.float32
            np.testing.assert_allclose(out.asnumpy(), expected.asnumpy(), rtol=1e-6)
        assert compiles(jitted) == 1
        assert jitted._tj_jit.last_entry.info.mode == "ast"


def test_ast_is_the_default_and_the_graph_is_the_expression():
    jitted = ms.jit(f)
    args = [Tensor(np.full((2, 3), v, np.float32)) for v in (2.0, 3.0, 1.0)]
    lowered = jitted.lower(*args)
    assert lowered.graph.primitive_names() == ["mul", "add"]
    assert "test_seed.py" in lowered.as_text()          # nodes point at the user's line
    assert "def f(a, b, c):" in lowered.code
    np.testing.assert_allclose(jitted(*args).asnumpy(), np.full((2, 3), 7.0))
