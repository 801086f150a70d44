"""What every file format writes and reads: one captured graph, its weights and its
signature (``ExportedProgram``), and ``capture_program`` which makes one from a function or
Cell the way ``jit`` would capture it.

The graph is the one ``jit`` captures (any capture mode) after the passes of its
``jit_level`` that keep it portable (``optimize(..., portable=True)``: no fused kernels, no
buffer reuse). Its ``refs`` are the weights: each a named tensor read when the graph runs.
"""
import copy
from importlib import metadata

import numpy as np

from .. import pytree
from ..capture import capture_graph
from ..ir.graph import Literal, Var
from ..jit import jit
from ..nn.cell import Cell
from ..passes.pipeline import optimize
from ..tensor import Tensor


class ExportError(ValueError):
    """The program cannot be written in the requested form (the message says why)."""


class ExportedProgram:
    """A graph with its weights: ``graph.inputs`` are the call's tensors in order
    (``input_names``), ``graph.refs`` the weights (``Ref.name`` -> ``Ref.tensor``),
    ``graph.outputs`` the results (``output_names``; several results form a tuple)."""

    def __init__(self, graph, input_names, output_names, name="graph"):
        self.graph = graph
        self.input_names = list(input_names)
        self.output_names = list(output_names)
        self.name = name

    @property
    def weights(self):
        """{name: ndarray} of the weights, in the graph's order."""
        return {ref.name: np.asarray(ref.tensor.asnumpy()) for ref in self.graph.refs}

    def input_avals(self):
        return [v.aval for v in self.graph.inputs]

    def output_avals(self):
        return [v.aval for v in self.graph.outputs]

    def __repr__(self):
        return (f"ExportedProgram({self.name}: {len(self.graph.inputs)} inputs, "
                f"{len(self.graph.refs)} weights, {len(self.graph.nodes)} nodes)")


def capture_program(net, inputs, capture_mode="ast", jit_level="O0"):
    """Capture ``net(*inputs)`` as one whole graph. A Cell is captured in inference mode
    (``set_train(False)``, restored afterwards), as ``mindspore.export`` does. A function
    already wrapped by ``jit`` keeps its own capture mode and level."""
    inner = getattr(net, "_tj_jit", None)
    if inner is not None:
        net, capture_mode, jit_level = inner.fn, inner.opts.capture_mode, inner.opts.jit_level
    jitted = jit(net, capture_mode=capture_mode, jit_level=jit_level, fullgraph=True)._tj_jit
    before_passes = {}      # id(graph) -> the graph as captured (compiling optimizes in place)

    def compile_graph(graph, **name):
        before_passes[id(graph)] = graph.copy()
        return jitted.request.compile_graph(graph, **name)

    request = copy.copy(jitted.request)
    request.compile_graph = compile_graph
    training = net.training if isinstance(net, Cell) else None
    if isinstance(net, Cell):
        net.set_train(False)
    try:
        struct, leaves = jitted.flatten_call(tuple(inputs), {})
        captured = capture_graph(request, struct, leaves, run=False)
    finally:
        if training is not None:
            net.set_train(training)
    if captured.info.breaks or captured.info.graph_count != 1 or captured.graph is None:
        raise ExportError(f"export: {jitted.name} does not capture as one graph in "
                          f"{capture_mode} mode ({_why_split(captured.info)}); export needs "
                          f"the whole computation in one graph")
    graph = before_passes.get(id(captured.graph), captured.graph).copy()
    if captured.program is not None:       # (bytecode: the program maps the graph's values)
        graph = _returned_graph(graph, captured.program, len(leaves), jitted.name)
    if captured.info.input_writes:
        raise ExportError(f"export: {jitted.name} writes into its input tensors in place; an "
                          f"exported graph cannot change its caller's tensors")
    optimize(graph, jit_level, portable=True)
    _name_weights(graph)
    names = jitted.request.leaf_hints(struct)
    for var, hint in zip(graph.inputs, names):
        var.hint = hint
    if captured.out_struct is not None and (not _tensors_only(captured.out_struct) or
                                            pytree.count_tensors(captured.out_struct)
                                            != len(graph.outputs)):
        raise ExportError(f"export: {jitted.name} returns values that are not tensors; an "
                          f"exported graph returns tensors only")
    graph.outputs = [_as_value(graph, v) for v in graph.outputs]
    outputs = [f"output{i}" if len(graph.outputs) > 1 else "output"
               for i in range(len(graph.outputs))]
    return ExportedProgram(graph, [_input_name(v, i) for i, v in enumerate(graph.inputs)],
                           outputs, jitted.name)


class _GraphResult:
    """Stands for the graph's result ``index`` while a bytecode program's return value is
    built."""

    def __init__(self, index):
        self.index = index


def _returned_graph(graph, program, leaf_count, name):
    """The graph of a bytecode program of one straight segment, with the call's inputs as
    its inputs and the returned tensors as its outputs (the program maps slots to both)."""
    from ..capture.bytecode.program import Return
    from ..capture.bytecode.values import build
    root = getattr(program, "root", None)       # (an ast program: statements run as Python)
    alternatives = root.alternatives if root is not None else []
    if len(alternatives) != 1 or alternatives[0].prelude or alternatives[0].write_backs or \
            not isinstance(alternatives[0].terminator, Return):
        raise ExportError(f"export: {name} runs Python around its graph (statements the "
                          f"capture could not put in it); export needs one whole graph: "
                          f"try another capture_mode, or see tensorjit.explain")
    alternative = alternatives[0]
    slots = [slot for slot, _ in alternative.inputs]
    if any(not isinstance(slot, int) or slot >= leaf_count for slot in slots):
        raise ExportError(f"export: {name}'s graph reads values computed in Python")
    env = {slot: _GraphResult(i) for i, slot in enumerate(alternative.outputs)
           if slot is not None}
    returned = build(alternative.terminator.template, env)
    flat = list(returned) if isinstance(returned, (tuple, list)) else [returned]
    if not all(isinstance(v, _GraphResult) for v in flat):
        raise ExportError(f"export: {name} returns values that are not tensors computed by "
                          f"its graph")
    by_leaf = dict(zip(slots, graph.inputs))
    graph.inputs = [by_leaf.get(k) or Var(graph.inputs[0].aval) for k in range(leaf_count)]
    graph.outputs = [graph.outputs[v.index] for v in flat]
    return graph


def _tensors_only(struct):
    """Whether a result structure holds tensors in (nested) tuples and lists only."""
    if struct == pytree.TENSOR:
        return True
    return struct[0] in ("tuple", "list") and all(_tensors_only(s) for s in struct[1])


def _why_split(info):
    if info.breaks:
        brk = info.breaks[0]
        return f"graph break: {brk[1]} at {brk[2]}"
    return f"{info.graph_count} graphs"


def _name_weights(graph):
    """Every weight gets a unique name (Parameter names; other captured tensors get
    ``const<i>``)."""
    seen = set()
    for i, ref in enumerate(graph.refs):
        name = ref.name or f"const{i}"
        while name in seen:
            name += "_"
        seen.add(name)
        ref.name = name


def _as_value(graph, value):
    """A graph output that is a Literal becomes a constant (files hold tensors only)."""
    if isinstance(value, Literal):
        var = Var(value.aval)
        graph.consts[var] = np.asarray(value.value)
        return var
    return value


def _input_name(var, index):
    hint = var.hint or f"input{index}"
    return "".join(c if c.isalnum() or c == "_" else "_" for c in hint)


def registrar(table):
    """A decorator factory filling ``table``: ``@register("A", "B")`` files the function under
    both names (each format's operator tables are built this way)."""
    def register(*names):
        def add(fn):
            for name in names:
                table[name] = fn
            return fn
        return add
    return register


def producer_version():
    """tensorjit's version, as files record it (from the installed package's metadata: the
    package facade that defines ``__version__`` sits above this unit)."""
    try:
        return metadata.version("tensorjit")
    except metadata.PackageNotFoundError:
        return "unknown"


def example_inputs(program, rng=None):
    """Random inputs of the exported signature (the export benchmark and tests)."""
    rng = rng or np.random.default_rng(0)
    out = []
    for aval in program.input_avals():
        dtype = np.dtype(aval.dtype)
        if dtype.kind in "iu":
            out.append(Tensor(rng.integers(0, 4, aval.shape).astype(dtype)))
        elif dtype.kind == "b":
            out.append(Tensor(rng.random(aval.shape) > 0.5))
        else:
            out.append(Tensor(rng.standard_normal(aval.shape).astype(dtype)))
    return out
