"""The readable text form of a graph, in the spirit of a jaxpr or a MindIR dump:

    graph f(a: f32[2,3], b: f32[2,3], c: f32[2,3]) {
      %0: f32[2,3] = mul a b
      %1: f32[2,3] = add %0 c
      return %1
    }
"""
import numpy as np

from .graph import Graph, Literal
from ..aval import short_dtype


class Namer:
    """Stable, readable names for the values of one graph (and its sub-graphs)."""

    def __init__(self):
        self.names = {}
        self.used = set()
        self.count = 0

    def name(self, var, hint=None):
        if var in self.names:
            return self.names[var]
        base = hint or getattr(var, "hint", None)
        if base and base.isidentifier() and base not in self.used:
            name = base
        else:
            name = f"%{self.count}"
            self.count += 1
        self.names[var] = name
        self.used.add(name)
        return name

    def ref(self, value):
        if isinstance(value, Literal):
            return literal_text(value.value)
        return self.names.get(value, f"?{value.id}")


def literal_text(value):
    value = np.asarray(value)
    if value.dtype == np.bool_:
        return str(bool(value))
    text = repr(value.item())
    return f"{text}:{short_dtype(value.dtype)}"


def _param_text(value):
    if isinstance(value, np.dtype):
        return short_dtype(value)
    if isinstance(value, Graph):
        return f"<graph {value.name}>"
    if isinstance(value, tuple) and value and all(isinstance(v, Graph) for v in value):
        return "(" + ", ".join(f"<graph {v.name}>" for v in value) + ")"
    if isinstance(value, np.ndarray):
        return f"<array {short_dtype(value.dtype)}{list(value.shape)}>"
    return repr(value)


def graph_to_text(graph, namer=None, indent=""):
    namer = namer or Namer()
    lines = []
    args = ", ".join(f"{namer.name(v)}: {v.aval}" for v in graph.inputs)
    lines.append(f"{indent}graph {graph.name}({args}) {{")
    inner = indent + "  "
    for ref in graph.refs:
        lines.append(f"{inner}ref {namer.name(ref.var)}: {ref.var.aval} = {ref.name}")
    for var, value in graph.consts.items():
        lines.append(f"{inner}const {namer.name(var, 'c')}: {var.aval}")
    for node in graph.nodes:
        lines.extend(node_lines(node, namer, inner))
    outs = ", ".join(namer.ref(v) for v in graph.outputs)
    lines.append(f"{inner}return {outs}")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def node_lines(node, namer, indent):
    params = {k: v for k, v in node.params.items() if not isinstance(v, Graph)
              and not (isinstance(v, tuple) and v and all(isinstance(g, Graph) for g in v))}
    subgraphs = [(k, v) for k, v in node.params.items() if k not in params]
    head = node.prim.name
    if params:
        head += "[" + ", ".join(f"{k}={_param_text(v)}" for k, v in params.items()) + "]"
    args = " ".join(namer.ref(v) for v in node.inputs)
    outs = ", ".join(f"{namer.name(v)}: {v.aval}" for v in node.outputs)
    line = f"{indent}{outs + ' = ' if outs else ''}{head} {args}".rstrip()
    if node.source is not None:
        line += f"    # {node.source.filename.rsplit('/', 1)[-1]}:{node.source.lineno}"
        if node.source.function.endswith("(backward)"):
            line += " (backward)"
    lines = [line]
    for key, value in subgraphs:
        graphs = value if isinstance(value, tuple) else (value,)
        for i, sub in enumerate(graphs):
            label = f"{key}[{i}]" if isinstance(value, tuple) else key
            lines.append(f"{indent}  {label}:")
            lines.append(graph_to_text(sub, namer, indent + "    "))
    return lines
