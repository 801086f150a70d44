"""MindSpore operators as tensorjit primitives, for reading MindIR files: the table, and
the plumbing, elementwise and reduction operators (shape operators are in
``read_shape_ops``, network layers in ``read_nn_ops``).

An importer ``fn(r, inputs, attrs) -> value`` gets the node's input values (tensors as
Vars or Literals, settings as ``Const``, tuples as ``Seq``) and, for a PRIMITIVE, its
attributes; it appends tensorjit nodes through ``r.bind`` and returns the node's value.
Settings are read from the inputs (MindSpore 2.3+ PRIMITIVE_FUNCTIONs) or, for files of
older MindSpore, from the attributes of the same name. An operator missing here raises a
ValueError naming it.
"""
import math

import numpy as np

from ... import dtype as dt
from ...ir.graph import Literal, Var
from ..program import registrar
from .proto import MindIRFormatError
from .reader import MONAD, Const, Seq
from .schema import TYPE_IDS

IMPORTERS = {}
imports = registrar(IMPORTERS)


def import_op(r, op, inputs, attrs):
    importer = IMPORTERS.get(op)
    if importer is None:
        r.fail(f"MindSpore operator {op!r} is not supported by tensorjit's MindIR reader "
               f"(the operators it reads are listed in tensorjit/deploy/mindir/read_ops.py)")
    try:
        return importer(r, Inputs(r, op, inputs), attrs)
    except MindIRFormatError:
        raise
    except (ArithmeticError, AttributeError, IndexError, KeyError, TypeError,
            ValueError) as exc:
        # settings of the wrong kind (a string where a number goes, a tuple too short):
        # the file is damaged, and the error says where
        r.fail(f"{op} cannot be read from inputs {[_kind(v) for v in inputs]} and settings "
               f"{sorted(attrs)} ({type(exc).__name__}: {exc})")


class Inputs(list):
    """A node's input values; asking for one it does not have is the file's error."""

    def __init__(self, r, op, values):
        super().__init__(values)
        self.r, self.op = r, op

    def __getitem__(self, index):
        if isinstance(index, int) and not -len(self) <= index < len(self):
            self.r.fail(f"{self.op} needs more than the {len(self)} input(s) it has")
        return super().__getitem__(index)


def _kind(value):
    return type(value.value).__name__ if isinstance(value, Const) else type(value).__name__


# ---- reading settings -----------------------------------------------------------------

def setting(r, inputs, index, attrs, name, default=None):
    """Setting ``name``: the node's input ``index`` if present, else the primitive's
    attribute ``name``, else ``default``."""
    if index < len(inputs) and inputs[index] is not MONAD:
        return r.setting(inputs[index], name)
    if name in attrs:
        return attrs[name]
    if default is not None:
        return default
    r.fail(f"the setting {name!r} is missing")


def ints(r, value, name):
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return (int(value),)
    if isinstance(value, (tuple, list)) and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        return tuple(int(v) for v in value)
    r.fail(f"{name} must be integers, got {value!r}")


def axis_of(r, axis, ndim, name="axis"):
    if not isinstance(axis, (int, np.integer)) or isinstance(axis, bool):
        r.fail(f"{name} must be an integer, got {axis!r}")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        r.fail(f"{name} {axis} is out of range for a {ndim}-d tensor")
    return int(axis) % max(ndim, 1)


def tensors(r, *values):
    """Tensor operands of one dtype (MindSpore promotes mixed operands; tensorjit's
    primitives want them equal): Python numbers take the tensors' dtype."""
    known = [v for v in values if isinstance(v, (Var, Literal))]
    like = known[0].aval if known else None
    operands = [r.tensor(v, like) for v in values]
    target = operands[0].aval.dtype
    for v in operands[1:]:
        target = dt.promote_types(target, v.aval.dtype)
    return [cast(r, v, target) for v in operands]


def cast(r, value, dtype):
    if np.dtype(value.aval.dtype) == np.dtype(dtype):
        return value
    if isinstance(value, Literal):
        return Literal(np.asarray(value.value).astype(dtype))
    return r.bind("cast", [value], dtype=np.dtype(dtype))


def reshape(r, value, shape):
    if tuple(value.aval.shape) == tuple(shape):
        return value
    return r.bind("reshape", [value], shape=tuple(int(d) for d in shape))


def resolve_shape(r, shape, size):
    """A shape with at most one -1 (MindSpore's Reshape) made concrete."""
    shape = list(shape)
    if shape.count(-1) > 1 or any(d < -1 for d in shape):
        r.fail(f"cannot reshape into {tuple(shape)}")
    if -1 in shape:
        known = math.prod(d for d in shape if d != -1)
        if known == 0 or size % known:
            r.fail(f"cannot reshape {size} elements into {tuple(shape)}")
        shape[shape.index(-1)] = size // known
    if math.prod(shape) != size:
        r.fail(f"cannot reshape {size} elements into {tuple(shape)}")
    return tuple(shape)


# ---- plumbing: tuples, side effects -----------------------------------------------------

@imports("MakeTuple", "make_tuple", "MakeList", "make_list")
def _make_tuple(r, inputs, attrs):
    return Seq(inputs)


@imports("TupleGetItem", "tuple_getitem", "ListGetItem", "list_getitem")
def _tuple_getitem(r, inputs, attrs):
    if len(inputs) != 2:
        r.fail("TupleGetItem takes a tuple and an index")
    seq, index = inputs[0], r.setting(inputs[1], "index")
    if isinstance(seq, Const) and isinstance(seq.value, tuple):
        seq = Seq([Const(v) for v in seq.value])
    if not isinstance(seq, Seq):
        r.fail("TupleGetItem of something that is not a tuple")
    if not isinstance(index, int) or not -len(seq.items) <= index < len(seq.items):
        r.fail(f"TupleGetItem index {index!r} is out of range for a tuple of "
               f"{len(seq.items)}")
    return seq.items[index]


@imports("Depend", "depend", "Load", "load")
def _first(r, inputs, attrs):
    if not inputs:
        r.fail("takes at least one input")
    return inputs[0]


@imports("UpdateState", "update_state")
def _update_state(r, inputs, attrs):
    return MONAD


@imports("Return", "return")
def _return(r, inputs, attrs):
    return inputs[0] if len(inputs) == 1 else Seq(inputs)


# ---- elementwise -------------------------------------------------------------------------

UNARY = {"Neg": "neg", "Sin": "sin", "Cos": "cos", "Tan": "tan", "Erf": "erf", "Exp": "exp",
         "Log": "log", "Sqrt": "sqrt", "Rsqrt": "rsqrt", "ReLU": "relu", "Sigmoid": "sigmoid",
         "Tanh": "tanh", "Abs": "abs", "Floor": "floor", "Ceil": "ceil", "Sign": "sign",
         "Atan": "atan", "Expm1": "expm1", "Log1p": "log1p", "SiLU": "silu", "IsNan": "isnan",
         "IsInf": "isinf", "IsFinite": "isfinite", "LogicalNot": "logical_not",
         "Softsign": "softsign"}
BINARY = {"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div", "RealDiv": "div",
          "Maximum": "maximum", "Minimum": "minimum", "Pow": "pow", "Atan2": "atan2",
          "FloorDiv": "floordiv", "FloorMod": "mod", "Greater": "gt", "Less": "lt",
          "GreaterEqual": "ge", "LessEqual": "le", "Equal": "eq", "NotEqual": "ne",
          "LogicalAnd": "logical_and", "LogicalOr": "logical_or", "LogicalXor": "logical_xor",
          "LessScalar": "lt", "GreaterEqualScalar": "ge", "EqScalar": "eq",
          "PowTensorScalar": "pow", "FloorDivScalar": "floordiv", "Muls": "mul"}


def _unary(op):
    name = UNARY[op]
    return lambda r, inputs, attrs: r.bind(name, [r.tensor(inputs[0])])


def _binary(op):
    name = BINARY[op]

    def importer(r, inputs, attrs):
        if len(inputs) != 2:
            r.fail(f"{op} takes two operands, got {len(inputs)}")
        x, y = tensors(r, *inputs)
        if name == "div" and not dt.is_float(x.aval.dtype):   # MindSpore's Div divides truly
            x, y = cast(r, x, dt.float32), cast(r, y, dt.float32)
        return r.bind(name, [x, y])
    return importer


IMPORTERS.update({op: _unary(op) for op in UNARY})
IMPORTERS.update({op: _binary(op) for op in BINARY})


@imports("Square")
def _square(r, inputs, attrs):
    x = r.tensor(inputs[0])
    return r.bind("mul", [x, x])


@imports("Reciprocal")
def _reciprocal(r, inputs, attrs):
    x = r.tensor(inputs[0])
    return r.bind("div", tensors(r, Const(1.0), x))


@imports("ReLU6")
def _relu6(r, inputs, attrs):
    x = r.tensor(inputs[0])
    zero, six = tensors(r, x, Const(0.0))[1], tensors(r, x, Const(6.0))[1]
    return r.bind("minimum", [r.bind("maximum", [x, zero]), six])


@imports("GeLU", "FastGeLU")
def _gelu(r, inputs, attrs):
    return r.bind("gelu", [r.tensor(inputs[0])], approximate="tanh")


@imports("GeluExt")
def _gelu_ext(r, inputs, attrs):
    mode = setting(r, inputs, 1, attrs, "approximate", 0)
    return r.bind("gelu", [r.tensor(inputs[0])],
                  approximate="tanh" if mode in (1, "tanh") else "none")


@imports("Select")
def _select(r, inputs, attrs):
    condition = r.tensor(inputs[0])
    x, y = tensors(r, inputs[1], inputs[2])
    return r.bind("where", [condition, x, y])


@imports("Cast")
def _cast(r, inputs, attrs):
    target = setting(r, inputs, 1, attrs, "dst_type")
    dtype = TYPE_IDS.get(target) if isinstance(target, int) else None
    if dtype is None:
        r.fail(f"Cast to type {target!r}, which tensorjit does not know")
    return cast(r, r.tensor(inputs[0]), dtype)


# ---- reductions and normalization --------------------------------------------------------

REDUCTIONS = {"ReduceSum": "reduce_sum", "ReduceMax": "reduce_max", "ReduceMin": "reduce_min",
              "ReduceProd": "reduce_prod", "ReduceAll": "reduce_all", "ReduceAny": "reduce_any",
              "ReduceMean": "mean"}


def _reduction(op):
    def importer(r, inputs, attrs):
        x = r.tensor(inputs[0])
        axes = ints(r, setting(r, inputs, 1, attrs, "axis", ()), f"{op}'s axis")
        keep = bool(setting(r, inputs, 2, attrs, "keep_dims", False))
        skip = op == "ReduceSum" and bool(setting(r, inputs, 3, attrs, "skip_mode", False))
        if not axes:
            if skip:
                return x
            axes = tuple(range(x.aval.ndim))
        axes = tuple(sorted({axis_of(r, a, x.aval.ndim) for a in axes}))
        if REDUCTIONS[op] != "mean":
            return r.bind(REDUCTIONS[op], [x], axes=axes, keepdims=keep)
        total = r.bind("reduce_sum", [x], axes=axes, keepdims=keep)
        count = math.prod(x.aval.shape[a] for a in axes)
        return r.bind("div", tensors(r, total, Const(float(count))))
    return importer


for _op in REDUCTIONS:
    IMPORTERS[_op] = _reduction(_op)


def _arg(op):
    name = "argmin" if op.lower().startswith("argmin") else "argmax"

    def importer(r, inputs, attrs):
        x = r.tensor(inputs[0])
        axis = setting(r, inputs, 1, attrs, "dim" if op.endswith("Ext") else "axis", -1)
        if axis is None:                            # ArgMaxExt(dim=None): the flat index
            x, axis = reshape(r, x, (x.aval.size,)), 0
        axis = axis_of(r, axis, x.aval.ndim)
        if op.endswith("Ext"):
            keep = bool(setting(r, inputs, 2, attrs, "keepdim", False))
            return r.bind(name, [x], axis=axis, keepdims=keep)
        index = r.bind(name, [x], axis=axis, keepdims=False)
        target = TYPE_IDS.get(setting(r, inputs, 2, attrs, "output_type", 34))
        if target is None:
            r.fail(f"{op}'s output type is unknown")
        return cast(r, index, target)
    return importer


IMPORTERS.update({op: _arg(op) for op in ("Argmax", "Argmin", "ArgMaxExt", "ArgMinExt")})


def _cumulative(op):
    name = "cumsum" if op == "CumSum" else "cumprod"

    def importer(r, inputs, attrs):
        x = r.tensor(inputs[0])
        axis = axis_of(r, setting(r, inputs, 1, attrs, "axis"), x.aval.ndim)
        if setting(r, inputs, 2, attrs, "exclusive", False):
            r.fail(f"{op} with exclusive=True is not supported")
        reverse = bool(setting(r, inputs, 3, attrs, "reverse", False))
        return r.bind(name, [x], axis=axis, reverse=reverse)
    return importer


IMPORTERS.update(CumSum=_cumulative("CumSum"), CumProd=_cumulative("CumProd"))


def _softmax(op):
    name = "softmax" if op == "Softmax" else "log_softmax"

    def importer(r, inputs, attrs):
        x = r.tensor(inputs[0])
        axis = setting(r, inputs, 1, attrs, "axis", -1)
        if isinstance(axis, (tuple, list)):
            if len(axis) != 1:
                r.fail(f"{op} over several axes {axis} is not supported")
            axis = axis[0]
        return r.bind(name, [x], axis=axis_of(r, axis, x.aval.ndim))
    return importer


IMPORTERS.update(Softmax=_softmax("Softmax"), LogSoftmax=_softmax("LogSoftmax"))


# the shape operators and the network layers (normalization, matrix products, convolution,
# pooling, LSTM) register themselves from their own modules
from . import read_shape_ops, read_nn_ops   # noqa: E402,F401
