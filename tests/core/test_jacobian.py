"""Forward mode (``jvp``) and Jacobians (``jacfwd``, ``jacrev``, ``hessian``) against
central finite differences in float64, MindSpore's return conventions (checked against
MindSpore 2.10: structures, has_aux, its documented examples), and composition with
``grad``, ``vmap`` and ``jit``.

``jvp`` is derived from each primitive's VJP (the transpose trick); the first test walks
every differentiable primitive of the registry with the gradient table's samples."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops, nn
from tensorjit.ops import PRIMITIVES

from .test_vjp_registry import SAMPLES, NON_DIFFERENTIABLE, _case_id

RNG = np.random.default_rng(11)
EPS = 1e-6


def numeric_jacobian(f, args, position, eps=EPS):
    """d f(args) / d args[position] by central differences: shape out.shape + in.shape."""
    x = np.asarray(args[position], np.float64)
    base = np.asarray(f(*args))
    jac = np.zeros(base.shape + x.shape)
    for index in np.ndindex(*x.shape):
        step = np.zeros_like(x)
        step[index] = eps
        plus = list(args)
        minus = list(args)
        plus[position], minus[position] = x + step, x - step
        jac[(...,) + index] = (np.asarray(f(*plus)) - np.asarray(f(*minus))) / (2 * eps)
    return jac


def close(actual, expected, tol=1e-6):
    np.testing.assert_allclose(np.asarray(actual.asnumpy() if isinstance(actual, Tensor)
                                          else actual), expected, rtol=tol, atol=tol)


# ---- jvp of every primitive ---------------------------------------------------------------

DIFFERENTIABLE = [(name, i, case) for name in sorted(SAMPLES) for i, case in
                  enumerate(SAMPLES[name]) if name in PRIMITIVES
                  and name not in NON_DIFFERENTIABLE and not PRIMITIVES[name].effect
                  and not PRIMITIVES[name].random]


@pytest.mark.parametrize("item", DIFFERENTIABLE, ids=[_case_id(c) for c in DIFFERENTIABLE])
def test_jvp_of_every_primitive_matches_finite_differences(item):
    name, index, case = item
    prim = PRIMITIVES[name]
    rng = np.random.default_rng(index + 31 * len(name))
    arrays = [np.asarray(a) for a in case.make(rng)]
    params = case.params
    float_inputs = [i for i, a in enumerate(arrays)
                    if a.dtype == np.float64 and i not in case.nondiff]
    tangents = [rng.standard_normal(a.shape) if i in float_inputs else np.zeros_like(a)
                for i, a in enumerate(arrays)]

    def call(*xs):
        out = prim.bind(*xs, **params)
        return out if prim.multiple_results else (out,)

    _, jv = ms.jvp(call, tuple(Tensor(a) for a in arrays), tuple(Tensor(t) for t in tangents))
    e = case.eps

    def shifted(sign):
        moved = [a + sign * e * t if i in float_inputs else a
                 for i, (a, t) in enumerate(zip(arrays, tangents))]
        return [o.asnumpy() for o in call(*[Tensor(np.asarray(m, a.dtype))
                                            for m, a in zip(moved, arrays)])]

    plus, minus = shifted(1), shifted(-1)
    for k, (j, p, m) in enumerate(zip(jv, plus, minus)):
        if p.dtype.kind != "f":
            continue
        numeric = (p.astype(np.float64) - m.astype(np.float64)) / (2 * e)
        np.testing.assert_allclose(j.asnumpy().astype(np.float64), numeric,
                                   rtol=case.tol * 10, atol=case.tol * 10,
                                   err_msg=f"{name}: tangent of output {k}")


# ---- MindSpore's conventions ----------------------------------------------------------------

X = Tensor(np.array([1.0, 2.0, 3.0]))
Y = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]]))


def shape_tree(value):
    if isinstance(value, Tensor):
        return tuple(value.shape)
    return tuple(shape_tree(v) for v in value)


def two_outputs(x, y):
    return x * 2, y.sum()


def three_outputs(x, y):
    return x * 2, y.sum(), x + 1


@pytest.mark.parametrize("transform", [ms.jacfwd, ms.jacrev])
def test_jacobian_structures_follow_mindspore(transform):
    assert shape_tree(transform(lambda x, y: x * 2)(X, Y)) == (3, 3)
    assert shape_tree(transform(lambda x, y: x * 2, grad_position=(0, 1))(X, Y)) == (
        (3, 3), (3, 2, 2))
    assert shape_tree(transform(two_outputs, grad_position=(0, 1))(X, Y)) == (
        ((3, 3), (3, 2, 2)), ((3,), (2, 2)))
    jac, aux = transform(two_outputs, has_aux=True)(X, Y)          # one aux output: bare
    assert shape_tree(jac) == (3, 3) and isinstance(aux, Tensor)
    jac, aux = transform(three_outputs, has_aux=True)(X, Y)
    assert shape_tree(aux) == ((), (3,))
    assert shape_tree(transform(lambda x, y: (x * x).sum())(X, Y)) == (3,)
    with pytest.raises(ValueError, match="has_aux"):
        transform(lambda x, y: x * 2, has_aux=True)(X, Y)
    with pytest.raises(ValueError, match="grad_position 2 is out of range"):
        transform(lambda x, y: x * 2, grad_position=2)(X, Y)


def test_jvp_and_vjp_follow_mindspore_examples():
    x = Tensor(np.array([[1, 2], [3, 4]], np.float32))
    v = Tensor(np.ones((2, 2), np.float32))
    out, jv = ms.jvp(lambda a, b: a ** 3 + b, (x, x), (v, v))
    np.testing.assert_allclose(out.asnumpy(), [[2, 10], [30, 68]])
    np.testing.assert_allclose(jv.asnumpy(), [[4, 13], [28, 49]])
    out, jv, aux = ms.jvp(lambda a, b: (a ** 3 + b, b), (x, x), (v, v), has_aux=True)
    np.testing.assert_allclose(jv.asnumpy(), [[4, 13], [28, 49]])
    np.testing.assert_allclose(aux.asnumpy(), x.asnumpy())
    out, jv, aux = ms.jvp(three_outputs, (X, Y), (X, Y), has_aux=True)
    assert shape_tree(aux) == ((), (3,))
    outs, jvs = ms.jvp(three_outputs, (X, Y), (X, Y))
    assert shape_tree(jvs) == ((3,), (), (3,))
    close(jvs[1], 10.0)


def test_mindspore_jacfwd_example():
    class Net(nn.Cell):
        def construct(self, x, y, z):
            return x ** 2 + y ** 2 + z ** 2, x * y * z

    x = Tensor(np.array([[1, 2], [3, 4]], np.float32))
    z = Tensor(np.ones((2, 2), np.float32))
    jac, aux = ms.jacfwd(Net(), grad_position=0, has_aux=True)(x, x, z)
    expected = np.zeros((2, 2, 2, 2))
    for i, j in np.ndindex(2, 2):
        expected[i, j, i, j] = 2 * x.asnumpy()[i, j]
    close(jac, expected)
    close(aux, x.asnumpy() ** 2)


# ---- against finite differences ---------------------------------------------------------

A = RNG.standard_normal((4, 3))
B = RNG.standard_normal(3)
XV = RNG.standard_normal(3)


def model(w, b, x):
    """A small layer: tanh(w @ x + b) and a softmax of it."""
    h = ops.tanh(ops.matmul(w, x) + ops.sum(b))
    return ops.softmax(h, axis=0) * ops.sum(x * x)


def model_np(w, b, x):
    h = np.tanh(w @ x + b.sum())
    e = np.exp(h - h.max())
    return e / e.sum() * (x @ x)


@pytest.mark.parametrize("transform", [ms.jacfwd, ms.jacrev])
def test_jacobians_match_finite_differences(transform):
    args = (A, B, XV)
    jac = transform(model, grad_position=(0, 1, 2))(*[Tensor(a) for a in args])
    for position, j in enumerate(jac):
        close(j, numeric_jacobian(model_np, args, position))


def test_jvp_matches_finite_differences():
    tangents = [RNG.standard_normal(a.shape) for a in (A, B, XV)]
    _, jv = ms.jvp(model, tuple(Tensor(a) for a in (A, B, XV)),
                   tuple(Tensor(t) for t in tangents))
    plus = model_np(*[a + EPS * t for a, t in zip((A, B, XV), tangents)])
    minus = model_np(*[a - EPS * t for a, t in zip((A, B, XV), tangents)])
    close(jv, (plus - minus) / (2 * EPS))


def cubic_form(x, y):
    return (x ** 3).sum() * ops.sum(y) + ops.sum(ops.sin(x) * y)


def test_hessian_matches_finite_differences_of_the_gradient():
    x, y = RNG.standard_normal(3), RNG.standard_normal(3)

    def gradient_np(x, y):
        return np.array([3 * x ** 2 * y.sum() + np.cos(x) * y])[0]

    h = ms.hessian(cubic_form)(Tensor(x), Tensor(y))
    close(h, numeric_jacobian(gradient_np, (x, y), 0), tol=1e-5)
    hxx, hxy = ms.hessian(cubic_form, grad_position=(0, 1))(Tensor(x), Tensor(y))[0]
    close(hxy, numeric_jacobian(gradient_np, (x, y), 1), tol=1e-5)
    (h2, aux) = ms.hessian(lambda x, y: (cubic_form(x, y), x * 2), has_aux=True)(
        Tensor(x), Tensor(y))
    close(h2, h.asnumpy())
    close(aux, 2 * x)


# ---- composition ----------------------------------------------------------------------------

def test_grad_of_a_jvp_and_hessian_vector_products():
    """hvp = jvp(grad(f)) (the Jacobians tutorial's recipe) equals H v; grad through jvp."""
    x, v = RNG.standard_normal(3), RNG.standard_normal(3)
    f = lambda a: (a ** 3).sum() + ops.sum(ops.sin(a)) ** 2     # noqa: E731
    _, hvp = ms.jvp(ms.grad(f), (Tensor(x),), (Tensor(v),))
    h = ms.hessian(f)(Tensor(x)).asnumpy()
    close(hvp, h @ v)
    g = ms.grad(lambda a: ms.jvp(f, (a,), (Tensor(v),))[1])(Tensor(x))
    close(g, h @ v)                                 # d/dx (grad f . v) = H v (symmetric)


def test_batched_jacobians_with_vmap():
    xs = RNG.standard_normal((5, 3))
    batch = ms.vmap(ms.jacrev(model, grad_position=2), in_axes=(None, None, 0))(
        Tensor(A), Tensor(B), Tensor(xs))
    close(batch, np.stack([numeric_jacobian(model_np, (A, B, x), 2) for x in xs]))


def jit_jacobians(w, b, x):
    return (ms.jacfwd(model, grad_position=2)(w, b, x), ms.jacrev(model, grad_position=0)(w, b, x),
            ms.hessian(lambda t: ops.sum(model(w, b, t)))(x))


@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_jacobians_inside_jit(mode, level):
    args = [Tensor(a) for a in (A, B, XV)]
    jitted = ms.jit(jit_jacobians, capture_mode=mode, jit_level=level)
    for _ in range(3):
        fwd, rev, hess = jitted(*args)
    close(fwd, numeric_jacobian(model_np, (A, B, XV), 2))
    close(rev, numeric_jacobian(model_np, (A, B, XV), 0))
    close(hess, numeric_jacobian(
        lambda w, b, x: numeric_jacobian(lambda t: model_np(w, b, t).sum(), (x,), 0, 1e-4),
        (A, B, XV), 2, 1e-4), tol=1e-4)
    eager = jit_jacobians(*args)
    for a, e in zip((fwd, rev, hess), eager):
        close(a, e.asnumpy(), tol=1e-10)
