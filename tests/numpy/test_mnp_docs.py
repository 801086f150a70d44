"""Every public name of tensorjit.numpy has a docstring whose ``>>>`` example runs and
prints what it says."""
import doctest

import pytest

import tensorjit.numpy as mnp

DTYPES = {"bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "int_", "float_"}
FUNCTIONS = sorted(n for n in mnp.__all__ if n not in DTYPES)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_docstring_example_runs(name):
    obj = getattr(mnp, name)
    doc = obj.__doc__ or ""
    assert doc.strip(), f"{name} has no docstring"
    assert ">>>" in doc, f"{name}'s docstring has no example"
    finder = doctest.DocTestFinder(recurse=False)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(obj, name, globs={}):
        result = runner.run(test, out=lambda s: None)
        assert result.failed == 0, f"{name}: {result.failed} example(s) failed:\n" + "".join(
            _report(test))


def _report(test):
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    lines = []
    runner.run(test, out=lines.append)
    return lines


def test_module_docstring_lists_the_defaults():
    assert "int32" in mnp.__doc__ and "float32" in mnp.__doc__
