"""Buffer reuse: let a fused kernel write its result into the buffer of an operand that
dies at that node, instead of allocating a fresh array (liveness over the final schedule).

A fused node's ``inplace`` param lists ``(output index, input index)`` pairs. An operand's
buffer may be taken only if all of these hold:

  * it was allocated by this graph: the value comes from a primitive known to return a
    fresh, writable array (a fused kernel, convolution, matmul or an elementwise op) --
    never an input, a parameter (ref), a constant, or a view;
  * no value sharing that buffer (views made by reshape/transpose/broadcast_to/getitem/
    unfold/stop_gradient or any op not known to copy) is used after this node, is a graph
    output, or is written to a parameter;
  * it has exactly the result's shape and dtype and is read element-for-element (not
    broadcast) by the kernel.
Kernels check at run time that the buffer is C-contiguous and writable, else allocate.
"""
from ..ir.graph import Literal

_FRESH = frozenset({"fused", "conv2d", "conv2d_input_grad", "conv2d_weight_grad", "matmul",
                    "fold"})
_NOT_FRESH = frozenset({"stop_gradient", "identity_view"})


def _fresh(node):
    prim = node.prim
    if prim.name in _NOT_FRESH or prim.multiple_results and prim.name != "fused":
        return False
    return prim.name in _FRESH or prim.elementwise


def reuse_buffers(graph):
    nodes = graph.nodes
    fresh_owner = {}              # var -> True if it owns a fresh buffer
    alias = {}                    # var -> owner var of its buffer (or itself)
    external = set(graph.inputs) | {r.var for r in graph.refs} | set(graph.consts)
    for node in nodes:
        owns = _fresh(node)
        for o in node.outputs:
            if owns:
                alias[o] = o
                fresh_owner[o] = True
            else:
                # may share the buffer of any operand: a view, or the operand itself
                srcs = [alias.get(v, v) for v in node.inputs if not isinstance(v, Literal)]
                alias[o] = srcs[0] if len(srcs) == 1 else o
                if len(srcs) > 1:
                    for s in srcs:
                        external.add(s)        # unknown sharing: never reuse these
                fresh_owner[o] = False
    last_use = {}
    for i, node in enumerate(nodes):
        for v in node.inputs:
            if not isinstance(v, Literal):
                last_use[alias.get(v, v)] = max(last_use.get(alias.get(v, v), -1), i)
        for sub in graph.subgraphs(node):
            if node.prim.name == "fused":
                continue
            for n in sub.nodes:
                for v in n.inputs:
                    if not isinstance(v, Literal):
                        last_use[alias.get(v, v)] = len(nodes)
        if node.prim.effect:
            for v in node.inputs:
                if not isinstance(v, Literal):
                    external.add(alias.get(v, v))
    for v in graph.outputs:
        if not isinstance(v, Literal):
            external.add(alias.get(v, v))
    taken = set()
    count = 0
    for i, node in enumerate(nodes):
        if node.prim.name != "fused":
            continue
        sub = node.params["graph"]
        from ..backend.fused import KernelPlan
        try:
            plan = KernelPlan(sub)
        except ValueError:
            continue
        pairs = []
        used_inputs = set()
        for k, out in enumerate(node.outputs):
            inner_out = sub.outputs[k]
            if plan.level.get(inner_out) != "elem":
                continue
            for j, v in enumerate(node.inputs):
                if isinstance(v, Literal) or j in used_inputs:
                    continue
                owner = alias.get(v, v)
                if owner is not v or not fresh_owner.get(v) or owner in external \
                        or owner in taken:
                    continue
                if v.aval != out.aval or last_use.get(owner) != i:
                    continue
                if node.inputs.count(v) != 1:
                    continue
                if plan.level.get(sub.inputs[j]) != "elem":
                    continue
                pairs.append((k, j))
                used_inputs.add(j)
                taken.add(owner)
                # the output now lives in the operand's buffer
                break
        if pairs:
            node.params = dict(node.params, inplace=tuple(pairs))
            count += len(pairs)
    return count
