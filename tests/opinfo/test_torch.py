"""The op table against PyTorch (a second, independent implementation): values on every
float32 / float64 sample (edge values included), and gradients on the gradient samples,
at the kinks (where the entry says PyTorch chooses the same subgradient) and at the edge
values. Skipped when PyTorch is not installed (it is not a dependency)."""
import numpy as np
import pytest

from .core import compare
from .grads import analytic, cotangents, diff_positions
from .table import TABLE
from . import torch_ref

pytestmark = pytest.mark.skipif(torch_ref.torch is None, reason="PyTorch is not installed")

VALUE_CASES = [(e, d) for e in TABLE.values() if e.torch is not None and not e.random
               for d in torch_ref.TORCH_VALUE_DTYPES if d in e.dtypes]
GRAD_CASES = [e for e in TABLE.values() if e.torch is not None and e.grad and e.torch_grad
              and not e.random]


@pytest.mark.parametrize("case", VALUE_CASES, ids=[f"{e.name}-{d.name}" for e, d in VALUE_CASES])
def test_values_match_pytorch(case, full):
    entry, dtype = case
    problems = []
    for sample in entry.samples_for(dtype, full):
        if sample.raises is not None:
            continue
        got = torch_ref.ours(entry, sample)
        want = torch_ref.values(entry, sample)
        differs = entry.torch_differs.get(f"value:{sample.label}")
        for k, (g, w) in enumerate(zip(got, want)):
            if differs is not None:
                keep = ~differs.mask(sample, g.shape)
                g, w = g[keep], w[keep]
            rtol, atol = entry.tolerance(g.dtype)
            problem = compare(g, w.astype(g.dtype) if w.dtype != g.dtype else w, g.dtype,
                              rtol, atol, entry.signed_zeros)
            if problem:
                problems.append(f"{sample.describe()} result {k}: {problem}")
    assert not problems, f"{entry.name} ({dtype}) vs PyTorch:\n  " + "\n  ".join(problems)


def _grad_samples(entry, full):
    samples = entry.gradient_samples(full)
    samples += [k.sample for k in entry.kinks if k.torch]
    samples += [s for s in entry.samples_for(np.dtype(np.float64), full)
                if not s.smooth and s.raises is None]
    return samples


@pytest.mark.parametrize("entry", GRAD_CASES, ids=str)
def test_gradients_match_pytorch_autograd(entry, full):
    problems = []
    for sample in _grad_samples(entry, full):
        positions = diff_positions(entry, sample)
        cts = cotangents(entry, sample, entry.rng("torch", sample.label))
        if not positions or not any(c is not None for c in cts):
            continue
        got = analytic(entry, sample, cts)
        want = torch_ref.gradients(entry, sample, positions, cts)
        differs = entry.torch_differs.get(f"grad:{sample.label}")
        for p, g, w in zip(positions, got, want):
            if differs is not None:
                keep = ~differs.mask(sample, g.shape)
                g, w = g[keep], w[keep]
            if not np.allclose(g, w, rtol=1e-9, atol=1e-12, equal_nan=True):
                bad = ~np.isclose(g, w, rtol=1e-9, atol=1e-12, equal_nan=True)
                problems.append(f"{sample.describe()} input {p}: {g[bad][:6]} where PyTorch "
                                f"has {w[bad][:6]}")
    assert not problems, f"{entry.name} gradients vs PyTorch:\n  " + "\n  ".join(problems)
