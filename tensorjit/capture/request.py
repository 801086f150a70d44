"""The boundary between the jit layer and the captures: what a capture is asked to do
(``CaptureRequest``) and what it returns (``Captured`` with its ``CaptureInfo``).

Captures never import the jit layer. A request names the callable, its options and how to
compile a graph; the jit layer turns a ``Captured`` into a cache entry.
"""
import weakref

from .. import pytree

NOT_RUN = object()      # Captured.result when the capture did not run the call itself


class CaptureRequest:
    """What a capture needs about the function being jitted.

    ``compile_graph(graph, name=None)`` optimizes and compiles one graph with the jit
    options; it holds no reference to the function (a compiled program may outlive it).
    ``note_recapture(reason)`` reports a capture that happens after the first one (a new
    branch outcome or failed guards in bytecode mode), for ``explain``; it returns an
    object whose ``seconds`` the capture sets when done."""

    def __init__(self, target, name, options, fn_key, parameter_names, compile_graph,
                 note_recapture=None):
        self.target = target                # the callable to capture (function, method, Cell)
        self.name = name
        self.options = options              # capture_mode, jit_level, backend, fullgraph, ...
        self.fn_key = fn_key                # the cache key of the function (pytree.Identity-safe)
        self.parameter_names = parameter_names
        self.compile_graph = compile_graph
        self._note = weakref.WeakMethod(note_recapture) if note_recapture else None
        # Python state this function was seen to change (guard keys, ast): later captures
        # run the statements reading it as Python from the start
        self.python_written = set()

    @property
    def fullgraph(self):
        return self.options.fullgraph

    def rebuild_call(self, struct, leaves):
        """(args, kwargs) of a call of structure ``struct`` with tensor ``leaves``."""
        return pytree.rebuild_call(struct, leaves)

    def note_recapture(self, reason):
        note = self._note() if self._note is not None else None
        return note(reason) if note is not None else _Unrecorded()

    def leaf_hints(self, struct):
        """Readable names for the flat inputs: parameter names where possible."""
        names = self.parameter_names
        hints = []
        for i, s in enumerate(struct[0]):
            hints += _hints(names[i] if i < len(names) else f"arg{i}", s)
        for key, s in zip(struct[1], struct[2]):
            hints += _hints(key, s)
        return hints


class _Unrecorded:
    seconds = 0.0


def _hints(base, struct):
    count = pytree.count_tensors(struct)
    return [base] if count == 1 and struct == pytree.TENSOR else [f"{base}_{k}" for k in range(count)]


class CaptureInfo:
    """What a capture found out, for guards, write-backs and ``explain``."""

    def __init__(self, mode):
        self.mode = mode
        self.guards = []            # human-readable guard descriptions
        self.breaks = []            # graph breaks (bytecode): GraphBreak(kind, reason, source, hint)
        self.fallbacks = []         # statements run as Python (ast): (construct, source)
        self.input_writes = []      # input positions written in place by the function
        self.graph_count = 1
        self.shape_dependent = False
        self.uses_cells = False
        self.python_guards = []     # Guards on Python values, checked before the graph runs


class Captured:
    """A capture's product: the (first) graph, the output structure, what was learnt
    (CaptureInfo), the real result if the capture was the call itself (trace, bytecode) or
    ``NOT_RUN``, and for multi-graph captures a ``program(leaves) -> result`` running
    graphs and Python."""

    def __init__(self, graph, out_struct, info, result, program=None, executable=None):
        self.graph, self.out_struct, self.info, self.result = graph, out_struct, info, result
        self.program = program
        self.executable = executable      # when the capture already compiled the graph
