"""Where each value of a graph lives and when it dies: what buffer reuse, the peak-memory
estimate and the GE backend's in-place ufuncs need.

Each primitive declares where its results live (``Primitive.aliasing``): new memory the
graph owns (``fresh``), its first operand's memory (``view``), either (``may alias``), or
no results (``no output``). From that, every value has an *owner*, the value whose buffer
it lives in. A buffer may be overwritten only if the graph allocated it and nothing that
shares it is read later; these are never overwritten (*pinned*): inputs, parameters,
constants, graph outputs, operands of effects (a parameter write-back reads its value
when the graph ends), and buffers shared in ways the analysis cannot follow (results that
may alias several operands).
"""
from .graph import Literal

FRESH, VIEW, MAY_ALIAS = "fresh", "view", "may alias"


class Ownership:
    def __init__(self, graph, nodes=None):
        nodes = graph.nodes if nodes is None else nodes
        self.owner = {}            # value -> owner value (the value whose buffer it uses)
        self.fresh = set()         # owners whose buffer this graph allocated
        self.pinned = set(graph.inputs) | {r.var for r in graph.refs} | set(graph.consts)
        for node in nodes:
            aliasing = node.prim.aliasing
            sources = [self.owner_of(v) for v in node.inputs if not isinstance(v, Literal)]
            for o in node.outputs:
                if aliasing == FRESH:
                    self.owner[o] = o
                    self.fresh.add(o)
                elif len(sources) == 1:
                    self.owner[o] = sources[0]
                else:
                    self.owner[o] = o       # unknown sharing: neither may be overwritten
                    self.pinned.update(sources)
            if node.prim.effect:
                self.pinned.update(self.owner_of(v) for v in node.inputs
                                   if not isinstance(v, Literal))
        for v in graph.outputs:
            if not isinstance(v, Literal):
                self.pinned.add(self.owner_of(v))
        self.last_use = {}         # owner -> index of the last node reading its buffer
        for value, index in graph.last_uses(nodes).items():
            root = self.owner_of(value)
            self.last_use[root] = max(self.last_use.get(root, -1), index)

    def owner_of(self, value):
        return self.owner.get(value, value)

    def can_overwrite(self, value, at):
        """May node ``at`` write its result into ``value``'s buffer (``value`` dies there)?"""
        return (self.owner_of(value) is value and value in self.fresh
                and value not in self.pinned and self.last_use.get(value) == at)


def allocates(node):
    """Does running ``node`` allocate memory for its results (for the memory estimate)?"""
    return node.prim.aliasing in (FRESH, MAY_ALIAS)
