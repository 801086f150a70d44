"""Structured control flow: ``cond`` and ``while_loop`` (built by ast capture from tensor
``if`` / ``while`` / ``for``), their VJPs (``while_grad`` for loops), and the code they
become in generated Python.

Their params hold closed sub-graphs. Eagerly a sub-graph runs through its generated code
(``run_graph``); differentiated, the branches and bodies are bound again under ``vjp``
into closed backward graphs (``trace_closed``), so the backward pass is graph control
flow too.
"""
import numpy as np

from ..state import state
from ..ops.primitive import Primitive, MAY_ALIAS
from ..ops.elementwise import zeros_like, add
from ..autodiff import vjp, bind_graph
from ..backend import codegen
from .subgraph import trace_closed


# ---- structured control flow (built by ast capture) ------------------------------------
#
#   cond[then_branch, else_branch] pred *operands -> outputs
#       pred: a 0-d bool; both branches are closed graphs taking ``operands`` and returning
#       values of the same types.
#   while_loop[cond_graph, body_graph, num_consts] *consts *init -> final state
#       cond_graph(*consts, *state) -> (0-d bool,); body_graph(*consts, *state) -> state.
#
# Each has an ``_effect`` twin (same rules, flagged as an effect) used when a sub-graph
# prints or assigns, so passes never drop or merge it.

def run_graph(graph, args):
    """Run a closed sub-graph on arrays with its generated code (compiled once)."""
    fn = graph.__dict__.get("_tj_compiled")
    if fn is None:
        fn, _ = codegen.generate(graph).function(_graph_fn_name(graph))
        graph._tj_compiled = fn
    return fn(*args)


def _graph_fn_name(graph):
    name = "".join(c if c.isalnum() else "_" for c in graph.name)
    return name if name and not name[0].isdigit() else "subgraph"


def _cond_impl(pred, *operands, then_branch, else_branch):
    return run_graph(then_branch if pred else else_branch, operands)


def _cond_rule(pred, *operands, then_branch, else_branch):
    if pred.shape != () or pred.dtype != np.bool_:
        raise TypeError(f"cond: the predicate must be a 0-d bool, got {pred}")
    expected = [v.aval for v in then_branch.inputs]
    if [o for o in operands] != expected:
        raise TypeError(f"cond: operands {list(operands)} do not match the branches' inputs "
                        f"{expected}")
    then_out = [v.aval for v in then_branch.outputs]
    else_out = [v.aval for v in else_branch.outputs]
    if then_out != else_out:
        raise TypeError(f"cond: the branches return different types: {then_out} and "
                        f"{else_out}")
    return then_out


def _cond_vjp(cts, outs, pred, *operands, then_branch, else_branch):
    if state.capture is None:
        branch = then_branch if bool(np.asarray(pred._data)) else else_branch
        _, pullback = vjp(lambda *xs: bind_graph(branch, xs), *operands)
        return (None,) + _no_integer_grads(pullback(*cts), operands)
    n = len(operands)
    avals = [o.aval for o in operands] + [c.aval for c in cts]

    def backward_of(branch):
        def backward(*xs):
            _, pullback = vjp(lambda *ys: bind_graph(branch, ys), *xs[:n])
            return pullback(*xs[n:])
        return trace_closed(backward, avals, f"{branch.name}_vjp")

    then_vjp, else_vjp = backward_of(then_branch), backward_of(else_branch)
    prim = cond_effect_p if _has_effects(then_vjp) or _has_effects(else_vjp) else cond_p
    grads = prim.bind(pred, *operands, *cts, then_branch=then_vjp, else_branch=else_vjp)
    return (None,) + _no_integer_grads(grads, operands)


def _while_impl(*args, cond_graph, body_graph, num_consts):
    consts, loop_state = args[:num_consts], args[num_consts:]
    while run_graph(cond_graph, consts + loop_state)[0]:
        loop_state = run_graph(body_graph, consts + loop_state)
    return loop_state


def _while_rule(*avals, cond_graph, body_graph, num_consts):
    expected = [v.aval for v in body_graph.inputs]
    if list(avals) != expected or [v.aval for v in cond_graph.inputs] != expected:
        raise TypeError(f"while_loop: operands {list(avals)} do not match the loop graphs' "
                        f"inputs {expected}")
    out = [v.aval for v in body_graph.outputs]
    if out != expected[num_consts:]:
        raise TypeError(f"while_loop: the body returns {out}, but the loop state is "
                        f"{expected[num_consts:]}")
    pred = [v.aval for v in cond_graph.outputs]
    if len(pred) != 1 or pred[0].shape != () or pred[0].dtype != np.bool_:
        raise TypeError(f"while_loop: the condition must return one 0-d bool, got {pred}")
    return out


def body_vjp_graph(body_graph, avals):
    """The closed graph ``(*consts, *state, *state_cts) -> (*consts_cts, *state_cts)`` of a
    loop body's VJP (``avals``: the body's input types)."""
    n_args = len(avals)

    def body_backward(*xs):
        _, pullback = vjp(lambda *ys: bind_graph(body_graph, ys), *xs[:n_args])
        return pullback(*xs[n_args:])

    state_avals = [v.aval for v in body_graph.outputs]
    return trace_closed(body_backward, list(avals) + state_avals, f"{body_graph.name}_vjp")


def _while_vjp(cts, outs, *args, cond_graph, body_graph, num_consts):
    """Reverse mode through a loop whose trip count is only known at run time: the
    ``while_grad`` kernel re-runs the forward loop keeping every state, then applies the
    body's VJP graph to them in reverse order."""
    body_vjp = body_vjp_graph(body_graph, [a.aval for a in args])
    grads = while_grad_p.bind(*args, *cts, cond_graph=cond_graph, body_graph=body_graph,
                              body_vjp=body_vjp, num_consts=num_consts)
    return _no_integer_grads(grads, args)


def _while_grad_impl(*args, cond_graph, body_graph, body_vjp, num_consts):
    n_state = (len(args) - num_consts) // 2
    consts = args[:num_consts]
    loop_state = args[num_consts:num_consts + n_state]
    ct = args[num_consts + n_state:]
    state_dtypes = [np.asarray(v).dtype for v in loop_state]
    history = []
    while run_graph(cond_graph, consts + loop_state)[0]:
        history.append(loop_state)
        loop_state = run_graph(body_graph, consts + loop_state)
    ct = _float_only(ct, state_dtypes)
    ct_consts = [np.zeros_like(c) for c in consts]
    for saved in reversed(history):
        grads = run_graph(body_vjp, consts + saved + tuple(ct))
        ct_consts = [np.asarray(a + g, dtype=a.dtype) if a.dtype.kind == "f" else a
                     for a, g in zip(ct_consts, grads[:num_consts])]
        ct = _float_only(grads[num_consts:], state_dtypes)
    return tuple(ct_consts) + tuple(ct)


def _float_only(cts, dtypes):
    """Cotangents as arrays of the state's dtypes; integer and bool state gets zeros."""
    return tuple(np.asarray(c, dtype=d) if d.kind == "f" else np.zeros(np.shape(c), d)
                 for c, d in zip(cts, dtypes))


def _while_grad_rule(*avals, cond_graph, body_graph, body_vjp, num_consts):
    n_state = (len(avals) - num_consts) // 2
    return list(avals[:num_consts + n_state])


def _while_grad_vjp(cts, outs, *args, cond_graph, body_graph, body_vjp, num_consts):
    """Second order through a data-dependent loop: eagerly, the loop is unrolled on the
    actual values and differentiated by the tape; inside a graph it is not supported."""
    if state.capture is not None:
        raise NotImplementedError(
            "second-order gradients through a tensor-dependent while loop are not "
            "supported inside a compiled graph")

    def unrolled(*xs):
        n_state = (len(xs) - num_consts) // 2
        consts = tuple(xs[:num_consts])
        loop_state = tuple(xs[num_consts:num_consts + n_state])
        ct = tuple(xs[num_consts + n_state:])
        history = []
        while bool(np.asarray(bind_graph(cond_graph, consts + loop_state)[0]._data)):
            history.append(loop_state)
            loop_state = bind_graph(body_graph, consts + loop_state)
        ct_consts = [zeros_like(c) for c in consts]
        for saved in reversed(history):
            grads = bind_graph(body_vjp, consts + saved + ct)
            ct_consts = [add(a, g) for a, g in zip(ct_consts, grads[:num_consts])]
            ct = tuple(grads[num_consts:])
        return tuple(ct_consts) + ct

    _, pullback = vjp(unrolled, *args)
    return _no_integer_grads(pullback(*cts), args)


def _no_integer_grads(grads, args):
    return tuple(g if np.dtype(a.dtype).kind == "f" else None for g, a in zip(grads, args))


def _has_effects(graph):
    for node in graph.nodes:
        if node.prim.effect:
            return True
        if any(_has_effects(sub) for sub in graph.subgraphs(node)):
            return True
    return False


def has_effects(graph):
    """True if ``graph`` (or a graph nested in it) prints, assigns or guards."""
    return _has_effects(graph)


# ---- generated code ------------------------------------------------------------------

def _emit_cond(node, emitter):
    """A ``cond`` node as a Python ``if`` block; both branches set the node's outputs."""
    pred = emitter.value(node.inputs[0])
    operands = [codegen.typed_value(v, emitter) for v in node.inputs[1:]]
    outs = [emitter.local(v) for v in node.outputs]
    lines = [f"if {pred}:"]
    for key in ("then_branch", "else_branch"):
        body, results = codegen.emit_subgraph(node.params[key], operands, emitter)
        if outs:
            body.append(codegen.assign_line(outs, results))
        lines += ["    " + line for line in body or ["pass"]]
        if key == "then_branch":
            lines.append("else:")
    return lines


def _emit_while(node, emitter):
    """A ``while_loop`` node as a Python ``while`` block over its outputs' names."""
    n = node.params["num_consts"]
    consts = [codegen.typed_value(v, emitter) for v in node.inputs[:n]]
    init = [codegen.typed_value(v, emitter) for v in node.inputs[n:]]
    outs = [emitter.local(v) for v in node.outputs]
    lines = [codegen.assign_line(outs, init)] if outs else []
    lines.append("while True:")
    cond_lines, (pred,) = codegen.emit_subgraph(node.params["cond_graph"], consts + outs,
                                                emitter)
    body_lines, results = codegen.emit_subgraph(node.params["body_graph"], consts + outs,
                                                emitter)
    inner = cond_lines + [f"if not {pred}:", "    break"] + body_lines
    if outs:
        inner.append(codegen.assign_line(outs, results))
    lines += ["    " + line for line in inner]
    return lines


# A branch or loop may return an operand unchanged, so results may share its buffer.
_CONTROL = dict(multiple_results=True, shape_generic=True, aliasing=MAY_ALIAS)
cond_p = Primitive("cond", _cond_impl, _cond_rule, _cond_vjp, emit=_emit_cond, **_CONTROL)
cond_effect_p = Primitive("cond_effect", _cond_impl, _cond_rule, _cond_vjp, effect=True,
                          emit=_emit_cond, **_CONTROL)
while_loop_p = Primitive("while_loop", _while_impl, _while_rule, _while_vjp,
                         emit=_emit_while, **_CONTROL)
while_loop_effect_p = Primitive("while_loop_effect", _while_impl, _while_rule, _while_vjp,
                                effect=True, emit=_emit_while, **_CONTROL)
# a loop that runs zero times returns the incoming cotangents themselves
while_grad_p = Primitive("while_grad", _while_grad_impl, _while_grad_rule, _while_grad_vjp,
                         multiple_results=True, shape_generic=False, aliasing=MAY_ALIAS)
