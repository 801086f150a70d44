"""A graph run node by node through each primitive's NumPy kernel, with no passes and no
generated code: eager mode's arithmetic on the captured graph. The last resort when a
graph fails to compile (a compiler bug, ``jit/fallback.py``): the user's Python is not run
again (trace and bytecode captures already ran it), and the results are eager's."""
from ..ir.graph import Literal
from ..ops import effects
from .codegen import is_shape_generic


class InterpretedGraph:
    """An Executable's interface (``fn(*input_arrays) -> tuple``) for ``graph``; it has no
    generated code, so it is never inlined into a dispatcher."""

    def __init__(self, graph, name="graph_fn"):
        self.graph = graph
        self.code = None
        self.source = f"# {name}: interpreted node by node (it did not compile)"
        self.backend = "interpreter"
        self.shape_generic = is_shape_generic(graph)
        self.name = name

    def function(self):
        return self.fn

    def fn(self, *arrays):
        graph = self.graph
        env = dict(zip(graph.inputs, arrays))
        env.update((ref.var, ref.tensor._data) for ref in graph.refs)
        env.update(graph.consts)
        writes = []
        for node in graph.nodes:
            values = [v.value if isinstance(v, Literal) else env[v] for v in node.inputs]
            if node.prim is effects.assign_p:
                writes.append((node.inputs[0], values[1]))
                continue
            out = node.prim.impl(*values, **node.params)
            outs = out if node.prim.multiple_results else (out,)
            env.update(zip(node.outputs, outs))
        holders = {ref.var: ref.tensor for ref in graph.refs}
        for target, value in writes:             # parameter writes happen last, as compiled
            holders[target]._data = value
        return tuple(v.value if isinstance(v, Literal) else env[v] for v in graph.outputs)
