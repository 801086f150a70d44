"""``vmap`` composed with ``jit`` in every capture mode and level, both ways round (vmap
inside a jitted function: one batched graph; a jitted function inside vmap: its body,
inlined and batched), with ``grad`` inside and outside, tensor control flow and
convolutions. Each result equals eager vmap and a NumPy loop over the examples."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops

from matrix import CAPTURE_MODES, CONFIGS, jit_call, assert_same

LEVELS = ["O0", "O1"]
ALL_CONFIGS = {"O0": dict(jit_level="O0"), **CONFIGS}
RNG = np.random.default_rng(7)
W = Tensor(RNG.standard_normal(4))
XS = Tensor(RNG.standard_normal((6, 4)))
YS = Tensor(RNG.standard_normal(6))


def loss(w, x, y):
    return (ops.tanh((w * x).sum()) - y) ** 2


def per_example_grads(w, x, y):
    return ms.vmap(ms.grad(loss), in_axes=(None, 0, 0))(w, x, y)


def grad_of_vmapped(w, x, y):
    return ms.grad(lambda v: ms.vmap(loss, in_axes=(None, 0, 0))(v, x, y).sum())(w)


def reference_grads(w, xs, ys):
    t = np.tanh(xs @ w)
    return (2 * (t - ys) * (1 - t * t))[:, None] * xs


@pytest.mark.parametrize("config", ALL_CONFIGS)
@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_vmap_inside_jit(mode, config):
    expected = reference_grads(W.asnumpy(), XS.asnumpy(), YS.asnumpy())
    out = jit_call(per_example_grads, mode, ALL_CONFIGS[config], W, XS, YS)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-10, atol=1e-12)
    assert_same(out, per_example_grads(W, XS, YS), rtol=1e-10, atol=1e-12)
    out = jit_call(grad_of_vmapped, mode, ALL_CONFIGS[config], W, XS, YS)
    np.testing.assert_allclose(out.asnumpy(), expected.sum(0), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_jit_inside_vmap(mode, level):
    expected = reference_grads(W.asnumpy(), XS.asnumpy(), YS.asnumpy())
    jitted = ms.jit(ms.grad(loss), capture_mode=mode, jit_level=level)
    for _ in range(2):
        out = ms.vmap(jitted, in_axes=(None, 0, 0))(W, XS, YS)
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-10, atol=1e-12)
    # the jitted function still runs compiled outside vmap
    np.testing.assert_allclose(jitted(W, XS[0], YS[0]).asnumpy(), expected[0], rtol=1e-10)


def branchy(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = -x
    return y


def counting(x):
    steps = 0
    while x.sum() < 6.0:
        x = x + 1.0
        steps += 1
    return x, steps


def batched_control_flow(x):
    return ms.vmap(branchy)(x), ms.vmap(counting)(x)


def reference_control_flow(xs):
    branches = np.stack([2 * x if x.sum() > 0 else -x for x in xs])
    finals, counts = [], []
    for x in xs:
        steps = 0
        while x.sum() < 6.0:
            x, steps = x + 1.0, steps + 1
        finals.append(x)
        counts.append(steps)
    return branches, np.stack(finals), np.array(counts)


@pytest.mark.parametrize("level", LEVELS)
def test_tensor_control_flow_per_example(level):
    """ast mode makes tensor if / while graph control flow: a condition that differs per
    example becomes a select (if) or a loop that runs until every example is done."""
    branches, finals, counts = reference_control_flow(XS.asnumpy())
    b, (f, c) = jit_call(batched_control_flow, "ast", dict(jit_level=level), XS)
    np.testing.assert_allclose(b.asnumpy(), branches)
    np.testing.assert_allclose(f.asnumpy(), finals)
    np.testing.assert_array_equal(c.asnumpy(), counts)
    for fn, expected in ((branchy, (branches,)), (counting, (finals, counts))):
        out = ms.vmap(ms.jit(fn, capture_mode="ast", jit_level=level))(XS)
        out = out if isinstance(out, tuple) else (out,)
        for o, e in zip(out, expected):
            np.testing.assert_allclose(o.asnumpy(), e)


def conv_loss(w, x):
    return (ops.conv2d(x[None], w, pad_mode="pad", padding=1) ** 2).mean()


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_per_example_conv_gradients(mode, level):
    w = Tensor(RNG.standard_normal((3, 2, 3, 3)))
    xs = Tensor(RNG.standard_normal((4, 2, 5, 5)))

    def per_example(w, xs):
        return ms.vmap(ms.grad(conv_loss), in_axes=(None, 0))(w, xs)

    out = jit_call(per_example, mode, dict(jit_level=level), w, xs)
    expected = np.stack([ms.grad(conv_loss)(w, xs[i]).asnumpy() for i in range(4)])
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=1e-10, atol=1e-12)
