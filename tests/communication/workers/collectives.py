"""Run under MPI by tests/communication/test_mpi.py: every collective, eagerly and under
ast / bytecode / trace x O0 / O1, forward and backward, against NumPy formulas.

Each rank's inputs come from a seed of its rank, so every rank computes every other
rank's inputs itself and the expected values need no communication. The loss of rank r
is sum(w_r * collective(x_r)); its gradient is that of the sum of all ranks' losses.
Prints "rank R: N checks passed" or raises.
"""
import sys

import numpy as np

import tensorjit as ms
from tensorjit import ops, communication

communication.init()
RANK, SIZE = communication.get_rank(), communication.get_group_size()
CONFIGS = [None] + [(m, level) for m in ("ast", "bytecode", "trace") for level in ("O0", "O1")]
checks = 0


def x_of(r):
    return np.random.default_rng(100 + r).standard_normal((2 * SIZE, 3))


def w_of(r, shape):
    return np.random.default_rng(200 + r).standard_normal(shape)


def block(a, r):
    rows = a.shape[0] // SIZE
    return a[r * rows:(r + 1) * rows]


XS = [x_of(r) for r in range(SIZE)]
X = XS[RANK]
ROOT = SIZE - 1

def all_reduce_sum(x):
    return ops.all_reduce(x)


def all_reduce_max(x):
    return ops.all_reduce(x, ops.ReduceOp.MAX)


def all_reduce_min(x):
    return ops.AllReduce(ops.ReduceOp.MIN)(x)


def all_reduce_prod(x):
    return ops.all_reduce(x, "prod")


def all_gather(x):
    return ops.AllGather()(x)


def reduce_scatter(x):
    return ops.ReduceScatter()(x)


def broadcast(x):
    return ops.Broadcast(ROOT)((x,))[0]


def reduce(x):
    return ops.reduce(x, 0)


def sub_group(x):
    return ops.all_reduce(x * 2, group="everyone")


# name: (function of x, expected output on this rank)
FORWARD = {
    "all_reduce_sum": (all_reduce_sum, sum(XS)),
    "all_reduce_max": (all_reduce_max, np.max(XS, axis=0)),
    "all_reduce_min": (all_reduce_min, np.min(XS, axis=0)),
    "all_reduce_prod": (all_reduce_prod, np.prod(XS, axis=0)),
    "all_gather": (all_gather, np.concatenate(XS)),
    "reduce_scatter": (reduce_scatter, block(sum(XS), RANK)),
    "broadcast": (broadcast, XS[ROOT]),
    "reduce": (reduce, sum(XS) if RANK == 0 else np.zeros_like(X)),
    "sub_group": (sub_group, 2 * sum(XS)),
}

# the gradient, on this rank, of sum over ranks r of sum(w_r * f(x_r))
OUT_SHAPE = {"all_gather": (2 * SIZE * SIZE, 3), "reduce_scatter": (2, 3)}
WS = {name: [w_of(r, OUT_SHAPE.get(name, X.shape)) for r in range(SIZE)] for name in FORWARD}
GRADIENT = {
    "all_reduce_sum": sum(WS["all_reduce_sum"]),
    "all_reduce_max": sum(WS["all_reduce_max"]) * (X == np.max(XS, axis=0)),
    "all_reduce_min": sum(WS["all_reduce_min"]) * (X == np.min(XS, axis=0)),
    "all_reduce_prod": sum(WS["all_reduce_prod"]) * np.prod(XS, axis=0) / X,
    "all_gather": block(sum(WS["all_gather"]), RANK),
    "reduce_scatter": np.concatenate(WS["reduce_scatter"]),
    "broadcast": sum(WS["broadcast"]) if RANK == ROOT else np.zeros_like(X),
    "reduce": WS["reduce"][0],
    "sub_group": 2 * sum(WS["sub_group"]),
}


def check(what, got, expected):
    global checks
    got = got.asnumpy() if hasattr(got, "asnumpy") else np.asarray(got)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12,
                               err_msg=f"rank {RANK}: {what}")
    checks += 1


def run(fn, config, *args):
    if config is None:
        return fn(*args)
    jitted = ms.jit(fn, capture_mode=config[0], jit_level=config[1])
    out = None
    for _ in range(3):          # capture, then the compiled graph, then the fast path
        out = jitted(*args)
    return out


communication.create_group("everyone", list(range(SIZE)))
x = ms.Tensor(X)
for name, (fn, expected) in FORWARD.items():
    w = ms.Tensor(WS[name][RANK])

    def loss(x, fn=fn, w=w):
        return (fn(x) * w).sum()

    for config in CONFIGS:
        check(f"{name} forward {config}", run(fn, config, x), expected)
        check(f"{name} backward {config}", run(ms.grad(loss), config, x), GRADIENT[name])

# many all-reduces in one graph: bucketed, non-blocking (tiny buckets: several of them)
ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 1e-4}})


def many(a, b, c):
    return ops.all_reduce(a), ops.all_reduce(b * 2), ops.all_reduce(ops.all_reduce(c) + 1)


A, B, C = ms.Tensor(X), ms.Tensor(X[:1] * 3), ms.Tensor(X.T.copy())
expected = (sum(XS), 2 * sum(x[:1] * 3 for x in XS), sum(x.T for x in XS) * SIZE + SIZE)
for config in CONFIGS[1:]:
    for got, want in zip(run(many, config, A, B, C), expected):
        check(f"bucketed {config}", got, want)
    names = [n.prim.name for n in ms.jit(many, capture_mode=config[0],
                                         jit_level=config[1]).lower(A, B, C).graph.nodes]
    assert "all_reduce_start" in names and "all_reduce_wait" in names, names
    assert "all_reduce" not in names, names

ops.barrier()
communication.destroy_group("everyone")
print(f"rank {RANK}: {checks} checks passed", flush=True)
sys.exit(0)
