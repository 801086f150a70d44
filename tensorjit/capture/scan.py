"""``scan``: a graph loop over the leading axis of its ``xs`` with a carried state, the
per-step outputs stacked (what ``ops.scan`` and the RNN layers become inside a graph).

    scan[body, num_consts, num_carry, length, reverse] *consts *init *xs -> *carry *ys
        body(*consts, *carry, *x_t) -> (*new_carry, *y_t), a closed graph; step t reads
        ``xs[i][t]`` and writes ``ys[j][t]``; ``reverse`` runs t = length-1 .. 0.

The trip count is the loop's, not the graph's: the body is one sub-graph whatever the
length. Its VJP is made of scans too: one forward scan that also stacks the carry entering
each step, then a scan in the other direction over the body's VJP graph, carrying the
cotangent of the state and accumulating the constants' gradients. So the backward pass of a
scan is graph code, and it can be differentiated again.
"""
import numpy as np

from ..ops.primitive import Primitive, MAY_ALIAS
from ..ops.elementwise import zeros_like, add
from ..autodiff import vjp, bind_graph
from ..ops import batching
from .control_flow import run_graph, batched_graph
from .subgraph import trace_closed


def _split(seq, *sizes):
    out, start = [], 0
    for size in sizes:
        out.append(tuple(seq[start:start + size]))
        start += size
    out.append(tuple(seq[start:]))
    return out


def _scan_impl(*args, body, num_consts, num_carry, length, reverse):
    consts, carry, xs = _split(args, num_consts, num_carry)
    ys = [np.empty((length,) + v.aval.shape, v.aval.dtype) for v in body.outputs[num_carry:]]
    for t in (range(length - 1, -1, -1) if reverse else range(length)):
        outs = run_graph(body, consts + carry + tuple(x[t] for x in xs))
        carry = tuple(outs[:num_carry])
        for buffer, y in zip(ys, outs[num_carry:]):
            buffer[t] = y
    return tuple(np.asarray(c, v.aval.dtype) for c, v in zip(carry, body.outputs)) + tuple(ys)


def _scan_rule(*avals, body, num_consts, num_carry, length, reverse):
    consts, carry, xs = _split(avals, num_consts, num_carry)
    for x in xs:
        if x.ndim == 0 or x.shape[0] != length:
            raise TypeError(f"scan: every xs must have {length} steps on axis 0, got {x}")
    expected = list(consts) + list(carry) + [x.update(shape=x.shape[1:]) for x in xs]
    if [v.aval for v in body.inputs] != expected:
        raise TypeError(f"scan: operands {expected} do not match the body's inputs "
                        f"{[v.aval for v in body.inputs]}")
    outs = [v.aval for v in body.outputs]
    if outs[:num_carry] != list(carry):
        raise TypeError(f"scan: the body returns the state {outs[:num_carry]}, but the "
                        f"state is {list(carry)}")
    return list(carry) + [y.update(shape=(length,) + y.shape) for y in outs[num_carry:]]


def _is_float(aval):
    return np.dtype(aval.dtype).kind == "f"


def _scan_vjp(cts, outs, *args, body, num_consts, num_carry, length, reverse):
    consts, init, xs = _split(args, num_consts, num_carry)
    ct_carry, ct_ys = _split(cts, num_carry)[:2]
    in_avals = [v.aval for v in body.inputs]
    n_x = len(xs)

    # 1. the carry entering every step, stacked (the forward loop run again)
    def with_carry(*a):
        return tuple(bind_graph(body, a)) + tuple(a[num_consts:num_consts + num_carry])

    recording = trace_closed(with_carry, in_avals, f"{body.name}_carries")
    carries = scan_p.bind(*args, body=recording, num_consts=num_consts, num_carry=num_carry,
                          length=length, reverse=reverse)[len(outs):]

    # 2. the body's VJP, stepped the other way: carry (state cotangent, const gradients)
    def step_back(*a):
        c, ct_c, acc, carry_t, x_t, ct_y = _split(
            a, num_consts, num_carry, num_consts, num_carry, n_x)
        _, pullback = vjp(lambda *ys: bind_graph(body, ys), *c, *carry_t, *x_t)
        grads = pullback(*ct_c, *ct_y)
        g_consts, g_carry, g_x = _split(grads, num_consts, num_carry)
        acc = tuple(add(a_, g) if _is_float(a_.aval) else a_ for a_, g in zip(acc, g_consts))
        g_carry = tuple(g if _is_float(v.aval) else zeros_like(v) for g, v in zip(g_carry, carry_t))
        g_x = tuple(g if _is_float(v.aval) else zeros_like(v) for g, v in zip(g_x, x_t))
        return g_carry + acc + g_x

    step_avals = (in_avals[:num_consts] + [c.aval for c in ct_carry] + in_avals[:num_consts]
                  + in_avals[num_consts:num_consts + num_carry]
                  + in_avals[num_consts + num_carry:] + [y.aval.update(shape=y.aval.shape[1:])
                                                         for y in ct_ys])
    backward = trace_closed(step_back, step_avals, f"{body.name}_vjp")
    zeros = tuple(zeros_like(c) for c in consts)
    grads = scan_p.bind(*consts, *ct_carry, *zeros, *carries, *xs, *ct_ys, body=backward,
                        num_consts=num_consts, num_carry=num_carry + num_consts,
                        length=length, reverse=not reverse)
    g_init, g_consts, g_xs = _split(grads, num_carry, num_consts)
    result = g_consts + g_init + g_xs
    return tuple(g if _is_float(a.aval) else None for g, a in zip(result, args))


def _scan_batch(prim, dims, *args, body, num_consts, num_carry, length, reverse):
    """vmap of a scan: one scan over batched values. Constants and the state are batched
    at axis 0 (the state wherever the body makes it batched: a fixed point), each ``xs``
    at axis 1 (axis 0 is the steps), so every step's slice is batched at 0; the stacked
    per-step outputs come out batched at axis 1."""
    size = batching.batch_size(args, dims)
    consts_b = [d is not None for d in dims[:num_consts]]
    carry_b = [d is not None for d in dims[num_consts:num_consts + num_carry]]
    xs_b = [d is not None for d in dims[num_consts + num_carry:]]
    while True:
        _, out_b = batched_graph(body, consts_b + carry_b + xs_b, size, "probe")
        grown = [a or b for a, b in zip(carry_b, out_b[:num_carry])]
        if grown == carry_b:
            break
        carry_b = grown
    batched_body, out_b = batched_graph(body, consts_b + carry_b + xs_b, size, "scan",
                                        carry_b + [False] * (len(body.outputs) - num_carry))
    consts = [batching.to_front(a, d) if d is not None else a
              for a, d in zip(args[:num_consts], dims[:num_consts])]
    carry = [batching.materialize(a, d, size) if b else a for a, d, b in zip(
        args[num_consts:num_consts + num_carry], dims[num_consts:num_consts + num_carry],
        carry_b)]
    xs = [batching.moveaxis(a, d, 1) if d is not None else a
          for a, d in zip(args[num_consts + num_carry:], dims[num_consts + num_carry:])]
    outs = prim.bind(*consts, *carry, *xs, body=batched_body, num_consts=num_consts,
                     num_carry=num_carry, length=length, reverse=reverse)
    out_dims = tuple(0 if b else None for b in carry_b) + tuple(
        1 if b else None for b in out_b[num_carry:])
    return outs, out_dims


# a loop of zero steps returns its initial state: results may be operands
scan_p = Primitive("scan", _scan_impl, _scan_rule, _scan_vjp, multiple_results=True,
                   shape_generic=False, aliasing=MAY_ALIAS, batch=_scan_batch)
