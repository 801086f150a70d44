"""The one rewrite engine: rule lists run over a graph to a fixed point.

A rule looks at one node (and, through the context, the nodes producing its operands and
how often values are used) and returns None (no match) or what the node becomes:

    Same(value)              its result is an existing value (``x + 0 -> x``)
    Make(prim, inputs, params)
                             one node of another primitive, computing the same results
    Replace(nodes, outputs)  several new nodes; ``outputs`` stand for the node's results

Rules are registered by primitive name (``"*"``: every primitive) and tried in order;
the first that matches wins. Replaced values are renamed in every later use (``Graph.
replace_all_uses``). New nodes are made with a ``Builder``: ``b.exp(x)``, ``b.reduce_sum(x,
axes=(1,), keepdims=True)``, ``b.lit(0.5, dtype)``; their results are typed by the
primitives' shape rules. Effects are never rewritten.
"""
import numpy as np

from .graph import Literal, Node, Var


class Same:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Make:
    __slots__ = ("prim", "inputs", "params")

    def __init__(self, prim, inputs, params):
        self.prim, self.inputs, self.params = prim, inputs, params


class Replace:
    __slots__ = ("nodes", "outputs")

    def __init__(self, nodes, outputs):
        self.nodes, self.outputs = nodes, outputs


class Builder:
    """Makes nodes of registered primitives: ``b.mul(x, y)`` returns the new value (a list
    of values for primitives with several results)."""

    def __init__(self, registry, source=None):
        self.registry = registry
        self.source = source
        self.nodes = []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        prim = self.registry[name]

        def make(*inputs, **params):
            avals = prim.abstract_eval([v.aval for v in inputs], params)
            outputs = [Var(aval) for aval in avals]
            self.nodes.append(Node(prim, inputs, params, outputs, self.source))
            return outputs if prim.multiple_results else outputs[0]
        return make

    @staticmethod
    def lit(value, dtype):
        return Literal(np.asarray(value, dtype=dtype))


class Context:
    """What rules may ask about the graph being rewritten."""

    def __init__(self, graph, registry):
        self.graph = graph
        self.registry = registry
        self.producers = {}
        self.counts = graph.use_counts()

    def producer(self, value):
        return None if isinstance(value, Literal) else self.producers.get(value)

    def constant(self, value):
        return None if isinstance(value, Literal) else self.graph.consts.get(value)

    def use_count(self, value):
        return self.counts.get(value, 0)

    def builder(self, node):
        return Builder(self.registry, node.source)


def rewrite(graph, rules, registry, max_rounds=4, into_subgraphs=True):
    """Apply ``rules`` ({primitive name or "*": [rule]}) to ``graph`` until nothing
    changes (at most ``max_rounds`` rounds); returns the number of rewrites."""
    total = 0
    if into_subgraphs:
        for node in graph.nodes:
            for sub in graph.subgraphs(node):
                total += rewrite(sub, rules, registry, max_rounds, into_subgraphs)
    generic = rules.get("*", [])
    for _ in range(max_rounds):
        changed = _one_round(graph, rules, generic, registry)
        total += changed
        if not changed:
            break
    return total


def _one_round(graph, rules, generic, registry):
    ctx = Context(graph, registry)
    renames = {}
    nodes = []
    changed = 0
    for node in graph.nodes:
        if renames:
            node.inputs = [renames.get(v, v) if not isinstance(v, Literal) else v
                           for v in node.inputs]
        result = None
        if not node.prim.effect:
            for rule in rules.get(node.prim.name, []) + generic:
                result = rule(node, ctx)
                if result is not None:
                    break
        if result is None:
            _keep(ctx, nodes, node)
            continue
        changed += 1
        if isinstance(result, Same):
            _rename(ctx, renames, node.outputs[0], result.value)
        elif isinstance(result, Make):
            _keep(ctx, nodes, Node(result.prim, result.inputs, result.params, node.outputs,
                                   node.source))
        else:
            for new in result.nodes:
                _keep(ctx, nodes, new)
            for old, new in zip(node.outputs, result.outputs):
                _rename(ctx, renames, old, new)
    graph.nodes = nodes
    graph.replace_all_uses(renames)
    return changed


def _keep(ctx, nodes, node):
    for o in node.outputs:
        ctx.producers[o] = node
    nodes.append(node)


def _rename(ctx, renames, old, new):
    new = renames.get(new, new) if not isinstance(new, Literal) else new
    renames[old] = new
    if not isinstance(new, Literal):
        ctx.counts[new] = ctx.counts.get(new, 0) + ctx.counts.pop(old, 0)
