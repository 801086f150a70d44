"""Operator fusion (O1): elementwise chains (with broadcasting) and elementwise producers
into reductions become single ``fused`` nodes, each run by one generated native kernel
(``backend/fused.py``, ``backend/numba/``).

Groups grow in program order: a node joins the group of one of its producers if it
computes over the group's iteration shape S (elementwise over S, a reduction of S over
the group's axes R, or an elementwise op on per-row values) and joining creates no cycle
(no input reaches the group through a node outside it). Groups worth a kernel (>= 2 nodes,
or one whose kernel beats NumPy alone: ``pays_alone``; >= ``MIN_ELEMENTS`` elements) are replaced by one ``fused`` node whose ``graph`` param is
the group as a closed sub-graph. ``passes/decompose.py`` runs first, so softmax, norms and
non-keepdims reductions arrive as fusible pieces.

Runs only when Numba is available: without it the separate NumPy kernels are as good.
"""
import math

from ..ir.graph import Graph, Literal, Node, Var
from ..backend import numba as native
from ..backend.fused import fused_p
from .schedule import stable_toposort

MIN_ELEMENTS = 4096        # smaller groups stay separate NumPy calls (call overhead wins)
MAX_GROUP_NODES = 64
MAX_GROUP_INPUTS = 24
_REDUCTIONS = native.REDUCTIONS


# ---------------------------------------------------------------------------------------
# grouping

class _Group:
    __slots__ = ("id", "shape", "axes", "nodes", "values", "row", "inputs", "deps")

    def __init__(self, gid, shape, axes):
        self.id = gid
        self.shape = shape
        self.axes = axes           # None: no reduction yet
        self.nodes = []
        self.values = set()        # vars computed in the group
        self.row = set()           # per-row values (reductions and ops on them)
        self.inputs = set()
        self.deps = set()          # groups the inputs from outside depend on


def _row_ok(shape, full, axes):
    return native.row_shape_ok(shape, full, set(axes or ()))


def _bcast_ok(shape, full):
    return native.broadcastable(shape, full)


def _fusible(node):
    if node.prim.effect or node.prim.random or len(node.outputs) != 1:
        return False
    if node.prim.name in _REDUCTIONS:
        # a kernel runs its reduced axes innermost; with the last axis kept (a bias
        # gradient: the sum over rows of a (rows, features) array) each step would jump
        # a whole row ahead, so NumPy's reduction, which adds contiguous rows, is faster
        x = node.inputs[0]
        axes = node.params["axes"]
        return (node.params["keepdims"] and x.aval.dtype.kind == "f"
                and len(axes) > 0 and x.aval.ndim - 1 in axes)
    return native.supports_node(node)


def _try_join(group, node, reach):
    out = node.outputs[0]
    ins = [v for v in node.inputs if not isinstance(v, Literal)]
    if len(group.nodes) >= MAX_GROUP_NODES:
        return False
    for v in ins:
        if v not in group.values and group.id in reach.get(v, ()):
            return False                # would create a cycle through an outside node
    new_inputs = {v for v in ins if v not in group.values} - group.inputs
    if len(group.inputs) + len(new_inputs) > MAX_GROUP_INPUTS:
        return False
    full = group.shape
    if node.prim.name in _REDUCTIONS:
        x = node.inputs[0]
        axes = node.params["axes"]
        if x not in group.values or x in group.row or x.aval.shape != full:
            return False
        if group.axes is not None and tuple(sorted(axes)) != group.axes:
            return False
        if group.axes is None and group.row:
            return False
        group.axes = tuple(sorted(axes))
        group.row.add(out)
    elif out.aval.shape == full:
        if not all(_bcast_ok(v.aval.shape, full) for v in ins):
            return False
        if any(v in group.row for v in ins) and group.axes is None:
            return False
    elif group.axes is not None and _row_ok(out.aval.shape, full, group.axes):
        # an op on per-row values (e.g. mean = sum / n)
        if not all((v in group.row) or (v not in group.values and _row_ok(
                v.aval.shape, full, group.axes)) for v in ins):
            return False
        if not any(v in group.row for v in ins):
            return False
        group.row.add(out)
    else:
        return False
    group.nodes.append(node)
    group.values.add(out)
    group.inputs |= new_inputs
    return True


def _start_group(gid, node):
    out = node.outputs[0]
    if node.prim.name in _REDUCTIONS:
        x = node.inputs[0]
        group = _Group(gid, tuple(x.aval.shape), tuple(sorted(node.params["axes"])))
        group.row.add(out)
    else:
        if not all(_bcast_ok(v.aval.shape, out.aval.shape) for v in node.inputs
                   if not isinstance(v, Literal)):
            return None
        group = _Group(gid, tuple(out.aval.shape), None)
    group.nodes.append(node)
    group.values.add(out)
    group.inputs = {v for v in node.inputs if not isinstance(v, Literal)}
    return group


def find_groups(graph):
    """The fusible groups of ``graph``'s nodes. Fused, a group is one node: it waits for all
    of its inputs, so a value depends on a group when it depends on any of its members,
    and a node may join a group only if none of its inputs depends on that group *as a
    whole* (through the other groups their own inputs come from)."""
    producer_group = {}            # var -> group
    reach = {}                     # var -> frozenset of group ids it depends on directly
    groups = []
    merged_into = {}               # id of a group merged away -> the group that took it
    view = _Reach(reach, merged_into, groups)

    def live(group):
        while group.id in merged_into:
            group = merged_into[group.id]
        return group

    effects_reach = frozenset()    # what the latest effect depends on: effects keep order
    for node in graph.nodes:
        ins = [v for v in node.inputs if not isinstance(v, Literal)]
        # what a node depends on also comes from its sub-graphs' captures and, for an
        # effect, from the effects before it (the schedule keeps both orders)
        outer = [v for sub in graph.subgraphs(node) for v in sub.free_vars()]
        joined = None
        if _fusible(node) and node.outputs[0].aval.ndim >= 1:
            producers = []
            for v in ins:
                g = producer_group.get(v)
                if g is not None and live(g) not in producers:
                    producers.append(live(g))
            for g in producers:
                if _try_join(g, node, view):
                    joined = g
                    break
            if joined is not None:
                for other in producers:
                    if other is not joined and _try_merge(joined, other, view):
                        merged_into[other.id] = joined
                        joined.deps |= other.deps
            else:
                joined = _start_group(len(groups), node)
                if joined is not None:
                    groups.append(joined)
        deps = frozenset().union(*[reach.get(v, frozenset()) for v in ins + outer])
        if node.prim.effect:
            deps = effects_reach = deps | effects_reach
        if joined is not None:
            joined.deps |= frozenset().union(*[reach.get(v, frozenset()) for v in ins
                                               if v not in joined.values])
            deps = deps | {joined.id}
        for o in node.outputs:
            reach[o] = deps
            if joined is not None:
                producer_group[o] = joined
    return [g for g in groups if g.id not in merged_into]


class _Reach:
    """``reach`` seen through the groups: ``group.id in view.get(v, ())`` asks whether
    ``v`` depends on any part of ``group``, directly or through the inputs of the groups
    it depends on (each to be one fused node), merged groups answering for those they
    took in."""

    def __init__(self, reach, merged_into, groups):
        self.reach, self.merged_into, self.groups = reach, merged_into, groups

    def get(self, var, default=()):
        ids = self.reach.get(var)
        if ids is None:
            return default
        out, todo = set(), list(ids)
        while todo:
            gid = todo.pop()
            if gid in out:
                continue
            out.add(gid)
            if gid in self.merged_into:
                todo.append(self.merged_into[gid].id)
            todo.extend(self.groups[gid].deps)
        return out


def _try_merge(group, other, reach):
    """Take ``other`` into ``group`` (a node uses both: Adam's moment and velocity
    chains both feed the parameter's update). Only elementwise groups over the same shape,
    and only when no value outside them depends on one while feeding the other."""
    if group.axes is not None or other.axes is not None or group.shape != other.shape:
        return False
    if len(group.nodes) + len(other.nodes) > MAX_GROUP_NODES:
        return False
    inputs = (group.inputs | other.inputs) - group.values - other.values
    if len(inputs) > MAX_GROUP_INPUTS:
        return False
    for first, second in ((group, other), (other, group)):
        for v in second.inputs:
            if v not in first.values and first.id in reach.get(v, ()):
                return False            # first -> outside -> second: merging is a cycle
    group.nodes.extend(other.nodes)
    group.values |= other.values
    group.inputs = inputs
    return True


def _worth_it(group, min_elements):
    if len(group.nodes) < 2 and not (group.nodes and native.pays_alone(group.nodes[0])):
        return False
    if math.prod(group.shape) < max(min_elements, 1) or len(group.shape) == 0:
        return False
    return True


def fuse(graph, min_elements=None):
    """Replace fusible groups by ``fused`` nodes. Returns the number of fused nodes made."""
    if not native.numba_available():
        return 0
    min_elements = MIN_ELEMENTS if min_elements is None else min_elements
    made = 0
    for node in graph.nodes:
        for sub in graph.subgraphs(node):
            if node.prim.name != "fused":
                made += fuse(sub, min_elements)
    groups = [g for g in find_groups(graph) if _worth_it(g, min_elements)]
    if not groups:
        return made
    position = {id(n): i for i, n in enumerate(graph.nodes)}
    for g in groups:                     # merged groups: back into program order
        g.nodes.sort(key=lambda n: position[id(n)])
    member = {id(n): g for g in groups for n in g.nodes}
    used_outside = set(v for v in graph.outputs if not isinstance(v, Literal))
    for node in graph.nodes:
        g = member.get(id(node))
        for v in node.inputs:
            if not isinstance(v, Literal) and (g is None or v not in g.values):
                used_outside.add(v)
        for sub in graph.subgraphs(node):
            used_outside |= sub.free_vars()
    new_nodes = []
    placed = set()
    for node in graph.nodes:
        g = member.get(id(node))
        if g is None:
            new_nodes.append(node)
            continue
        if g.id in placed:
            continue
        placed.add(g.id)
        fused_node = _make_fused_node(g, used_outside, len(placed))
        if fused_node is None:
            new_nodes.extend(g.nodes)
            continue
        new_nodes.append(fused_node)
        made += 1
    graph.nodes = stable_toposort(graph, new_nodes)
    return made


def _make_fused_node(group, used_outside, index):
    sub = Graph(f"fused_{index}")
    mapping = {}
    inputs = []
    for node in group.nodes:
        for v in node.inputs:
            if isinstance(v, Literal) or v in group.values or v in mapping:
                continue
            new = Var(v.aval, v.hint)
            mapping[v] = new
            sub.inputs.append(new)
            inputs.append(v)
    outer_outputs = []
    for node in group.nodes:
        ins = [v if isinstance(v, Literal) else mapping[v] for v in node.inputs]
        outs = [Var(o.aval) for o in node.outputs]
        mapping.update(zip(node.outputs, outs))
        sub.nodes.append(Node(node.prim, ins, node.params, outs, node.source))
        for o in node.outputs:
            if o in used_outside:
                outer_outputs.append(o)
    if not outer_outputs:
        return None
    sub.outputs = [mapping[o] for o in outer_outputs]
    try:
        native.KernelPlan(sub)
    except ValueError:
        return None
    source = group.nodes[-1].source
    return Node(fused_p, inputs, {"graph": sub}, outer_outputs, source)
