"""The kernel-by-kernel backend (``backend="ms_backend"``): the graph as straight-line
Python calling one NumPy kernel per node, compiled once; nothing is interpreted per node
at call time."""
from .codegen import generate, is_shape_generic


class Executable:
    """A compiled graph: ``fn(*input_arrays) -> tuple of output arrays``."""

    def __init__(self, graph, code, fn, source, backend):
        self.graph = graph
        self.code = code            # GraphCode, for inlining into a dispatcher
        self.fn = fn
        self.source = source
        self.backend = backend
        self.shape_generic = is_shape_generic(graph)


def compile_graph(graph, name="graph_fn", backend="ms_backend", input_names=None):
    code = generate(graph, input_names=input_names)
    fn, source = code.function(name)
    return Executable(graph, code, fn, source, backend)
