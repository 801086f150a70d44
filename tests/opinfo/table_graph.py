"""Table entries: primitives that run closed sub-graphs (control flow from ast capture,
O1's fused kernels, GE's sunk units) and guards. No public function binds them with
arbitrary graphs, so each entry's op builds the sub-graphs for its inputs' types and binds
the primitive itself; the reference is the NumPy formula of those sub-graphs."""
import functools

import numpy as np

import tensorjit as tj
from tensorjit import dtype as dt
from tensorjit.ops import PRIMITIVES

from .core import op, Sample, FLOATS
from .samples import random, specials


@functools.lru_cache(maxsize=None)
def _graph(fn, avals):
    """``fn`` captured as a closed graph for inputs of ``avals`` ((shape, dtype) pairs)."""
    return tj.make_ir(fn)(*[tj.Tensor(np.zeros(s, d)) for s, d in avals])


def _avals(*tensors):
    return tuple((tuple(t.shape), t.dtype) for t in tensors)


def _then(a, b):
    return tj.ops.sin(a) * b, a + b


def _else(a, b):
    return a * a, tj.ops.exp(b) - a


def _cond_op(name):
    prim = PRIMITIVES[name]

    def run(pred, a, b):
        avals = _avals(a, b)
        return prim.bind(pred, a, b, then_branch=_graph(_then, avals),
                         else_branch=_graph(_else, avals))
    return run


def _cond_ref(pred, a, b):
    return [np.sin(a) * b, a + b] if pred else [a * a, np.exp(b) - a]


def _cond_samples(dtype, rng, full):
    out = []
    for taken in (True, False):
        for shape in ((3,), (2, 3), ()):
            out.append(Sample(np.array(taken), random(rng, shape, dtype),
                              random(rng, shape, dtype), label=f"{taken} {shape}"))
        out.append(Sample(np.array(taken), specials(dtype), specials(dtype)[::-1].copy(),
                          label=f"{taken} edge", smooth=False))
    return out


_GRAPH_NOTE = {"use": "bound by ast capture for tensor-dependent if (cond_effect when a "
                      "branch prints or assigns)"}
for _name in ("cond", "cond_effect"):
    op(f"prim:{_name}", op=_cond_op(_name), prims=(_name,), ref=_cond_ref, dtypes=FLOATS,
       samples=_cond_samples, result=lambda p, a, b: (a, a), torch=None, ms=None, fuzz=False,
       notes=_GRAPH_NOTE, only_declared=False)


# ---- while loops: x <- sin(x) * a + x, i += 1 while i < 3; the gradient binds while_grad

def _loop_cond(a, x, i):
    return (i < 3,)


def _loop_body(a, x, i):
    return tj.ops.sin(x) * a + x, i + 1


def _while_op(name):
    prim = PRIMITIVES[name]

    def run(a, x, i):
        avals = _avals(a, x, i)
        return prim.bind(a, x, i, cond_graph=_graph(_loop_cond, avals),
                         body_graph=_graph(_loop_body, avals), num_consts=1)
    return run


def _while_ref(a, x, i):
    i = int(i)
    while i < 3:
        x, i = np.sin(x) * a + x, i + 1
    return [x, np.asarray(i, np.int64)]


def _while_samples(dtype, rng, full):
    return [Sample(random(rng, (3,), dtype), random(rng, (3,), dtype), np.array(start, np.int64),
                   label=f"from {start}") for start in (0, 2, 5)] + [
        Sample(random(rng, (), dtype), random(rng, (), dtype), np.array(0, np.int64),
               label="0-d"),
        Sample(specials(dtype), specials(dtype)[::-1].copy(), np.array(1, np.int64),
               label="edge", smooth=False)]


for _name in ("while_loop", "while_loop_effect"):
    op(f"prim:{_name}", op=_while_op(_name), prims=(_name, "while_grad"), ref=_while_ref,
       dtypes=FLOATS, samples=_while_samples, result=lambda a, x, i: (x, dt.int64), torch=None,
       ms=None, fuzz=False, only_declared=False,
       notes={"use": "bound by ast capture for tensor-dependent loops; "
                                          "its gradient is while_grad, checked here by "
                                          "finite differences"})


# ---- fused kernels and sunk graphs -----------------------------------------------------

def _body(a, b):
    return (tj.ops.maximum(a * b + a, b) - 0.5, tj.ops.exp(-tj.ops.abs(a)))


def _body_ref(a, b):
    return [np.maximum(a * b + a, b) - 0.5, np.exp(-np.abs(a))]


def _graph_op(name):
    prim = PRIMITIVES[name]

    def run(a, b):
        return prim.bind(a, b, graph=_graph(_body, _avals(a, b)))
    return run


def _pair_samples(dtype, rng, full):
    e = specials(dtype)
    return [Sample(random(rng, (3, 4), dtype), random(rng, (3, 4), dtype), label="random"),
            Sample(random(rng, (), dtype), random(rng, (), dtype), label="0-d"),
            Sample(np.zeros((2, 0), dtype), np.zeros((2, 0), dtype), label="empty"),
            Sample(np.repeat(e, e.size), np.tile(e, e.size), label="edge grid", smooth=False)]


op("prim:fused", op=_graph_op("fused"), prims=("fused",), ref=_body_ref, dtypes=FLOATS,
   samples=_pair_samples, result=lambda a, b: (a, a), torch=None, ms=None, fuzz=False,
   signed_zeros=False, only_declared=False, grad_samples=lambda rng, full: [
       Sample(rng.standard_normal((3, 4)), rng.standard_normal((3, 4)) + 3.0, label="no ties")],
   notes={"use": "O1's fused elementwise groups (a native kernel, or NumPy for float16 / "
                 "bfloat16)"})
op("prim:graph_sink", op=_graph_op("graph_sink"), prims=("graph_sink",), ref=_body_ref,
   dtypes=FLOATS, samples=_pair_samples, result=lambda a, b: (a, a), torch=None, ms=None,
   fuzz=False, signed_zeros=False, only_declared=False, grad_samples=lambda rng, full: [
       Sample(rng.standard_normal((3, 4)), rng.standard_normal((3, 4)) + 3.0, label="no ties")],
   notes={"use": "backend='GE': the whole graph as one unit"})


# ---- guards: trace capture reads a value, the graph checks it on every call ------------

def _branchy(x):
    return x * 2 if float(tj.ops.sum(x)) > 0 else x - 1


_traced_branchy = tj.jit(_branchy, capture_mode="trace")


def _guard_samples(dtype, rng, full):
    return [Sample(random(rng, (3,), dtype, 0.5, 2), label="positive"),
            Sample(random(rng, (3,), dtype, -2, -0.5), label="negative (guard fails)"),
            Sample(random(rng, (3,), dtype, 0.5, 2), label="positive again")]


op("prim:guard", op=_traced_branchy, prims=("guard",), dtypes=FLOATS,
   ref=lambda x: x * 2 if x.sum() > 0 else x - 1, samples=_guard_samples, torch=None,
   ms=None, fuzz=False, only_declared=False,
   notes={"use": "trace capture's check of a value it read; a failing "
                                      "guard recompiles for the other branch"})
