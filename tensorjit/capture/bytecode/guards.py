"""Guards: the Python facts a captured segment relied on, checked before it runs again.

A failed guard never gives a stale result: the segment is captured again for the new
facts (and kept beside the old version)."""
import builtins
import types
import weakref

import numpy as np

from ...tensor import Tensor

_IMMUTABLE = (bool, int, float, complex, str, bytes, type(None), np.dtype, np.generic)
_MISSING = object()
_METHODS = (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)


def same_value(observed, expected):
    """Equal for immutable scalars, tuples of them and bound methods (a new object on
    every attribute read), identical for everything else."""
    if observed is expected:
        return True
    if isinstance(expected, _METHODS):
        return type(observed) is type(expected) and observed == expected
    if isinstance(expected, _IMMUTABLE) or (isinstance(expected, tuple) and all(
            isinstance(e, _IMMUTABLE) for e in expected)):
        return type(observed) is type(expected) and observed == expected
    return False


class Guard:
    __slots__ = ("description",)

    def check(self, env):
        raise NotImplementedError


class GlobalGuard(Guard):
    __slots__ = ("namespace", "name", "expected")

    def __init__(self, namespace, name, expected):
        self.namespace, self.name, self.expected = namespace, name, expected
        self.description = f"global {name!r} is {_short(expected)}"

    def check(self, env):
        value = self.namespace.get(self.name, _MISSING)
        if value is _MISSING:
            value = getattr(builtins, self.name, _MISSING)
        return same_value(value, self.expected)


class AttrGuard(Guard):
    __slots__ = ("obj", "name", "expected", "weak")

    def __init__(self, obj, name, expected, label, weak=False):
        # ``weak``: the object owns the compiled entry (see values.TWeak)
        self.obj, self.weak = (weakref.ref(obj) if weak else obj), weak
        self.name, self.expected = name, expected
        self.description = f"{label}.{name} is {_short(expected)}"

    def check(self, env):
        obj = self.obj() if self.weak else self.obj
        return same_value(getattr(obj, self.name, _MISSING), self.expected)


class CellGuard(Guard):
    __slots__ = ("cell", "expected", "weak")

    def __init__(self, cell, name, expected, weak=False):
        # ``weak``: the value owns the compiled entry (see values.TWeak)
        self.cell, self.weak = cell, weak
        self.expected = weakref.ref(expected) if weak else expected
        self.description = f"closure variable {name!r} is {_short(expected)}"

    def check(self, env):
        try:
            value = self.cell.cell_contents
        except ValueError:
            return False
        return value is self.expected() if self.weak else same_value(value, self.expected)


class SlotGuard(Guard):
    """A run-time value (from a Python call) keeps the type -- and for arrays the shape
    and dtype -- the graph was built for; ``exact`` also pins its value."""
    __slots__ = ("slot", "kind", "shape", "dtype", "value", "exact")

    def __init__(self, slot, value, exact=False, why=""):
        self.slot, self.kind, self.exact = slot, type(value), exact
        self.shape = getattr(value, "shape", None) if not isinstance(value, (int, float)) else None
        self.dtype = getattr(value, "dtype", None)
        self.value = value
        what = f"equals {_short(value)}" if exact else f"is a {self.kind.__name__}" + (
            f" {self.dtype}{list(self.shape)}" if self.shape is not None else "")
        self.description = f"run-time value{' (' + why + ')' if why else ''} {what}"

    def check(self, env):
        value = env[self.slot]
        if type(value) is not self.kind:
            return False
        if self.shape is not None and (tuple(value.shape) != tuple(self.shape)
                                       or value.dtype != self.dtype):
            return False
        return same_value(value, self.value) if self.exact else True


def _short(value):
    if isinstance(value, Tensor):
        return f"a Tensor {value.dtype}{list(value.shape)}"
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."
