"""Every case of mnp_cases.py (except the eager-only, data-sized functions) compiled by
``tensorjit.jit`` in each capture mode and level, as one full graph, with the case's data
(A, V, P, ...) passed as tensor arguments: two calls with different values must both
match eager execution (no value baked into the graph, no graph break)."""
import importlib.util

import numpy as np
import pytest

import tensorjit as ms
import tensorjit.numpy as mnp
from tensorjit import Tensor
import mnp_cases

# their result's size depends on the data, or they return Python values / dtypes
EAGER_ONLY = {"unique", "intersect1d", "setdiff1d", "argwhere", "histogram", "histogram2d",
              "histogramdd", "histogram_bin_edges", "bincount", "array_str", "size", "isscalar",
              "promote_types", "result_type"}
ARGS = ("A", "V", "P", "U", "I", "J", "NAN", "NAN2")


def _cases():
    return [(i, c) for i, c in enumerate(mnp_cases.CASES)
            if c.name not in EAGER_ONLY and "V + P" not in c.expr]


@pytest.fixture(scope="module")
def case_functions(tmp_path_factory):
    """One module-level function per case (capture_mode='ast' reads their source)."""
    lines = ["import math", "import numpy as np", "import tensorjit.numpy as m", ""]
    for i, case in _cases():
        lines += [f"def case_{i}({', '.join(ARGS)}):", f"    return {case.expr}", ""]
    path = tmp_path_factory.mktemp("mnp_jit") / "mnp_jit_cases.py"
    path.write_text("\n".join(lines))
    spec = importlib.util.spec_from_file_location("mnp_jit_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _inputs(shift):
    tensors = []
    for name in ARGS:
        a = np.array(getattr(mnp_cases, name))
        tensors.append(mnp.array((a + shift).astype(np.float32) if a.dtype.kind == "f"
                                 else a.astype(np.int32)))
    return tensors


def _leaves(value):
    if isinstance(value, (tuple, list)):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value.asnumpy()] if isinstance(value, Tensor) else [np.asarray(value)]


@pytest.mark.parametrize("mode,level", [("ast", "O0"), ("ast", "O1"), ("bytecode", "O0"),
                                        ("bytecode", "O1"), ("trace", "O0"), ("trace", "O1")])
def test_every_case_compiles_and_matches_eager(case_functions, mode, level):
    failures = []
    for i, case in _cases():
        fn = getattr(case_functions, f"case_{i}")
        compiled = ms.jit(fn, capture_mode=mode, jit_level=level, fullgraph=True)
        try:
            for shift in (0.0, 0.25):
                args = _inputs(shift)
                eager, got = _leaves(fn(*args)), _leaves(compiled(*args))
                same = len(got) == len(eager) and all(
                    g.dtype == e.dtype and g.shape == e.shape and np.allclose(
                        g.astype(float), e.astype(float), rtol=1e-4, atol=1e-5, equal_nan=True)
                    for g, e in zip(got, eager))
                if not same:
                    failures.append(f"{case.expr} (shift {shift}): differs from eager")
                    break
        except Exception as exc:          # collected: one report for the whole table
            failures.append(f"{case.expr}: {type(exc).__name__}: {exc}")
    assert not failures, f"{len(failures)} case(s) failed under jit:\n" + "\n".join(failures)
