"""Algebraic simplification with declarative rewrite rules.

Each rule is ``(primitive name, matcher)``; a matcher looks at one node (and the nodes
producing its operands) and returns what the node's result is instead: an existing value
(``Same(v)``) or a replacement node (``Make(prim, inputs, params)``). Rules run to a fixed
point. Every rule preserves values exactly, NaN and inf included (so ``x * 0 -> 0`` is
*not* a rule: ``inf * 0`` is NaN):

    x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1        -> x      (when the shape is x's;
                                                              float zeros: x + (-0.0),
                                                              x - (+0.0), see _is_lit)
    neg(neg(x))                                     -> x
    stop_gradient(x)                                -> x      (only matters to autodiff)
    identity(x)                                     -> x      (a copy; graph values are
                                                              not written in place; lets
                                                              CSE see x.copy().sum() is
                                                              x.sum())
    cast(x, x.dtype)                                -> x
    cast(cast(x, wider), d)                         -> cast(x, d)   (exact widening)
    reshape(x, x.shape), broadcast_to(x, x.shape)   -> x
    reshape(reshape(x, s1), s2)                     -> reshape(x, s2)
    transpose(transpose(x, p), q)                   -> transpose(x, p o q)  (or x)
    transpose(a @ b) (matrices)                     -> b.T @ a.T
    reshape(x + bias), last axis kept               -> reshape(x) + bias
    zeros.at[arange(N)[:, None], idx].add(v)        -> where(idx == iota, v + 0, 0)
    op(..., uniform constant, ...)                  -> op(..., scalar literal, ...)
    zeros.at[0].add(a) + zeros.at[1].add(b) + ...   -> concat(a, b, ...) + 0  (entries
                                                              covering the first axis)
"""
import numpy as np

from ..aval import ShapedArray
from ..ir.graph import Literal, Var
from ..ir.rewrite import Same, Make, Replace, rewrite
from ..ops.primitive import PRIMITIVES


def _is_lit(v, value, negative_zero=False):
    """``v`` is the literal ``value``. A float zero matches only with the sign that keeps
    every ``x`` exact, signed zeros included: ``x - (+0.0)`` and ``x + (-0.0)`` are ``x``,
    but ``(-0.0) + (+0.0)`` is ``+0.0`` (and ``1 / x`` then has the other sign)."""
    if not (isinstance(v, Literal) and v.value.ndim == 0 and v.value.dtype != np.bool_
            and v.value.item() == value):
        return False
    if value == 0 and v.value.dtype.kind == "f":
        return bool(np.signbit(v.value)) == negative_zero
    return True


def _same_shape(node, v):
    return not isinstance(v, Literal) and v.aval == node.outputs[0].aval


def identity_operand(position, value, negative_zero=False):
    """x op <value> -> x (operand ``position`` is the literal ``value``)."""
    def rule(node, ctx):
        other = node.inputs[1 - position]
        if _is_lit(node.inputs[position], value, negative_zero) and _same_shape(node, other):
            return Same(other)
    return rule


def involution(node, ctx):
    inner = ctx.producer(node.inputs[0])
    if inner is not None and inner.prim is node.prim and _same_shape(node, inner.inputs[0]):
        return Same(inner.inputs[0])


def passthrough(node, ctx):
    if _same_shape(node, node.inputs[0]):
        return Same(node.inputs[0])


_EXACT_WIDENING = {
    ("float16", "float32"), ("float16", "float64"), ("float32", "float64"),
    ("bfloat16", "float32"), ("bfloat16", "float64"),
    ("int8", "int16"), ("int8", "int32"), ("int8", "int64"), ("int16", "int32"),
    ("int16", "int64"), ("int32", "int64"), ("uint8", "int16"), ("uint8", "int32"),
    ("uint8", "int64"), ("int8", "float32"), ("int8", "float64"), ("int16", "float32"),
    ("int16", "float64"), ("int32", "float64"), ("uint8", "float32"), ("uint8", "float64"),
}


def cast_rule(node, ctx):
    x = node.inputs[0]
    target = node.params["dtype"]
    if isinstance(x, Literal):
        return None
    if x.aval.dtype == target:
        return Same(x)
    inner = ctx.producer(x)
    if inner is not None and inner.prim.name == "cast":
        src = inner.inputs[0]
        if isinstance(src, Literal):
            return None
        widen = (src.aval.dtype.name, x.aval.dtype.name) in _EXACT_WIDENING or \
            src.aval.dtype == np.bool_
        if widen:
            if src.aval.dtype == target:
                return Same(src)
            return Make(node.prim, [src], {"dtype": target})


def same_shape_rule(node, ctx):
    x = node.inputs[0]
    if not isinstance(x, Literal) and tuple(x.aval.shape) == tuple(node.params["shape"]) \
            and x.aval.dtype == node.outputs[0].aval.dtype:
        return Same(x)


def reshape_chain(node, ctx):
    r = same_shape_rule(node, ctx)
    if r is not None:
        return r
    inner = ctx.producer(node.inputs[0])
    if inner is not None and inner.prim is node.prim:
        src = inner.inputs[0]
        if not isinstance(src, Literal) and tuple(src.aval.shape) == tuple(node.params["shape"]):
            return Same(src)
        # the inner reshape stays if something else reads it: reshaping its result is then
        # a view, reshaping its (maybe strided) operand again a second copy
        if ctx.use_count(node.inputs[0]) == 1:
            return Make(node.prim, [src], dict(node.params))


def transposed_product(node, ctx):
    """transpose(a @ b) -> b.T @ a.T for matrices: the product is written in the layout
    its reader wants (a weight's gradient, which the optimizer's kernel reads flat, was a
    strided view copied per step). The same products summed in the same order: BLAS
    computes C.T = B.T A.T by swapping the operands' roles (bit-equal, tested)."""
    if tuple(node.params["perm"]) != (1, 0):
        return None
    inner = ctx.producer(node.inputs[0])
    if inner is None or inner.prim.name != "matmul" or ctx.use_count(node.inputs[0]) != 1:
        return None
    a, b = inner.inputs
    if isinstance(a, Literal) or isinstance(b, Literal) or a.aval.ndim != 2 or b.aval.ndim != 2:
        return None
    bld = ctx.builder(node)
    product = bld.matmul(bld.transpose(b, perm=(1, 0)), bld.transpose(a, perm=(1, 0)))
    return Replace(bld.nodes, [product])


def reshape_through_bias(node, ctx):
    """reshape(x + b) -> reshape(x) + b when the reshape keeps the last axis and ``b``
    varies only along it (a bias): the add can then fuse with what reads the reshaped
    value (GPT's output bias into the cross-entropy kernel); the same sums."""
    inner = ctx.producer(node.inputs[0])
    if inner is None or inner.prim.name != "add" or ctx.use_count(node.inputs[0]) != 1:
        return None
    old, new = tuple(node.inputs[0].aval.shape), tuple(node.params["shape"])
    if not old or not new or old[-1] != new[-1]:
        return None
    full = [v for v in inner.inputs if not isinstance(v, Literal) and tuple(v.aval.shape) == old]
    if len(full) != 1:
        return None
    x, = full
    b = inner.inputs[1] if inner.inputs[0] is x else inner.inputs[0]
    b_shape = tuple(b.aval.shape) if not isinstance(b, Literal) else tuple(b.value.shape)
    if any(d != 1 for d in b_shape[:-1]) or len(b_shape) > len(new) or \
            (b_shape and b_shape[-1] not in (1, old[-1])) or x.aval.dtype != node.outputs[0].aval.dtype:
        return None
    bld = ctx.builder(node)
    moved = bld.reshape(x, shape=new)
    operands = [moved, b] if inner.inputs[0] is x else [b, moved]
    return Replace(bld.nodes, [bld.add(*operands)])


def transpose_chain(node, ctx):
    perm = tuple(node.params["perm"])
    if perm == tuple(range(len(perm))):
        return Same(node.inputs[0])
    inner = ctx.producer(node.inputs[0])
    if inner is not None and inner.prim is node.prim:
        first = tuple(inner.params["perm"])
        composed = tuple(first[p] for p in perm)
        if composed == tuple(range(len(composed))):
            return Same(inner.inputs[0])
        return Make(node.prim, [inner.inputs[0]], {"perm": composed})


def uniform_constant(node, ctx):
    """An elementwise op reading a constant whose elements are all equal reads a scalar
    literal instead (if the result's shape does not depend on that operand's shape: for
    these input shapes, so the graph is marked ``shape_specific``)."""
    if not node.prim.elementwise or len(node.outputs) != 1:
        return None
    changed = False
    inputs = list(node.inputs)
    for i, v in enumerate(inputs):
        value = ctx.constant(v)
        if value is None or value.ndim == 0 or value.size == 0:
            continue
        first = value.flat[0]
        if not (np.all(value == first) or (np.all(np.isnan(value)) if value.dtype.kind == "f"
                                           else False)):
            continue
        others = [u.aval.shape for j, u in enumerate(inputs) if j != i]
        if _broadcast(others) != tuple(node.outputs[0].aval.shape):
            continue
        inputs[i] = Literal(np.asarray(first, dtype=value.dtype))
        changed = True
    if changed:
        # right for these shapes only: with another operand of lower rank, the constant's
        # shape would have decided the result's, so the graph is no longer shape-generic
        ctx.graph.shape_specific = True
        return Make(node.prim, inputs, dict(node.params))


def _zeros_constant(ctx, v):
    value = ctx.constant(v)
    return (value is not None and value.dtype.kind == "f" and not np.any(value)
            and not np.any(np.signbit(value)))


def _written_entries(v, ctx, aval):
    """{k: piece} when ``v`` is +0 everywhere but whole entries ``k`` of its first axis,
    which hold ``0 + piece``: an ``index_add`` into a zeros constant at an integer
    position (the gradient of ``x[k]``), or a single-use ``add`` of such values at
    different entries. None otherwise."""
    node = ctx.producer(v)
    if node is None or node.outputs[0].aval != aval:
        return None
    if node.prim.name == "index_add":
        spec = node.params["spec"]
        piece = node.inputs[1] if len(node.inputs) == 2 else None
        if (len(spec) == 1 and spec[0][0] == "i" and isinstance(spec[0][1], int)
                and piece is not None and not isinstance(piece, Literal)
                and piece.aval.dtype == aval.dtype
                and tuple(piece.aval.shape) == tuple(aval.shape[1:])
                and _zeros_constant(ctx, node.inputs[0])):
            return {spec[0][1] % aval.shape[0]: piece}
        return None
    if node.prim.name == "add" and ctx.use_count(v) == 1:
        return _disjoint_union([_written_entries(u, ctx, aval) for u in node.inputs])
    return None


def _disjoint_union(parts):
    union = {}
    for part in parts:
        if part is None or union.keys() & part.keys():
            return None
        union.update(part)
    return union


def stacked_entries(node, ctx):
    """``zeros.at[0].add(a) + zeros.at[1].add(b) + ...`` covering the first axis ->
    ``concat(a, b, ...) + 0`` (the gradient of ``q, k, v = qkv[0], qkv[1], qkv[2]``): one
    pass writing the result instead of a zero-filled copy per entry and their sums. The
    ``+ 0`` keeps the value exact (a -0.0 entry was +0.0 + -0.0 = +0.0)."""
    aval = node.outputs[0].aval
    if not aval.shape or aval.dtype.kind != "f" or any(isinstance(v, Literal)
                                                        for v in node.inputs):
        return None
    pieces = _disjoint_union([_written_entries(v, ctx, aval) for v in node.inputs])
    if pieces is None or sorted(pieces) != list(range(aval.shape[0])):
        return None
    b = ctx.builder(node)
    rows = [b.reshape(pieces[k], shape=(1,) + tuple(aval.shape[1:])) for k in sorted(pieces)]
    stacked = b.concat(*rows, axis=0) if len(rows) > 1 else rows[0]
    return Replace(b.nodes, [b.add(stacked, b.lit(0.0, aval.dtype))])


def one_per_row_scatter(node, ctx):
    """``zeros.at[arange(N)[:, None], idx].add(v)`` with ``idx`` of shape (N, 1) -- the
    gradient of ``take_along_axis(x, idx, 1)``, sparse cross-entropy's pick -> ``where(idx
    == iota, v + 0, 0)``: one entry per row, elementwise, so it fuses into the kernel that
    reads it instead of a zero-filled copy, a scatter and a pass over them. Only where the
    graph also gathers at those indices (that gather checks their bounds)."""
    z, values, rows, idx = (node.inputs + [None] * 4)[:4]
    aval = node.outputs[0].aval
    if (node.params["spec"] != (("t",), ("t",)) or len(node.inputs) != 4
            or len(aval.shape) != 2 or aval.dtype.kind != "f" or not _zeros_constant(ctx, z)
            or isinstance(idx, Literal) or idx.aval.dtype.kind not in "iu"):
        return None
    n, c = aval.shape
    r = ctx.constant(rows)
    if (r is None or r.shape != (n, 1) or not np.array_equal(r.ravel(), np.arange(n))
            or tuple(idx.aval.shape) != (n, 1)):
        return None
    v_shape, v_dtype = ((values.value.shape, values.value.dtype) if isinstance(values, Literal)
                        else (tuple(values.aval.shape), values.aval.dtype))
    if v_dtype != aval.dtype or _broadcast([v_shape, (n, 1)]) != (n, 1):
        return None
    if not any(g.prim.name == "getitem" and list(g.inputs[1:]) == [rows, idx]
               and g.params["spec"] == node.params["spec"] for g in ctx.graph.nodes):
        return None
    iota = Var(ShapedArray((1, c), idx.aval.dtype))
    ctx.graph.consts[iota] = np.arange(c, dtype=idx.aval.dtype).reshape(1, c)
    b = ctx.builder(node)
    d = idx.aval.dtype
    wrapped = b.where(b.lt(idx, b.lit(0, d)), b.add(idx, b.lit(c, d)), idx)
    picked = b.add(values, b.lit(0.0, aval.dtype))          # 0 + v, as the scatter adds
    return Replace(b.nodes, [b.where(b.eq(wrapped, iota), picked, b.lit(0.0, aval.dtype))])


def _broadcast(shapes):
    try:
        return tuple(np.broadcast_shapes(*[tuple(s) for s in shapes])) if shapes else ()
    except ValueError:
        return None


RULES = {
    "add": [identity_operand(1, 0, negative_zero=True), identity_operand(0, 0, negative_zero=True),
            stacked_entries],
    "sub": [identity_operand(1, 0)],
    "mul": [identity_operand(1, 1), identity_operand(0, 1)],
    "div": [identity_operand(1, 1)],
    "neg": [involution],
    "stop_gradient": [passthrough],
    "identity": [passthrough],
    "cast": [cast_rule],
    "reshape": [reshape_chain, reshape_through_bias],
    "broadcast_to": [same_shape_rule],
    "transpose": [transpose_chain, transposed_product],
    "index_add": [one_per_row_scatter],
    "*": [uniform_constant],
}


def simplify(graph, max_rounds=4):
    return rewrite(graph, RULES, PRIMITIVES, max_rounds)
