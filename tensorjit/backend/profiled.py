"""A graph's code with every kernel timed, for the profiler.

The same code generation as the graph's own function, but each node is a statement of its
own followed by ``_tj_t = _tj_done(index, _tj_t)``: one clock read per kernel, the time
going to the kernel named in the table (its primitive, or for a fused kernel the
primitives it contains, with the user's source lines of its IR nodes). Built the first time
a graph runs while a profiler records; the ordinary function is untouched, so a program
that is not profiled runs exactly the code it ran before.
"""
import functools

from .. import timeline
from ..ir.liveness import memory_curve, nbytes
from ..ir.printer import Namer, node_lines
from .codegen import generate

_graph_counter = [0]


def profiled_function(executable, name):
    """``executable``'s graph as a function timing each kernel; records the graph's IR
    with the recording so a report can show the time of each node."""
    graph = executable.graph
    _graph_counter[0] += 1
    label = f"{name}#{_graph_counter[0]}"
    table, ir_lines = [], []
    namer = Namer()
    for var in graph.inputs:
        namer.name(var)
    for ref in graph.refs:
        namer.name(ref.var, ref.name.replace(".", "_"))
    for node in graph.nodes:
        ir_lines.append(node_lines(node, namer, "")[0])

    live = memory_curve(graph)

    def after(index, node, emitter):
        table.append(_kernel(node, label, index, ir_lines[index], live[index]))
        slot = len(table) - 1
        return [f"_tj_t = _tj_done({slot}, _tj_t)"]

    code = generate(graph, input_names=executable.code.input_names if executable.code else None,
                    after_node=after)
    code.globals["_tj_done"] = functools.partial(timeline.kernel_done, table)
    code.globals["_tj_clock"] = timeline._clock
    code.body.insert(0, "_tj_t = _tj_clock()")
    fn, source = code.function(name)
    timeline.graphs[label] = {"label": label, "ir": ir_lines, "text": graph.as_text(),
                              "source": source, "peak_bytes": max(live, default=0)}
    return fn


def _kernel(node, label, index, ir_line, live_bytes):
    """(name, category, args) of the event a node's run records."""
    prim = node.prim.name
    inner = _contained(node)
    if prim == "fused":
        name = "fused[" + ",".join(dict.fromkeys(n.prim.name for n in inner)) + "]"
        category = "kernel"
    else:
        name = prim
        category = "collective" if node.prim.communicates else "kernel"
    lines = list(dict.fromkeys(f"{n.source.filename}:{n.source.lineno}" for n in inner
                               if n.source is not None))
    args = {"graph": label, "node": index, "ir": ir_line.strip(), "line": lines[0] if lines
            else None, "lines": lines,
            "shapes": [list(v.aval.shape) for v in node.inputs if hasattr(v, "aval")],
            "bytes": sum(_nbytes(v) for v in node.outputs), "live_bytes": live_bytes,
            "backward": any(n.source is not None and n.source.function.endswith("(backward)")
                            for n in inner)}
    return name, category, args


def _contained(node):
    """The node itself, or the nodes of the sub-graph a fused kernel runs."""
    graph = node.params.get("graph")
    if node.prim.name == "fused" and graph is not None:
        return graph.nodes
    return [node]


def _nbytes(var):
    try:
        return int(nbytes(var))
    except (AttributeError, TypeError):
        return 0
