"""Table entries: loops taking Python functions (scan, while_loop, fori_loop) and the scan
primitive they become inside a graph. Each entry's op runs one fixed step function, either
eagerly (a Python loop) or in a compiled function (``run=`` names the capture mode and
level: one graph loop node), and the reference is the same loop written in NumPy; the
gradients (the scan primitive's VJP, while_grad) are checked by finite differences in
every mode."""
import numpy as np

import tensorjit as tj
from tensorjit import dtype as dt
from tensorjit.ops import PRIMITIVES

from .core import op, Sample, FLOATS
from .samples import random, specials
from .table_graph import _graph, _avals

RUNS = ("eager", "trace/O0", "ast/O1", "bytecode/O0")


def _runner(fn):
    """``fn(*args)`` eagerly or compiled in the mode / level ``run`` names."""
    compiled = {r: tj.jit(fn, capture_mode=r.split("/")[0], jit_level=r.split("/")[1])
                for r in RUNS if r != "eager"}

    def run(*args, run="eager", **kwargs):
        return (fn if run == "eager" else compiled[run])(*args, **kwargs)
    return run


def _per_run(make):
    """The samples ``make(dtype, rng, full)`` gives, once per eager / compiled run."""
    def samples(dtype, rng, full):
        out = []
        for r in RUNS:
            for s in make(dtype, rng, full):
                out.append(Sample(*s.args, label=f"{s.label} {r}", smooth=s.smooth, run=r,
                                  raises=s.raises, **s.kwargs))
        return out
    return samples


def _grad_per_run(make):
    def samples(rng, full):
        return [s for s in _per_run(lambda d, g, f: make(g, f))(dt.float64, rng, full)]
    return samples


# ---- scan: carry <- carry * a + x, y = sin(carry) ---------------------------------------------

def _scan_step(carry, x):
    h, a = carry
    h = h * a + x
    return (h, a), tj.ops.sin(h)


def _scan_user(h0, a, xs, reverse=False):
    (h, _), ys = tj.ops.scan(_scan_step, (h0, a), xs, reverse=reverse)
    return h, ys


def _scan_ref(h0, a, xs, reverse=False, run=None):
    h, ys = h0, np.zeros(xs.shape)
    for t in (range(len(xs) - 1, -1, -1) if reverse else range(len(xs))):
        h = h * a + xs[t]
        ys[t] = np.sin(h)
    return h, ys


def _scan_cases(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -1, 1)
    return [Sample(r(3), r(3), r(5, 3), label="5 steps"),
            Sample(r(3), r(3), r(4, 3), True, label="reverse"),
            Sample(r(), r(), r(6), label="0-d state"),
            Sample(r(2, 0), r(2, 0), r(3, 2, 0), label="empty state"),
            Sample(specials(dtype)[:4].copy(), np.full(4, 0.5, dtype), np.stack(
                [specials(dtype)[4:8], specials(dtype)[8:12]]), label="edge", smooth=False)]


_LOOP_NOTE = {"graphs": "inside a compiled function the loop is one graph node (the step "
                        "traced once), whatever the number of steps; eagerly a Python loop"}
op("scan", op=_runner(_scan_user), prims=(), ref=_scan_ref, dtypes=FLOATS,
   samples=_per_run(_scan_cases), grad_samples=_grad_per_run(lambda rng, full: [
       Sample(rng.standard_normal(3), rng.uniform(-1, 1, 3), rng.standard_normal((5, 3)),
              label="5 steps"),
       Sample(rng.standard_normal(2), rng.uniform(-1, 1, 2), rng.standard_normal((4, 2)), True,
              label="reverse")]),
   result=lambda h, a, xs: (h, h), torch=None, ms=None, fuzz=False, only_declared=False,
   notes=_LOOP_NOTE | {"steps": "the leading axis of xs; zero steps eagerly raise (there are "
                                "no per-step values to stack)"})


def _scan_prim(h0, a, xs, reverse=False):
    """The scan primitive bound on a hand-built body: consts (a), carry (h), xs."""
    body = _graph(lambda a_, h, x: (h * a_ + x, tj.ops.sin(h * a_ + x)),
                  _avals(a, h0) + ((tuple(xs.shape[1:]), xs.dtype),))
    return PRIMITIVES["scan"].bind(a, h0, xs, body=body, num_consts=1, num_carry=1,
                                   length=xs.shape[0], reverse=reverse)


op("prim:scan", op=_scan_prim, prims=("scan",), ref=_scan_ref, dtypes=FLOATS,
   samples=_scan_cases, result=lambda h, a, xs: (h, h), torch=None, ms=None, fuzz=False,
   only_declared=False, grad_samples=lambda rng, full: [
       Sample(rng.standard_normal(3), rng.uniform(-1, 1, 3), rng.standard_normal((5, 3))),
       Sample(rng.standard_normal(2), rng.uniform(-1, 1, 2), rng.standard_normal((4, 2)), True,
              label="reverse")],
   notes={"use": "ops.scan and the RNN layers inside a graph; its VJP is a forward scan "
                 "that stacks the carries and a scan over the body's VJP the other way"})


# ---- while_loop / fori_loop: x <- sin(x) * a + x while i < n --------------------------------

def _while_user(x, a, n):
    i = tj.ops.zeros((), dt.int64)
    x, _, _ = tj.ops.while_loop(lambda s: s[1] < n, lambda s: (
        tj.ops.sin(s[0]) * s[2] + s[0], s[1] + 1, s[2]), (x, i, a))
    return x


def _loop_ref(x, a, n, run=None):
    for _ in range(int(n)):
        x = np.sin(x) * a + x
    return x


def _while_cases(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -1, 1)
    return [Sample(r(3), r(3), np.array(3, np.int64), label="3 steps"),
            Sample(r(2, 2), r(2, 2), np.array(0, np.int64), label="no step"),
            Sample(r(), r(), np.array(5, np.int64), label="0-d"),
            Sample(specials(dtype), specials(dtype)[::-1].copy(), np.array(1, np.int64),
                   label="edge", smooth=False)]


op("while_loop", op=_runner(_while_user), prims=(), ref=_loop_ref, dtypes=FLOATS,
   samples=_per_run(_while_cases), result=lambda x, a, n: x, torch=None, ms=None, fuzz=False,
   only_declared=False, nondiff=(2,), grad_samples=_grad_per_run(lambda rng, full: [
       Sample(rng.standard_normal(3), rng.uniform(-1, 1, 3), np.array(3, np.int64),
              label="3 steps")]),
   notes=_LOOP_NOTE | {"trip count": "a tensor condition: the loop runs as many steps as "
                                     "the data says (prim:while_loop holds the primitive)"})


def _fori_user(x, a, n):
    return tj.ops.fori_loop(0, n, lambda i, v: tj.ops.sin(v) * a + v, x)


op("fori_loop", op=_runner(_fori_user), prims=(), ref=_loop_ref, dtypes=FLOATS,
   samples=_per_run(_while_cases), result=lambda x, a, n: x, torch=None, ms=None, fuzz=False,
   only_declared=False, nondiff=(2,), grad_samples=_grad_per_run(lambda rng, full: [
       Sample(rng.standard_normal(3), rng.uniform(-1, 1, 3), np.array(3, np.int64),
              label="3 steps")]),
   notes=_LOOP_NOTE | {"bounds": "Python ints run a Python loop eagerly; a tensor bound "
                                 "makes a while_loop"})
