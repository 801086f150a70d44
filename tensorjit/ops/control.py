"""Structured control flow and calls: primitives whose params hold closed sub-graphs."""
from .primitive import Primitive


def _call_impl(*args, graph):
    from ..ir.interpret import evaluate
    return evaluate(graph, args)


def _call_rule(*avals, graph):
    return [v.aval for v in graph.outputs]


def _call_vjp(cts, outs, *args, graph):
    from ..autodiff import vjp
    from ..ir.interpret import bind_graph
    _, pullback = vjp(lambda *xs: bind_graph(graph, xs), *args)
    return pullback(*cts)


call_p = Primitive("call", _call_impl, _call_rule, _call_vjp, multiple_results=True,
                   shape_generic=False)
