"""The verifier: every value is defined once before use and every node's output types
are what its primitive's shape rule says."""
from .graph import Literal


class IRVerificationError(Exception):
    pass


def verify(graph, outer_defined=()):
    defined = set(outer_defined)
    for var in graph.inputs:
        _define(defined, var, graph, "input")
    for ref in graph.refs:
        _define(defined, ref.var, graph, "ref")
    for var in graph.consts:
        _define(defined, var, graph, "const")
    for index, node in enumerate(graph.nodes):
        where = f"node {index} ({node.prim.name}) of graph {graph.name}"
        for value in node.inputs:
            if not isinstance(value, Literal) and value not in defined:
                raise IRVerificationError(f"{where} uses a value that is not defined before it")
        for sub in graph.subgraphs(node):
            verify(sub)
        if node.prim.abstract is not None:
            avals = [v.aval for v in node.inputs]
            try:
                expected = node.prim.abstract_eval(avals, node.params)
            except Exception as exc:   # the rule itself rejects the node's inputs
                raise IRVerificationError(f"{where}: shape rule failed: {exc}") from None
            got = [v.aval for v in node.outputs]
            if expected != got:
                raise IRVerificationError(f"{where}: outputs typed {got}, rule says {expected}")
        for out in node.outputs:
            _define(defined, out, graph, f"output of {where}")
    for value in graph.outputs:
        if not isinstance(value, Literal) and value not in defined:
            raise IRVerificationError(f"graph {graph.name} returns an undefined value")
    return True


def _define(defined, var, graph, what):
    if var in defined:
        raise IRVerificationError(f"graph {graph.name}: {what} {var} is defined twice")
    defined.add(var)
