"""``vmap``: MindSpore's signature and semantics (checked against MindSpore 2.10: the axis
conventions, broadcasting of unbatched outputs, the error conditions), and how it composes
with ``grad`` (per-example gradients, gradients of a vmapped function), tensor control flow,
Cells (ensembles), in-place updates and random numbers. References are NumPy loops over
the examples. (test_vmap_registry.py walks every primitive; tests/jit/test_vmap_jit.py
crosses vmap with every capture mode and level.)"""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops, nn
from tensorjit.functional import VmapError

RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3))
V = RNG.standard_normal(3)


def close(actual, expected, tol=1e-12):
    np.testing.assert_allclose(actual.asnumpy(), expected, rtol=tol, atol=tol)


# ---- axes (the values MindSpore 2.10 gives for the same calls) -------------------------

def test_in_axes_out_axes_like_mindspore():
    x, v = Tensor(X), Tensor(V)
    close(ms.vmap(lambda a, b: a * b, in_axes=(0, None))(x, v), X * V)
    close(ms.vmap(lambda a, b: a * b, in_axes=[0, None])(x, v), X * V)
    close(ms.vmap(lambda a: a * 2, in_axes=-1)(x), (X * 2).T)
    close(ms.vmap(lambda a: ops.stack([a, a]), out_axes=1)(x), np.stack([X, X]))
    close(ms.vmap(lambda a: ops.stack([a, a]), out_axes=-1)(x), np.stack([X.T, X.T]))
    close(ms.vmap(lambda a: a.sum(), in_axes=1)(x), X.sum(0))
    # MindSpore's documented example: ([b, a], [a, b], [a]) -> [a, b]
    x3 = Tensor(np.array([[1, 2], [3, 4], [5, 6]], np.float32))
    y3 = Tensor(np.array([[-3, -2, -1], [3, 2, 1]], np.float32))
    z3 = Tensor(np.array([0, 3], np.float32))
    out = ms.vmap(lambda a, b, c: a + b + c, in_axes=(0, 1, None), out_axes=1)(x3, y3, z3)
    np.testing.assert_array_equal(out.asnumpy(), [[-2, 1, 4], [8, 9, 10]])


def test_unbatched_outputs_are_broadcast_unless_out_axes_is_none():
    x, v = Tensor(X), Tensor(V)
    a, b = ms.vmap(lambda a, b: (a, b * 2), in_axes=(0, None))(x, v)
    close(a, X)
    close(b, np.broadcast_to(V * 2, (2, 3)))
    a, b = ms.vmap(lambda a, b: (a, b * 2), in_axes=(0, None), out_axes=(0, None))(x, v)
    close(b, V * 2)
    one = ms.vmap(lambda a: 1.0)(x)                      # a Python number: a tensor (2,)
    assert one.shape == (2,) and one.dtype == ms.float32
    with pytest.raises(VmapError, match=r"output\[0\] differs per example"):
        ms.vmap(lambda a, b: (a, b * 2), in_axes=(0, None), out_axes=(None, 0))(x, v)


def test_nested_axes_follow_the_arguments():
    x = Tensor(X)
    out = ms.vmap(lambda p: p[0] + p[1][0], in_axes=((0, (1,)),))((x, (Tensor(X.T),)))
    close(out, 2 * X)
    out = ms.vmap(lambda p: p[0] + p[1], in_axes=([0, None],))([x, Tensor(V)])
    close(out, X + V)
    out = ms.vmap(lambda d: d["a"] * d["b"], in_axes=({"a": 0, "b": None},))(
        {"a": x, "b": Tensor(V)})
    close(out, X * V)
    s, (p, q) = ms.vmap(lambda a: (a.sum(), (a * 2, a * 3)), out_axes=(0, (1, 0)))(x)
    close(s, X.sum(1))
    close(p, (2 * X).T)
    close(q, 3 * X)
    s, (p, q) = ms.vmap(lambda a: (a.sum(), (a * 2, a * 3)), out_axes=(0, 1))(x)
    close(q, (3 * X).T)                                 # 1 applies to the whole subtree
    close(ms.vmap(lambda a, s: a * s, in_axes=(0, None))(x, 3.0), 3 * X)


def test_keyword_arguments_are_batched_along_axis_0():
    close(ms.vmap(lambda a, scale=1.0: a * scale)(Tensor(X), scale=Tensor(V[:2])),
          X * V[:2, None])


@pytest.mark.parametrize("call, message", [
    (lambda x, v: ms.vmap(lambda a, b: a + b, in_axes=(0, 0))(x, v),
     r"must all have one size, got 2 \(argument 0\), 3 \(argument 1\)"),
    (lambda x, v: ms.vmap(lambda a, b: a + b, in_axes=(None, None))(x, v),
     "maps no argument"),
    (lambda x, v: ms.vmap(lambda a: a, in_axes=2)(x),
     r"axis 2 in in_axes for argument 0 is out of bounds for a tensor of dimension 2"),
    (lambda x, v: ms.vmap(lambda a: a, out_axes=2)(x),
     r"axis 2 in out_axes for output is out of bounds .* dimension 2 \(valid: \[-2, 2\)\)"),
    (lambda x, v: ms.vmap(lambda a, b: a + b, in_axes=(0,))(x, v),
     r"in_axes has 1 entries for 2 positional argument"),
    (lambda x, v: ms.vmap(lambda a: (a, a), out_axes=(0,))(x),
     "out_axes has 1 entries for 2 outputs"),
    (lambda x, v: ms.vmap(lambda a: a, in_axes=0.5)(x),
     "can only be ints or None"),
    (lambda x, v: ms.vmap(lambda a, s: a * s, in_axes=(0, 0))(x, 3.0),
     r"maps argument 1 over axis 0, but it is a float"),
    (lambda x, v: ms.vmap(lambda a: a)(Tensor(np.float32(2))),
     r"out of bounds for a tensor of dimension 0"),
])
def test_bad_axes_raise_clear_errors(call, message):
    with pytest.raises(VmapError, match=message) as info:
        call(Tensor(X), Tensor(V))
    assert isinstance(info.value, RuntimeError)        # MindSpore raises RuntimeError


def test_nested_vmap():
    out = ms.vmap(ms.vmap(lambda a, b: a * b, in_axes=(0, None)), in_axes=(None, 0))(
        Tensor(V), Tensor(X))
    close(out, X[:, None, :] * V[:, None])


# ---- gradients ---------------------------------------------------------------------------

W = RNG.standard_normal(3)
XS = RNG.standard_normal((5, 3))
YS = RNG.standard_normal(5)


def loss(w, x, y):
    return (ops.tanh((w * x).sum()) - y) ** 2


def loss_grad_reference(w, x, y):
    """d/dw (tanh(w.x) - y)^2, by hand."""
    t = np.tanh(w @ x)
    return 2 * (t - y) * (1 - t * t) * x


def test_per_example_gradients():
    grads = ms.vmap(ms.grad(loss), in_axes=(None, 0, 0))(Tensor(W), Tensor(XS), Tensor(YS))
    close(grads, np.stack([loss_grad_reference(W, x, y) for x, y in zip(XS, YS)]))


def test_per_example_gradients_of_a_network():
    net = nn.Dense(3, 2, dtype=ms.float64)
    net.weight.set_data(Tensor(RNG.standard_normal((2, 3))))
    net.bias.set_data(Tensor(RNG.standard_normal(2)))

    def net_loss(x, y):
        return ((net(x) - y) ** 2).sum()

    grad_fn = ms.grad(net_loss, None, net.trainable_params())
    targets = RNG.standard_normal((5, 2))
    gw, gb = ms.vmap(grad_fn)(Tensor(XS), Tensor(targets))
    w, b = net.weight.asnumpy(), net.bias.asnumpy()
    residual = 2 * (XS @ w.T + b - targets)                       # (5, 2)
    close(gw, residual[:, :, None] * XS[:, None, :])
    close(gb, residual)


def test_gradient_of_a_vmapped_function():
    def total(w):
        return ms.vmap(loss, in_axes=(None, 0, 0))(w, Tensor(XS), Tensor(YS)).sum()

    g = ms.grad(total)(Tensor(W))
    close(g, sum(loss_grad_reference(W, x, y) for x, y in zip(XS, YS)))


def test_value_and_grad_with_aux_inside_vmap():
    def f(w, x):
        out = (w * x).sum()
        return out * out, out

    (values, aux), grads = ms.vmap(ms.value_and_grad(f, has_aux=True), in_axes=(None, 0))(
        Tensor(W), Tensor(XS))
    dots = XS @ W
    close(values, dots ** 2)
    close(aux, dots)
    close(grads, 2 * dots[:, None] * XS)


# ---- control flow, Cells, effects ---------------------------------------------------------

def branchy(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = -x
    return y


def test_python_branching_on_a_batched_value_is_a_clear_error():
    with pytest.raises(VmapError, match=r"test_vmap.py:\d+ \(branchy\): bool\(tensor\) needs "
                                        r"the value .* jit\(fn, capture_mode='ast'\)"):
        ms.vmap(branchy)(Tensor(XS))


def test_tensor_if_of_an_ast_function_is_batched_as_a_select():
    out = ms.vmap(ms.jit(branchy, capture_mode="ast"))(Tensor(XS))
    close(out, np.stack([2 * x if x.sum() > 0 else -x for x in XS]))


def test_cell_list_ensemble():
    ms.set_seed(3)
    nets = nn.CellList([nn.Dense(3, 2, dtype=ms.float64) for _ in range(4)])
    x = Tensor(XS)
    close(ms.vmap(nets, in_axes=None)(x), np.stack([n(x).asnumpy() for n in nets]))
    xb = Tensor(RNG.standard_normal((4, 5, 3)))
    close(ms.vmap(nets)(xb), np.stack([n(xb[i]).asnumpy() for i, n in enumerate(nets)]))
    grads = ms.grad(lambda a: ms.vmap(nets, in_axes=None)(a).sum(), None,
                    nets.trainable_params())(x)
    for g, p in zip(grads, nets.trainable_params()):
        expected = np.tile(XS.sum(0), (2, 1)) if p.ndim == 2 else np.full(2, 5.0)
        close(g, expected)
    with pytest.raises(VmapError, match="must all have one size"):
        ms.vmap(nets)(Tensor(RNG.standard_normal((3, 5, 3))))


def test_in_place_updates_reach_the_batch():
    x = Tensor(np.arange(6.0).reshape(3, 2))

    def bump(a):
        a += 1.0
        return a * 2

    out = ms.vmap(bump, in_axes=1)(x)
    close(x, np.arange(6.0).reshape(3, 2) + 1)          # as a loop over columns would
    close(out, 2 * (np.arange(6.0).reshape(3, 2) + 1).T)
    def reset(a):
        a.assign_value(ops.zeros_like(a) + 7.0)        # one value for every example
        return a.sum()

    close(ms.vmap(reset, in_axes=1)(x), np.full(2, 21.0))
    close(x, np.full((3, 2), 7.0))
    p = ms.Parameter(Tensor(np.zeros(2)), name="p")

    def per_example_write(a):
        p.assign_value(a)
        return a

    with pytest.raises(VmapError, match="writes a value that differs per example into 'p'"):
        ms.vmap(per_example_write)(Tensor(X[:, :2]))


def test_random_numbers_without_batched_input_are_shared_by_the_examples():
    # MindSpore's documented behaviour: sampling inside vmap draws once for all examples
    out = ms.vmap(lambda a: a + ops.rand(4))(Tensor(np.zeros((3, 4), np.float32))).asnumpy()
    assert np.all(out == out[0]) and np.all((0 <= out) & (out < 1))


def test_a_branch_that_prints_under_a_per_example_condition_is_refused():
    def noisy(x):
        if x.sum() > 0:
            print(x)
            x = x * 2
        return x

    with pytest.raises(ValueError, match="condition differs per example and the branch prints"):
        ms.vmap(ms.jit(noisy, capture_mode="ast"))(Tensor(XS))


def test_outputs_that_are_not_tensors_pass_through_and_fn_must_be_callable():
    out, nothing, text = ms.vmap(lambda a: (a * 2, None, "label"))(Tensor(X))
    close(out, 2 * X)
    assert nothing is None and text == "label"
    with pytest.raises(TypeError, match="fn must be a function"):
        ms.vmap(3)


INDEXINGS = [
    ("slice, tensor", lambda x, i, j: x[:, i]),
    ("tensor, slice, tensor (not adjacent)", lambda x, i, j: x[i, :, j]),
    ("int, slice, tensor (not adjacent)", lambda x, i, j: x[0, :, i]),
    ("slice, tensor, tensor", lambda x, i, j: x[:, i, j]),
    ("ellipsis, tensor", lambda x, i, j: x[..., j]),
    ("None, slice, tensor", lambda x, i, j: x[None, 1:, i]),
]


@pytest.mark.parametrize("label, index", INDEXINGS, ids=[label for label, _ in INDEXINGS])
@pytest.mark.parametrize("batched", ["x", "indices", "both"])
def test_advanced_indexing_under_vmap(label, index, batched):
    """getitem / setitem / index_add with index tensors, the batch on the tensor, on the
    indices or on both, against a loop over the examples in NumPy."""
    rng = np.random.default_rng(5)
    xs = rng.standard_normal((4, 3, 4, 5))
    i_s = rng.integers(0, 3, (4, 2))
    j_s = rng.integers(0, 5, (4, 2))
    x_axis, idx_axis = (0 if batched != "indices" else None), (0 if batched != "x" else None)
    x_arg = xs if x_axis == 0 else xs[0]
    i_arg, j_arg = (i_s, j_s) if idx_axis == 0 else (i_s[0], j_s[0])
    pick = lambda b, arr, axis: arr[b] if axis == 0 else arr     # noqa: E731
    expected = np.stack([index(pick(b, x_arg, x_axis), pick(b, i_arg, idx_axis),
                               pick(b, j_arg, idx_axis)) for b in range(4)])
    out = ms.vmap(index, in_axes=(x_axis, idx_axis, idx_axis))(
        Tensor(x_arg), Tensor(i_arg), Tensor(j_arg))
    close(out, expected)

    def put(x, i, j):
        return ops.index_add(x, _index_of(index, i, j), ops.ones_like(index(x, i, j)) * 2.0)

    expected = []
    for b in range(4):
        x = pick(b, x_arg, x_axis).copy()
        np.add.at(x, _index_of(index, pick(b, i_arg, idx_axis), pick(b, j_arg, idx_axis)), 2.0)
        expected.append(x)
    out = ms.vmap(put, in_axes=(x_axis, idx_axis, idx_axis))(
        Tensor(x_arg), Tensor(i_arg), Tensor(j_arg))
    close(out, np.stack(expected))


def _index_of(index, i, j):
    """The index expression ``index`` applies, as a tuple (recorded by a probe)."""
    class Probe:
        def __getitem__(self, item):
            return item
    return index(Probe(), i, j)


def test_per_example_outer_products():
    """(n, 1) @ (1, m) per example (per-example weight gradients) is a broadcast multiply in
    the batching rule; same values as the matmul, batch on either side or both."""
    a, b = RNG.standard_normal((4, 3)), RNG.standard_normal((4, 5))
    outer = lambda u, v: ops.matmul(u.reshape(3, 1), v.reshape(1, 5))     # noqa: E731
    close(ms.vmap(outer)(Tensor(a), Tensor(b)), a[:, :, None] * b[:, None, :])
    close(ms.vmap(outer, in_axes=(None, 0))(Tensor(a[0]), Tensor(b)),
          a[0][None, :, None] * b[:, None, :])
    close(ms.vmap(outer, in_axes=(0, None))(Tensor(a), Tensor(b[0])),
          a[:, :, None] * b[0][None, None, :])
    g = ms.grad(lambda u, v: ms.vmap(outer)(u, v).sum(), (0, 1))(Tensor(a), Tensor(b))
    close(g[0], np.tile(b.sum(1, keepdims=True), (1, 3)))
    close(g[1], np.tile(a.sum(1, keepdims=True), (1, 5)))


JAX_CASES = [
    ("negative axes", lambda m: (lambda a: a * 2), dict(in_axes=-1, out_axes=-2), "array"),
    ("dict argument", lambda m: (lambda d: d["a"] + d["b"]),
     dict(in_axes=({"a": 1, "b": None},)), "dict"),
    ("nested outputs", lambda m: (lambda a: (a.sum(), (a * 2, a))),
     dict(in_axes=2, out_axes=(0, (1, -1))), "array"),
    ("unbatched output broadcast", lambda m: (lambda a, b: (a + b, b * 3)),
     dict(in_axes=(0, None), out_axes=(1, 0)), "pair"),
    ("matmul against one matrix", lambda m: (lambda a, b: m.matmul(a, b)),
     dict(in_axes=(1, None)), "matmul"),
]


@pytest.mark.parametrize("label, make, axes, kind", JAX_CASES, ids=[c[0] for c in JAX_CASES])
def test_same_results_as_jax_vmap(label, make, axes, kind):
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    x = np.random.default_rng(2).standard_normal((2, 3, 4)).astype(np.float32)  # JAX: f32
    if kind == "dict":
        args = ({"a": x, "b": x[:, 0]},)
    elif kind == "pair":
        args = (x, x[0])
    elif kind == "matmul":
        args = (x, x[0].T)
    else:
        args = (x,)
    to = lambda conv: jax.tree_util.tree_map(conv, args)                  # noqa: E731
    expected = jax.tree_util.tree_leaves(jax.vmap(make(jnp), **axes)(*to(jnp.asarray)))
    ours = ms.vmap(make(ops), **axes)(*to(Tensor))
    ours = jax.tree_util.tree_leaves(ours, is_leaf=lambda v: isinstance(v, Tensor))
    assert len(ours) == len(expected)
    for a, e in zip(ours, expected):
        np.testing.assert_allclose(a.asnumpy(), np.asarray(e), rtol=1e-6, atol=1e-6)
