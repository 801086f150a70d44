"""The table against MindSpore 2.10, whose API tensorjit follows: result dtypes for every
declared dtype, float32 values on every sample (edge values included) and the promotion
table, compared with the results recorded in mindspore_2_10.json (CI has no MindSpore;
``mindspore_record.py`` re-records them). Every difference is declared in the entry's
``ms_differs`` with the reason, and every declared difference must still exist."""
import numpy as np
import pytest

from tensorjit import dtype as dt

from . import mindspore_check as mc
from .table import TABLE

RECORD = mc.load()
ENTRIES = [e for e in TABLE.values() if e.ms and not e.random]


def _differences(entry):
    """{key: problems} of the entry's recorded samples, and how many were recorded."""
    found, recorded = {}, 0
    for dtype in entry.dtypes:
        samples = [s for s in entry.samples_for(dtype) if s.raises is None]
        result = mc.result_of(RECORD, entry, dtype, samples[0]) if samples else None
        if result is not None:
            recorded += 1
            problem = mc.dtype_problem(entry, samples[0], result)
            if problem:
                found.setdefault("dtype", []).append(f"{dtype}: {problem}")
    if dt.float32 in entry.dtypes:
        for sample in entry.samples_for(dt.float32):
            result = mc.result_of(RECORD, entry, dt.float32, sample)
            if sample.raises is None and result is not None:
                recorded += 1
                problem = mc.value_problem(entry, sample, result)
                if problem:
                    found[f"value:{sample.label}"] = [problem]
    return found, recorded


@pytest.mark.parametrize("entry", ENTRIES, ids=str)
def test_results_follow_mindspore_or_say_why_not(entry):
    found, recorded = _differences(entry)
    if not recorded:
        pytest.skip(f"no MindSpore record for these samples of {entry.name} (a new op, or "
                    f"its samples changed): python tests/opinfo/mindspore_record.py "
                    f"--mindspore-python <MindSpore 2.10's interpreter>")
    declared = entry.ms_differs
    everywhere = "value:*" in declared
    undeclared = {k: v for k, v in found.items() if k not in declared
                  and not (everywhere and k.startswith("value:"))}
    assert not undeclared, (
        f"{entry.name} differs from MindSpore 2.10; follow it or add ms_differs="
        f"{{key: why}} to the entry:\n"
        + "\n".join(f"  {k}: {v[:3]}" for k, v in undeclared.items()))
    stale = sorted(k for k in declared if k != "value:*" and k not in found)
    assert not stale, f"{entry.name}: ms_differs {stale} no longer differ from MindSpore"


def test_the_record_covers_the_table():
    """Entries can be newer than the record (they are skipped above, with the command to
    re-record); most of the table must be in it."""
    recorded = [e for e in ENTRIES if _differences(e)[1]]
    assert len(recorded) >= 0.9 * len(ENTRIES), (
        f"only {len(recorded)} of {len(ENTRIES)} entries have MindSpore records: re-record "
        f"with python tests/opinfo/mindspore_record.py --mindspore-python <path>")


def _promotion(key):
    result = RECORD["results"][key]
    return None if "error" in result else mc.ms_dtype(result["dtypes"][0])


def test_the_promotion_table_is_mindspores():
    problems = []
    for a in dt.ALL_DTYPES:
        for b in dt.ALL_DTYPES:
            theirs = _promotion(f"promote|{a.name}|{b.name}")
            if theirs is not None and dt.promote_types(a, b) != theirs:
                problems.append(f"{a} + {b}: {dt.promote_types(a, b)}, MindSpore {theirs}")
        for scalar in (True, 2, 2.5):
            theirs = _promotion(f"scalar|{a.name}|{scalar!r}")
            if theirs is not None and dt.promote_with_scalar(a, scalar) != theirs:
                problems.append(f"{a} + {scalar!r}: {dt.promote_with_scalar(a, scalar)}, "
                                f"MindSpore {theirs}")
    assert not problems, "\n".join(problems)
