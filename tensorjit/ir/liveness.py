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


def nbytes(var):
    aval = var.aval
    size = 1
    for d in aval.shape:
        size *= d
    return size * aval.dtype.itemsize


def memory_curve(graph, nodes=None):
    """Estimated bytes of intermediates alive while each of ``nodes`` runs (in this order):
    its results are allocated, buffers whose last use it is are freed after it. Results of
    ``view`` primitives live in their first operand's buffer; inputs, parameters and
    constants are not counted (they exist before and after the call)."""
    nodes = graph.nodes if nodes is None else nodes
    root = {}                      # var -> buffer owner var
    for node in nodes:
        for o in node.outputs:
            if not allocates(node) and node.inputs and not isinstance(node.inputs[0], Literal):
                root[o] = root.get(node.inputs[0], node.inputs[0])
            else:
                root[o] = o
    last_use = {}
    for value, index in graph.last_uses(nodes).items():
        owner = root.get(value, value)
        last_use[owner] = max(last_use.get(owner, -1), index)
    frees = {}
    for owner, i in last_use.items():
        frees.setdefault(i, []).append(owner)
    live, curve = 0, []
    for i, node in enumerate(nodes):
        for o in node.outputs:
            if root.get(o) is o:
                live += nbytes(o)
        curve.append(live)
        for owner in frees.get(i, ()):
            if root.get(owner) is owner:        # an intermediate we allocated
                live -= nbytes(owner)
        for o in node.outputs:                  # results nobody uses die at once
            if root.get(o) is o and o not in last_use:
                live -= nbytes(o)
    return curve
