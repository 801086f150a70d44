"""Reading ONNX's elementwise, shape, reduction, sorting and random operators as
primitives: ``IMPORTS[op_type](call)`` returns the values of the node's outputs
(``reader.Call``: its inputs, constant inputs, attributes and ``bind`` of primitives).
With ``reader_nn.py`` (networks), ``index.py`` (indexing) and
``control.py`` (Scan, Loop, If) they cover what tensorjit writes and the
default-domain operators exporters such as PyTorch's write for vision and transformer
models, back to opset 11 (operands that were attributes before becoming inputs are read
from either place). Formulas follow the functional ops (``ops.clamp``, ``ops.elu``,
``ops.mean`` ...), so a loaded model computes what the same tensorjit code would.
"""
import math

import numpy as np

from . import IMPORTS, reads
from .reader import FOLD_LIMIT, FULL, axis_of, dtype_of, getitem, lit, reshape, shape_of
from .index import along


# ---- elementwise ---------------------------------------------------------------------------

def _unary(prim):
    return lambda c: c.bind(prim, c.x(0))


def _binary(prim):
    return lambda c: c.bind(prim, c.x(0), c.x(1))


_UNARY = {"Neg": "neg", "Abs": "abs", "Sign": "sign", "Exp": "exp", "Log": "log",
          "Sqrt": "sqrt", "Sin": "sin", "Cos": "cos", "Tan": "tan", "Tanh": "tanh",
          "Atan": "atan", "Sigmoid": "sigmoid", "Relu": "relu", "Erf": "erf",
          "Softplus": "softplus", "Softsign": "softsign", "Floor": "floor", "Ceil": "ceil",
          "Round": "round", "Not": "logical_not", "IsNaN": "isnan"}
_BINARY = {"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div", "Equal": "eq",
           "Less": "lt", "LessOrEqual": "le", "Greater": "gt", "GreaterOrEqual": "ge",
           "And": "logical_and", "Or": "logical_or", "Xor": "logical_xor",
           "BitwiseAnd": "bitwise_and", "BitwiseOr": "bitwise_or",
           "BitwiseXor": "bitwise_xor"}
IMPORTS.update({k: _unary(v) for k, v in _UNARY.items()})
IMPORTS.update({k: _binary(v) for k, v in _BINARY.items()})


@reads("Identity")
def _identity(c):
    return c.x(0)


@reads("Max", "Min", "Sum", "Mean")
def _variadic(c):
    prim = {"Max": "maximum", "Min": "minimum", "Sum": "add", "Mean": "add"}[c.proto.op_type]
    values = c.inputs()
    out = values[0]
    for v in values[1:]:
        out = c.bind(prim, out, v)
    if c.proto.op_type == "Mean" and len(values) > 1:
        out = c.bind("div", out, lit(len(values), out))
    return out


@reads("Pow")
def _pow(c):
    x, y = c.x(0), c.x(1)
    if dtype_of(y) != dtype_of(x):
        y = c.bind("cast", y, dtype=dtype_of(x))
    return c.bind("pow", x, y)


@reads("Reciprocal")
def _reciprocal(c):
    x = c.x(0)
    return c.bind("div", lit(1, x), x)


@reads("IsInf")
def _isinf(c):
    x = c.x(0)
    out = c.bind("isinf", x)
    negative, positive = c.attr("detect_negative", 1), c.attr("detect_positive", 1)
    if negative and not positive:
        out = c.bind("logical_and", out, c.bind("lt", x, lit(0, x)))
    elif positive and not negative:
        out = c.bind("logical_and", out, c.bind("gt", x, lit(0, x)))
    elif not positive:
        out = c.bind("logical_and", out, np.asarray(False))
    return out


@reads("Cast", "CastLike")
def _cast(c):
    x = c.x(0)
    to = c.dtype(c.attr("to")) if c.proto.op_type == "Cast" else dtype_of(c.x(1))
    return x if dtype_of(x) == to else c.bind("cast", x, dtype=to)


@reads("Where")
def _where(c):
    return c.bind("where", c.x(0), c.x(1), c.x(2))


@reads("Mod")
def _mod(c):
    """fmod=0: NumPy's modulo (the divisor's sign); fmod=1: C's (the dividend's)."""
    x, y = c.x(0), c.x(1)
    r = c.bind("mod", x, y)
    if not c.attr("fmod", 0):
        return r
    zero = lit(0, x)
    moved = c.bind("ne", c.bind("lt", r, zero), c.bind("lt", x, zero))
    fix = c.bind("logical_and", c.bind("ne", r, zero), moved)
    return c.bind("where", fix, c.bind("sub", r, y), r)


@reads("Gelu")
def _gelu(c):
    return c.bind("gelu", c.x(0), approximate=c.attr("approximate", "none"))


def _clamp(c, x, low, high):
    """``ops.clamp``'s formula: NaN stays NaN."""
    if low is not None:
        x = c.bind("where", c.bind("lt", x, low), low, x)
    if high is not None:
        x = c.bind("where", c.bind("gt", x, high), high, x)
    return x


@reads("Clip")
def _clip(c):
    return _clamp(c, c.x(0), c.x(1), c.x(2))


@reads("LeakyRelu", "PRelu")
def _leaky_relu(c):
    x = c.x(0)
    slope = c.x(1) if c.proto.op_type == "PRelu" else lit(c.attr("alpha", 0.01), x)
    return c.bind("where", c.bind("gt", x, lit(0, x)), x, c.bind("mul", x, slope))


@reads("Elu")
def _elu(c):
    x = c.x(0)
    positive = c.bind("gt", x, lit(0, x))
    negative = c.bind("where", positive, lit(0, x), x)
    return c.bind("where", positive, x, c.bind("mul", c.bind("expm1", negative),
                                                lit(c.attr("alpha", 1.0), x)))


def _hard_sigmoid(c, x, alpha, beta):
    linear = c.bind("add", c.bind("mul", x, lit(alpha, x)), lit(beta, x))
    return _clamp(c, linear, lit(0, x), lit(1, x))


@reads("HardSigmoid")
def _hardsigmoid(c):
    return _hard_sigmoid(c, c.x(0), c.attr("alpha", 0.2), c.attr("beta", 0.5))


@reads("HardSwish")
def _hardswish(c):
    x = c.x(0)
    return c.bind("mul", x, _hard_sigmoid(c, x, 1 / 6, 0.5))


@reads("Swish")
def _swish(c):
    x, alpha = c.x(0), c.attr("alpha", 1.0)
    if alpha == 1.0:
        return c.bind("silu", x)
    return c.bind("mul", x, c.bind("sigmoid", c.bind("mul", x, lit(alpha, x))))


# ---- shapes ----------------------------------------------------------------------------

@reads("Reshape")
def _reshape(c):
    x, shape = c.x(0), [int(d) for d in c.const(1, "shape")]
    if not c.attr("allowzero", 0):
        shape = [shape_of(x)[i] if d == 0 else d for i, d in enumerate(shape)]
    if -1 in shape:
        known = math.prod(d for d in shape if d != -1)
        shape[shape.index(-1)] = math.prod(shape_of(x)) // known if known else 0
    return reshape(c, x, shape)


@reads("Flatten")
def _flatten(c):
    x = c.x(0)
    shape = shape_of(x)
    axis = axis_of(c.attr("axis", 1), len(shape))
    return reshape(c, x, (math.prod(shape[:axis]), math.prod(shape[axis:])))


def _axes_of(c, index, ndim):
    axes = c.const(index, "axes") if c.has(index) else c.attr("axes")
    return None if axes is None else sorted(axis_of(a, ndim) for a in np.ravel(axes))


@reads("Squeeze")
def _squeeze(c):
    x = c.x(0)
    shape = shape_of(x)
    axes = _axes_of(c, 1, len(shape))
    if axes is None:
        axes = [i for i, d in enumerate(shape) if d == 1]
    return reshape(c, x, [d for i, d in enumerate(shape) if i not in axes])


@reads("Unsqueeze")
def _unsqueeze(c):
    x = c.x(0)
    shape = list(shape_of(x))
    axes = np.ravel(c.const(1, "axes") if c.has(1) else c.attr("axes"))
    for a in sorted(axis_of(a, len(shape) + len(axes)) for a in axes):
        shape.insert(a, 1)
    return reshape(c, x, shape)


@reads("Transpose")
def _transpose(c):
    x = c.x(0)
    perm = tuple(int(p) for p in c.attr("perm", list(reversed(range(len(shape_of(x)))))))
    return x if perm == tuple(range(len(perm))) else c.bind("transpose", x, perm=perm)


@reads("Expand")
def _expand(c):
    x = c.x(0)
    shape = tuple(np.broadcast_shapes(shape_of(x), tuple(int(d) for d in c.const(1, "shape"))))
    return x if shape == shape_of(x) else c.bind("broadcast_to", x, shape=shape)


@reads("Concat")
def _concat(c):
    values = c.inputs()
    if len(values) == 1:
        return values[0]
    return c.bind("concat", *values, axis=axis_of(c.attr("axis"), len(shape_of(values[0]))))


@reads("Shape")
def _shape_op(c):
    shape = shape_of(c.x(0))
    start, end = c.attr("start", 0), c.attr("end", len(shape))
    return np.asarray(shape[start:end], np.int64)


@reads("Size")
def _size(c):
    return np.asarray(math.prod(shape_of(c.x(0))), np.int64)


@reads("Constant")
def _constant(c):
    for key in ("value", "value_float", "value_floats", "value_int", "value_ints"):
        if key in c.attrs:
            value = c.attrs[key]
            if key == "value":
                return c.scope.reader.array(value)
            return np.asarray(value, np.float32 if "float" in key else np.int64)
    return c.fail(f"only tensor, float and int constants are supported, got "
                  f"{sorted(c.attrs)}")


@reads("ConstantOfShape")
def _constant_of_shape(c):
    value = c.attrs.get("value")
    fill = c.scope.reader.array(value).reshape(-1) if value is not None else \
        np.zeros(1, np.float32)
    shape = tuple(int(d) for d in c.const(0, "shape"))
    return c.bind("full", shape=shape, value=fill[0].item(), dtype=fill.dtype)


@reads("Range")
def _range(c):
    start, limit, delta = (c.const(i, name) for i, name in enumerate(("start", "limit", "delta")))
    if delta == 0 or (limit - start) / delta > FOLD_LIMIT:
        c.fail(f"a range of {start} to {limit} by {delta} is not supported")
    return np.arange(start, limit, delta, dtype=start.dtype)


@reads("Tile")
def _tile(c):
    x, repeats = c.x(0), [int(r) for r in c.const(1, "repeats")]
    shape = shape_of(x)
    spread = c.bind("broadcast_to", reshape(c, x, sum(((1, d) for d in shape), ())),
                    shape=sum(((r, d) for r, d in zip(repeats, shape)), ()))
    return reshape(c, spread, [r * d for r, d in zip(repeats, shape)])


@reads("Pad")
def _pad(c):
    x = c.x(0)
    if c.attr("mode", "constant") != "constant":
        c.fail(f"mode {c.attr('mode')!r} is not supported (only 'constant')")
    ndim = len(shape_of(x))
    pads = [int(p) for p in c.const(1, "pads")]
    axes = _axes_of(c, 3, ndim) or list(range(ndim))
    value = c.const(2, "constant_value", np.zeros((), dtype_of(x)))
    if any(p < 0 for p in pads):
        c.fail("negative pads are not supported")
    pairs = [(0, 0)] * ndim
    for k, a in enumerate(axes):
        pairs[a] = (pads[k], pads[k + len(axes)])
    if not any(b or e for b, e in pairs):
        return x
    return c.bind("pad", x, pads=tuple(pairs), value=np.asarray(value).reshape(()).item())


@reads("Dropout")
def _dropout(c):
    x = c.x(0)
    training = c.const(2, "training_mode", np.asarray(False))
    if bool(training):
        ratio = float(c.const(1, "ratio", np.asarray(0.5)))
        return c.bind("dropout", x, p=ratio)
    return [x, np.ones(shape_of(x), np.bool_)]


# ---- reductions ------------------------------------------------------------------------

def _reduction_axes(c, ndim):
    axes = c.const(1, "axes") if c.has(1) else c.attr("axes")
    if axes is None or not len(axes):
        return None if c.attr("noop_with_empty_axes", 0) else tuple(range(ndim))
    return tuple(sorted(axis_of(a, ndim) for a in np.ravel(axes)))


def _reduce(prim, before=None, after=None):
    def read(c):
        x = c.x(0)
        axes = _reduction_axes(c, len(shape_of(x)))
        if axes is None:
            return x
        y = before(c, x) if before else x
        out = c.bind(prim, y, axes=axes, keepdims=bool(c.attr("keepdims", 1)))
        return after(c, out, math.prod(shape_of(x)[a] for a in axes)) if after else out
    return read


def mean(c, total, count):
    """The mean from the sum of ``count`` elements, as ``ops.mean`` computes it."""
    return c.bind("mul", total, lit(1.0 / count, total)) if count else \
        c.bind("div", total, lit(0, total))


IMPORTS.update(
    ReduceSum=_reduce("reduce_sum"), ReduceMax=_reduce("reduce_max"),
    ReduceMin=_reduce("reduce_min"), ReduceProd=_reduce("reduce_prod"),
    ReduceMean=_reduce("reduce_sum", after=mean),
    ReduceSumSquare=_reduce("reduce_sum", before=lambda c, x: c.bind("mul", x, x)),
    ReduceL1=_reduce("reduce_sum", before=lambda c, x: c.bind("abs", x)),
    ReduceL2=_reduce("reduce_sum", before=lambda c, x: c.bind("mul", x, x),
                     after=lambda c, total, n: c.bind("sqrt", total)))


@reads("ArgMax", "ArgMin")
def _arg(c):
    if c.attr("select_last_index", 0):
        c.fail("select_last_index=1 is not supported")
    x = c.x(0)
    return c.bind(c.proto.op_type.lower(), x, axis=axis_of(c.attr("axis", 0), len(shape_of(x))),
                  keepdims=bool(c.attr("keepdims", 1)))


@reads("CumSum", "CumProd")
def _cumulative(c):
    if c.attr("exclusive", 0):
        c.fail("exclusive=1 is not supported")
    x = c.x(0)
    axis = axis_of(int(np.ravel(c.const(1, "axis"))[0]), len(shape_of(x)))
    return c.bind(c.proto.op_type.lower(), x, axis=axis, reverse=bool(c.attr("reverse", 0)))


@reads("TopK")
def _topk(c):
    x = c.x(0)
    k = int(np.ravel(c.const(1, "K"))[0])
    axis = axis_of(c.attr("axis", -1), len(shape_of(x)))
    order = c.bind("argsort", x, axis=axis, descending=bool(c.attr("largest", 1)))
    order = getitem(c, order, [FULL] * axis + [("s", 0, k, None)])
    values = getitem(c, x, [("t",)] * len(shape_of(x)), *along(order, axis))
    return [values, order]


# ---- random ------------------------------------------------------------------------------

@reads("RandomUniform", "RandomNormal")
def _random(c):
    dtype = c.dtype(c.attr("dtype", 1))
    shape = tuple(c.attr("shape"))
    if c.proto.op_type == "RandomUniform":
        u = c.bind("random_uniform", shape=shape, dtype=dtype)
        low, high = c.attr("low", 0.0), c.attr("high", 1.0)
        scale, shift = high - low, low
    else:
        u = c.bind("random_normal", shape=shape, dtype=dtype)
        scale, shift = c.attr("scale", 1.0), c.attr("mean", 0.0)
    if scale != 1.0:
        u = c.bind("mul", u, lit(scale, u))
    return c.bind("add", u, lit(shift, u)) if shift else u
