"""MindSpore's random operator classes (ops/sampling_classes.py): shapes, dtypes, supports and
the distributions' moments from fixed seeds (their draws cannot be recorded from MindSpore:
its generator is not ours). The bounds are several standard errors wide, so they fail only
when the distribution is wrong."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops

PROBS = np.array([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]], np.float32)


@pytest.fixture(autouse=True)
def seeded():
    ms.set_seed(7)


def _frequencies(draws, k):
    return np.stack([np.bincount(row, minlength=k) / row.size for row in draws])


def test_bernoulli_draws_zeros_and_ones_with_probability_p():
    out = ops.Bernoulli()(Tensor(np.zeros((400, 50), np.float32)), 0.3)
    v = out.asnumpy()
    assert out.dtype == ms.float32 and v.shape == (400, 50) and set(np.unique(v)) <= {0, 1}
    assert abs(v.mean() - 0.3) < 0.01


@pytest.mark.parametrize("make", [
    lambda p: ops.Multinomial()(Tensor(p), 4000),
    lambda p: ops.MultinomialWithReplacement(4000, True)(
        Tensor(p), Tensor(np.array(1, np.int64)), Tensor(np.array(0, np.int64))),
    lambda p: ops.RandomCategorical(ms.int64)(Tensor(np.log(p + 1e-12)), 4000, 0)])
def test_categorical_samplers_follow_the_probabilities(make):
    out = make(PROBS)
    assert out.shape == (2, 4000)
    freq = _frequencies(out.asnumpy(), 3)
    np.testing.assert_allclose(freq, PROBS, atol=0.03)
    assert freq[1, 2] == 0                       # a zero probability is never drawn


def test_shuffles_and_permutations_are_permutations():
    values = np.arange(10, dtype=np.float32)
    shuffled = ops.RandomShuffle()(Tensor(values)).asnumpy()
    assert sorted(shuffled) == list(values)
    perm = ops.RandpermV2()(10)
    assert perm.dtype == ms.int64 and sorted(perm.asnumpy()) == list(range(10))
    padded = ops.Randperm(12)(Tensor(np.array([10], np.int32)))
    assert padded.dtype == ms.int32
    assert sorted(padded.asnumpy()[:10]) == list(range(10))
    assert list(padded.asnumpy()[10:]) == [-1, -1]


def test_random_choice_with_mask_picks_true_positions():
    mask = np.array([[True, False], [True, True]])
    index, valid = ops.RandomChoiceWithMask(4)(Tensor(mask))
    assert index.shape == (4, 2) and index.dtype == ms.int32 and valid.shape == (4,)
    picked = index.asnumpy()[valid.asnumpy()]
    assert len(picked) == 3 and all(mask[tuple(i)] for i in picked)
    assert len({tuple(i) for i in picked}) == 3


@pytest.mark.parametrize("name,draw,mean,std,low,high", [
    ("StandardLaplace", lambda: ops.StandardLaplace()((40000,)), 0.0, np.sqrt(2), None, None),
    ("TruncatedNormal", lambda: ops.TruncatedNormal()(Tensor(np.array([40000], np.int32))),
     0.0, 0.8796, -2.0, 2.0),       # N(0, 1) within [-2, 2]: std 0.8796
    ("LogNormalReverse", lambda: ops.LogNormalReverse(0.0, 0.5)(
        Tensor(np.zeros(40000, np.float32))), np.exp(0.125), np.sqrt((np.exp(0.25) - 1)
                                                                     * np.exp(0.25)), 0.0, None),
    ("UniformInt", lambda: ops.UniformInt()((40000,), Tensor(np.array(2, np.int32)),
                                            Tensor(np.array(9, np.int32))),
     5.0, np.sqrt((7 ** 2 - 1) / 12), 2, 8)])
def test_continuous_and_integer_draws_have_their_moments(name, draw, mean, std, low, high):
    v = draw().asnumpy().astype(np.float64)
    assert v.shape == (40000,)
    assert abs(v.mean() - mean) < 5 * std / np.sqrt(v.size), name
    assert abs(v.std() - std) < 0.03 * std, name
    if low is not None:
        assert v.min() >= low, name
    if high is not None:
        assert v.max() <= high, name


def test_parameterized_truncated_normal_uses_each_rows_parameters():
    out = ops.ParameterizedTruncatedNormal()(
        Tensor(np.array([2, 5000], np.int32)), Tensor(np.array([0.0, 1.0], np.float32)),
        Tensor(np.array([1.0, 2.0], np.float32)), Tensor(np.array([-1.0, 0.0], np.float32)),
        Tensor(np.array([1.0, 3.0], np.float32))).asnumpy()
    assert out.shape == (2, 5000)
    assert out[0].min() >= -1 and out[0].max() <= 1 and abs(out[0].mean()) < 0.05
    assert out[1].min() >= 0 and out[1].max() <= 3


def test_cauchy_median_and_quartiles():
    v = ops.Cauchy([20000], median=1.0, sigma=2.0)().asnumpy()
    assert v.dtype == np.float32
    q1, q2, q3 = np.quantile(v, [0.25, 0.5, 0.75])    # quartiles of Cauchy: median -+ sigma
    assert abs(q2 - 1.0) < 0.1 and abs(q1 + 1.0) < 0.15 and abs(q3 - 3.0) < 0.15


def test_non_deterministic_ints_cover_the_dtype_range():
    v = ops.NonDeterministicInts()(Tensor(np.array([200, 50], np.int64))).asnumpy()
    assert v.dtype == np.int64 and v.shape == (200, 50)
    assert v.min() < -(2 ** 61) and v.max() > 2 ** 61
    v32 = ops.NonDeterministicInts(ms.int32)(Tensor(np.array([1000], np.int64))).asnumpy()
    assert v32.dtype == np.int32 and v32.min() < -(2 ** 29) and v32.max() > 2 ** 29


@pytest.mark.parametrize("mode", ["ast", "bytecode", "trace"])
@pytest.mark.parametrize("draw", [lambda: ops.randint(0, 1000, (8,)),
                                  lambda: ops.rand(8), lambda: ops.Bernoulli()(
                                      Tensor(np.zeros(8, np.float32)), 0.5)])
def test_a_compiled_sampler_draws_anew_on_every_call(mode, draw):
    """Sampling is a primitive in the graph, never a constant drawn at capture (ops.randint
    was one: a jitted function repeated its numbers)."""
    def sample(x):
        return draw() + x * 0
    fn = ms.jit(sample, capture_mode=mode)
    zero = Tensor(np.zeros(8, np.float32))
    calls = [fn(zero).asnumpy() for _ in range(3)]
    assert not all(np.array_equal(calls[0], c) for c in calls[1:])
