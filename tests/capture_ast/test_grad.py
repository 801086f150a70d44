"""Gradients through graph control flow: ``cond`` (a cond over the branches' VJPs) and
``while_loop`` with a data-dependent trip count (the ``while_grad`` kernel), in graphs
built by ast capture, against analytic derivatives written here."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, Parameter, ops

from .helpers import t, compiles


def piecewise(x):
    if x.sum() > 0:
        y = x * x
    else:
        y = -3.0 * x
    return y.sum()


def test_grad_through_a_data_dependent_if_equals_the_analytic_gradient():
    jitted = ms.jit(ms.grad(piecewise))
    for values in ([1.0, 2.0], [-1.0, -2.0], [3.0, -1.0], [-3.0, 1.0]):
        x = Tensor(np.array(values, np.float32))
        v = np.array(values)
        expected = 2 * v if v.sum() > 0 else np.full_like(v, -3.0)
        np.testing.assert_allclose(jitted(x).asnumpy(), expected, rtol=1e-6)
    assert compiles(jitted) == 1
    names = jitted.lower(x).graph.primitive_names()
    assert names == ["reduce_sum", "gt", "cond"]   # forward cond unused: only its VJP


def test_grad_called_inside_the_jitted_function_and_weights():
    w = Parameter(Tensor(np.array([1.0, -2.0], np.float32)), name="w")

    def loss(x):
        y = x * w
        if y.sum() > 0:
            return (y * y).sum()
        return ops.sin(y).sum()

    grad_fn = ms.value_and_grad(loss, grad_position=0, weights=[w])

    @ms.jit
    def step(x):
        value, (gx, (gw,)) = grad_fn(x)
        return value, gx, gw

    for values in ([1.0, 0.0], [1.0, 1.0], [-2.0, 0.5]):
        x = Tensor(np.array(values, np.float32))
        xv, wv = np.array(values), w.asnumpy().astype(np.float64)
        y = xv * wv
        if y.sum() > 0:
            value, dy = (y * y).sum(), 2 * y
        else:
            value, dy = np.sin(y).sum(), np.cos(y)
        got_value, gx, gw = step(x)
        np.testing.assert_allclose(got_value.asnumpy(), value, rtol=1e-5)
        np.testing.assert_allclose(gx.asnumpy(), dy * wv, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(gw.asnumpy(), dy * xv, rtol=1e-5, atol=1e-6)
    assert compiles(step) == 1


def doubling(x):
    while x.sum() < 10:              # trip count depends on the data
        x = x * 2
    return x.sum()


def test_grad_through_a_while_loop_with_a_data_dependent_trip_count():
    jitted = ms.jit(ms.value_and_grad(doubling))
    for values in ([1.0, 1.0], [3.0, 4.0], [20.0, 0.0], [0.1, 0.2]):
        x = Tensor(np.array(values, np.float32))
        total, trips = sum(values), 0
        while total < 10:
            total, trips = total * 2, trips + 1
        value, grad = jitted(x)
        np.testing.assert_allclose(value.asnumpy(), total, rtol=1e-6)
        np.testing.assert_allclose(grad.asnumpy(), np.full(2, 2.0 ** trips), rtol=1e-6)
    assert compiles(jitted) == 1
    assert "while_grad" in jitted.lower(x).graph.primitive_names()


def test_grad_through_loop_with_loop_invariant_weight():
    def power(x, a):
        p = x * 0 + 1
        while (p * a).sum() < 50:
            p = p * x                # d/dx of x**k and d/da through the condition only
        return (p * a).sum()

    g = ms.jit(ms.grad(power, grad_position=(0, 1)))
    for xv, av in ((2.0, 1.0), (3.0, 2.0)):
        x, a = Tensor(np.array([xv], np.float32)), Tensor(np.array([av], np.float32))
        k, p = 0, 1.0
        while p * av < 50:
            p, k = p * xv, k + 1
        gx, ga = g(x, a)
        np.testing.assert_allclose(gx.asnumpy(), [k * xv ** (k - 1) * av], rtol=1e-5)
        np.testing.assert_allclose(ga.asnumpy(), [p], rtol=1e-5)


def test_grad_through_unrolled_for_with_break_under_a_tensor_condition():
    def program(x):
        for i in range(4):
            if x.sum() > 10:
                break
            x = x * 3
        return x.sum()

    jitted = ms.jit(ms.grad(program))
    for values, trips in (([1.0], 3), ([0.1], 4), ([20.0], 0)):
        x = Tensor(np.array(values, np.float32))
        np.testing.assert_allclose(jitted(x).asnumpy(), [3.0 ** trips], rtol=1e-6)
    assert compiles(jitted) == 1


def test_second_order_through_a_graph_while_loop_is_a_clear_error():
    inner = ms.grad(doubling)

    @ms.jit
    def second(x):
        return ms.grad(lambda v: inner(v).sum())(x)

    with pytest.raises(NotImplementedError, match="second-order gradients through a "
                                                  "tensor-dependent while loop"):
        second(t(1.0, 1.0))


def test_second_order_through_a_data_dependent_if():
    def cubic_or_square(x):
        if x.sum() > 0:
            return (x ** 3).sum()
        return (x * x).sum()

    second = ms.jit(ms.grad(lambda x: ms.grad(cubic_or_square)(x).sum()))
    for values in ([1.0, 2.0], [-1.0, -2.0]):
        x = Tensor(np.array(values, np.float32))
        v = np.array(values)
        expected = 6 * v if v.sum() > 0 else np.full_like(v, 2.0)
        np.testing.assert_allclose(second(x).asnumpy(), expected, rtol=1e-5)
    assert compiles(second) == 1
