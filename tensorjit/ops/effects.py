"""Primitives with side effects, which exist only inside graphs:

    assign  write a value into a ref (a Parameter) when the graph runs
    print   print values at run time
    guard   check an assumption the capture relied on; failing it makes the caller
            pick (or compile) another version of the graph

They have no gradient and are never folded, merged or removed by passes.
"""
import numpy as np

from ..tensor import Tensor

from ..state import state
from .primitive import Primitive, NO_OUTPUT
from .batching import to_front


class GuardFailure(Exception):
    """A compiled graph's assumption does not hold for these inputs."""

    def __init__(self, guard_index, description):
        super().__init__(description)
        self.guard_index = guard_index
        self.description = description


def _no_eager(name):
    def impl(*args, **params):
        raise RuntimeError(f"{name} exists only inside compiled graphs")
    return impl


def _no_outputs_rule(*avals, **params):
    return ()


def _no_grad(ct, out, *args, **params):
    return (None,) * len(args)


# not shape-generic: a write-back must keep the parameter's shape, checked at capture
assign_p = Primitive("assign", _no_eager("assign"), _no_outputs_rule, _no_grad,
                     multiple_results=True, effect=True, shape_generic=False,
                     aliasing=NO_OUTPUT,
                     no_batch="a parameter has one value, not one per example")


def _print_impl(*values, segments, sep=" ", end="\n"):
    """``segments``: text pieces and None placeholders filled by ``values`` in order,
    joined by ``sep`` (ast capture's ``print`` passes ``sep=""`` with the separators and
    f-string text already in the segments)."""
    it = iter(values)
    parts = []
    for seg in segments:
        parts.append(_show(next(it)) if seg is None else seg)
    print(sep.join(parts), end=end)
    return ()


def _show(value):
    """A value as ``str(Tensor)`` shows it, so a graph prints what eager code prints (a
    0-d float16 is ``0.728``, not the Python float ``0.72802734375``)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return np.array2string(np.asarray(value), separator=" ")
    return str(value)


def _print_batch(prim, dims, *values, **params):
    """Under vmap, printing shows the values of the whole batch (batch axis first)."""
    prim.bind(*[v if d is None else to_front(v, d) for v, d in zip(values, dims)], **params)
    return (), ()


print_p = Primitive("print", _print_impl, _no_outputs_rule, _no_grad, multiple_results=True,
                    effect=True, shape_generic=True, aliasing=NO_OUTPUT, batch=_print_batch)


class GuardValue:
    """The value a guard expects, hashable so nodes holding it can be compared."""
    __slots__ = ("value", "_key")

    def __init__(self, value):
        self.value = np.array(value)
        self._key = (self.value.shape, self.value.dtype.str, self.value.tobytes())

    def matches(self, observed):
        observed = np.asarray(observed)
        if observed.shape != self.value.shape:
            return False
        return bool(np.array_equal(observed, self.value, equal_nan=self.value.dtype.kind == "f"))

    def __eq__(self, other):
        return isinstance(other, GuardValue) and self._key == other._key

    def __hash__(self):
        return hash(self._key)

    def __repr__(self):
        return repr(self.value.item()) if self.value.ndim == 0 else f"<array {self.value.shape}>"


def _guard_impl(value, expected, index, reason):
    if not expected.matches(value):
        raise GuardFailure(index, f"{reason}: expected {expected!r}")
    return ()


def _emit_guard(node, emitter):
    check = emitter.bind_global("guard", node.prim.impl)
    expected = emitter.bind_global("expected", node.params["expected"])
    return [f"{check}({emitter.value(node.inputs[0])}, {expected}, "
            f"{node.params['index']!r}, {node.params['reason']!r})"]


guard_p = Primitive("guard", _guard_impl, _no_outputs_rule, _no_grad, multiple_results=True,
                    effect=True, shape_generic=True, aliasing=NO_OUTPUT, emit=_emit_guard,
                    no_batch="Python read the value of a tensor that differs per example")


def runtime_print(*values):
    """``print`` that also runs inside compiled graphs (MindSpore's ops.print_)."""
    capture = state.capture
    segments, tensors = [], []
    for v in values:
        if isinstance(v, Tensor) and v._var is not None and capture is not None:
            segments.append(None)
            tensors.append(v)
        else:
            segments.append(str(v))
    if capture is None:
        print(" ".join(str(v) for v in values))
        return None
    print_p.bind(*tensors, segments=tuple(segments))
    return None
