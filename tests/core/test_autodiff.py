"""``grad`` / ``value_and_grad`` / ``vjp``: MindSpore return conventions, and gradients
checked against analytic derivatives or central finite differences (float64)."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, Parameter, ops

from .helpers import assert_close


def numeric_grad(f, arrays, i, eps=1e-6):
    """d f / d arrays[i] by central differences, coordinate by coordinate (f -> float)."""
    base = [np.array(a, dtype=np.float64) for a in arrays]
    g = np.zeros_like(base[i])
    for idx in np.ndindex(*base[i].shape):
        plus = [a.copy() for a in base]
        minus = [a.copy() for a in base]
        plus[i][idx] += eps
        minus[i][idx] -= eps
        g[idx] = (f(*plus) - f(*minus)) / (2 * eps)
    return g


def as_float(fn):
    """Wrap a tensorjit function of tensors as a function of arrays returning a float
    (the sum of the outputs, the quantity grad differentiates)."""
    def f(*arrays):
        out = fn(*[Tensor(a) for a in arrays])
        return float(np.sum(out.asnumpy()))
    return f


# ---- return conventions ------------------------------------------------------------------

X = np.array([1.0, 2.0, -0.5])
Y = np.array([0.5, -1.0, 3.0])


def f_xy(x, y):
    return (x * x * y).sum()


def test_grad_position_int_gives_one_tensor():
    g = ms.grad(f_xy)(Tensor(X), Tensor(Y))
    assert isinstance(g, Tensor)
    assert_close(g, 2 * X * Y, dtype=np.float64)
    g1 = ms.grad(f_xy, grad_position=1)(Tensor(X), Tensor(Y))
    assert_close(g1, X * X, dtype=np.float64)
    gneg = ms.grad(f_xy, grad_position=-1)(Tensor(X), Tensor(Y))
    assert_close(gneg, X * X, dtype=np.float64)


def test_grad_position_tuple_gives_tuple():
    g = ms.grad(f_xy, grad_position=(0, 1))(Tensor(X), Tensor(Y))
    assert isinstance(g, tuple) and len(g) == 2
    assert_close(g[0], 2 * X * Y)
    assert_close(g[1], X * X)
    (g0,) = ms.grad(f_xy, grad_position=(1,))(Tensor(X), Tensor(Y))
    assert_close(g0, X * X)


def test_value_and_grad():
    value, g = ms.value_and_grad(f_xy, grad_position=(0, 1))(Tensor(X), Tensor(Y))
    assert_close(value, np.sum(X * X * Y), dtype=np.float64)
    assert_close(g[0], 2 * X * Y)
    assert_close(g[1], X * X)


def test_weights_only_and_both():
    w = Parameter(Tensor(np.array([0.5, 1.5, -2.0])), name="w")
    b = Parameter(Tensor(np.array(0.25)), name="b")
    unused = Parameter(Tensor(np.ones(2)), name="unused")

    def net(x):
        return ((x * w + b) ** 2).sum()

    r = X * w.asnumpy() + 0.25
    gw, gb, gu = ms.grad(net, grad_position=None, weights=[w, b, unused])(Tensor(X))
    assert_close(gw, 2 * r * X)
    assert_close(gb, np.sum(2 * r))
    assert_close(gu, np.zeros(2))                    # unused weight: zeros of its shape
    gx, (gw2, gb2) = ms.grad(net, grad_position=0, weights=(w, b))(Tensor(X))
    assert_close(gx, 2 * r * w.asnumpy())
    assert_close(gw2, 2 * r * X)
    assert_close(gb2, np.sum(2 * r))
    value, (gx3, (gw3,)) = ms.value_and_grad(net, 0, [w])(Tensor(X))
    assert_close(value, np.sum(r ** 2))
    assert_close(gx3, 2 * r * w.asnumpy())
    value, (gw4,) = ms.value_and_grad(net, None, [w])(Tensor(X))
    assert_close(gw4, 2 * r * X)


def test_has_aux():
    def f(x):
        return (x ** 3).sum(), x * 2, Tensor(7)

    grads, aux = ms.grad(f, has_aux=True)(Tensor(X))
    assert_close(grads, 3 * X ** 2)
    assert isinstance(aux, tuple) and len(aux) == 2
    assert_close(aux[0], 2 * X)
    (value, aux1, aux2), g = ms.value_and_grad(f, has_aux=True)(Tensor(X))
    assert_close(value, np.sum(X ** 3))
    assert_close(aux1, 2 * X)
    assert aux2.item() == 7
    assert_close(g, 3 * X ** 2)

    def f2(x):
        return (x * x).sum(), x + 1

    # MindSpore (checked with 2.10): the aux outputs always come back as a tuple, a 1-tuple
    # for one aux output (the autograd tutorial's ``grads, (z,) = grad_fn(...)``)
    g, (aux,) = ms.grad(f2, has_aux=True)(Tensor(X))
    assert_close(g, 2 * X)
    assert_close(aux, X + 1)
    g, aux = ms.grad(f2, has_aux=True)(Tensor(X))
    assert isinstance(aux, tuple) and len(aux) == 1
    (value, aux), g = ms.value_and_grad(f2, has_aux=True)(Tensor(X))
    assert_close(value, np.sum(X * X))
    assert_close(aux, X + 1)
    assert_close(g, 2 * X)


def test_has_aux_needs_more_than_one_output():
    # MindSpore raises ValueError for a single output or a 1-tuple
    for fn in (lambda a: a.sum(), lambda a: (a.sum(),), lambda a: [a.sum(), a]):
        for transform in (ms.grad, ms.value_and_grad):
            with pytest.raises(ValueError, match="has_aux=True needs .* more than one"):
                transform(fn, has_aux=True)(Tensor(X))


def test_aux_output_does_not_contribute_to_gradient():
    def f(x):
        return x.sum(), (x * x).sum() * 1000
    g, _ = ms.grad(f, has_aux=True)(Tensor(X))
    assert_close(g, np.ones(3))


def test_non_scalar_output_is_differentiated_as_its_sum():
    g = ms.grad(lambda x: x * x)(Tensor(X))
    assert_close(g, 2 * X)
    g = ms.grad(lambda x: ops.matmul(x.reshape(3, 1), x.reshape(1, 3)))(Tensor(X))
    assert_close(g, 2 * np.sum(X) * np.ones(3))
    # a tuple of outputs: the sum of all of them
    g = ms.grad(lambda x: (x.sum(), (x * x).sum()))(Tensor(X))
    assert_close(g, 1 + 2 * X)


def test_same_tensor_at_two_positions():
    t = Tensor(X)
    gx, gy = ms.grad(lambda a, b: (a * b * b).sum(), (0, 1))(t, t)
    assert_close(gx, X ** 2)                  # d/da with b fixed
    assert_close(gy, 2 * X * X)               # d/db with a fixed
    g = ms.grad(lambda a, b: (a * b * b).sum(), 0)(t, t)
    assert_close(g, X ** 2)


def test_kwargs_are_passed_through():
    g = ms.grad(lambda x, scale=1.0: (x * scale).sum())(Tensor(X), scale=3.0)
    assert_close(g, np.full(3, 3.0))


# ---- what gradients flow through -----------------------------------------------------------

def test_inplace_updates_inside_the_function():
    def f(a):
        b = a * 1.0
        b += a                     # 2a
        b *= a                     # 2a^2
        b -= 1.0
        b /= 2.0                   # a^2 - 0.5
        return b.sum()
    assert_close(ms.grad(f)(Tensor(X)), 2 * X)


def test_inplace_update_of_an_op_output():
    def f(a):
        b = ops.exp(a)             # exp's VJP reads its output: it must see exp(a), not b
        b += 1.0
        b *= 2.0
        return b.sum()
    assert_close(ms.grad(f)(Tensor(X)), 2 * np.exp(X))

    def g(a):
        t = ops.tanh(a)
        t[0] = 5.0
        return (t * a).sum()
    expected = np.tanh(X) + X * (1 - np.tanh(X) ** 2)
    expected[0] = 5.0
    assert_close(ms.grad(g)(Tensor(X)), expected)


def test_inplace_updates_under_higher_order():
    def f(a):
        b = a * a
        b *= a                     # a^3
        b += ops.sin(a)
        return b.sum()
    assert_close(ms.grad(ms.grad(f))(Tensor(X)), 6 * X - np.sin(X))


def test_batch_norm_statistics_updated_in_place_during_grad(rng):
    x = rng.standard_normal((4, 3, 2, 2))
    ct = rng.standard_normal(x.shape)
    gamma = ms.Parameter(Tensor(rng.uniform(0.5, 1.5, 3)), name="gamma")
    beta = ms.Parameter(Tensor(rng.standard_normal(3)), name="beta")
    running_mean = ms.Parameter(Tensor(np.zeros(3)), name="mean", requires_grad=False)
    running_var = ms.Parameter(Tensor(np.ones(3)), name="var", requires_grad=False)

    def loss(t, g, b):
        y = ops.batch_norm(t, running_mean, running_var, g, b, training=True, momentum=0.5)
        return (y * Tensor(ct)).sum()

    gx, (gg, gb) = ms.grad(loss, 0, [gamma, beta])(Tensor(x), gamma, beta)
    f = as_float(lambda t, g, b: ops.batch_norm(t, None, None, g, b, training=True)
                 * Tensor(ct))
    arrays = [x, gamma.asnumpy(), beta.asnumpy()]
    for i, g in enumerate((gx, gg, gb)):
        assert_close(g, numeric_grad(f, arrays, i), rtol=1e-5, atol=1e-7)
    # the running statistics were updated once, from the batch
    assert_close(running_mean, 0.5 * x.mean((0, 2, 3)))
    assert_close(running_var, 0.5 + 0.5 * x.var((0, 2, 3), ddof=1))


@pytest.mark.parametrize("used", [(0,), (0, 1), (0, 2), (1, 2), (0, 1, 2)])
def test_batch_norm_gradient_through_any_of_its_results(rng, used):
    """batch_norm's VJP leaves out the terms of results nothing differentiates (symbolic
    zeros): each subset of (y, mean, var) against finite differences."""
    from tensorjit.ops.normalization import batch_norm_p
    x = rng.standard_normal((4, 3, 2, 2))
    gamma, beta = rng.uniform(0.5, 1.5, 3), rng.standard_normal(3)
    weights = [rng.standard_normal(s) for s in (x.shape, (3,), (3,))]

    def f(t, g, b):
        outs = batch_norm_p.bind(t, g, b, eps=1e-5)
        total = None
        for k in used:
            term = (outs[k] * Tensor(weights[k])).sum()
            total = term if total is None else total + term
        return total

    grads = ms.grad(f, (0, 1, 2))(Tensor(x), Tensor(gamma), Tensor(beta))
    arrays = [x, gamma, beta]
    for i, g in enumerate(grads):
        assert_close(g, numeric_grad(as_float(f), arrays, i), rtol=1e-5, atol=1e-7)


def test_inplace_update_of_an_argument():
    def f(a):
        a += 1.0
        return (a * a).sum()
    x = Tensor(X)
    assert_close(ms.grad(f)(x), 2 * (X + 1))


def test_setitem_inside_the_function():
    def f(a, v):
        b = a * 2.0
        b[1] = v * 3.0             # the overwritten entry no longer depends on a
        return (b * b).sum()
    ga, gv = ms.grad(f, (0, 1))(Tensor(X), Tensor(np.array(0.7)))
    assert_close(ga, np.array([8 * X[0], 0.0, 8 * X[2]]))
    assert_close(gv, 2 * (0.7 * 3) * 3)

    def g(a):
        z = ops.zeros((2, 3), ms.float64)
        z[0] = a
        z[1, ::2] = a[:2] * a[:2]
        return (z * Tensor(np.arange(6.0).reshape(2, 3))).sum()
    expected = np.array([0.0, 1.0, 2.0]) + np.array([2 * X[0] * 3, 2 * X[1] * 5, 0.0])
    assert_close(ms.grad(g)(Tensor(X)), expected)


def test_masked_setitem_inside_the_function():
    def f(a):
        b = a * 1.0
        b[a > 0] = 0.0
        return (b * b).sum()
    assert_close(ms.grad(f)(Tensor(X)), np.where(X > 0, 0.0, 2 * X))


def test_stop_gradient():
    g = ms.grad(lambda a: (a * ops.stop_gradient(a)).sum())(Tensor(X))
    assert_close(g, X)
    g = ms.grad(lambda a: (ops.stop_gradient(a * a) + a).sum())(Tensor(X))
    assert_close(g, np.ones(3))
    a, b = ops.stop_gradient((Tensor(X), Tensor(Y)))
    np.testing.assert_array_equal(a.asnumpy(), X)
    g = ms.grad(lambda t: (t * t).detach().sum() + t.sum())(Tensor(X))
    assert_close(g, np.ones(3))


def test_gradient_through_indexing():
    m = np.arange(12.0).reshape(3, 4) / 5
    cases = [
        lambda t: t[1].sum() * 2,
        lambda t: (t[::-1, 1:3] * t[::-1, 1:3]).sum(),
        lambda t: t[Tensor([0, 2, 0])].sum(),                     # repeated rows accumulate
        lambda t: t[Tensor([0, 2]), Tensor([3, 3])].sum(),
        lambda t: t[t > 1.0].sum(),
        lambda t: t[None, ..., 1].sum(),
    ]
    expected = [
        np.zeros_like(m) + np.array([[0], [2], [0]]),
        np.pad(2 * m[:, 1:3], ((0, 0), (1, 1))),
        np.array([[2.0] * 4, [0.0] * 4, [1.0] * 4]),
        np.array([[0, 0, 0, 1.0], [0, 0, 0, 0], [0, 0, 0, 1.0]]),
        (m > 1.0).astype(float),
        np.array([[0, 1.0, 0, 0]] * 3),
    ]
    for f, e in zip(cases, expected):
        assert_close(ms.grad(f)(Tensor(m)), e)


def test_gradient_through_concat_stack_split_and_broadcast():
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    ga, gb = ms.grad(lambda a, b: (ops.cat([a, b]) * Tensor(w)).sum(), (0, 1))(Tensor(X), Tensor(Y))
    assert_close(ga, w[:3])
    assert_close(gb, w[3:])
    ga, gb = ms.grad(lambda a, b: (ops.stack([a, b], 1) ** 2).sum(), (0, 1))(Tensor(X), Tensor(Y))
    assert_close(ga, 2 * X)
    assert_close(gb, 2 * Y)
    g = ms.grad(lambda a: (ops.split(a, [1, 2])[1] * 5).sum())(Tensor(X))
    assert_close(g, np.array([0.0, 5.0, 5.0]))
    col = np.array([[1.0], [2.0]])
    gc, gr = ms.grad(lambda c, r: (c * r).sum(), (0, 1))(Tensor(col), Tensor(X))
    assert_close(gc, np.full((2, 1), X.sum()))                 # summed over broadcast axis
    assert_close(gr, np.full(3, col.sum()))
    g = ms.grad(lambda a: a.broadcast_to((4, 3)).sum())(Tensor(X))
    assert_close(g, np.full(3, 4.0))
    g = ms.grad(lambda a: (a.tile((2,)) * Tensor(np.arange(6.0))).sum())(Tensor(X))
    assert_close(g, np.array([3.0, 5.0, 7.0]))


@pytest.mark.parametrize("name,fn", [
    ("mlp", lambda x, w1, w2: ops.tanh(x @ w1) @ w2),
    ("softmax-ce", lambda x, w1, w2: -(ops.log_softmax(x @ w1, 1) * ops.softmax(x @ w1 @ w2.T, 1)).sum()),
    ("layer_norm", lambda x, w1, w2: ops.layer_norm(x @ w1, (w1.shape[1],)) * ops.sigmoid(x @ w1)),
    ("reductions", lambda x, w1, w2: (x @ w1).max(1) * (x @ w1).mean(0).sum() + ops.logsumexp(x, 1)),
    ("where/maximum", lambda x, w1, w2: ops.where(x > 0, x * x, ops.exp(x)) @ ops.maximum(w1, 0.1)),
])
def test_composite_gradients_vs_finite_differences(name, fn, rng):
    x = rng.standard_normal((3, 4))
    x[np.abs(x) < 0.05] = 0.3                       # away from the where() switch
    w1 = rng.standard_normal((4, 5))
    w1[np.abs(w1 - 0.1) < 0.05] = 0.5               # away from the maximum() kink
    w2 = rng.standard_normal((5, 2)) if name != "softmax-ce" else rng.standard_normal((5, 5))
    grads = ms.grad(fn, (0, 1, 2))(Tensor(x), Tensor(w1), Tensor(w2))
    f = as_float(fn)
    for i, g in enumerate(grads):
        assert_close(g, numeric_grad(f, [x, w1, w2], i), dtype=np.float64, rtol=1e-6, atol=1e-7)


# ---- higher order --------------------------------------------------------------------------

def test_second_derivative_of_a_scalar_function():
    def f(x):
        return x ** 3 + ops.sin(x) * x
    d2 = ms.grad(ms.grad(f))(Tensor(X))
    # f'' = 6x + 2cos(x) - x sin(x)
    assert_close(d2, 6 * X + 2 * np.cos(X) - X * np.sin(X))
    d3 = ms.grad(ms.grad(ms.grad(f)))(Tensor(X))
    # f''' = 6 - 3 sin(x) - x cos(x)
    assert_close(d3, 6 - 3 * np.sin(X) - X * np.cos(X))


def test_mixed_second_derivative():
    def f(x, y):
        return (x * x * y * y * y).sum()
    dxy = ms.grad(lambda x, y: ms.grad(f, 1)(x, y).sum(), 0)(Tensor(X), Tensor(Y))
    assert_close(dxy, 6 * X * Y ** 2)


def test_second_derivative_through_nn_ops(rng):
    x = rng.standard_normal((2, 5))

    def f(t):
        return (ops.softmax(t, 1) * ops.tanh(t)).sum()

    def df_sum(t):
        return ms.grad(f)(t).sum()

    hv = ms.grad(df_sum)(Tensor(x))           # H @ 1
    numeric = numeric_grad(lambda a: float(np.sum(ms.grad(f)(Tensor(a)).asnumpy())), [x], 0)
    assert_close(hv, numeric, dtype=np.float64, rtol=1e-5, atol=1e-7)


# ---- integers, non-differentiable outputs, errors ----------------------------------------

def test_integer_inputs_get_gradients_in_their_dtype():
    # MindSpore's rule (tests/conformance records it): the gradient of an integer input
    # is computed with the VJP rules and cast to the input's dtype (truncating)
    n = Tensor([1, 2, 3])
    gx, gn = ms.grad(lambda x, k: (x * k).sum(), (0, 1))(Tensor(X), n)
    assert_close(gx, np.array([1.0, 2.0, 3.0]))
    assert gn.dtype == ms.int64
    np.testing.assert_array_equal(gn.asnumpy(), X.astype(np.int64))
    g = ms.grad(lambda k: (k * 2.5).sum())(n)
    assert g.dtype == ms.int64 and g.asnumpy().tolist() == [2, 2, 2]
    g = ms.grad(lambda x: (x > 0).sum())(Tensor(X))            # comparisons: no gradient
    assert g.dtype == Tensor(X).dtype and not g.asnumpy().any()


def test_unused_input_gets_zeros():
    g = ms.grad(lambda a, b: (a * 2).sum(), 1)(Tensor(X), Tensor(Y))
    assert_close(g, np.zeros(3))


def test_float32_gradients_stay_float32():
    g = ms.grad(lambda a: (a * a).sum())(Tensor(X.astype(np.float32)))
    assert_close(g, 2 * X, dtype=np.float32)
    g = ms.grad(lambda a: (a * Tensor(Y)).sum())(Tensor(X.astype(np.float32)))
    assert g.dtype == ms.float32                                # promoted op, cast back


def test_vjp_function():
    out, vjp_fn = ms.vjp(lambda a, b: a * b, Tensor(X), Tensor(Y))
    assert_close(out, X * Y)
    ct = np.array([1.0, -2.0, 0.5])
    ga, gb = vjp_fn(Tensor(ct))
    assert_close(ga, ct * Y)
    assert_close(gb, ct * X)


def test_vjp_conventions_follow_mindspore():
    # checked against MindSpore 2.10: has_aux gives (first output, vjp_fn, aux), one aux
    # output bare; weights add a second tuple of gradients
    def f(a, b):
        return a * b, a + b

    out, vjp_fn, aux = ms.vjp(f, Tensor(X), Tensor(Y), has_aux=True)
    assert_close(out, X * Y)
    assert_close(aux, X + Y)
    ga, gb = vjp_fn(Tensor(np.ones(3)))
    assert_close(ga, Y)
    assert_close(gb, X)
    out, vjp_fn, aux = ms.vjp(lambda a: (a * 2, a + 1, a * 3), Tensor(X), has_aux=True)
    assert isinstance(aux, tuple) and len(aux) == 2
    (g,) = vjp_fn(Tensor(np.ones(3)))
    assert_close(g, 2 * np.ones(3))
    w = ms.Parameter(Tensor(np.array([2.0, 3.0, 4.0])), name="w")
    out, vjp_fn = ms.vjp(lambda a: a * w, Tensor(X), weights=[w])
    (gx,), (gw,) = vjp_fn(Tensor(np.ones(3)))
    assert_close(gx, w.asnumpy())
    assert_close(gw, X)
    with pytest.raises(ValueError, match="has_aux"):
        ms.vjp(lambda a: a * 2, Tensor(X), has_aux=True)
    with pytest.raises(ValueError, match="cotangent of shape"):
        ms.vjp(lambda a: a * 2, Tensor(X))[1](Tensor(np.ones(2)))



def test_no_grad_context():
    def f(a):
        with ms.no_grad():
            b = a * a
        return (b + a).sum()
    assert_close(ms.grad(f)(Tensor(X)), np.ones(3))


def test_grad_argument_errors():
    with pytest.raises(IndexError, match="grad_position"):       # (MindSpore: IndexError)
        ms.grad(f_xy, grad_position=2)(Tensor(X), Tensor(Y))
    with pytest.raises(ValueError, match="grad_position and weights"):
        ms.grad(f_xy, grad_position=None)(Tensor(X), Tensor(Y))
    with pytest.raises(TypeError, match="argument 0"):
        ms.grad(lambda a: a * 2)(3.0)
    with pytest.raises(ValueError, match="has_aux"):
        ms.grad(lambda a: a.sum(), has_aux=True)(Tensor(X))
    with pytest.raises(TypeError, match="weights"):
        ms.grad(f_xy, None, weights=[1.0])(Tensor(X), Tensor(Y))


# ---- dropout ----------------------------------------------------------------------------

def test_dropout_forward_and_gradient_share_the_mask():
    x = np.random.default_rng(0).uniform(1, 2, (50, 40))
    p = 0.3
    ms.set_seed(11)
    y = ops.dropout(Tensor(x), p=p).asnumpy()
    kept = y != 0
    assert_close(y[kept], x[kept] / (1 - p))
    assert abs(kept.mean() - (1 - p)) < 0.05                  # 2000 Bernoulli draws
    ms.set_seed(11)
    np.testing.assert_array_equal(ops.dropout(Tensor(x), p=p).asnumpy(), y)   # reproducible
    ms.set_seed(11)
    value, g = ms.value_and_grad(lambda t: ops.dropout(t, p=p) * 3.0)(Tensor(x))
    np.testing.assert_array_equal(value.asnumpy(), 3.0 * y)
    assert_close(g, np.where(kept, 3.0 / (1 - p), 0.0))


def test_dropout_identity_cases():
    x = Tensor(np.ones((3, 3)))
    np.testing.assert_array_equal(ops.dropout(x, p=0.5, training=False).asnumpy(), np.ones((3, 3)))
    np.testing.assert_array_equal(ops.dropout(x, p=0.0).asnumpy(), np.ones((3, 3)))
    np.testing.assert_array_equal(ops.dropout(x, p=1.0).asnumpy(), np.zeros((3, 3)))
