"""Many threads making first calls of one jitted function at once, with a mix of shapes,
dtypes and tensor-dependent paths, in each capture mode: one compile per key (no
duplicate work), every result equal to eager, and no deadlock (joins have timeouts)."""
import threading

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit.jit.function import STATS

THREADS = 16
JOIN_TIMEOUT = 120


def body(x):
    y = x - x.mean(-1, True)          # a reduction: graphs are per shape
    if y.sum() + x.sum() > 0:                  # a tensor-dependent path
        y = ops.relu(y) * 2.0
    else:
        y = y - 1.0
    return y.sum(0), ops.exp(-ops.abs(y))


def with_python_break(x):
    y = x * 2.0
    n = float(y.max())                          # a Python value: graph break / fallback
    if n > 0:
        y = y + n
    return y * 0.5


def inputs():
    """16 (array, kind) pairs: 2 dtypes x 2 shapes x 2 signs, twice each."""
    cases = []
    for i in range(THREADS):
        dtype = (np.float32, np.float64)[i % 2]
        shape = ((3, 4), (5, 2))[(i // 2) % 2]
        sign = (1.0, -1.0)[(i // 4) % 2]
        data = sign * (np.abs(np.random.default_rng(i).standard_normal(shape)) + 0.5)
        cases.append((data.astype(dtype), (np.dtype(dtype), shape, sign)))
    return cases


def hammer(fn, mode, cases):
    jitted = ms.jit(fn, capture_mode=mode)
    barrier = threading.Barrier(len(cases))
    results, errors = [None] * len(cases), []

    def worker(i):
        try:
            barrier.wait(timeout=JOIN_TIMEOUT)
            for _ in range(3):                        # first calls, then cache / fast path
                results[i] = jitted(Tensor(cases[i][0]))
        except BaseException as exc:                  # reported below
            errors.append((i, exc))

    before = STATS["compiles"]
    threads = [threading.Thread(target=worker, args=(i,), daemon=True)
               for i in range(len(cases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=JOIN_TIMEOUT)
    assert not any(t.is_alive() for t in threads), "deadlock: threads still running"
    assert not errors, errors
    return results, STATS["compiles"] - before, jitted


def assert_results(fn, cases, results):
    for (data, _), out in zip(cases, results):
        expected = fn(Tensor(data))
        got = out if isinstance(out, tuple) else (out,)
        want = expected if isinstance(expected, tuple) else (expected,)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_concurrent_first_calls_compile_once_per_key_and_agree_with_eager(mode):
    cases = inputs()
    results, compiles, _ = hammer(body, mode, cases)
    assert_results(body, cases, results)
    kinds = {kind for _, kind in cases}
    keys = {(dtype, shape) for dtype, shape, _ in kinds}
    # trace: one graph per (dtype, shape, path) -- the path is a guard; ast: the path is
    # graph control flow; bytecode: one program per (dtype, shape), whose branches are
    # captured inside it on first use
    expected = len(kinds) if mode == "trace" else len(keys)
    assert compiles == expected, (mode, compiles, expected)


@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_concurrent_calls_through_graph_breaks_and_fallbacks(mode):
    cases = inputs()
    results, _, _ = hammer(with_python_break, mode, cases)
    assert_results(with_python_break, cases, results)


def make_scaled(s):
    def scaled(x):
        return (x * s).sum(-1)
    return scaled


@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_concurrent_calls_of_many_jitted_functions(mode):
    """Different functions compiling at once do not wait on each other's keys or mix up
    their cache entries."""
    scales = [float(k) for k in range(1, 9)]
    fns = [ms.jit(make_scaled(s), capture_mode=mode) for s in scales]
    data = np.random.default_rng(0).standard_normal((3, 4)).astype(np.float32)
    results, errors = {}, []
    barrier = threading.Barrier(len(fns) * 2)

    def worker(k, j):
        try:
            barrier.wait(timeout=JOIN_TIMEOUT)
            results[(k, j)] = fns[k](Tensor(data)).asnumpy()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k, j), daemon=True)
               for k in range(len(fns)) for j in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=JOIN_TIMEOUT)
    assert not any(t.is_alive() for t in threads)
    assert not errors, errors
    for (k, _), out in results.items():
        np.testing.assert_allclose(out, (data * scales[k]).sum(-1), rtol=1e-6)


# ---- a thread inside the generated fast path while another installs a new one ---------------

_paused = threading.local()
_inside, _resume = threading.Event(), threading.Event()


def _pause_kernel(x):
    if getattr(_paused, "on", False):          # only in the thread under test
        _inside.set()
        assert _resume.wait(JOIN_TIMEOUT)
    return x


def _pause_prim():
    from tensorjit.ops.primitive import PRIMITIVES, Primitive, same_aval, FRESH
    prim = PRIMITIVES.get("_test_pause")
    if prim is None:
        # (a full primitive: the registry tests may run after this one in the process)
        prim = Primitive("_test_pause", _pause_kernel, same_aval,
                         lambda ct, out, x: (ct,), shape_generic=False, aliasing=FRESH,
                         no_scalar="a test kernel that sleeps")
    return prim


def paused_scale(x):
    y = _pause_prim().bind(x)
    return y * Tensor(np.array([1.0, 2.0, 3.0], np.float32))


def test_a_call_inside_the_fast_path_survives_a_new_fast_path_being_installed():
    """Installing a hot entry replaced the dispatcher's globals in place (clear, then
    update): a thread inside the previous fast path read the new version's constants (or,
    between the two, found none: NameError)."""
    jitted = ms.jit(paused_scale, capture_mode="trace")     # (the dispatcher is shared)
    x32 = Tensor(np.ones(3, np.float32))
    x64 = Tensor(np.ones(3, np.float64))
    for _ in range(4):
        jitted(x32)                             # float32 fast path installed
    assert "_test_pause" in jitted._tj_source
    result = {}

    def inside():
        _paused.on = True
        try:
            result["out"] = jitted(x32)          # stops inside the float32 fast path
        except BaseException as exc:
            result["error"] = exc

    _inside.clear()
    _resume.clear()
    thread = threading.Thread(target=inside, daemon=True)
    thread.start()
    assert _inside.wait(JOIN_TIMEOUT)
    installs = jitted._tj_jit.hot_installs
    for _ in range(12):
        jitted(x64)                             # meanwhile: a float64 fast path
    assert jitted._tj_jit.hot_installs > installs
    _resume.set()
    thread.join(JOIN_TIMEOUT)
    assert not thread.is_alive()
    assert "error" not in result, result
    assert result["out"].dtype == ms.float32
    np.testing.assert_array_equal(result["out"].asnumpy(), [1.0, 2.0, 3.0])
