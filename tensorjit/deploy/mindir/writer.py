"""An ExportedProgram as a MindIR ``ModelProto``, in the form MindSpore 2.10's own
``export`` writes, so that ``mindspore.load`` + ``nn.GraphCell`` run it.

The conventions (learned from files MindSpore exports, and checked by loading ours in it):

* one ``GraphProto``, named after the program; its inputs, parameters and node outputs are
  named ``<graph>:<name>``; a parameter is a ``TensorProto`` with its data (``raw_data``)
  and ``ref_key`` = the weight's name (MindSpore's Parameter name, as in a checkpoint);
* a node's ``op_type`` is ``REF::<primitive>`` naming an entry of ``ModelProto.primitives``;
  a ``PRIMITIVE_FUNCTION`` (most operators since MindSpore 2.3) takes its settings as
  extra inputs, produced by ``Constant`` nodes; a ``PRIMITIVE`` (Conv2D) keeps them as
  attributes of its primitive entry; each node records its result's ``shape``;
* several results leave through a ``MakeTuple`` node, the output declared a ``Tuple``.

No timestamps, random ids or file paths are written: the same program gives the same bytes
on any machine (the tests compare a hash recorded where MindSpore ran the file). The
operator table is ``write_ops.py``.
"""
import numpy as np

from ..program import ExportError
from ...ir.graph import Literal
from . import proto
from .schema import (AttributeType, MIND_IR_VERSION, PrimType, TENSOR_TYPE_OF, TYPE_ID_OF)

IR_VERSION = "1.1"                  # what MindSpore 2.10 writes
MODEL_VERSION = "2.10.0"            # the MindSpore release whose conventions the file follows
PRODUCER = "tensorjit"
WRITER_VERSION = "1"                # bump when the bytes written for a program change


def to_bytes(program):
    return proto.encode("ModelProto", ModelWriter(program).model())


def write(program, path):
    data = to_bytes(program)
    with open(path, "wb") as f:
        f.write(data)


# ---- attribute values -----------------------------------------------------------------

def tensor_type(dtype, what):
    code = TENSOR_TYPE_OF.get(np.dtype(dtype))
    if code is None:
        raise ExportError(f"export: {what} has dtype {np.dtype(dtype)}, which MindIR cannot "
                          f"hold")
    return code


def tensor_info(aval, what="a value"):
    """A ``TensorProto`` describing a value (no data): ValueInfo entries, node shapes."""
    return {"dims": list(aval.shape), "data_type": tensor_type(aval.dtype, what)}


def shape_attribute(avals):
    """A node's ``shape`` attribute: its result's type (a tuple of them for several)."""
    if len(avals) == 1:
        return {"name": "shape", "tensors": [tensor_info(avals[0])],
                "type": AttributeType.TENSORS}
    return {"name": "shape", "type": AttributeType.TUPLE,
            "values": [{"tensors": [tensor_info(a)], "type": AttributeType.TENSORS}
                       for a in avals]}


def attribute(name, value):
    """An ``AttributeProto`` holding a Python setting: int, bool, float, str, a tuple or
    list of them, or an array (a tensor)."""
    attr = {"name": name} if name is not None else {}
    if isinstance(value, (bool, np.bool_)):
        attr.update(i=int(value), type=AttributeType.BOOL)
    elif isinstance(value, (int, np.integer)):
        attr.update(i=int(value), type=AttributeType.INT64)
    elif isinstance(value, (float, np.floating)):
        attr.update(f=float(value), type=AttributeType.FLOAT)
    elif isinstance(value, str):
        attr.update(s=value.encode(), type=AttributeType.STRING)
    elif isinstance(value, np.ndarray):
        array = np.asarray(value, order="C")
        attr.update(tensors=[{"dims": list(array.shape),
                              "data_type": tensor_type(array.dtype, "a constant"),
                              "name": "value0", "raw_data": array.tobytes()}],
                    type=AttributeType.TENSORS)
    elif isinstance(value, (tuple, list)):
        kind = AttributeType.TUPLE if isinstance(value, tuple) else AttributeType.LIST
        attr.update(type=kind, values=[_element(v) for v in value])
    else:
        raise TypeError(f"no MindIR attribute for {type(value).__name__}")
    return attr


def _element(value):
    """A tuple element, spelled as MindSpore spells them (``ints: [v]``, ``strings: [s]``)."""
    if isinstance(value, (bool, np.bool_)):
        return {"ints": [int(value)], "type": AttributeType.BOOL}
    if isinstance(value, (int, np.integer)):
        return {"ints": [int(value)], "type": AttributeType.INT64}
    if isinstance(value, (float, np.floating)):
        return {"floats": [float(value)], "type": AttributeType.FLOAT}
    if isinstance(value, str):
        return {"strings": [value.encode()], "type": AttributeType.STRING}
    return attribute(None, value)


class DType:
    """A dtype given to an operator (``Cast``'s target): MindSpore's TypeId number."""

    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)


# ---- the model ------------------------------------------------------------------------

class ModelWriter:
    """Emits one graph: ``op`` adds a node, ``constant`` a Constant node (shared by equal
    values), ``value`` names a tensor of the program. Operators come from ``write_ops``."""

    def __init__(self, program):
        self.program = program
        self.name = _identifier(program.name) or "graph"
        self.nodes, self.parameters = [], []
        self.primitives = {}        # (op, kind, attributes) -> PrimitiveProto dict
        self.constants = {}         # encoded value -> node output name
        self.count = 0
        self.used = set()
        self.env = {}               # Var -> name, for the graph being emitted
        self.folded = {}            # Var -> array, for values known while exporting

    # names ---------------------------------------------------------------------------
    def unique(self, name):
        while name in self.used:
            name += "_"
        self.used.add(name)
        return name

    def fresh(self):
        self.count += 1
        return self.unique(f"{self.name}:CNode_{self.count}:{self.count}")

    # nodes ---------------------------------------------------------------------------
    def op(self, op_type, inputs, avals=None, attributes=None,
           kind=PrimType.PRIMITIVE_FUNCTION):
        """Add ``op_type(*inputs)`` (names); ``avals`` its result types (for the ``shape``
        attribute), ``attributes`` {name: value} of a PRIMITIVE. Returns the result name."""
        prim = self.primitive(op_type, kind, attributes or {})
        out = self.fresh()
        node = {"input": list(inputs), "output": [out], "name": out,
                "op_type": f"REF::{prim}"}
        if avals is not None:
            node["attribute"] = [shape_attribute(avals if isinstance(avals, list) else [avals])]
        self.nodes.append(node)
        return out

    def primitive(self, op_type, kind, attributes):
        attrs = [attribute(k, v) for k, v in attributes.items()]
        identity = (op_type, kind, proto.encode("PrimitiveProto", {"attribute": attrs}))
        entry = self.primitives.get(identity)
        if entry is None:
            entry = {"name": f"{op_type}:{len(self.primitives) + 1}", "op_type": op_type,
                     "attribute": attrs, "instance_name": "", "prim_type": kind}
            self.primitives[identity] = entry
        return entry["name"]

    def constant(self, value):
        """A Constant node's name for a setting: int, bool, float, tuple of ints, an array
        (a tensor), a ``DType``, or None."""
        if isinstance(value, DType):
            code = TYPE_ID_OF.get(value.dtype)
            if code is None:
                raise ExportError(f"export: MindIR has no type for {value.dtype}")
            attr = {"name": "value", "i": code, "type": AttributeType.INT64}
        elif value is None:
            attr = {"name": "value", "type": AttributeType.NONE}
        else:
            attr = attribute("value", value)
        encoded = proto.encode("AttributeProto", attr)
        name = self.constants.get(encoded)
        if name is None:
            self.count += 1
            name = self.unique(f"ValueNode_{self.count}")
            self.constants[encoded] = name
            self.nodes.append({"output": [name], "name": name, "op_type": "Constant",
                               "attribute": [attr]})
        return name

    def value(self, operand):
        """The name of a tensor operand: a Var emitted so far or a Literal (a 0-d tensor)."""
        if isinstance(operand, Literal):
            return self.constant(np.asarray(operand.value))
        try:
            return self.env[operand]
        except KeyError:
            raise ExportError(f"export: the graph uses {operand} before computing it "
                              f"(it is not an input, weight, constant or earlier result)") \
                from None

    def emit_graph(self, graph, input_names):
        """Emit ``graph``'s nodes with its inputs bound to ``input_names``; returns its
        outputs' names. Sub-graphs (loop bodies) are emitted inline this way, each time in a
        scope of their own."""
        from .write_ops import emit_node
        outer, self.env = self.env, dict(self.env)
        try:
            for var, name in zip(graph.inputs, input_names):
                self.env[var] = name
            for var, array in graph.consts.items():
                self.env[var] = self.constant(np.asarray(array))
                self.folded[var] = np.asarray(array)
            for node in graph.nodes:
                names = emit_node(self, node)
                if len(names) != len(node.outputs):
                    raise AssertionError(f"{node.prim.name} emitted {len(names)} results")
                self.env.update(zip(node.outputs, names))
            return [self.value(v) for v in graph.outputs]
        finally:
            self.env = outer

    # the model -----------------------------------------------------------------------
    def model(self):
        program, graph = self.program, self.program.graph
        inputs = []
        names = []
        for var, name in zip(graph.inputs, program.input_names):
            full = self.unique(f"{self.name}:{_identifier(name) or 'input'}")
            names.append(full)
            inputs.append({"name": full, "tensor": [tensor_info(var.aval, f"input {name!r}")]})
        for ref in graph.refs:
            array = np.asarray(ref.tensor.asnumpy(), order="C")
            full = self.unique(f"{self.name}:{ref.name}")
            self.env[ref.var] = full
            self.parameters.append({"dims": list(array.shape),
                                    "data_type": tensor_type(array.dtype, f"weight {ref.name!r}"),
                                    "name": full, "raw_data": array.tobytes(),
                                    "ref_key": ref.name})
        results = self.emit_graph(graph, names)
        outputs = self.outputs(results, [v.aval for v in graph.outputs])
        graph_proto = {"node": self.nodes, "name": self.name, "parameter": self.parameters,
                       "input": inputs, "output": outputs}
        return {"ir_version": IR_VERSION, "producer_name": PRODUCER,
                "producer_version": WRITER_VERSION, "model_version": MODEL_VERSION,
                "graph": graph_proto, "little_endian": True,
                "primitives": list(self.primitives.values()),
                "mind_ir_version": MIND_IR_VERSION}

    def outputs(self, results, avals):
        if not results:
            raise ExportError("export: the program returns no tensors")
        defined = {n for node in self.nodes for n in node["output"]}
        if len(results) == 1 and results[0] in defined and not _is_constant(self, results[0]):
            return [{"name": results[0], "tensor": [tensor_info(avals[0])]}]
        # a tuple of results, or one result that is an input, weight or constant: MindSpore
        # returns a node's value, so the results go through MakeTuple (unpacked for one)
        tuple_name = self.op("MakeTuple", results, avals, kind=PrimType.PRIMITIVE)
        if len(results) == 1:
            single = self.op("TupleGetItem", [tuple_name, self.constant(0)], avals[0],
                             kind=PrimType.PRIMITIVE)
            return [{"name": single, "tensor": [tensor_info(avals[0])]}]
        info = {"type": AttributeType.TUPLE,
                "values": [{"tensors": [tensor_info(a)], "type": AttributeType.TENSORS}
                           for a in avals]}
        return [{"name": tuple_name, "denotation": "Tuple", "attr_info": info}]


def _is_constant(writer, name):
    return name in writer.constants.values()


def _identifier(text):
    return "".join(c if c.isalnum() or c == "_" else "_" for c in str(text))
