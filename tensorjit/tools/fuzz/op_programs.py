"""Programs of one op call, for checking an op's edge inputs in every configuration.

The op table (tests/opinfo) holds, for every op, samples of its inputs -- NaN, +-inf, +-0,
subnormals, integer limits, empty and 0-d shapes. ``op_program`` writes one as a program

    def prog(x0, x1):
        return ops.floor_mod(x0, x1)

whose tensors are the arguments and whose other arguments (axes, shapes, Python numbers,
dtypes, slices) are literals, so ``check_program`` compares eager with each capture mode x
level x backend on exactly those inputs. A second input set holds the same values in
another order (so value guards and tensor conditions see other data).
"""
import math

import numpy as np

from tensorjit import dtype as dt

from .programs import Program, HEADER, DTYPE_NAMES


class _Writer:
    """Source text for an argument, collecting its ndarrays as program parameters."""

    def __init__(self):
        self.arrays = []

    def __call__(self, value):
        if isinstance(value, np.ndarray):
            self.arrays.append(value)
            return f"x{len(self.arrays) - 1}"
        if isinstance(value, (list, tuple)):
            items = [self(v) for v in value]
            if isinstance(value, list):
                return "[" + ", ".join(items) + "]"
            return "(" + "".join(i + ", " for i in items) + ")"
        if isinstance(value, slice):
            return f"slice({self(value.start)}, {self(value.stop)}, {self(value.step)})"
        if value is Ellipsis:
            return "..."
        if isinstance(value, np.dtype):
            if value not in DTYPE_NAMES and value not in dt.ALL_DTYPES:
                raise ValueError(f"no literal for dtype {value}")
            return DTYPE_NAMES.get(value, f"ms.{value.name}")
        if isinstance(value, float) and not math.isfinite(value):
            return f"float({str(value)!r})"
        if isinstance(value, (bool, int, float, str, type(None))):
            return repr(value)
        if isinstance(value, np.generic):
            return self(value.item())
        raise ValueError(f"no literal for {type(value).__name__}")


def op_source(op_name, args, kwargs):
    """(program source, its array parameters) for ``ops.<op_name>(*args, **kwargs)``."""
    writer = _Writer()
    parts = [writer(a) for a in args] + [f"{k}={writer(v)}" for k, v in kwargs.items()]
    params = ", ".join(f"x{i}" for i in range(len(writer.arrays)))
    source = (HEADER + f"def prog({params}):\n"
              f"    return ops.{op_name}({', '.join(parts)})\n")
    return source, writer.arrays


def shuffled(arrays, seed=0):
    """The same values in another order (each array permuted on its own)."""
    rng = np.random.default_rng(seed)
    out = []
    for a in arrays:
        flat = a.reshape(-1).copy()
        out.append(rng.permutation(flat).reshape(a.shape) if flat.size > 1 else a.copy())
    return out


def op_program(op_name, args, kwargs=None):
    """A ``Program`` calling ``ops.<op_name>`` on ``args`` / ``kwargs``, with two input sets
    (the arrays given, and the same values shuffled); None when an argument has no literal
    form or the op has no array argument."""
    try:
        source, arrays = op_source(op_name, args, kwargs or {})
    except ValueError:
        return None
    if not arrays:
        return None
    return Program(source, [arrays, shuffled(arrays)], kind="op")
