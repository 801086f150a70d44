"""Closed sub-graphs captured inside another capture: the branches of a ``cond``, the
condition and body of a ``while_loop``, and the backward graphs of their VJPs.

A ``SubCapture`` is installed as ``state.capture`` while a branch or loop body runs. It
builds a graph of its own; every value it uses from outside -- a tensor of an enclosing
graph, a Parameter, a constant -- becomes one of its inputs (constants are copied in), so
the graph is closed and the node using it receives those values as operands. In-place
updates of outside tensors (``x += 1`` on a tensor of the enclosing graph, a Parameter's
``assign_value``) are recorded instead of applied: the caller turns them into extra outputs
of the node and applies them to the enclosing capture afterwards.

While a sub-capture runs, autodiff tapes are suspended: the enclosing tape records the
control-flow node as a whole and differentiates it with the node's VJP rule.
"""
import contextlib

import numpy as np

from ..aval import ShapedArray
from ..ir.graph import Literal
from ..state import state
from .base import Capture, CaptureError


class SubCapture(Capture):
    concrete = False

    def __init__(self, parent, name):
        self.parent = parent
        super().__init__(name)
        self.explicit_inputs = []      # Vars made by input(), first in the graph's inputs
        self.captured = []             # (outer tensor object, outer value, inner Var)
        self._captured_by_key = {}
        self.outer_writes = {}         # id(tensor) -> (tensor, its _var before the write)
        self.ref_writes = {}           # id(external tensor) -> tensor
        self._keep = []                # objects whose ids key _captured_by_key

    # ---- what is forwarded to the enclosing capture -----------------------------------
    @property
    def shape_dependent(self):
        return getattr(self.parent, "shape_dependent", False)

    @shape_dependent.setter
    def shape_dependent(self, value):
        if value and self.parent is not None:
            self.parent.shape_dependent = True

    def note_cell(self, cell):
        self.parent.note_cell(cell)

    def __getattr__(self, name):
        # capture-mode services (ast's call_cell, guards, ...) live on the root capture
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.parent, name)

    # ---- values -----------------------------------------------------------------------
    def input(self, aval, hint=None, data=None):
        tracer = super().input(aval, hint, data)
        self.explicit_inputs.append(tracer._var)
        return tracer

    def knows(self, var):
        return id(var) in self.known

    def value_of(self, t):
        var = t._var
        if var is not None and id(var) in self.known:
            return var
        if var is None:
            current = self.ref_current.get(id(t))
            if current is not None:
                return current
        if self.parent is None:
            raise CaptureError("a tensor from outside reached a closed sub-graph")
        return self.import_value(t, self.parent.value_of(t))

    def import_value(self, obj, outer):
        """The inner value standing for ``outer`` (a value of the parent capture)."""
        if isinstance(outer, Literal):
            return outer
        key = id(obj)
        inner = self._captured_by_key.get(key)
        if inner is not None:
            return inner
        if self.parent.is_constant(outer):
            inner = self.new_var(outer.aval)
            self.graph.consts[inner] = self.parent.constant_value(outer)
        else:
            inner = self.new_var(outer.aval, getattr(outer, "hint", None))
            self.captured.append((obj, outer, inner))
        self._keep.append(obj)
        self._captured_by_key[key] = inner
        return inner

    def const(self, array):
        """A constant of this graph (0-d ones inline) as a graph value."""
        array = np.asarray(array)
        if array.ndim == 0:
            value = Literal(array)
        else:
            value = self.new_var(ShapedArray(array.shape, array.dtype))
            self.graph.consts[value] = array
        self.known.add(id(value))
        return value

    # ---- effects ----------------------------------------------------------------------
    def assign(self, target, value):
        self._assign(target, value)
        propagate = getattr(self, "propagate_inplace", None)   # ast: BranchAliases
        if propagate is not None:
            propagate(self, target, value)

    def _assign(self, target, value):
        new = self.value_of(value)
        var = target._var
        if var is not None:
            if id(var) not in self.known and id(target) not in self.outer_writes:
                self.outer_writes[id(target)] = (target, var)
            target._var = new
            return
        self.ref_current[id(target)] = new
        self.ref_writes[id(target)] = target

    def restore_outer(self):
        """Give tensors of enclosing graphs written in place their outer values back."""
        for target, original in self.outer_writes.values():
            target._var = original

    def written_targets(self):
        """Outside tensors this capture wrote: [(tensor, is_ref)]."""
        return ([(t, False) for t, _ in self.outer_writes.values()]
                + [(t, True) for t in self.ref_writes.values()])

    def final_value(self, target):
        """This capture's value of an outside tensor at the end (written or imported)."""
        if target._var is None:
            current = self.ref_current.get(id(target))
            if current is not None:
                return current
        return self.value_of(target)

    # ---- finishing --------------------------------------------------------------------
    def close(self, outputs, operand_keys=None):
        """Fix the graph's signature: explicit inputs, then one input per captured outer
        value (in ``operand_keys`` order when several graphs must share operands)."""
        captured = {id(obj): inner for obj, _, inner in self.captured}
        if operand_keys is None:
            extra = [inner for _, _, inner in self.captured]
        else:
            extra = []
            for key, aval in operand_keys:
                inner = captured.get(key)
                extra.append(inner if inner is not None else self.new_var(aval))
        self.graph.inputs = list(self.explicit_inputs) + extra
        self.graph.outputs = list(outputs)
        return self.graph


class StandaloneCapture(SubCapture):
    """A closed-graph capture with no enclosing capture (backward graphs built eagerly)."""

    def __init__(self, name):
        super().__init__(None, name)

    @property
    def shape_dependent(self):
        return False

    @shape_dependent.setter
    def shape_dependent(self, value):
        pass

    def note_cell(self, cell):
        pass

    def __getattr__(self, name):
        raise AttributeError(name)


@contextlib.contextmanager
def sub_scope(capture):
    """Install ``capture`` with autodiff tapes suspended."""
    previous, tapes = state.capture, state.tapes
    state.capture, state.tapes = capture, ()
    try:
        yield capture
    finally:
        state.capture, state.tapes = previous, tapes


def union_operands(captures):
    """Shared operand list of several sub-captures: [(key, aval)] and the outer tensor
    objects to pass, in first-seen order."""
    keys, objects, seen = [], [], set()
    for cap in captures:
        for obj, outer, _ in cap.captured:
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            keys.append((id(obj), outer.aval))
            objects.append(obj)
    return keys, objects


def trace_closed(fn, in_avals, name):
    """Capture ``fn(*tracers) -> tensors`` into a closed graph with inputs ``in_avals``
    (used for backward graphs, which only use their inputs and constants)."""
    parent = state.capture
    sub = SubCapture(parent, name) if parent is not None else StandaloneCapture(name)
    tracers = [sub.input(aval) for aval in in_avals]
    with sub_scope(sub):
        outs = fn(*tracers)
        outputs = [sub.value_of(o) for o in outs]
    sub.restore_outer()
    if sub.captured or sub.written_targets():
        raise CaptureError(f"internal error: backward graph {name} is not closed")
    return sub.close(outputs)
