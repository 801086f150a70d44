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
    (collectives.py).
Export asks for a ``portable`` graph: the same passes without fusion and buffer reuse."""
from .. import timeline
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


class PassFailure(RuntimeError):
    """A pass raised on a graph that eager mode runs: a compiler bug, named by its pass
    (the jit layer falls back to a lower level, or eager mode)."""

    def __init__(self, stage, error):
        super().__init__(f"{stage}: {type(error).__name__}: {error}")
        self.stage, self.error = stage, error


def optimize(graph, level="O0", options=None, portable=False):
    """Optimize ``graph`` in place; returns {pass name: number of changes}. ``portable``
    (export) leaves out what ties the graph to this backend: fused kernels and their
    buffer reuse."""
    options = options or {}
    report = {}

    def run(name, pass_fn, *args, counted=True):
        with timeline.span(name, "pass"):
            try:
                changes = pass_fn(graph, *args)
            except Exception as exc:
                raise PassFailure(name, exc) from exc
        if counted:
            report[name] = report.get(name, 0) + changes

    run("all_reduce_buckets", bucket_all_reduces)
    run("fold_constants", fold_constants, level == "O1")
    if level == "O1":
        run("decompose", decompose)
        run("simplify", simplify)
        run("cse", eliminate_common_subexpressions)
        run("dce", eliminate_dead_code)
        run("fold_batchnorm", fold_batchnorm)
        run("simplify", simplify)
        if not portable:
            run("fusion", fuse)
    run("dce", eliminate_dead_code)
    run("schedule", schedule, options.get("exec_order"), counted=False)
    run("all_reduce_overlap", overlap_all_reduces)
    if level == "O1" and not portable:
        run("buffer_reuse", reuse_buffers)
    run("verify", verify, counted=False)
    graph.pass_report = report
    return report
