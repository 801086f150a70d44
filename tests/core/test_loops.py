"""``ops.scan`` / ``ops.while_loop`` / ``ops.fori_loop`` (and MindSpore's ``Scan``,
``WhileLoop``, ``ForiLoop`` classes): Python loops eagerly, one graph loop node under jit in
every capture mode and level; results equal a NumPy loop, gradients through scan equal
finite differences and eager ones, and the trip count of a while loop follows the data."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import ops, Tensor

CONFIGS = [(m, l) for m in ("trace", "ast", "bytecode") for l in ("O0", "O1")]


def jitted_results(fn, *args):
    out = {}
    for mode, level in CONFIGS:
        jitted = ms.jit(fn, capture_mode=mode, jit_level=level, fullgraph=True)
        jitted(*args)
        out[(mode, level)] = jitted(*args)
    return out


def flat(v):
    if isinstance(v, (tuple, list)):
        return [a for x in v for a in flat(x)]
    if isinstance(v, dict):
        return [a for k in sorted(v) for a in flat(v[k])]
    return [v]


def assert_same(got, want, rtol=1e-12):
    for g, w in zip(flat(got), flat(want)):
        np.testing.assert_allclose(np.asarray(g.asnumpy() if isinstance(g, Tensor) else g),
                                   np.asarray(w.asnumpy() if isinstance(w, Tensor) else w),
                                   rtol=rtol, atol=1e-12)


def leaky_scan(w, xs, reverse=False):
    """A pytree carry (dict with a tuple), per-step outputs as a tuple."""
    def step(carry, x):
        h = ops.tanh(ops.matmul(carry["h"], w) + x)
        return {"h": h, "n": (carry["n"][0] + 1,)}, (h * 2.0, ops.sum(h))
    init = {"h": ops.zeros((2, 3), ms.float64), "n": (Tensor(np.int64(0)),)}
    return ops.scan(step, init, xs, reverse=reverse)


def numpy_scan(w, xs, reverse=False):
    h = np.zeros((2, 3))
    ys, sums = np.zeros_like(xs), np.zeros(len(xs))
    for t in (range(len(xs) - 1, -1, -1) if reverse else range(len(xs))):
        h = np.tanh(h @ w + xs[t])
        ys[t], sums[t] = 2 * h, h.sum()
    return h, len(xs), ys, sums


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_matches_a_numpy_loop_in_every_mode(reverse):
    rng = np.random.default_rng(0)
    w, xs = rng.standard_normal((3, 3)) * 0.5, rng.standard_normal((5, 2, 3))
    eager = leaky_scan(Tensor(w), Tensor(xs), reverse)
    h, n, ys, sums = numpy_scan(w, xs, reverse)
    carry, (ys_t, sums_t) = eager
    np.testing.assert_allclose(carry["h"].asnumpy(), h, rtol=1e-12)
    assert int(carry["n"][0].asnumpy()) == n
    np.testing.assert_allclose(ys_t.asnumpy(), ys, rtol=1e-12)
    np.testing.assert_allclose(sums_t.asnumpy(), sums, rtol=1e-12)
    def run(w, xs):
        return leaky_scan(w, xs, reverse)

    for config, out in jitted_results(run, Tensor(w), Tensor(xs)).items():
        assert_same(out, eager)


def test_scan_gradients_equal_finite_differences_and_eager():
    rng = np.random.default_rng(1)
    w, xs = rng.standard_normal((3, 3)) * 0.5, rng.standard_normal((4, 2, 3))

    def loss(w, xs):
        carry, (ys, sums) = leaky_scan(w, xs, reverse=True)
        return (ys * ys).sum() + sums.sum() + carry["h"].sum()

    grad = ms.grad(loss, grad_position=(0, 1))
    eager = grad(Tensor(w), Tensor(xs))
    for i, base in enumerate((w, xs)):
        d = rng.standard_normal(base.shape)

        def at(e):
            args = [w, xs]
            args[i] = base + e * d
            return float(loss(*map(Tensor, args)).asnumpy())
        numeric = (at(1e-6) - at(-1e-6)) / 2e-6
        np.testing.assert_allclose(float((eager[i].asnumpy() * d).sum()), numeric, rtol=1e-6)
    for config, out in jitted_results(grad, Tensor(w), Tensor(xs)).items():
        assert_same(out, eager, rtol=1e-10)


def test_second_order_through_scan_inside_jit():
    x0 = Tensor(np.array([0.3, -0.2]))

    def step(c, t):
        return ops.sin(c) * t + c, t

    def f(x):
        carry, _ = ops.scan(step, x, Tensor(np.array([1.0, 2.0, 0.5])))
        return carry.sum()

    second = ms.grad(lambda x: ms.grad(f)(x).sum())
    eager = second(x0)
    eps = 1e-5
    first = ms.grad(f)
    numeric = (first(Tensor(x0.asnumpy() + eps)).asnumpy() -
               first(Tensor(x0.asnumpy() - eps)).asnumpy()) / (2 * eps)
    # d/dx of sum_j d f / d x_j, elementwise (f is elementwise in x)
    np.testing.assert_allclose(eager.asnumpy(), numeric, rtol=1e-6)
    np.testing.assert_allclose(ms.jit(second, capture_mode="ast")(x0).asnumpy(),
                               eager.asnumpy(), rtol=1e-10)


def test_while_loop_trip_count_follows_the_data():
    def collatz_steps(n):
        def body(s):
            value, count = s
            odd = ops.floor_mod(value, 2) == 1
            return ops.where(odd, value * 3 + 1, ops.floor_div(value, 2)), count + 1
        return ops.while_loop(lambda s: s[0] != 1, body, (n, Tensor(np.int64(0))))[1]

    def python_steps(n):
        count = 0
        while n != 1:
            n, count = (3 * n + 1 if n % 2 else n // 2), count + 1
        return count

    jitted = ms.jit(collatz_steps, capture_mode="ast", fullgraph=True)
    for n in (6, 7, 27):
        assert int(collatz_steps(Tensor(np.int64(n))).asnumpy()) == python_steps(n)
        assert int(jitted(Tensor(np.int64(n))).asnumpy()) == python_steps(n)   # one graph
    graph = jitted.lower(Tensor(np.int64(6))).graph
    assert [n.prim.name for n in graph.nodes].count("while_loop") == 1
    for config, out in jitted_results(collatz_steps, Tensor(np.int64(27))).items():
        assert int(out.asnumpy()) == 111, config


def test_fori_loop_and_mindspore_classes():
    def power_sum(x, n):
        def body(i, acc):
            return acc + x ** ops.cast(i, x.dtype)
        return ops.fori_loop(0, n, body, ops.zeros_like(x))

    x = Tensor(np.array([0.5, 2.0]))
    eager = power_sum(x, Tensor(np.int64(4)))
    np.testing.assert_allclose(eager.asnumpy(), [1.875, 15.0])
    for config, out in jitted_results(power_sum, x, Tensor(np.int64(4))).items():
        assert_same(out, eager)
    assert ops.ForiLoop()(0, 5, lambda i, v: v + i, 0) == 10
    assert ops.WhileLoop()(lambda v: v < 100, lambda v: v * 3, 1) == 243
    carry, ys = ops.Scan()(lambda c, e: (c + e, c + e), 0, [1, 2, 3, 4])
    assert int(carry.asnumpy()) == 10 and [int(y.asnumpy()) for y in ys] == [1, 3, 6, 10]


def test_loop_errors_are_clear():
    x = Tensor(np.zeros(3))
    with pytest.raises(TypeError, match="scan: the step must return \\(carry, y\\)"):
        ops.scan(lambda c, t: c, x, Tensor(np.zeros((2, 3))))
    with pytest.raises(ValueError, match="scan: every xs needs the same leading axis"):
        ops.scan(lambda c, t: (c, t), x, (Tensor(np.zeros((2, 3))), Tensor(np.zeros((3, 3)))))
    def narrowing(c, t):
        return ops.cast(c, ms.float32), t

    bad = ms.jit(lambda x: ops.scan(narrowing, x, Tensor(np.zeros((2, 3))))[0],
                 capture_mode="trace")
    with pytest.raises(TypeError, match="scan: the step returns a f32\\[3\\] state where the "
                                        "initial state is f64\\[3\\]"):
        bad(x)
