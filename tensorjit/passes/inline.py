"""Inlining: replace ``call`` nodes by the body of the graph they call."""
from ..ir.graph import Literal, Node, Var


def inline_calls(graph):
    count = 0
    nodes = []
    for node in graph.nodes:
        for sub in graph.subgraphs(node):
            count += inline_calls(sub)
        if node.prim.name != "call":
            nodes.append(node)
            continue
        callee = node.params["graph"]
        count += 1 + inline_calls(callee)
        mapping = dict(zip(callee.inputs, node.inputs))
        for ref in callee.refs:           # callee refs are passed as the trailing inputs
            mapping.setdefault(ref.var, ref.var)
        for var, value in callee.consts.items():
            new = Var(var.aval)
            graph.consts[new] = value
            mapping[var] = new

        def sub_value(v):
            return v if isinstance(v, Literal) else mapping[v]

        for inner in callee.nodes:
            outs = [Var(o.aval, o.hint) for o in inner.outputs]
            mapping.update(zip(inner.outputs, outs))
            nodes.append(Node(inner.prim, [sub_value(v) for v in inner.inputs],
                              inner.params, outs, inner.source))
        results = [sub_value(v) for v in callee.outputs]
        _rename_uses(graph, dict(zip(node.outputs, results)))
    graph.nodes = nodes
    return count


def _rename_uses(graph, renames):
    for node in graph.nodes:
        node.inputs = [renames.get(v, v) if not isinstance(v, Literal) else v for v in node.inputs]
    graph.outputs = [renames.get(v, v) if not isinstance(v, Literal) else v for v in graph.outputs]
