"""Bytecode capture: symbolic execution with graph breaks, guards and branches. Every
result is compared with eager mode (the same function run without jit)."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, Parameter, nn, ops
from tensorjit.bench import workloads
from tensorjit.capture.bytecode import GraphBreakError
from tensorjit.capture.bytecode import versions as bytecode_versions
from tensorjit.jit.cache import CACHE
from tensorjit.jit.function import STATS

from programs import CASES, assert_same


def rand(*shape, seed=0):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def f(a, b, c):
    return a * b + c


@pytest.mark.parametrize("options", [dict(jit_level="O0"), dict(jit_level="O1"),
                                     dict(backend="GE")])
def test_seed_simple_function_is_one_graph_equal_to_eager(options):
    jitted = ms.jit(f, capture_mode="bytecode", **options)
    for i in range(5):
        a, b, c = (rand(2, 3, seed=3 * i + k) for k in range(3))
        assert_same(jitted(a, b, c), f(a, b, c))
    report = ms.explain(jitted)(a, b, c)
    assert report.graph_count == 1 and report.break_count == 0
    assert "graph breaks: none" in str(report)


def test_print_and_list_append_run_on_every_call(capsys):
    log = []

    def g(x, n):
        y = x * 2
        print("step", n)
        log.append(n)
        return y + 1

    jitted = ms.jit(g, capture_mode="bytecode")
    x = rand(3)
    for n in (1, 1, 2, 1):
        assert_same(jitted(x, n), g.__wrapped__(x, n) if hasattr(g, "__wrapped__") else
                    x * 2 + 1)
    assert capsys.readouterr().out.splitlines() == ["step 1", "step 1", "step 2", "step 1"]
    assert log == [1, 1, 2, 1]
    reasons = [reason for reason, _ in ms.explain(jitted)(x, 1).breaks]
    assert any("print" in r for r in reasons) and any("append" in r for r in reasons)


def test_numpy_on_asnumpy_midway_is_two_graphs_and_one_break():
    def h(x):
        y = x * 2
        a = np.sort(y.asnumpy())
        z = Tensor(a) + 1
        return z * x

    jitted = ms.jit(h, capture_mode="bytecode")
    for values in ([3.0, 1.0, 2.0], [5.0, -1.0, 0.0], [0.5, 0.25, -7.0]):
        x = Tensor(np.array(values, np.float32))
        assert_same(jitted(x), h(x))
    report = ms.explain(jitted)(x)
    assert report.graph_count == 2 and report.break_count == 1
    reason, location = report.breaks[0]
    assert "asnumpy" in reason
    assert location.endswith(f"test_bytecode.py:{h.__code__.co_firstlineno + 2}")


def test_data_dependent_if_alternating_signs():
    def k(x):
        if x.sum() > 0:
            return x * 2
        return x - 1

    jitted = ms.jit(k, capture_mode="bytecode")
    pos, neg = rand(3, seed=1).abs() + 0.1, -(rand(3, seed=2).abs() + 0.1)
    before = STATS["compiles"]
    for _ in range(4):
        assert_same(jitted(pos), k(pos))
        assert_same(jitted(neg), k(neg))
    assert STATS["compiles"] - before == 1       # one program; branches filled in lazily
    assert "condition on a tensor value" in str(ms.explain(jitted)(pos))


SCALE = 2.0


def scaled(x):
    return x * SCALE


def test_changing_a_global_recompiles():
    global SCALE
    jitted = ms.jit(scaled, capture_mode="bytecode")
    x = rand(3)
    try:
        for value in (2.0, 2.0, 5.0, 0.5, 2.0):
            SCALE = value
            np.testing.assert_allclose(jitted(x).asnumpy(), x.asnumpy() * value, rtol=1e-6)
        assert "global 'SCALE'" in " ".join(ms.explain(jitted)(x).guards)
    finally:
        SCALE = 2.0


def test_closure_and_attribute_changes_are_guarded():
    factor = [3.0]

    class Scaler(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scale = 2.0

        def construct(self, x):
            return x * self.scale

    def outer():
        k = factor[0]

        def inner(x):
            return x * k
        return inner

    cell = Scaler()
    jitted_cell = ms.jit(cell, capture_mode="bytecode")
    x = rand(3)
    np.testing.assert_allclose(jitted_cell(x).asnumpy(), x.asnumpy() * 2, rtol=1e-6)
    cell.scale = 4.0
    np.testing.assert_allclose(jitted_cell(x).asnumpy(), x.asnumpy() * 4, rtol=1e-6)
    for value in (3.0, 7.0):
        factor[0] = value
        np.testing.assert_allclose(ms.jit(outer(), capture_mode="bytecode")(x).asnumpy(),
                                   x.asnumpy() * value, rtol=1e-6)


@pytest.mark.parametrize("program, inputs", CASES, ids=[p.__name__ for p, _ in CASES])
def test_control_flow_programs_equal_eager(program, inputs):
    jitted = ms.jit(program, capture_mode="bytecode")
    for _ in range(2):                 # every input, twice, on the same compiled function
        for x in inputs:
            assert_same(jitted(x), program(x))


@pytest.mark.parametrize("make", [workloads.resnet_block, workloads.llama_attention])
@pytest.mark.parametrize("training", [False, True])
def test_seed_cells_are_one_graph_forward_and_backward(make, training):
    work = make("tiny")
    cell = work.cell.set_train(training)
    jitted = ms.jit(cell, capture_mode="bytecode")
    expected = cell(*work.args, **work.kwargs)
    assert_same(jitted(*work.args, **work.kwargs), expected)
    report = ms.explain(jitted)(*work.args, **work.kwargs)
    assert report.graph_count == 1 and report.break_count == 0

    grad_fn = ms.value_and_grad(cell, None, cell.trainable_params())
    step = ms.jit(lambda *a: grad_fn(*a), capture_mode="bytecode")
    (loss, grads), (loss0, grads0) = step(*work.args), grad_fn(*work.args)
    assert_same(loss, loss0)
    assert len(grads) == len(cell.trainable_params())
    for g, g0 in zip(grads, grads0):
        assert_same(g, g0)
    assert ms.explain(step)(*work.args).graph_count == 1


def test_batchnorm_statistics_update_in_training():
    work = workloads.resnet_block("tiny")
    eager, jitted_cell = work.cell.set_train(True), None
    twin = workloads.resnet_block("tiny").cell.set_train(True)
    jitted_cell = ms.jit(twin, capture_mode="bytecode")
    for _ in range(3):
        eager(*work.args)
        jitted_cell(*work.args)
    for name in ("bn1.moving_mean", "bn1.moving_variance", "bn2.moving_mean"):
        a = dict(eager.parameters_and_names())[name].asnumpy()
        b = dict(twin.parameters_and_names())[name].asnumpy()
        np.testing.assert_allclose(b, a, rtol=1e-6)


def test_fullgraph_raises_on_the_first_break_with_reason_and_line():
    def g(x):
        y = x + 1
        print(y)
        return y

    with pytest.raises(GraphBreakError) as info:
        ms.jit(g, capture_mode="bytecode", fullgraph=True)(rand(2))
    message = str(info.value)
    assert "print" in message
    assert f"test_bytecode.py:{g.__code__.co_firstlineno + 2}" in message


def test_functions_the_interpreter_cannot_follow_run_as_python():
    def g(x):
        try:
            return x * 2
        except ValueError:
            return x

    def calls_it(x):
        return g(x) + 1

    x = rand(3)
    jitted = ms.jit(g, capture_mode="bytecode")
    assert_same(jitted(x), g(x))
    assert "try/except" in ms.explain(jitted)(x).breaks[0][0]
    outer = ms.jit(calls_it, capture_mode="bytecode")
    assert_same(outer(x), calls_it(x))
    assert "try/except" in ms.explain(outer)(x).breaks[0][0]


def test_side_effects_on_outside_objects_repeat_every_call():
    class Counter:
        calls = 0

    counter = Counter()

    def g(x):
        counter.calls = counter.calls + 1
        return x * counter.calls

    jitted = ms.jit(g, capture_mode="bytecode")
    x = rand(2)
    for k in range(1, 4):
        np.testing.assert_allclose(jitted(x).asnumpy(), x.asnumpy() * k, rtol=1e-6)
    assert counter.calls == 3


def test_in_place_update_of_an_argument_and_a_parameter():
    w = Parameter(Tensor(np.ones(2, np.float32)), name="w")

    def g(x):
        x += 1
        w.assign_value(w * 2)
        return x * w

    jitted = ms.jit(g, capture_mode="bytecode")
    x = Tensor(np.zeros(2, np.float32))
    for k in range(1, 4):
        out = jitted(x)
        np.testing.assert_allclose(x.asnumpy(), [k, k])
        np.testing.assert_allclose(w.asnumpy(), [2 ** k, 2 ** k])
        np.testing.assert_allclose(out.asnumpy(), [k * 2 ** k] * 2)


def test_python_numbers_from_tensors_feed_the_next_graph():
    def g(x):
        m = float(x.max())
        return x / m + m

    jitted = ms.jit(g, capture_mode="bytecode")
    before = STATS["compiles"]
    for values in ([1.0, 2.0], [3.0, -1.0], [0.5, 0.25]):
        x = Tensor(np.array(values, np.float32))
        out = jitted(x)
        assert out.dtype == ms.float32
        assert_same(out, g(x))
    assert STATS["compiles"] - before == 1


def test_varargs_kwargs_comprehensions_and_closures():
    def helper(t, k):
        return t * k

    def g(x, *rest, scale=2, **kw):
        ys = [x * i for i in range(3)]
        total = sum(y for y in ys)
        d = {"a": helper(total, scale), "b": [x]}

        def inner(v):
            return v + d["a"]
        return inner(x), kw.get("extra", 0), len(rest)

    jitted = ms.jit(g, capture_mode="bytecode")
    x = rand(3)
    for scale in (2, 3):
        result, expected = jitted(x, 1, 2, scale=scale, extra=5), g(x, 1, 2, scale=scale,
                                                                    extra=5)
        assert_same(result[0], expected[0])
        assert result[1:] == expected[1:]


def test_nested_jit_is_inlined():
    inner = ms.jit(lambda v: v * 3, capture_mode="bytecode")

    def outer(x):
        return inner(x) + 1

    jitted = ms.jit(outer, capture_mode="bytecode")
    x = rand(3)
    assert_same(jitted(x), outer(x))
    assert ms.explain(jitted)(x).graph_count == 1


def test_other_python_versions_are_refused_clearly_at_jit_time(monkeypatch):
    monkeypatch.setattr(bytecode_versions, "RUNNING", (3, 14))
    with pytest.raises(RuntimeError, match=r"CPython 3\.10, 3\.11, 3\.12, 3\.13, but this is "
                                           r"Python 3\.14; use capture_mode='ast' or "
                                           r"capture_mode='trace'"):
        ms.jit(f, capture_mode="bytecode")          # at jit(), not at the first call
    for mode in ("ast", "trace"):                   # the other modes do not care
        assert_same(ms.jit(f, capture_mode=mode)(rand(2), rand(2), rand(2)),
                    f(rand(2), rand(2), rand(2)))


def test_shape_reads_pin_shapes_and_elementwise_graphs_do_not():
    def uses_shape(x):
        return x * float(x.shape[-1]) + len(x)

    def iterates(x):
        total = x[0] * 0
        for row in x:
            total = total + row
        return total

    for fn in (uses_shape, iterates, f):
        jitted = ms.jit(fn, capture_mode="bytecode")
        for shape in ((2, 3), (2, 3), (2, 3), (4, 5), (3, 3)):
            args = [rand(*shape, seed=k) for k in range(fn.__code__.co_argcount)]
            assert_same(jitted(*args), fn(*args))
    CACHE.clear()
    before = STATS["compiles"]
    jitted = ms.jit(f, capture_mode="bytecode")
    for shape in ((2, 3), (4, 5), (7,)):
        args = [rand(*shape, seed=k) for k in range(3)]
        assert_same(jitted(*args), f(*args))
    assert STATS["compiles"] - before == 1


def test_set_train_after_compiling_a_cell_is_respected():
    work = workloads.resnet_block("tiny")
    cell = work.cell.set_train(True)
    jitted = ms.jit(cell, capture_mode="bytecode")
    jitted(*work.args)
    cell.set_train(False)
    assert_same(jitted(*work.args), cell(*work.args))
