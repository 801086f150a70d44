"""MindSpore's transforms under ``ops`` (ops.grad, ops.vmap, ops.GradOperation, ops.partial,
ops.HyperMap, ...) are tensorjit's transforms; ``grad``'s ``sens_param`` / ``return_ids``,
``linearize``, ``derivative`` and ``stop_gradient_`` follow MindSpore 2.10 (the values
below are MindSpore's, and NumPy's derivatives)."""
import numpy as np
import pytest

import tensorjit as tj
from tensorjit import ops, Tensor, Parameter
from tensorjit.ops import composite as C

X = Tensor(np.array([1.0, 2.0, 3.0], np.float32))
Y = Tensor(np.array([4.0, 5.0, 6.0], np.float32))
S = Tensor(np.array([1.0, 10.0, 100.0], np.float32))


def test_ops_holds_the_transforms():
    assert ops.grad is tj.grad and ops.value_and_grad is tj.value_and_grad
    assert ops.vjp is tj.vjp and ops.jvp is tj.jvp and ops.vmap is tj.vmap
    assert ops.jacfwd is tj.jacfwd and ops.jacrev is tj.jacrev
    assert ops.GradOperation is C.GradOperation
    assert ops.MultitypeFuncGraph is C.MultitypeFuncGraph and ops.HyperMap is C.HyperMap
    assert ops.Map is C.Map


def _f(a, b):
    return a * a * b


def test_sens_param_seeds_the_output_with_the_last_argument():
    np.testing.assert_allclose(ops.grad(_f, sens_param=True)(X, Y, S).asnumpy(), [8, 200, 3600])
    value, g = ops.value_and_grad(_f, (0, 1), sens_param=True)(X, Y, S)
    np.testing.assert_allclose(value.asnumpy(), [4, 20, 54])
    np.testing.assert_allclose(g[1].asnumpy(), [1, 40, 900])
    for mode in ("trace", "ast", "bytecode"):       # the extra argument under jit
        got = tj.jit(ops.grad(_f, sens_param=True), capture_mode=mode)(X, Y, S)
        np.testing.assert_allclose(got.asnumpy(), [8, 200, 3600])
        got = tj.jit(ops.GradOperation(sens_param=True)(_f), capture_mode=mode)(X, Y, S)
        np.testing.assert_allclose(got.asnumpy(), [8, 200, 3600])


def test_return_ids_pairs_gradients_with_positions_and_names():
    (i, gx), (j, gy) = ops.grad(_f, (0, 1), return_ids=True)(X, Y)
    assert (i, j) == (0, 1)
    np.testing.assert_allclose(gx.asnumpy(), [8, 20, 36])
    w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")
    (name, gw), = ops.grad(lambda a: a * w, None, weights=[w], return_ids=True)(X)
    assert name == "w" and gw.asnumpy().tolist() == [6.0]


def test_linearize_gives_the_jacobian_vector_product():
    out, jvp_fn = ops.linearize(lambda a: a * a * a, X)
    np.testing.assert_allclose(out.asnumpy(), [1, 8, 27])
    np.testing.assert_allclose(jvp_fn(ops.ones_like(X)).asnumpy(), [3, 12, 27])
    np.testing.assert_allclose(jvp_fn(X).asnumpy(), [3, 24, 81])   # reused
    out, jvp_fn = ops.linearize(lambda a, b: ops.sin(a) * b, (X, X))
    np.testing.assert_allclose(jvp_fn((ops.ones_like(X), ops.ones_like(X))).asnumpy(),
                               [1.3817732, 0.07700378, -2.8288574], rtol=1e-5)
    with pytest.raises(ValueError):
        jvp_fn((X,))


@pytest.mark.parametrize("order", [1, 2, 3])
def test_derivative_is_the_directional_derivative_along_ones(order):
    x = X.asnumpy().astype(np.float64)
    out, d = ops.derivative(ops.sin, (X,), order)
    want = [np.cos, lambda v: -np.sin(v), lambda v: -np.cos(v)][order - 1](x)
    np.testing.assert_allclose(out.asnumpy(), np.sin(x), rtol=1e-6)
    np.testing.assert_allclose(d.asnumpy(), want, rtol=1e-5, atol=1e-6)


def test_derivative_of_two_inputs_and_its_errors():
    _, d = ops.derivative(lambda a, b: ops.sin(a) * b, (X, X), 2)
    np.testing.assert_allclose(d.asnumpy(), [0.23913354, -2.6508884, -2.403345], rtol=1e-5)
    with pytest.raises(ValueError):
        ops.derivative(ops.sin, X, 0)


def test_stop_gradient_in_place_stops_the_gradient():
    def f(a):
        b = a * a
        assert ops.stop_gradient_(b) is None
        return b + a
    np.testing.assert_allclose(ops.grad(f)(X).asnumpy(), [1, 1, 1])


def test_partial_and_its_class():
    np.testing.assert_allclose(ops.partial(ops.add, X)(Y).asnumpy(), [5, 7, 9])
    np.testing.assert_allclose(ops.Partial()(ops.mul, X)(Y).asnumpy(), [4, 10, 18])


def test_hyper_map_with_a_multitype_function_from_ops():
    scale = ops.MultitypeFuncGraph("scale")

    @scale.register("Number", "Tensor")
    def _(s, g):
        return g * s
    out = ops.HyperMap()(ops.partial(scale, 0.5), (X, (Y,)))
    np.testing.assert_allclose(out[1][0].asnumpy(), [2, 2.5, 3])
    np.testing.assert_allclose(ops.vmap(lambda a: a * 2)(X).asnumpy(), [2, 4, 6])
