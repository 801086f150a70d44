"""The table's samples through the differential fuzzer: each op, called on its edge inputs
(NaN, +-inf, +-0, subnormals, integer limits, empty and 0-d shapes), gives eager's results
in every capture mode x jit_level x backend (tensorjit.tools.fuzz.check_program).

By default one sample per op, in a dtype chosen per op (the CI slice); ``pytest --full``
runs every sample of every declared dtype (the nightly depth)."""
import numpy as np
import pytest

import tensorjit as tj
from tensorjit import dtype as dt
from tensorjit.tools import fuzz
from tensorjit.tools.fuzz.op_programs import op_program

from .table import TABLE

FEED = [e for e in TABLE.values() if e.fuzz and not e.random and hasattr(tj.ops, e.name)
        and e.op is getattr(tj.ops, e.name)]


def ci_sample(entry):
    """The sample the CI slice checks: the edge sample of the entry's first float dtype
    when it has one, else that dtype's first sample; dtypes without floats use the first."""
    floats = [d for d in entry.dtypes if dt.is_float(d)]
    dtype = (dt.float32 if dt.float32 in floats else floats[0]) if floats else entry.dtypes[0]
    samples = [s for s in entry.samples_for(dtype) if s.raises is None]
    edges = [s for s in samples if "edge" in s.label]
    return (edges or samples)[:1]


def feed_samples(entry, full):
    if not full:
        return ci_sample(entry)
    return [s for d in entry.dtypes for s in entry.samples_for(d, full) if s.raises is None]


@pytest.fixture
def fuse_everything(monkeypatch):
    """O1 fuses even these small inputs, so the native kernels see the edge values."""
    from tensorjit.passes import fusion
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 0)


@pytest.mark.parametrize("entry", FEED, ids=str)
def test_jitted_calls_agree_with_eager_on_the_table_samples(entry, full, fuse_everything):
    problems = []
    for sample in feed_samples(entry, full):
        program = op_program(entry.name, sample.args, sample.kwargs)
        if program is None:
            continue
        for mismatch in fuzz.check_program(program):
            problems.append(f"{sample.describe()}: {mismatch}")
    assert not problems, f"{entry.name}:\n" + "\n".join(problems[:5])
