"""The pass pipeline for each ``jit_level``.

O0: constant folding of Python-level values, dead code elimination.
O1: adds folding of tensor constants, decomposition of composite primitives into fusible
    pieces (decompose.py), algebraic simplification (simplify.py), common subexpression
    elimination (cse.py), folding inference BatchNorm into the convolution before it
    (fold_batchnorm.py), fusion of elementwise chains and elementwise producers into
    reductions into native kernels (fusion.py, when Numba is installed) and buffer reuse
    for fused kernels (buffers.py).
Both: ``exec_order`` ("bfs" | "dfs") reorders the graph (schedule.py), which also records
    the estimated peak memory of the final order in ``graph.memory``; all-reduces across
    ranks are bucketed first and split into non-blocking start / wait pairs last
    (collectives.py)."""
from ..ir.verify import verify
from .fold_constants import fold_constants
from .dce import eliminate_dead_code
from .decompose import decompose
from .simplify import simplify
from .cse import eliminate_common_subexpressions
from .fold_batchnorm import fold_batchnorm
from .fusion import fuse
from .buffers import reuse_buffers
from .schedule import schedule
from .collectives import bucket_all_reduces, overlap_all_reduces

LEVELS = ("O0", "O1")


def optimize(graph, level="O0", options=None):
    """Optimize ``graph`` in place; returns {pass name: number of changes}."""
    options = options or {}
    report = {"all_reduce_buckets": bucket_all_reduces(graph)}
    report["fold_constants"] = fold_constants(graph, tensors=level == "O1")
    if level == "O1":
        report["decompose"] = decompose(graph)
        report["simplify"] = simplify(graph)
        report["cse"] = eliminate_common_subexpressions(graph)
        report["dce"] = eliminate_dead_code(graph)
        report["fold_batchnorm"] = fold_batchnorm(graph)
        report["simplify"] += simplify(graph)
        report["fusion"] = fuse(graph)
    report["dce"] = report.get("dce", 0) + eliminate_dead_code(graph)
    schedule(graph, options.get("exec_order"))
    report["all_reduce_overlap"] = overlap_all_reduces(graph)
    if level == "O1":
        report["buffer_reuse"] = reuse_buffers(graph)
    verify(graph)
    graph.pass_report = report
    return report
