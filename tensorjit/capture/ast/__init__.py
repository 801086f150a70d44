"""ast capture: the function's source is converted (source to source) so that control
flow on tensor values becomes graph control flow, then run abstractly into a graph.

    source.py        getting and parsing the source of a function
    transform.py     the AST rewrite of whole functions, made of:
      syntax.py        node builders, reserved names, scope analysis
      lower_jumps.py   break / continue / nested return -> flags
      to_helpers.py    control flow and value-dependent expressions -> helper calls
    runtime.py       the helpers the converted code calls (``tj$.if_stmt`` ...)
    values.py        undefined locals, symbolic values, truth values while building
    conditionals.py  ``cond`` nodes from branch functions
    loops.py         ``while_loop`` nodes from loop bodies
    convert.py       converting functions (cached by code object) and calls inside graphs
    capture.py       the driver: statement by statement into one graph, or a program
    fallback.py      programs of graphs and Python statements (``fullgraph=False``)
"""
from .errors import JitSyntaxError, SourceUnavailableError, Unsupported
from .capture import capture_ast

__all__ = ["JitSyntaxError", "SourceUnavailableError", "Unsupported", "capture_ast"]
