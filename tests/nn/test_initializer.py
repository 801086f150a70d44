"""initializer(): shapes, dtypes, distributions (checked with their defining formulas),
reproducibility under set_seed, and pass-through of tensors."""
import math

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor
from tensorjit.nn import initializer as init


def test_constants_and_names():
    np.testing.assert_array_equal(init.initializer("zeros", (2, 3)).asnumpy(), np.zeros((2, 3)))
    np.testing.assert_array_equal(init.initializer("ones", [4]).asnumpy(), np.ones(4))
    np.testing.assert_array_equal(init.initializer(init.Constant(2.5), 3).asnumpy(),
                                  np.full(3, 2.5))
    np.testing.assert_array_equal(init.initializer(0, [1], ms.int32).asnumpy(), [0])
    t = init.initializer("One", (2, 2), ms.float16)
    assert t.dtype == ms.float16 and t.shape == (2, 2)


@pytest.mark.parametrize("name", ["normal", "uniform", "he_uniform", "heuniform", "he_normal",
                                  "xavier_uniform", "xavier_normal", "truncatednormal",
                                  "zeros", "ones"])
def test_every_name_gives_the_shape_and_dtype(name):
    t = init.initializer(name, (4, 3, 2), ms.float32)
    assert isinstance(t, Tensor) and t.shape == (4, 3, 2) and t.dtype == ms.float32


def test_normal_and_uniform_statistics():
    n = init.initializer(init.Normal(sigma=0.5, mean=2.0), (200, 200), ms.float64).asnumpy()
    assert abs(n.mean() - 2.0) < 0.01 and abs(n.std() - 0.5) < 0.01
    u = init.initializer(init.Uniform(scale=0.3), (200, 200), ms.float64).asnumpy()
    assert u.min() >= -0.3 and u.max() <= 0.3 and u.max() > 0.29
    default = init.initializer("normal", (300, 300), ms.float64).asnumpy()
    assert abs(default.std() - 0.01) < 5e-4          # MindSpore's default sigma


def test_he_uniform_bound_formula():
    shape = (64, 16, 3, 3)                  # fan_in = 16 * 9, fan_out = 64 * 9
    fan_in, fan_out = 16 * 9, 64 * 9
    for slope, mode, fan in ((0, "fan_in", fan_in), (math.sqrt(5), "fan_in", fan_in),
                             (0, "fan_out", fan_out)):
        bound = math.sqrt(2.0 / (1 + slope ** 2)) * math.sqrt(3.0 / fan)
        w = init.initializer(init.HeUniform(slope, mode), shape, ms.float64).asnumpy()
        assert np.abs(w).max() <= bound and np.abs(w).max() > 0.98 * bound
    relu = init.initializer(init.HeUniform(nonlinearity="relu"), shape, ms.float64).asnumpy()
    assert np.abs(relu).max() <= math.sqrt(2) * math.sqrt(3.0 / fan_in)


def test_he_normal_and_xavier_statistics():
    shape = (400, 300)
    he = init.initializer(init.HeNormal(), shape, ms.float64).asnumpy()
    assert abs(he.std() - math.sqrt(2.0 / 300)) < 0.02 * math.sqrt(2.0 / 300)
    xn = init.initializer(init.XavierNormal(gain=2), shape, ms.float64).asnumpy()
    assert abs(xn.std() - 2 * math.sqrt(2.0 / 700)) < 0.02 * 2 * math.sqrt(2.0 / 700)
    xu = init.initializer("xavier_uniform", shape, ms.float64).asnumpy()
    bound = math.sqrt(6.0 / 700)
    assert np.abs(xu).max() <= bound and np.abs(xu).max() > 0.98 * bound


def test_truncated_normal_stays_in_bounds():
    t = init.initializer(init.TruncatedNormal(sigma=1.0, a=-0.5, b=1.0), (100, 100),
                         ms.float64).asnumpy()
    assert t.min() >= -0.5 and t.max() <= 1.0


def test_seed_makes_initialisation_reproducible():
    ms.set_seed(3)
    a = init.initializer("he_uniform", (5, 4)).asnumpy()
    b = ms.nn.Dense(4, 5).weight.asnumpy()
    ms.set_seed(3)
    assert np.array_equal(a, init.initializer("he_uniform", (5, 4)).asnumpy())
    assert np.array_equal(b, ms.nn.Dense(4, 5).weight.asnumpy())
    assert not np.array_equal(a, init.initializer("he_uniform", (5, 4)).asnumpy())


def test_tensor_and_ndarray_pass_through():
    t = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert init.initializer(t, (2, 3)) is t
    arr = np.ones((2, 2))
    np.testing.assert_array_equal(init.initializer(arr).asnumpy(), arr)
    with pytest.raises(ValueError, match="shape"):
        init.initializer(t, (3, 2))


def test_tensor_constructor_with_init():
    t = Tensor(shape=(2, 3), dtype=ms.float32, init=init.One())
    np.testing.assert_array_equal(t.asnumpy(), np.ones((2, 3)))


def test_errors():
    with pytest.raises(ValueError, match="unknown initializer"):
        init.initializer("glorot", (2, 2))
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init.initializer("he_uniform", (3,))
    with pytest.raises(TypeError):
        init.initializer(object(), (2,))
    with pytest.raises(ValueError, match="positive"):
        init.initializer("zeros", (2, 0))
    with pytest.raises(ValueError, match="mode"):
        init.HeNormal(mode="fan_avg")
