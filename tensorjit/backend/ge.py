"""``backend="GE"``: the whole graph sunk into one compiled unit.

In MindSpore, GE ("Graph Engine") takes the whole graph and runs it as one unit on the
device instead of launching kernels one by one from the front end. Here, on a CPU with
NumPy, GE means:

  * the graph's computation becomes ONE generated Python function (the *unit*) whose
    body calls the fused native kernels, the BLAS (``ops/blas.py``) and convolution
    routines and the NumPy ufuncs directly -- no primitive wrappers, no per-op dispatch;
  * NumPy ufuncs whose operand dies at that node write into it (``np.add(a, b, out=a)``)
    under the same ownership/liveness rules as ``passes/buffers.py``;
  * the graph handed back to the jit holds a single ``graph_sink`` node calling the unit
    (plus the parameter write-backs), so the jitted callable's fast path makes exactly
    one call into compiled code: ``lower(...).as_text()`` shows the node and its body,
    ``lower(...).code`` the unit's source.
"""
import numpy as np

from ..autodiff import graph_primitive
from ..ir.graph import Graph, Literal, Node, Var
from ..ir.liveness import Ownership
from ..ops import blas, effects
from ..ops.primitive import MAY_ALIAS
from . import codegen
from .kernel_by_kernel import Executable


def _sink_impl(*args, graph):
    return unit_for(graph)(*args)


def _emit_sink(node, emitter):
    unit = unit_for(node.params["graph"])
    name = emitter.bind_global("ge_unit", unit)
    args = [emitter.value(v) for v in node.inputs]
    outs = [emitter.local(v) for v in node.outputs]
    if not outs:                      # a unit run only for its guards / prints
        return [f"{name}({', '.join(args)})"]
    return [f"{''.join(o + ', ' for o in outs)}= {name}({', '.join(args)})"]


# the unit may return an input or a view of one (a reshape) unchanged
graph_sink_p = graph_primitive("graph_sink", _sink_impl, emit=_emit_sink, aliasing=MAY_ALIAS)


def _ufunc(prim):
    impl = prim.impl
    return impl if isinstance(impl, np.ufunc) else None


def unit_for(body):
    unit = getattr(body, "_tj_unit", None)
    if unit is None:
        unit, source = _generate_unit(body)
        body._tj_unit = unit
        body._tj_unit_source = source
    return unit


def _inplace_plan(body):
    """node index -> operand position a ufunc may overwrite (``ir/liveness.py``)."""
    ownership = Ownership(body)
    plan, taken = {}, set()
    for i, node in enumerate(body.nodes):
        if _ufunc(node.prim) is None or len(node.outputs) != 1 or node.params:
            continue
        out = node.outputs[0]
        if not out.aval.shape:     # 0-d results may be NumPy scalars, which have no buffer
            continue
        for j, v in enumerate(node.inputs):
            if isinstance(v, Literal) or v in taken or v.aval != out.aval:
                continue
            if not ownership.can_overwrite(v, i) or node.inputs.count(v) != 1:
                continue
            plan[i] = j
            taken.add(v)
            break
    return plan


def _generate_unit(body, name="ge_unit"):
    emitter = codegen.Emitter()
    names = codegen._input_names(body)
    for var, n in zip(body.inputs, names):
        emitter.names[var] = n
    for var, value in body.consts.items():
        emitter.names[var] = emitter.bind_global("const", value)
    plan = _inplace_plan(body)
    lines = []
    for i, node in enumerate(body.nodes):
        ufunc = _ufunc(node.prim)
        if i in plan and ufunc is not None:
            fn = emitter.bind_global(ufunc.__name__, ufunc)
            args = [emitter.value(v) for v in node.inputs]
            out = emitter.local(node.outputs[0])
            lines.append(f"{out} = {fn}({', '.join(args)}, out={args[plan[i]]})")
        elif node.prim.name == "matmul" and node.outputs[0].aval.dtype.isbuiltin == 1:
            a, b = (emitter.value(v) for v in node.inputs)
            gemm = emitter.bind_global("gemm", blas.matmul)
            lines.append(f"{emitter.local(node.outputs[0])} = {gemm}({a}, {b})")
        else:
            lines.extend(codegen.emit_node(node, emitter))
    outputs = [emitter.value(v) for v in body.outputs]
    source = "\n".join([f"def {name}({', '.join(names)}):"] + ["    " + l for l in lines] +
                       [f"    return ({''.join(o + ', ' for o in outputs)})"]) + "\n"
    namespace = dict(emitter.globals)
    exec(compile(source, f"<tensorjit GE {name}>", "exec"), namespace)
    return namespace[name], source


def sink(graph):
    """Move ``graph``'s computation into one ``graph_sink`` node (in place)."""
    compute = [n for n in graph.nodes if n.prim is not effects.assign_p]
    assigns = [n for n in graph.nodes if n.prim is effects.assign_p]
    if not compute:
        return None
    body = Graph(graph.name + "_ge")
    mapping = {}
    outer_inputs = list(graph.inputs) + [r.var for r in graph.refs]
    for v in outer_inputs:
        mapping[v] = Var(v.aval, v.hint)
        body.inputs.append(mapping[v])
    for v, value in graph.consts.items():
        new = Var(v.aval, v.hint)
        mapping[v] = new
        body.consts[new] = value

    def m(v):
        return v if isinstance(v, Literal) else mapping[v]

    for node in compute:
        outs = [Var(o.aval, o.hint) for o in node.outputs]
        mapping.update(zip(node.outputs, outs))
        body.nodes.append(Node(node.prim, [m(v) for v in node.inputs], node.params, outs,
                               node.source))
    defined = set(outer_inputs) | set(graph.consts)
    carried = []
    for v in list(graph.outputs) + [n.inputs[1] for n in assigns]:
        if isinstance(v, Literal) or v in defined or v in carried:
            continue
        carried.append(v)
    body.outputs = [m(v) for v in carried]
    sink_node = Node(graph_sink_p, outer_inputs, {"graph": body}, carried)
    kept_consts = {v: c for v, c in graph.consts.items()
                   if any(v is x for x in graph.outputs) or
                   any(v is n.inputs[1] for n in assigns)}
    graph.consts = kept_consts
    # a unit with no results still runs for its effects (guards, prints)
    effects_only = any(n.prim.effect for n in compute)
    graph.nodes = [sink_node] + assigns if carried or effects_only else assigns
    return body


def compile_ge(graph, name="graph_fn", input_names=None):
    body = sink(graph)
    if body is not None:
        unit_for(body)
    code = codegen.generate(graph, input_names=input_names)
    fn, source = code.function(name)
    if body is not None:
        source = body._tj_unit_source + "\n" + source
    return Executable(graph, code, fn, source, "GE")
