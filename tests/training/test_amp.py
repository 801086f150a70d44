"""Mixed precision: ``Cell.to_float(float16)`` computes in float16 (inputs and trainable
weights cast, parameters stay float32, gradients float32), ``auto_mixed_precision`` O0-O3
places the casts as MindSpore's lists say, loss scaling skips overflowing steps, and all of
it compiles in every capture mode to eager's numbers."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, ops, Tensor, amp

from matrix import CAPTURE_MODES


def rng_tensor(shape, seed, scale=1.0):
    return Tensor((np.random.default_rng(seed).standard_normal(shape) * scale)
                  .astype(np.float32))


def test_to_float_dense_computes_in_float16():
    ms.set_seed(0)
    dense = nn.Dense(8, 5).to_float(ms.float16)
    x = rng_tensor((4, 8), 1)
    out = dense(x)
    assert out.dtype == ms.float16 and dense.weight.dtype == ms.float32
    x16 = x.asnumpy().astype(np.float16).astype(np.float64)
    w16 = dense.weight.asnumpy().astype(np.float16).astype(np.float64)
    b16 = dense.bias.asnumpy().astype(np.float16).astype(np.float64)
    reference = x16 @ w16.T + b16
    np.testing.assert_allclose(out.asnumpy().astype(np.float64), reference, rtol=2e-3,
                               atol=2e-3)
    grads = ms.grad(lambda x: ops.cast(dense(x), ms.float32).sum(), None,
                    dense.trainable_params())(x)
    assert [g.dtype for g in grads] == [ms.float32, ms.float32]
    np.testing.assert_allclose(grads[0].asnumpy(), np.tile(x16.sum(0), (5, 1)), rtol=2e-3)


def test_to_float_keeps_batchnorm_statistics_updating():
    bn = nn.BatchNorm2d(3).to_float(ms.float16).set_train()
    x = rng_tensor((2, 3, 4, 4), 2)
    out = bn(x)
    assert out.dtype == ms.float16 and bn.moving_mean.dtype == ms.float32
    expected = 0.9 * 0 + 0.1 * x.asnumpy().mean(axis=(0, 2, 3))
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), expected, rtol=2e-3, atol=1e-4)


class Probe(nn.Cell):
    """Records the dtype it is called with."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def construct(self, x):
        self.seen.append(x.dtype)
        return x


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.bn = nn.BatchNorm2d(4)
        self.probe_bn = Probe()
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(4 * 8 * 8, 3)
        self.probe_fc = Probe()

    def construct(self, x):
        x = self.conv(x)
        x = self.probe_bn(x)
        x = self.relu(self.bn(x))
        x = self.flatten(x)
        return self.fc(self.probe_fc(x))


@pytest.mark.parametrize("level, probe_dtypes, bn_type", [
    ("O0", [ms.float32, ms.float32], None),
    ("O1", [ms.float32, ms.float32], None),            # conv / fc: float16 inside, 32 out
    ("O2", [ms.float16, ms.float16], ms.float32),      # BatchNorm kept in float32
    ("O3", [ms.float16, ms.float16], ms.float16)])
def test_auto_mixed_precision_levels(level, probe_dtypes, bn_type):
    ms.set_seed(0)
    net = Net()
    reference = Net()
    ms.load_param_into_net(reference, net.parameters_dict())
    names = sorted(p.name for p in net.get_parameters())
    amp_net = amp.auto_mixed_precision(net, level)
    assert sorted(p.name for p in amp_net.get_parameters()) == names   # names unchanged
    x = rng_tensor((2, 1, 8, 8), 3)
    out = amp_net(x)
    assert out.dtype == ms.float32
    assert net.probe_bn.seen + net.probe_fc.seen == probe_dtypes
    inner = lambda cell: cell.__dict__["_cells"].get("_backbone", cell)   # noqa: E731
    if level in ("O1", "O2", "O3"):
        assert inner(net.conv)._mixed_precision_type == ms.float16
    if bn_type is not None:
        assert inner(net.bn)._mixed_precision_type == bn_type
    expected = reference(x).asnumpy()
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=0, atol=2e-2 if level != "O0"
                               else 1e-6)
    if level != "O0":
        assert not np.array_equal(out.asnumpy(), expected)          # really lower precision


@pytest.mark.parametrize("mode", CAPTURE_MODES)
@pytest.mark.parametrize("level", ["O1", "O2", "O3"])
def test_mixed_precision_compiles_to_eager_numbers(mode, level):
    ms.set_seed(0)
    net = amp.auto_mixed_precision(Net(), level)
    x = rng_tensor((2, 1, 8, 8), 4)
    eager = net(x)
    jitted = ms.jit(net, capture_mode=mode)
    for _ in range(2):
        out = jitted(x)
    assert out.dtype == eager.dtype
    np.testing.assert_allclose(out.asnumpy(), eager.asnumpy(), rtol=1e-3, atol=1e-3)


def train_steps(level, mode=None, steps=12, **kwargs):
    ms.set_seed(0)
    net = Net().set_train()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    step = amp.build_train_network(net, optimizer, loss_fn, level=level, **kwargs)
    if mode is not None:
        step = ms.jit(step, capture_mode=mode)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((8, 1, 8, 8)).astype(np.float32)
    y = (x.mean(axis=(1, 2, 3)) > 0).astype(np.int32)
    outputs = [step(Tensor(x), Tensor(y)) for _ in range(steps)]
    losses = [float((o[0] if isinstance(o, tuple) else o).asnumpy()) for o in outputs]
    return losses, net, step


@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_o2_train_step_with_dynamic_loss_scale(mode):
    eager_losses, eager_net, _ = train_steps("O2")
    losses, net, _ = train_steps("O2", mode)
    assert losses[-1] < losses[0]
    np.testing.assert_allclose(losses, eager_losses, rtol=2e-3, atol=2e-3)
    for a, b in zip(net.get_parameters(), eager_net.get_parameters()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-2, atol=1e-3)


@pytest.mark.parametrize("mode", [None] + CAPTURE_MODES)
def test_an_overflowing_step_changes_nothing_and_halves_the_scale(mode):
    ms.set_seed(0)
    net = nn.Dense(4, 2)
    loss_fn = nn.MSELoss()
    optimizer = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    manager = amp.DynamicLossScaleManager(init_loss_scale=2.0 ** 10, scale_factor=2,
                                          scale_window=1000)
    step = amp.build_train_network(net, optimizer, loss_fn, level="O0",
                                   loss_scale_manager=manager)
    call = step if mode is None else ms.jit(step, capture_mode=mode)
    good_x, y = rng_tensor((3, 4), 6), rng_tensor((3, 2), 7)
    call(good_x, y)
    before = {p.name: p.asnumpy().copy() for p in step.get_parameters()}
    loss, overflow, scale = call(Tensor(np.full((3, 4), 3e38, np.float32)), y)
    assert bool(overflow.asnumpy()) and float(step.scale_sense.asnumpy()) == 2.0 ** 9
    for p in step.get_parameters():
        if p.name not in ("loss_scale", "current_iterator_step", "last_overflow_iterator_step"):
            np.testing.assert_array_equal(p.asnumpy(), before[p.name], err_msg=p.name)
    loss, overflow, _ = call(good_x, y)
    assert not bool(overflow.asnumpy())
    assert not np.array_equal(net.weight.asnumpy(), before["weight"])


def test_bad_levels():
    with pytest.raises(ValueError, match="amp_level must be one of"):
        amp.auto_mixed_precision(Net(), "O4")
    with pytest.raises(TypeError, match="must be a Cell"):
        amp.auto_mixed_precision(lambda x: x, "O2")
