"""All-reduce buckets and communication overlapped with computation.

A data-parallel train step captures as: forward, backward, then one ``all_reduce`` per
gradient (or per bucket: ``DistributedGradReducer``), then the optimizer. Two passes make
that fast, only for groups of more than one rank:

``bucket_all_reduces`` (first, at O0 and O1): a run of all-reduces with no other effect
    between them (same op and group) is re-planned into buckets: the reduced tensors are
    ordered by when they become ready (their producer's position: the last layers'
    gradients come first in the backward pass), then packed into buckets of at most
    ``comm_fusion`` MB of one dtype, each ONE multi-tensor ``all_reduce`` -- many small
    gradients travel in a few large messages. A tensor never joins a bucket whose results
    it depends on. It runs before the level's other passes, on the captured graph, so O0
    and O1 graphs of a step issue the same buckets in the same order (ranks may switch
    from O0 to O1 at different steps while kernels compile).

``overlap_all_reduces`` (last, after the schedule is fixed): each bucket becomes
    ``all_reduce_start`` (packs the tensors and starts a non-blocking ``Iallreduce``),
    moved up to just after its last input is computed -- but never above another effect,
    so collectives keep their order on every rank -- and ``all_reduce_wait``, moved down to
    just before the first node reading a result (typically the optimizer's update of that
    layer). The rest of the backward pass runs while the bucket travels.

Both passes are deterministic functions of the graph, which is the same on every rank,
so every rank issues the same collectives in the same order.
"""
import numpy as np

from .. import context
from ..ir.graph import Literal, Node, Var
from ..ops.collective import all_reduce_p, all_reduce_start_p, all_reduce_wait_p
from ..ops.process_groups import plan_buckets
from .schedule import stable_toposort


def _communicates(node):
    return node.prim is all_reduce_p and node.params["size"] > 1


def _runs(graph):
    """Maximal runs of all-reduces (same op/group) with no other effect between them."""
    runs, current, key = [], [], None
    for node in graph.nodes:
        if _communicates(node):
            this = (node.params["op"], node.params["group"], node.params["size"])
            if current and this != key:
                runs.append(current)
                current = []
            current.append(node)
            key = this
        elif node.prim.effect and current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def bucket_all_reduces(graph, cap_bytes=None):
    """Re-plan all-reduces into buckets; returns the number of nodes changed."""
    cap_bytes = context.allreduce_bucket_bytes() if cap_bytes is None else cap_bytes
    changed = 0
    for run in _runs(graph):
        items = [(node, k) for node in run for k in range(len(node.inputs))]
        if len(items) < 2:
            continue
        position = {o: i for i, n in enumerate(graph.nodes) for o in n.outputs}
        ready = [position.get(node.inputs[k], -1) for node, k in items]
        order = sorted(range(len(items)), key=lambda i: ready[i])
        items = [items[i] for i in order]
        needs = _dependencies(graph, run[0], items)
        nbytes = [int(np.prod(node.inputs[k].aval.shape)) * node.inputs[k].aval.dtype.itemsize
                  for node, k in items]
        dtypes = [node.inputs[k].aval.dtype for node, k in items]
        buckets = plan_buckets(nbytes, dtypes, cap_bytes,
                               conflicts=lambda i, bucket: needs[i] & _mask(bucket) != 0)
        params = dict(run[0].params)
        new_nodes = [Node(all_reduce_p, [items[i][0].inputs[items[i][1]] for i in b], params,
                          [items[i][0].outputs[items[i][1]] for i in b], run[0].source)
                     for b in buckets]
        old = set(map(id, run))
        last = max(i for i, n in enumerate(graph.nodes) if id(n) in old)
        nodes = []
        for i, n in enumerate(graph.nodes):
            if i == last:
                nodes.extend(new_nodes)
            elif id(n) not in old:
                nodes.append(n)
        graph.nodes = stable_toposort(graph, nodes)
        changed += len(run)
    return changed


def _mask(indices):
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def _dependencies(graph, first, items):
    """For each item, the bitmask of items whose result its input depends on."""
    bit = {}
    for i, (node, k) in enumerate(items):
        bit[node.outputs[k]] = 1 << i
    mask = {}
    started = False
    for node in graph.nodes:
        started = started or node is first
        if not started:
            continue
        used = 0
        for v in node.inputs:
            if not isinstance(v, Literal):
                used |= mask.get(v, 0)
        for sub in graph.subgraphs(node):
            for v in sub.free_vars():
                used |= mask.get(v, 0)
        for o in node.outputs:
            mask[o] = used | bit.get(o, 0)
    return [mask.get(node.inputs[k], 0) for node, k in items]


def overlap_all_reduces(graph):
    """Split each all-reduce into a start as early and a wait as late as possible;
    returns the number of all-reduces split (none with ``comm_fusion``'s
    ``overlap=False``)."""
    if not context.allreduce_overlap():
        return 0
    split = 0
    for node in [n for n in graph.nodes if _communicates(n)]:
        nodes = graph.nodes
        at = next(i for i, n in enumerate(nodes) if n is node)
        inputs = {v for v in node.inputs if not isinstance(v, Literal)}
        start_at = at
        while start_at > 0:
            before = nodes[start_at - 1]
            if before.prim.effect or inputs.intersection(before.outputs):
                break
            start_at -= 1
        outputs = set(node.outputs)
        wait_at = at + 1
        while wait_at < len(nodes) and not outputs.intersection(_reads(graph, nodes[wait_at])):
            wait_at += 1
        params = node.params
        handle = Var(all_reduce_start_p.abstract(*[v.aval for v in node.inputs], **params))
        start = Node(all_reduce_start_p, node.inputs, params, [handle], node.source)
        wait = Node(all_reduce_wait_p, [handle],
                    dict(params, shapes=tuple(tuple(v.aval.shape) for v in node.outputs)),
                    node.outputs, node.source)
        graph.nodes = (nodes[:start_at] + [start] + nodes[start_at:at] + nodes[at + 1:wait_at]
                       + [wait] + nodes[wait_at:])
        split += 1
    return split


def _reads(graph, node):
    used = [v for v in node.inputs if not isinstance(v, Literal)]
    for sub in graph.subgraphs(node):
        used.extend(sub.free_vars())
    return used
