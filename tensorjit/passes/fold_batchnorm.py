"""Fold an inference-mode BatchNorm into the convolution before it.

In inference mode ``BatchNorm2d`` is ``y = conv(x, w) * scale + shift`` with a per-channel
``scale`` of shape (1, O, 1, 1) computed from the parameters. Convolution is linear in its
weight, so ``conv(x, w) * scale == conv(x, w * scale.reshape(O, 1, 1, 1))``: the rewrite
scales the (small) weight instead of the (large) activation, saving a full pass over the
output; the ``+ shift`` then fuses with what follows (e.g. the ReLU).

The scale is still computed from the parameters on every call (they are refs), so
updating parameters needs no recompilation. Applied only when the convolution's result
has no other use (e.g. not when the backward pass needs it): the convolution it replaces
is then dead and removed by DCE."""
from ..ir.graph import Literal
from ..ir.rewrite import Replace, rewrite
from ..ops.primitive import PRIMITIVES


def _fold(node, ctx):
    match = _match(node, ctx)
    if match is None:
        return None
    conv, scale = match
    b = ctx.builder(node)
    channels = conv.outputs[0].aval.shape[1]
    weight = b.mul(conv.inputs[1], b.reshape(scale, shape=(channels, 1, 1, 1)))
    return Replace(b.nodes, [b.conv2d(conv.inputs[0], weight, **conv.params)])


def _match(mul, ctx):
    for conv_var, scale in (mul.inputs, mul.inputs[::-1]):
        if isinstance(conv_var, Literal) or isinstance(scale, Literal):
            continue
        conv = ctx.producer(conv_var)
        if conv is None or conv.prim.name != "conv2d" or ctx.use_count(conv_var) != 1:
            continue
        out = conv_var.aval
        if mul.outputs[0].aval != out or scale.aval.dtype != out.dtype:
            continue
        o = out.shape[1]
        if tuple(scale.aval.shape) not in ((1, o, 1, 1), (o, 1, 1)):
            continue
        return conv, scale
    return None


def fold_batchnorm(graph):
    return rewrite(graph, {"mul": [_fold]}, PRIMITIVES, max_rounds=1, into_subgraphs=False)
