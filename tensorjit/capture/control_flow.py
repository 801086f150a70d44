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
from ..ops.elementwise import zeros_like, add, where
from ..ops.reduction import any as reduce_any
from ..ops import batching
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


# ---- batching (vmap) -----------------------------------------------------------------
#
# A sub-graph is batched by tracing ``batching.batch_graph`` over it into a new closed graph
# whose batched inputs and outputs carry the batch as axis 0. A condition that is the same
# for every example keeps the node (with batched sub-graphs); one that differs per example
# turns ``cond`` into both branches and a select, and ``while_loop`` into a loop that runs
# while any example's condition holds, each step kept only where it does. Branches or
# bodies with side effects cannot be selected per example: that is an error.

def _batched_avals(graph, batched, size):
    return [v.aval.update(shape=(size,) + v.aval.shape) if b else v.aval
            for v, b in zip(graph.inputs, batched)]


def batched_graph(graph, batched, size, name, force=None):
    """``graph`` on inputs batched (at axis 0) where ``batched[i]``, as a closed graph, and
    its outputs' batching: each output batched at 0 where ``force[i]`` (broadcast if it
    is not) or where it depends on a batched input; unbatched otherwise."""
    out_batched = []

    def run(*xs):
        outs, dims = batching.batch_graph(graph, xs, [0 if b else None for b in batched])
        out_batched[:] = [d is not None or bool(force and force[i]) for i, d in enumerate(dims)]
        return [batching.materialize(o, d, size) if b else o
                for o, d, b in zip(outs, dims, out_batched)]

    closed = trace_closed(run, _batched_avals(graph, batched, size), f"{graph.name}_batched")
    return closed, out_batched


def _front(args, dims):
    return [a if d is None else batching.to_front(a, d) for a, d in zip(args, dims)]


def _no_effects_per_example(prim, graphs, what):
    if any(_has_effects(g) for g in graphs):
        raise ValueError(f"vmap: {prim.name}: the condition differs per example and the "
                         f"{what} prints or assigns, which cannot happen for some examples "
                         f"only; move the side effect out of the {what}")


def _select(pred, chosen, other):
    """Per example, ``chosen`` where ``pred`` (a (B,) bool) holds, else ``other`` (both
    batched at axis 0)."""
    mask = batching.pad_rank(pred, chosen.ndim - 1)
    return where(mask, chosen, other)


def _cond_batch(prim, dims, pred, *operands, then_branch, else_branch):
    size = batching.batch_size((pred,) + operands, dims)
    operands = _front(operands, dims[1:])
    batched = [d is not None for d in dims[1:]]
    if dims[0] is None:
        force = [True] * len(then_branch.outputs)
        then_b, _ = batched_graph(then_branch, batched, size, "then", force)
        else_b, _ = batched_graph(else_branch, batched, size, "else", force)
        outs = prim.bind(pred, *operands, then_branch=then_b, else_branch=else_b)
        return outs, tuple(0 for _ in outs)
    _no_effects_per_example(prim, (then_branch, else_branch), "branch")
    in_dims = [0 if b else None for b in batched]
    pred = batching.to_front(pred, dims[0])
    then_outs, then_dims = batching.batch_graph(then_branch, operands, in_dims)
    else_outs, else_dims = batching.batch_graph(else_branch, operands, in_dims)
    outs = tuple(_select(pred, batching.materialize(t, td, size),
                         batching.materialize(e, ed, size))
                 for t, td, e, ed in zip(then_outs, then_dims, else_outs, else_dims))
    return outs, tuple(0 for _ in outs)


def _loop_batching(cond_graph, body_graph, num_consts, batched, size):
    """Which loop state is batched (fixed point: a state the body makes batched is batched
    from the start) and whether the condition is."""
    batched = list(batched)
    while True:
        _, out = batched_graph(body_graph, batched, size, "probe")
        grown = batched[:num_consts] + [a or b for a, b in zip(batched[num_consts:], out)]
        if grown == batched:
            break
        batched = grown
    _, (pred_batched,) = batched_graph(cond_graph, batched, size, "probe")
    return batched, pred_batched


def _masked_loop(cond_graph, body_graph, num_consts, batched, size):
    """Closed graphs of a loop over batched state that runs while any example's condition
    holds and updates only the examples whose condition holds."""
    avals = _batched_avals(body_graph, batched, size)
    in_dims = [0 if b else None for b in batched]

    def any_cond(*xs):
        (pred,), (d,) = batching.batch_graph(cond_graph, xs, in_dims)
        return [reduce_any(pred)]

    def masked_body(*xs):
        (pred,), _ = batching.batch_graph(cond_graph, xs, in_dims)
        outs, dims = batching.batch_graph(body_graph, xs, in_dims)
        old = xs[num_consts:]
        return [_select(pred, batching.materialize(o, d, size), s)
                for o, d, s in zip(outs, dims, old)]

    return (trace_closed(any_cond, avals, f"{cond_graph.name}_batched"),
            trace_closed(masked_body, avals, f"{body_graph.name}_batched"))


def _while_batch(prim, dims, *args, cond_graph, body_graph, num_consts):
    size = batching.batch_size(args, dims)
    batched, pred_batched = _loop_batching(cond_graph, body_graph, num_consts,
                                           [d is not None for d in dims], size)
    if not pred_batched:
        cond_b, _ = batched_graph(cond_graph, batched, size, "cond")
        body_b, _ = batched_graph(body_graph, batched, size, "body", batched[num_consts:])
        args = [batching.materialize(a, d, size) if b else a
                for a, d, b in zip(args, dims, batched)]
        outs = prim.bind(*args, cond_graph=cond_b, body_graph=body_b, num_consts=num_consts)
        return outs, tuple(0 if b else None for b in batched[num_consts:])
    _no_effects_per_example(prim, (cond_graph, body_graph), "loop body")
    batched = batched[:num_consts] + [True] * (len(args) - num_consts)
    cond_b, body_b = _masked_loop(cond_graph, body_graph, num_consts, batched, size)
    args = [batching.materialize(a, d, size) if b else a for a, d, b in zip(args, dims, batched)]
    outs = prim.bind(*args, cond_graph=cond_b, body_graph=body_b, num_consts=num_consts)
    return outs, tuple(0 for _ in outs)


def _while_grad_batch(prim, dims, *args, cond_graph, body_graph, body_vjp, num_consts):
    """The gradient of a batched loop is ``while_grad`` of the batched (masked) loop. Every
    operand is batched, constants included, so each example gets its own gradient."""
    size = batching.batch_size(args, dims)
    n_state = (len(args) - num_consts) // 2
    batched = [True] * (num_consts + n_state)
    cond_b, body_b = _masked_loop(cond_graph, body_graph, num_consts, batched, size)
    args = [batching.materialize(a, d, size) for a, d in zip(args, dims)]
    grad_b = body_vjp_graph(body_b, [a.aval for a in args[:num_consts + n_state]])
    outs = prim.bind(*args, cond_graph=cond_b, body_graph=body_b, body_vjp=grad_b,
                     num_consts=num_consts)
    return outs, tuple(0 for _ in outs)


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
cond_p = Primitive("cond", _cond_impl, _cond_rule, _cond_vjp, emit=_emit_cond,
                   batch=_cond_batch, **_CONTROL)
cond_effect_p = Primitive("cond_effect", _cond_impl, _cond_rule, _cond_vjp, effect=True,
                          emit=_emit_cond, batch=_cond_batch, **_CONTROL)
while_loop_p = Primitive("while_loop", _while_impl, _while_rule, _while_vjp,
                         emit=_emit_while, batch=_while_batch, **_CONTROL)
while_loop_effect_p = Primitive("while_loop_effect", _while_impl, _while_rule, _while_vjp,
                                effect=True, emit=_emit_while, batch=_while_batch, **_CONTROL)
# a loop that runs zero times returns the incoming cotangents themselves
while_grad_p = Primitive("while_grad", _while_grad_impl, _while_grad_rule, _while_grad_vjp,
                         multiple_results=True, shape_generic=False, aliasing=MAY_ALIAS,
                         batch=_while_grad_batch)
