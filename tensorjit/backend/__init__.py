"""Backends turn an optimized graph into a callable.

``ms_backend`` (kernel by kernel) and ``GE`` (whole graph as one unit) share the Python
code generator; see docs/architecture.md for what each means here."""
from .kernel_by_kernel import compile_graph, Executable

BACKENDS = ("ms_backend", "GE")


def compile(graph, backend="ms_backend", name="graph_fn", input_names=None):
    return compile_graph(graph, name=name, backend=backend, input_names=input_names)
