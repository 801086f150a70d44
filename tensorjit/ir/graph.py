"""The IR: a typed SSA graph.

    Graph   inputs (Vars), refs (Vars standing for tensors read at call time, e.g.
            Parameters), consts (Vars bound to arrays), nodes in program order, outputs.
    Node    one primitive application: prim, inputs (Var or Literal), params, outputs.
    Var     an SSA value with an abstract value (shape, dtype).
    Literal a scalar constant written inline.

Control flow is structured: ``cond`` and ``while_loop`` nodes hold closed sub-graphs in
their params. Side effects are explicit nodes (``assign`` to a ref, ``print``, ``guard``)
that passes never remove or reorder across one another.
"""
import itertools

import numpy as np

from ..aval import ShapedArray

_var_ids = itertools.count()


class Var:
    __slots__ = ("aval", "id", "hint")

    def __init__(self, aval, hint=None):
        self.aval = aval
        self.id = next(_var_ids)
        self.hint = hint        # a readable name (argument or parameter name), if any

    def __repr__(self):
        return f"Var({self.id}, {self.aval})"


class Literal:
    """A 0-d constant written inline in the text form and the generated code."""
    __slots__ = ("value", "aval")

    def __init__(self, value):
        value = np.asarray(value)
        self.value = value
        self.aval = ShapedArray(value.shape, value.dtype)

    def __repr__(self):
        return f"Literal({self.value!r})"


class SourceInfo:
    """Where in the user's program a node came from."""
    __slots__ = ("filename", "lineno", "function")

    def __init__(self, filename, lineno, function):
        self.filename, self.lineno, self.function = filename, lineno, function

    def __str__(self):
        return f"{self.filename}:{self.lineno} ({self.function})"


class Node:
    __slots__ = ("prim", "inputs", "params", "outputs", "source")

    def __init__(self, prim, inputs, params, outputs, source=None):
        self.prim = prim
        self.inputs = list(inputs)
        self.params = dict(params)
        self.outputs = list(outputs)
        self.source = source

    def __repr__(self):
        return f"Node({self.prim.name}, {len(self.inputs)} in, {len(self.outputs)} out)"


class Ref:
    """A tensor object the graph reads (and may assign) when it runs."""
    __slots__ = ("var", "tensor", "name")

    def __init__(self, var, tensor, name):
        self.var, self.tensor, self.name = var, tensor, name


class Graph:
    def __init__(self, name="graph"):
        self.name = name
        self.inputs = []      # [Var]
        self.refs = []        # [Ref]
        self.consts = {}      # Var -> ndarray
        self.nodes = []       # [Node]
        self.outputs = []     # [Var | Literal]

    def copy(self):
        """A copy passes can rewrite without touching this graph (the values are shared:
        passes replace them, never change them); sub-graphs in params are copied too."""
        other = Graph(self.name)
        other.inputs, other.refs = list(self.inputs), list(self.refs)
        other.consts, other.outputs = dict(self.consts), list(self.outputs)
        other.nodes = [Node(n.prim, n.inputs, {k: _copied(v) for k, v in n.params.items()},
                            n.outputs, n.source) for n in self.nodes]
        return other

    def all_vars_defined(self):
        defined = set(self.inputs) | {r.var for r in self.refs} | set(self.consts)
        for node in self.nodes:
            defined.update(node.outputs)
        return defined

    def subgraphs(self, node):
        return [p for p in node.params.values() if isinstance(p, Graph)] + [
            g for p in node.params.values() if isinstance(p, tuple) for g in p
            if isinstance(g, Graph)]

    def free_vars(self):
        """Values the nodes use that the graph does not define (an open sub-graph's
        captures from the graph around it)."""
        defined = set(self.inputs) | {r.var for r in self.refs} | set(self.consts)
        free = set()
        for node in self.nodes:
            for v in node.inputs:
                if not isinstance(v, Literal) and v not in defined:
                    free.add(v)
            defined.update(node.outputs)
        return free

    # ---- uses and producers ----------------------------------------------------------
    def producers(self):
        """{value: the node computing it}."""
        return {o: node for node in self.nodes for o in node.outputs}

    def users(self):
        """{value: [nodes using it]} -- as an operand, or from inside a node's sub-graph."""
        users = {}
        for node in self.nodes:
            for v in _values_used(self, node):
                users.setdefault(v, []).append(node)
        return users

    def use_counts(self):
        """{value: number of uses}, graph outputs included."""
        counts = {}
        for node in self.nodes:
            for v in node.inputs:
                if not isinstance(v, Literal):
                    counts[v] = counts.get(v, 0) + 1
            for sub in self.subgraphs(node):
                for v in sub.free_vars():
                    counts[v] = counts.get(v, 0) + 1
        for v in self.outputs:
            if not isinstance(v, Literal):
                counts[v] = counts.get(v, 0) + 1
        return counts

    def last_uses(self, nodes=None):
        """{value: index in ``nodes`` (default: the graph's order) of its last use};
        graph outputs are used at ``len(nodes)``."""
        nodes = self.nodes if nodes is None else nodes
        last = {}
        for i, node in enumerate(nodes):
            for v in _values_used(self, node):
                last[v] = i
        for v in self.outputs:
            if not isinstance(v, Literal):
                last[v] = len(nodes)
        return last

    def replace_all_uses(self, renames):
        """Make every use of ``old`` a use of ``renames[old]`` (operands, graph outputs and
        open sub-graphs); values absent from ``renames`` are kept."""
        if not renames:
            return
        for node in self.nodes:
            node.inputs = [renames.get(v, v) if not isinstance(v, Literal) else v
                           for v in node.inputs]
            for sub in self.subgraphs(node):
                if sub.free_vars() & renames.keys():
                    sub.replace_all_uses(renames)
        self.outputs = [renames.get(v, v) if not isinstance(v, Literal) else v
                        for v in self.outputs]

    def count_nodes(self):
        return len(self.nodes) + sum(g.count_nodes() for n in self.nodes for g in self.subgraphs(n))

    def primitive_names(self):
        return [n.prim.name for n in self.nodes]

    def as_text(self):
        from .printer import graph_to_text
        return graph_to_text(self)

    def to_dot(self):
        from .dot import graph_to_dot
        return graph_to_dot(self)

    def __str__(self):
        return self.as_text()


def _copied(param):
    if isinstance(param, Graph):
        return param.copy()
    if isinstance(param, tuple) and param and all(isinstance(g, Graph) for g in param):
        return tuple(g.copy() for g in param)
    return param


def _values_used(graph, node):
    """The values a node reads: its operands and what its sub-graphs capture."""
    used = [v for v in node.inputs if not isinstance(v, Literal)]
    for sub in graph.subgraphs(node):
        used.extend(sub.free_vars())
    return used
