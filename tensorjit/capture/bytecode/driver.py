"""Capturing segments: thaw a snapshot, interpret until the segment ends, compile its
graph, and hand the rest of the call to the next segment."""
import time
import types
import weakref

import numpy as np

from ... import pytree
from ...aval import ShapedArray
from ...tensor import Tensor
from ..base import Capture, capture_scope, WeakScalarTracer
from .values import Dynamic, TSlot, freeze, build, is_number
from .frames import (freeze_frames, thaw_frames, initial_frame, packed_arguments,
                     unsupported_reason)
from .versions import check_version
from .guards import SlotGuard
from .interpreter import Interpreter, SegmentEnd, Unsupported
from .program import (Program, Segment, Alternative, Action, Branch, Return, Interpret,
                      PreludeOp, tensor_data, scalar_converter)


class GraphBreakError(RuntimeError):
    """``fullgraph=True`` and the function cannot be captured as one graph."""


class BytecodeCapture(Capture):
    """Concrete, like trace: tracers carry values. Code the interpreter follows breaks
    the graph where it needs a value; tensorjit code it calls directly may still read
    values, which then become guards as in trace mode."""
    concrete = True


def _identity(value):
    return value


class SegmentState:
    """Everything about the segment being captured."""

    def __init__(self, program, env, name, root_slots):
        self.program = program
        self.env = env
        self.capture = BytecodeCapture(name)
        self.owned = set()
        self.keep = []                  # objects whose ids are in ``owned``
        self.guards = []
        self.prelude_ops = []
        self.inputs = []                # (slot, converter), in graph-input order
        self.slot_tracers = {}
        self.input_of = {}              # id(tracer) -> (slot, input var)
        self.root_slots = root_slots    # slots whose types the cache key already fixes
        self.weak_ids = program.owner_ids   # objects not to keep alive (values.TWeak)

    # ---- values coming in --------------------------------------------------------------
    def resolve(self, slot):
        value = self.env[slot]
        if isinstance(value, Tensor):
            return self.tensor_input(slot, value)
        return Dynamic(slot, value)

    def tensor_input(self, slot, value, converter=tensor_data):
        tracer = self.slot_tracers.get(slot)
        if tracer is None:
            data = value._data if isinstance(value, Tensor) else value
            tracer = self.capture.input(ShapedArray(np.shape(data), data.dtype), f"s{slot}",
                                        data, getattr(value, "_weak_type", None))
            self._register_input(slot, tracer, converter)
            if slot not in self.root_slots:
                self.guards.append(SlotGuard(slot, value, why="from before a break"))
        return tracer

    def _register_input(self, slot, tracer, converter):
        self.inputs.append((slot, converter))
        self.slot_tracers[slot] = tracer
        self.input_of[id(tracer)] = (slot, tracer._var)

    def lift(self, dynamic):
        """A run-time value used in tensor math becomes a graph input."""
        value = dynamic.value
        slot = dynamic.slot
        if isinstance(value, Tensor):
            return self.tensor_input(slot, value)
        if isinstance(value, np.ndarray):
            return self.tensor_input(slot, value, _identity)
        if is_number(value):
            tracer = self.slot_tracers.get(slot)
            if tracer is None:
                kind = bool if isinstance(value, (bool, np.bool_)) else (
                    int if isinstance(value, (int, np.integer)) else float)
                dtype = np.dtype({bool: np.bool_, int: np.int64, float: np.float64}[kind])
                var = self.capture.new_var(ShapedArray((), dtype), f"s{slot}")
                self.capture.graph.inputs.append(var)
                tracer = object.__new__(WeakScalarTracer)
                tracer._data = np.asarray(value, dtype)
                tracer._var = var
                tracer._weak_type = kind
                self._register_input(slot, tracer, scalar_converter(dtype))
                self.guards.append(SlotGuard(slot, value, why="a number used in tensor math"))
            return tracer
        return self.specialize(dynamic, "used as a constant")

    def lift_argument(self, value):
        if isinstance(value, Dynamic):
            return self.lift(value)
        if isinstance(value, (list, tuple)) and any(isinstance(v, Dynamic) for v in value):
            return type(value)(self.lift_argument(v) for v in value)
        return value

    def specialize(self, dynamic, why):
        """Use a run-time value as a constant, guarded to be equal next time."""
        self.guards.append(SlotGuard(dynamic.slot, dynamic.value, exact=True, why=why))
        return dynamic.value

    def prelude(self, fn, args, kwargs):
        """A pure operation on run-time values, run before the graph on every call."""
        memo = {}
        arg_templates = [freeze(a, self._no_tracers, self.owned, memo, self.weak_ids)
                         for a in args]
        kw_templates = {k: freeze(v, self._no_tracers, self.owned, memo, self.weak_ids)
                        for k, v in kwargs.items()}
        value = fn(*[build(t, self.env) for t in arg_templates],
                   **{k: build(t, self.env) for k, t in kw_templates.items()})
        slot = self.program.new_slot()
        self.env[slot] = value
        self.prelude_ops.append(PreludeOp(fn, arg_templates, kw_templates, slot))
        if isinstance(value, Tensor):
            return self.tensor_input(slot, value)
        return Dynamic(slot, value)

    @staticmethod
    def _no_tracers(tracer):
        raise AssertionError("a prelude operation received a tensor of the graph")

    def add_guard(self, guard):
        self.guards.append(guard)

    # ---- the end of the segment ---------------------------------------------------------
    def exporter(self):
        """(export function for freezing, list of output tracers, their slots,
        write-backs) -- tracers the rest of the call needs become graph outputs."""
        outputs, out_slots, write_backs, seen = [], [], [], {}

        def export(tracer):
            key = id(tracer)
            if key in seen:
                return seen[key]
            known = self.input_of.get(key)
            if known is not None:
                slot, var = known
                if tracer._var is not var:          # updated in place: write it back
                    outputs.append(tracer)
                    write_backs.append((slot, len(outputs) - 1))
                seen[key] = slot
                return slot
            slot = self.program.new_slot()
            outputs.append(tracer)
            out_slots.append(slot)
            seen[key] = slot
            return slot
        return export, outputs, out_slots, write_backs


class Driver:
    def __init__(self, request):
        # a program outlives calls and may be shared by equal jitted callables: it keeps
        # what it needs, and the request (which holds the jitted callable) only weakly
        self.request_ref = weakref.ref(request)
        self.fn_key = request.fn_key
        self.name = request.name
        self.compile_graph = request.compile_graph
        self.fullgraph = request.fullgraph

    # ---- the first call -------------------------------------------------------------------
    def start(self, struct, leaves):
        """A program for calls like this one; the first call's result comes with it."""
        check_version()
        program = Program(self)
        program.slot_count = len(leaves)
        program.root_slots = frozenset(range(len(leaves)))
        program.uses_cells = False
        program.owner_ids = frozenset(id(obj) for obj in pytree.identities(
            (self.fn_key, struct)))
        env = dict(enumerate(leaves))
        snapshot = self._initial_snapshot(program, struct, env)
        program.root = Segment(snapshot, _label_of(snapshot))
        return program, self.capture_from(program, program.root, env, program.last_path)

    def _initial_snapshot(self, program, struct, env):
        request = self.request_ref()
        state = SegmentState(program, env, self.name, program.root_slots)
        tracers = [state.tensor_input(i, leaf) for i, leaf in sorted(env.items())]
        args, kwargs = request.rebuild_call(struct, tracers)
        func, args = python_function(request.target, args)
        frame = initial_frame(func, args, kwargs)
        for value in packed_arguments(func.__code__, frame.locals, frame.cells):
            state.owned.add(id(value))
        for name in func.__code__.co_cellvars:       # cells made at the start (3.10)
            if name in frame.cells:
                state.owned.add(id(frame.cells[name]))
        export, *_ = state.exporter()
        snapshot, _ = freeze_frames([frame], export, state.owned, state.weak_ids)
        return snapshot

    # ---- capturing from a segment -----------------------------------------------------------
    def capture_from(self, program, segment, env, path):
        """Capture the rest of the call from ``segment`` with the call's real values;
        returns the call's result."""
        event = self._record_capture(segment) if program.root.alternatives else None
        started = time.perf_counter()
        try:
            return self._capture_path(program, segment, env, path)
        finally:
            if event is not None:
                event.seconds = time.perf_counter() - started

    def _capture_path(self, program, segment, env, path):
        while True:
            state = SegmentState(program, env, self.name, program.root_slots)
            frames = thaw_frames(segment.snapshot, state.resolve, state.owned)
            interpreter = Interpreter(frames, state)
            try:
                with capture_scope(state.capture):
                    value = interpreter.run()
                end = SegmentEnd("return", value=value)
            except SegmentEnd as stop:
                end = stop
            except Unsupported as unsupported:
                if self.fullgraph:
                    raise GraphBreakError(f"fullgraph=True: {unsupported.reason} at "
                                          f"{unsupported.location}") from None
                alternative = Alternative([], [], None, None, [], [], [], Interpret(
                    unsupported.reason, unsupported.location, unsupported.kind))
                segment.alternatives.append(alternative)
                path.append(alternative)
                return self.interpret_from(program, segment, env)
            if self.fullgraph and end.kind != "return":
                raise GraphBreakError(f"fullgraph=True: graph break at "
                                      f"{end.payload['location']}: {end.payload['reason']}")
            segment = self._finish(program, segment, state, interpreter, end, path)
            if not isinstance(segment, Segment):
                return segment.value

    def _finish(self, program, segment, state, interpreter, end, path):
        export, outputs, out_slots, write_backs = state.exporter()
        payload = end.payload
        if end.kind == "return":
            result_template = freeze(payload["value"], export, state.owned, {},
                                     state.weak_ids)
        elif end.kind == "action":
            memo = {}
            weak = state.weak_ids
            fn_t = freeze(payload["fn"], export, state.owned, memo, weak)
            args_t = [freeze(a, export, state.owned, memo, weak) for a in payload["args"]]
            kwargs_t = {k: freeze(v, export, state.owned, memo, weak)
                        for k, v in payload["kwargs"].items()}
            snapshot, _ = freeze_frames(interpreter.frames, export, state.owned,
                                        state.weak_ids)
        else:
            cond_slot = export(payload["value"]) if not isinstance(
                payload["value"], Dynamic) else payload["value"].slot
            snapshot, _ = freeze_frames(interpreter.frames, export, state.owned,
                                        state.weak_ids)
        for tracer in list(state.slot_tracers.values()):
            export(tracer)        # inputs updated in place are written back to the caller
        # the graph of this segment
        graph = state.capture.finish(outputs)
        executable = None
        if graph.nodes or graph.outputs:
            executable = self.compile_graph(graph)
        graph_outputs = _output_slots(outputs, out_slots, write_backs)
        for tracer, slot in zip(outputs, graph_outputs):
            if slot is not None:          # (write-backs have no slot: applied below)
                state.env[slot] = Tensor._wrap(tracer._data)
        for slot, index in write_backs:
            state.env[slot]._data = outputs[index]._data
        if end.kind == "return":
            terminator = Return(result_template)
        elif end.kind == "action":
            slot = program.new_slot()
            if not payload.get("discard", False):      # the call's value is used
                snapshot = snapshot.with_top(push=[TSlot(slot)])
            terminator = Action(fn_t, args_t, kwargs_t, slot, payload["reason"],
                                payload["location"], payload["break_kind"],
                                Segment(snapshot, payload["location"]))
        else:
            terminator = self._branch(cond_slot, snapshot, payload)
        alternative = Alternative(state.guards, state.prelude_ops, executable, graph,
                                  state.inputs, graph_outputs, write_backs, terminator)
        alternative.shape_dependent = state.capture.shape_dependent
        alternative.uses_cells = state.capture.uses_cells
        alternative.graph_guards = [reason for reason, _ in state.capture.guards]
        program.uses_cells = program.uses_cells or alternative.uses_cells
        segment.alternatives.append(alternative)
        path.append(alternative)
        if isinstance(terminator, Return):
            return _Done(build(terminator.template, state.env))
        return terminator.run(state.env)

    def _branch(self, cond_slot, snapshot, payload):
        """A Branch whose child for an outcome resumes at the jump target or falls through
        (``keep``: 'and'/'or' leave the deciding value on the stack when they jump)."""
        target = payload["target"]
        jump_if = payload["jump_if"]
        keep = payload.get("keep", False)

        def make_child(outcome):
            index_of = _index_of_offset(snapshot.frames[-1][0])
            if outcome == jump_if:
                child = snapshot.with_top(ip=index_of[target],
                                          push=[TSlot(cond_slot)] if keep else [])
            else:
                child = snapshot
            return Segment(child, payload["location"])

        return Branch(cond_slot, make_child, payload["reason"], payload["location"],
                      payload["break_kind"])

    def _record_capture(self, segment):
        why = ("guards failed" if segment.alternatives else "a new outcome of a run-time "
               "decision")
        request = self.request_ref()
        if request is None:
            return None
        return request.note_recapture(f"{why}: capturing again from {segment.label}")

    # ---- finishing a call without capture -----------------------------------------------
    def interpret_from(self, program, segment, env):
        frames = thaw_frames(segment.snapshot, lambda slot: env[slot], set())
        return Interpreter(frames, None).run()


class _Done:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _output_slots(outputs, out_slots, write_backs):
    """Slot receiving each graph output (write-back outputs go to their input slot and
    are applied separately, so they get no slot of their own here)."""
    written = {index for _, index in write_backs}
    slots = iter(out_slots)
    return [None if i in written else next(slots) for i in range(len(outputs))]


def _index_of_offset(code):
    from .frames import instructions_of
    return instructions_of(code)[1]


def _label_of(snapshot):
    code = snapshot.frames[-1][0]
    return f"{code.co_filename}:{code.co_firstlineno}"


def _call_cell(cell, *args):
    return cell(*args)


def python_function(target, args):
    """The Python function to interpret for ``target`` and its full argument list."""
    from ...nn.cell import Cell
    if isinstance(target, types.FunctionType):
        return target, list(args)
    if isinstance(target, types.MethodType) and isinstance(target.__func__, types.FunctionType):
        return target.__func__, [target.__self__] + list(args)
    if isinstance(target, Cell):
        if target.__dict__.get("_mixed_precision_type") is not None:
            # to_float casts around construct: the call goes through Cell.__call__
            return _call_cell, [target] + list(args)
        return type(target).construct, [target] + list(args)
    call = getattr(type(target), "__call__", None)
    if isinstance(call, types.FunctionType):
        return call, [target] + list(args)
    raise TypeError(f"capture_mode='bytecode' needs a Python function, got {target!r}")


def top_level_unsupported(target):
    """Why the top-level function cannot be interpreted (None if it can)."""
    try:
        func, _ = python_function(target, [])
    except TypeError as exc:
        return str(exc), "?"
    reason = unsupported_reason(func.__code__, Interpreter)
    if reason is None:
        return None
    return reason, f"{func.__code__.co_filename}:{func.__code__.co_firstlineno}"
