"""Done-means 1: every O1 and GE result equals O0 (capture mode x level x backend) on the
simple function, BasicBlock and attention (forward and forward+backward) and control flow."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit.bench import workloads

from matrix import CAPTURE_MODES, CONFIGS, jit_call, assert_same

BASE = dict(jit_level="O0")


def f(a, b, c):
    return a * b + c


def chain(x, y):
    z = ops.relu(x * y + 1.0) - y
    return ops.maximum(z * 0.5 + x, y).abs() * 2.0, (z * x).sum(axis=-1)


def branchy(x):
    if x.sum() > 0:
        return ops.relu(x * 2.0 - 1.0)
    return x * x + 3.0


def _rand(*shape, seed=0):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def _grad_fn(cell):
    params = cell.trainable_params()

    def loss(*args):
        out = cell(*args)
        return (out * out).mean()
    return ms.value_and_grad(loss, None, params)


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_simple_and_chain(mode, config):
    args = [_rand(2, 3, seed=i) for i in range(3)]
    assert_same(jit_call(f, mode, CONFIGS[config], *args), jit_call(f, mode, BASE, *args))
    x, y = _rand(8, 33, seed=1), _rand(8, 33, seed=2)
    assert_same(jit_call(chain, mode, CONFIGS[config], x, y), jit_call(chain, mode, BASE, x, y))
    assert_same(jit_call(chain, mode, CONFIGS[config], x, y), chain(x, y))


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_control_flow(mode, config):
    for seed in range(3):
        x = _rand(4, 5, seed=seed)
        assert_same(jit_call(branchy, mode, CONFIGS[config], x), branchy(x))


@pytest.mark.parametrize("training", [False, True])
@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_basic_block(mode, config, training):
    def run(options, grad):
        wl = workloads.resnet_block("tiny", training=training)
        fn = _grad_fn(wl.cell) if grad else wl.cell
        return jit_call(fn, mode, options, *wl.args, calls=2)
    for grad in (False, True):
        assert_same(run(CONFIGS[config], grad), run(BASE, grad))


@pytest.mark.parametrize("config", list(CONFIGS))
@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_attention(mode, config):
    def run(options, grad):
        wl = workloads.llama_attention("tiny", with_mask=True)
        fn = _grad_fn(wl.cell) if grad else wl.cell
        return jit_call(fn, mode, options, *wl.args, calls=2)
    for grad in (False, True):
        assert_same(run(CONFIGS[config], grad), run(BASE, grad))
