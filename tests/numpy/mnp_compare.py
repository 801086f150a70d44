"""Comparing a tensorjit.numpy result with NumPy's: values, shapes, dtypes, nested in
tuples and lists."""
import numpy as np

from tensorjit import Tensor

MAPPED = {np.dtype(np.float64): np.dtype(np.float32), np.dtype(np.int64): np.dtype(np.int32)}


def expected_dtype(value):
    """NumPy's dtype with float64 -> float32 and int64 -> int32 (mindspore.numpy's defaults
    for Python data)."""
    dtype = np.asarray(value).dtype
    return MAPPED.get(dtype, dtype)


def assert_matches(mine, reference, dtype=None, tol=1e-5, where="result"):
    if isinstance(reference, (tuple, list)) and not _is_data_list(reference):
        assert isinstance(mine, (tuple, list)), f"{where}: expected a sequence, got {mine!r}"
        assert len(mine) == len(reference), f"{where}: {len(mine)} results, expected " \
                                            f"{len(reference)}"
        dtypes = dtype if isinstance(dtype, (list, tuple)) else [dtype] * len(reference)
        for i, (m, r, d) in enumerate(zip(mine, reference, dtypes)):
            assert_matches(m, r, d, tol, f"{where}[{i}]")
        return
    if isinstance(reference, np.dtype) or isinstance(mine, np.dtype):
        assert np.dtype(mine) == np.dtype(reference), f"{where}: {mine} != {reference}"
        return
    if isinstance(reference, str):
        assert mine == reference, f"{where}: {mine!r} != {reference!r}"
        return
    if isinstance(reference, (bool, np.bool_)) and not isinstance(mine, Tensor):
        assert mine == reference, f"{where}: {mine!r} != {reference!r}"
        return
    if isinstance(reference, int) and not isinstance(mine, Tensor):
        assert mine == reference and isinstance(mine, int), f"{where}: {mine!r} != {reference!r}"
        return
    assert isinstance(mine, Tensor), f"{where}: expected a Tensor, got {type(mine).__name__}"
    got = mine.asnumpy()
    ref = np.asarray(reference)
    want = np.dtype(dtype) if dtype is not None else expected_dtype(reference)
    assert got.dtype == want, f"{where}: dtype {got.dtype}, expected {want}"
    assert got.shape == ref.shape, f"{where}: shape {got.shape}, expected {ref.shape}"
    if ref.dtype.kind in "biu" and got.dtype.kind in "biu":
        np.testing.assert_array_equal(got, ref, err_msg=where)
    else:
        np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=tol,
                                   atol=tol, equal_nan=True, err_msg=where)


def _is_data_list(value):
    """A plain list of numbers (data), as opposed to a list of results."""
    return all(type(v) in (int, float, bool) for v in value)
