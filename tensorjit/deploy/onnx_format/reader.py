"""Reading an ONNX model as a tensorjit graph (``load`` of an ``.onnx`` file): every ONNX
node becomes primitives of the registry (``onnx_format.IMPORTS`` says how), typed by
their shape rules, and the graph is checked by the IR verifier.

Values are either graph values (Vars) or arrays known while reading: initializers,
``Constant`` nodes and whatever is computed from them only (shape arithmetic of
exporters) is folded on the spot by the primitives' own kernels, so shape operands
(``Reshape``'s shape, ``Slice``'s starts ...) are known, as the static-shape IR needs.
Floating-point initializers are the weights (Parameters under their ONNX names), except
those tensorjit marked as constants; the others are constants. Inputs need static shapes.
"""
import numpy as np

from ...aval import ShapedArray
from ...ir.graph import Graph, Literal, Node, Ref, SourceInfo, Var
from ...ir.verify import IRVerificationError, verify
from ...ops.primitive import PRIMITIVES
from ...tensor import Parameter, Tensor
from . import CONSTANT_MARK, aval_of, onnx_module, tables
from ..program import ExportedProgram

FOLD_LIMIT = 1 << 20     # elements a folded constant may have


def program_from_model(model, file_name="model.onnx"):
    versions = {o.domain: o.version for o in model.opset_import}
    reader = Reader(onnx_module(), versions.get("", versions.get("ai.onnx", 0)), file_name)
    proto = model.graph
    graph = Graph(proto.name or "onnx_graph")
    scope = Scope(reader, graph)
    for tensor in proto.initializer:
        array = reader.array(tensor)
        weight = array.dtype.kind == "f" and array.ndim > 0 and tensor.doc_string != CONSTANT_MARK
        (scope.weights if weight else scope.values)[tensor.name] = array
    if proto.sparse_initializer:
        raise ValueError(f"load: {file_name}: sparse initializers are not supported")
    input_names = []
    for info in proto.input:
        if info.name in scope.weights or info.name in scope.values:
            continue           # (IR < 4: initializers are listed as inputs too)
        typed = aval_of(info)
        if typed is None:
            raise ValueError(f"load: {file_name}: input {info.name!r} has no static shape; "
                             f"tensorjit graphs have fixed shapes (export the model with "
                             f"fixed input shapes)")
        var = Var(typed, hint=info.name)
        graph.inputs.append(var)
        scope.values[info.name] = var
        input_names.append(info.name)
    scope.read_nodes(proto.node)
    graph.outputs = [scope.result(scope.get(o.name)) for o in proto.output]
    try:
        verify(graph)
    except IRVerificationError as exc:
        raise ValueError(f"load: {file_name}: the ONNX graph does not make a valid tensorjit "
                         f"graph: {exc}") from None
    return ExportedProgram(graph, input_names, [o.name for o in proto.output],
                           proto.name or file_name)


class Reader:
    """What every scope of one model shares."""

    def __init__(self, onnx, opset, file_name):
        self.onnx, self.opset, self.file_name = onnx, opset, file_name
        self.node_index = 0

    def array(self, tensor):
        if tensor.data_location == self.onnx.TensorProto.EXTERNAL:
            raise ValueError(f"load: {self.file_name}: tensor {tensor.name!r} is stored in an "
                             f"external file, which is not read")
        return np.array(self.onnx.numpy_helper.to_array(tensor))

    def dtype(self, elem_type):
        return np.dtype(self.onnx.helper.tensor_dtype_to_np_dtype(elem_type))


class Scope:
    """The values of one ONNX graph being read into ``graph``. A sub-graph's scope reads
    the values of the graphs around it: their Vars become inputs of its (closed) graph,
    listed in ``captured`` as (outer value, inner Var) for the node to pass them in."""

    def __init__(self, reader, graph, parent=None):
        self.reader, self.graph, self.parent = reader, graph, parent
        self.values = {}          # ONNX name -> Var or ndarray
        self.weights = {}         # name -> array: a Ref once read as a tensor (main graph)
        self.captured = []
        self.materialized = {}    # id(array) -> (array, Var): arrays made graph constants
        self.source = None

    def get(self, name):
        if name in self.values:
            return self.values[name]
        if name in self.weights:
            array = self.weights[name]
            var = Var(_aval(array), hint=name)
            self.graph.refs.append(Ref(var, Parameter(Tensor(array), name=name), name))
            self.values[name] = var
            return var
        if self.parent is None:
            raise ValueError(f"load: {self.reader.file_name}: value {name!r} is used before "
                             f"any node computes it")
        outer = self.parent.get(name)
        if isinstance(outer, np.ndarray):
            return outer
        inner = Var(outer.aval, hint=name)
        self.captured.append((outer, inner))
        self.values[name] = inner
        return inner

    def known(self, name):
        """The array of ``name`` if it is known while reading (weights too), else None."""
        value = self.values.get(name)
        if isinstance(value, np.ndarray):
            return value
        if name in self.weights:
            return self.weights[name]
        if value is None and self.parent is not None:
            return self.parent.known(name)
        return None

    def operand(self, value):
        """A node operand: an array becomes a Literal (0-d) or a graph constant."""
        if not isinstance(value, np.ndarray):
            return value
        if value.ndim == 0:
            return Literal(value)
        key = id(value)
        if key not in self.materialized:
            var = Var(_aval(value))
            self.graph.consts[var] = value
            self.materialized[key] = (value, var)
        return self.materialized[key][1]

    def result(self, value):
        """A graph result: a Var (an array becomes a graph constant, even 0-d)."""
        if not isinstance(value, np.ndarray):
            return value
        var = Var(_aval(value))
        self.graph.consts[var] = value
        return var

    def bind(self, prim_name, *args, **params):
        """One primitive on values, typed by its shape rule; on arrays only, with small
        results, its kernel runs now (folding: a file cannot make reading allocate more
        than ``FOLD_LIMIT`` elements)."""
        prim = PRIMITIVES[prim_name]
        avals = prim.abstract_eval([aval(a) for a in args], params)
        if all(isinstance(a, np.ndarray) for a in args) and not prim.random and \
                not prim.effect and not any(isinstance(p, Graph) for p in params.values()) \
                and sum(a.size for a in avals) <= FOLD_LIMIT:
            out = prim.impl(*args, **params)
            if prim.multiple_results:
                return tuple(np.array(o) for o in out)
            return np.array(out)
        inputs = [self.operand(a) for a in args]
        outputs = [Var(a) for a in avals]
        self.graph.nodes.append(Node(prim, inputs, params, outputs, self.source))
        return tuple(outputs) if prim.multiple_results else outputs[0]

    def read_nodes(self, nodes):
        imports = tables()[1]
        for proto in nodes:
            self.reader.node_index += 1
            label = f"{proto.op_type} node {proto.name or self.reader.node_index!r}"
            if proto.domain not in ("", "ai.onnx"):
                raise ValueError(f"load: {self.reader.file_name}: {label} is from operator "
                                 f"set {proto.domain!r}, which is not supported")
            read = imports.get(proto.op_type)
            if read is None:
                raise ValueError(f"load: {self.reader.file_name}: ONNX operator "
                                 f"{proto.op_type!r} ({label}) is not supported")
            self.source = SourceInfo(self.reader.file_name, self.reader.node_index,
                                     proto.name or proto.op_type)
            call = Call(self, proto, label)
            try:
                results = read(call)
            except (TypeError, ValueError, IndexError, KeyError, ArithmeticError) as exc:
                if str(exc).startswith("load:"):
                    raise
                raise ValueError(f"load: {self.reader.file_name}: {label}: {exc}") from None
            results = results if isinstance(results, (list, tuple)) else [results]
            for name, value in zip(proto.output, results):
                if name:
                    self.values[name] = value
            missing = [n for n in proto.output[len(results):] if n]
            if missing:
                raise ValueError(f"load: {self.reader.file_name}: {label}: its output(s) "
                                 f"{missing} are not supported")


class Call:
    """One ONNX node being read: its inputs, constant inputs and attributes."""

    def __init__(self, scope, proto, label):
        self.scope, self.proto, self.label = scope, proto, label
        helper = scope.reader.onnx.helper
        self.attrs = {a.name: helper.get_attribute_value(a) for a in proto.attribute}
        self.opset = scope.reader.opset

    def has(self, i):
        return i < len(self.proto.input) and bool(self.proto.input[i])

    def x(self, i):
        """Input ``i`` (a Var or an array), None when absent."""
        return self.scope.get(self.proto.input[i]) if self.has(i) else None

    def inputs(self):
        return [self.x(i) for i in range(len(self.proto.input))]

    def const(self, i, what, default=None):
        """Input ``i`` as an array known now (shapes, axes, ...)."""
        if not self.has(i):
            return default
        value = self.scope.known(self.proto.input[i])
        if value is None:
            self.fail(f"its {what} (input {i}) must be a constant; it is computed from the "
                      f"graph's inputs")
        return value

    def attr(self, name, default=None):
        value = self.attrs.get(name, default)
        return value.decode() if isinstance(value, bytes) else value

    def bind(self, prim_name, *args, **params):
        return self.scope.bind(prim_name, *args, **params)

    def fail(self, message):
        raise ValueError(f"load: {self.scope.reader.file_name}: {self.label}: {message}")

    def dtype(self, elem_type):
        return self.scope.reader.dtype(elem_type)

    def sub_scope(self, name):
        return Scope(self.scope.reader, Graph(name), self.scope)


def aval(value):
    return _aval(value) if isinstance(value, np.ndarray) else value.aval


def _aval(array):
    return ShapedArray(array.shape, array.dtype)


def close_graphs(scopes, outputs):
    """The closed graphs of sub-graph scopes read side by side (If's branches, a loop's
    condition and body): every graph takes the union of what any of them captured first,
    then its own inputs; returns the outer values to pass in."""
    outer, seen = [], set()
    for scope in scopes:
        for value, _ in scope.captured:
            if id(value) not in seen:
                seen.add(id(value))
                outer.append(value)
    for scope, results in zip(scopes, outputs):
        inner = {id(v): var for v, var in scope.captured}
        own = scope.graph.inputs
        scope.graph.inputs = [inner.get(id(v)) or Var(v.aval) for v in outer] + own
        scope.graph.outputs = [scope.result(r) for r in results]
    return outer


# ---- helpers of the operator readers ---------------------------------------------------

FULL = ("s", None, None, None)       # a getitem spec entry: the whole axis


def shape_of(value):
    return tuple(aval(value).shape)


def dtype_of(value):
    return aval(value).dtype


def lit(value, like):
    """``value`` as a 0-d array of ``like``'s dtype."""
    return np.asarray(value, dtype=dtype_of(like))


def axis_of(axis, ndim):
    return int(axis) + ndim if int(axis) < 0 else int(axis)


def reshape(c, x, shape):
    shape = tuple(int(d) for d in shape)
    return x if shape == shape_of(x) else c.bind("reshape", x, shape=shape)


def getitem(c, x, spec, *tensors):
    if not tensors and all(e == FULL for e in spec):
        return x
    return c.bind("getitem", x, *tensors, spec=tuple(spec))
