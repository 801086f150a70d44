"""The wrappers of wrap_extra.py against derivatives written here (and the output
structures MindSpore 2.10 gives, checked against it once by hand: tuples for several inputs
or outputs, bare tensors for one), and nn.utils.no_init_parameters."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor, Parameter
from tensorjit.nn.utils import no_init_parameters


def T(a):
    return Tensor(np.asarray(a, np.float64))


def test_vjp_and_jvp_against_derivatives():
    x, y = np.array([1.0, 2.0, 3.0]), np.array([0.5, 1.0, 2.0])
    cube = lambda a: a * a * a                                  # noqa: E731
    out, grad = nn.Vjp(cube)(T(x), T([1.0, 2.0, 0.5]))
    np.testing.assert_allclose(out.asnumpy(), x ** 3)
    np.testing.assert_allclose(grad.asnumpy(), 3 * x ** 2 * [1.0, 2.0, 0.5])
    out, tangent = nn.Jvp(cube)(T(x), T([1.0, 0.0, 2.0]))
    np.testing.assert_allclose(tangent.asnumpy(), 3 * x ** 2 * [1.0, 0.0, 2.0])
    pair = lambda a, b: (a * a * b, a + b)                      # noqa: E731
    _, (ta, tb) = nn.Jvp(pair)(T(x), T(y), (T(np.ones(3)), T(np.full(3, 2.0))))
    np.testing.assert_allclose(ta.asnumpy(), 2 * x * y + x ** 2 * 2)
    np.testing.assert_allclose(tb.asnumpy(), np.full(3, 3.0))
    _, (ga, gb) = nn.Vjp(pair)(T(x), T(y), (T(np.ones(3)), T(np.ones(3))))
    np.testing.assert_allclose(ga.asnumpy(), 2 * x * y + 1)
    np.testing.assert_allclose(gb.asnumpy(), x ** 2 + 1)
    with pytest.raises(ValueError, match="tangent"):
        nn.Jvp(pair)(T(x), T(y), T(x))
    # compiled
    jvp = nn.Jvp(cube)
    step = ms.jit(lambda a, v: jvp(a, v))
    np.testing.assert_allclose(step(T(x), T(np.ones(3)))[1].asnumpy(), 3 * x ** 2)


def _dense(rng):
    net = nn.Dense(3, 1, dtype=ms.float64)
    return net, net.weight.asnumpy(), net.bias.asnumpy(), rng.standard_normal((4, 3))


def test_forward_value_and_grad_and_with_grad_cell(rng):
    net, w, b, x = _dense(rng)
    value, (grad_x,) = nn.ForwardValueAndGrad(net, get_all=True)(T(x))
    np.testing.assert_allclose(value.asnumpy(), x @ w.T + b)
    np.testing.assert_allclose(grad_x.asnumpy(), np.repeat(w, 4, 0))
    sens = rng.standard_normal((4, 1))
    value, (gw, gb) = nn.ForwardValueAndGrad(net, net.trainable_params(), get_by_list=True,
                                             sens_param=True)(T(x), T(sens))
    np.testing.assert_allclose(gw.asnumpy(), sens.T @ x)
    np.testing.assert_allclose(gb.asnumpy(), sens.sum(0))
    y = rng.standard_normal((4, 1))
    gw, gb = nn.WithGradCell(net, nn.MSELoss())(T(x), T(y))
    residual = x @ w.T + b - y
    np.testing.assert_allclose(gw.asnumpy(), 2 * residual.T @ x / 4)
    np.testing.assert_allclose(gb.asnumpy(), 2 * residual.sum(0) / 4)
    scaled = nn.WithGradCell(net, nn.MSELoss(), sens=T(3.0))(T(x), T(y))
    np.testing.assert_allclose(scaled[0].asnumpy(), 3 * gw.asnumpy())
    with pytest.raises(TypeError, match="weights"):
        nn.ForwardValueAndGrad(net, get_by_list=True)
    with pytest.raises(TypeError, match="network"):
        nn.ForwardValueAndGrad(3)


@pytest.mark.parametrize("cls, arg", [(nn.GradAccumulationCell, "micro_size"),
                                      (nn.MicroBatchInterleaved, "interleave_num")])
def test_sliced_batches_sum_the_outputs(rng, cls, arg):
    net, w, b, x = _dense(rng)
    loss = nn.WithLossCell(net, nn.MSELoss())
    y = rng.standard_normal((4, 1))
    got = cls(loss, 2)(T(x), T(y)).asnumpy()
    halves = [((x[i:i + 2] @ w.T + b - y[i:i + 2]) ** 2).mean() for i in (0, 2)]
    np.testing.assert_allclose(got, sum(halves))
    grads = ms.grad(cls(loss, 2), None, net.trainable_params())(T(x), T(y))
    want = sum(2 * (x[i:i + 2] @ w.T + b - y[i:i + 2]).T @ x[i:i + 2] / 2 for i in (0, 2))
    np.testing.assert_allclose(grads[0].asnumpy(), want)
    with pytest.raises(ValueError, match="divisible"):
        cls(loss, 3)(T(x), T(y))
    with pytest.raises(ValueError, match=arg):
        cls(loss, 0)
    with pytest.raises(TypeError, match=arg):
        cls(loss, 2.0)


def test_parameter_update_compiles():
    p = Parameter(T(np.zeros(3)), name="p")
    update = nn.ParameterUpdate(p)
    step = ms.jit(lambda v: update(v * 2))
    np.testing.assert_array_equal(step(T([1.0, 2.0, 3.0])).asnumpy(), [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(p.asnumpy(), [2.0, 4.0, 6.0])
    with pytest.raises(TypeError, match="Parameter"):
        nn.ParameterUpdate(T(1.0))


def test_no_init_parameters(tmp_path):
    ms.set_seed(5)
    reference = nn.Dense(3, 2)
    ms.set_seed(5)
    with no_init_parameters():
        net = nn.Dense(3, 2)
        kept = Parameter(T([1.0]), name="kept")           # from a tensor: initialised
    assert not net.weight.init_param and net.weight.has_init and kept.init_param
    assert net.weight.asnumpy().strides == (0, 0)         # no memory for the values yet
    # loading a value skips the initialisation
    net.weight.set_data(Tensor(np.ones((2, 3), np.float32)))
    assert net.weight.init_param and not net.bias.init_param
    # the first call initialises what is left, with the initializer's draw
    out = net(Tensor(np.ones((1, 3), np.float32)))
    assert net.bias.init_param
    np.testing.assert_array_equal(net.weight.asnumpy(), np.ones((2, 3)))
    np.testing.assert_allclose(out.asnumpy(), 3 + net.bias.asnumpy()[None])
    assert reference.bias.shape == net.bias.shape

    @no_init_parameters()
    def build():
        return nn.Dense(2, 2)

    built = build()
    assert not built.weight.init_param
    assert built.init_parameters_data()[built.weight] is built.weight
    assert built.weight.init_param and np.abs(built.weight.asnumpy()).sum() > 0
    assert nn.no_init_parameters is no_init_parameters
