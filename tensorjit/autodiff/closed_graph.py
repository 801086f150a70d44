"""Primitives that wrap a closed graph (a fused kernel, a GE unit), and running a graph's
nodes through ``Primitive.bind``.

Such a primitive's node holds its sub-graph in the ``graph`` param. Its shape rule is the
sub-graph's outputs and its VJP differentiates the sub-graph itself: the nodes are bound
again under ``vjp``, so the backward pass is made of the primitives the graph contains
(recorded into the enclosing capture when there is one); its batching rule runs the
sub-graph's nodes through their own rules the same way. Only the kernel and the code
emitter differ between such primitives, and their owners (the backends) supply those.
"""
from ..ir.graph import Literal
from ..ops.primitive import Primitive
from ..ops.coerce import constant
from ..ops.batching import batch_graph
from .transforms import vjp


def bind_graph(graph, args):
    """Run a graph's nodes through ``Primitive.bind`` on Tensors, so the active capture
    and autodiff tapes see each primitive (used to differentiate and to inline graphs)."""
    env = dict(zip(graph.inputs, args))
    for ref in graph.refs:
        env[ref.var] = ref.tensor
    for var, value in graph.consts.items():
        env[var] = constant(value)
    writes = {ref.var: ref.tensor for ref in graph.refs}

    def read(v):
        return constant(v.value) if isinstance(v, Literal) else env[v]

    for node in graph.nodes:
        if node.prim.name == "assign":
            target, value = node.inputs
            writes[target]._assign(read(value))
            continue
        out = node.prim.bind(*[read(v) for v in node.inputs], **node.params)
        outs = out if node.prim.multiple_results else (out,)
        env.update(zip(node.outputs, outs))
    return tuple(read(v) for v in graph.outputs)


def _outputs_rule(*avals, graph, **params):
    return [v.aval for v in graph.outputs]


def _graph_vjp(cts, outs, *args, graph, **params):
    _, pullback = vjp(lambda *xs: bind_graph(graph, xs), *args)
    return pullback(*cts)


def _graph_batch(prim, dims, *args, graph, **params):
    """Batched, the sub-graph's nodes run one by one through their own batching rules."""
    outs, out_dims = batch_graph(graph, args, dims)
    return tuple(outs), tuple(out_dims)


def graph_primitive(name, impl, *, emit, aliasing, effect=False):
    """A primitive whose node runs the closed graph in its ``graph`` param with ``impl``
    (``impl(*arrays, graph=..., **params)``) and emits code with ``emit``."""
    return Primitive(name, impl, _outputs_rule, _graph_vjp, multiple_results=True,
                     shape_generic=False, aliasing=aliasing, effect=effect, emit=emit,
                     batch=_graph_batch)
