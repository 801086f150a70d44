"""Control flow in ONNX, both ways: ``scan`` as Scan (a Loop of ``length`` steps when it
has no per-step inputs), ``cond`` as If, ``while_loop`` as Loop with no trip count. ONNX
sub-graphs read the values of the graphs around them, tensorjit's are closed (their
constants are operands): writing binds a sub-graph's constant inputs to the outer values,
reading turns the outer values a sub-graph reads into its constant inputs
(``reader.close_graphs``).
"""
import numpy as np

from ... import dtype as dt
from ...aval import ShapedArray
from ...ir.graph import Var
from . import reads, writes
from .reader import aval, close_graphs

_INT64_MIN = np.iinfo(np.int64).min


# ---- writing ---------------------------------------------------------------------------

@writes("scan")
def _scan(w, node, ins, outs):
    """ONNX Scan (its body reads the constants from the graph around it); a scan with no
    per-step inputs has no trip count for Scan: a Loop of ``length`` steps."""
    p = node.params
    body, consts = p["body"], ins[:p["num_consts"]]
    carry, xs = ins[p["num_consts"]:p["num_consts"] + p["num_carry"]], \
        ins[p["num_consts"] + p["num_carry"]:]
    steps = body.inputs[len(consts):]
    direction = int(p["reverse"])
    if xs:
        with w.scope():
            formals = [w.formal(v.aval, "scan_in") for v in steps]
            results = w.write_graph(body, consts + [n for n, _ in formals])
            graph = w.make_graph("scan_body", [i for _, i in formals], results,
                                 [v.aval for v in body.outputs])
        n_ys = len(body.outputs) - p["num_carry"]
        w.op("Scan", carry + xs, outs, body=graph, num_scan_inputs=len(xs),
             scan_input_directions=[direction] * len(xs),
             scan_output_directions=[direction] * n_ys)
        return
    scalar = _scalar_avals()
    with w.scope():
        (_, i_info), (cond, cond_info) = w.formal(scalar[0], "i"), w.formal(scalar[1], "cond")
        formals = [w.formal(v.aval, "carry") for v in steps]
        results = w.write_graph(body, consts + [n for n, _ in formals])
        graph = w.make_graph("scan_body", [i_info, cond_info] + [f for _, f in formals],
                             [cond] + results, [scalar[1]] + [v.aval for v in body.outputs])
    ys = outs[p["num_carry"]:]
    stacked = [w.unique("stacked") for _ in ys] if direction else ys
    trip = w.constant(np.asarray(p["length"], np.int64))
    w.op("Loop", [trip, ""] + carry, outs[:p["num_carry"]] + stacked, body=graph)
    for s, y in zip(stacked if direction else [], ys):       # reversed steps: flip back
        w.op("Slice", [s, w.ints([-1]), w.ints([_INT64_MIN]), w.ints([0]), w.ints([-1])], y)


def _scalar_avals():
    """A Loop body's step number and condition."""
    return ShapedArray((), dt.int64), ShapedArray((), dt.bool_)


@writes("cond")
def _cond(w, node, ins, outs):
    """ONNX If; its branches read the operands from the graph around them."""
    branches = {}
    for key in ("then_branch", "else_branch"):
        graph = node.params[key]
        with w.scope():
            results = w.write_graph(graph, ins[1:])
            branches[key] = w.make_graph(key, [], results, [v.aval for v in graph.outputs])
    w.op("If", ins[:1], outs, **branches)


@writes("while_loop")
def _while(w, node, ins, outs):
    """ONNX Loop with no trip count: the condition on the initial state decides the first
    step, the body computes the next state and the condition on it."""
    p = node.params
    consts, state = ins[:p["num_consts"]], ins[p["num_consts"]:]
    cond_graph, body = p["cond_graph"], p["body_graph"]
    first = w.write_graph(cond_graph, consts + state)[0]
    scalar = _scalar_avals()
    with w.scope():
        (_, i_info), (_, c_info) = w.formal(scalar[0], "i"), w.formal(scalar[1], "cond")
        formals = [w.formal(v.aval, "state") for v in body.inputs[len(consts):]]
        new = w.write_graph(body, consts + [n for n, _ in formals])
        again = w.write_graph(cond_graph, consts + new)[0]
        graph = w.make_graph("while_body", [i_info, c_info] + [f for _, f in formals],
                             [again] + new, [scalar[1]] + [v.aval for v in body.outputs])
    w.op("Loop", ["", first] + state, outs, body=graph)


# ---- reading ---------------------------------------------------------------------------

def _formals(scope, infos, avals):
    """Inputs of a sub-graph named as the ONNX body names them, typed ``avals``."""
    variables = []
    for info, a in zip(infos, avals):
        var = Var(a, hint=info.name)
        scope.values[info.name] = var
        variables.append(var)
    return variables


def _scalar(c, value):
    """A loop condition or If predicate as a 0-d bool (ONNX allows shape [1])."""
    if aval(value).shape != ():
        value = c.bind("reshape", value, shape=())
    return value


def _flip(c, value):
    return c.bind("getitem", value, spec=(("s", None, None, -1),))


@reads("Scan")
def read_scan(c):
    """ONNX Scan -> scan: the body's outer values become its constants; a scan with all
    directions reversed is a reverse scan, others flip their reversed operands."""
    body, m = c.attrs["body"], c.attr("num_scan_inputs")
    values = c.inputs()
    n = len(values) - m
    k = len(body.output) - n
    init, xs = values[:n], values[n:]
    in_axes, out_axes = c.attr("scan_input_axes", [0] * m), c.attr("scan_output_axes", [0] * k)
    in_dirs = c.attr("scan_input_directions", [0] * m)
    out_dirs = c.attr("scan_output_directions", [0] * k)
    for i, a in enumerate(in_axes):
        a = int(a) % len(aval(xs[i]).shape)
        if a:
            rest = [d for d in range(len(aval(xs[i]).shape)) if d != a]
            xs[i] = c.bind("transpose", xs[i], perm=tuple([a] + rest))
    reverse = all(d == 1 for d in list(in_dirs) + list(out_dirs))
    if not reverse:
        xs = [_flip(c, x) if d else x for x, d in zip(xs, in_dirs)]
    scope = c.sub_scope("scan_body")
    steps = [aval(v) for v in init] + [aval(x).update(shape=aval(x).shape[1:]) for x in xs]
    formals = _formals(scope, body.input, steps)
    scope.read_nodes(body.node)
    scope.graph.inputs = formals
    outer = close_graphs([scope], [[scope.get(o.name) for o in body.output]])
    outs = c.bind("scan", *outer, *init, *xs, body=scope.graph, num_consts=len(outer),
                  num_carry=n, length=aval(xs[0]).shape[0], reverse=reverse)
    results = list(outs[:n])
    for y, a, d in zip(outs[n:], out_axes, out_dirs):
        y = _flip(c, y) if d and not reverse else y
        rank = len(aval(y).shape)
        a = int(a) % rank
        if a:
            y = c.bind("transpose", y, perm=tuple(list(range(1, a + 1)) + [0]
                                                  + list(range(a + 1, rank))))
        results.append(y)
    return results


@reads("Loop")
def read_loop(c):
    """ONNX Loop -> a scan over the step numbers when the trip count is known and the
    condition stays true (exporters' for loops, tensorjit's scans without inputs), else
    a while_loop carrying the step number and the condition."""
    body = c.attrs["body"]
    trip, cond, carried = c.x(0), c.x(1), c.inputs()[2:]
    n = len(carried)
    step_aval, cond_aval = _scalar_avals()
    if isinstance(trip, np.ndarray) and (cond is None or (isinstance(cond, np.ndarray)
                                                          and bool(np.all(cond)))):
        scope = c.sub_scope("loop_body")
        step = _formals(scope, body.input[:1], [step_aval])
        scope.values[body.input[1].name] = np.asarray(True)
        formals = _formals(scope, body.input[2:], [aval(v) for v in carried])
        scope.read_nodes(body.node)
        results = [scope.get(o.name) for o in body.output]
        if isinstance(results[0], np.ndarray) and bool(np.all(results[0])):
            scope.graph.inputs = formals + step
            outer = close_graphs([scope], [results[1:]])
            length = int(np.ravel(trip)[0])
            return list(c.bind("scan", *outer, *carried, np.arange(length, dtype=np.int64),
                               body=scope.graph, num_consts=len(outer), num_carry=n,
                               length=length, reverse=False))
    if len(body.output) > 1 + n:
        c.fail("a Loop whose condition depends on the data cannot stack per-step outputs")
    test, step_body = c.sub_scope("loop_cond"), c.sub_scope("loop_body")
    avals = [step_aval, cond_aval] + [aval(v) for v in carried]
    test.graph.inputs = [Var(a) for a in avals]
    pred = test.graph.inputs[1]
    if trip is not None:
        limit = test.get(c.proto.input[0])
        pred = test.bind("logical_and", pred, test.bind("lt", test.graph.inputs[0],
                                                         _scalar(test, limit)))
    step_body.graph.inputs = _formals(step_body, body.input, avals)
    step_body.read_nodes(body.node)
    results = [step_body.get(o.name) for o in body.output]
    following = [step_body.bind("add", step_body.graph.inputs[0], np.asarray(1, np.int64)),
                 _scalar(step_body, results[0])] + results[1:]
    outer = close_graphs([test, step_body], [[pred], following])
    start = [np.asarray(0, np.int64), np.asarray(True) if cond is None else _scalar(c, cond)]
    outs = c.bind("while_loop", *outer, *start, *carried, cond_graph=test.graph,
                  body_graph=step_body.graph, num_consts=len(outer))
    return list(outs[2:])


@reads("If")
def read_if(c):
    """ONNX If -> cond (a predicate known while reading picks its branch now)."""
    pred = c.x(0)
    branches = [c.attrs["then_branch"], c.attrs["else_branch"]]
    if isinstance(pred, np.ndarray):
        chosen = branches[0] if bool(np.all(pred)) else branches[1]
        c.scope.read_nodes(chosen.node)
        return [c.scope.get(o.name) for o in chosen.output]
    scopes, results = [], []
    for name, branch in zip(("then_branch", "else_branch"), branches):
        scope = c.sub_scope(name)
        scope.read_nodes(branch.node)
        scopes.append(scope)
        results.append([scope.get(o.name) for o in branch.output])
    outer = close_graphs(scopes, results)
    return list(c.bind("cond", _scalar(c, pred), *outer, then_branch=scopes[0].graph,
                       else_branch=scopes[1].graph))
