"""A reference evaluator: runs a graph node by node with the primitives' kernels.

Used by control-flow primitives for their sub-graphs in eager mode and by tests as an
independent check of generated code."""
from .graph import Literal
from ..ops import effects


def evaluate(graph, inputs):
    env = dict(zip(graph.inputs, inputs))
    for ref in graph.refs:
        env[ref.var] = ref.tensor._data
    env.update(graph.consts)
    writes = []

    def read(v):
        return v.value if isinstance(v, Literal) else env[v]

    for node in graph.nodes:
        if node.prim is effects.assign_p:
            target, value = node.inputs
            writes.append((target, read(value)))
            continue
        out = node.prim.impl(*[read(v) for v in node.inputs], **node.params)
        outs = out if node.prim.multiple_results else (out,)
        env.update(zip(node.outputs, outs))
    holders = {ref.var: ref.tensor for ref in graph.refs}
    for target, value in writes:
        holders[target]._data = value
    return tuple(read(v) for v in graph.outputs)


def bind_graph(graph, args):
    """Run a graph's nodes through ``Primitive.bind`` on Tensors, so the active capture
    and autodiff tapes see each primitive (used to differentiate and to inline graphs)."""
    from ..ops.convert import constant
    env = dict(zip(graph.inputs, args))
    for ref in graph.refs:
        env[ref.var] = ref.tensor
    for var, value in graph.consts.items():
        env[var] = constant(value)

    def read(v):
        return constant(v.value) if isinstance(v, Literal) else env[v]

    for node in graph.nodes:
        if node.prim is effects.assign_p:
            target, value = node.inputs
            next(r.tensor for r in graph.refs if r.var is target)._assign(read(value))
            continue
        out = node.prim.bind(*[read(v) for v in node.inputs], **node.params)
        outs = out if node.prim.multiple_results else (out,)
        env.update(zip(node.outputs, outs))
    return tuple(read(v) for v in graph.outputs)
