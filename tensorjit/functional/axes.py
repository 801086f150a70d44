"""``in_axes`` / ``out_axes`` of ``vmap``: an int or None for a whole (nested) value, or a
tuple / list / dict that follows the value's structure as a prefix (MindSpore's
signature, JAX's nesting). Here they are matched against flattened values and checked,
with MindSpore's error conditions."""
import numbers

import numpy as np

from ..tensor import Tensor


class VmapError(ValueError, RuntimeError):
    """A ``vmap`` argument does not fit the call. MindSpore raises RuntimeError where JAX
    raises ValueError: this is both."""


def check_spec(spec, what):
    """``spec`` must be built of ints, None, tuples, lists and dicts."""
    if spec is None or (isinstance(spec, numbers.Integral) and not isinstance(spec, bool)):
        return
    if isinstance(spec, (tuple, list)):
        for s in spec:
            check_spec(s, what)
        return
    if isinstance(spec, dict):
        for s in spec.values():
            check_spec(s, what)
        return
    raise VmapError(f"vmap: the axes in {what} can only be ints or None (nested in tuples, "
                    f"lists or dicts that follow the values), got {spec!r} of type "
                    f"{type(spec).__name__}")


def broadcast_spec(spec, value, what, path):
    """The axis for every leaf of ``value``, in pytree order: [(path, leaf, axis)]."""
    out = []
    _match(spec, value, what, path, out)
    return out


def _match(spec, value, what, path, out):
    if spec is None or isinstance(spec, numbers.Integral):
        _leaves(value, spec, what, path, out)
        return
    kind = type(value)
    if isinstance(spec, (tuple, list)) and kind in (tuple, list):
        if len(spec) != len(value):
            raise VmapError(f"vmap: {what} gives {len(spec)} axes for {path}, which has "
                            f"{len(value)} items")
        for i, (s, v) in enumerate(zip(spec, value)):
            _match(s, v, what, f"{path}[{i}]", out)
        return
    if isinstance(spec, dict) and kind is dict:
        if set(spec) != set(value):
            raise VmapError(f"vmap: {what} has keys {sorted(map(repr, spec))} for {path}, "
                            f"which has keys {sorted(map(repr, value))}")
        for key in value:
            _match(spec[key], value[key], what, f"{path}[{key!r}]", out)
        return
    raise VmapError(f"vmap: {what} gives {spec!r} for {path}, a {kind.__name__}; a tuple, "
                    f"list or dict of axes must follow a value of the same kind")


def _leaves(value, axis, what, path, out):
    kind = type(value)
    if isinstance(value, Tensor):
        out.append((path, value, axis))
    elif kind in (tuple, list):
        for i, v in enumerate(value):
            _leaves(v, axis, what, f"{path}[{i}]", out)
    elif kind is dict:
        for k, v in value.items():
            _leaves(v, axis, what, f"{path}[{k!r}]", out)
    elif isinstance(value, tuple) and hasattr(value, "_fields"):        # namedtuple
        for name, v in zip(value._fields, value):
            _leaves(v, axis, what, f"{path}.{name}", out)
    elif axis is not None and what == "in_axes":
        raise VmapError(f"vmap: in_axes maps {path} over axis {axis}, but it is a "
                        f"{type(value).__name__}, not a Tensor; give it the axis None")


def map_leaves(value, fn):
    """``value`` with every Tensor leaf replaced by ``fn(leaf)`` (same order as above)."""
    kind = type(value)
    if isinstance(value, Tensor):
        return fn(value)
    if kind in (tuple, list):
        return kind(map_leaves(v, fn) for v in value)
    if kind is dict:
        return {k: map_leaves(v, fn) for k, v in value.items()}
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return kind(*(map_leaves(v, fn) for v in value))
    if isinstance(value, np.ndarray):
        return fn(Tensor(value))
    return value


def normalize_axis(axis, ndim, what, path):
    """``axis`` in [-ndim, ndim), as a non-negative int."""
    if not -ndim <= axis < ndim:
        raise VmapError(f"vmap: the axis {axis} in {what} for {path} is out of bounds for a "
                        f"tensor of dimension {ndim} (valid: [{-ndim}, {ndim}))")
    return axis % ndim
