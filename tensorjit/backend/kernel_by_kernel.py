"""The kernel-by-kernel backend (``backend="ms_backend"``): the graph as straight-line
Python calling one NumPy kernel per node, compiled once; nothing is interpreted per node
at call time."""
from .. import timeline
from .codegen import generate, is_shape_generic
from .profiled import profiled_function


class Executable:
    """A compiled graph: ``fn(*input_arrays) -> tuple of output arrays``."""

    def __init__(self, graph, code, fn, source, backend):
        self.graph = graph
        self.code = code            # GraphCode, for inlining into a dispatcher
        self.fn = fn
        self.source = source
        self.backend = backend
        self.shape_generic = is_shape_generic(graph)
        self.name = fn.__name__
        self._profiled = None

    def function(self):
        """``fn``, or while a profiler records, the same code timing each kernel."""
        if timeline.recorder is None:
            return self.fn
        if self._profiled is None:
            with timeline.span("codegen (timed copy for the profiler)", "compile"):
                self._profiled = profiled_function(self, self.name)
        return self._profiled


def compile_graph(graph, name="graph_fn", backend="ms_backend", input_names=None):
    code = generate(graph, input_names=input_names)
    fn, source = code.function(name)
    return Executable(graph, code, fn, source, backend)
