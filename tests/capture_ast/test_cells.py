"""Cells in ast mode: the seed BasicBlock and LlamaAttention with plain ``jit`` (ast) equal
eager forward and forward+backward, BatchNorm's moving statistics update in training
mode; ``@jit`` on ``construct``; ``set_context(mode=GRAPH_MODE)``."""
import copy

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, nn, ops
from tensorjit.bench import workloads

from .helpers import close, compiles

LEVELS = ["O0", "O1"]


def _grads_close(got, expected, check_dtype=True):
    value, grads = got
    value0, grads0 = expected
    close(value, value0, rtol=1e-4, atol=1e-5)
    assert len(grads) == len(grads0)
    for g, g0 in zip(grads, grads0):
        if check_dtype:
            close(g, g0, rtol=1e-4, atol=1e-5)
        else:
            # O1 currently returns some BatchNorm gradients as float64 (``where(c, 1.0,
            # 0.0)`` with only literal operands, in trace mode too): compare values
            np.testing.assert_allclose(g.asnumpy(), g0.asnumpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("level", LEVELS)
def test_basic_block_forward_equals_eager(level):
    wl = workloads.resnet_block("tiny")
    block, (x,) = wl.cell, wl.args
    jitted = ms.jit(block, jit_level=level)
    for _ in range(3):
        close(jitted(x), block(x), rtol=1e-5, atol=1e-5)
    assert compiles(jitted) == 1
    names = jitted.lower(x).graph.primitive_names()
    assert "cond" not in names and "while_loop" not in names    # Python ifs resolved


@pytest.mark.parametrize("level", LEVELS)
def test_basic_block_forward_backward_and_batchnorm_statistics(level):
    wl = workloads.resnet_block("tiny", training=True, stride=2, out_channel=6)
    block, (x,) = wl.cell, wl.args
    twin = copy.deepcopy(block)                       # eager reference, its own statistics
    step = ms.jit(ms.value_and_grad(block, None, block.trainable_params()), jit_level=level)
    reference = ms.value_and_grad(twin, None, twin.trainable_params())
    before = block.bn1.moving_mean.asnumpy().copy()
    for _ in range(2):
        _grads_close(step(x), reference(x), check_dtype=level == "O0")
        for name in ("bn1", "bn2"):
            for stat in ("moving_mean", "moving_variance"):
                close(getattr(getattr(block, name), stat), getattr(getattr(twin, name), stat),
                      rtol=1e-5, atol=1e-6)
        close(block.down_sample[1].moving_mean, twin.down_sample[1].moving_mean,
              rtol=1e-5, atol=1e-6)
    assert not np.allclose(block.bn1.moving_mean.asnumpy(), before)
    assert compiles(step) == 1


@pytest.mark.parametrize("level", LEVELS)
def test_llama_attention_forward_and_backward_equal_eager(level):
    wl = workloads.llama_attention("tiny", with_mask=True)
    cell, args = wl.cell, wl.args
    jitted = ms.jit(cell, jit_level=level)
    for _ in range(2):
        close(jitted(*args), cell(*args), rtol=1e-5, atol=1e-5)
    step = ms.jit(ms.value_and_grad(cell, None, cell.trainable_params()), jit_level=level)
    reference = ms.value_and_grad(cell, None, cell.trainable_params())
    for _ in range(2):
        _grads_close(step(*args), reference(*args), check_dtype=level == "O0")
    assert compiles(jitted) == 1 and compiles(step) == 1


def test_llama_attention_without_mask_and_position_ids():
    wl = workloads.llama_attention("tiny")
    cell, (x, _, _) = wl.cell, wl.args
    jitted = ms.jit(cell)
    close(jitted(x), cell(x), rtol=1e-5, atol=1e-5)


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(3, 3, weight_init="ones", bias_init="zeros")
        self.k = 2.0

    @ms.jit
    def construct(self, x):
        y = self.dense(x)
        if y.sum() > 0:
            return y * self.k
        return y


def test_jit_decorated_construct_and_cell_attribute_changes():
    cell = Scaled()
    x = Tensor(np.ones((1, 3), np.float32))
    close(cell(x), Tensor(np.full((1, 3), 6.0, np.float32)))
    close(cell(-x), Tensor(np.full((1, 3), -3.0, np.float32)))
    cell.k = 5.0                                  # a Cell attribute: recompiles
    close(cell(x), Tensor(np.full((1, 3), 15.0, np.float32)))


def test_graph_mode_compiles_top_level_cells_and_pynative_is_eager():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(4, 2)

        def construct(self, x):
            y = self.dense(x)
            if y.mean() > 0:
                y = ops.relu(y)
            return y * 2

    ms.set_seed(1)
    net = Net()
    x = Tensor(np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32))
    eager = net(x)
    assert "_tj_graph_mode_jit" not in net.__dict__
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    assert ms.get_context("mode") == ms.GRAPH_MODE
    for sign in (1.0, -1.0, 1.0):
        close(net(x * sign), Net.construct(net, x * sign), rtol=1e-6)
    jitted = net.__dict__["_tj_graph_mode_jit"]
    assert compiles(jitted) == 1 and jitted._tj_jit.opts.capture_mode == "ast"
    value, grads = ms.value_and_grad(net, None, net.trainable_params())(x)  # eager tape
    close(value, eager)
    ms.context.set_context(mode=ms.context.PYNATIVE_MODE)
    close(net(x), eager)
    assert compiles(jitted) == 1
    with pytest.raises(ValueError, match="GRAPH_MODE"):
        ms.set_context(mode=3)
