"""Every entry of the op table, in every dtype it declares, on every sample: the op's
values, result dtypes and shapes against the entry's independent reference (NaN, +-inf
and signed zeros included); and every dtype it does not declare is refused with a
TypeError, so the declared dtypes are exactly the supported ones."""
import numpy as np
import pytest

from tensorjit import dtype as dt

from .core import ALL_DTYPES
from .run import check_sample, call
from .table import TABLE

CASES = [(e, d) for e in TABLE.values() for d in e.dtypes]
UNSUPPORTED = [(e, d) for e in TABLE.values() for d in ALL_DTYPES if d not in e.dtypes
               and e.only_declared and not e.random]


def _id(case):
    return f"{case[0].name}-{case[1].name}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_values_match_the_reference(case, full):
    entry, dtype = case
    samples = entry.samples_for(dtype, full)
    assert samples, f"{entry.name}: no sample for declared dtype {dtype}"
    problems = []
    for sample in samples:
        problem = check_sample(entry, sample)
        if problem:
            problems.append(f"{sample.describe()}: {problem}")
    assert not problems, f"{entry.name} ({dtype}):\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("case", UNSUPPORTED, ids=[_id(c) for c in UNSUPPORTED])
def test_undeclared_dtypes_are_refused(case):
    entry, dtype = case
    sample = entry.samples_for(dtype)[0]
    with pytest.raises(TypeError):
        call(entry, sample)
