"""A MindIR ``ModelProto`` (MindSpore's export, or tensorjit's) as an ExportedProgram of
tensorjit primitives.

The graph's inputs become the program's inputs, its parameters (``TensorProto`` with data)
become weights named by ``ref_key`` (the MindSpore Parameter name), ``Constant`` nodes
become settings or constant tensors, and every other node is translated by ``read_ops``:
one MindSpore operator may become several tensorjit nodes. Nodes are taken in dependency
order (MindSpore writes them in order; a file that does not is sorted, and a cycle or a
name nothing defines is an error). Each node's result types come from the primitives'
shape rules, so a file that lies about shapes is caught where it lies; the finished graph
is checked by the IR verifier.

Every problem raises ``MindIRFormatError`` (a ValueError) saying what is wrong and where;
reading never executes code from the file.
"""
import math

import numpy as np

from ... import dtype as dt
from ...aval import ShapedArray
from ...ir.graph import Graph, Literal, Node, Ref, Var
from ...ir.verify import IRVerificationError, verify
from ...ops.primitive import PRIMITIVES
from ...tensor import Parameter, Tensor
from ..program import ExportedProgram
from .proto import MindIRFormatError, decode
from .schema import AttributeType, PrimType, SCALAR_TYPES, TENSOR_TYPES

MAX_NODES = 1_000_000
MAX_ELEMENTS = 1 << 32      # one tensor of more elements: a damaged shape, not a model


def read_program(data, label="the MindIR file"):
    model = decode(data, "ModelProto", label)
    if model.graph is None:
        raise MindIRFormatError(f"{label}: no graph (is this a MindIR file?)")
    if model.little_endian is False:
        raise MindIRFormatError(f"{label}: the file was written on a big-endian machine; "
                                f"tensorjit reads little-endian MindIR only")
    return GraphReader(model, label).program()


# ---- values while reading ---------------------------------------------------------------

class Const:
    """A setting known while reading: a number, a tuple, a string, a dtype, None, or an
    array (a constant tensor)."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"Const({self.value!r})"


class Seq:
    """A tuple computed by the graph (MakeTuple, an operator with several results)."""
    __slots__ = ("items",)

    def __init__(self, items):
        self.items = list(items)


class Missing:
    """A result tensorjit does not compute (LayerNorm's statistics, LSTM's workspace):
    reading it is an error naming it."""
    __slots__ = ("what",)

    def __init__(self, what):
        self.what = what


MONAD = Const("<monad>")       # MindSpore's side-effect tokens (Load / UpdateState)


# ---- tensors ----------------------------------------------------------------------------

def tensor_aval(tensor, what, label):
    dtype = TENSOR_TYPES.get(tensor.data_type)
    if dtype is None:
        raise MindIRFormatError(f"{label}: {what} has data type {tensor.data_type}, which "
                                f"tensorjit cannot hold")
    if any(d < 0 for d in tensor.dims):
        raise MindIRFormatError(f"{label}: {what} has dynamic shape {list(tensor.dims)}; "
                                f"tensorjit reads static shapes only (export with fixed "
                                f"input shapes)")
    if math.prod(tensor.dims) > MAX_ELEMENTS:
        raise MindIRFormatError(f"{label}: {what} has shape {list(tensor.dims)}, more "
                                f"elements than any tensor tensorjit runs: the file is "
                                f"damaged")
    return ShapedArray(tuple(tensor.dims), dtype)


def tensor_array(tensor, what, label):
    """The data of a ``TensorProto`` as an array (checked against its shape before any
    allocation: a damaged size cannot ask for more memory than the file holds)."""
    aval = tensor_aval(tensor, what, label)
    if tensor.external_data is not None:
        raise MindIRFormatError(f"{label}: {what} keeps its data in an external file "
                                f"({tensor.external_data.location!r}); tensorjit reads "
                                f"MindIR files with their weights inside")
    if tensor.compression_type:
        raise MindIRFormatError(f"{label}: {what} is compressed (type "
                                f"{tensor.compression_type}); tensorjit reads uncompressed "
                                f"weights only")
    dtype = np.dtype(aval.dtype)
    count = math.prod(aval.shape)
    if tensor.raw_data is not None:
        raw = tensor.raw_data
        if len(raw) != count * dtype.itemsize:
            raise MindIRFormatError(f"{label}: {what} of shape {list(aval.shape)} and dtype "
                                    f"{dtype} needs {count * dtype.itemsize} bytes, the file "
                                    f"holds {len(raw)}")
        return np.frombuffer(raw, dtype).reshape(aval.shape).copy()
    for field in ("float_data", "int32_data", "int64_data", "double_data", "uint64_data"):
        values = getattr(tensor, field)
        if values:
            if len(values) != count:
                raise MindIRFormatError(f"{label}: {what} of shape {list(aval.shape)} holds "
                                        f"{len(values)} values")
            return np.asarray(values).astype(dtype).reshape(aval.shape)
    if count == 0:
        return np.zeros(aval.shape, dtype)
    raise MindIRFormatError(f"{label}: {what} has no data")


# ---- attribute values ---------------------------------------------------------------------

def attribute_value(attr, label):
    """The Python value of an ``AttributeProto`` (a primitive's setting or a Constant)."""
    kind = attr.type
    if kind in (AttributeType.TUPLE, AttributeType.LIST):
        items = tuple(_element(v, label) for v in attr.values)
        return items if kind == AttributeType.TUPLE else list(items)
    if kind == AttributeType.TENSORS or kind == AttributeType.TENSOR:
        tensors = attr.tensors or ([attr.t] if attr.t is not None else [])
        if len(tensors) != 1:
            raise MindIRFormatError(f"{label}: a tensor attribute {attr.name!r} holds "
                                    f"{len(tensors)} tensors")
        return tensor_array(tensors[0], f"constant {attr.name!r}", label)
    if kind in (AttributeType.UMONAD, AttributeType.IOMONAD):
        return MONAD
    if kind == AttributeType.NONE:
        return None
    if kind == AttributeType.STRING:
        return _text(attr.s if attr.s is not None else (attr.strings or [b""])[0], label)
    if kind in (AttributeType.FLOAT, AttributeType.DOUBLE, AttributeType.FLOAT16,
                AttributeType.BFLOAT16):
        value = attr.f if kind != AttributeType.DOUBLE else attr.d
        if value is None:
            value = (attr.floats or attr.doubles or [0.0])[0]
        return float(np.float32(value)) if kind != AttributeType.DOUBLE else float(value)
    if kind == AttributeType.BOOL:
        return bool(attr.i if attr.i is not None else (attr.ints or [0])[0])
    if kind in SCALAR_TYPES:
        return int(attr.i if attr.i is not None else (attr.ints or [0])[0])
    if kind is None and attr.s is not None:
        return _text(attr.s, label)
    raise MindIRFormatError(f"{label}: attribute {attr.name!r} has type {kind}, which "
                            f"tensorjit does not read")


def _element(attr, label):
    """A tuple element: MindSpore writes ``{ints: [v], type: INT64}`` and the like."""
    kind = attr.type
    if kind == AttributeType.BOOL and attr.ints:
        return bool(attr.ints[0])
    if kind in SCALAR_TYPES and kind not in (AttributeType.FLOAT, AttributeType.DOUBLE) \
            and attr.ints:
        return int(attr.ints[0])
    if kind == AttributeType.FLOAT and attr.floats:
        return float(np.float32(attr.floats[0]))
    if kind == AttributeType.DOUBLE and attr.doubles:
        return float(attr.doubles[0])
    if kind == AttributeType.STRING and attr.strings:
        return _text(attr.strings[0], label)
    return attribute_value(attr, label)


def _text(raw, label):
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        raise MindIRFormatError(f"{label}: a string attribute is not UTF-8") from None


# ---- the graph ------------------------------------------------------------------------------

class GraphReader:
    def __init__(self, model, label):
        self.model, self.label = model, label
        self.graph = Graph(model.graph.name or "graph")
        self.env = {}                      # MindIR value name -> Var | Literal | Const | Seq
        self.node_label = label
        self.primitives = {}
        for prim in model.primitives:
            if prim.name in self.primitives:
                self.fail(f"primitive {prim.name!r} is declared twice")
            self.primitives[prim.name] = prim
        self.functions = {g.name for g in model.functions}

    def fail(self, message):
        raise MindIRFormatError(f"{self.node_label}: {message}")

    # ---- building tensorjit nodes -------------------------------------------------------
    def bind(self, prim_name, operands, **params):
        """Append a node of tensorjit primitive ``prim_name``; returns its result Var (a
        list for a primitive with several results)."""
        prim = PRIMITIVES[prim_name]
        try:
            avals = prim.abstract_eval([v.aval for v in operands], params)
        except Exception as exc:           # a shape rule refusing the file's operands
            self.fail(f"{prim_name} cannot take operands "
                      f"{', '.join(str(v.aval) for v in operands)} ({exc})")
        for aval in avals:
            if aval.size > MAX_ELEMENTS:
                self.fail(f"{prim_name} would make a tensor of shape {aval.shape} "
                          f"({aval.size} elements): the file's shapes are damaged")
        outputs = [Var(a) for a in avals]
        self.graph.nodes.append(Node(prim, operands, params, outputs))
        return outputs if prim.multiple_results else outputs[0]

    def tensor(self, value, like=None):
        """A tensor operand from a value: a Var, or a constant (0-d ones inline). A Python
        number takes ``like``'s dtype (MindSpore's scalar operands follow the tensor)."""
        if isinstance(value, (Var, Literal)):
            return value
        if isinstance(value, Const) and value is not MONAD:
            array = value.value
            if isinstance(array, (bool, int, float)) and not isinstance(array, np.ndarray):
                dtype = like.dtype if like is not None else dt.scalar_dtype(array)
                return Literal(np.asarray(array, dtype))
            if isinstance(array, (tuple, list)) and all(
                    isinstance(v, (int, float, bool)) for v in array):
                array = np.asarray(array)
            if isinstance(array, np.ndarray):
                if array.ndim == 0:
                    return Literal(array)
                var = Var(ShapedArray(array.shape, array.dtype))
                self.graph.consts[var] = array
                return var
        if isinstance(value, Missing):
            self.fail(f"reads {value.what}, which tensorjit does not compute")
        self.fail(f"expects a tensor, got {_describe(value)}")

    def setting(self, value, what):
        """A value that must be known while reading (an axis, a shape, a flag)."""
        if isinstance(value, Const) and value is not MONAD:
            array = value.value
            if isinstance(array, np.ndarray) and array.size <= 64 and array.ndim <= 1:
                return array.item() if array.ndim == 0 else tuple(array.tolist())
            return array
        self.fail(f"its {what} must be a constant, got {_describe(value)}")

    # ---- the program -----------------------------------------------------------------
    def program(self):
        g = self.model.graph
        prefix = (g.name or "") + ":"
        input_names = []
        for info in g.input:
            if len(info.tensor) != 1:
                self.fail(f"input {info.name!r} is not described as one tensor")
            var = Var(tensor_aval(info.tensor[0], f"input {info.name!r}", self.label))
            self._define(info.name, var)
            self.graph.inputs.append(var)
            input_names.append(_short(info.name, prefix))
        if g.map_parameter:
            self.fail("the graph has MapParameters (embedding tables of dynamic size); "
                      "tensorjit has none")
        weight_names = set()
        for tensor in g.parameter:
            name = tensor.ref_key or _short(tensor.name or "", prefix)
            if not name:
                self.fail("a parameter has no name")
            if name in weight_names:
                self.fail(f"two parameters are named {name!r}")
            weight_names.add(name)
            array = tensor_array(tensor, f"parameter {name!r}", self.label)
            var = Var(ShapedArray(array.shape, array.dtype))
            self._define(tensor.name or name, var)
            self.graph.refs.append(Ref(var, Parameter(Tensor(array), name=name), name))
        for node in self._ordered(g):
            self._node(node)
        self.node_label = self.label
        outputs = []
        for info in g.output:
            if info.name not in self.env:
                self.fail(f"the graph's output {info.name!r} is not computed by any node")
            outputs += self._flatten(self.env[info.name], f"output {info.name!r}")
        if not outputs:
            self.fail("the graph has no outputs")
        self.graph.outputs = [self._as_var(self.tensor(v)) for v in outputs]
        try:
            verify(self.graph)
        except IRVerificationError as exc:
            self.fail(f"the translated graph does not check: {exc}")
        names = ["output"] if len(outputs) == 1 else [f"output{i}" for i in range(len(outputs))]
        return ExportedProgram(self.graph, input_names, names, _short(g.name or "graph", ""))

    def _as_var(self, value):
        if isinstance(value, Literal):
            var = Var(value.aval)
            self.graph.consts[var] = np.asarray(value.value)
            return var
        return value

    def _flatten(self, value, what):
        if isinstance(value, Seq):
            return [v for item in value.items for v in self._flatten(item, what)]
        if isinstance(value, Missing):
            self.fail(f"{what} is {value.what}, which tensorjit does not compute")
        if isinstance(value, Const) and not isinstance(value.value, np.ndarray):
            if isinstance(value.value, (int, float, bool)):
                return [value]
            self.fail(f"{what} is {_describe(value)}, not a tensor")
        return [value]

    def _define(self, name, value):
        if name in self.env:
            self.fail(f"the name {name!r} is defined twice")
        self.env[name] = value

    def _ordered(self, g):
        """The graph's nodes in dependency order (Kahn's algorithm: no recursion, and a
        cycle or an undefined input is reported by name)."""
        if len(g.node) > MAX_NODES:
            self.fail(f"{len(g.node)} nodes: more than any real model")
        producer = {}
        for i, node in enumerate(g.node):
            if not node.output:
                self.fail(f"node {i} ({node.op_type}) has no output")
            for out in node.output:
                if out in producer or out in self.env:
                    self.fail(f"the name {out!r} is defined twice")
                producer[out] = i
        waiting = [0] * len(g.node)
        users = [[] for _ in g.node]
        for i, node in enumerate(g.node):
            for name in node.input:
                if name in producer:
                    waiting[i] += 1
                    users[producer[name]].append(i)
                elif name not in self.env:
                    self.fail(f"node {node.name or i!r} ({node.op_type}) reads {name!r}, "
                              f"which no node, input or parameter defines")
        ready = [i for i in range(len(g.node)) if waiting[i] == 0]
        ready.reverse()
        order = []
        while ready:
            i = ready.pop()
            order.append(g.node[i])
            for j in reversed(users[i]):
                waiting[j] -= 1
                if waiting[j] == 0:
                    ready.append(j)
        if len(order) != len(g.node):
            stuck = [g.node[i].name or str(i) for i in range(len(g.node)) if waiting[i]]
            self.fail(f"nodes form a cycle (e.g. {', '.join(map(repr, stuck[:3]))})")
        return order

    def _node(self, node):
        from .read_ops import import_op
        self.node_label = f"{self.label}, node {node.name!r}"
        if node.op_type == "Constant":
            values = [a for a in node.attribute if a.name == "value"]
            if not values:
                self.fail("a Constant node without a value")
            value = attribute_value(values[0], self.node_label)
            result = value if value is MONAD else Const(value)
        else:
            op, attributes = self._operator(node)
            inputs = [self.env[name] for name in node.input]
            result = import_op(self, op, inputs, attributes)
        if len(node.output) == 1:
            self.env[node.output[0]] = result
        else:
            items = result.items if isinstance(result, Seq) else None
            if items is None or len(items) != len(node.output):
                self.fail(f"declares {len(node.output)} outputs, its operator gives "
                          f"{_describe(result)}")
            for name, item in zip(node.output, items):
                self.env[name] = item

    def _operator(self, node):
        """(operator name, {setting: value}) of a node: ``REF::<primitive>`` names an entry
        of ModelProto.primitives; older files write the operator and its settings on the
        node itself."""
        op_type = node.op_type or ""
        if op_type.startswith("REF::"):
            prim = self.primitives.get(op_type[5:])
            if prim is None:
                if op_type[5:] in self.functions:
                    self.fail(f"calls the sub-graph {op_type[5:]!r}: control flow sub-graphs "
                              f"are not supported (export with a static loop, or unrolled)")
                self.fail(f"names primitive {op_type[5:]!r}, which the file does not declare")
            attributes = {a.name: attribute_value(a, self.node_label) for a in prim.attribute
                          if a.name}
            op = prim.op_type or ""
            if prim.prim_type not in (None, PrimType.PRIMITIVE, PrimType.PRIMITIVE_FUNCTION):
                self.fail(f"primitive {prim.name!r} has kind {prim.prim_type}")
            return op, attributes
        if op_type in self.functions:
            self.fail(f"calls the sub-graph {op_type!r}: control flow sub-graphs are not "
                      f"supported")
        attributes = {a.name: attribute_value(a, self.node_label) for a in node.attribute
                      if a.name and a.name != "shape"}
        return op_type, attributes


def _short(name, prefix):
    return name[len(prefix):] if prefix and name.startswith(prefix) else name


def _describe(value):
    if isinstance(value, Seq):
        return f"a tuple of {len(value.items)}"
    if isinstance(value, Const):
        if isinstance(value.value, np.ndarray):
            return f"a constant tensor of shape {value.value.shape}"
        return f"the constant {value.value!r}"
    if isinstance(value, Missing):
        return value.what
    if isinstance(value, (Var, Literal)):
        return f"a tensor {value.aval}"
    return repr(value)
