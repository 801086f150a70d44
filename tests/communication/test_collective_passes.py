"""The bucketing and overlap passes, in one process: a stand-in world of two identical
ranks (every rank holds this rank's data, so an all-reduce sum doubles), installed in the
hook ``communication.init()`` fills."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import ops
from tensorjit.ops import process_groups
from tensorjit.ops.process_groups import WORLD, Pending, pack, unpack

from matrix import CAPTURE_MODES


class TwinGroup:
    """Two ranks with equal data."""
    rank, size, name, world_ranks = 0, 2, WORLD, (0, 1)

    def __init__(self):
        self.log = []            # the collectives in the order they were issued

    def all_reduce(self, arrays, op):
        return self.finish(self.start_all_reduce(arrays, op))

    def start_all_reduce(self, arrays, op):
        self.log.append(("start", tuple(np.shape(a) for a in arrays)))
        dtype = np.result_type(*arrays)
        buffer = pack(arrays, dtype)
        buffer = {"sum": buffer * 2, "prod": buffer * buffer}.get(op, buffer)
        return Pending(buffer, tuple(np.shape(a) for a in arrays), group=self)

    def finish(self, pending):
        self.log.append(("wait", pending.shapes))
        return unpack(pending.buffer, pending.shapes)

    def all_gather(self, array):
        return np.concatenate([array, array])

    def barrier(self):
        self.log.append(("barrier",))


@pytest.fixture
def twins():
    group = TwinGroup()
    process_groups.install(WORLD, group)
    # buckets of 73 bytes: two float32[8] gradients (64 bytes) fit, three do not
    ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 7e-5}})
    yield group
    process_groups.uninstall()
    ms.reset_auto_parallel_context()


def grads_then_update(w1, w2, w3, x):
    """A toy train step: three 'gradients' ready one after another, reduced, then used."""
    g3 = (x * 3).sum(0)              # ready first
    g2 = ops.exp(g3) * 2
    g1 = ops.tanh(g2) + w1
    r1, r2, r3 = ops.all_reduce(g1), ops.all_reduce(g2), ops.all_reduce(g3)
    return w1 - r1, w2 - r2 * 0.5, w3 - r3


def _args():
    rng = np.random.default_rng(0)
    return [ms.Tensor(rng.standard_normal(s).astype(np.float32))
            for s in [(8,), (8,), (8,), (4, 8)]]


def _expected(w1, w2, w3, x):
    w1, w2, w3, x = (a.asnumpy() for a in (w1, w2, w3, x))
    g3 = (x * 3).sum(0)
    g2 = np.exp(g3) * 2
    g1 = np.tanh(g2) + w1
    return w1 - 2 * g1, w2 - g2, w3 - 2 * g3


@pytest.mark.parametrize("options", [{}, {"jit_level": "O1"}, {"exec_order": "dfs"},
                                     {"backend": "GE"}], ids=["O0", "O1", "dfs", "GE"])
@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_buckets_start_when_ready_and_wait_when_used(twins, mode, options):
    args = _args()
    jitted = ms.jit(grads_then_update, capture_mode=mode, **options)
    for _ in range(3):
        out = jitted(*args)
    for got, want in zip(out, _expected(*args)):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-5)
    if options.get("backend") == "GE":
        return
    nodes = jitted.lower(*args).graph.nodes
    names = [n.prim.name for n in nodes]
    assert "all_reduce" not in names
    starts = [i for i, n in enumerate(names) if n == "all_reduce_start"]
    waits = [i for i, n in enumerate(names) if n == "all_reduce_wait"]
    # g3 and g2 (ready first) share a bucket, g1 has its own
    assert len(starts) == len(waits) == 2, jitted.lower(*args).as_text()
    # the first bucket starts before the computation of g1 (tanh) and is waited late
    tanh = names.index("tanh") if "tanh" in names else names.index("fused")
    assert starts[0] < tanh < waits[0]


def test_bucket_order_is_the_same_at_o0_and_o1(twins):
    args = _args()
    logs = []
    for level in ("O0", "O1"):
        twins.log.clear()
        ms.jit(grads_then_update, capture_mode="trace", jit_level=level)(*args)   # capture
        twins.log.clear()
        ms.jit(grads_then_update, capture_mode="trace", jit_level=level)(*args)   # graph
        logs.append([e for e in twins.log if e[0] == "start"])
    assert logs[0] == logs[1] and len(logs[0]) == 2


def test_a_start_never_moves_above_another_effect(twins):
    def f(x):
        y = x * 2
        ops.barrier()
        return ops.all_reduce(y), ops.all_reduce(y + 1)

    x = ms.Tensor(np.ones(4, np.float32))
    nodes = [n.prim.name for n in ms.jit(f, capture_mode="trace").lower(x).graph.nodes]
    assert nodes.index("barrier") < nodes.index("all_reduce_start"), nodes
    np.testing.assert_array_equal(ms.jit(f, capture_mode="trace")(x)[1].asnumpy(),
                                  np.full(4, 6.0, np.float32))


def test_an_all_reduce_of_a_reduced_value_is_a_later_bucket(twins):
    def f(x):
        a = ops.all_reduce(x)
        return a, ops.all_reduce(a * 3)

    x = ms.Tensor(np.ones(4, np.float32))
    ms.set_auto_parallel_context(comm_fusion={"allreduce": {"mode": "size", "config": 64}})
    for mode in CAPTURE_MODES:
        a, b = ms.jit(f, capture_mode=mode)(x)
        np.testing.assert_array_equal(b.asnumpy(), np.full(4, 12.0, np.float32))


def test_single_rank_graphs_are_left_alone():
    x = ms.Tensor(np.ones(4, np.float32))
    graph = ms.jit(lambda x: (ops.all_reduce(x), ops.all_reduce(x * 2)),
                   capture_mode="trace").lower(x).graph
    assert [n.prim.name for n in graph.nodes].count("all_reduce") == 2


def test_a_graph_prepared_for_one_process_refuses_a_larger_group():
    x = ms.Tensor(np.ones(4, np.float32))
    jitted = ms.jit(lambda x: ops.all_reduce(x) * 2, capture_mode="trace")
    jitted(x)
    process_groups.install(WORLD, TwinGroup())
    try:
        with pytest.raises(RuntimeError, match=r"prepared for 1 process\(es\) but the group "
                                               r"now has 2.*init\(\) before jitting"):
            jitted(x)
    finally:
        process_groups.uninstall()
