"""Decomposition (O1): composite primitives that declare a ``decompose`` rule (softmax,
log-softmax, layer norm, batch norm, exact GELU) are rewritten into elementwise ops and keepdims
reductions, so their producers and consumers fuse with them into one kernel; reductions
without ``keepdims`` become keepdims reductions plus a reshape, for the same reason.

A rewrite is applied only where it pays: floating-point operands of at least
``fusion.MIN_ELEMENTS`` elements, and every elementwise node it makes is one a native kernel
computes fast (softmax's ``exp`` is tensorjit's own vectorized exp, ``scalar_math.py``).
"""
import math

import numpy as np

from ..ir.graph import Literal
from ..ir.rewrite import Replace, rewrite
from ..ops.primitive import PRIMITIVES
from ..backend.numba import REDUCTIONS, numba_available, supports_node
from . import fusion
_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


def _large_float(node, min_elements):
    x = node.inputs[0] if node.inputs else None
    return (x is not None and not isinstance(x, Literal) and x.aval.dtype in _FLOATS
            and math.prod(x.aval.shape) >= max(min_elements, 1))


def _declared(min_elements):
    def rule(node, ctx):
        if node.prim.decompose is None or not _large_float(node, min_elements):
            return None
        b = ctx.builder(node)
        outputs = node.prim.decompose(b, *node.inputs, **node.params)
        if outputs is None:         # not for these params
            return None
        if not all(supports_node(n) for n in b.nodes if n.prim.elementwise):
            return None
        return Replace(b.nodes, outputs)
    return rule


def _keepdims_reduction(min_elements):
    def rule(node, ctx):
        if node.params["keepdims"] or not _large_float(node, min_elements):
            return None
        b = ctx.builder(node)
        kept = getattr(b, node.prim.name)(node.inputs[0], axes=node.params["axes"],
                                          keepdims=True)
        return Replace(b.nodes, [b.reshape(kept, shape=tuple(node.outputs[0].aval.shape))])
    return rule


def decompose(graph, min_elements=None):
    """Rewrite ``graph`` in place; returns the number of rewrites. Without Numba there is
    no kernel to fuse into, so nothing is rewritten."""
    if not numba_available():
        return 0
    min_elements = fusion.MIN_ELEMENTS if min_elements is None else min_elements
    rules = {"*": [_declared(min_elements)]}
    for name in REDUCTIONS:
        rules[name] = [_keepdims_reduction(min_elements)]
    return rewrite(graph, rules, PRIMITIVES, max_rounds=1)
