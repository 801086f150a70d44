"""tensorjit.numpy under autodiff and jit: gradients of a sample of the differentiable
functions against central finite differences (float64), and a sample of functions
compiled in every capture mode (ast / bytecode / trace) and level against eager."""
import numpy as np
import pytest

import tensorjit as ms
import tensorjit.numpy as mnp

RNG = np.random.default_rng(7)
X = RNG.uniform(-0.8, 0.8, (3, 4))                 # inside (-1, 1) for arcsin ...
POS = RNG.uniform(1.2, 3.0, (3, 4))                # above 1 for arccosh, log ...
W = RNG.standard_normal((3, 4))

# name -> (function of one tensor, input): each reduced to a scalar with fixed weights
GRADIENT_CASES = {
    "arcsin": (mnp.arcsin, X), "arccos": (mnp.arccos, X), "arctanh": (mnp.arctanh, X),
    "arcsinh": (mnp.arcsinh, X), "arccosh": (mnp.arccosh, POS), "sinh": (mnp.sinh, X),
    "cosh": (mnp.cosh, X), "cbrt": (mnp.cbrt, POS), "log2": (mnp.log2, POS),
    "log10": (mnp.log10, POS), "exp2": (mnp.exp2, X), "deg2rad": (mnp.deg2rad, X),
    "hypot": (lambda x: mnp.hypot(x, 0.5 + x * x), X),
    "logaddexp": (lambda x: mnp.logaddexp(x, mnp.flip(x)), X),
    "logaddexp2": (lambda x: mnp.logaddexp2(x, 2 * x), X),
    "fmod": (lambda x: mnp.fmod(3 * x, 0.7), X),
    "float_power": (lambda x: mnp.float_power(x, 3.0), POS),
    "sum": (lambda x: mnp.sum(x, axis=0), X), "mean": (lambda x: mnp.mean(x, 1), X),
    "average": (lambda x: mnp.average(x, 1, weights=mnp.array([1.0, 2, 3, 4], mnp.float64)), X),
    "var": (lambda x: mnp.var(x, 0, ddof=1), X), "std": (lambda x: mnp.std(x, 1), X),
    "nanmean": (lambda x: mnp.nanmean(x, 0), X), "nansum": (lambda x: mnp.nansum(x), X),
    "ptp": (lambda x: mnp.ptp(x, 1), X), "amax": (lambda x: mnp.amax(x, 0), X),
    "cumsum": (lambda x: mnp.cumsum(x, 1), X), "cumprod": (lambda x: mnp.cumprod(x, 1), POS),
    "diff": (lambda x: mnp.diff(x, 2), X), "ediff1d": (mnp.ediff1d, X),
    "gradient": (lambda x: mnp.gradient(x, axis=1, edge_order=2), X),
    "trapz": (lambda x: mnp.trapz(x, dx=0.3), X),
    "interp": (lambda x: mnp.interp(x, mnp.array([-1.0, 0.0, 1.0], mnp.float64),
                                    mnp.array([2.0, -1.0, 3.0], mnp.float64)), X),
    "unwrap": (lambda x: mnp.unwrap(5 * x), X),
    "dot": (lambda x: mnp.dot(x, mnp.transpose(x)), X),
    "matmul": (lambda x: mnp.matmul(mnp.transpose(x), x), X),
    "tensordot": (lambda x: mnp.tensordot(x, x * x, ([0, 1], [0, 1])), X),
    "inner": (lambda x: mnp.inner(x, x), X), "outer": (lambda x: mnp.outer(x[0], x[1]), X),
    "kron": (lambda x: mnp.kron(x[:2, :2], x[1:, 2:]), X),
    "cross": (lambda x: mnp.cross(x[:, :3], x[:, 1:]), X),
    "norm": (lambda x: mnp.norm(x, axis=1), X), "norm_fro": (lambda x: mnp.norm(x), X),
    "norm_1": (lambda x: mnp.norm(x, 3), X[0]),
    "polyval": (lambda x: mnp.polyval(mnp.array([1.0, -2.0, 0.5], mnp.float64), x), X),
    "polymul": (lambda x: mnp.polymul(x[0], x[1]), X),
    "convolve": (lambda x: mnp.convolve(x[0], x[1, :3], mode="same"), X),
    "correlate": (lambda x: mnp.correlate(x[0], x[1, :2]), X),
    "diagonal": (lambda x: mnp.diagonal(x, 1), X), "trace": (lambda x: mnp.trace(x), X),
    "diag": (lambda x: mnp.diag(x[0], 1), X), "tril": (lambda x: mnp.tril(x, 1), X),
    "pad": (lambda x: mnp.pad(x, ((1, 2), (2, 1)), mode="reflect"), X),
    "pad_mean": (lambda x: mnp.pad(x, 1, mode="mean"), X),
    "roll": (lambda x: mnp.roll(x, 2), X), "rot90": (lambda x: mnp.rot90(x, 3), X),
    "take": (lambda x: mnp.take(x, mnp.array([0, 5, 5, 11])), X),
    "repeat": (lambda x: mnp.repeat(x, [1, 0, 2], axis=0), X),
    "choose": (lambda x: mnp.choose(mnp.array([0, 1, 1, 0]), [x[0], x[1]]), X),
    "clip": (lambda x: mnp.clip(x, -0.3, 0.4), X),
    "where": (lambda x: mnp.where(x > 0, x * x, -x), X),
    "select": (lambda x: mnp.select([x < -0.2, x > 0.2], [x * 3, x * x], 1.0), X),
    "piecewise": (lambda x: mnp.piecewise(x, [x < 0], [lambda v: v * v, lambda v: 2 * v]), X),
    "cov": (lambda x: mnp.cov(x), X), "corrcoef": (lambda x: mnp.corrcoef(x), X),
    "vander": (lambda x: mnp.vander(x[0], 3), X),
    "linspace": (lambda x: mnp.linspace(x[0], x[1], 5, dtype=mnp.float64), X),
    "apply_along_axis": (lambda x: mnp.apply_along_axis(lambda v: v * mnp.sum(v), 1, x), X),
    "concatenate": (lambda x: mnp.concatenate((x, x * x), 1), X),
    "split": (lambda x: mnp.array_split(x, 3, axis=1)[1] * 2, X),
    "isin_mask": (lambda x: x * mnp.isin(mnp.array([[1, 2, 3, 4]] * 3), [2, 3]), X),
}


def _scalar(fn, weights_for):
    def loss(x):
        out = fn(x)
        return mnp.sum(out * weights_for(out))
    return loss


def _weights(out):
    shape = tuple(out.shape)
    values = np.cos(np.arange(int(np.prod(shape))) + 1.0).reshape(shape)
    return ms.Tensor(values.astype(np.float64))


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_gradient_matches_finite_differences(name):
    fn, x0 = GRADIENT_CASES[name]
    loss = _scalar(fn, _weights)
    x = ms.Tensor(np.array(x0, np.float64))
    got = ms.grad(loss)(x).asnumpy()
    expected = np.zeros_like(x0)
    h = 1e-6
    for index in np.ndindex(*x0.shape):
        up, down = np.array(x0, np.float64), np.array(x0, np.float64)
        up[index] += h
        down[index] -= h
        expected[index] = (float(loss(ms.Tensor(up)).asnumpy()) -
                           float(loss(ms.Tensor(down)).asnumpy())) / (2 * h)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


# ---- jit: module-level functions (capture_mode='ast' reads their source)

def f_elementwise(x, y):
    return mnp.hypot(x, y) + mnp.arcsinh(x) * mnp.fmod(y, 0.3) + mnp.logaddexp2(x, y)


def f_reductions(x, y):
    return (mnp.nanmean(x, 0) + mnp.std(y, 0, ddof=1), mnp.cumsum(x, 1), mnp.ptp(y),
            mnp.gradient(x, axis=1))


def f_manipulation(x, y):
    z = mnp.concatenate((mnp.rot90(x), mnp.flip(y, 0)[:, :3]), 0)
    return mnp.pad(mnp.roll(z, 2), 1, mode="reflect"), mnp.take(x, mnp.array([0, 7, -1]))


def f_linalg(x, y):
    return (mnp.tensordot(x, y, ([0], [0])), mnp.kron(x[:2, :2], y[:2, :2]),
            mnp.norm(x, axis=1), mnp.trace(mnp.dot(x, mnp.transpose(y))),
            mnp.cross(x[:, :3], y[:, 1:]))


def f_stats(x, y):
    return (mnp.cov(x), mnp.corrcoef(x, y), mnp.interp(x, mnp.array([-1.0, 0.0, 1.0]),
                                                      mnp.array([0.0, 2.0, 1.0])),
            mnp.convolve(x[0], y[1], mode="same"), mnp.searchsorted(mnp.array([-0.5, 0.0, 0.5]), x),
            mnp.isin(mnp.array([1, 2, 3]), mnp.array([3, 1])), mnp.polyval(y[0], x),
            mnp.digitize(x, mnp.array([0.5, 0.0, -0.5])),
            mnp.gradient(x, mnp.cumsum(mnp.exp(y[0])), axis=1, edge_order=2))


def f_creation(x, y):
    grid = mnp.meshgrid(x[0], y[0])
    return (mnp.tril(x) + mnp.triu(y, 1), grid[0] * grid[1], mnp.vander(x[1], 3),
            mnp.diag(x[0]) + mnp.eye(4) * mnp.zeros_like(x[0]) + mnp.ones((4, 4)),
            mnp.linspace(x[0], y[0], 3), mnp.where(x > y, x, y) + mnp.arange(4))


JIT_FUNCTIONS = [f_elementwise, f_reductions, f_manipulation, f_linalg, f_stats, f_creation]


def _leaves(value):
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value.asnumpy()]


@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("mode", ["ast", "bytecode", "trace"])
@pytest.mark.parametrize("fn", JIT_FUNCTIONS, ids=[f.__name__ for f in JIT_FUNCTIONS])
def test_jit_matches_eager(fn, mode, level):
    x = ms.Tensor(np.array(X, np.float32))
    y = ms.Tensor(np.array(W, np.float32) * 0.5)
    eager = _leaves(fn(x, y))
    compiled = ms.jit(fn, capture_mode=mode, jit_level=level, fullgraph=True)
    for _ in range(2):       # the first call compiles, the second runs the cached entry
        got = _leaves(compiled(x, y))
        assert len(got) == len(eager)
        for g, e in zip(got, eager):
            assert g.dtype == e.dtype and g.shape == e.shape
            np.testing.assert_allclose(g, e, rtol=2e-5, atol=2e-6)


def f_data_dependent(x):
    return mnp.unique(x)


def test_data_dependent_functions_say_they_run_eagerly():
    x = ms.Tensor(np.array([3, 1, 3], np.int32))
    assert mnp.unique(x).asnumpy().tolist() == [3, 1]
    with pytest.raises(Exception, match="eager|depends on the data"):
        ms.jit(f_data_dependent, capture_mode="ast", fullgraph=True)(x)
