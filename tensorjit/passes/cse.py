"""Common-subexpression elimination: two nodes applying the same primitive with the same
params to the same operands compute the same value; keep the first.

Effects and random primitives are never merged; nodes holding sub-graphs are merged only
when they hold the very same sub-graph objects."""
import numpy as np

from ..ir.graph import Graph, Literal


def _freeze(value):
    if isinstance(value, (Graph, np.ndarray)):
        return ("id", id(value))
    if isinstance(value, tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, list):
        return ("list",) + tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return ("dict",) + tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, float) and value != value:
        return ("nan",)
    try:
        hash(value)
    except TypeError:
        return ("id", id(value))
    return (type(value).__name__, value)


def _operand(v):
    if isinstance(v, Literal):
        return ("lit", v.aval.dtype.str, v.value.tobytes())
    return ("var", v.id)


def eliminate_common_subexpressions(graph):
    seen = {}
    renames = {}
    kept = []
    merged = 0
    for node in graph.nodes:
        node.inputs = [renames.get(v, v) if not isinstance(v, Literal) else v
                       for v in node.inputs]
        for sub in graph.subgraphs(node):
            merged += eliminate_common_subexpressions(sub)
        if node.prim.effect or node.prim.random or not node.outputs:
            kept.append(node)
            continue
        key = (node.prim.name, tuple(_operand(v) for v in node.inputs),
               _freeze(tuple(sorted(node.params.items()))))
        previous = seen.get(key)
        if previous is not None and all(a.aval == b.aval for a, b in
                                         zip(previous.outputs, node.outputs)):
            renames.update(zip(node.outputs, previous.outputs))
            merged += 1
            continue
        seen[key] = node
        kept.append(node)
    graph.nodes = kept
    graph.outputs = [renames.get(v, v) if not isinstance(v, Literal) else v
                     for v in graph.outputs]
    return merged
