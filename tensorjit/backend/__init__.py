"""Backends turn an optimized graph into a callable.

``ms_backend`` (kernel by kernel) and ``GE`` (whole graph as one unit) share the Python
code generator (codegen.py); fused groups run as native kernels (fused.py, numba/). See
docs/architecture.md for what each means here."""
from .kernel_by_kernel import compile_graph, Executable  # noqa: F401
from .ge import compile_ge
from .interpret import InterpretedGraph  # noqa: F401
from . import fused  # noqa: F401  (registers the fused primitive)

BACKENDS = ("ms_backend", "GE")


def kernel_sources(graph):
    """The source of each fused kernel ``graph`` runs, in order (Numba source, or the
    NumPy code of a group that runs without Numba)."""
    sources = []
    for node in graph.nodes:
        if node.prim.name == "fused":
            sources.append(fused.kernel_for(node.params["graph"]).source)
            continue
        for sub in graph.subgraphs(node):
            sources += kernel_sources(sub)
    return sources


def compile(graph, backend="ms_backend", name="graph_fn", input_names=None, options=None):
    if backend == "GE":
        return compile_ge(graph, name=name, input_names=input_names)
    return compile_graph(graph, name=name, backend=backend, input_names=input_names)
