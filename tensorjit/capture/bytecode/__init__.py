"""Bytecode capture: symbolic execution of CPython bytecode with graph breaks.

``capture`` returns, for the first call's input signature, either one graph (the common
case: nothing in the function needed Python at run time) or a ``Program`` of graph
segments joined by Python calls and run-time decisions (see program.py)."""
from ... import pytree
from ...ir.graph import Graph
from .driver import Driver, GraphBreakError, top_level_unsupported, python_function
from .program import Return, Action, Branch, Interpret
from .values import TSlot, TConst, TSeq, TDict, TNode
from .versions import check_version
from ..request import Captured, CaptureInfo, NOT_RUN
from ..breaks import GraphBreak, UNSUPPORTED_SYNTAX
from ..user_code import is_internal_module


def capture(request, struct, leaves, run):
    check_version()
    if _is_tensorjit_code(request.target):
        # tensorjit's own layers (nn.LSTM, a loaded GraphCell): captures call such code
        # directly and it records primitives, at the top level as when a user's function
        # calls it (user_code.py)
        from ..trace import capture as trace_capture
        return trace_capture(request, struct, leaves, run)
    problem = top_level_unsupported(request.target)
    if problem is not None:
        return _native(request, struct, leaves, run, *problem)
    driver = Driver(request)
    program, result = driver.start(struct, leaves)
    single = _single_graph(program)
    if single is not None:
        alternative, out_struct = single
        info = CaptureInfo("bytecode")
        info.shape_dependent = alternative.shape_dependent
        info.uses_cells = alternative.uses_cells
        info.guards = list(alternative.graph_guards)   # the fast path must catch them
        return Captured(alternative.graph, out_struct, info, result,
                        executable=alternative.executable)
    first = next((a.graph for a in program.last_path if a.graph is not None), Graph(
        request.name))
    return Captured(first, None, BytecodeInfo(program), result, program=program)


class BytecodeInfo:
    """CaptureInfo for a program: what the most recent call went through."""

    def __init__(self, program):
        self.mode = "bytecode"
        self.program = program
        self.input_writes = []
        self.shape_dependent = True
        self.fallbacks = []

    @property
    def uses_cells(self):
        return self.program.uses_cells

    @property
    def graph_count(self):
        return sum(1 for a in self.program.last_path if a.executable is not None)

    @property
    def breaks(self):
        found = []
        for alternative in self.program.last_path:
            term = alternative.terminator
            if isinstance(term, (Action, Branch, Interpret)):
                found.append(GraphBreak(term.reason, term.source, term.kind))
        return found

    @property
    def guards(self):
        return [g.description for a in self.program.last_path for g in a.guards]


def _is_tensorjit_code(target):
    try:
        func, _ = python_function(target, [])
    except TypeError:
        return False
    return getattr(func, "__module__", None) is not None and is_internal_module(func.__module__)


def _native(request, struct, leaves, run, reason, location):
    """The top-level function cannot be interpreted: it runs as Python on every call."""
    if request.fullgraph:
        raise GraphBreakError(f"fullgraph=True: {request.name} uses {reason} "
                              f"({location}), which bytecode capture does not follow")
    target = request.target

    def program(call_leaves):
        args, kwargs = request.rebuild_call(struct, call_leaves)
        return target(*args, **kwargs)
    program.last_path = []
    info = _NativeInfo(f"{request.name} uses {reason}", location)
    result = program(leaves) if run else None
    return Captured(Graph(request.name), None, info, result if run else NOT_RUN,
                    program=program)


class _NativeInfo:
    def __init__(self, reason, location):
        self.mode = "bytecode"
        self.breaks = [GraphBreak(reason + "; the whole function runs as Python", location,
                                  UNSUPPORTED_SYNTAX)]
        self.graph_count = 0
        self.guards = []
        self.fallbacks = []
        self.input_writes = []
        self.shape_dependent = True
        self.uses_cells = False


def _single_graph(program):
    """(alternative, output structure) when the whole call is one guard-free graph."""
    root = program.root
    if len(root.alternatives) != 1:
        return None
    alternative = root.alternatives[0]
    term = alternative.terminator
    if not isinstance(term, Return) or alternative.guards or alternative.prelude or \
            alternative.write_backs or alternative.executable is None:
        return None
    order = []
    out_slot_index = {slot: i for i, slot in enumerate(alternative.outputs)}

    def structure(t):
        if isinstance(t, TSlot):
            if t.slot not in out_slot_index:
                raise LookupError
            order.append(out_slot_index[t.slot])
            return pytree.TENSOR
        if isinstance(t, TConst):
            return ("static", t.value)
        if isinstance(t, TSeq) and t.kind in (tuple, list):
            return (t.kind.__name__, tuple(structure(i) for i in t.items))
        if isinstance(t, TDict):
            return ("dict", tuple(k for k, _ in t.items), tuple(structure(v) for _, v in t.items))
        if isinstance(t, TNode):
            return ("node", (t.kind, t.aux), tuple(structure(i) for i in t.items))
        raise LookupError
    try:
        out_struct = structure(term.template)
    except LookupError:
        return None
    if order != list(range(len(alternative.outputs))):
        return None
    return alternative, out_struct
