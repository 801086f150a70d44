"""Graph loops from Python functions, for ``ops.scan`` / ``ops.while_loop`` (and the RNN
layers built on them) while a capture is active: the step function runs once on symbolic
inputs in a sub-capture, becomes a closed sub-graph, and one ``scan`` / ``while_loop``
node stands for the whole loop, however many steps it takes at run time.

The step functions take and return flat tuples of tensors of fixed shapes and dtypes; they
must not update tensors from outside in place (a graph loop carries its state explicitly).
"""
from ..ops import coerce
from ..tensor import Tensor
from . import control_flow as control
from .base import CaptureError, source_info
from .scan import scan_p
from .subgraph import SubCapture, sub_scope, union_operands


def _tensors(values, what):
    out = []
    for v in values:
        if not isinstance(v, Tensor):
            v = coerce.as_tensor(v, op=what)
        out.append(v)
    return tuple(out)


def _trace_step(capture, fn, avals, name, what):
    """Run ``fn`` on fresh inputs of ``avals`` in a sub-capture; returns it and the
    graph values of the results."""
    sub = SubCapture(capture, name)
    inputs = [sub.input(a) for a in avals]
    try:
        with sub_scope(sub):
            results = fn(*inputs)
            if isinstance(results, Tensor) or not isinstance(results, (tuple, list)):
                results = (results,)
            results = _tensors(results, what)
            values = [sub.value_of(r) for r in results]
        if sub.written_targets():
            raise CaptureError(f"{source_info(3) or what}: the {what} step updates a tensor "
                               f"from outside in place; carry it in the loop state instead")
    finally:
        sub.restore_outer()
    return sub, results, values


def _close(subs_and_outputs):
    """Close sub-graphs over one shared operand list: (graphs, outer operand tensors)."""
    keys, operands = union_operands([sub for sub, _ in subs_and_outputs])
    graphs = []
    for sub, outputs in subs_and_outputs:
        graph = sub.close(outputs, keys)
        explicit = len(sub.explicit_inputs)
        graph.inputs = graph.inputs[explicit:] + graph.inputs[:explicit]   # consts first
        graphs.append(graph)
    return graphs, operands


def build_scan(capture, step, init, xs, length, reverse):
    """``scan_p`` for ``step(*carry, *x_t) -> (*new_carry, *y_t)``."""
    init, xs = _tensors(init, "scan"), _tensors(xs, "scan")
    avals = [t.aval for t in init] + [x.aval.update(shape=x.aval.shape[1:]) for x in xs]
    sub, results, values = _trace_step(capture, step, avals, "scan_body", "scan")
    for r, t in zip(results[:len(init)], init):
        if r.aval != t.aval:
            raise TypeError(f"scan: the step returns a {r.aval} state where the initial "
                            f"state is {t.aval}; a graph loop keeps each state's type")
    if len(results) < len(init):
        raise TypeError(f"scan: the step returns {len(results)} values but the state has "
                        f"{len(init)}")
    (body,), consts = _close([(sub, values)])
    outs = scan_p.bind(*consts, *init, *xs, body=body, num_consts=len(consts),
                       num_carry=len(init), length=int(length), reverse=bool(reverse))
    return tuple(outs[:len(init)]), tuple(outs[len(init):])


def build_while(capture, cond, body, init):
    """``while_loop_p`` for ``while cond(*state): state = body(*state)``."""
    init = _tensors(init, "while_loop")
    avals = [t.aval for t in init]
    body_sub, results, body_values = _trace_step(capture, body, avals, "while_body",
                                                 "while_loop")
    if [r.aval for r in results] != avals:
        raise TypeError(f"while_loop: the body returns {[r.aval for r in results]} but the "
                        f"state is {avals}; a graph loop keeps each state's type")
    cond_sub, (pred,), (pred_value,) = _trace_step(capture, cond, avals, "while_cond",
                                                   "while_loop")
    if pred.aval.shape != () or pred.aval.dtype.kind != "b":
        raise TypeError(f"while_loop: the condition must return one bool scalar, got "
                        f"{pred.aval}")
    (cond_graph, body_graph), consts = _close([(cond_sub, [pred_value]),
                                               (body_sub, body_values)])
    effects = control.has_effects(cond_graph) or control.has_effects(body_graph)
    prim = control.while_loop_effect_p if effects else control.while_loop_p
    return tuple(prim.bind(*consts, *init, cond_graph=cond_graph, body_graph=body_graph,
                           num_consts=len(consts)))
