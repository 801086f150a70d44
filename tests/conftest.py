import os
import sys

# the built-in kernel choices, not this machine's measured ones: every test process (and
# every child it starts) then computes the same way, and none spends seconds measuring
# (tests/core/test_tuning.py turns measuring on where it is the subject)
os.environ.setdefault("TENSORJIT_TUNE", "0")

# shared helpers (programs.py) importable from every test directory
sys.path.insert(0, os.path.dirname(__file__))

# every child process the tests start (examples, launchers, workers) imports this checkout's
# tensorjit, not whichever one an editable install elsewhere points to
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ["PYTHONPATH"] = os.pathsep.join(
    [_ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="sample at the nightly depth (the op table, tests/opinfo)")


def pytest_sessionstart(session):
    # a convolution takes Winograd once its transforms have compiled in the background;
    # compiled up front, every test sees one kernel choice from its first call
    from tensorjit.ops import winograd
    for dtype in ("float32", "float64"):
        winograd.wait(dtype)
