"""Operator classes of ops/extra_classes.py that op_class_cases.py cannot record: those
MindSpore 2.10 has no CPU kernel for, checked against NumPy, and the gamma / Poisson
samplers, checked by their draws' moments (MindSpore's generator is not ours)."""
import numpy as np
import pytest
from scipy import linalg

import tensorjit as ms
from tensorjit import ops, Tensor

NO_MINDSPORE_CPU_KERNEL = {"Fmin", "LerpScalar", "EuclideanNorm", "AccumulateNV2", "Einsum",
                           "MatrixExp", "HistogramFixedWidth", "Fills"}
RANDOM = {"RandomGamma", "Gamma", "RandomPoisson", "Poisson"}
CHECKED_HERE = NO_MINDSPORE_CPU_KERNEL | RANDOM

X = np.array([[1.0, np.nan, -2.0], [0.5, 3.0, np.nan]], np.float32)
Y = np.array([[2.0, 1.0, np.nan], [0.25, -1.0, np.nan]], np.float32)


@pytest.mark.parametrize("name,init,inputs,want", [
    ("Fmin", {}, (X, Y), np.fmin(X, Y)),
    ("LerpScalar", {}, (X, Y, 0.25), X + 0.25 * (Y - X)),
    ("EuclideanNorm", {}, (Y[:, :2], np.array([1], np.int32)),
     np.sqrt((Y[:, :2] ** 2).sum(1))),
    ("EuclideanNorm", {"keep_dims": True}, (Y[:, :2], np.array([0, 1], np.int64)),
     np.sqrt((Y[:, :2] ** 2).sum()).reshape(1, 1)),
    ("AccumulateNV2", {}, ((X, Y, X),), X + Y + X),
    ("Einsum", {"equation": "ij,kj->ik"}, ((np.nan_to_num(X), np.nan_to_num(Y)),),
     np.nan_to_num(X) @ np.nan_to_num(Y).T),
    ("MatrixExp", {}, (np.array([[0.0, 1.0], [-1.0, 0.0]], np.float32),),
     linalg.expm(np.array([[0.0, 1.0], [-1.0, 0.0]]))),
    ("HistogramFixedWidth", {"nbins": 5},
     (np.array([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], np.float32), np.array([0.0, 5.0], np.float32)),
     np.array([2, 1, 1, 0, 2], np.int32)),
    ("Fills", {}, (X, 2.5), np.full_like(X, 2.5)),
])
def test_classes_without_a_mindspore_cpu_kernel(name, init, inputs, want):
    def convert(v):
        if isinstance(v, np.ndarray):
            return Tensor(v)
        return tuple(Tensor(a) for a in v) if isinstance(v, tuple) else v
    out = getattr(ops, name)(**init)(*[convert(v) for v in inputs]).asnumpy()
    assert out.dtype == want.dtype or (want.dtype == np.float64 and out.dtype == np.float32)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)


def test_class_errors_follow_mindspore():
    with pytest.raises(ValueError, match="HistogramFixedWidth"):
        ops.HistogramFixedWidth(3, "int64")(Tensor(X), Tensor(np.array([0.0, 1.0], np.float32)))
    with pytest.raises(TypeError, match="EuclideanNorm"):
        ops.EuclideanNorm()(Tensor(X), (1,))
    with pytest.raises(TypeError, match="Fills"):
        ops.Fills()(Tensor(X), 2)
    with pytest.raises(RuntimeError, match="NaN"):
        ms.jit(lambda x: ops.CheckNumerics()(x) * 2)(Tensor(X))


@pytest.fixture()
def seeded():
    ms.set_seed(11)


def _moments(v, mean, var):
    v = v.astype(np.float64)
    assert np.all(np.abs(v.mean(0) - mean) < 5 * np.sqrt(var / v.shape[0]))
    assert np.all(np.abs(v.var(0) - var) < 0.1 * var)


def test_gamma_classes_draw_with_their_moments(seeded):
    alpha = np.array([0.5, 4.0], np.float32)
    v = ops.RandomGamma()(Tensor(np.array([20000], np.int32)), Tensor(alpha))
    assert v.dtype == ms.float32 and v.shape == (20000, 2)
    _moments(v.asnumpy(), alpha, alpha)
    beta = np.array([2.0], np.float32)
    g = ops.Gamma(seed=3)((20000, 2), Tensor(alpha), Tensor(beta))
    assert g.dtype == ms.float32 and g.shape == (20000, 2)
    _moments(g.asnumpy(), alpha / beta, alpha / beta ** 2)


def test_poisson_classes_draw_with_their_moments(seeded):
    rate = np.array([0.7, 12.0], np.float32)
    v = ops.RandomPoisson()(Tensor(np.array([20000], np.int64)), Tensor(rate))
    assert v.dtype == ms.int64 and v.shape == (20000, 2)
    _moments(v.asnumpy(), rate, rate)
    p = ops.Poisson()((20000, 1), Tensor(rate))
    assert p.dtype == ms.int32 and p.shape == (20000, 2)
    _moments(p.asnumpy(), rate, rate)
    f = ops.RandomPoisson(dtype=ms.float16)(Tensor(np.array([3], np.int32)), Tensor(rate))
    assert f.dtype == ms.float16


@pytest.mark.parametrize("mode", ["ast", "bytecode", "trace"])
def test_a_compiled_sampler_draws_anew_on_every_call(mode):
    def sample(alpha):
        return (ops.random_gamma(Tensor(np.array([4], np.int32)), alpha)
                + ops.Poisson()((4,), Tensor(np.array([3.0], np.float32))))
    fn = ms.jit(sample, capture_mode=mode)
    alpha = Tensor(np.array([2.0], np.float32))
    calls = [fn(alpha).asnumpy() for _ in range(3)]
    assert not all(np.array_equal(calls[0], c) for c in calls[1:])
