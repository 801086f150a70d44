"""The loop structure of a fused sub-graph (``KernelPlan``) and which nodes a native
kernel can compute (``supports_node``).

A kernel iterates over one shape ``S``; reductions (keepdims ``reduce_sum/max/min``) run
over one set of axes ``R`` of ``S``. Every value is either per element ("elem") or
constant over ``R`` ("row"), and is computed in a stage: stage k+1 starts after the
reductions of stage k finish.
"""
import ast
import math

import numpy as np

from ...ir.graph import Literal
from ...ops import scalar
from .config import svml
from .scalars import FAST, NUMBA_SCALAR, slow_calls

FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
NATIVE_DTYPES = FLOATS + (np.dtype(np.bool_), np.dtype(np.int32), np.dtype(np.int64))
REDUCTIONS = {"reduce_sum", "reduce_max", "reduce_min"}


def _node_expression(node):
    avals = [v.aval for v in node.inputs] + [v.aval for v in node.outputs]
    if not node.prim.elementwise or node.prim.scalar is None or any(
            a.dtype not in NATIVE_DTYPES for a in avals):
        return None
    return scalar.expression(node.prim, [f"x{i}" for i in range(len(node.inputs))],
                             node.outputs[0].aval.dtype, [v.aval.dtype for v in node.inputs],
                             node.params, NUMBA_SCALAR)


def supports_node(node):
    """Can a kernel compute this elementwise node natively (and is it worth it)?"""
    expr = _node_expression(node)
    if expr is None:
        return False
    # a scalar libm call per element is ~10x slower than NumPy's loop (unless SVML)
    return svml() or not slow_calls(expr, node.outputs[0].aval.dtype)


# from this many elements a kernel of one operation beats NumPy's loop: it runs on every
# core and writes into an operand that dies there (a fresh NumPy result is several MB of
# memory first touched; measured 1M float32 products: 0.21 ms against 0.42 alone, 0.9 ms
# inside a train step)
LARGE_ELEMENTS = 1 << 18


def pays_alone(node):
    """Is a kernel for this node alone faster than its NumPy implementation? Yes when its
    scalar rule is several operations (gelu, sigmoid, softplus: NumPy makes a pass over
    memory for each), calls a function scalar_math.py computes (exp, tanh, erf: faster
    than NumPy's, and the kernel runs on every core), or the array is large."""
    expr = _node_expression(node)
    if expr is None or not supports_node(node):
        return False
    tree = ast.parse(expr, mode="eval")
    operations = sum(isinstance(n, (ast.BinOp, ast.Call, ast.IfExp, ast.Compare))
                     for n in ast.walk(tree))
    dtype = np.dtype(node.outputs[0].aval.dtype).name
    large = math.prod(node.outputs[0].aval.shape) >= LARGE_ELEMENTS and operations >= 1
    return operations >= 3 or large or any((f, dtype) in FAST for f in scalar.calls(expr))


class KernelPlan:
    """The loop structure of a fused sub-graph: iteration shape, reduced axes, where each
    value lives (per element or per row) and in which stage it is computed."""

    def __init__(self, graph):
        self.graph = graph
        shapes = [n.inputs[0].aval.shape for n in graph.nodes if n.prim.name in REDUCTIONS]
        full = [o.aval.shape for n in graph.nodes for o in n.outputs
                if n.prim.name not in REDUCTIONS]
        candidates = shapes + full
        self.shape = max(candidates, key=lambda s: (math.prod(s), len(s))) if candidates else ()
        axes = {n.params["axes"] for n in graph.nodes if n.prim.name in REDUCTIONS}
        if len(axes) > 1:
            raise ValueError("fused: reductions over different axes")
        self.reduced = tuple(sorted(next(iter(axes)))) if axes else ()
        if any(self.shape[a] == 1 for a in self.reduced):
            # every value would look per-row (constant over a size-1 axis), the reduction's
            # input too: leave such a (trivial) reduction to NumPy
            raise ValueError("fused: reduction over an axis of size 1")
        nd = len(self.shape)
        self.kept_shape = tuple(1 if i in self.reduced else d for i, d in enumerate(self.shape))
        # level of each value: "row" (constant over the reduced axes) or "elem"
        self.level = {}
        self.stage = {}
        for v in graph.inputs:
            self.level[v] = self._input_level(v.aval.shape)
            self.stage[v] = 0
        for node in graph.nodes:
            ins = [v for v in node.inputs if not isinstance(v, Literal)]
            stage = max([self.stage[v] for v in ins], default=0)
            if node.prim.name in REDUCTIONS:
                if not node.params["keepdims"] or node.inputs[0].aval.shape != self.shape:
                    raise ValueError("fused: reduction shape")
                self.level[node.outputs[0]] = "row"
                self.stage[node.outputs[0]] = stage + 1
                continue
            out = node.outputs[0]
            shape = out.aval.shape
            if shape == self.shape and (not self.reduced or any(
                    self.level[v] == "elem" for v in ins)):
                self.level[out] = "elem"
            elif self.reduced and row_shape_ok(shape, self.shape, self.reduced) and all(
                    self.level[v] == "row" for v in ins):
                self.level[out] = "row"
            elif shape == self.shape:
                self.level[out] = "elem"
            else:
                raise ValueError(f"fused: value of shape {shape} in a kernel over {self.shape}")
            self.stage[out] = stage
            for v in ins:
                if len(v.aval.shape) > nd:
                    raise ValueError("fused: input rank")
        for v in graph.inputs:
            if not broadcastable(v.aval.shape, self.shape):
                raise ValueError("fused: input does not broadcast to the kernel's shape")
        for o in graph.outputs:
            if isinstance(o, Literal) or o in graph.inputs:
                raise ValueError("fused: outputs must be computed values")
            if self.level[o] == "row" and pattern(o.aval.shape, self.kept_shape) != \
                    tuple(True for _ in self.shape) or self.level[o] == "row" and \
                    math.prod(o.aval.shape) != math.prod(self.kept_shape):
                raise ValueError("fused: per-row output of an unexpected shape")
        self.n_stages = 1 + max([self.stage[o] for o in graph.outputs
                                 if not isinstance(o, Literal)] + [0])

    def _input_level(self, shape):
        if self.reduced and row_shape_ok(shape, self.shape, self.reduced):
            return "row"
        return "elem"


def row_shape_ok(shape, full, reduced):
    """True if ``shape`` broadcast against ``full`` is constant over the reduced axes."""
    nd = len(full)
    if len(shape) > nd:
        return False
    padded = (1,) * (nd - len(shape)) + tuple(shape)
    for i, (d, f) in enumerate(zip(padded, full)):
        if d != 1 and d != f:
            return False
        if i in reduced and d != 1:
            return False
    return True


def broadcastable(shape, full):
    if len(shape) > len(full):
        return False
    padded = (1,) * (len(full) - len(shape)) + tuple(shape)
    return all(d == 1 or d == f for d, f in zip(padded, full))


def pattern(shape, full):
    """Per axis of ``full``: True where ``shape`` (right-aligned) spans the axis."""
    nd = len(full)
    padded = (1,) * (nd - len(shape)) + tuple(shape)
    return tuple(d != 1 or f == 1 for d, f in zip(padded, full))

