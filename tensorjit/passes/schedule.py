"""The execution order of a graph (``exec_order``) and its estimated peak memory.

    bfs  breadth first: a node runs as soon as everything before it in the previous
         "wave" has run (Kahn's algorithm, FIFO) -- many independent branches are in
         flight at once.
    dfs  depth first: each result is computed completely (post-order from the outputs,
         the operand needing the most memory first) before the next one starts, so fewer
         intermediates are alive at a time.

Without ``exec_order`` the captured program order is kept. Effects (assign, print,
guard) keep their relative order.

The estimate: every node output allocates ``size * itemsize`` bytes when its node runs,
except results of primitives whose ``aliasing`` is ``view`` (reshape, transpose, getitem,
...), which live in their first operand's buffer; a buffer is freed after the last use of
any value sharing it; graph outputs and values written to parameters live to the end.
Inputs, parameters and constants are not counted (they exist before and after the call).
"""
import heapq
from collections import deque

from ..ir.graph import Literal
from ..ir.liveness import memory_curve, nbytes as _nbytes

ORDERS = ("bfs", "dfs")


def _deps(graph, nodes):
    """node index -> set of node indices it must follow (data and effect order)."""
    producer = {}
    for i, node in enumerate(nodes):
        for o in node.outputs:
            producer[o] = i
    deps = []
    last_effect = None
    for i, node in enumerate(nodes):
        d = set()
        for v in node.inputs:
            if not isinstance(v, Literal) and v in producer:
                d.add(producer[v])
        for sub in graph.subgraphs(node):
            for v in sub.free_vars():
                if v in producer:
                    d.add(producer[v])
        if node.prim.effect:
            if last_effect is not None:
                d.add(last_effect)
            last_effect = i
        d.discard(i)
        deps.append(d)
    return deps




def stable_toposort(graph, nodes):
    """A topological order of ``nodes`` as close as possible to their given order."""
    deps = _deps(graph, nodes)
    users = [[] for _ in nodes]
    missing = [len(d) for d in deps]
    for i, d in enumerate(deps):
        for j in d:
            users[j].append(i)
    ready = [i for i, m in enumerate(missing) if m == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for u in users[i]:
            missing[u] -= 1
            if missing[u] == 0:
                heapq.heappush(ready, u)
    if len(order) != len(nodes):
        raise RuntimeError("schedule: the graph has a cycle")
    return [nodes[i] for i in order]


def bfs_order(graph):
    nodes = graph.nodes
    deps = _deps(graph, nodes)
    users = [[] for _ in nodes]
    missing = [len(d) for d in deps]
    for i, d in enumerate(deps):
        for j in sorted(d):
            users[j].append(i)
    queue = deque(i for i, m in enumerate(missing) if m == 0)
    order = []
    while queue:
        i = queue.popleft()
        order.append(i)
        for u in users[i]:
            missing[u] -= 1
            if missing[u] == 0:
                queue.append(u)
    return [nodes[i] for i in order]


def dfs_order(graph):
    nodes = graph.nodes
    deps = _deps(graph, nodes)
    producer = {o: i for i, n in enumerate(nodes) for o in n.outputs}
    weight = _subtree_bytes(nodes, deps)
    done = [False] * len(nodes)
    order = []

    def visit(root):
        stack = [(root, False)]
        while stack:
            i, expanded = stack.pop()
            if done[i]:
                continue
            if expanded:
                done[i] = True
                order.append(i)
                continue
            stack.append((i, True))
            # the heaviest operand first, so its intermediates die before the next starts;
            # the stack pops the last pushed first
            for j in sorted(deps[i], key=lambda j: weight[j]):
                if not done[j]:
                    stack.append((j, False))

    roots = [i for i, n in enumerate(nodes) if n.prim.effect]
    roots += [producer[v] for v in graph.outputs if not isinstance(v, Literal) and v in producer]
    for r in roots:
        visit(r)
    for i in range(len(nodes)):        # anything not reachable from outputs/effects
        visit(i)
    return [nodes[i] for i in order]


def _subtree_bytes(nodes, deps):
    weight = []
    for i, node in enumerate(nodes):
        own = sum(_nbytes(o) for o in node.outputs)
        weight.append(own + max([weight[j] for j in deps[i]], default=0))
    return weight



def peak_memory(graph, nodes=None):
    """Estimated peak bytes of intermediates alive at once when ``nodes`` run in order."""
    return max(memory_curve(graph, nodes), default=0)


def schedule(graph, exec_order=None):
    """Reorder ``graph`` per ``exec_order`` and record ``graph.memory``; returns the
    estimated peak bytes."""
    if exec_order == "bfs":
        graph.nodes = bfs_order(graph)
    elif exec_order == "dfs":
        graph.nodes = dfs_order(graph)
    elif exec_order is not None:
        raise ValueError(f"exec_order must be one of {ORDERS}, got {exec_order!r}")
    peak = peak_memory(graph)
    graph.memory = {"exec_order": exec_order or "program", "peak_bytes": peak}
    return peak


def format_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
