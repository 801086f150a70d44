"""Gradients of every differentiable table entry against central finite differences
(float64) on its smooth samples; at its kinks, the documented subgradient exactly; ops
without a derivative (floor, comparisons, ...) give zero gradients."""
import numpy as np
import pytest

from .grads import finite_difference_problems, analytic, cotangents, diff_positions
from .table import TABLE

DIFFERENTIABLE = [e for e in TABLE.values() if e.grad and not e.random]
NOT_DIFFERENTIABLE = [e for e in TABLE.values() if not e.grad and not e.random]
KINKS = [(e, k) for e in TABLE.values() for k in e.kinks]


@pytest.mark.parametrize("entry", DIFFERENTIABLE, ids=str)
def test_gradients_match_finite_differences(entry, full):
    samples = entry.gradient_samples(full)
    assert samples, f"{entry.name}: no float64 gradient sample"
    problems = []
    for sample in samples:
        for problem in finite_difference_problems(entry, sample, entry.rng("fd", sample.label),
                                                  *entry.fd):
            problems.append(f"{sample.describe()}: {problem}")
    assert not problems, f"{entry.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("entry", NOT_DIFFERENTIABLE, ids=str)
def test_ops_without_a_derivative_give_zero_gradients(entry):
    for sample in entry.gradient_samples():
        cts = cotangents(entry, sample, entry.rng("zero"))
        if not diff_positions(entry, sample) or not any(c is not None for c in cts):
            continue
        for g in analytic(entry, sample, cts):
            assert not np.any(g), f"{entry.name} {sample.describe()}: gradient {g}"


@pytest.mark.parametrize("case", KINKS, ids=[f"{e.name}-{k.sample.label or i}"
                                             for i, (e, k) in enumerate(KINKS)])
def test_the_subgradient_at_kinks_is_the_documented_one(case):
    entry, kink = case
    sample = kink.sample
    cts = [None if c is None else np.ones(c.shape) for c in cotangents(entry, sample, entry.rng())]
    grads = analytic(entry, sample, cts)
    for g, want in zip(grads, kink.grads):
        np.testing.assert_array_equal(g, want, err_msg=f"{entry.name}: {kink.why}")
