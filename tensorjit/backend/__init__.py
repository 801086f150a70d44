"""Backends turn an optimized graph into a callable.

``ms_backend`` (kernel by kernel) and ``GE`` (whole graph as one unit) share the Python
code generator; see docs/architecture.md for what each means here."""
from .kernel_by_kernel import compile_graph, Executable

BACKENDS = ("ms_backend", "GE")


def compile(graph, backend="ms_backend", name="graph_fn", input_names=None, options=None):
    if backend == "GE":
        from .ge import compile_ge
        return compile_ge(graph, name=name, input_names=input_names)
    return compile_graph(graph, name=name, backend=backend, input_names=input_names)
