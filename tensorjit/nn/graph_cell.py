"""``GraphCell``: a Cell that runs a loaded graph (``tensorjit.load``, MindSpore's
``nn.GraphCell``), with no Python source of the model.

The graph's weights become this Cell's Parameters under their exported names, so a
GraphCell trains, saves checkpoints and fine-tunes like any network. ``construct`` binds the
graph's primitives one by one: eagerly that runs the kernels, under ``jit`` every capture
mode records the same primitives (O1 fuses them), and autodiff differentiates them.
"""
import numpy as np

from ..autodiff.closed_graph import bind_graph
from ..ir.graph import Ref
from ..tensor import Tensor, Parameter
from .cell import Cell


class GraphCell(Cell):
    """Run a loaded graph. ``graph``: what ``tensorjit.load`` returns (a GraphCell, whose
    graph and weights are shared) or an exported program. ``params_init``: {name: Tensor or
    array} replacing weights, as MindSpore's ``params_init``."""

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__(auto_prefix=False)
        if obf_random_seed is not None:
            raise ValueError("GraphCell: obf_random_seed is for MindSpore's obfuscated "
                             "models, which tensorjit does not read")
        if isinstance(graph, GraphCell):
            graph = graph.program
        if not hasattr(graph, "graph") or not hasattr(graph, "input_names"):
            raise TypeError(f"GraphCell: expected a loaded graph (tensorjit.load(...)), got "
                            f"{type(graph).__name__}")
        object.__setattr__(self, "program", graph)
        params_init = dict(params_init or {})
        unknown = sorted(set(params_init) - {ref.name for ref in graph.graph.refs})
        if unknown:
            raise ValueError(f"GraphCell: params_init names weights the graph does not have: "
                             f"{unknown[:5]}")
        run = graph.graph.copy()
        refs = []
        for ref in graph.graph.refs:
            param = ref.tensor if isinstance(ref.tensor, Parameter) else None
            if ref.name in params_init:
                param = _replacement(ref, params_init[ref.name])
            elif param is None:
                param = Parameter(Tensor(np.asarray(ref.tensor.asnumpy())), name=ref.name)
            self._params[ref.name] = param
            refs.append(Ref(ref.var, param, ref.name))
        run.refs = refs
        object.__setattr__(self, "_graph", run)

    def construct(self, *inputs):
        graph = self._graph
        if len(inputs) != len(graph.inputs):
            raise TypeError(f"GraphCell {self.program.name}: takes {len(graph.inputs)} input "
                            f"tensor(s) ({', '.join(self.program.input_names)}), got "
                            f"{len(inputs)}")
        for name, var, value in zip(self.program.input_names, graph.inputs, inputs):
            if not isinstance(value, Tensor):
                raise TypeError(f"GraphCell {self.program.name}: input {name!r} must be a "
                                f"Tensor, got {type(value).__name__}")
            if tuple(value.shape) != tuple(var.aval.shape) or \
                    np.dtype(value.dtype) != np.dtype(var.aval.dtype):
                raise ValueError(
                    f"GraphCell {self.program.name}: input {name!r} has shape "
                    f"{tuple(value.shape)} and dtype {np.dtype(value.dtype)}; the graph was "
                    f"exported for shape {tuple(var.aval.shape)} and dtype "
                    f"{np.dtype(var.aval.dtype)} (export again with inputs of this shape)")
        outs = bind_graph(graph, inputs)
        return outs[0] if len(outs) == 1 else tuple(outs)


def _replacement(ref, value):
    data = np.asarray(value.asnumpy() if isinstance(value, Tensor) else value)
    want = ref.var.aval
    if data.shape != tuple(want.shape):
        raise ValueError(f"GraphCell: params_init[{ref.name!r}] has shape {data.shape}, the "
                         f"graph's weight has {tuple(want.shape)}")
    return Parameter(Tensor(data.astype(np.dtype(want.dtype))), name=ref.name)
