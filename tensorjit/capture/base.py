"""What every capture mode shares: the object installed as ``state.capture`` while a
function is turned into a graph.

``Primitive.bind`` hands each call to ``record``; tensors created during the capture are
registered by ``constant``; in-place updates go through ``assign``; reading a value out of
a symbolic tensor goes through ``concretize``. Tensors that existed before the capture
started (Parameters, captured globals) are *refs*: the graph reads them when it runs, so a
weight update needs no recompilation.

A concrete capture (trace mode) also runs every kernel, so the first call returns real
results and every concretization becomes a guard. An abstract capture (ast, bytecode)
knows only shapes and dtypes; concretizing raises ``ConcretizationError``, which those
modes turn into graph control flow or a graph break.
"""
import contextlib
import sys

import numpy as np

from ..aval import ShapedArray
from ..ir.graph import Graph, Node, Var, Literal, Ref, SourceInfo
from ..state import state
from ..ops.primitive import explain_failure
from ..ops import effects
from ..tensor import Tensor, Parameter
from ..nn.cell import note_captured

from .user_code import is_user_code, is_internal_module

# the bytecode interpreter and ast's runtime helpers (`len`, `for` over a tensor) read shapes
# on behalf of the user's code they run
_USER_PROXIES = ("tensorjit.capture.bytecode", "tensorjit.capture.ast.runtime")


class ConcretizationError(Exception):
    """A symbolic tensor's value was needed to decide something in Python."""

    def __init__(self, why, source):
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{why} needs the value of a tensor, which is not known while "
                         f"the graph is being built")
        self.why = why
        self.source = source


class CaptureError(Exception):
    """User code did something invalid while being captured; names the file and line."""


# code object -> function(frame) -> SourceInfo (or a "file:line" string) or None, for
# tensorjit frames that execute user code (the bytecode interpreter's loop, its graph
# breaks at run time): locations then name the user's line
LOCATION_PROVIDERS = {}


class Where(str):
    """A user location "file:line" that also knows its function's name, so messages can
    say ``file:line (function)`` as for any other user frame."""

    def __new__(cls, filename, line, function):
        where = super().__new__(cls, f"{filename}:{line}")
        where.function = function
        return where

    def described(self):
        return f"{self} ({self.function})"


def source_info(skip=2):
    frame = sys._getframe(skip)
    while frame is not None:
        provider = LOCATION_PROVIDERS.get(frame.f_code)
        info = provider(frame) if provider is not None else None
        if isinstance(info, SourceInfo):
            return info
        if is_user_code(frame):
            return SourceInfo(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)
        frame = frame.f_back
    return None


class Tracer(Tensor):
    """A tensor inside a capture. Reading its shape from user code is remembered: a graph
    whose construction looked at shapes cannot be reused for other shapes."""
    __slots__ = ()

    def _note_shape_read(self):
        capture = state.capture
        if capture is not None:
            caller = sys._getframe(2).f_globals.get("__name__", "")
            # the bytecode interpreter acts for the user's code
            if not is_internal_module(caller) or caller.startswith(_USER_PROXIES):
                capture.shape_dependent = True

    @property
    def shape(self):
        self._note_shape_read()
        return self._var.aval.shape

    @property
    def ndim(self):
        self._note_shape_read()
        return len(self._var.aval.shape)

    @property
    def size(self):
        self._note_shape_read()
        return self._var.aval.size

    def __len__(self):
        self._note_shape_read()
        shape = self._var.aval.shape
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return shape[0]

    def __iter__(self):
        self._note_shape_read()         # the number of items is the first dimension
        return Tensor.__iter__(self)

    @property
    def dtype(self):
        return self._var.aval.dtype


class WeakScalarTracer(Tracer):
    """A Python number known only at run time, as a graph input that promotes like the
    number would (a float32 tensor times it stays float32)."""
    __slots__ = ("_weak_type",)


def make_tracer(var, data=None):
    t = object.__new__(Tracer)
    t._data = data
    t._var = var
    return t


class Capture:
    """Builds one Graph from the primitive calls of a running function."""
    concrete = False

    def __init__(self, name):
        self.graph = Graph(name)
        self.last_source = None       # the source of the latest recorded call (the tape's)
        self.known = set()            # ids of Vars / Literals made by this capture
        self.ref_current = {}         # id(external tensor) -> its current value in the graph
        self.ref_by_id = {}           # id(external tensor) -> Ref
        self.final_assign = {}        # Ref -> value to write back when the graph finishes
        self.guards = []              # (reason, SourceInfo) in order, for explain
        self.shape_dependent = False
        self.uses_cells = False
        self.initial_data = {}        # id(external tensor) -> its data when first read

    # ---- values ----------------------------------------------------------------------
    def new_var(self, aval, hint=None):
        var = Var(aval, hint)
        self.known.add(id(var))
        return var

    def input(self, aval, hint=None, data=None, weak_type=None):
        var = self.new_var(aval, hint)
        self.graph.inputs.append(var)
        if weak_type is None:
            return make_tracer(var, data)
        tracer = object.__new__(WeakScalarTracer)
        tracer._data, tracer._var, tracer._weak_type = data, var, weak_type
        return tracer

    def value_of(self, t):
        """The graph value a tensor stands for, lifting unknown tensors as refs."""
        var = t._var
        if var is not None:
            if id(var) in self.known:
                return var
            raise CaptureError(
                f"{source_info(3) or 'user code'}: a tensor from another graph capture "
                f"(stored from an earlier jitted call?) is used here; pass it as an argument")
        current = self.ref_current.get(id(t))
        if current is None:
            current = self._lift(t)
        return current

    def _lift(self, t):
        if t._data is None:
            raise CaptureError("a symbolic tensor with no value reached the graph")
        name = t.name if isinstance(t, Parameter) and t.name else f"captured_{len(self.graph.refs)}"
        var = self.new_var(ShapedArray(t._data.shape, t._data.dtype), hint=None)
        ref = Ref(var, t, name)
        self.initial_data[id(t)] = t._data
        self.graph.refs.append(ref)
        self.ref_by_id[id(t)] = ref
        self.ref_current[id(t)] = var
        return var

    def constant(self, t):
        """Register a tensor created during the capture as a graph constant."""
        data = t._data
        if np.ndim(data) == 0:
            value = Literal(data)
        else:
            value = self.new_var(ShapedArray(data.shape, data.dtype))
            self.graph.consts[value] = data
        self.known.add(id(value))
        t._var = value

    def is_constant(self, value):
        return isinstance(value, Literal) or value in self.graph.consts

    def constant_value(self, value):
        return value.value if isinstance(value, Literal) else self.graph.consts[value]

    def note_cell(self, cell):
        """A Cell ran during this capture: the graph depends on its mode and attributes."""
        note_captured(cell)
        self.uses_cells = True

    # ---- primitive calls -------------------------------------------------------------
    def record(self, prim, args, params):
        inputs = [self.value_of(a) for a in args]
        source = state.source_override or source_info(3)
        self.last_source = source
        if not prim.effect and not prim.random and all(self.is_constant(v) for v in inputs):
            return self._fold(prim, inputs, params, source)
        datas = self._compute(prim, args, params, source) if self.concrete else None
        try:
            out_avals = prim.abstract_eval([v.aval for v in inputs], params)
        except (ValueError, TypeError, IndexError) as exc:
            raise type(exc)(f"{source}: {exc}" if source else str(exc)) from None
        if datas is not None:
            got = [ShapedArray(np.shape(d), d.dtype) for d in datas]
            if got != out_avals:
                raise RuntimeError(f"internal error: the shape rule of {prim.name} says "
                                   f"{out_avals} but its kernel returned {got}")
        outputs = [self.new_var(a) for a in out_avals]
        self.graph.nodes.append(Node(prim, inputs, params, outputs, source))
        if datas is None:
            tracers = [make_tracer(v) for v in outputs]
        else:
            tracers = [make_tracer(v, d) for v, d in zip(outputs, datas)]
        return tuple(tracers) if prim.multiple_results else tracers[0]

    def _compute(self, prim, args, params, source):
        try:
            out = prim.impl(*[a._data for a in args], **params)
        except Exception as exc:
            error = explain_failure(prim, args, params, exc)
            if source is not None and isinstance(error, (ValueError, TypeError, IndexError)):
                error = type(error)(f"{source}: {error}")
            raise error from None
        return list(out) if prim.multiple_results else [out]

    def _fold(self, prim, inputs, params, source):
        """All inputs known: compute now (constant folding of Python-level values)."""
        arrays = [self.constant_value(v) for v in inputs]
        try:
            out = prim.impl(*arrays, **params)
        except Exception as exc:
            fake = [Tensor._wrap(a) for a in arrays]
            error = explain_failure(prim, fake, params, exc)
            raise type(error)(f"{source}: {error}" if source else str(error)) from None
        outs = list(out) if prim.multiple_results else [out]
        results = []
        for o in outs:
            t = Tensor._wrap(np.asarray(o))
            self.constant(t)
            results.append(make_tracer(t._var, t._data))
        return tuple(results) if prim.multiple_results else results[0]

    # ---- effects ---------------------------------------------------------------------
    def assign(self, target, value):
        new = self.value_of(value)
        var = target._var
        if var is not None and id(var) in self.known:
            target._var = new                     # a graph-local tensor: just rebind
            target._data = value._data
            return
        if var is not None:
            raise CaptureError("in-place update of a tensor from another graph capture")
        if id(target) not in self.ref_by_id:
            self._lift(target)
        ref = self.ref_by_id[id(target)]
        self.ref_current[id(target)] = new
        self.final_assign[ref] = new
        if self.concrete:
            target._data = value._data            # the traced call is a real call

    def concretize(self, t, why):
        value = self.value_of(t)
        if self.is_constant(value):
            return self.constant_value(value)
        if not self.concrete:
            raise ConcretizationError(why, source_info(3))
        data = t._data
        if data is None:
            raise ConcretizationError(why, source_info(3))
        source = source_info(3)
        reason = f"{why} at {source}" if source else why
        index = len(self.guards)
        self.guards.append((reason, source))
        self.graph.nodes.append(Node(effects.guard_p, [value],
                                     dict(expected=effects.GuardValue(data), index=index,
                                          reason=reason), [], source))
        return data

    # ---- graph loops from Python step functions (ops.scan / ops.while_loop) ------------
    def functional_scan(self, step, init, xs, length, reverse):
        from .loop_builders import build_scan
        return build_scan(self, step, init, xs, length, reverse)

    def functional_while(self, cond, body, init):
        from .loop_builders import build_while
        return build_while(self, cond, body, init)

    def restore_refs(self):
        """Undo the in-place updates a capture made to external tensors."""
        for ref in self.final_assign:
            ref.tensor._data = self.initial_data[id(ref.tensor)]

    # ---- finishing -------------------------------------------------------------------
    def finish(self, output_tensors):
        """Set the graph's outputs and append the write-backs of assigned refs."""
        for ref, value in self.final_assign.items():
            if value is not ref.var:
                self.graph.nodes.append(Node(effects.assign_p, [ref.var, value], {}, []))
        self.graph.outputs = [self.value_of(t) for t in output_tensors]
        return self.graph


@contextlib.contextmanager
def capture_scope(capture):
    previous = state.capture
    state.capture = capture
    try:
        yield capture
    finally:
        state.capture = previous
