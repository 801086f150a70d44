"""Trace capture through the whole compiled path: capture -> IR -> passes -> backend ->
cached, guarded dispatch. Expectations come from NumPy formulas or eager mode."""
import threading
import warnings

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, Parameter, nn, ops
from tensorjit.jit.function import STATS


def rand(*shape, dtype=np.float32, seed=None):
    rng = np.random.default_rng(seed)
    return Tensor(rng.standard_normal(shape).astype(dtype))


def f(a, b, c):
    return a * b + c


def compiles_during(fn):
    before = STATS["compiles"]
    fn()
    return STATS["compiles"] - before


LEVELS_AND_BACKENDS = [dict(jit_level="O0"), dict(jit_level="O1"), dict(backend="GE"),
                       dict(backend="ms_backend", jit_level="O1")]


@pytest.mark.parametrize("options", LEVELS_AND_BACKENDS)
def test_seed_simple_function_all_forms_equal_numpy(options):
    a, b, c = (rand(2, 3, seed=i) for i in range(3))
    expected = a.asnumpy() * b.asnumpy() + c.asnumpy()

    wrapped = ms.jit(f, capture_mode="trace", **options)

    @ms.jit(capture_mode="trace", **options)
    def decorated(a, b, c):
        return a * b + c

    for jitted in (wrapped, decorated):
        for _ in range(4):        # slow path, then the generated fast path
            out = jitted(a, b, c)
            assert isinstance(out, Tensor)
            assert out.dtype == ms.float32 and out.shape == (2, 3)
            np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-6)


def test_decorator_without_arguments_uses_the_ast_default():
    @ms.jit
    def g(x):
        return x + 1
    x = rand(2)
    np.testing.assert_allclose(g(x).asnumpy(), x.asnumpy() + 1)
    assert g._tj_jit.opts.capture_mode == "ast"
    assert g._tj_jit.last_entry.info.mode == "ast"


def test_lowered_text_shows_two_primitives_and_code():
    args = [rand(2, 3, seed=i) for i in range(3)]
    lowered = ms.jit(f, capture_mode="trace").lower(*args)
    text = lowered.as_text()
    assert lowered.graph.primitive_names() == ["mul", "add"]
    assert "mul a b" in text and "add" in text and "f32[2,3]" in text
    assert "def f(a, b, c):" in lowered.code
    namespace = {}
    exec(lowered.code, {**lowered.entry.executable.code.globals}, namespace)
    arrays = [t.asnumpy() for t in args]
    np.testing.assert_allclose(namespace["f"](*arrays)[0], arrays[0] * arrays[1] + arrays[2])
    assert lowered.as_dot().startswith("digraph")


def test_thousand_calls_with_new_tensors_compile_once():
    jitted = ms.jit(f, capture_mode="trace")
    data = [[rand(2, 3, seed=3 * i + k) for k in range(3)] for i in range(1000)]

    def run():
        for a, b, c in data:
            out = jitted(a, b, c)
            np.testing.assert_allclose(out.asnumpy(), a.asnumpy() * b.asnumpy() + c.asnumpy(),
                                       rtol=1e-6)
    assert compiles_during(run) == 1
    assert len(jitted._tj_jit.events) == 1


def test_tensor_dependent_if_is_guarded_and_retraced():
    @ms.jit(capture_mode="trace")
    def g(x):
        if x.sum() > 0:
            return x * 2
        return x - 1

    pos = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    neg = Tensor(np.array([-1.0, -2.0, 0.5], np.float32))
    for _ in range(5):        # alternate, so both versions end up cached and hot in turn
        np.testing.assert_allclose(g(pos).asnumpy(), pos.asnumpy() * 2)
        np.testing.assert_allclose(g(neg).asnumpy(), neg.asnumpy() - 1)
    events = g._tj_jit.events
    assert len(events) == 2
    assert events[1].reason.startswith("guard failed: bool(tensor)")
    report = str(ms.explain(g)(neg))
    assert "guards on values (1)" in report and "recompilations: 1" in report
    assert "test_trace.py" in report


def test_item_and_asnumpy_are_guarded():
    @ms.jit(capture_mode="trace")
    def scale_by_first(x):
        k = int(x[0].item())
        return x * k

    for values in ([2.0, 1.0], [3.0, 1.0], [2.0, 5.0]):
        x = Tensor(np.array(values, np.float32))
        np.testing.assert_allclose(scale_by_first(x).asnumpy(),
                                   np.array(values) * int(values[0]))

    @ms.jit(capture_mode="trace")
    def via_numpy(x):
        return Tensor(np.flip(x.asnumpy()).copy()) + x

    for values in ([1.0, 2.0], [5.0, 7.0]):
        x = Tensor(np.array(values, np.float32))
        np.testing.assert_allclose(via_numpy(x).asnumpy(), np.flip(values) + np.array(values))


def test_jax_seed_static_argnames_and_argnums():
    def fn(x, n):
        if n >= 0:
            return n * x ** 3 + (n - 1) * x ** 2 + (n - 2) * x
        return 2 * x

    by_name = ms.jit(fn, capture_mode="trace", static_argnames=["n"])
    by_num = ms.jit(fn, capture_mode="trace", static_argnums=1)
    for jitted in (by_name, by_num):
        assert jitted(Tensor(10), 5).item() == 5430
        assert jitted(Tensor(100), 5).item() == 5040300
        assert jitted(Tensor(10), 3).item() == 3210
        assert jitted(Tensor(100), 3).item() == 3020100
        assert jitted(Tensor(10), -1).item() == 20
    with pytest.raises(TypeError, match=r"static argument 1 \('n'\).*unhashable.*list"):
        by_num(Tensor(10), [1])
    with pytest.raises(TypeError, match=r"static argument 1 \('n'\).*unhashable"):
        by_name(Tensor(10), n=[1])


@pytest.mark.parametrize("kwargs, message", [
    (dict(capture_mode="graph"), "capture_mode must be one of 'ast', 'bytecode', 'trace'"),
    (dict(jit_level="O3"), "jit_level must be one of 'O0', 'O1'"),
    (dict(backend="tpu"), "backend must be one of 'ms_backend', 'GE'"),
    (dict(exec_order="random"), "option exec_order must be one of 'bfs', 'dfs'"),
    (dict(fast_math=True), "unknown option 'fast_math'"),
    (dict(fullgraph="yes"), "fullgraph must be True or False"),
])
def test_invalid_jit_arguments_are_clear_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ms.jit(f, **kwargs)
    with pytest.raises(ValueError, match=message):
        ms.jit(**kwargs)


def test_jit_of_a_non_callable_is_a_type_error():
    with pytest.raises(TypeError, match="not callable"):
        ms.jit(42, capture_mode="trace")


def test_wrong_argument_count_is_reported_in_the_users_terms():
    jitted = ms.jit(f, capture_mode="trace")
    with pytest.raises(TypeError, match=r"f\(\) missing 1 required positional argument: 'c'"):
        jitted(rand(2), rand(2))


def test_varargs_kwargs_and_nested_structures():
    @ms.jit(capture_mode="trace")
    def g(*xs, scale=1.0, **named):
        total = xs[0]
        for x in xs[1:]:
            total = total + x
        pair = named["pair"]
        return {"sum": total * scale, "pair": (pair[0] - pair[1], [pair[0] * 2])}

    a, b, c, d = (rand(3, seed=i) for i in range(4))
    for scale in (2.0, 3.0):
        out = g(a, b, c, scale=scale, pair=(c, d))
        np.testing.assert_allclose(out["sum"].asnumpy(),
                                   (a.asnumpy() + b.asnumpy() + c.asnumpy()) * scale, rtol=1e-6)
        np.testing.assert_allclose(out["pair"][0].asnumpy(), c.asnumpy() - d.asnumpy())
        assert isinstance(out["pair"][1], list)
        np.testing.assert_allclose(out["pair"][1][0].asnumpy(), c.asnumpy() * 2)


def test_parameters_are_graph_inputs_not_constants():
    w = Parameter(Tensor(np.ones((3,), np.float32)), name="w")

    @ms.jit(capture_mode="trace")
    def g(x):
        return x * w

    x = rand(3, seed=1)
    np.testing.assert_allclose(g(x).asnumpy(), x.asnumpy())
    assert "ref" in g.lower(x).as_text() and "= w" in g.lower(x).as_text()

    def update_and_call():
        for k in range(2, 6):
            w.set_data(Tensor(np.full((3,), k, np.float32)))
            np.testing.assert_allclose(g(x).asnumpy(), x.asnumpy() * k)
    assert compiles_during(update_and_call) == 0


def test_parameter_assignment_is_written_back_every_call():
    counter = Parameter(Tensor(np.zeros((), np.float32)), name="counter", requires_grad=False)

    @ms.jit(capture_mode="trace")
    def step(x):
        counter.assign_value(counter + 1)
        return x * counter

    x = rand(2, seed=0)
    for k in range(1, 6):
        np.testing.assert_allclose(step(x).asnumpy(), x.asnumpy() * k)
        assert counter.item() == k
    assert "assign" in step.lower(x).as_text()
    assert counter.item() == 5       # lowering does not run the update


def test_in_place_update_of_an_argument_reaches_the_caller():
    @ms.jit(capture_mode="trace")
    def bump(x, y):
        x += y
        return x * 2

    x, y = rand(3, seed=0), rand(3, seed=1)
    x0 = x.asnumpy().copy()
    for k in range(1, 4):
        out = bump(x, y)
        np.testing.assert_allclose(x.asnumpy(), x0 + k * y.asnumpy(), rtol=1e-6)
        np.testing.assert_allclose(out.asnumpy(), 2 * x.asnumpy(), rtol=1e-6)


def test_value_and_grad_inside_trace_is_one_graph_equal_to_eager():
    w = Parameter(rand(3, 4, seed=5), name="w")
    b = Parameter(rand(4, seed=6), name="b")

    def loss(x):
        return (ops.tanh(ops.matmul(x, w) + b) ** 2).mean()

    grad_fn = ms.value_and_grad(loss, None, [w, b])
    step = ms.jit(lambda x: grad_fn(x), capture_mode="trace")
    x = rand(2, 3, seed=7)
    for _ in range(3):
        (value, (gw, gb)), (value0, (gw0, gb0)) = step(x), grad_fn(x)
        np.testing.assert_allclose(value.asnumpy(), value0.asnumpy(), rtol=1e-6)
        np.testing.assert_allclose(gw.asnumpy(), gw0.asnumpy(), rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(gb.asnumpy(), gb0.asnumpy(), rtol=1e-5, atol=1e-7)
    graph = step.lower(x).graph
    names = graph.primitive_names()
    assert names.count("matmul") == 2 and "tanh" in names     # forward and backward
    assert {r.name for r in graph.refs} == {"w", "b"}


def test_grad_of_a_jitted_function_matches_finite_differences():
    jitted = ms.jit(lambda x: (ops.sin(x) * x).sum(), capture_mode="trace")
    x = Tensor(np.array([0.3, -1.2, 2.0]))
    jitted(x)
    g = ms.grad(jitted)(x).asnumpy()
    np.testing.assert_allclose(g, np.cos(x.asnumpy()) * x.asnumpy() + np.sin(x.asnumpy()),
                               rtol=1e-10)


def test_jitting_the_same_lambda_again_hits_the_cache():
    def unjitted(x):
        return 3 * x ** 3 + 2 * x ** 2 + 5 * x

    x = Tensor(np.array(10.0, np.float32))

    def loop():      # the seed's f_inner_jitted_lambda: a fresh jit of a fresh lambda
        for _ in range(50):
            assert ms.jit(lambda v: unjitted(v), capture_mode="trace")(x).item() == 3250
    assert compiles_during(loop) == 1

    def closures():
        for k in (1.0, 2.0, 1.0, 2.0):
            fn = ms.jit(lambda v, k=k: v * k, capture_mode="trace")
            assert fn(x).item() == 10 * k
    assert compiles_during(closures) == 2      # one per captured value


def test_concurrent_first_calls_compile_once_per_key():
    def body(x):
        return ops.exp(x) * 2 - x

    jitted = ms.jit(body, capture_mode="trace")
    shapes = [(2,), (3, 2)] * 8
    inputs = [rand(*s, seed=i) for i, s in enumerate(shapes)]
    results = [None] * len(inputs)
    barrier = threading.Barrier(len(inputs))

    def worker(i):
        barrier.wait()
        results[i] = jitted(inputs[i])

    before = STATS["compiles"]
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert STATS["compiles"] - before <= 2
    for x, out in zip(inputs, results):
        np.testing.assert_allclose(out.asnumpy(), np.exp(x.asnumpy()) * 2 - x.asnumpy(),
                                   rtol=1e-6)


def test_elementwise_graph_serves_other_shapes_without_recompiling():
    jitted = ms.jit(f, capture_mode="trace")
    shapes = [(2, 3), (2, 3), (2, 3), (4, 5), (7,), (), (1, 5)]

    def run():
        for i, shape in enumerate(shapes):
            a, b, c = (rand(*shape, seed=10 * i + k) for k in range(3))
            out = jitted(a, b, c)
            assert out.shape == shape
            np.testing.assert_allclose(out.asnumpy(), a.asnumpy() * b.asnumpy() + c.asnumpy(),
                                       rtol=1e-6)
    assert compiles_during(run) == 1


def test_python_logic_on_shapes_is_specialised_per_shape():
    @ms.jit(capture_mode="trace")
    def first_rows_doubled(x):
        total = x[0] * 0
        for i in range(x.shape[0]):
            total = total + x[i] * 2
        return total

    for i, n in enumerate([2, 2, 2, 3, 5]):
        x = rand(n, 3, seed=i)
        np.testing.assert_allclose(first_rows_doubled(x).asnumpy(), x.asnumpy().sum(0) * 2,
                                   rtol=1e-5)


def test_shape_reads_in_user_code_disable_shape_generic_reuse():
    @ms.jit(capture_mode="trace")
    def g(x):
        return x * float(x.shape[-1])

    for n in (2, 2, 2, 4):
        x = rand(n, seed=n)
        np.testing.assert_allclose(g(x).asnumpy(), x.asnumpy() * n, rtol=1e-6)


def test_dtype_change_recompiles_and_keeps_dtype():
    jitted = ms.jit(f, capture_mode="trace")
    for dtype in (np.float32, np.float64, np.float16, np.int32):
        a, b, c = (Tensor(np.arange(6, dtype=dtype).reshape(2, 3) + k) for k in range(3))
        out = jitted(a, b, c)
        assert out.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(out.asnumpy(), (a.asnumpy() * b.asnumpy() + c.asnumpy()))


def test_runtime_print_runs_every_call(capsys):
    @ms.jit(capture_mode="trace")
    def g(x):
        y = x * 2
        ops.print_("y is", y)
        return y + 1

    for k in range(3):
        g(Tensor(np.array([float(k)], np.float32)))
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines == ["y is [0.]", "y is [2.]", "y is [4.]"]


def test_dropout_draws_a_new_mask_every_call():
    @ms.jit(capture_mode="trace")
    def g(x):
        return ops.dropout(x, p=0.5, training=True)

    x = Tensor(np.ones((1000,), np.float32))
    masks = [g(x).asnumpy() != 0 for _ in range(3)]
    assert not np.array_equal(masks[0], masks[1]) and not np.array_equal(masks[1], masks[2])
    for m in masks:
        assert 0.4 < m.mean() < 0.6
    out = g(x).asnumpy()
    np.testing.assert_allclose(out[out != 0], 2.0)


def test_too_many_recompilations_warn_once():
    jitted = ms.jit(lambda x, n: x * n, capture_mode="trace")
    x = rand(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(12):
            jitted(x, n)
    messages = [str(w.message) for w in caught if "compiled" in str(w.message)]
    assert len(messages) == 1 and "has been compiled 9 times" in messages[0]


def test_make_ir_is_readable_and_verified():
    from tensorjit.ir import verify
    graph = ms.make_ir(lambda x, y: ops.softmax(ops.matmul(x, y), axis=-1))(rand(2, 3),
                                                                             rand(3, 4))
    assert verify(graph)
    text = graph.as_text()
    assert "matmul" in text and "softmax[axis=1]" in text and "f32[2,4]" in text


def test_user_errors_inside_a_trace_name_the_op_shapes_and_line():
    @ms.jit(capture_mode="trace")
    def bad(x, y):
        return ops.matmul(x, y)

    with pytest.raises(ValueError) as info:
        bad(rand(2, 3), rand(4, 5))
    message = str(info.value)
    assert "matmul" in message and "(2, 3)" in message or "f32[2,3]" in message
    assert "test_trace.py" in message


def test_zero_dim_inputs_through_the_fast_path():
    jitted = ms.jit(f, capture_mode="trace")
    a, b, c = (Tensor(np.float32(v)) for v in (2.0, 3.0, 1.0))
    for _ in range(4):
        out = jitted(a, b, c)
        assert out.shape == () and out.item() == 7.0
        assert float(out + 1) == 8.0


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_literals_keep_their_dtype_when_no_array_operand_fixes_it(level):
    # NumPy gives Python numbers the dtype of the array they meet; where(c, 1.0, 0.0) has
    # none, so generated code must not write plain Python numbers there
    @ms.jit(capture_mode="trace", jit_level=level)
    def g(x):
        return ops.where(x > 0, Tensor(np.float32(1.0)), Tensor(np.float32(0.0))), Tensor(
            np.float16(2.0))

    for _ in range(3):
        out, constant = g(Tensor(np.array([1.0, -1.0], np.float32)))
        assert out.dtype == ms.float32 and constant.dtype == ms.float16
        np.testing.assert_array_equal(out.asnumpy(), [1.0, 0.0])


@pytest.mark.parametrize("mode", ["trace", "bytecode", "ast"])
def test_none_and_identity_arguments_do_not_recompile(mode):
    def g(x, mask=None, cell=None):
        return x * 2 if mask is None else x + mask

    jitted = ms.jit(g, capture_mode=mode)
    x, cell = rand(3), nn.ReLU()
    before = STATS["compiles"]
    for _ in range(4):
        np.testing.assert_allclose(jitted(x, None, cell).asnumpy(), x.asnumpy() * 2)
    assert STATS["compiles"] - before == 1


@pytest.mark.parametrize("training", [False, True])
def test_seed_cells_traced_equal_eager_forward_backward_and_moving_statistics(training):
    from tensorjit.bench import workloads
    for make in (workloads.resnet_block, workloads.llama_attention):
        eager_work, jit_work = make("tiny"), make("tiny")      # same seed: same weights
        eager_cell = eager_work.cell.set_train(training)
        jit_cell = jit_work.cell.set_train(training)
        forward = ms.jit(jit_cell, capture_mode="trace")
        for _ in range(3):
            np.testing.assert_allclose(forward(*jit_work.args, **jit_work.kwargs).asnumpy(),
                                       eager_cell(*eager_work.args,
                                                  **eager_work.kwargs).asnumpy(),
                                       rtol=1e-5, atol=1e-6)
        grad_fn = ms.value_and_grad(jit_cell, None, jit_cell.trainable_params())
        eager_grad = ms.value_and_grad(eager_cell, None, eager_cell.trainable_params())
        step = ms.jit(lambda *a: grad_fn(*a), capture_mode="trace")
        for _ in range(3):
            (loss, grads), (loss0, grads0) = step(*jit_work.args), eager_grad(*eager_work.args)
            np.testing.assert_allclose(loss.asnumpy(), loss0.asnumpy(), rtol=1e-5)
            assert len(grads) == len(jit_cell.trainable_params())
            for g, g0 in zip(grads, grads0):
                np.testing.assert_allclose(g.asnumpy(), g0.asnumpy(), rtol=1e-4, atol=1e-6)
        # BatchNorm moving statistics moved identically (training) or not at all (eval)
        for (name, p), (_, p0) in zip(jit_cell.parameters_and_names(),
                                      eager_cell.parameters_and_names()):
            np.testing.assert_allclose(p.asnumpy(), p0.asnumpy(), rtol=1e-5, err_msg=name)
