"""ast capture: the function's source is converted (source to source) so that control
flow on tensor values becomes graph control flow, then run abstractly into a graph.

    source.py     getting and parsing the source of a function
    transform.py  the AST rewrite (lowering of break/continue/return, helpers for control flow)
    runtime.py    the helpers the converted code calls (``_tj.if_stmt`` ...)
    build.py      building ``cond`` / ``while_loop`` nodes from branch / body functions
    convert.py    converting functions (cached by code object) and calls inside graphs
    capture.py    the driver: statement by statement into one graph, or a program
    fallback.py   programs of graphs and Python statements (``fullgraph=False``)
"""
from .errors import JitSyntaxError, SourceUnavailableError, Unsupported
from .capture import capture_ast

__all__ = ["JitSyntaxError", "SourceUnavailableError", "Unsupported", "capture_ast"]
