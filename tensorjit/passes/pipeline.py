"""The pass pipeline for each ``jit_level``.

O0: inlining, constant folding of Python-level values, dead code elimination.
O1: adds folding of tensor constants (and, as they land, CSE, algebraic simplification,
    fusion and buffer reuse)."""
from ..ir.verify import verify
from .inline import inline_calls
from .fold_constants import fold_constants
from .dce import eliminate_dead_code

LEVELS = ("O0", "O1")


def optimize(graph, level="O0"):
    """Optimize ``graph`` in place; returns {pass name: number of changes}."""
    report = {"inline": inline_calls(graph),
              "fold_constants": fold_constants(graph, tensors=level == "O1"),
              "dce": eliminate_dead_code(graph)}
    verify(graph)
    return report
