"""``tensorjit.common.dtype`` (``mindspore.common.dtype``, imported as ``mstype``): the
dtypes, which are NumPy dtypes, and the conversions MindSpore offers between them."""
import numpy as np

from ..dtype import (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
                     float32, float64, bfloat16, half, single, double, as_dtype)

float_, int_, uint = float32, int64, uint64

_PY_TYPES = {bool: bool_, int: int64, float: float32}


def dtype_to_nptype(type_):
    """The NumPy scalar type of a dtype."""
    return as_dtype(type_).type


def pytype_to_dtype(obj):
    """The dtype of a Python type (bool, int, float) or of a NumPy dtype."""
    if obj in _PY_TYPES:
        return _PY_TYPES[obj]
    return as_dtype(obj)


def dtype_to_pytype(type_):
    kind = as_dtype(type_).kind
    return {"b": bool, "i": int, "u": int, "f": float}[kind]


__all__ = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float16", "float32", "float64", "bfloat16", "half", "single", "double", "float_",
           "int_", "uint", "dtype_to_nptype", "pytype_to_dtype", "dtype_to_pytype"]
