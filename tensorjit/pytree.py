"""Nested Python containers of tensors: flatten to (tensor leaves, hashable structure)
and rebuild. The structure holds every non-tensor value, so it can be a cache key.

A class is a node of its own (sparse tensors) when it defines ``_tj_flatten(self) ->
(tensors, aux)`` and the classmethod ``_tj_unflatten(aux, tensors)``; ``aux`` (a shape)
must be hashable, as it is part of the structure."""
import weakref

import numpy as np

from .tensor import Tensor

TENSOR = ("T",)


class Identity:
    """Stands in a structure (a cache key) for an object compared by identity: one that
    cannot be hashed, or whose hash is its identity (a Cell, a function). Held by weak
    reference where the object allows it, so a cache key does not keep it alive."""
    __slots__ = ("_ref", "_strong", "_hash")

    def __init__(self, value):
        self._hash = id(value)
        try:
            self._ref, self._strong = weakref.ref(value), None
        except TypeError:
            self._ref, self._strong = None, value

    @property
    def value(self):
        return self._strong if self._ref is None else self._ref()

    @property
    def weak(self):
        return self._ref is not None

    def __eq__(self, other):
        if not isinstance(other, Identity) or other._hash != self._hash:
            return False
        if self._ref is None:
            return other._ref is None and self._strong is other._strong
        mine = self._ref()
        return mine is not None and mine is other.value      # a dead object equals nothing

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return f"<{type(self.value).__name__} object>"


def static_key(value):
    """``value`` itself where it hashes by value (or by identity but cannot be weakly
    referenced, like None); else an Identity standing for it."""
    kind = type(value)
    if kind.__hash__ is object.__hash__ and kind.__eq__ is object.__eq__:
        return Identity(value) if kind.__weakrefoffset__ else value
    try:
        hash(value)
    except TypeError:
        return Identity(value)
    return value


def identities(key):
    """The weakly held objects a (nested tuple) key depends on."""
    if isinstance(key, Identity):
        value = key.value
        return [value] if key.weak and value is not None else []
    if isinstance(key, tuple):
        return [obj for part in key for obj in identities(part)]
    return []


def flatten(value, leaves):
    """Append the tensors in ``value`` to ``leaves``; return the structure."""
    if isinstance(value, Tensor):
        leaves.append(value)
        return TENSOR
    if isinstance(value, np.ndarray):
        leaves.append(Tensor(value))
        return TENSOR
    kind = type(value)
    if kind is tuple or kind is list:
        return (kind.__name__, tuple(flatten(v, leaves) for v in value))
    if kind is dict:
        keys = tuple(value)
        return ("dict", keys, tuple(flatten(value[k], leaves) for k in keys))
    if isinstance(value, tuple) and hasattr(value, "_fields"):      # namedtuple
        return ("namedtuple", kind, tuple(flatten(v, leaves) for v in value))
    if hasattr(kind, "_tj_flatten"):     # a registered node (sparse tensors): its tensors
        children, aux = value._tj_flatten()
        return ("node", (kind, aux), tuple(flatten(v, leaves) for v in children))
    return ("static", static_key(value))


def unflatten(structure, leaves):
    it = iter(leaves)
    return _build(structure, it)


def _build(structure, it):
    if structure is TENSOR or structure == TENSOR:
        return next(it)
    tag = structure[0]
    if tag == "tuple":
        return tuple(_build(s, it) for s in structure[1])
    if tag == "list":
        return [_build(s, it) for s in structure[1]]
    if tag == "dict":
        return {k: _build(s, it) for k, s in zip(structure[1], structure[2])}
    if tag == "namedtuple":
        return structure[1](*(_build(s, it) for s in structure[2]))
    if tag == "node":
        kind, aux = structure[1]
        return kind._tj_unflatten(aux, tuple(_build(s, it) for s in structure[2]))
    value = structure[1]
    return value.value if isinstance(value, Identity) else value


def rebuild_call(struct, leaves):
    """(args, kwargs) from a call structure made by a jitted function's ``flatten_call``:
    ``(arg structures, keyword names, keyword structures)`` and the tensor leaves."""
    it = iter(leaves)
    args = tuple(_build(s, it) for s in struct[0])
    kwargs = {k: _build(s, it) for k, s in zip(struct[1], struct[2])}
    return args, kwargs


def count_tensors(structure):
    """How many tensor leaves a structure holds."""
    if structure == TENSOR:
        return 1
    tag = structure[0]
    if tag in ("tuple", "list"):
        return sum(count_tensors(s) for s in structure[1])
    if tag in ("dict", "namedtuple", "node"):
        return sum(count_tensors(s) for s in structure[2])
    return 0


def describe(structure):
    """Short human text of a structure, for errors and explain output."""
    if structure == TENSOR:
        return "Tensor"
    tag = structure[0]
    if tag in ("tuple", "list"):
        inner = ", ".join(describe(s) for s in structure[1])
        return f"({inner})" if tag == "tuple" else f"[{inner}]"
    if tag == "dict":
        return "{" + ", ".join(f"{k!r}: {describe(s)}" for k, s in zip(structure[1], structure[2])) + "}"
    if tag == "namedtuple":
        return structure[1].__name__ + "(...)"
    if tag == "node":
        return structure[1][0].__name__ + "(...)"
    return repr(structure[1])
