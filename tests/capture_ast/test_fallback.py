"""Unsupported constructs: with ``fullgraph=True`` an error naming the construct, the
user's file and line; with ``fullgraph=False`` (default) the statement runs as Python on
every call (JIT fallback) while the rest stays compiled, and ``explain`` lists it."""
import inspect

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor
from tensorjit.jit import JitSyntaxError

from .helpers import t, close, compiles

LOG = []


def line_of(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def with_try(x):
    y = x * 2
    try:
        z = y + 1
    except ValueError:
        z = y
    return z * 3


def reads_a_value(x):
    y = x * 2
    LOG.append(float(y.sum()))           # needs the value: runs as Python, every call
    z = y + 1
    return z


def numpy_on_tensor(x):
    y = x + 1
    z = Tensor(np.flip(y.asnumpy()).copy())
    return z * y


@pytest.mark.parametrize("fn, construct, marker", [
    (with_try, "'try' statement", "try:"),
    (reads_a_value, "float(tensor)", "LOG.append"),
    (numpy_on_tensor, "asnumpy()", "np.flip"),
])
def test_fullgraph_error_names_construct_file_and_line(fn, construct, marker):
    jitted = ms.jit(fn, fullgraph=True)
    with pytest.raises(JitSyntaxError) as info:
        jitted(t(1, 2))
    error = info.value
    assert isinstance(error, SyntaxError)
    message = str(error)
    line = line_of(fn, marker)
    assert construct in message
    assert f"test_fallback.py:{line}" in message
    assert error.filename.endswith("test_fallback.py") and error.lineno == line
    assert "fullgraph=False" in message           # says how to get the fallback


def test_fallback_statement_runs_every_call_and_explain_lists_it():
    LOG.clear()
    jitted = ms.jit(reads_a_value)             # fullgraph=False is the default
    for values in ([1.0, 2.0], [3.0, 4.0], [0.5, 0.5]):
        x = Tensor(np.array(values, np.float32))
        close(jitted(x), x * 2 + 1)
    assert LOG == [6.0, 14.0, 2.0]             # the fallback ran on each call
    assert compiles(jitted) == 1

    report = ms.explain(jitted)(t(1.0, 1.0))
    line = line_of(reads_a_value, "LOG.append")
    assert report.fallbacks == [(report.fallbacks[0][0], f"{__file__}:{line}")]
    assert "float(tensor)" in report.fallbacks[0][0]
    text = str(report)
    assert "statements run as Python (fallback): 1" in text
    assert f"test_fallback.py:{line}" in text
    assert LOG[-1] == 4.0


def test_unsupported_statement_runs_as_python_and_the_rest_is_compiled():
    jitted = ms.jit(with_try)
    for values in ([1.0, 2.0], [-1.0, 0.0]):
        x = Tensor(np.array(values, np.float32))
        close(jitted(x), with_try(x))
    entry = jitted._tj_jit.last_entry
    assert entry.info.fallbacks[0][0] == "'try' statement"
    assert entry.graph.primitive_names() == ["mul"]            # y = x * 2 is a graph
    assert compiles(jitted) == 1


def test_python_value_computed_by_a_fallback_gets_a_graph_per_value():
    def program(x):
        n = int(x.sum())                   # fallback: a Python int at run time
        out = x
        for i in range(n):                 # unrolled, for this n
            out = out + i
        return out

    jitted = ms.jit(program)
    for values in ([1.0, 2.0], [1.0, 1.0], [2.0, 1.0], [0.0, 1.0]):
        x = Tensor(np.array(values, np.float32))
        close(jitted(x), program(x))
    assert compiles(jitted) == 1               # one entry; its segments keyed by n
    fallback = jitted._tj_jit.last_entry.program.first.fallback
    assert len(fallback.continuations) == 3    # n = 3, 2, 1


def test_numpy_calls_on_graph_tensors_fall_back_per_statement():
    jitted = ms.jit(numpy_on_tensor)
    x = t(1, 2, 3)
    close(jitted(x), numpy_on_tensor(x))
    assert len(jitted._tj_jit.last_entry.info.fallbacks) == 1


def test_variable_assigned_on_one_path_only_runs_as_python():
    # whether ``y`` exists depends on the data: the ``if`` runs as Python (as eagerly);
    # with fullgraph=True it is an error naming the variable
    def program(x):
        if x.sum() > 0:
            y = x * 2
        return y

    jitted = ms.jit(program)
    close(jitted(t(1.0)), program(t(1.0)))
    with pytest.raises(UnboundLocalError, match="'y'"):
        jitted(t(-1.0))
    with pytest.raises(SyntaxError, match=r"'y' is assigned only when the tensor condition "
                                          r"is true, and read afterwards"):
        ms.jit(program, fullgraph=True)(t(1.0))


def test_branches_giving_different_shapes_error_names_the_variable():
    def program(x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x[:1]
        return y

    with pytest.raises(JitSyntaxError, match=r"variable 'y' is a f32\[2\] tensor on one "
                                             r"path and a f32\[1\] tensor on another"):
        ms.jit(program, fullgraph=True)(t(1.0, 2.0))
    jitted = ms.jit(program)                      # fallback: runs as Python
    close(jitted(t(1.0, 2.0)), t(2.0, 4.0))
    close(jitted(t(-1.0, -2.0)), t(-1.0))


def test_source_unavailable_suggests_trace_or_bytecode():
    namespace = {}
    exec("def typed_in_a_repl(x):\n    return x + 1\n", namespace)
    with pytest.raises(RuntimeError, match=r"needs the Python source of 'typed_in_a_repl'.*"
                                           r"capture_mode='trace' or capture_mode='bytecode'"):
        ms.jit(namespace["typed_in_a_repl"])(t(1.0))
    traced = ms.jit(namespace["typed_in_a_repl"], capture_mode="trace")
    close(traced(t(1.0)), t(2.0))


def test_statements_in_tensor_control_flow_fall_back_with_their_top_level_statement():
    def program(x):
        y = x * 2
        if y.sum() > 0:
            with np.errstate(all="ignore"):      # unsupported inside a tensor branch
                y = y + 1
        return y * 3

    with pytest.raises(JitSyntaxError, match="'with' statement"):
        ms.jit(program, fullgraph=True)(t(1.0))
    jitted = ms.jit(program)
    for x in (t(1.0), t(-1.0)):
        close(jitted(x), program(x))
    assert [c for c, _ in jitted._tj_jit.last_entry.info.fallbacks] == ["'with' statement"]
