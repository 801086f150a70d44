"""tensorjit.numpy against MindSpore 2.10's own mindspore.numpy results, recorded by
record_mindspore.py into mindspore_numpy_2_10.json: dtypes, shapes, values, error types."""
import json
import math
import os

import numpy as np
import pytest

import tensorjit.numpy as mnp

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "mindspore_numpy_2_10.json")) as _f:
    RECORD = json.load(_f)
CALLS = RECORD["calls"]

# values differing only by float rounding inside MindSpore's kernels
TOLERANCE = 1e-5


def _check(mine, record, where):
    if "error" in record:
        raise AssertionError(f"{where}: MindSpore raised {record['error']}, here: {mine!r}")
    if "sequence" in record:
        assert isinstance(mine, (tuple, list)) and len(mine) == len(record["sequence"]), where
        for i, (m, r) in enumerate(zip(mine, record["sequence"])):
            _check(m, r, f"{where}[{i}]")
        return
    if "dtype_object" in record:
        assert mine == np.dtype(record["dtype_object"].lower().replace("bool", "bool_")), where
        return
    if "python" in record:
        assert mine == record["python"], f"{where}: {mine!r} != {record['python']!r}"
        return
    array = mine.asnumpy()
    assert str(array.dtype) == record["dtype"], f"{where}: dtype {array.dtype} != {record['dtype']}"
    assert list(array.shape) == record["shape"], f"{where}: shape {array.shape}"
    expected = np.array(record["values"], dtype=np.float64 if array.dtype.kind == "f"
                        else array.dtype)
    if array.dtype.kind == "f":
        expected = np.where(np.equal(expected, None), np.nan, expected) if expected.dtype == object \
            else expected
        np.testing.assert_allclose(array.astype(np.float64), expected.astype(np.float64),
                                   rtol=TOLERANCE, atol=TOLERANCE, equal_nan=True, err_msg=where)
    else:
        np.testing.assert_array_equal(array, expected, err_msg=where)


def test_the_record_is_mindspore_2_10():
    assert RECORD["mindspore"].startswith("2.10") and len(CALLS) >= 30


@pytest.mark.parametrize("expr", sorted(CALLS))
def test_matches_mindspore(expr):
    record = CALLS[expr]
    namespace = {"m": mnp, "np": np, "math": math}
    if "error" in record:
        error = {"ValueError": ValueError, "TypeError": TypeError, "IndexError": IndexError,
                 "NotImplementedError": NotImplementedError}[record["error"]]
        with pytest.raises(error):
            eval(expr, namespace)  # noqa: S307
        return
    _check(eval(expr, namespace), record, expr)  # noqa: S307
