"""Running one call in tensorjit.mint and in PyTorch on the same NumPy inputs, and
comparing values, shapes and dtypes (PyTorch is the reference for a PyTorch-style API)."""
import numpy as np
import pytest
torch = pytest.importorskip("torch")  # the reference; CPythons without it skip

import tensorjit as ms

_TORCH_DTYPES = {torch.float16: np.float16, torch.float32: np.float32,
                 torch.float64: np.float64, torch.int8: np.int8, torch.int16: np.int16,
                 torch.int32: np.int32, torch.int64: np.int64, torch.uint8: np.uint8,
                 torch.bool: np.bool_}


def to_ms(value):
    if isinstance(value, np.ndarray):
        return ms.Tensor(value)
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], np.ndarray):
        return type(value)(ms.Tensor(v) for v in value)
    return value


def to_torch(value):
    if isinstance(value, np.ndarray):
        return torch.from_numpy(value.copy())
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], np.ndarray):
        return type(value)(torch.from_numpy(v.copy()) for v in value)
    return value


def flatten(result):
    """A result as a list of NumPy arrays (tuples and named tuples flattened)."""
    if isinstance(result, (tuple, list)):
        return [a for item in result for a in flatten(item)]
    if isinstance(result, torch.Tensor):
        return [result.detach().numpy().astype(_TORCH_DTYPES[result.dtype], copy=False)]
    if isinstance(result, ms.Tensor):
        return [np.asarray(result.asnumpy())]
    return [np.asarray(result)]


def compare(ours, theirs, rtol=1e-5, atol=1e-6, check_dtype=True, what=""):
    ours, theirs = flatten(ours), flatten(theirs)
    assert len(ours) == len(theirs), f"{what}: {len(ours)} results, torch {len(theirs)}"
    for k, (a, b) in enumerate(zip(ours, theirs)):
        assert a.shape == b.shape, f"{what}[{k}]: shape {a.shape}, torch {b.shape}"
        if check_dtype:
            assert a.dtype == b.dtype, f"{what}[{k}]: dtype {a.dtype}, torch {b.dtype}"
        if a.dtype.kind in "biu" and b.dtype.kind in "biu":
            np.testing.assert_array_equal(a, b, err_msg=what)
        else:
            np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=rtol,
                                       atol=atol, err_msg=what)


def check(ms_function, torch_function, *args, rtol=1e-5, atol=1e-6, check_dtype=True,
          what="", **kwargs):
    ours = ms_function(*[to_ms(a) for a in args],
                       **{k: to_ms(v) for k, v in kwargs.items()})
    theirs = torch_function(*[to_torch(a) for a in args],
                            **{k: to_torch(v) for k, v in kwargs.items()})
    compare(ours, theirs, rtol, atol, check_dtype, what)
    return ours
