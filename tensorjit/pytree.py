"""Nested Python containers of tensors: flatten to (tensor leaves, hashable structure)
and rebuild. The structure holds every non-tensor value, so it can be a cache key."""
import numpy as np

from .tensor import Tensor

TENSOR = ("T",)


class Unhashable:
    """Stands in a structure for a value that cannot be hashed: compared by identity."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Unhashable) and other.value is self.value

    def __hash__(self):
        return id(self.value)

    def __repr__(self):
        return f"<{type(self.value).__name__} object>"


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
    try:
        hash(value)
    except TypeError:
        return ("static", Unhashable(value))
    return ("static", value)


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
    value = structure[1]
    return value.value if isinstance(value, Unhashable) else value


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
    return repr(structure[1])
