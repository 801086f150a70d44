"""mint is a translation layer: the names that have an ops / nn implementation are that
implementation (one computation each), and the Tensor methods MindSpore 2.10 has for the
new ops (roll, inverse, det, matrix_determinant, hardshrink) compute what NumPy does."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import mint, nn, ops

rng = np.random.default_rng(7)
M = (rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)).astype(np.float32)
X = rng.standard_normal((3, 4)).astype(np.float32)


def test_tensor_methods_for_new_ops_match_numpy():
    x, m = ms.Tensor(X), ms.Tensor(M)
    np.testing.assert_array_equal(x.roll(1, 0).asnumpy(), np.roll(X, 1, 0))
    np.testing.assert_array_equal(x.roll((1, -2), (0, 1)).asnumpy(), np.roll(X, (1, -2), (0, 1)))
    np.testing.assert_array_equal(x.roll(5).asnumpy(), np.roll(X, 5))
    np.testing.assert_allclose(m.inverse().asnumpy(), np.linalg.inv(M), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(m.det().asnumpy(), np.linalg.det(M), rtol=1e-4)
    np.testing.assert_allclose(m.matrix_determinant().asnumpy(), np.linalg.det(M), rtol=1e-4)
    np.testing.assert_array_equal(x.hardshrink(0.5).asnumpy(),
                                  np.where(np.abs(X) > 0.5, X, 0))
    np.testing.assert_array_equal(x.hardshrink().asnumpy(), np.where(np.abs(X) > 0.5, X, 0))


def test_tensor_methods_raise_the_ops_errors():
    with pytest.raises(ValueError, match="square"):
        ms.Tensor(X).inverse()
    with pytest.raises(TypeError, match="float32 or float64"):
        ms.Tensor(np.eye(2, dtype=np.int32)).det()
    with pytest.raises(ValueError, match="same length"):
        ms.Tensor(X).roll((1, 2), 0)


def test_mint_linalg_and_roll_are_the_ops_functions():
    m = ms.Tensor(M)
    np.testing.assert_array_equal(mint.inverse(m).asnumpy(), ops.inverse(m).asnumpy())
    np.testing.assert_array_equal(mint.linalg.inv(m).asnumpy(), ops.inverse(m).asnumpy())
    np.testing.assert_array_equal(mint.roll(ms.Tensor(X), 2, 1).asnumpy(), np.roll(X, 2, 1))


def test_linear_is_one_class_in_nn_and_mint():
    assert mint.nn.Linear is nn.Linear and mint.Linear is nn.Linear
    layer = nn.Linear(4, 2)
    assert [p.name for p in layer.get_parameters()] == ["weight", "bias"]
    assert nn.Linear(4, 2, bias=False).bias is None
    out = layer(ms.Tensor(X))
    ref = X @ layer.weight.asnumpy().T + layer.bias.asnumpy()
    np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-5, atol=1e-6)
    assert "input_features=4, output_features=2, has_bias=True" in repr(layer)


def test_layers_mint_shares_with_nn():
    for name in ("Identity", "ReLU", "AdaptiveMaxPool2d", "SoftMarginLoss",
                 "AdaptiveAvgPool2d", "MaxUnpool2d", "Upsample", "PixelShuffle",
                 "ConstantPad2d", "ReflectionPad1d", "ReplicationPad3d", "ZeroPad2d"):
        assert getattr(mint.nn, name) is getattr(nn, name), name
    np.testing.assert_array_equal(nn.Identity(3, unused=1)(ms.Tensor(X)).asnumpy(), X)
    padded = mint.nn.ZeroPad1d((1, 2))(ms.Tensor(X)).asnumpy()
    np.testing.assert_array_equal(padded, np.pad(X, ((0, 0), (1, 2))))
