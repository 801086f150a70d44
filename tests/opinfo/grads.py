"""Gradients of table entries: the op's reverse mode (``tensorjit.grad``) on the
objective ``sum_k <out_k, ct_k>`` for fixed random cotangents, against central finite
differences in float64, against PyTorch's autograd, and at the entry's kinks."""
import numpy as np

import tensorjit as tj
from tensorjit import dtype as dt

from .run import quiet


def diff_positions(entry, sample):
    """The leaves differentiated: float64 arrays the entry does not mark ``nondiff``."""
    return [i for i, a in enumerate(sample.leaves())
            if a.dtype == np.float64 and i not in entry.nondiff]


def outputs(entry, sample, args=None):
    args = sample.tensors() if args is None else args
    with quiet():
        out = entry.op(*args, **sample.kwargs)
    return list(out) if isinstance(out, (tuple, list)) else [out]


def cotangents(entry, sample, rng):
    """A random cotangent per float output (None for bool / integer outputs)."""
    return [np.asarray(rng.standard_normal(o.shape))
            if isinstance(o, tj.Tensor) and dt.is_float(o.dtype) else None
            for o in outputs(entry, sample)]


def objective_value(entry, sample, leaves, cts):
    """<op(leaves), cts> in float64 (finite differences evaluate this)."""
    args = sample.build(lambda a, i: tj.Tensor(leaves[i]))
    total = 0.0
    with quiet():
        for o, c in zip(outputs(entry, sample, args), cts):
            if c is not None:
                total += float(np.sum(o.asnumpy().astype(np.float64) * c))
    return total


def analytic(entry, sample, cts):
    """tensorjit's gradients of the objective, one array per ``diff_positions``."""
    positions = diff_positions(entry, sample)

    def objective(*xs):
        given = dict(zip(positions, xs))
        args = sample.build(lambda a, i: given[i] if i in given else tj.Tensor(a))
        total = None
        for o, c in zip(outputs(entry, sample, args), cts):
            if c is not None:
                term = tj.ops.sum(o * tj.Tensor(c))
                total = term if total is None else total + term
        return total
    leaves = sample.leaves()
    with quiet():
        grads = tj.grad(objective, grad_position=tuple(range(len(positions))))(
            *[tj.Tensor(leaves[p]) for p in positions])
    grads = grads if isinstance(grads, tuple) else (grads,)
    return [g.asnumpy() for g in grads]


def finite_difference_problems(entry, sample, rng, eps=1e-6, tol=1e-6):
    """Directional derivatives along two random directions per input, as a list of
    problems (empty when reverse mode agrees with central differences)."""
    cts = cotangents(entry, sample, rng)
    if not any(c is not None for c in cts):
        return []
    leaves = sample.leaves()
    if not np.isfinite(objective_value(entry, sample, leaves, cts)):
        return []      # NaN / inf outputs (a mean over an empty axis): no derivative to take
    grads = analytic(entry, sample, cts)
    problems = []
    for g, p in zip(grads, diff_positions(entry, sample)):
        a = leaves[p]
        if g.shape != a.shape or g.dtype != a.dtype:
            problems.append(f"input {p}: gradient {g.dtype}{list(g.shape)} for a "
                            f"{a.dtype}{list(a.shape)} input")
            continue
        for _ in range(2):
            direction = np.asarray(rng.standard_normal(a.shape))
            moved = []
            for sign in (1, -1):
                shifted = list(leaves)
                shifted[p] = np.asarray(a + sign * eps * direction)
                moved.append(objective_value(entry, sample, shifted, cts))
            numeric = (moved[0] - moved[1]) / (2 * eps)
            exact = float(np.sum(g * direction))
            if not abs(numeric - exact) <= tol * (1 + abs(numeric)):
                problems.append(f"input {p}: <grad, dx> = {exact!r}, finite differences "
                                f"{numeric!r}")
                break
    return problems
