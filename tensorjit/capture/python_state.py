"""Mutable Python state from outside a captured function: the lists, dicts, sets and plain
objects (their attributes) that the globals and closure variables it reads lead to.

A graph that read such state (``len(LOG)``, ``CFG.scale``, ``TABLE["n"]``) is right only
while the state is as it was: a ``ContentGuard`` compares a shallow snapshot, a few levels
deep (``CFG.table["n"]``), and the entry compiles again when it differs. A capture that
*changed* such state finds it by comparing its snapshots afterwards (``changed``): ast
then runs the statement as Python on every call, trace says it cannot repeat it.

What is state: mutable containers, and objects with a ``__dict__`` that are not modules,
classes, functions, tensors or Cells (a Cell's attributes are watched by the jit layer's
Cell state version). NumPy arrays from outside are constants of the graph and are not
compared (it would cost a full comparison per call): pass them as tensors.
"""
import collections
import types

import numpy as np

from ..nn.cell import Cell
from ..tensor import Tensor
from .guards import Guard, same_value, short

_CONTAINERS = (list, dict, set, collections.deque, bytearray)
_NOT_STATE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
              types.MethodType, types.CodeType, Tensor, Cell, np.ndarray, np.generic)
DEPTH = 3                 # how many levels of nested state a snapshot follows


def is_state(value):
    """Whether ``value`` is mutable Python state a graph could silently bake in."""
    if isinstance(value, _CONTAINERS):
        return True
    if isinstance(value, _NOT_STATE) or callable(getattr(value, "_tj_jit", None)):
        return False
    return isinstance(getattr(value, "__dict__", None), dict)


def _content(obj):
    """A shallow copy of what ``obj`` holds: a list of (key, value) or of values."""
    if isinstance(obj, dict):
        return list(obj.items())
    if isinstance(obj, set):
        return sorted(obj, key=repr)
    if isinstance(obj, (list, collections.deque)):
        return list(obj)
    if isinstance(obj, bytearray):
        return [bytes(obj)]
    return sorted(vars(obj).items())


def _same(a, b):
    if type(a) is tuple and len(a) == 2 and type(b) is tuple and len(b) == 2:
        return same_value(a[0], b[0]) and _same_item(a[1], b[1])
    return _same_item(a, b)


def _same_item(a, b):
    return a is b or same_value(a, b)


class Snapshot:
    """``obj``'s content when the snapshot was taken, and that of the state it holds."""
    __slots__ = ("obj", "content", "children")

    def __init__(self, obj, depth=DEPTH, seen=None):
        seen = set() if seen is None else seen
        seen.add(id(obj))
        self.obj = obj
        self.content = _content(obj)
        self.children = []
        if depth > 1:
            for item in self.content:
                value = item[1] if type(item) is tuple and len(item) == 2 else item
                if id(value) not in seen and is_state(value):
                    self.children.append(Snapshot(value, depth - 1, seen))

    def changed(self):
        content = _content(self.obj)
        if len(content) != len(self.content) or not all(
                map(_same, content, self.content)):
            return True
        return any(child.changed() for child in self.children)

    def restore(self):
        """Put the content back (undo what a capture did to Python state)."""
        for child in self.children:
            child.restore()
        obj, content = self.obj, self.content
        if isinstance(obj, dict):
            obj.clear()
            obj.update(content)
        elif isinstance(obj, (list, collections.deque, set)):
            obj.clear()
            (obj.update if isinstance(obj, set) else obj.extend)(content)
        elif isinstance(obj, bytearray):
            obj[:] = content[0]
        else:
            attributes = vars(obj)
            attributes.clear()
            attributes.update(content)


class ContentGuard(Guard):
    """The content of a piece of outside state is what a graph was built from."""
    __slots__ = ("snapshot",)

    def __init__(self, snapshot, label):
        self.snapshot = snapshot
        self.label = f"the contents of {label}"
        self.description = f"{self.label} ({short(snapshot.obj)}) are unchanged"

    def check(self, env=None):
        return not self.snapshot.changed()


class StateWatch:
    """The outside state one capture has seen, each with a snapshot taken when first seen
    (before the code that reads it runs): ``track`` it, ask what ``changed``, ``guards``
    for the graph."""

    def __init__(self):
        self.snapshots = {}              # id(obj) -> (Snapshot, label)

    def track(self, value, label):
        """Watch ``value`` if it is state; returns whether it is."""
        if not is_state(value):
            return False
        if id(value) not in self.snapshots:
            self.snapshots[id(value)] = (Snapshot(value), label)
        return True

    def rebase(self):
        """Take every snapshot again (state as it is now)."""
        for key, (snapshot, label) in list(self.snapshots.items()):
            self.snapshots[key] = (Snapshot(snapshot.obj), label)

    def changed(self, ids=None):
        """[(obj, label)] of the watched state that differs from its snapshot."""
        return [(s.obj, label) for key, (s, label) in self.snapshots.items()
                if (ids is None or key in ids) and s.changed()]

    def restore(self, objects):
        for obj in objects:
            self.snapshots[id(obj)][0].restore()

    def guards(self, ids=None):
        """{key: ContentGuard} for the watched state (all, or those in ``ids``)."""
        return {("contents", key): ContentGuard(s, label)
                for key, (s, label) in self.snapshots.items() if ids is None or key in ids}
