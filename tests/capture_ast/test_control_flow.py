"""Tensor-dependent control flow in ast mode: programs in the style of MindSpore's own
control-flow tests. Each runs through ONE compiled function with inputs that take
different paths on different calls, and must equal eager mode every time, with no
recompilation in between."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, Parameter, nn

from programs import CASES
from .helpers import t, close, compiles


@pytest.mark.parametrize("fn, inputs", CASES, ids=[fn.__name__ for fn, _ in CASES])
def test_shared_control_flow_programs_equal_eager_without_recompiling(fn, inputs):
    jitted = ms.jit(fn, capture_mode="ast", fullgraph=True)
    for x in inputs + inputs[::-1]:       # every path, twice, in changing order
        close(jitted(x), fn(x))
    assert compiles(jitted) == 1


# ---- more programs ---------------------------------------------------------------------

def while_counter_with_python_int(x, limit):
    i = 0                                 # a Python int that changes: carried as a tensor
    while x.sum() < limit:
        x = x + 1
        i += 1
    return x, x * i


def while_with_break_and_else(x):
    while x.sum() < 50:
        x = x * 2
        if x.max() > 9:
            break
    else:
        x = x - 100                       # only when the loop ends without break
    return x


def while_with_continue(x):
    n = x * 0
    k = x.sum() * 0
    while k < 6:
        k = k + 1
        if k % 2 == 0:
            continue
        n = n + k
    return n


def for_over_tensor_range(x, n):
    total = x * 0
    for i in range(n):                    # n is a tensor: a graph loop, not unrolled
        total = total + x * i
    return total


def boolean_operators(x, y):
    if x.sum() > 0 and y.sum() > 0:
        r = x + y
    elif not (x.sum() > 0) or y.max() > 5:
        r = x - y
    else:
        r = x * y
    return r


def chained_comparison(x):
    return x * 2 if 0 < x.sum() < 10 else x / 2


def if_without_else_and_in_place(x, y):
    z = x * 1
    if x.sum() > y.sum():
        z += y                            # in-place update inside a branch
        z[0] = 100.0
    return z


def nested_if_in_for_over_python_list(x):
    out = []
    for scale in [1.0, -2.0, 3.0]:
        y = x * scale
        if y.sum() > 0:
            y = y + 10
        out.append(y)
    return out[0], out[1], out[2]


MORE = [
    (while_counter_with_python_int, [(t(1, 2), t(10)), (t(20, 1), t(10)), (t(0, 0), t(3))]),
    (while_with_break_and_else, [(t(1, 1),), (t(20, 20),), (t(4, 5),)]),
    (while_with_continue, [(t(1.0),), (t(2.0),)]),
    (for_over_tensor_range, [(t(1, 2), Tensor(np.array(3))), (t(1, 2), Tensor(np.array(0))),
                             (t(3, 1), Tensor(np.array(5)))]),
    (boolean_operators, [(t(1, 2), t(3, 4)), (t(-1, -2), t(3, 4)), (t(1, 2), t(-3, 9)),
                         (t(1, 2), t(-3, -4))]),
    (chained_comparison, [(t(1, 2),), (t(20, 1),), (t(-1, -2),)]),
    (if_without_else_and_in_place, [(t(5, 6), t(1, 2)), (t(1, 2), t(5, 6))]),
    (nested_if_in_for_over_python_list, [(t(1, 2),), (t(-1, -2),), (t(1, -2),)]),
]


@pytest.mark.parametrize("fn, calls", MORE, ids=[fn.__name__ for fn, _ in MORE])
def test_more_control_flow_equals_eager_without_recompiling(fn, calls):
    jitted = ms.jit(fn, fullgraph=True)
    for args in calls + calls[::-1]:
        close(jitted(*args), fn(*args))
    assert compiles(jitted) == 1


def test_tensor_conditions_become_cond_and_while_loop_nodes_in_readable_code():
    def program(x):
        while x.sum() < 10:
            if x.max() > 3:
                x = x + 1
            else:
                x = x * 2
        return x

    lowered = ms.jit(program).lower(t(1, 2))
    text = lowered.as_text()
    assert "while_loop" in text and "cond" in text
    assert "cond_graph:" in text and "body_graph:" in text and "then_branch:" in text
    code = lowered.code
    assert "while True:" in code and "if not " in code and "break" in code
    assert "    if " in code and "else:" in code
    compile(code, "<check>", "exec")                   # valid, readable Python


def test_python_conditions_are_resolved_at_compile_time():
    def program(x, mode):
        if mode == "double":                # a static argument: no graph control flow
            return x * 2
        return x

    jitted = ms.jit(program, static_argnames="mode")
    lowered = jitted.lower(t(1, 2), mode="double")
    assert lowered.graph.primitive_names() == ["mul"]
    close(jitted(t(1, 2), mode="double"), t(2, 4))
    close(jitted(t(1, 2), mode="same"), t(1, 2))


def test_loops_over_python_values_are_unrolled():
    def program(x):
        for k in (1, 2, 3):
            x = x * k
        for i, w in enumerate([10.0, 20.0]):
            x = x + w * i
        for a, b in zip([1.0, 2.0], [3.0, 4.0]):
            x = x - a * b
        return x

    lowered = ms.jit(program).lower(t(1.0))
    names = lowered.graph.primitive_names()
    assert "while_loop" not in names and "cond" not in names
    close(ms.jit(program)(t(1.0)), program(t(1.0)))


def test_parameter_updated_inside_a_tensor_branch_is_written_back():
    counter = Parameter(Tensor(np.zeros((), np.float32)), name="counter", requires_grad=False)

    def program(x):
        if x.sum() > 0:
            counter.assign_value(counter + 1)
        return x * counter

    jitted = ms.jit(program)
    expected_count = 0
    for values in ([1.0], [-1.0], [2.0], [-3.0], [4.0]):
        x = Tensor(np.array(values, np.float32))
        expected_count += values[0] > 0
        close(jitted(x), x * float(expected_count))
        assert counter.item() == expected_count
    assert compiles(jitted) == 1


def test_print_inside_a_tensor_branch_runs_at_call_time(capsys):
    def program(x):
        y = x * 2
        if y.sum() > 0:
            print("positive", y)
        else:
            print(f"negative: {y.sum()}!")
        return y

    jitted = ms.jit(program)
    jitted(t(1, 2))
    jitted(t(-1, -2))
    jitted(t(3, 3))
    # what eager prints: a 0-d tensor shows as NumPy shows it ("-6.")
    assert capsys.readouterr().out.splitlines() == [
        "positive [2. 4.]", "negative: -6.!", "positive [6. 6.]"]
    for x in (t(1, 2), t(-1, -2), t(3, 3)):
        program(x)
    assert capsys.readouterr().out.splitlines() == [
        "positive [2. 4.]", "negative: -6.!", "positive [6. 6.]"]
    assert compiles(jitted) == 1


def test_celllist_loop_with_data_dependent_if_and_unrolled_layers():
    class Gate(nn.Cell):
        def __init__(self, threshold):
            super().__init__()
            self.dense = nn.Dense(3, 3)
            self.threshold = threshold

        def construct(self, x):
            y = self.dense(x)
            if y.sum() > self.threshold:
                y = y * 0.5
            return y

    class Stack(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList([Gate(0.0), Gate(1.0), Gate(-1.0)])

        def construct(self, x):
            for layer in self.layers:
                x = layer(x)
                if x.max() > 5:
                    x = x / 10
            return x

    ms.set_seed(3)
    net = Stack()
    jitted = ms.jit(net)
    rng = np.random.default_rng(0)
    for scale in (1.0, -3.0, 10.0, 0.1):
        x = Tensor((rng.standard_normal((2, 3)) * scale).astype(np.float32))
        close(jitted(x), net(x), rtol=1e-5, atol=1e-6)
    assert compiles(jitted) == 1
    names = jitted.lower(x).graph.primitive_names()
    assert names.count("cond") == 6 and names.count("dense") + names.count("matmul") >= 3


def test_print_and_parameter_update_inside_a_tensor_while(capsys):
    steps = Parameter(Tensor(np.zeros((), np.float32)), name="steps", requires_grad=False)

    def program(x):
        while x.sum() < 10:
            print("x =", x)
            steps.assign_value(steps + 1)
            x = x * 2
        return x

    jitted = ms.jit(program)
    close(jitted(t(1, 1)), t(8, 8))
    close(jitted(t(3, 3)), t(6, 6))
    assert steps.item() == 4
    assert capsys.readouterr().out.splitlines() == ["x = [1. 1.]", "x = [2. 2.]",
                                                    "x = [4. 4.]", "x = [3. 3.]"]
    assert compiles(jitted) == 1
    assert "while_loop_effect" in jitted.lower(t(1, 1)).graph.primitive_names()
    assert steps.item() == 4                      # lowering does not run the graph
