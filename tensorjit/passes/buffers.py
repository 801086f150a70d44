"""Buffer reuse: let a fused kernel write its result into the buffer of an operand that
dies at that node, instead of allocating a fresh array (liveness over the final schedule).

A fused node's ``inplace`` param lists ``(output index, input index)`` pairs. An operand's
buffer may be taken only if (``ir/liveness.py``) the graph allocated it (its producer's
results are ``fresh``), nothing sharing it is read after this node, it is not pinned
(an input, parameter, constant, graph output, operand of an effect, or shared in ways the
analysis cannot follow), no other operand of the kernel is a view of it (the kernel
would read elements it already overwrote: ``a - a[:, k:k+1] * row``), and it has exactly
the result's shape and dtype and is read element-for-element (not broadcast) by the kernel. Kernels check at run time that the
buffer is C-contiguous and writable, else allocate.
"""
from ..ir.graph import Literal
from ..ir.liveness import Ownership
from ..backend.numba import KernelPlan


def reuse_buffers(graph):
    ownership = Ownership(graph)
    taken = set()
    count = 0
    for i, node in enumerate(graph.nodes):
        if node.prim.name != "fused":
            continue
        sub = node.params["graph"]
        try:
            plan = KernelPlan(sub)
        except ValueError:
            continue
        pairs = []
        used_inputs = set()
        for k, out in enumerate(node.outputs):
            if plan.level.get(sub.outputs[k]) != "elem":
                continue
            for j, v in enumerate(node.inputs):
                if isinstance(v, Literal) or j in used_inputs or v in taken:
                    continue
                if not ownership.can_overwrite(v, i) or v.aval != out.aval:
                    continue
                if node.inputs.count(v) != 1 or plan.level.get(sub.inputs[j]) != "elem":
                    continue
                if _shared_by_another_operand(ownership, node, j):
                    continue
                pairs.append((k, j))         # the output now lives in the operand's buffer
                used_inputs.add(j)
                taken.add(v)
                break
        if pairs:
            node.params = dict(node.params, inplace=tuple(pairs))
            count += len(pairs)
    return count


def _shared_by_another_operand(ownership, node, j):
    owner = ownership.owner_of(node.inputs[j])
    return any(ownership.owner_of(v) is owner for k, v in enumerate(node.inputs)
               if k != j and not isinstance(v, Literal))
