"""TJIR: tensorjit's own file for an exported graph -- the IR and its weights, versioned.

A TJIR file is a safetensors file (``checkpoint/safetensors_format.py``): the weights, the
graph's constant arrays and any array parameters are its tensors, so any safetensors reader
can see the weights, and the header's ``__metadata__`` holds
``{"format": "tjir", "version": "1", "graph": <JSON>, "sha256": <checksum of the graph and
the tensors>}``. The graph JSON numbers every value
once for the whole file (sub-graphs may use the values of the graph around them):

    {"name", "inputs": [[name, value]], "outputs": [[name, value]],
     "values": {value: [shape, dtype]}, "graph": GRAPH}
    GRAPH = {"name", "inputs": [value], "refs": [[value, weight]], "consts": [[value, tensor]],
             "nodes": [{"prim", "in": [value | {"literal", "dtype"}], "out": [value],
                        "params": {name: PARAM}, "source": [file, line, function]}],
             "outputs": [value]}

Parameters are JSON with tags for what JSON lacks: tuples, dtypes, graphs, slices, arrays
and non-finite floats. Reading builds the graph from the primitive registry by name and
checks it with the IR verifier: it never executes code from the file, and a damaged or
newer file gets an error naming the problem.
"""
import hashlib
import json
import math

import numpy as np

from ..aval import ShapedArray
from ..checkpoint import safetensors_format
from ..checkpoint.ckpt_format import CheckpointFormatError
from ..ir.graph import Graph, Literal, Node, Ref, SourceInfo, Var
from ..ir.verify import IRVerificationError, verify
from ..ops.primitive import PRIMITIVES
from ..tensor import Parameter, Tensor
from .program import ExportError, ExportedProgram, producer_version

SUFFIX = ".tjir"
VERSION = 1
DTYPES = {str(np.dtype(d)): np.dtype(d) for d in safetensors_format.CODES}


class TJIRFormatError(ValueError):
    """The bytes are not a TJIR file this version of tensorjit can read."""


# ---- writing --------------------------------------------------------------------------

def write(program, path):
    arrays, text = encode(program)
    ordered = safetensors_format.layout(arrays)
    metadata = {"format": "tjir", "version": str(VERSION), "producer": f"tensorjit {producer_version()}",
                "graph": text, "sha256": _digest(text, ordered)}
    with open(path, "wb") as f:
        f.write(safetensors_format.header_bytes(ordered, metadata))
        for array in ordered.values():
            f.write(array.tobytes())


def encode(program):
    """({tensor name: array}, graph JSON text) of ``program``."""
    writer = _Writer()
    graph = writer.graph(program.graph)
    for ref in program.graph.refs:
        writer.arrays[ref.name] = np.ascontiguousarray(ref.tensor.asnumpy())
    doc = {"name": program.name, "graph": graph, "values": writer.values,
           "inputs": [[n, writer.ids[v]] for n, v in zip(program.input_names,
                                                         program.graph.inputs)],
           "outputs": [[n, writer.value(v)] for n, v in zip(program.output_names,
                                                            program.graph.outputs)]}
    return writer.arrays, json.dumps(doc, separators=(",", ":"), allow_nan=False)


class _Writer:
    def __init__(self):
        self.ids, self.values, self.arrays = {}, {}, {}

    def value(self, var):
        if isinstance(var, Literal):
            return {"literal": _plain(var.value.item()), "dtype": str(var.value.dtype)}
        if var not in self.ids:
            self.ids[var] = len(self.ids)
            self.values[str(self.ids[var])] = [list(var.aval.shape), str(np.dtype(var.aval.dtype))]
        return self.ids[var]

    def graph(self, graph):
        doc = {"name": graph.name, "inputs": [self.value(v) for v in graph.inputs],
               "refs": [[self.value(r.var), r.name] for r in graph.refs], "consts": []}
        for var, array in graph.consts.items():
            key = f"const:{self.value(var)}"
            self.arrays[key] = np.ascontiguousarray(array)
            doc["consts"].append([self.ids[var], key])
        doc["nodes"] = [self.node(n) for n in graph.nodes]
        doc["outputs"] = [self.value(v) for v in graph.outputs]
        return doc

    def node(self, node):
        out = {"prim": node.prim.name, "in": [self.value(v) for v in node.inputs],
               "out": [self.value(v) for v in node.outputs],
               "params": {k: self.param(node, k, v) for k, v in node.params.items()}}
        if node.source is not None:
            out["source"] = [node.source.filename, node.source.lineno, node.source.function]
        return out

    def param(self, node, key, value):
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, (int, np.integer)) and not isinstance(value, np.bool_):
            return int(value)
        if isinstance(value, (float, np.floating)):
            return _plain(float(value))
        if isinstance(value, np.bool_):
            return bool(value)
        if isinstance(value, tuple):
            return {"tuple": [self.param(node, key, v) for v in value]}
        if isinstance(value, list):
            return {"list": [self.param(node, key, v) for v in value]}
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return {"dict": {k: self.param(node, key, v) for k, v in value.items()}}
        if isinstance(value, np.dtype) or (isinstance(value, type) and
                                           issubclass(value, np.generic)):
            return {"dtype": str(np.dtype(value))}
        if isinstance(value, Graph):
            return {"graph": self.graph(value)}
        if isinstance(value, slice):
            return {"slice": [self.param(node, key, v)
                              for v in (value.start, value.stop, value.step)]}
        if value is Ellipsis:
            return {"ellipsis": True}
        if isinstance(value, np.ndarray):
            name = f"param:{len(self.arrays)}"
            self.arrays[name] = np.ascontiguousarray(value)
            return {"array": name}
        where = f" ({node.source})" if node.source else ""
        raise ExportError(f"export: primitive {node.prim.name}{where} has parameter {key!r} "
                          f"of type {type(value).__name__}, which a TJIR file cannot hold")


def _digest(text, arrays):
    """SHA-256 of the graph and of every tensor (name, type and bytes): a file changed after
    it was written -- a flipped byte that still parses -- is refused, never run."""
    digest = hashlib.sha256(text.encode())
    for name, array in arrays.items():
        digest.update(f"\n{name}:{array.dtype}:{list(array.shape)}\n".encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


def _plain(number):
    """A JSON-safe number: non-finite floats become tagged strings."""
    if isinstance(number, float) and not math.isfinite(number):
        return {"float": repr(number)}
    return number


# ---- reading --------------------------------------------------------------------------

def looks_like(head, path):
    """A safetensors header start (its size, then JSON) in a .tjir file."""
    return len(head) > 9 and head[8:9] == b"{" and str(path).endswith(SUFFIX)


def read(data, path="the TJIR file"):
    label = str(path)
    try:
        arrays, metadata = safetensors_format.parse(data, label)
    except CheckpointFormatError as exc:
        raise TJIRFormatError(str(exc)) from None
    if metadata.get("format") != "tjir":
        raise TJIRFormatError(f"{label}: a safetensors file without a TJIR graph (a "
                              f"checkpoint? load it with load_checkpoint)")
    version = metadata.get("version")
    if not isinstance(version, str) or not version.isdigit():
        raise TJIRFormatError(f"{label}: the TJIR version {version!r} is not a number")
    if int(version) > VERSION:
        raise TJIRFormatError(f"{label}: TJIR version {version} was written by a newer "
                              f"tensorjit ({metadata.get('producer', 'unknown')}); this one "
                              f"reads versions up to {VERSION}: upgrade tensorjit")
    text = metadata.get("graph")
    if not isinstance(text, str) or metadata.get("sha256") != _digest(
            text, safetensors_format.layout(arrays)):
        raise TJIRFormatError(f"{label}: the file is damaged (its checksum does not match "
                              f"its contents)")
    try:
        doc = json.loads(text)
        return _Reader(arrays, label).program(doc)
    except TJIRFormatError:
        raise
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise TJIRFormatError(f"{label}: the graph description is damaged "
                              f"({type(exc).__name__}: {exc})") from None


class _Reader:
    def __init__(self, arrays, label):
        self.arrays, self.label = arrays, label
        self.vars = {}

    def fail(self, message):
        raise TJIRFormatError(f"{self.label}: {message}")

    def program(self, doc):
        self.avals = {}
        for key, (shape, dtype) in dict(doc["values"]).items():
            if dtype not in DTYPES or not all(type(d) is int and d >= 0 for d in shape):
                self.fail(f"value {key} has an invalid type {shape!r} {dtype!r}")
            self.avals[int(key)] = ShapedArray(tuple(shape), DTYPES[dtype])
        graph = self.graph(doc["graph"], top=True)
        try:
            verify(graph)
        except IRVerificationError as exc:
            self.fail(f"the graph does not check: {exc}")
        names = [str(n) for n, _ in doc["inputs"]]
        outputs = [str(n) for n, _ in doc["outputs"]]
        if len(names) != len(graph.inputs) or len(outputs) != len(graph.outputs):
            self.fail("the signature does not match the graph")
        return ExportedProgram(graph, names, outputs, str(doc.get("name", "graph")))

    def var(self, key):
        if type(key) is not int or key not in self.avals:
            self.fail(f"value {key!r} has no type")
        if key not in self.vars:
            self.vars[key] = Var(self.avals[key])
        return self.vars[key]

    def operand(self, item):
        if isinstance(item, dict):
            dtype = item.get("dtype")
            if dtype not in DTYPES:
                self.fail(f"a literal has dtype {dtype!r}")
            return Literal(np.asarray(self.number(item["literal"]), DTYPES[dtype]))
        return self.var(item)

    def number(self, value):
        if isinstance(value, dict) and set(value) == {"float"} and \
                value["float"] in ("nan", "inf", "-inf"):
            return float(value["float"])
        if isinstance(value, (bool, int, float)):
            return value
        self.fail(f"{value!r} is not a number")

    def graph(self, doc, top=False):
        graph = Graph(str(doc["name"]))
        graph.inputs = [self.var(v) for v in doc["inputs"]]
        for key, name in doc["refs"]:
            if not top:
                self.fail("a sub-graph reads weights")
            graph.refs.append(Ref(self.var(key), self.weight(str(name), self.var(key)), name))
        for key, name in doc["consts"]:
            graph.consts[self.var(key)] = self.array(name, self.var(key))
        graph.nodes = [self.node(n) for n in doc["nodes"]]
        graph.outputs = [self.operand(v) for v in doc["outputs"]]
        return graph

    def array(self, name, var):
        array = self.arrays.get(name)
        if array is None:
            self.fail(f"tensor {name!r} is missing")
        if var is not None and (array.shape != tuple(var.aval.shape) or
                                array.dtype != np.dtype(var.aval.dtype)):
            self.fail(f"tensor {name!r} is {array.dtype}{list(array.shape)}, its value is "
                      f"typed {var.aval}")
        return array

    def weight(self, name, var):
        return Parameter(Tensor(self.array(name, var)), name=name)

    def node(self, doc):
        prim = PRIMITIVES.get(doc["prim"])
        if prim is None:
            self.fail(f"primitive {doc['prim']!r} is unknown to this tensorjit (a file from "
                      f"a newer version, or a primitive registered by user code)")
        params = {str(k): self.param(v) for k, v in dict(doc["params"]).items()}
        source = doc.get("source")
        if source is not None:
            source = SourceInfo(str(source[0]), int(source[1]), str(source[2]))
        return Node(prim, [self.operand(v) for v in doc["in"]], params,
                    [self.var(v) for v in doc["out"]], source)

    def param(self, value):
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if not isinstance(value, dict) or len(value) != 1:
            self.fail(f"a parameter is {value!r}")
        (tag, body), = value.items()
        if tag == "tuple":
            return tuple(self.param(v) for v in body)
        if tag == "list":
            return [self.param(v) for v in body]
        if tag == "dict":
            return {str(k): self.param(v) for k, v in dict(body).items()}
        if tag == "dtype":
            if body not in DTYPES:
                self.fail(f"a parameter names dtype {body!r}")
            return DTYPES[body]
        if tag == "graph":
            return self.graph(body)
        if tag == "slice":
            return slice(*[self.param(v) for v in body][:3])
        if tag == "ellipsis":
            return Ellipsis
        if tag == "array":
            return self.array(str(body), None)
        if tag == "float":
            return self.number(value)
        self.fail(f"a parameter has the unknown tag {tag!r}")
