"""Graphviz ``dot`` export: values as edges, primitives as boxes."""
from .graph import Literal
from .printer import Namer, literal_text


def _quote(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'


def graph_to_dot(graph):
    namer = Namer()
    lines = [f"digraph {_quote(graph.name)} {{", "  rankdir=TB;",
             '  node [fontname="monospace", fontsize=10];']
    producer = {}
    for i, var in enumerate(graph.inputs):
        node_id = f"in{i}"
        lines.append(f"  {node_id} [shape=ellipse, label={_quote(namer.name(var) + ': ' + str(var.aval))}];")
        producer[var] = node_id
    for i, ref in enumerate(graph.refs):
        node_id = f"ref{i}"
        lines.append(f"  {node_id} [shape=ellipse, style=dashed, label={_quote(ref.name + ': ' + str(ref.var.aval))}];")
        producer[ref.var] = node_id
        namer.name(ref.var)
    for i, var in enumerate(graph.consts):
        node_id = f"const{i}"
        lines.append(f"  {node_id} [shape=note, label={_quote('const ' + str(var.aval))}];")
        producer[var] = node_id
        namer.name(var)
    for i, node in enumerate(graph.nodes):
        node_id = f"n{i}"
        shape = "hexagon" if node.prim.effect else "box"
        lines.append(f"  {node_id} [shape={shape}, label={_quote(node.prim.name)}];")
        for value in node.inputs:
            if isinstance(value, Literal):
                lit = f"lit{i}_{id(value)}"
                lines.append(f"  {lit} [shape=plaintext, label={_quote(literal_text(value.value))}];")
                lines.append(f"  {lit} -> {node_id};")
            elif value in producer:
                lines.append(f"  {producer[value]} -> {node_id} [label={_quote(value.aval)}];")
        for out in node.outputs:
            producer[out] = node_id
            namer.name(out)
    lines.append('  out [shape=doublecircle, label="return"];')
    for value in graph.outputs:
        if not isinstance(value, Literal) and value in producer:
            lines.append(f"  {producer[value]} -> out [label={_quote(value.aval)}];")
    lines.append("}")
    return "\n".join(lines)
