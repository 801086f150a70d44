"""The MindSpore 2.10 public names (``ops``, ``nn``, ``numpy``, ``mint``...) tensorjit claims
(tests/mindspore_ref/mindspore_api.json, written by ``python -m
tensorjit.tools.mindspore_api``): each exists and is what MindSpore's is (a
class, a function or another object); the claims are complete; the README states the coverage."""
import json
import os

import pytest

from tensorjit.tools import mindspore_api

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(mindspore_api.DATA, encoding="utf-8") as f:
    RECORD = json.load(f)
CLAIMED = [(ns, name) for ns in mindspore_api.NAMESPACES for name in RECORD["claimed"][ns]]


def test_the_lists_come_from_mindspore_2_10():
    assert RECORD["version"].startswith("2.10")
    assert len(RECORD["mindspore"]["ops"]) > 1000 and len(RECORD["mindspore"]["nn"]) > 200
    for ns in mindspore_api.NAMESPACES:
        assert set(RECORD["claimed"][ns]) <= set(RECORD["mindspore"][ns])


@pytest.mark.parametrize("ns,name", CLAIMED, ids=[f"{ns}.{n}" for ns, n in CLAIMED])
def test_claimed_name_exists_and_is_what_mindspore_has(ns, name):
    obj = getattr(mindspore_api.module_of(ns), name)
    assert mindspore_api.kind_of(obj) == RECORD["mindspore"][ns][name]


def test_every_name_tensorjit_offers_is_claimed():
    """A MindSpore name added to tensorjit must be added to the list (rerun the tool)."""
    fresh = mindspore_api.claims(RECORD["mindspore"])
    for ns in mindspore_api.NAMESPACES:
        assert fresh[ns] == RECORD["claimed"][ns], (
            f"{ns}: offered but not claimed {sorted(set(fresh[ns]) - set(RECORD['claimed'][ns]))}"
            f"; claimed but gone {sorted(set(RECORD['claimed'][ns]) - set(fresh[ns]))}; run "
            f"python -m tensorjit.tools.mindspore_api --mindspore-python <MindSpore's python>")


def test_the_readme_states_the_coverage():
    claimed, total = mindspore_api.coverage(RECORD)
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    assert f"{claimed} / {total}" in readme
    for ns in mindspore_api.NAMESPACES:
        total = len(mindspore_api.counted(RECORD["mindspore"][ns]))
        assert f"{ns}: {len(RECORD['claimed'][ns])} / {total}" in readme


def test_every_missing_name_has_a_reason():
    """Done means: the names not offered are listed, each with why (mindspore_gaps.py)."""
    from tensorjit.tools.mindspore_gaps import reasons
    for ns in mindspore_api.NAMESPACES:
        without = [n for n in mindspore_api.missing(RECORD, ns) if n not in reasons(ns)]
        assert not without, f"{ns}: missing without a reason in mindspore_gaps.py: {without}"
        stale = sorted(set(reasons(ns)) & set(RECORD["claimed"][ns]))
        assert not stale, f"{ns}: offered now, remove from mindspore_gaps.py: {stale}"
