"""Writing each primitive as ONNX nodes: ``OPS[primitive name](writer, node, inputs,
outputs)`` appends the nodes computing ``node``'s results into the value names
``outputs`` from the value names ``inputs`` (``onnx_format.Writer`` owns the names).

Each mapping keeps the primitive's numerics: the same formula in the same order where
ONNX has no single operator (rsqrt is ``1 / sqrt``, silu ``x * sigmoid(x)``), exact or
tanh GELU as its ``approximate`` says, NumPy's modulo sign and float floor division (its
divmod steps), comparisons giving bool. ``log1p`` and ``expm1`` have no ONNX operator:
``log(1 + x)`` and ``exp(x) - 1`` lose their precision for |x| below ~1e-4 (absolute
error stays below 1e-7).
Shapes are static, so shape operands (``Reshape``'s, ``Slice``'s ...) are constants.
Indexing is written in ``index.py``, control flow in ``control.py``.
Primitives absent from ``OPS`` have no ONNX form (a convolution's weight gradient,
pooling's ``fold``, effects, collectives, ``atan2``, cumulative max / min ...): export
names them.
"""
import numpy as np

from ... import dtype as dt
from . import OPS, writes
from ..program import ExportError


def _aval(node, i=0):
    return node.inputs[i].aval


# ---- elementwise -------------------------------------------------------------------------

def _same(onnx_op):
    def write(w, node, ins, outs):
        w.op(onnx_op, ins, outs[0])
    return write


_ONE_TO_ONE = {
    "neg": "Neg", "abs": "Abs", "sign": "Sign", "exp": "Exp", "log": "Log", "sqrt": "Sqrt",
    "sin": "Sin", "cos": "Cos", "tan": "Tan", "tanh": "Tanh", "atan": "Atan",
    "sigmoid": "Sigmoid", "erf": "Erf", "softplus": "Softplus", "softsign": "Softsign",
    "logical_not": "Not", "identity": "Identity", "stop_gradient": "Identity",
    "sub": "Sub", "div": "Div", "pow": "Pow", "eq": "Equal", "lt": "Less",
    "le": "LessOrEqual", "gt": "Greater", "ge": "GreaterOrEqual", "logical_and": "And",
    "logical_or": "Or", "logical_xor": "Xor", "bitwise_and": "BitwiseAnd",
    "bitwise_or": "BitwiseOr", "bitwise_xor": "BitwiseXor", "where": "Where",
    "matmul": "MatMul",
}
for _prim, _onnx_op in _ONE_TO_ONE.items():
    OPS[_prim] = _same(_onnx_op)


def _bool_or(onnx_op, bool_op):
    """NumPy's bool + bool is logical or, bool * bool logical and (so max / min)."""
    def write(w, node, ins, outs):
        w.op(bool_op if _aval(node).dtype == dt.bool_ else onnx_op, ins, outs[0])
    return write


OPS.update(add=_bool_or("Add", "Or"), mul=_bool_or("Mul", "And"),
           maximum=_bool_or("Max", "Or"), minimum=_bool_or("Min", "And"))


@writes("floor", "ceil", "round")
def _rounding(w, node, ins, outs):
    # integers are already whole (ONNX's Floor / Ceil / Round take floats only)
    op = {"floor": "Floor", "ceil": "Ceil", "round": "Round"}[node.prim.name]
    w.op(op if dt.is_float(_aval(node).dtype) else "Identity", ins, outs[0])


@writes("relu")
def _relu(w, node, ins, outs):
    if dt.is_float(_aval(node).dtype):
        w.op("Relu", ins, outs[0])
    else:
        w.op("Max", [ins[0], w.scalar(0, _aval(node).dtype)], outs[0])


@writes("rsqrt")
def _rsqrt(w, node, ins, outs):
    w.op("Reciprocal", [w.op("Sqrt", ins)], outs[0])


@writes("silu")
def _silu(w, node, ins, outs):
    w.op("Mul", [ins[0], w.op("Sigmoid", ins)], outs[0])


@writes("log1p")
def _log1p(w, node, ins, outs):
    w.op("Log", [w.op("Add", [ins[0], w.scalar(1, _aval(node).dtype)])], outs[0])


@writes("expm1")
def _expm1(w, node, ins, outs):
    w.op("Sub", [w.op("Exp", ins), w.scalar(1, _aval(node).dtype)], outs[0])


@writes("gelu")
def _gelu(w, node, ins, outs):
    approximate = node.params["approximate"]
    if w.opset >= 20:
        w.op("Gelu", ins, outs[0], approximate=approximate)
        return
    x, d = ins[0], _aval(node).dtype
    if approximate == "tanh":      # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        cube = w.op("Mul", [w.op("Mul", [x, x]), x])
        inner = w.op("Add", [x, w.op("Mul", [cube, w.scalar(0.044715, d)])])
        t = w.op("Tanh", [w.op("Mul", [inner, w.scalar(np.sqrt(2 / np.pi), d)])])
    else:                          # 0.5 x (1 + erf(x / sqrt(2)))
        t = w.op("Erf", [w.op("Div", [x, w.scalar(np.sqrt(2), d)])])
    half = w.op("Mul", [x, w.scalar(0.5, d)])
    w.op("Mul", [half, w.op("Add", [t, w.scalar(1, d)])], outs[0])


@writes("isnan", "isinf", "isfinite")
def _tests(w, node, ins, outs):
    name, aval = node.prim.name, _aval(node)
    if not dt.is_float(aval.dtype):        # integers are never NaN or infinite
        _filled(w, aval.shape, name == "isfinite", dt.bool_, outs[0])
    elif name == "isfinite":
        w.op("Not", [w.op("Or", [w.op("IsNaN", ins), w.op("IsInf", ins)])], outs[0])
    else:
        w.op("IsNaN" if name == "isnan" else "IsInf", ins, outs[0])


@writes("cast")
def _cast(w, node, ins, outs):
    w.op("Cast", ins, outs[0], to=w.elem_type(node.params["dtype"]))


@writes("ne")
def _ne(w, node, ins, outs):
    w.op("Not", [w.op("Equal", ins)], outs[0])


@writes("mod")
def _mod(w, node, ins, outs):
    """NumPy's modulo takes the divisor's sign: ONNX Mod(fmod=0) for integers; floats only
    have fmod (the dividend's sign), moved by the divisor where the signs differ."""
    x, y = ins
    d = _aval(node).dtype
    if not dt.is_float(d):
        w.op("Mod", ins, outs[0], fmod=0)
        return
    r = w.op("Mod", ins, fmod=1)
    zero = w.scalar(0, d)
    differ = w.op("Xor", [w.op("Less", [r, zero]), w.op("Less", [y, zero])])
    fix = w.op("And", [w.op("Not", [w.op("Equal", [r, zero])]), differ])
    w.op("Where", [fix, w.op("Add", [r, y]), r], outs[0])


@writes("floordiv")
def _floordiv(w, node, ins, outs):
    x, y = ins
    d = _aval(node).dtype
    if not dt.is_float(d):      # x - x mod y is a multiple of y: dividing it truncates nothing
        w.op("Div", [w.op("Sub", [x, w.op("Mod", ins, fmod=0)]), y], outs[0])
        return
    # NumPy's divmod, not floor(x / y) (1.0 // 0.1 is 9.0): the quotient of x - fmod(x, y),
    # one less where fmod's sign differs from y's, then rounded to the nearest whole number
    r = w.op("Mod", ins, fmod=1)
    zero, one, half = w.scalar(0, d), w.scalar(1, d), w.scalar(0.5, d)
    q = w.op("Div", [w.op("Sub", [x, r]), y])
    differ = w.op("Xor", [w.op("Less", [r, zero]), w.op("Less", [y, zero])])
    fix = w.op("And", [w.op("Not", [w.op("Equal", [r, zero])]), differ])
    q = w.op("Where", [fix, w.op("Sub", [q, one]), q])
    low = w.op("Floor", [q])
    up = w.op("Greater", [w.op("Sub", [q, low]), half])
    w.op("Where", [up, w.op("Add", [low, one]), low], outs[0])


# ---- reductions --------------------------------------------------------------------------

def _reduction(onnx_op, bool_kind):
    def write(w, node, ins, outs):
        axes, keep = node.params["axes"], int(node.params["keepdims"])
        if not axes:
            w.op("Identity", ins, outs[0])
        elif _aval(node).dtype == dt.bool_:
            _any_all(w, ins[0], axes, keep, bool_kind, outs[0])
        else:
            w.op(onnx_op, [ins[0], w.ints(axes)], outs[0], keepdims=keep)
    return write


def _any_all(w, x, axes, keep, kind, out):
    """any: some element is true (a count above 0); all: no element is false."""
    if kind == "all":
        x = w.op("Not", [x])
    count = w.op("ReduceSum", [w.op("Cast", [x], to=w.elem_type(dt.int64)), w.ints(axes)],
                 keepdims=keep)
    if kind == "any":
        w.op("Greater", [count, w.scalar(0, dt.int64)], out)
    else:
        w.op("Equal", [count, w.scalar(0, dt.int64)], out)


OPS.update(reduce_sum=_reduction("ReduceSum", "any"), reduce_prod=_reduction("ReduceProd", "all"),
           reduce_min=_reduction("ReduceMin", "all"), reduce_any=_reduction(None, "any"),
           reduce_all=_reduction(None, "all"))


@writes("reduce_max")
def _reduce_max(w, node, ins, outs):
    pool = w.deferred.get(node.inputs[0])
    if pool is not None:        # max over the windows of an unfold: one MaxPool
        window, x = pool
        p = window.params
        w.op("MaxPool", [x], outs[0], kernel_shape=list(p["kernel"]),
             strides=list(p["stride"]), dilations=list(p["dilation"]),
             pads=_pads2d(p["padding"]))
        return
    _reduction("ReduceMax", "any")(w, node, ins, outs)


@writes("argmax", "argmin")
def _arg(w, node, ins, outs):
    op = "ArgMax" if node.prim.name == "argmax" else "ArgMin"
    if _aval(node).ndim == 0:
        w.op("Identity", [w.constant(np.asarray(0, np.int64))], outs[0])
        return
    w.op(op, ins, outs[0], axis=node.params["axis"], keepdims=int(node.params["keepdims"]))


@writes("softmax", "log_softmax")
def _softmax(w, node, ins, outs):
    op = "Softmax" if node.prim.name == "softmax" else "LogSoftmax"
    w.op(op, ins, outs[0], axis=node.params["axis"])


@writes("cumsum", "cumprod")
def _cumulative(w, node, ins, outs):
    p = node.params
    if node.prim.name == "cumprod" and w.opset < 26:
        raise ExportError(f"cumprod needs ONNX opset 26 (CumProd); this export uses {w.opset}")
    op = "CumSum" if node.prim.name == "cumsum" else "CumProd"
    w.op(op, [ins[0], w.constant(np.asarray(p["axis"], np.int64))], outs[0],
         reverse=int(p["reverse"]))


@writes("argsort")
def _argsort(w, node, ins, outs):
    """TopK of every element: ties keep the lower index first, as the stable sort."""
    p, aval = node.params, _aval(node)
    w.op("TopK", [ins[0], w.ints([aval.shape[p["axis"]]])], [w.unique("sorted"), outs[0]],
         axis=p["axis"], largest=int(p["descending"]), sorted=1)


# ---- shapes ------------------------------------------------------------------------------

@writes("reshape")
def _reshape(w, node, ins, outs):
    shape = node.params["shape"]
    w.op("Reshape", [ins[0], w.ints(shape)], outs[0], allowzero=1 if 0 in shape else None)


@writes("transpose")
def _transpose(w, node, ins, outs):
    w.op("Transpose", ins, outs[0], perm=list(node.params["perm"]))


@writes("broadcast_to")
def _broadcast_to(w, node, ins, outs):
    w.op("Expand", [ins[0], w.ints(node.params["shape"])], outs[0])


@writes("concat")
def _concat(w, node, ins, outs):
    w.op("Concat", ins, outs[0], axis=node.params["axis"])


@writes("pad")
def _pad(w, node, ins, outs):
    pads, d = node.params["pads"], _aval(node).dtype
    w.op("Pad", [ins[0], w.ints([b for b, _ in pads] + [a for _, a in pads]),
                 w.scalar(node.params["value"], d)], outs[0], mode="constant")


@writes("full")
def _full(w, node, ins, outs):
    _filled(w, node.params["shape"], node.params["value"], node.params["dtype"], outs[0])


def _filled(w, shape, value, dtype, out):
    fill = w.onnx.numpy_helper.from_array(np.asarray([value], dtype=np.dtype(dtype)))
    w.op("ConstantOfShape", [w.ints(shape)], out, value=fill)


# ---- convolution and pooling ------------------------------------------------------------

def _pads2d(padding):
    top, bottom, left, right = padding
    return [top, left, bottom, right]


@writes("conv2d")
def _conv2d(w, node, ins, outs):
    p = node.params
    w.op("Conv", ins, outs[0], kernel_shape=list(_aval(node, 1).shape[2:]),
         strides=list(p["stride"]), dilations=list(p["dilation"]), pads=_pads2d(p["padding"]),
         group=p["groups"])


@writes("conv2d_input_grad")
def _conv_transpose(w, node, ins, outs):
    """The input gradient of a convolution is its transpose (conv_transpose2d)."""
    p = node.params
    dy, kernel = _aval(node).shape, _aval(node, 1).shape[2:]
    top, bottom, left, right = p["padding"]
    natural = [(dy[2 + i] - 1) * p["stride"][i] - pads + p["dilation"][i] * (kernel[i] - 1) + 1
               for i, pads in enumerate((top + bottom, left + right))]
    extra = [p["x_shape"][2 + i] - natural[i] for i in range(2)]
    w.op("ConvTranspose", ins, outs[0], kernel_shape=list(kernel), strides=list(p["stride"]),
         dilations=list(p["dilation"]), pads=_pads2d(p["padding"]), group=p["groups"],
         output_padding=extra if any(extra) else None)


@writes("unfold")
def _unfold(w, node, ins, outs):
    """The (N, C, OH, OW, KH, KW) windows; when only max-reductions over the windows
    read them (max pooling), the reduction writes one MaxPool instead."""
    p = node.params
    users = w.users.get(node.outputs[0], [])
    if users and dt.is_float(_aval(node).dtype) and p["pad_value"] == -np.inf and all(
            u is not None and u.prim.name == "reduce_max" and tuple(u.params["axes"]) == (4, 5)
            and not u.params["keepdims"] for u in users):
        w.deferred[node.outputs[0]] = (node, ins[0])
        return
    x, (kh, kw), (sh, sw), (dh, dw) = ins[0], p["kernel"], p["stride"], p["dilation"]
    n, c, oh, ow = node.outputs[0].aval.shape[:4]
    if any(p["padding"]):
        top, bottom, left, right = p["padding"]
        x = w.op("Pad", [x, w.ints([0, 0, top, left, 0, 0, bottom, right]),
                         w.scalar(p["pad_value"], _aval(node).dtype)], mode="constant")
    axes, steps, columns = w.ints([2, 3]), w.ints([sh, sw]), []
    for i in range(kh):
        for j in range(kw):
            start = [i * dh, j * dw]
            stop = [start[0] + sh * (oh - 1) + 1, start[1] + sw * (ow - 1) + 1]
            window = w.op("Slice", [x, w.ints(start), w.ints(stop), axes, steps])
            columns.append(w.op("Reshape", [window, w.ints([n, c, oh, ow, 1])]))
    stacked = w.op("Concat", columns, axis=4) if len(columns) > 1 else columns[0]
    w.op("Reshape", [stacked, w.ints([n, c, oh, ow, kh, kw])], outs[0])


# ---- normalization ---------------------------------------------------------------------

@writes("layer_norm")
def _layer_norm(w, node, ins, outs):
    w.op("LayerNormalization", ins, outs[0], axis=-node.params["ndims"],
         epsilon=float(node.params["eps"]))


@writes("batch_norm")
def _batch_norm(w, node, ins, outs):
    """Training-mode batch norm: normalised with the batch's statistics, which it also
    returns (ONNX's BatchNormalization returns running statistics instead)."""
    x, gamma, beta = ins
    aval = _aval(node)
    d, c = aval.dtype, aval.shape[1]
    axes = w.ints([0] + list(range(2, aval.ndim)))
    per_channel = w.ints([1, c] + [1] * (aval.ndim - 2))
    mean = w.op("ReduceMean", [x, axes], keepdims=1)
    centered = w.op("Sub", [x, mean])
    var = w.op("ReduceMean", [w.op("Mul", [centered, centered]), axes], keepdims=1)
    shifted = w.op("Add", [var, w.scalar(node.params["eps"], d)])
    inv = w.op("Reciprocal", [w.op("Sqrt", [shifted])])
    scale = w.op("Mul", [w.op("Reshape", [gamma, per_channel]), inv])
    shift = w.op("Sub", [w.op("Reshape", [beta, per_channel]), w.op("Mul", [mean, scale])])
    w.op("Add", [w.op("Mul", [x, scale]), shift], outs[0])
    w.op("Reshape", [mean, w.ints([c])], outs[1])
    w.op("Reshape", [var, w.ints([c])], outs[2])


# ---- random ------------------------------------------------------------------------------

@writes("random_uniform", "random_normal")
def _random(w, node, ins, outs):
    p = node.params
    op = "RandomUniform" if node.prim.name == "random_uniform" else "RandomNormal"
    w.op(op, [], outs[0], dtype=w.elem_type(p["dtype"]), shape=list(p["shape"]))


@writes("dropout")
def _dropout(w, node, ins, outs):
    ratio = w.scalar(node.params["p"], _aval(node).dtype)
    w.op("Dropout", [ins[0], ratio, w.constant(np.asarray(True))], outs)
