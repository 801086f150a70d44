"""The compile cache stays bounded and does not keep dropped functions or Cells alive."""
import gc
import weakref

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, nn
from tensorjit.jit.cache import CACHE


class Scale(nn.Cell):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def construct(self, x):
        return x * self.k


@pytest.fixture
def small_cache(monkeypatch):
    monkeypatch.setattr(CACHE, "max_entries", 64)
    CACHE.clear()
    yield CACHE
    CACHE.clear()


def test_ten_thousand_changing_closures_keep_the_cache_bounded(small_cache):
    x = Tensor(np.ones(2, np.float32))
    for k in range(10_000):
        out = ms.jit(lambda v, k=k: v * k, capture_mode="trace")(x)
        if k % 997 == 0:
            np.testing.assert_allclose(out.asnumpy(), [k, k])
        assert small_cache.size <= 64
    assert len(small_cache.buckets) <= 64


@pytest.mark.parametrize("mode", ["trace", "bytecode", "ast"])
def test_dropped_cells_and_their_entries_are_released(small_cache, mode):
    x = Tensor(np.ones(2, np.float32))
    refs = []
    for k in range(200 if mode != "trace" else 2_000):
        cell = Scale(float(k % 7))
        out = ms.jit(cell, capture_mode=mode)(x)
        assert out.asnumpy()[0] == k % 7
        if k % 50 == 0:
            refs.append(weakref.ref(cell))
        del cell, out
    gc.collect()
    assert all(r() is None for r in refs)
    assert small_cache.size == 0          # their entries went with them


@pytest.mark.parametrize("mode", ["trace", "bytecode", "ast"])
def test_dropped_jitted_functions_release_their_closures(small_cache, mode):
    x = Tensor(np.ones(2, np.float32))
    net = Scale(3.0)
    jitted = ms.jit(lambda v: net(v) + 1, capture_mode=mode)
    np.testing.assert_allclose(jitted(x).asnumpy(), [4.0, 4.0])
    ref = weakref.ref(net)
    del net, jitted
    gc.collect()
    assert ref() is None


@pytest.mark.parametrize("mode", ["trace", "bytecode", "ast"])
def test_two_thousand_shapes_keep_memory_bounded(small_cache, mode):
    # issue 17: a function whose graph depends on the shape compiles an entry per shape;
    # the cache keeps the most recent 64 (here), and memory stops growing (1,600 shapes
    # replacing older entries, 25 times the cache: a leak of 1 KB per entry would show)
    import tracemalloc

    def f(x):
        return x * float(x.shape[0]) + 1.0

    jitted = ms.jit(f, capture_mode=mode)
    tracemalloc.start()
    try:
        sizes = {}
        for n in range(1, 2001):
            out = jitted(Tensor(np.ones(n, np.float32)))
            assert out.shape == (n,) and out.asnumpy()[-1] == n + 1.0
            if n in (400, 2000):
                gc.collect()
                sizes[n] = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert small_cache.size <= 64
    [bucket] = small_cache.buckets.values()
    assert len(bucket.by_shapes) == len(bucket) == 64
    # 1,600 more shapes, each replacing an older entry: no growth beyond noise
    assert sizes[2000] - sizes[400] < 1_000_000, sizes


def test_entries_are_found_by_shape_among_thousands():
    from tensorjit.jit.cache import CompileCache

    class FakeEntry:
        def __init__(self, shapes):
            self.shapes = shapes

    cache = CompileCache(max_entries=10_000)
    entries = [FakeEntry(((n,),)) for n in range(5000)]
    generic = FakeEntry(None)
    for entry in entries + [generic]:
        cache.add("key", entry)
    # a dict lookup by shapes, not a scan: the exact entry, then the shape-generic one
    assert cache.candidates("key", ((4321,),)) == [entries[4321], generic]
    assert cache.candidates("key", ((9999,),)) == [generic]
    cache.max_entries = 100
    cache.add("key", FakeEntry(((1,),)))
    assert cache.size == 100 and cache.candidates("key", ((0,),)) == [generic]
