"""The ``fused`` primitive: one node standing for a group of elementwise ops (and
reductions) that O1's fusion pass (``passes/fusion.py``) made into a closed sub-graph.

Its kernel is a native Numba kernel built from the sub-graph (``backend/numba/``), or the
sub-graph's NumPy code where Numba is absent or cannot handle the dtypes, so results never
depend on Numba. It differentiates through its sub-graph (``autodiff.graph_primitive``).
The optional ``inplace`` param, set by buffer reuse (``passes/buffers.py``), lists
``(output, input)`` pairs whose output may be written into that input's dying buffer.
"""
from ..autodiff import graph_primitive
from ..ops.primitive import FRESH
from .numba import kernel_for


def _fused_impl(*args, graph, inplace=()):
    return kernel_for(graph)(*args)


def _emit_fused(node, emitter):
    """Generated code for a fused node: one call of its compiled kernel."""
    kernel = kernel_for(node.params["graph"], node.params.get("inplace", ()))
    name = emitter.bind_global("fused", kernel)
    args = [emitter.value(v) for v in node.inputs]
    outs = [emitter.local(v) for v in node.outputs]
    return [f"{''.join(o + ', ' for o in outs)}= {name}({', '.join(args)})"]


# a kernel allocates its results (or, with ``inplace``, writes into a dead operand's buffer)
fused_p = graph_primitive("fused", _fused_impl, emit=_emit_fused, aliasing=FRESH)
