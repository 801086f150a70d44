"""Guards: facts about Python state a compiled graph relied on, checked before it runs
again. One vocabulary for every capture mode (ast's Python guards, bytecode's segment
guards; trace's value guards are graph nodes, ``ops/effects.py``).

A failed guard never gives a stale result: the caller compiles again for the new facts.
Expected values compare by *value* when they are immutable (numbers, strings, dtypes,
tuples of them, bound methods -- a new object on every attribute read) and by *identity*
otherwise. ``weak=True`` holds the expected object by weak reference, so a compiled entry
does not keep alive the Cells and functions it was built from (it then compares by
identity, and a dead object matches nothing).
"""
import builtins
import types
import weakref

import numpy as np

from ..pytree import Identity, static_key
from ..tensor import Tensor

MISSING = object()
_IMMUTABLE = (bool, int, float, complex, str, bytes, type(None), np.dtype, np.generic)
_METHODS = (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)


def same_value(observed, expected):
    """Equal for immutable scalars, tuples of them and bound methods; identical for
    everything else."""
    if observed is expected:
        return True
    if isinstance(expected, _METHODS):
        return type(observed) is type(expected) and observed == expected
    if isinstance(expected, _IMMUTABLE):
        return type(observed) is type(expected) and observed == expected
    if isinstance(expected, tuple):
        return (type(observed) is type(expected) and len(observed) == len(expected)
                and all(same_value(o, e) for o, e in zip(observed, expected)))
    return False


def short(value):
    """A value as it reads in a guard's description."""
    if isinstance(value, Tensor):
        return f"a Tensor {value.dtype}{list(value.shape)}"
    if isinstance(value, _IMMUTABLE + (tuple,)):
        text = repr(value)
        return text if len(text) < 60 else text[:57] + "..."
    return f"<{type(value).__name__} object at {id(value):#x}>"


class Guard:
    """``check(env)`` is True while the fact holds (``env``: run-time values of a bytecode
    segment; other guards ignore it)."""
    __slots__ = ("description", "label")

    def check(self, env=None):
        raise NotImplementedError

    def failure(self):
        return f"{self.label} changed"


class _Expects(Guard):
    """A guard comparing one observed value with an expected one."""
    __slots__ = ("_expected", "_weak")

    def _expect(self, value, weak):
        self._weak = False
        if weak:
            try:
                value, self._weak = weakref.ref(value), True
            except TypeError:       # cannot be weakly referenced: hold it
                pass
        self._expected = value
        self.description = f"{self.label} is {short(value if not self._weak else value())}"

    @property
    def expected(self):
        return self._expected() if self._weak else self._expected

    def matches(self, observed):
        if self._weak:
            return observed is self._expected()
        return same_value(observed, self._expected)

    def failure(self):
        expected = self.expected
        was = short(expected) if expected is not None or not self._weak else "a dead object"
        return f"{self.label} changed (was {was})"


class GlobalGuard(_Expects):
    """A module global (or, if the module has none, the builtin) of that name."""
    __slots__ = ("namespace", "name")

    def __init__(self, namespace, name, expected, weak=False, label=None):
        self.namespace, self.name = namespace, name
        self.label = label or f"global {name!r}"
        self._expect(expected, weak)

    def check(self, env=None):
        value = self.namespace.get(self.name, MISSING)
        if value is MISSING:
            value = getattr(builtins, self.name, MISSING)
        return self.matches(value)


class CellGuard(_Expects):
    """A closure variable (an empty cell never matches)."""
    __slots__ = ("cell",)

    def __init__(self, cell, name, expected, weak=False, label=None):
        self.cell = cell
        self.label = label or f"closure variable {name!r}"
        self._expect(expected, weak)

    def check(self, env=None):
        try:
            value = self.cell.cell_contents
        except ValueError:
            return False
        return self.matches(value)


class AttrGuard(_Expects):
    """An attribute of an object. ``weak_owner``: the object owns the compiled entry, so
    the guard holds it weakly."""
    __slots__ = ("obj", "name", "weak_owner")

    def __init__(self, obj, name, expected, label, weak_owner=False):
        self.obj = weakref.ref(obj) if weak_owner else obj
        self.weak_owner = weak_owner
        self.name = name
        self.label = f"{label}.{name}"
        self._expect(expected, False)

    def check(self, env=None):
        obj = self.obj() if self.weak_owner else self.obj
        return self.matches(getattr(obj, self.name, MISSING))


class Never(Guard):
    """A fact that never holds again: the capture did something its graph cannot repeat
    (trace writing Python state), so each call captures again."""
    __slots__ = ()

    def __init__(self, reason):
        self.label = reason
        self.description = f"{reason}: captured again on every call"

    def check(self, env=None):
        return False

    def failure(self):
        return self.description


def guard_names(fn, global_names, guards):
    """Guard, in ``guards`` (a dict: one entry per global or closure cell), the globals
    among ``global_names`` that ``fn`` reads and its closure variables. Returns the values
    newly guarded. Modules bound to globals (``ops``, ``np``, ``math``) are not guarded:
    rebinding a module name is vanishingly rare (reload keeps the object) and guards cost
    the fast path."""
    added = []
    namespace = fn.__globals__
    for name in global_names:
        if name in namespace and not isinstance(namespace[name], types.ModuleType):
            key = ("global", id(namespace), name)
            if key not in guards:
                value = namespace[name]
                guards[key] = GlobalGuard(namespace, name, value, by_identity(value),
                                          f"global {name!r} of {fn.__module__}")
                added.append(value)
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        if name == "__class__":
            continue
        try:
            value = cell.cell_contents
        except ValueError:          # not assigned yet
            continue
        key = ("cell", id(cell))
        if key not in guards:
            guards[key] = CellGuard(cell, name, value, by_identity(value),
                                    f"closure variable {name!r} of {fn.__qualname__}")
            added.append(value)
    return added


def by_identity(value):
    """Objects compared by identity are held weakly, so a compiled entry does not keep
    alive the Cells and functions it was built from."""
    return isinstance(static_key(value), Identity)


def first_failure(guards, env=None):
    """The first guard that no longer holds, or None."""
    for guard in guards:
        if not guard.check(env):
            return guard
    return None
