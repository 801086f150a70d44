"""Python state around the tensors (issue 17): a global, a closure variable or a helper
function rebound between calls, and a Cell attribute the function writes, behave as in
eager mode in every capture mode and level -- or the mode says it cannot (trace and a
written attribute: a warning, an error under fullgraph=True)."""
import warnings

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, nn

CONFIGS = [(mode, level) for mode in ("ast", "bytecode", "trace") for level in ("O0", "O1")]
IDS = [f"{m}-{l}" for m, l in CONFIGS]

SCALE = 2.0


def helper(x):
    return x + 1.0


def reads_globals(x):
    return helper(x * SCALE)


def other_helper(x):
    return x - 1.0


@pytest.fixture
def restore_globals():
    saved = SCALE, helper
    yield
    globals().update(SCALE=saved[0], helper=saved[1])


def _x():
    return Tensor(np.linspace(-1, 1, 6, dtype=np.float32))


@pytest.mark.parametrize("mode,level", CONFIGS, ids=IDS)
def test_rebinding_a_global_or_a_helper_recompiles(mode, level, restore_globals):
    global SCALE, helper
    jitted = ms.jit(reads_globals, capture_mode=mode, jit_level=level)
    x = _x()
    for scale, fn in [(2.0, helper), (2.0, helper), (3.0, helper), (3.0, other_helper),
                      (3.0, other_helper), (2.0, helper)]:
        SCALE, helper = scale, fn
        for _ in range(3):               # compile, cache hit, fast path
            np.testing.assert_allclose(jitted(x).asnumpy(), reads_globals(x).asnumpy())


@pytest.mark.parametrize("mode,level", CONFIGS, ids=IDS)
def test_rebinding_a_closure_variable_recompiles(mode, level):
    k = 1.0

    def f(x):
        return x * k

    jitted = ms.jit(f, capture_mode=mode, jit_level=level)
    x = _x()
    for value in (1.0, 1.0, 5.0, 5.0, -2.0):
        k = value
        for _ in range(3):
            np.testing.assert_allclose(jitted(x).asnumpy(), x.asnumpy() * value)


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def construct(self, x):
        self.calls += 1
        return x * 2.0


@pytest.mark.parametrize("mode,level", [c for c in CONFIGS if c[0] != "trace"],
                         ids=[i for i in IDS if not i.startswith("trace")])
def test_a_cell_attribute_written_in_construct_counts_like_eager(mode, level):
    counter = Counter()
    jitted = ms.jit(counter, capture_mode=mode, jit_level=level)
    x = _x()
    for n in range(1, 6):
        np.testing.assert_allclose(jitted(x).asnumpy(), x.asnumpy() * 2.0)
        assert counter.calls == n


def test_trace_says_it_cannot_repeat_a_cell_attribute_write():
    counter = Counter()
    with pytest.warns(RuntimeWarning, match=r"Counter\.calls at .*test_python_state.py"):
        ms.jit(counter, capture_mode="trace")(_x())
    with pytest.raises(Exception, match=r"writes Python state \(Counter\.calls"):
        ms.jit(Counter(), capture_mode="trace", fullgraph=True)(_x())


def test_ast_fullgraph_refuses_a_cell_attribute_write():
    with pytest.raises(Exception, match="writing the attribute Counter.calls"):
        ms.jit(Counter(), capture_mode="ast", fullgraph=True)(_x())


def test_explain_lists_the_python_values_trace_guards():
    jitted = ms.jit(reads_globals, capture_mode="trace")
    text = str(ms.explain(jitted)(_x()))
    assert "global 'SCALE'" in text and "global 'helper'" in text


def test_functions_reading_no_globals_keep_the_fast_path():
    def f(a, b, c):
        return a * b + c

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jitted = ms.jit(f, capture_mode="trace")
        args = [_x() for _ in range(3)]
        for _ in range(8):
            jitted(*args)
    assert jitted._tj_jit.hot_entry is not None and not jitted._tj_jit.hot_entry.python_guards


LOG = []


def logs(x):
    LOG.append(float(len(LOG)))
    return x + 1.0


def collects(x):
    parts = []                       # a list made inside the function: no Python state
    for k in range(3):
        parts.append(x * float(k))
    return parts[0] + parts[1] + parts[2]


@pytest.mark.parametrize("mode,level", [c for c in CONFIGS if c[0] != "trace"],
                         ids=[i for i in IDS if not i.startswith("trace")])
def test_a_global_list_appended_to_grows_like_eager(mode, level):
    LOG.clear()
    jitted = ms.jit(logs, capture_mode=mode, jit_level=level)
    x = _x()
    for n in range(1, 5):
        np.testing.assert_allclose(jitted(x).asnumpy(), x.asnumpy() + 1.0)
        assert LOG == [float(k) for k in range(n)]


def test_trace_says_it_cannot_repeat_a_container_change():
    LOG.clear()
    with pytest.warns(RuntimeWarning, match=r"LOG\.append at .*test_python_state.py"):
        ms.jit(logs, capture_mode="trace")(_x())
    with pytest.raises(Exception, match=r"writes Python state \(LOG\.append"):
        ms.jit(lambda v: logs(v) * 2.0, capture_mode="trace", fullgraph=True)(_x())
    with pytest.raises(Exception, match=r"calling append\(\) on a list defined outside"):
        ms.jit(logs, capture_mode="ast", fullgraph=True)(_x())


@pytest.mark.parametrize("mode", ["ast", "trace"])
def test_a_list_made_inside_the_function_stays_in_the_graph(mode):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jitted = ms.jit(collects, capture_mode=mode)
        x = _x()
        np.testing.assert_allclose(jitted(x).asnumpy(), x.asnumpy() * 3.0)
        explanation = ms.explain(jitted)(x)
    assert not explanation.fallbacks and explanation.graph_count == 1
