"""Constant folding: evaluate nodes whose inputs are all known at compile time.

At O0 only results that are Python-level values (0-d) are folded; at O1 tensor constants
are folded too. Random and effectful primitives are never folded."""
import numpy as np

from ..aval import ShapedArray
from ..ir.graph import Literal, Var


def fold_constants(graph, tensors=False):
    known = {}                          # Var -> value
    known.update(graph.consts)
    replaced = {}
    kept = []
    folded = 0
    for node in graph.nodes:
        node.inputs = [replaced.get(v, v) if not isinstance(v, Literal) else v for v in node.inputs]
        prim = node.prim
        foldable = (not prim.effect and not prim.random and not graph.subgraphs(node)
                    and all(isinstance(v, Literal) or v in known for v in node.inputs))
        if foldable:
            values = [v.value if isinstance(v, Literal) else known[v] for v in node.inputs]
            try:
                out = prim.impl(*values, **node.params)
            except Exception:        # the program's own error: it is raised when it runs,
                kept.append(node)    # where the message names the user's line
                continue
            outs = out if prim.multiple_results else (out,)
            if tensors or all(np.ndim(o) == 0 for o in outs):
                for var, value in zip(node.outputs, outs):
                    value = np.asarray(value)
                    if value.ndim == 0:
                        replaced[var] = Literal(value)
                    else:
                        const = Var(ShapedArray(value.shape, value.dtype))
                        graph.consts[const] = value
                        known[const] = value
                        replaced[var] = const
                folded += 1
                continue
        kept.append(node)
    graph.nodes = kept
    graph.outputs = [replaced.get(v, v) if not isinstance(v, Literal) else v
                     for v in graph.outputs]
    return folded
