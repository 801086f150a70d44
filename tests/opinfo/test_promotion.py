"""Operands of different dtypes: every ordered pair of an entry's declared dtypes gives the
promoted dtype (``tensorjit.dtype.promote_types``: MindSpore 2.10's table, checked against
the recorded MindSpore results in test_mindspore_record.py) and the values of the op on
both operands converted to it; Python numbers are weak (``f16 * 2.5`` stays float16)."""
import numpy as np
import pytest

from tensorjit import dtype as dt

from .core import Sample, compare
from .run import call, reference
from .table import TABLE

BINARY = [e for e in TABLE.values() if e.promotes]
SCALARS = (True, 2, 2.5)


def _operand(entry, dtype, position):
    """The first sample's operand at ``position`` for ``dtype``."""
    return entry.samples_for(dtype)[0].args[position]


def _check(entry, args, common):
    got_sample = Sample(*args)
    want_sample = Sample(*[a.astype(common) if isinstance(a, np.ndarray) else
                           np.asarray(a).astype(common) for a in args])
    try:
        got = call(entry, got_sample)
    except Exception as exc:
        return f"raised {type(exc).__name__}: {exc}"
    want = reference(entry, want_sample)
    for g, w, d in zip(got, want, entry.result_dtypes(want_sample)):
        problem = compare(g, w, d, *entry.tolerance(d), signed_zeros=False)
        if problem:
            return problem
    return None


@pytest.mark.parametrize("entry", BINARY, ids=str)
def test_mixed_dtypes_promote(entry):
    problems = []
    for d1 in entry.dtypes:
        for d2 in entry.dtypes:
            if d1 == d2:
                continue
            common = dt.promote_types(d1, d2)
            args = (_operand(entry, d1, 0), _operand(entry, d2, 1))
            problem = _check(entry, args, common)
            if problem:
                problems.append(f"{d1} with {d2} (-> {common}): {problem}")
    assert not problems, f"{entry.name}:\n  " + "\n  ".join(problems[:20])


WEAK = [e for e in BINARY if e.weak_scalars]


@pytest.mark.parametrize("entry", WEAK, ids=str)
def test_python_numbers_are_weak(entry):
    problems = []
    for d in entry.dtypes:
        x, y = _operand(entry, d, 0), _operand(entry, d, 1)
        for scalar in SCALARS:
            common = dt.promote_with_scalar(d, scalar)
            for args in ((x, scalar), (scalar, y)):
                if common not in entry.dtypes:
                    try:
                        call(entry, Sample(*args))
                    except TypeError:
                        continue
                    problems.append(f"{d} with {scalar!r}: {common} is not declared, yet "
                                    f"the op ran")
                    continue
                problem = _check(entry, args, common)
                if problem:
                    problems.append(f"{d} with {scalar!r} (-> {common}): {problem}")
    assert not problems, f"{entry.name}:\n  " + "\n  ".join(problems[:20])
