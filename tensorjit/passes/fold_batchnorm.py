"""Fold an inference-mode BatchNorm into the convolution before it.

In inference mode ``BatchNorm2d`` is ``y = conv(x, w) * scale + shift`` with a per-channel
``scale`` of shape (1, O, 1, 1) computed from the parameters. Convolution is linear in its
weight, so ``conv(x, w) * scale == conv(x, w * scale.reshape(O, 1, 1, 1))``: the rewrite
scales the (small) weight instead of the (large) activation, saving a full pass over the
output; the ``+ shift`` then fuses with what follows (e.g. the ReLU).

The scale is still computed from the parameters on every call (they are refs), so
updating parameters needs no recompilation. Applied only when the convolution's result
has no other use (e.g. not when the backward pass needs it)."""
from ..ir.graph import Literal, Node, Var
from ..aval import ShapedArray


def _prim(name):
    from ..ops.primitive import PRIMITIVES
    return PRIMITIVES[name]


def fold_batchnorm(graph):
    uses = {}
    for node in graph.nodes:
        for v in node.inputs:
            if not isinstance(v, Literal):
                uses[v] = uses.get(v, 0) + 1
        for sub in graph.subgraphs(node):
            for n in sub.nodes:
                for v in n.inputs:
                    if not isinstance(v, Literal):
                        uses[v] = uses.get(v, 0) + 1
    for v in graph.outputs:
        if not isinstance(v, Literal):
            uses[v] = uses.get(v, 0) + 1
    producer = {o: n for n in graph.nodes for o in n.outputs}
    folded = 0
    new_nodes = []
    replaced = {}
    for node in graph.nodes:
        if node.prim.name == "mul" and id(node) not in replaced:
            rewrite = _match(node, producer, uses)
            if rewrite is not None:
                conv, scale = rewrite
                o = conv.outputs[0].aval.shape[1]
                w = conv.inputs[1]
                s4 = Var(ShapedArray((o, 1, 1, 1), scale.aval.dtype))
                w2 = Var(w.aval)
                reshape = Node(_prim("reshape"), [scale], {"shape": (o, 1, 1, 1)}, [s4],
                               node.source)
                scale_w = Node(_prim("mul"), [w, s4], {}, [w2], node.source)
                new_conv = Node(conv.prim, [conv.inputs[0], w2], conv.params, node.outputs,
                                conv.source)
                replaced[id(conv)] = [reshape, scale_w, new_conv]
                folded += 1
                continue
        new_nodes.append(node)
    if not folded:
        return 0
    nodes = []
    for node in new_nodes:
        nodes.extend(replaced.get(id(node), [node]))
    from .schedule import stable_toposort
    graph.nodes = stable_toposort(graph, nodes)
    return folded


def _match(mul, producer, uses):
    for conv_var, scale in (mul.inputs, mul.inputs[::-1]):
        if isinstance(conv_var, Literal) or isinstance(scale, Literal):
            continue
        conv = producer.get(conv_var)
        if conv is None or conv.prim.name != "conv2d" or uses.get(conv_var) != 1:
            continue
        out = conv_var.aval
        if mul.outputs[0].aval != out or scale.aval.dtype != out.dtype:
            continue
        shape = tuple(scale.aval.shape)
        o = out.shape[1]
        if shape not in ((1, o, 1, 1), (o, 1, 1)):
            continue
        return conv, scale
    return None
