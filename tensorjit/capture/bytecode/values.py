"""The values the bytecode interpreter works with, and their frozen form.

On the interpreter's stack and in its locals a value is one of
  * a Tracer -- a tensor of the graph segment being captured;
  * a ``Dynamic`` -- a Python value that only exists at run time (the result of a call
    that runs as real Python, e.g. ``x.asnumpy()``); its capture-time value is known;
  * anything else -- a constant for this compiled version (guarded where it came from
    outside the function).

At a graph break the interpreter's frames are *frozen* into templates, where every
run-time value is a ``TSlot`` (an index into the run-time environment) and containers made
during the capture are rebuilt on each call. *Thawing* a template with the environment of a
real call gives back live frames to continue capturing (or interpreting) from.
"""
import types
import weakref

import numpy as np

from ...tensor import Tensor


class _Null:
    """CPython's NULL stack entry (before a callable that takes no ``self``)."""

    def __repr__(self):
        return "NULL"


NULL = _Null()


class Dynamic:
    """A Python value known only at run time, kept in environment slot ``slot``."""
    __slots__ = ("slot", "value")

    def __init__(self, slot, value):
        self.slot, self.value = slot, value

    def __repr__(self):
        return f"Dynamic(slot {self.slot}: {type(self.value).__name__})"


class SeqIter:
    """An iterator over a materialised sequence, so a frame can be frozen mid-loop."""
    __slots__ = ("items", "index")

    def __init__(self, items, index=0):
        self.items, self.index = list(items), index

    def next(self):
        if self.index >= len(self.items):
            raise StopIteration
        item = self.items[self.index]
        self.index += 1
        return item

    __next__ = next

    def __iter__(self):
        return self


# ---- templates ---------------------------------------------------------------------------
class TSlot:
    __slots__ = ("slot",)

    def __init__(self, slot):
        self.slot = slot


class TConst:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class TSeq:
    """A list, tuple or set made during the capture (rebuilt on every call)."""
    __slots__ = ("kind", "items")

    def __init__(self, kind, items):
        self.kind, self.items = kind, items


class TDict:
    __slots__ = ("items",)

    def __init__(self, items):
        self.items = items


class TNode:
    """A pytree node holding run-time values (a sparse tensor: ``pytree._tj_flatten``),
    rebuilt from its parts on every call."""
    __slots__ = ("kind", "aux", "items")

    def __init__(self, kind, aux, items):
        self.kind, self.aux, self.items = kind, aux, items


class TIter:
    __slots__ = ("items", "index")

    def __init__(self, items, index):
        self.items, self.index = items, index


class TWeak:
    """An object the compiled entry must not keep alive (a Cell the cache key names: its
    death discards the entry)."""
    __slots__ = ("ref",)

    def __init__(self, value):
        self.ref = weakref.ref(value)


class TCell:
    __slots__ = ("contents", "empty")

    def __init__(self, contents, empty):
        self.contents, self.empty = contents, empty


def is_tracer(value):
    return isinstance(value, Tensor) and value._var is not None


def contains_runtime_values(value, depth=0):
    """Whether a (nested) container holds tracers or Dynamic values."""
    if isinstance(value, Dynamic) or is_tracer(value):
        return True
    if depth > 8:
        return False
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(contains_runtime_values(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(contains_runtime_values(v, depth + 1) for v in value.values())
    if hasattr(type(value), "_tj_flatten"):
        return any(contains_runtime_values(v, depth + 1) for v in value._tj_flatten()[0])
    return False


def freeze(value, export, owned, memo, weak_ids=frozenset()):
    """Template of ``value``; ``export(tracer) -> slot`` names tracers' run-time slots;
    objects in ``weak_ids`` are held weakly."""
    key = id(value)
    if key in memo:
        return memo[key]
    if key in weak_ids:
        result = TWeak(value)
    elif isinstance(value, Dynamic):
        result = TSlot(value.slot)
    elif is_tracer(value):
        result = TSlot(export(value))
    elif isinstance(value, SeqIter):
        result = TIter([freeze(v, export, owned, memo, weak_ids) for v in value.items],
                       value.index)
    elif isinstance(value, (list, set)) and (id(value) in owned or contains_runtime_values(value)):
        result = TSeq(type(value), [freeze(v, export, owned, memo, weak_ids) for v in value])
    elif isinstance(value, tuple) and contains_runtime_values(value):
        result = TSeq(tuple, [freeze(v, export, owned, memo, weak_ids) for v in value])
    elif isinstance(value, dict) and (id(value) in owned or contains_runtime_values(value)):
        result = TDict([(k, freeze(v, export, owned, memo, weak_ids))
                        for k, v in value.items()])
    elif hasattr(type(value), "_tj_flatten") and contains_runtime_values(value):
        parts, aux = value._tj_flatten()
        result = TNode(type(value), aux, [freeze(v, export, owned, memo, weak_ids)
                                          for v in parts])
    elif isinstance(value, types.CellType) and id(value) in owned:
        try:
            contents, empty = freeze(value.cell_contents, export, owned, memo, weak_ids), False
        except ValueError:
            contents, empty = None, True
        result = TCell(contents, empty)
    else:
        result = TConst(value)
    memo[key] = result
    return result


def thaw(template, resolve, owned, memo):
    """Live value of a template; ``resolve(slot)`` gives a run-time slot's value."""
    key = id(template)
    if key in memo:
        return memo[key]
    kind = type(template)
    if kind is TConst:
        return template.value
    if kind is TWeak:
        value = template.ref()
        if value is None:
            raise RuntimeError("internal error: a compiled program outlived an object it "
                               "was built for")
        return value
    if kind is TSlot:
        result = resolve(template.slot)
    elif kind is TSeq:
        if template.kind is tuple:
            result = tuple(thaw(t, resolve, owned, memo) for t in template.items)
        else:
            result = template.kind()
            memo[key] = result
            items = [thaw(t, resolve, owned, memo) for t in template.items]
            if template.kind is list:
                result.extend(items)
            else:
                result.update(items)
            owned.add(id(result))
    elif kind is TDict:
        result = {}
        memo[key] = result
        for k, t in template.items:
            result[k] = thaw(t, resolve, owned, memo)
        owned.add(id(result))
    elif kind is TNode:
        result = template.kind._tj_unflatten(
            template.aux, tuple(thaw(t, resolve, owned, memo) for t in template.items))
    elif kind is TIter:
        result = SeqIter([thaw(t, resolve, owned, memo) for t in template.items], template.index)
    elif kind is TCell:
        result = types.CellType() if template.empty else types.CellType(
            thaw(template.contents, resolve, owned, memo))
        owned.add(id(result))
    else:
        raise TypeError(f"not a template: {template!r}")
    memo[key] = result
    return result


def build(template, env):
    """The real value of a template at run time (results returned to the caller)."""
    def resolve(slot):
        return env[slot]
    return thaw(template, resolve, set(), {})


def is_number(value):
    return isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating)) and not \
        isinstance(value, complex)
