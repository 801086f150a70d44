"""ONNX files (``export(..., file_format="ONNX")``), written and read with the ``onnx``
package (the ``export`` extra), so ONNX Runtime and other ONNX tools run exported graphs.

    __init__.py     the file: opset, names, weights, sub-graphs; sniffing, parsing;
                    the operator tables (``OPS`` to write, ``IMPORTS`` to read)
    ops.py          writing elementwise, reduction, shape and network primitives
    index.py        indexing, both ways (Slice / Gather / GatherND / ScatterND)
    control.py      control flow, both ways (Scan, Loop, If)
    reader.py       reading: a model's graph, its scopes and folded constants
    reader_ops.py   reading elementwise, shape and reduction operators
    reader_nn.py    reading MatMul, Gemm, convolution, pooling, normalization

Writing: weights become initializers under their Parameter names, the graph's constant
arrays initializers too (marked ``tensorjit constant`` in their ``doc_string`` so reading
keeps them constants), scalar literals shared initializers. Every value is typed
(``value_info``) with its exact shape, and the model passes ``onnx.checker`` with
``full_check``. Node names say which primitive and which line of the user's program each
node comes from. A primitive with no ONNX form raises ``ExportError`` naming it and that
line.

Reading builds the graph from tensorjit primitives (``reader.py``); a file is data
only (ONNX has no code), and bytes that are not a valid model give a ``ValueError``.
"""
import contextlib
import functools
import importlib
import os

import numpy as np

from ...aval import ShapedArray
from ..program import ExportError, producer_version, registrar

SUFFIX = ".onnx"
# the oldest opset the mapping is written for (ReduceMax / Pad / Split with axes as inputs,
# BitwiseAnd, ScatterND reductions); older onnx or onnxruntime releases are refused
MIN_OPSET = 18
CONSTANT_MARK = "tensorjit constant"     # doc_string of initializers that are not weights


def onnx_module():
    """The ``onnx`` package, or an ImportError that says how to install it."""
    try:
        import onnx
        import onnx.checker
        import onnx.helper
        import onnx.numpy_helper
    except ImportError:
        raise ImportError("ONNX export and import need the onnx package: "
                          "pip install tensorjit[export]") from None
    return onnx


@functools.lru_cache(maxsize=None)
def target_opset():
    """The newest opset the installed ``onnx`` defines, lowered to the newest one the
    installed ONNX Runtime knows when it is importable (a file ONNX Runtime refuses helps
    nobody). ONNX Runtime's Python API has no "supported opset" call; the operator schemas
    it was built with (``get_all_operator_schema``) say the newest opset it knows. Without
    that function the onnx package's opset is used as is."""
    onnx = onnx_module()
    opset = onnx.defs.onnx_opset_version()
    runtime = _onnxruntime_opset()
    if runtime is not None:
        opset = min(opset, runtime)
    if opset < MIN_OPSET:
        raise ExportError(f"ONNX export needs opset {MIN_OPSET} or newer; the installed onnx "
                          f"/ onnxruntime support {opset} (upgrade them)")
    return opset


def _onnxruntime_opset():
    try:
        from onnxruntime.capi import _pybind_state
        schemas = _pybind_state.get_all_operator_schema()
    except (ImportError, AttributeError, RuntimeError):
        return None
    versions = [s.since_version for s in schemas if s.domain in ("", "ai.onnx")]
    return max(versions) if versions else None


# ---- the operator tables ----------------------------------------------------------------

OPS = {}        # primitive name -> write(writer, node, input names, output names)
IMPORTS = {}    # ONNX op_type -> read(call) -> the values of the node's outputs
_TABLE_MODULES = ("ops", "index", "control", "reader_ops", "reader_nn")


writes = registrar(OPS)
reads = registrar(IMPORTS)


def tables():
    """(OPS, IMPORTS), filled by the modules that register into them."""
    for module in _TABLE_MODULES:
        importlib.import_module(f".{module}", __package__)
    return OPS, IMPORTS


# ---- sniffing and parsing ----------------------------------------------------------------

# the first field a serialized ModelProto holds is ir_version (field 1, a varint: byte
# 0x08), followed by another ModelProto field: producer_name .. graph, opset_import
_MODEL_FIELDS = {0x12, 0x1a, 0x22, 0x28, 0x32, 0x3a, 0x42, 0x72, 0x7a}


def looks_like(head, path):
    if str(path).lower().endswith(SUFFIX):
        return True
    return len(head) >= 3 and head[0] == 0x08 and 1 <= head[1] < 0x80 and \
        head[2] in _MODEL_FIELDS


def read(data, path):
    from .reader import program_from_model
    return program_from_model(parse(data, path), os.path.basename(str(path)))


def parse(data, path="<bytes>"):
    """The ModelProto in ``data``, checked; a ValueError for anything else."""
    onnx = onnx_module()
    where = f"load: {str(path)!r} is not a valid ONNX file"
    try:
        model = onnx.load_model_from_string(bytes(data))
    except Exception as exc:       # protobuf's DecodeError and friends
        raise ValueError(f"{where} (the protobuf does not parse: {exc or type(exc).__name__})"
                         ) from None
    if not model.HasField("graph") or not model.graph.output:
        raise ValueError(f"{where} (no graph with outputs: truncated or not a model)")
    try:
        onnx.checker.check_model(model)
    except Exception as exc:       # onnx.checker.ValidationError, size limits
        raise ValueError(f"{where}: {str(exc).strip().splitlines()[0]}") from None
    return model


# ---- writing -------------------------------------------------------------------------------

def write(program, path):
    onnx = onnx_module()
    model = to_model(program)
    if model.ByteSize() >= 2 ** 31:
        raise ExportError(f"ONNX export: {program.name} is over 2 GB, the limit of one ONNX "
                          f"protobuf (external weight files are not written)")
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as exc:
        raise ExportError(f"ONNX export: the model written for {program.name} fails "
                          f"onnx.checker: {exc}") from exc
    onnx.save_model(model, path)


def to_model(program, opset=None):
    """The ``onnx.ModelProto`` of an ExportedProgram."""
    onnx = onnx_module()
    writer = Writer(onnx, opset or target_opset())
    graph = writer.main_graph(program)
    opsets = [onnx.helper.make_opsetid("", writer.opset)]
    model = onnx.helper.make_model(
        graph, opset_imports=opsets, producer_name="tensorjit", producer_version=producer_version(),
        ir_version=onnx.helper.find_min_ir_version_for(opsets, ignore_unknown=True))
    model.doc_string = f"{program.name}, exported by tensorjit"
    return model


class Writer:
    """Writes tensorjit graphs as ONNX graphs. ``ops.py`` writes each node with
    ``op`` / ``constant`` / ``ints``; this class owns the names, the initializers and the
    graph (or sub-graph) being written."""

    def __init__(self, onnx, opset):
        self.onnx, self.helper, self.opset = onnx, onnx.helper, opset
        self.used = set()        # every value name: one namespace, sub-graphs read outer values
        self.names = {}          # Var -> its value name
        self.initializers = []
        self.pooled = {}         # small constants, shared: (dtype, shape, bytes) -> name
        self.weights = {}        # id(weight tensor) -> initializer name
        self.nodes, self.value_info, self.local = [], [], set()
        self.node_base, self.node_source, self.node_count, self.parts = "", None, 0, 0
        self.wanted = {}         # Var -> the name a result of the main graph is written as
        self.users = {}          # Var -> [Nodes reading it] in the graph being written
        self.deferred = {}       # Var -> (node, input) a reader of the node writes instead
        self.op_start = 0        # the first ONNX node of the primitive being written

    # ---- names and constants -----------------------------------------------------------
    def unique(self, hint):
        base = "".join(c if c.isalnum() or c in "_.:/-" else "_" for c in str(hint)) or "v"
        name, k = base, 0
        while name in self.used:
            k += 1
            name = f"{base}_{k}"
        self.used.add(name)
        return name

    def name_of(self, value):
        from ...ir.graph import Literal
        if isinstance(value, Literal):
            return self.constant(value.value)
        return self.names[value]

    def constant(self, array, hint="const", mark=True):
        """An initializer holding ``array``; returns its name. Small constants are shared;
        weights (``mark=False``) never are: each keeps its own name."""
        array = np.asarray(array)
        key = None
        if mark and array.size <= 16:
            key = (array.dtype.str, array.shape, array.tobytes())
            if key in self.pooled:
                return self.pooled[key]
        name = self.unique(hint)
        tensor = self.onnx.numpy_helper.from_array(array, name)
        if mark:
            tensor.doc_string = CONSTANT_MARK
        self.initializers.append(tensor)
        if key is not None:
            self.pooled[key] = name
        return name

    def ints(self, values):
        return self.constant(np.asarray(values, np.int64).reshape(-1))

    def scalar(self, value, dtype):
        return self.constant(np.asarray(value, dtype=np.dtype(dtype)))

    def elem_type(self, dtype):
        return self.helper.np_dtype_to_tensor_dtype(np.dtype(dtype))

    def typed(self, name, aval):
        return self.helper.make_tensor_value_info(name, self.elem_type(aval.dtype),
                                                  list(aval.shape))

    # ---- nodes ---------------------------------------------------------------------------
    def op(self, op_type, inputs, outputs=None, **attrs):
        """Append one ONNX node. ``outputs``: a name, a list of names, or None (one new
        name); returns the output name (or the list when a list was given)."""
        single = not isinstance(outputs, (list, tuple))
        if outputs is None:
            outputs = self.unique(op_type.lower())
        names = [outputs] if single else list(outputs)
        name = self.node_base + (f"#{self.parts}" if self.parts else "")
        self.parts += 1
        node = self.helper.make_node(op_type, list(inputs), names, name=name,
                                     **{k: v for k, v in attrs.items() if v is not None})
        if self.node_source is not None:
            node.doc_string = str(self.node_source)
        self.nodes.append(node)
        self.local.update(n for n in names if n)
        return names[0] if single else names

    def result(self, value, out):
        """Make ``value`` (computed while writing this primitive) the result ``out``: the
        node computing it writes ``out`` instead, or an Identity copies it."""
        last = self.nodes[-1] if len(self.nodes) > self.op_start else None
        if last is not None and list(last.output) == [value]:
            last.output[0] = out
            self.local.add(out)
        else:
            self.op("Identity", [value], out)

    @contextlib.contextmanager
    def scope(self):
        """Write a sub-graph: nodes and value types go to fresh lists until the end."""
        saved = self.nodes, self.value_info, self.local, self.users
        self.nodes, self.value_info, self.local = [], [], set()
        try:
            yield
        finally:
            self.nodes, self.value_info, self.local, self.users = saved

    def formal(self, aval, hint):
        """A sub-graph's input: (name, its ValueInfo)."""
        name = self.unique(hint)
        return name, self.typed(name, aval)

    def make_graph(self, name, inputs, outputs, avals, wanted=None):
        """The GraphProto of the nodes written in this scope. An output must be computed
        by a node of this graph, once: an input, an outer value or a repeated value is
        copied by an Identity node (into ``wanted[i]`` when given)."""
        names, seen = [], set()
        for i, value in enumerate(outputs):
            target = wanted[i] if wanted else None
            if value not in self.local or value in seen or (target and target != value):
                value = self.op("Identity", [value], target or self.unique(f"{value}_out"))
            seen.add(value)
            names.append(value)
        typed = [self.typed(n, a) for n, a in zip(names, avals)]
        return self.helper.make_graph(self.nodes, name, inputs, typed,
                                      value_info=self.value_info)

    def main_graph(self, program):
        graph = program.graph
        self.used.update(program.input_names)
        inputs = [self.typed(n, v.aval) for n, v in zip(program.input_names, graph.inputs)]
        # a result computed by a node is written under its output name directly
        produced = {o for node in graph.nodes for o in node.outputs}
        wanted = []
        for var, name in zip(graph.outputs, program.output_names):
            name = self.unique(name)
            wanted.append(name)
            if var in produced and var not in self.wanted:
                self.wanted[var] = name
        outputs = self.write_graph(graph, program.input_names)
        proto = self.make_graph(program.name, inputs, outputs,
                                [v.aval for v in graph.outputs], wanted)
        proto.initializer.extend(self.initializers)
        return proto

    def write_graph(self, graph, input_names):
        """Write ``graph``'s nodes into the current scope, its inputs being the values
        ``input_names``; returns the names of its outputs."""
        ops = tables()[0]
        for var, name in zip(graph.inputs, input_names):
            self.names[var] = name
        for ref in graph.refs:
            key = id(ref.tensor)
            if key not in self.weights:
                array = np.asarray(ref.tensor.asnumpy())
                self.weights[key] = self.constant(array, ref.name or "weight", mark=False)
            self.names[ref.var] = self.weights[key]
        for var, array in graph.consts.items():
            self.names[var] = self.constant(np.asarray(array, dtype=var.aval.dtype))
        saved, self.users = self.users, graph.users()
        for value in graph.outputs:
            self.users.setdefault(value, []).append(None)      # None: the graph's result
        try:
            for node in graph.nodes:
                self._write_node(node, ops)
        finally:
            self.users = saved
        return [self.name_of(v) for v in graph.outputs]

    def _write_node(self, node, ops):
        prim = node.prim.name
        self.node_count += 1
        source = node.source
        saved = self.node_base, self.node_source, self.parts, self.op_start   # (sub-graphs)
        self.node_base = f"{prim}_{self.node_count}" + (
            f" ({os.path.basename(source.filename)}:{source.lineno})" if source else "")
        self.node_source, self.parts = source, 0
        try:
            self._write_mapped(node, prim, source, ops)
        finally:
            self.node_base, self.node_source, self.parts, self.op_start = saved

    def _write_mapped(self, node, prim, source, ops):
        # (a graph written twice, as a loop's condition is, gets new names the second time)
        outs = [self.wanted.get(v) or self.unique(v.hint or prim) for v in node.outputs]
        for var, name in zip(node.outputs, outs):
            self.names[var] = name
        self.op_start = len(self.nodes)
        write = ops.get(prim)
        if write is None:
            raise ExportError(f"ONNX export: primitive {prim!r} has no ONNX form"
                              f"{_at(source)}")
        try:
            write(self, node, [self.name_of(v) for v in node.inputs], outs)
        except ExportError as exc:
            if str(exc).startswith("ONNX export:"):     # (from a node of a sub-graph)
                raise
            raise ExportError(f"ONNX export: {prim}{_at(source)}: {exc}") from None
        self.value_info.extend(self.typed(n, v.aval) for n, v in zip(outs, node.outputs)
                               if n in self.local)


def _at(source):
    return f" (at {source.filename}:{source.lineno}, in {source.function})" if source else ""


def aval_of(onnx_value_info):
    """The ShapedArray of a fully static ONNX ValueInfo, or None."""
    onnx = onnx_module()
    kind = onnx_value_info.type.tensor_type
    if not kind.HasField("shape") or any(not d.HasField("dim_value") for d in kind.shape.dim):
        return None
    return ShapedArray([d.dim_value for d in kind.shape.dim],
                       np.dtype(onnx.helper.tensor_dtype_to_np_dtype(kind.elem_type)))
