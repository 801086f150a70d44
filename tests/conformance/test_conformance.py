"""tensorjit against MindSpore 2.10 on the conformance programs (``programs/``): eager and
every capture mode x level, compared with MindSpore's recorded results (``harness.py`` says
what is compared; ``record.py`` refreshes the record). With ``$TENSORJIT_MINDSPORE_PYTHON``
set, MindSpore runs the programs now, in a subprocess, and that is the reference.

A program listed in ``known_differences.py`` must still differ (else: remove it there and
from docs/mindspore-differences.md), and where the list says tensorjit gives MindSpore's
PyNative answer, it must equal MindSpore's recorded PyNative results in every mode; every
other program must agree with MindSpore's graph mode in every mode."""
import functools
import os

import pytest

from . import harness, record
from .harness import spec      # the one copy of spec (its T class) the harness uses
from . import known_differences
from .known_differences import DIFFERENCES

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, known_differences.DOCS)
README = os.path.join(ROOT, "README.md")


def _programs():
    _, names = harness.framework()
    return [(path, entry["name"]) for path in spec.program_files()
            for entry in spec.load(path, names)]


PROGRAMS = _programs()


@functools.lru_cache(maxsize=None)
def mindspore_results():
    python = os.environ.get("TENSORJIT_MINDSPORE_PYTHON")
    if python:
        return record.run_mindspore(python, spec.program_files())["results"]
    return record.load_record()["results"]


@pytest.mark.parametrize("path,name", PROGRAMS, ids=[n for _, n in PROGRAMS])
def test_program(path, name):
    results = harness.run_file(path)[name]
    problems = harness.consistency_problems(name, results, path)
    assert not problems, f"{name}:\n" + "\n".join(problems)
    theirs = mindspore_results().get(name)
    if theirs is None or theirs.get("input") != spec.digest(results["_entry"]):
        pytest.skip(f"no MindSpore result recorded for this version of {name}: run "
                    f"python tests/conformance/record.py --mindspore-python <python> "
                    f"{os.path.relpath(path)}")
    found = harness.mindspore_problems(name, results, theirs)
    if name in DIFFERENCES:
        assert found, (f"{name} now agrees with MindSpore: remove it from "
                       f"known_differences.py and docs/mindspore-differences.md")
        reference = DIFFERENCES[name][0]
        if reference is not None:        # the listed reason says we give PyNative's answer
            unlike = harness.mindspore_problems(name, results, theirs, reference)
            lines = [f"{config}: {d}" for config, ds in unlike.items() for d in ds]
            assert not lines, f"{name} differs from MindSpore's {reference} mode too:\n" + \
                "\n".join(lines)
        return
    lines = [f"{config}: {d}" for config, ds in found.items() for d in ds]
    assert not lines, f"{name} differs from MindSpore 2.10:\n" + "\n".join(lines)


def test_enough_programs_and_every_listed_difference_documented():
    assert len(PROGRAMS) >= 300, f"{len(PROGRAMS)} programs"
    names = {n for _, n in PROGRAMS}
    for name, (reference, reason) in DIFFERENCES.items():
        assert name in names, f"known_differences.py lists {name}, which is no program"
        assert reason.strip() and reference in (None, "pynative"), name
    with open(DOCS, encoding="utf-8") as f:
        docs = f.read()
    assert known_differences.markdown() in docs, (
        "docs/mindspore-differences.md does not list known_differences.py as it is: run "
        "python tests/conformance/known_differences.py")


def test_readme_states_the_conformance_figure():
    with open(README, encoding="utf-8") as f:
        readme = f.read()
    figure = (f"{len(PROGRAMS)} programs", f"{len(harness.CONFIGS)} capture mode x level "
              f"configurations", f"{len(DIFFERENCES)} differences",
              f"{sum(r is not None for r, _ in DIFFERENCES.values())} of them")
    for words in figure:
        assert words in readme, f"README.md should say '{words}' (the conformance figure)"
