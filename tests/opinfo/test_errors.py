"""Inputs an op must refuse: the same error, naming the op, eagerly and in every capture
mode and level (an error raised by pow's kernel in ast capture once named div)."""
import pytest

import tensorjit as tj

from .run import quiet
from .table import TABLE

CASES = [(e, c) for e in TABLE.values() for c in e.errors]
CONFIGS = [("eager", None)] + [(m, lv) for m in ("trace", "ast", "bytecode") for lv in ("O0", "O1")]


@pytest.mark.parametrize("case", CASES, ids=[f"{e.name}-{i}" for i, (e, c) in enumerate(CASES)])
@pytest.mark.parametrize("mode,level", CONFIGS, ids=[f"{m}-{lv}" for m, lv in CONFIGS])
def test_errors_name_the_op(case, mode, level):
    entry, error = case
    sample = error.sample

    def run(*args):
        return entry.op(*args, **sample.kwargs)
    fn = run if mode == "eager" else tj.jit(run, capture_mode=mode, jit_level=level)
    with quiet(), pytest.raises(error.exc) as info:
        fn(*sample.tensors())
    assert error.match in str(info.value), (
        f"{entry.name} ({error.why}) in {mode}/{level}: the error does not name "
        f"{error.match!r}: {info.value}")
    if mode != "eager":
        assert "test_errors.py:" in str(info.value), (
            f"{entry.name} in {mode}/{level}: the error does not name the user's line: "
            f"{info.value}")
