"""Data types and MindSpore's type-promotion rules.

A tensorjit dtype *is* a NumPy ``np.dtype`` (bfloat16 comes from ``ml_dtypes``), so
``x.dtype == tensorjit.float32`` and ``x.dtype == np.float32`` both hold and no
translation table sits on the hot path.
"""
import numpy as np
import ml_dtypes

bool_ = np.dtype(np.bool_)
int8 = np.dtype(np.int8)
int16 = np.dtype(np.int16)
int32 = np.dtype(np.int32)
int64 = np.dtype(np.int64)
uint8 = np.dtype(np.uint8)
uint16 = np.dtype(np.uint16)
uint32 = np.dtype(np.uint32)
uint64 = np.dtype(np.uint64)
float16 = np.dtype(np.float16)
float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)
bfloat16 = np.dtype(ml_dtypes.bfloat16)

# MindSpore spellings
half, single, double = float16, float32, float64
int_, uint, float_ = int32, uint32, float32

ALL_DTYPES = (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
              float16, bfloat16, float32, float64)
FLOAT_DTYPES = (float16, bfloat16, float32, float64)
DEFAULT_FLOAT = float32
DEFAULT_INT = int64


def mindspore_name(dtype):
    """MindSpore's ``str(dtype)``: ``Float32``, ``UInt8``, ``BFloat16``, ``Bool``."""
    name = as_dtype(dtype).name
    if name.startswith("u"):
        return "UInt" + name[4:]
    return {"bool": "Bool", "bfloat16": "BFloat16"}.get(name, name[0].upper() + name[1:])


def as_dtype(dtype):
    """Normalise anything naming a dtype (np type, string, our dtype) to an np.dtype."""
    if isinstance(dtype, np.dtype):
        return dtype
    if dtype is None:
        raise TypeError("dtype must not be None")
    if dtype is float:
        return float32
    if dtype is int:
        return int64
    if dtype is bool:
        return bool_
    if isinstance(dtype, str):
        name = dtype.lower().replace("mindspore.", "")
        aliases = {"bool": "bool", "bool_": "bool", "bfloat16": "bfloat16", "half": "float16",
                   "float": "float32", "double": "float64", "int": "int32", "long": "int64"}
        name = aliases.get(name, name)
        if name == "bfloat16":
            return bfloat16
        try:
            result = np.dtype(name)
        except TypeError:
            raise TypeError(f"unknown dtype name {dtype!r} (supported: "
                            f"{', '.join(d.name for d in ALL_DTYPES)})") from None
    else:
        try:
            result = np.dtype(dtype)
        except TypeError:
            raise TypeError(f"cannot interpret {dtype!r} as a dtype") from None
    if result not in ALL_DTYPES:
        raise TypeError(f"dtype {result} is not supported by tensorjit "
                        f"(supported: {', '.join(d.name for d in ALL_DTYPES)})")
    return result


def _finfo(dtype):
    return ml_dtypes.finfo(dtype) if dtype == bfloat16 else np.finfo(dtype)


def smallest_subnormal(dtype):
    """The smallest positive value of a float dtype."""
    return _finfo(dtype).smallest_subnormal


def epsneg(dtype):
    """1 minus the largest value of a float dtype below 1."""
    return float(_finfo(dtype).epsneg)


def is_float(dtype):
    return dtype in FLOAT_DTYPES


def is_int(dtype):
    return dtype.kind in "iu"


def is_bool(dtype):
    return dtype == bool_


def _category(dtype):
    """0 bool, 1 integer, 2 floating point: the promotion lattice's coarse order."""
    if dtype == bool_:
        return 0
    if dtype.kind in "iu":
        return 1
    return 2


def promote_types(a, b):
    """Result dtype of a binary op on two tensors (MindSpore / PyTorch rules)."""
    if a == b:
        return a
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    if ca == 2:
        if {a, b} == {float16, bfloat16}:
            return float32
        return a if a.itemsize >= b.itemsize else b
    result = np.promote_types(a, b)
    return result if result.kind in "iu" else int64   # uint64 with int64


def scalar_dtype(value):
    """The dtype a Python scalar gets on its own (Tensor(3.0) is float32, Tensor(3) int64)."""
    if isinstance(value, (bool, np.bool_)):
        return bool_
    if isinstance(value, (int, np.integer)):
        return int64 if isinstance(value, int) else np.dtype(type(value))
    if isinstance(value, float):
        return float32
    if isinstance(value, np.floating):
        return np.dtype(type(value))
    if isinstance(value, complex):
        raise TypeError("complex numbers are not supported by tensorjit")
    raise TypeError(f"expected a number, got {type(value).__name__}")


def promote_with_scalar(dtype, value):
    """A Python scalar is 'weak': it never widens a tensor of its own category.

    float32 * 2.0 stays float32; int32 * 2.5 becomes float32 (the default float);
    bool tensor + 1 becomes int64.
    """
    if isinstance(value, (bool, np.bool_)):
        return dtype
    if isinstance(value, (int, np.integer)):
        return int64 if dtype == bool_ else dtype
    if isinstance(value, (float, np.floating)):
        return dtype if _category(dtype) == 2 else DEFAULT_FLOAT
    raise TypeError(f"expected a number, got {type(value).__name__}")
