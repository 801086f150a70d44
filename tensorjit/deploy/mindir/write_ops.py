"""tensorjit primitives as MindSpore 2.10 operators: one emitter per primitive, spelled as
MindSpore's own export spells the same computation (operator names, the order of a
PRIMITIVE_FUNCTION's inputs, a PRIMITIVE's attributes).

An emitter ``fn(w, node) -> [result names]`` adds nodes through the ``ModelWriter`` ``w``.
A primitive without a MindIR form raises ``ExportError`` naming it and where the program
used it; loops (``scan``) are unrolled, their trip count being static.
"""
import math

import numpy as np

from ... import dtype as dt
from ..program import ExportError, registrar
from ...ir.graph import Literal
from .schema import PrimType
from .writer import DType

EMITTERS = {}
emits = registrar(EMITTERS)


def emit_node(w, node):
    emitter = EMITTERS.get(node.prim.name)
    if emitter is None:
        if _foldable(w, node):
            return _fold(w, node)
        raise ExportError(f"export: primitive {node.prim.name!r}{_where(node)} has no MindIR "
                          f"form (the primitives MindIR export writes are listed in "
                          f"tensorjit/deploy/mindir/write_ops.py)")
    return emitter(w, node)


def _where(node):
    return f" (at {node.source.filename}:{node.source.lineno})" if node.source else ""


def _out(node, i=0):
    return node.outputs[i].aval


def _foldable(w, node):
    """A node of constants only (``full``, arithmetic on constants) whose value the file can
    hold as a constant."""
    return (not node.prim.effect and not node.prim.random and not any(
        w.program.graph.subgraphs(node)) and all(
        isinstance(v, Literal) or v in w.folded for v in node.inputs))


def _fold(w, node):
    arrays = [np.asarray(v.value) if isinstance(v, Literal) else w.folded[v]
              for v in node.inputs]
    result = node.prim.impl(*arrays, **node.params)
    results = list(result) if node.prim.multiple_results else [result]
    names = []
    for var, array in zip(node.outputs, results):
        array = np.asarray(array, var.aval.dtype).reshape(var.aval.shape)
        w.folded[var] = array
        names.append(w.constant(array))
    return names


# ---- elementwise ----------------------------------------------------------------------

UNARY = {"neg": "Neg", "sin": "Sin", "cos": "Cos", "tan": "Tan", "erf": "Erf", "exp": "Exp",
         "log": "Log", "sqrt": "Sqrt", "rsqrt": "Rsqrt", "relu": "ReLU", "sigmoid": "Sigmoid",
         "tanh": "Tanh", "abs": "Abs", "floor": "Floor", "ceil": "Ceil", "sign": "Sign",
         "atan": "Atan", "expm1": "Expm1", "log1p": "Log1p", "silu": "SiLU",
         "isinf": "IsInf", "isfinite": "IsFinite", "logical_not": "LogicalNot"}
BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "maximum": "Maximum",
          "minimum": "Minimum", "pow": "Pow", "atan2": "Atan2", "floordiv": "FloorDiv",
          "mod": "FloorMod", "gt": "Greater", "lt": "Less", "ge": "GreaterEqual",
          "le": "LessEqual", "eq": "Equal", "ne": "NotEqual", "logical_and": "LogicalAnd",
          "logical_or": "LogicalOr", "logical_xor": "LogicalXor"}


@emits(*UNARY)
def _unary(w, node):
    return [w.op(UNARY[node.prim.name], [w.value(node.inputs[0])], _out(node))]


@emits(*BINARY)
def _binary(w, node):
    return [w.op(BINARY[node.prim.name], [w.value(v) for v in node.inputs], _out(node))]


@emits("div")
def _div(w, node):
    out = _out(node)
    if not dt.is_float(out.dtype):
        # tensorjit's public division casts integers to floats first; MindSpore's Div of
        # integers rounds differently from tensorjit's div primitive, so none is written
        raise ExportError(f"export: div of {out.dtype} tensors{_where(node)} has no MindIR "
                          f"form (divide floats)")
    return [w.op("Div", [w.value(v) for v in node.inputs], out)]


@emits("where")
def _select(w, node):
    out = _out(node)
    # MindSpore's Select wants its three operands of one shape
    operands = [_broadcast(w, v, out.shape) for v in node.inputs]
    return [w.op("Select", operands, out)]


def _broadcast(w, operand, shape):
    name = w.value(operand)
    if tuple(operand.aval.shape) == tuple(shape):
        return name
    return w.op("BroadcastTo", [name, w.constant(tuple(shape))],
                operand.aval.update(shape=tuple(shape)))


@emits("cast")
def _cast(w, node):
    out = _out(node)
    if np.dtype(node.inputs[0].aval.dtype) == np.dtype(out.dtype):
        return [w.value(node.inputs[0])]
    return [w.op("Cast", [w.value(node.inputs[0]), w.constant(DType(out.dtype))], out)]


@emits("identity", "stop_gradient")
def _identity(w, node):
    return [w.value(node.inputs[0])]


@emits("gelu")
def _gelu(w, node):
    x, out = node.inputs[0], _out(node)
    if node.params.get("approximate") == "tanh":
        return [w.op("GeLU", [w.value(x)], out)]
    # erf form, as MindSpore's nn.GELU(approximate=False) exports: x * (1 + erf(x / sqrt 2)) / 2
    d = out.dtype
    scaled = w.op("Div", [w.value(x), w.constant(np.asarray(math.sqrt(2.0), d))], out)
    one_plus = w.op("Add", [w.op("Erf", [scaled], out), w.constant(np.asarray(1.0, d))], out)
    return [w.op("Mul", [w.op("Mul", [w.value(x), one_plus], out),
                         w.constant(np.asarray(0.5, d))], out)]


# ---- normalization ----------------------------------------------------------------------

@emits("softmax")
def _softmax(w, node):
    return [w.op("Softmax", [w.value(node.inputs[0]), w.constant((node.params["axis"],))],
                 _out(node))]


@emits("log_softmax")
def _log_softmax(w, node):
    return [w.op("LogSoftmax", [w.value(node.inputs[0]), w.constant(node.params["axis"])],
                 _out(node))]


@emits("layer_norm")
def _layer_norm(w, node):
    x, gamma, beta = node.inputs
    out = _out(node)
    axis = x.aval.ndim - node.params["ndims"]
    stats = out.update(shape=tuple(out.shape[:axis]) + (1,) * node.params["ndims"])
    triple = w.op("LayerNorm", [w.value(x), w.value(gamma), w.value(beta), w.constant(axis),
                                w.constant(axis), w.constant(float(node.params["eps"]))],
                  [out, stats, stats])
    return [w.op("TupleGetItem", [triple, w.constant(0)], out, kind=PrimType.PRIMITIVE)]


# ---- reductions -----------------------------------------------------------------------

REDUCTIONS = {"reduce_sum": "ReduceSum", "reduce_max": "ReduceMax", "reduce_min": "ReduceMin",
              "reduce_prod": "ReduceProd", "reduce_all": "ReduceAll", "reduce_any": "ReduceAny"}


@emits(*REDUCTIONS)
def _reduce(w, node):
    x, out = node.inputs[0], _out(node)
    axes = tuple(node.params["axes"])
    if not axes:            # tensorjit reduces over no axis: the value itself
        return [w.value(x)]
    inputs = [w.value(x), w.constant(axes), w.constant(bool(node.params["keepdims"]))]
    if node.prim.name == "reduce_sum":
        inputs.append(w.constant(False))           # skip_mode
    return [w.op(REDUCTIONS[node.prim.name], inputs, out)]


@emits("argmax", "argmin")
def _arg(w, node):
    x, out = node.inputs[0], _out(node)
    if x.aval.ndim == 0:
        return [w.constant(np.zeros((), np.int64))]
    op = "Argmax" if node.prim.name == "argmax" else "Argmin"
    axis = node.params["axis"]
    index = w.op(op, [w.value(x), w.constant(axis), w.constant(DType(dt.int64))],
                 out.update(shape=tuple(s for i, s in enumerate(x.aval.shape) if i != axis)))
    if node.params["keepdims"]:
        index = w.op("ExpandDims", [index, w.constant(axis)], out)
    return [index]


@emits("cumsum", "cumprod")
def _cumulative(w, node):
    op = "CumSum" if node.prim.name == "cumsum" else "CumProd"
    return [w.op(op, [w.value(node.inputs[0]), w.constant(node.params["axis"]),
                      w.constant(False), w.constant(bool(node.params["reverse"]))],
                 _out(node))]


# ---- shapes -----------------------------------------------------------------------------

@emits("reshape")
def _reshape(w, node):
    out = _out(node)
    return [w.op("Reshape", [w.value(node.inputs[0]), w.constant(tuple(out.shape))], out)]


@emits("transpose")
def _transpose(w, node):
    perm = tuple(node.params["perm"])
    if perm == tuple(range(len(perm))):
        return [w.value(node.inputs[0])]
    return [w.op("Transpose", [w.value(node.inputs[0]), w.constant(perm)], _out(node))]


@emits("broadcast_to")
def _broadcast_to(w, node):
    return [_broadcast(w, node.inputs[0], _out(node).shape)]


@emits("concat")
def _concat(w, node):
    out = _out(node)
    parts = [w.value(v) for v in node.inputs]
    tuple_name = w.op("MakeTuple", parts, [v.aval for v in node.inputs],
                      kind=PrimType.PRIMITIVE)
    return [w.op("Concat", [tuple_name, w.constant(node.params["axis"])], out)]


@emits("pad")
def _pad(w, node):
    """PadV3, as MindSpore exports ``ops.pad``: (before, after) pairs from the last axis
    backwards, the fill value a 0-d tensor."""
    x, out = node.inputs[0], _out(node)
    flat = tuple(int(p) for pair in reversed(node.params["pads"]) for p in pair)
    value = np.asarray(node.params["value"], x.aval.dtype).reshape(())
    attributes = {"mode": "constant", "paddings_contiguous": True,
                  "input_names": ["x", "paddings", "constant_value"], "output_names": ["y"]}
    return [w.op("PadV3", [w.value(x), w.constant(flat), w.constant(value)], out, attributes,
                 kind=PrimType.PRIMITIVE)]


def stack(w, names, item_aval):
    """The values ``names`` (each ``item_aval``) stacked on a new leading axis."""
    if len(names) == 1:
        return w.op("ExpandDims", [names[0], w.constant(0)],
                    item_aval.update(shape=(1,) + tuple(item_aval.shape)))
    expanded = [w.op("ExpandDims", [n, w.constant(0)],
                     item_aval.update(shape=(1,) + tuple(item_aval.shape))) for n in names]
    parts = w.op("MakeTuple", expanded, [item_aval.update(shape=(1,) + tuple(item_aval.shape))]
                 * len(names), kind=PrimType.PRIMITIVE)
    return w.op("Concat", [parts, w.constant(0)],
                item_aval.update(shape=(len(names),) + tuple(item_aval.shape)))


# ---- indexing -----------------------------------------------------------------------------

@emits("getitem")
def _getitem(w, node):
    x, out = node.inputs[0], _out(node)
    spec = tuple(node.params["spec"])
    tensors = node.inputs[1:]
    if not tensors:
        return [basic_index(w, w.value(x), x.aval, spec, out)]
    return [_gather(w, node, x, spec, tensors, out)]


def _expanded(spec, ndim):
    """The spec with its Ellipsis replaced by full slices (one per axis it stands for)."""
    consumed = sum(1 for e in spec if e[0] in "ist")
    out = []
    for entry in spec:
        if entry[0] == "e":
            out += [("s", None, None, None)] * max(ndim - consumed, 0)
        else:
            out.append(entry)
    if not any(e[0] == "e" for e in spec):
        out += [("s", None, None, None)] * max(ndim - consumed, 0)
    return out


def basic_index(w, name, aval, spec, out):
    """``x[spec]`` without index tensors: a StridedSlice over every axis with explicit
    bounds and positive steps (ints as one-element slices), a Gather of the reversed
    positions on each axis with a negative step, then a Reshape that drops the int axes and
    adds the new ones. (Plainer than StridedSlice's five masks; and MindSpore 2.10's CPU
    StridedSlice reverses some whole axes wrongly, so negative steps never reach it.)"""
    begin, end, strides, sliced, reversed_axes = [], [], [], [], []
    axis = 0
    for entry in _expanded(spec, aval.ndim):
        if entry[0] == "n":
            continue
        size = aval.shape[axis]
        if entry[0] == "i":
            i = entry[1] + size if entry[1] < 0 else entry[1]
            begin.append(i), end.append(i + 1), strides.append(1)
            sliced.append(1)
        else:
            positions = range(*slice(*entry[1:]).indices(size))
            if positions.step < 0 and len(positions) > 1:
                reversed_axes.append(axis)
                positions = positions[::-1]
            first = positions[0] if len(positions) else 0
            begin.append(first), end.append(first + len(positions) * abs(positions.step))
            strides.append(abs(positions.step))
            sliced.append(len(positions))
        axis += 1
    result = name
    if any(b != 0 or e < n or s != 1 for b, e, s, n in zip(begin, end, strides, aval.shape)):
        end = [min(e, n) for e, n in zip(end, aval.shape)]
        result = w.op("StridedSlice", [name, w.constant(tuple(begin)), w.constant(tuple(end)),
                                       w.constant(tuple(strides)), w.constant(0),
                                       w.constant(0), w.constant(0), w.constant(0),
                                       w.constant(0)], aval.update(shape=tuple(sliced)))
    for axis in reversed_axes:
        order = np.arange(sliced[axis] - 1, -1, -1, dtype=np.int64)
        result = w.op("Gather", [result, w.constant(order), w.constant(axis), w.constant(0)],
                      aval.update(shape=tuple(sliced)))
    if tuple(sliced) != tuple(out.shape):
        result = w.op("Reshape", [result, w.constant(tuple(out.shape))], out)
    return result


def _gather(w, node, x, spec, tensors, out):
    """``x[..., index, ...]``: one index tensor, every other entry a full slice or the
    Ellipsis, is a Gather on that axis (negative indices counted from the end, as NumPy)."""
    expanded = _expanded(spec, x.aval.ndim)
    full = ("s", None, None, None)
    positions = [i for i, e in enumerate(expanded) if e[0] == "t"]
    if len(tensors) != 1 or len(positions) != 1 or any(
            e != full for e in expanded if e[0] != "t"):
        raise ExportError(f"export: getitem{_where(node)} with index {spec} has no MindIR "
                          f"form (one index tensor on one axis is supported)")
    axis = positions[0]
    index = tensors[0]
    size = x.aval.shape[axis]
    idx = w.value(index)
    idx_aval = index.aval
    # wrap negative indices: index + size where index < 0
    zero = w.constant(np.zeros((), idx_aval.dtype))
    negative = w.op("Less", [idx, zero], idx_aval.update(dtype=dt.bool_))
    shifted = w.op("Add", [idx, w.constant(np.asarray(size, idx_aval.dtype))], idx_aval)
    idx = w.op("Select", [negative, shifted, idx], idx_aval)
    return w.op("Gather", [w.value(x), idx, w.constant(axis), w.constant(0)], out)


# ---- linear algebra -------------------------------------------------------------------

@emits("matmul")
def _matmul(w, node):
    a, b = node.inputs
    out = _out(node)
    false = w.constant(False)
    if a.aval.ndim == 2 and b.aval.ndim == 2:
        return [w.op("MatMul", [w.value(a), w.value(b), false, false], out)]
    if b.aval.ndim == 2:
        # (..., M, K) @ (K, N): one matrix product over all rows, as tensorjit computes it
        rows = math.prod(a.aval.shape[:-1])
        flat = w.op("Reshape", [w.value(a), w.constant((rows, a.aval.shape[-1]))],
                    a.aval.update(shape=(rows, a.aval.shape[-1])))
        product = w.op("MatMul", [flat, w.value(b), false, false],
                       out.update(shape=(rows, b.aval.shape[-1])))
        return [w.op("Reshape", [product, w.constant(tuple(out.shape))], out)]
    batch = tuple(out.shape[:-2])
    operands = [_broadcast(w, v, batch + tuple(v.aval.shape[-2:])) for v in (a, b)]
    return [w.op("BatchMatMul", operands + [false, false], out)]


@emits("conv2d")
def _conv2d(w, node):
    x, weight = node.inputs
    p = node.params
    out_channels, _, kh, kw = weight.aval.shape
    pads = tuple(int(v) for v in p["padding"])
    attributes = {"kernel_size": (kh, kw), "mode": 1, "out_channel": out_channels,
                  "pad": pads, "pad_mode": "pad", "format": "NCHW", "pad_list": pads,
                  "groups": int(p["groups"]), "group": int(p["groups"]),
                  "stride": (1, 1) + tuple(p["stride"]),
                  "dilation": (1, 1) + tuple(p["dilation"]),
                  "input_names": ["x", "w"], "output_names": ["output"]}
    return [w.op("Conv2D", [w.value(x), w.value(weight)], _out(node), attributes,
                 kind=PrimType.PRIMITIVE)]


# ---- loops ------------------------------------------------------------------------------

@emits("scan")
def _scan(w, node):
    """Unrolled: MindSpore would need a FuncGraph loop with its own calling conventions;
    the trip count is static, so each step's nodes are emitted in turn (the body inline,
    its per-step inputs sliced out, its per-step outputs stacked)."""
    p = node.params
    body, length = p["body"], p["length"]
    n_consts, n_carry = p["num_consts"], p["num_carry"]
    operands = node.inputs
    consts = [w.value(v) for v in operands[:n_consts]]
    carry = [w.value(v) for v in operands[n_consts:n_consts + n_carry]]
    xs = operands[n_consts + n_carry:]
    y_avals = [v.aval for v in body.outputs[n_carry:]]
    ys = [[None] * length for _ in y_avals]
    steps = range(length - 1, -1, -1) if p["reverse"] else range(length)
    for t in steps:
        x_t = [basic_index(w, w.value(x), x.aval, (("i", t),),
                           x.aval.update(shape=tuple(x.aval.shape[1:]))) for x in xs]
        results = w.emit_graph(body, consts + carry + x_t)
        carry = results[:n_carry]
        for j, y in enumerate(results[n_carry:]):
            ys[j][t] = y
    if length == 0:
        raise ExportError(f"export: scan{_where(node)} of zero steps has no MindIR form")
    return carry + [stack(w, names, aval) for names, aval in zip(ys, y_avals)]
