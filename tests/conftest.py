import os
import sys

# shared helpers (programs.py) importable from every test directory
sys.path.insert(0, os.path.dirname(__file__))


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="sample at the nightly depth (the op table, tests/opinfo)")
