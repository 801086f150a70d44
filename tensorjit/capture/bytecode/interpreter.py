"""Symbolic execution of CPython bytecode, one method per opcode (named after it).

The interpreter runs a function's bytecode on the values of ``values.py``. Tensor work
goes straight into the segment's graph capture (tracers carry real values, so Python can
see shapes, dtypes and -- when guarded -- values); Python work on constants is simply done;
anything that must happen on every call ends the segment (``SegmentEnd``), which the
driver turns into a graph break, a branch or the return.

With ``segment=None`` the same interpreter runs on real values only (``eager`` mode),
to finish a call whose remaining code the capture cannot handle.

Opcode handlers live in ``opcodes.py`` (shared) and one module per CPython version
(``py310.py`` ... ``py313.py``) with what changed in it; ``Interpreter`` is the running
version's. A new version is a new module of that kind plus an entry in ``_HANDLERS``.
"""
import builtins
import linecache
import operator
import types

from ...tensor import Tensor
from ...nn.cell import Cell
from ...ir.graph import SourceInfo
from ..base import LOCATION_PROVIDERS
from .. import breaks
from ..user_code import is_internal_module
from .values import NULL, Dynamic, SeqIter, is_tracer, contains_runtime_values
from .frames import Frame, bind_arguments, packed_arguments, unsupported_reason
from .versions import RUNNING, initial_cells
from ..guards import GlobalGuard, AttrGuard, CellGuard
from ..python_state import ContentGuard, Snapshot
from . import calls
from .calls import INLINE, DIRECT, PURE

MAX_DEPTH = 48
_CONTENT_READS = (operator.getitem, operator.contains)


def _holds_tracer(value, depth=0):
    if is_tracer(value):
        return True
    if depth < 8 and isinstance(value, (list, tuple, set, frozenset)):
        return any(_holds_tracer(v, depth + 1) for v in value)
    if depth < 8 and isinstance(value, dict):
        return any(_holds_tracer(v, depth + 1) for v in value.values())
    return False


class SegmentEnd(Exception):
    """The segment being captured ends here (a break, a branch, or the return)."""

    def __init__(self, kind, **payload):
        super().__init__(kind)
        self.kind = kind
        self.payload = payload


class Unsupported(Exception):
    """The interpreter cannot continue; the rest of the call runs in eager mode."""

    def __init__(self, reason, location, kind=breaks.UNSUPPORTED_SYNTAX):
        super().__init__(f"{reason} at {location}")
        self.reason, self.location, self.kind = reason, location, kind


class _Return(Exception):
    def __init__(self, value):
        self.value = value


def raise_in_user_frame(exc, frame):
    """Raise ``exc`` from the interpreted frame's file and line, as eager Python would.

    The interpreter is what really raised it, so its traceback would end inside tensorjit;
    a one-line code object compiled under the user's file name, line and function name
    raises it again, so the innermost traceback entry (and what error reports read) is the
    user's line."""
    code, line = frame.code, frame.line()
    source = linecache.getline(code.co_filename, line).rstrip()
    indent = len(source) - len(source.lstrip())
    # the name is padded to the source line's length: the traceback then underlines
    # nothing (a statement spanning the whole line), rather than a misleading part of it
    name = "_" * max(len(source) - indent - len("raise "), 1)
    if indent and line > 1:
        text = "\n" * (line - 2) + "if 1:\n" + " " * indent + f"raise {name}"
    else:
        text = "\n" * (line - 1) + f"raise {name}"
    raiser = compile(text, code.co_filename, "exec")
    raiser = raiser.replace(co_name=code.co_name)
    exc.__traceback__ = None
    try:
        exec(raiser, {name: exc})
    finally:
        del exc


class InterpreterBase:
    def __init__(self, frames, segment=None):
        self.frames = frames
        self.segment = segment
        self.eager = segment is None

    # ---- stack helpers -----------------------------------------------------------------
    @property
    def frame(self):
        return self.frames[-1]

    def push(self, value):
        self.frames[-1].stack.append(value)

    def pop(self):
        return self.frames[-1].stack.pop()

    def popn(self, n):
        if n == 0:
            return []
        stack = self.frames[-1].stack
        values = stack[-n:]
        del stack[-n:]
        return values

    def peek(self, depth=1):
        return self.frames[-1].stack[-depth]

    def location(self):
        return self.frames[-1].location()

    def source_info(self):
        """The user's line being interpreted (for IR notes and error messages)."""
        if not self.frames:
            return None
        frame = self.frames[-1]
        filename, _, line = frame.location().rpartition(":")
        return SourceInfo(filename, int(line), frame.code.co_name)

    def unsupported(self, reason):
        raise Unsupported(reason, self.location())

    # ---- the loop ------------------------------------------------------------------------
    def run(self):
        """Interpret until the outermost frame returns; returns its value."""
        while True:
            frame = self.frames[-1]
            inst = frame.insts[frame.ip]
            frame.ip += 1
            handler = getattr(self, inst.opname, None)
            if handler is None:
                self.unsupported(f"the opcode {inst.opname}")
            try:
                handler(inst)
            except _Return as ret:
                self.frames.pop()
                if not self.frames:
                    return ret.value
                self.push(ret.value)
            except (SegmentEnd, Unsupported):
                raise
            except Exception as exc:          # the user's code raised it: say where
                raise_in_user_frame(exc, self.frames[-1])

    # ---- what a value is -------------------------------------------------------------------
    def is_runtime(self, value):
        return isinstance(value, Dynamic) or is_tracer(value)

    def truth(self, value, inst, jump_if):
        """The truth of a condition, or the end of the segment if only a run-time value
        can tell (``jump_if``: the truth for which the jump is taken)."""
        if not self.eager and (is_tracer(value) or isinstance(value, Dynamic)):
            raise SegmentEnd("branch", value=value, target=inst.argval, jump_if=jump_if,
                             reason=("condition on a tensor value" if is_tracer(value)
                                     else "condition on a value computed by Python code"),
                             break_kind=(breaks.TENSOR_VALUE if is_tracer(value)
                                   else breaks.RUNTIME_DECISION),
                             location=self.location())
        return bool(value)

    # ---- operations on values ---------------------------------------------------------
    def apply(self, fn, args, kwargs=None, name=None):
        """Apply a Python operation (operator, builtin) to interpreter values."""
        kwargs = kwargs or {}
        if self.eager:
            return fn(*args, **kwargs)
        has_dynamic = any(isinstance(a, Dynamic) for a in args) or any(
            isinstance(v, Dynamic) for v in kwargs.values())
        has_tracer = any(is_tracer(a) for a in args)
        if has_dynamic and not has_tracer and not any(
                contains_runtime_values(a) and not isinstance(a, Dynamic) for a in args):
            return self.segment.prelude(fn, args, kwargs)
        if has_dynamic:
            args = [self.segment.lift(a) if isinstance(a, Dynamic) else a for a in args]
            kwargs = {k: self.segment.lift(v) if isinstance(v, Dynamic) else v
                      for k, v in kwargs.items()}
        elif fn in _CONTENT_READS and not has_tracer and self.outside(args[0]):
            # ``TABLE["n"]``, ``x in LOG``: a list / dict / set from outside may change
            # between calls. A plain value is read on every call; an object read from it
            # is kept, and the container's contents guarded.
            value = fn(*args, **kwargs)
            if isinstance(value, calls.IMMUTABLE_TYPES):
                return self.segment.prelude(fn, args, kwargs)
            self.guard_contents(args[0])
            return value
        return fn(*args, **kwargs)

    def outside(self, value):
        """A list / dict / set the function did not make (state that may change)."""
        return not self.eager and calls.outside_container(value, self.segment.owned)

    def guard_contents(self, container):
        """The segment relies on what ``container`` (from outside) holds now."""
        self.segment.add_guard(ContentGuard(
            Snapshot(container), f"a {type(container).__name__} from outside the function"))

    # ---- calls ------------------------------------------------------------------------
    def call_function(self, fn, args, kwargs):
        """Call ``fn``; returns its value, or NULL when a frame was pushed to inline it."""
        if self.eager:
            if fn is builtins.super and not args:
                return self._zero_arg_super()
            return fn(*args, **kwargs)
        if isinstance(fn, Dynamic):
            self.graph_break(fn, args, kwargs, "call of a function computed at run time",
                             breaks.OPAQUE_CALL)
        jit_function = getattr(fn, "_tj_jit", None)
        if jit_function is not None:       # a jitted function inside: follow its body
            fn = jit_function.fn
        if fn is builtins.super and not args:
            return self._zero_arg_super()
        if fn is builtins.print:
            self.graph_break(fn, args, kwargs, "print", breaks.PRINT)
        if isinstance(fn, Cell):
            return self.call_cell(fn, args, kwargs)
        if isinstance(fn, types.MethodType) and is_tracer(fn.__self__) and \
                fn.__name__ in calls.CONCRETIZING_METHODS:
            self.graph_break(fn, args, kwargs, f"{fn.__name__}() reads a tensor's value",
                             breaks.TENSOR_VALUE)
        kind = calls.classify(fn, self.segment.owned)
        if kind == INLINE:
            return self.inline(fn, args, kwargs)
        if kind == DIRECT:
            return self.call_direct(fn, args, kwargs)
        if kind == PURE:
            return self.call_pure(fn, args, kwargs)
        self.graph_break(fn, args, kwargs, calls.call_reason(fn), calls.break_kind(fn))

    def call_cell(self, cell, args, kwargs):
        capture = self.segment.capture
        capture.note_cell(cell)
        construct = type(cell).construct
        if cell.__dict__.get("_mixed_precision_type") is None and isinstance(
                construct, types.FunctionType) and not is_internal_module(
                construct.__module__):
            return self.inline(types.MethodType(construct, cell), args, kwargs)
        return self.call_direct(cell, args, kwargs)

    def call_direct(self, fn, args, kwargs):
        """tensorjit code: run it on tracers (run-time Python values become inputs).
        Constructors (``Tensor(array)``) given run-time values run in the prelude."""
        if isinstance(fn, type) and (any(isinstance(a, Dynamic) for a in args) or any(
                isinstance(v, Dynamic) for v in kwargs.values())):
            return self.segment.prelude(fn, args, kwargs)
        args = [self.segment.lift_argument(a) for a in args]
        kwargs = {k: self.segment.lift_argument(v) for k, v in kwargs.items()}
        result = fn(*args, **kwargs)
        if isinstance(fn, type) and not isinstance(result, Tensor):
            self.segment.owned.add(id(result))
        return result

    def call_pure(self, fn, args, kwargs):
        values = list(args) + list(kwargs.values())
        if fn in calls.CONCRETIZING_BUILTINS and any(is_tracer(v) for v in values):
            self.graph_break(fn, args, kwargs, f"{fn.__name__}() of a tensor reads its value",
                             breaks.TENSOR_VALUE)
        if any(is_tracer(v) for v in values) and fn not in calls.STRUCTURAL_BUILTINS:
            self.graph_break(fn, args, kwargs, calls.call_reason(fn) + " on a tensor",
                             breaks.OPAQUE_CALL)
        if any(isinstance(v, Dynamic) for v in values) or any(
                calls.outside_container(v, self.segment.owned) for v in values):
            # computed on every call: a run-time value, or a list / dict / set from outside
            # the function, whose contents may change between calls (len(LOG)) -- unless
            # graph tensors take part (zip(OUTSIDE_LIST, grads)): then it runs as Python
            if any(_holds_tracer(v) for v in values):
                self.graph_break(fn, args, kwargs, calls.call_reason(fn) + " mixing a "
                                 "container from outside the function with graph tensors",
                                 breaks.PYTHON_STATE)
            return self.segment.prelude(fn, args, kwargs)
        result = fn(*args, **kwargs)
        if isinstance(result, (list, dict, set)):
            self.segment.owned.add(id(result))
        return result

    def graph_break(self, fn, args, kwargs, reason, kind):
        """End the segment: ``fn`` runs as Python (``kind``: see capture/breaks.py)."""
        if isinstance(fn, types.MethodType) and self.is_runtime(fn.__self__):
            # a method of a run-time value: call it unbound on that value, next time too
            fn, args = fn.__func__, [fn.__self__] + list(args)
        raise SegmentEnd("action", fn=fn, args=list(args), kwargs=dict(kwargs), reason=reason,
                         break_kind=kind, location=self.location())

    def inline(self, fn, args, kwargs):
        if isinstance(fn, types.MethodType):
            args = [fn.__self__] + list(args)
            fn = fn.__func__
        if fn.__code__.co_flags & 0x20:
            # a generator function: calling it only makes the generator; whoever
            # iterates it runs its body directly (reads of values become guards)
            return self._owned(fn(*args, **kwargs))
        reason = unsupported_reason(fn.__code__, type(self))
        if reason is not None or len(self.frames) >= MAX_DEPTH:
            why = reason or "calls nested too deeply"
            self.graph_break(fn, args, kwargs,
                             f"{calls.call_reason(fn)}, which uses {why}",
                             breaks.UNSUPPORTED_SYNTAX)
        locals_ = bind_arguments(fn, args, kwargs)
        for value in packed_arguments(fn.__code__, locals_):
            self._owned(value)
        cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
        for cell in initial_cells(fn.__code__, locals_).items():
            cells[cell[0]] = self._owned(cell[1])
        self.frames.append(Frame(fn.__code__, fn.__globals__, fn, locals_, cells))
        return NULL

    def _owned(self, value):
        """A value made during the capture (the function may mutate it freely)."""
        if not self.eager:
            self.segment.owned.add(id(value))
        return value

    def _zero_arg_super(self):
        frame = self.frame
        cell = frame.cells.get("__class__")
        if cell is None or not frame.code.co_argcount:
            self.unsupported("super() outside a method")
        first = frame.code.co_varnames[0]
        self_value = frame.locals.get(first)
        if self_value is None and first in frame.cells:
            self_value = frame.cells[first].cell_contents
        return super(cell.cell_contents, self_value)

    # ---- guarded reads of the outside world -----------------------------------------------
    def read_global(self, name):
        frame = self.frame
        if name in frame.globals:
            value = frame.globals[name]
            if not self.eager:
                self.segment.add_guard(GlobalGuard(frame.globals, name, value))
            return value
        try:
            return getattr(builtins, name)
        except AttributeError:
            raise NameError(f"name {name!r} is not defined") from None

    def read_attr(self, obj, name):
        if self.eager:
            return getattr(obj, name)
        if isinstance(obj, Dynamic):
            return self.segment.prelude(getattr, [obj, name], {})
        value = getattr(obj, name)
        if is_tracer(obj) or isinstance(obj, calls.IMMUTABLE_TYPES) or \
                id(obj) in self.segment.owned:
            return value
        if isinstance(obj, types.ModuleType) and obj.__name__.split(".")[0] in \
                calls.SKIP_GUARD_MODULES:
            return value
        label = getattr(obj, "__name__", None) or type(obj).__name__
        self.segment.add_guard(AttrGuard(obj, name, value, label,
                                         weak_owner=id(obj) in self.segment.weak_ids))
        return value

    def read_cell(self, name):
        cell = self.frame.cells[name]
        try:
            value = cell.cell_contents
        except ValueError:
            raise NameError(f"free variable {name!r} referenced before assignment") from None
        if not self.eager and id(cell) not in self.segment.owned:
            self.segment.add_guard(CellGuard(cell, name, value,
                                             weak=id(value) in self.segment.weak_ids))
        return value

    def is_external(self, obj):
        return not (is_tracer(obj) or isinstance(obj, (Dynamic, SeqIter))
                    or id(obj) in self.segment.owned)


from .py310 import Py310Opcodes  # noqa: E402  (the handlers use the classes above)
from .py311 import Py311Opcodes  # noqa: E402
from .py312 import Py312Opcodes  # noqa: E402
from .py313 import Py313Opcodes  # noqa: E402

_HANDLERS = {(3, 10): Py310Opcodes, (3, 11): Py311Opcodes, (3, 12): Py312Opcodes,
             (3, 13): Py313Opcodes}


def interpreter_class(version=RUNNING):
    """The interpreter for a CPython version (None if it is not supported)."""
    handlers = _HANDLERS.get(version)
    if handlers is None:
        return None
    return type(f"Interpreter{version[0]}{version[1]}", (handlers, InterpreterBase),
                {"__doc__": f"The interpreter for CPython {version[0]}.{version[1]}."})


Interpreter = interpreter_class() or InterpreterBase


def _interpreted_location(frame):
    interpreter = frame.f_locals.get("self")
    return interpreter.source_info() if isinstance(interpreter, InterpreterBase) else None


# errors and IR notes name the line the interpreter is at, not the jitted call's caller
LOCATION_PROVIDERS[InterpreterBase.run.__code__] = _interpreted_location
