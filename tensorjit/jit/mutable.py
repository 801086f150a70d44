"""``mutable``: pass a Python number to a jitted function as a run-time value.

Python numbers given to a jitted function are constants of the compiled graph (a new
value compiles again, as in MindSpore). ``mutable(2.0)`` makes it an input instead: a 0-d
tensor that still promotes like a Python number (a float32 tensor times it stays float32).
"""
import numpy as np

from ..tensor import Tensor

_NATURAL_DTYPE = {bool: np.dtype(np.bool_), int: np.dtype(np.int64), float: np.dtype(np.float64)}


class WeakScalar(Tensor):
    """A 0-d tensor standing for a Python number (weakly typed)."""
    __slots__ = ("_weak_type",)


def mutable(input_data, dynamic_len=False):
    """Mark ``input_data`` (a number, a Tensor, or a tuple/list/dict of them) as a value
    that may change between calls without recompiling."""
    if isinstance(input_data, Tensor):
        return input_data
    if isinstance(input_data, (bool, int, float, np.bool_, np.integer, np.floating)):
        kind = bool if isinstance(input_data, (bool, np.bool_)) else (
            int if isinstance(input_data, (int, np.integer)) else float)
        scalar = object.__new__(WeakScalar)
        scalar._data = np.asarray(input_data, _NATURAL_DTYPE[kind])
        scalar._var = None
        scalar._weak_type = kind
        return scalar
    if isinstance(input_data, (tuple, list)):
        return type(input_data)(mutable(v) for v in input_data)
    if isinstance(input_data, dict):
        return {k: mutable(v) for k, v in input_data.items()}
    raise TypeError(f"mutable: expected a number, a Tensor or a tuple/list/dict of them, "
                    f"got {type(input_data).__name__}")
