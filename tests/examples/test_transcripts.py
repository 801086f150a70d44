"""MindSpore's tutorials in examples/ print under tensorjit what they print under MindSpore
2.10 (transcripts/, recorded by transcript.py): the same texts, the same kinds of
containers, and tensors of the same dtype, shape and values (to float32 rounding: MindSpore's
CPU ``exp`` is a few ulps off)."""
import json
import math
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import transcript  # noqa: E402


def differences(ours, theirs, where="output"):
    """Where ``ours`` (a described print argument) differs from MindSpore's ``theirs``."""
    if set(ours) != set(theirs):
        return [f"{where}: we print {ours}, MindSpore {theirs}"]
    kind = next(iter(ours))
    if kind in ("tuple", "list"):
        if len(ours[kind]) != len(theirs[kind]):
            return [f"{where}: {len(ours[kind])} items, MindSpore {len(theirs[kind])}"]
        return [d for i, (a, b) in enumerate(zip(ours[kind], theirs[kind]))
                for d in differences(a, b, f"{where}[{i}]")]
    if kind == "tensor":
        if (ours["tensor"], ours["shape"]) != (theirs["tensor"], theirs["shape"]):
            return [f"{where}: {ours['tensor']}{ours['shape']}, MindSpore "
                    f"{theirs['tensor']}{theirs['shape']}"]
        return [f"{where}: {a} vs MindSpore's {b}" for a, b in zip(ours["values"],
                                                                 theirs["values"])
                if not ((a is None and b is None) or (a is not None and b is not None and
                        math.isclose(a, b, rel_tol=2e-6, abs_tol=1e-6)))][:5]
    return [] if ours == theirs else [f"{where}: we print {ours}, MindSpore {theirs}"]


@pytest.mark.parametrize("name", transcript.TUTORIALS)
def test_tutorial_prints_what_mindspore_prints(name, tmp_path):
    with open(os.path.join(HERE, "transcripts", name[:-3] + ".json"), encoding="utf-8") as f:
        recorded = json.load(f)
    ours = transcript.run(name, sys.executable, "tensorjit", str(tmp_path / "ours.json"))
    assert len(ours) == len(recorded), f"{len(ours)} prints, MindSpore {len(recorded)}"
    problems = [d for i, (a, b) in enumerate(zip(ours, recorded))
                for j, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"print {i}, "
                                                                          f"argument {j}")]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", transcript.TUTORIALS)
def test_tutorial_imports_only_tensorjit(name):
    with open(os.path.join(transcript.ROOT, "examples", name), encoding="utf-8") as f:
        source = f.read()
    assert "mindspore" not in source.replace("MindSpore", "").split('"""', 2)[-1]
