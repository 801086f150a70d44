"""Driving an ast capture: convert the jitted function, run it abstractly statement by
statement, and produce one graph -- or, when a statement cannot enter a graph and
``fullgraph=False``, a ``Program`` of graphs and Python statements (fallback.py).

The top-level function is converted into one function per top-level statement, each
taking and returning the whole environment (its variables), so a statement that fails
to capture can be split off: the statements before it form a graph, it runs as Python at
call time, and capture resumes after it with the real values.
"""
import inspect
import types

from ... import pytree
from ...nn.cell import Cell
from ...ir.graph import Literal
from ..base import Capture, CaptureError, ConcretizationError, capture_scope, source_info
from ..request import Captured, CaptureInfo, NOT_RUN
from ..breaks import GraphBreak, TENSOR_VALUE, UNSUPPORTED_SYNTAX, PYTHON_STATE
from . import convert, runtime, syntax, transform
from .values import ControlFlowError, Undefined
from .conditionals import BranchAliases, propagate_inplace, alias_condition
from .errors import JitSyntaxError, Unsupported
from .fallback import (PythonGuards, GraphSegment, FallbackStatement, Program, flatten_env)

RET, DO_RET = syntax.RET, syntax.DO_RET
_FALLBACK_ERRORS = (Unsupported, ConcretizationError, ControlFlowError)


class AstCapture(Capture):
    """The root capture of ast mode: abstract (shapes and dtypes only)."""
    concrete = False

    def __init__(self, name, guards):
        super().__init__(name)
        self.python_guards = guards
        self.format_values = []        # tensors inside f-strings (runtime.fmt)
        self._rebinds = []             # (tensor, previous _var) for rollback
        self.branch_aliases = BranchAliases()

    def value_of(self, t):
        var = t._var
        if var is not None and id(var) not in self.known:
            raise CaptureError(
                f"{source_info(3) or 'user code'}: this tensor belongs to another graph: "
                f"either it was computed inside a tensor-dependent branch or loop body and "
                f"escaped it through a list, dict or attribute (assign it to a variable "
                f"instead), or it was stored by an earlier jitted call (pass it as an "
                f"argument)")
        return super().value_of(t)

    def note_python_reads(self, fn, global_names):
        self.python_guards.note(fn, global_names)

    def python_write(self, what):
        """A statement writing Python state (a Cell's attribute) runs as Python on every
        call, as in eager mode, instead of once at capture."""
        info = source_info(3)
        raise Unsupported(f"writing the attribute {what}",
                          f"{info.filename}:{info.lineno}" if info else None,
                          "a graph cannot write Python state")

    def call_cell(self, cell, args, kwargs):
        return convert.call_cell(cell, args, kwargs)

    def assign(self, target, value):
        self._rebinds.append((target, target._var))
        super().assign(target, value)
        propagate_inplace(self, target, value)

    def propagate_inplace(self, capture, target, value):
        """(for the sub-captures of branches and loop bodies)"""
        propagate_inplace(capture, target, value)

    def mark(self):
        return (len(self.graph.nodes), dict(self.ref_current), dict(self.final_assign),
                len(self._rebinds), self.branch_aliases.snapshot())

    def rollback(self, mark):
        """Forget what a statement that is going to run as Python recorded."""
        nodes, refs, finals, rebinds, aliases = mark
        del self.graph.nodes[nodes:]
        self.ref_current, self.final_assign = refs, finals
        self.branch_aliases.restore(aliases)
        for target, var in reversed(self._rebinds[rebinds:]):
            target._var = var
        del self._rebinds[rebinds:]


def _resolve(target):
    """(function to convert statement by statement, its ``self``, the Cell) or
    (None, None, cell) when the target is called as one unit."""
    from ...nn.cell import Cell
    if isinstance(target, Cell):
        construct = type(target).construct
        if target._mixed_precision_type is None and isinstance(construct, types.FunctionType) \
                and convert.is_user_code(construct):
            return construct, target, target
        return None, None, target
    plain = lambda f: (isinstance(f, types.FunctionType) and convert.is_user_code(f)
                       and getattr(f, "_tj_jit", None) is None
                       and getattr(f, "_tj_rebuild", None) is None)
    if isinstance(target, types.MethodType) and plain(target.__func__):
        return target.__func__, target.__self__, None
    if plain(target):
        return target, None, None
    return None, None, None


def _unit_statement(target):
    def whole_call(args, kwargs, ret, do_ret):
        return args, kwargs, runtime.call(target, *args, **kwargs), True
    return whole_call


class AstBuilder:
    """Captures the segments of one compiled entry (the first when the entry is made, the
    others when a call first reaches them)."""

    def __init__(self, request, info):
        self.request = request
        self.info = info
        self.fullgraph = request.fullgraph
        self.guards = PythonGuards(request.python_written)
        target = request.target
        fn, self_obj, self.cell = _resolve(target)
        self.self_obj = self_obj
        self.function = fn
        program = None
        if fn is not None:
            try:
                program = convert.convert_program(fn)
            except transform.ConversionError as exc:
                if self.fullgraph:
                    raise JitSyntaxError(exc.construct, fn.__code__.co_filename,
                                         exc.lineno) from None
                self._whole_fallback = GraphBreak(
                    exc.construct, f"{fn.__code__.co_filename}:{exc.lineno}",
                    UNSUPPORTED_SYNTAX)
                fn = self.function = None
        if program is not None:
            self.names = program.env_names
            self.statements = program.statements(fn)
            self.lines = program.lines
            self.filename = program.filename
            self.guards.note(fn, program.global_names)
            self.signature = inspect.signature(fn)
        else:
            self.names = ("tj$args", "tj$kwargs", RET, DO_RET)
            self.statements = [_unit_statement(target)]
            code = getattr(getattr(target, "__code__", None), "co_filename", None)
            self.filename = code or "<unknown>"
            self.lines = [getattr(getattr(target, "__code__", None), "co_firstlineno", 0)]
        self.n_statements = len(self.statements)
        if self.cell is not None:
            info.uses_cells = True

    # ---- environments -----------------------------------------------------------------
    def bind(self, args, kwargs):
        if self.function is None:
            env = {"tj$args": tuple(args), "tj$kwargs": dict(kwargs)}
        else:
            if self.self_obj is not None:
                args = (self.self_obj,) + tuple(args)
            bound = self.signature.bind(*args, **kwargs)
            bound.apply_defaults()
            env = dict(bound.arguments)
        for name in self.names:
            if name not in env:
                env[name] = Undefined(name)
        env[DO_RET] = False
        return env

    def returned(self, env):
        return env.get(DO_RET) is True

    def result(self, env):
        return runtime.retval(env.get(RET))

    # ---- capturing --------------------------------------------------------------------
    def capture_initial(self, struct, leaves):
        """Capture from the first statement: ("graph", graph, out_struct, input_writes)
        when the whole call is one graph with nothing Python to check, else
        ("program", first GraphSegment)."""
        request = self.request
        capture = AstCapture(request.name, self.guards)
        tracers = [capture.input(leaf.aval, hint)
                   for leaf, hint in zip(leaves, request.leaf_hints(struct))]
        args, kwargs = request.rebuild_call(struct, tracers)
        env = self.bind(args, kwargs)
        failure = getattr(self, "_whole_fallback", None)
        stop = 0
        if failure is None:
            stop, env, failure = self._run_statements(capture, 0, env)
        if failure is None and not self.guards.has_guards():
            return ("graph",) + self._finish_single(capture, env, tracers)
        segment, _ = self._finish(capture, 0, env, tracers, stop, failure)
        return ("program", segment)

    def _finish_single(self, capture, env, tracers):
        out_leaves = []
        with capture_scope(capture):
            out_struct = pytree.flatten(self.result(env), out_leaves)
        writes = [k for k, t in enumerate(tracers) if t._var is not capture.graph.inputs[k]]
        graph = capture.finish(out_leaves + [tracers[k] for k in writes])
        _no_literal_outputs(capture)
        self._note_info(capture, None)
        self.info.input_writes = writes
        return graph, out_struct

    def continuation(self, start, struct, inputs, hints):
        """The segment after a fallback statement, for this environment."""
        from .fallback import unflatten_env
        capture = AstCapture(self.request.name, self.guards)
        tracers = [capture.input(t.aval, hint) for t, hint in zip(inputs, hints)]
        env = unflatten_env(struct, tracers, self.names)
        stop, env, failure = self._run_statements(capture, start, env)
        segment, _ = self._finish(capture, start, env, tracers, stop, failure)
        self.info.graph_count += 1
        self.info.guards = self.guards.descriptions()
        return segment

    def _run_statements(self, capture, start, env):
        names = self.names
        index = start
        with capture_scope(capture):
            if self.cell is not None:
                capture.note_cell(self.cell)
            for value in env.values():
                if isinstance(value, Cell):        # a jitted construct's ``self``
                    capture.note_cell(value)
            while index < self.n_statements and not self.returned(env):
                mark = capture.mark()
                statement = self.statements[index]
                if self.function is not None:
                    self.guards.begin_statement(self.function, statement.__code__)
                try:
                    values = statement(*[env[n] for n in names])
                    failure = self._python_state_failure(index)
                except _FALLBACK_ERRORS as exc:
                    self._undo_python_writes(getattr(exc, "state", None))
                    failure = self._describe(exc, index)
                if failure is not None:
                    capture.rollback(mark)
                    construct, location, detail, kind = failure
                    if self.fullgraph:
                        filename, _, line = location.rpartition(":")
                        raise JitSyntaxError(construct, filename, int(line) if line.isdigit()
                                             else None, detail) from None
                    return index, env, GraphBreak(construct, location, kind)
                env = dict(zip(names, values))
                index += 1
        return index, env, None

    def _python_state_failure(self, index):
        """A statement that changed Python state from outside the function (a global
        rebound, a list / dict / object changed), or read state the function changes,
        runs as Python on every call, as in eager mode: its effects at capture are undone
        and it becomes a fallback. Otherwise the state it read is guarded."""
        if self.function is None:
            return None
        guards = self.guards
        writes = self._undo_python_writes()
        what = ("changing " + writes[0]) if writes else None
        if what is None:
            read = guards.reads_written()
            if read is None:
                guards.guard_contents()
                return None
            what = f"reading {read}, which the function changes"
        return (what, f"{self.filename}:{self.lines[index]}",
                "a graph cannot change Python state", PYTHON_STATE)

    def _undo_python_writes(self, container=None):
        """Undo what the statement did to Python state at capture (it will run as Python)
        and remember it as written; returns the descriptions."""
        if self.function is None:
            return []
        guards = self.guards
        writes = guards.statement_writes()
        for key, _, undo in writes:
            undo()
            guards.written.add(key)
        if container is not None:
            guards.written.add(("contents", id(container)))
        return [description for _, description, _ in writes]

    def _describe(self, exc, index):
        location = _user_location(exc.__traceback__) or \
            f"{self.filename}:{self.lines[index]}"
        if isinstance(exc, Unsupported):
            return exc.construct, exc.location or location, exc.detail, UNSUPPORTED_SYNTAX
        if isinstance(exc, ConcretizationError):
            return (f"{exc.why} (it needs the value of a tensor, which is only known when "
                    f"the graph runs)", location, "", TENSOR_VALUE)
        return "tensor-dependent control flow", location, str(exc), TENSOR_VALUE

    def _finish(self, capture, start, env, inputs, stop, failure):
        """Compile what the capture recorded; (GraphSegment, graph)."""
        ends = failure is None
        out_names = [RET] if ends else list(self.names)
        if ends:
            env = dict(env)
            env[RET] = self.result(env)
        struct, objects, _ = flatten_env(env, out_names)
        input_index = {id(t): k for k, t in enumerate(inputs)}
        outputs, out_leaves = [], []
        for t in objects:
            k = input_index.get(id(t))
            if k is not None:
                out_leaves.append(("input", k))
            else:
                out_leaves.append(("new", len(outputs)))
                outputs.append(t)
        writes = []
        for k, tracer in enumerate(inputs):
            if tracer._var is not capture.graph.inputs[k]:
                writes.append((k, len(outputs)))
                outputs.append(tracer)
        aliases = []
        if failure is not None:     # Python runs next: it must see the same objects
            with capture_scope(capture):
                aliases = _alias_outputs(capture, objects, out_leaves, outputs)
        graph = capture.finish(outputs)
        _no_literal_outputs(capture)
        self._note_info(capture, failure)
        executable = self.request.compile_graph(graph)
        segment = GraphSegment(executable, start, stop, out_names, struct, out_leaves, writes)
        segment.aliases = aliases
        if failure is not None:
            construct, location = failure
            segment.fallback = FallbackStatement(stop, _python_statement(self.statements[stop]),
                                                 construct, location)
        return segment, graph

    def _note_info(self, capture, failure):
        info = self.info
        info.shape_dependent |= capture.shape_dependent
        info.uses_cells |= capture.uses_cells
        if failure is not None and failure not in info.fallbacks:
            info.fallbacks.append(failure)
        info.guards = self.guards.descriptions()


def _alias_outputs(capture, objects, out_leaves, outputs):
    """[(leaf, leaf, output index of the condition, value)]: environment tensors that are
    one Python object when tensor ``if``s' conditions hold (``BranchAliases``, followed
    through tensors the environment no longer names: after ``z = y`` / ``if a: z = ...`` /
    ``z += 1`` / ``if b: z = ...``, the last ``z`` is ``y`` when neither condition held);
    the condition becomes a graph output. Pairs keeping the caller's tensor come first, so
    a leaf made the same as another is already the object the caller will see."""
    paired = [k for k, t in enumerate(objects) if id(t) in capture.branch_aliases.pairs]
    found = []
    for i in paired:
        for j in paired:
            if i == j or out_leaves[j][0] == "input" or \
                    (out_leaves[i][0] != "input" and j < i):
                continue          # keep the caller's tensor (or the first leaf) as the object
            same = alias_condition(capture, objects[i], objects[j])
            if same is None or same is True:
                continue
            found.append((out_leaves[i][0] != "input", i, j, same))
    aliases = []
    for _, i, j, same in sorted(found, key=lambda f: f[:3]):
        aliases.append((i, j, len(outputs), True))
        outputs.append(same)
    return aliases


def _python_statement(fn):
    """A statement run as Python at call time (GRAPH_MODE is off inside it: it is the
    PyNative part of the function)."""
    from ... import context

    def run(*values):
        with context.pynative():
            return fn(*values)
    return run


def _no_literal_outputs(capture):
    """Graph outputs that are inline literals become 0-d constants (arrays at run time)."""
    import numpy as np
    from ...aval import ShapedArray
    graph = capture.graph
    for i, value in enumerate(graph.outputs):
        if isinstance(value, Literal):
            var = capture.new_var(ShapedArray((), value.value.dtype))
            graph.consts[var] = np.asarray(value.value)
            graph.outputs[i] = var


def _user_location(tb):
    """file:line of the innermost converted (user) code in a traceback."""
    location = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if id(code) in convert.CONVERTED_CODES:
            location = f"{code.co_filename}:{tb.tb_lineno}"
        tb = tb.tb_next
    return location


def capture_ast(request, struct, leaves, run):
    """``capture_graph`` for ``capture_mode="ast"``."""
    info = CaptureInfo("ast")
    builder = AstBuilder(request, info)
    result = builder.capture_initial(struct, leaves)
    if result[0] == "graph":
        # one graph and nothing Python to check: an ordinary entry (fast path eligible)
        _, graph, out_struct = result
        return Captured(graph, out_struct, info, NOT_RUN)
    segment = result[1]
    return Captured(segment.executable.graph, None, info, NOT_RUN,
                    program=Program(builder, segment, builder.guards),
                    executable=segment.executable)
