"""O1 passes one by one, the fused-kernel cache, the Numba-less path, buffer safety and
exec_order. Results are always compared with eager / O0 (no timing here)."""
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, files, ops
from tensorjit.backend import numba as numba_backend
from tensorjit.backend.numba import (background, config as native_config, disk_cache,
                                     kernel as native_kernel)
from tensorjit.bench import workloads
from tensorjit.jit.cache import CACHE
from tensorjit.passes import fusion


def rand(*shape, seed=0):
    return Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


def lowered(fn, *args, **options):
    return ms.jit(fn, capture_mode="trace", **options).lower(*args)


def test_cse_merges_repeated_work():
    def g(x):
        return (x * 2.0 + 1.0) * (x * 2.0 + 1.0)
    x = rand(3, 4)
    low = lowered(g, x, jit_level="O1")
    assert low.graph.pass_report["cse"] >= 2
    np.testing.assert_allclose(ms.jit(g, capture_mode="trace", jit_level="O1")(x).asnumpy(),
                               g(x).asnumpy(), rtol=1e-6)


def test_simplify_identities_and_chains_keep_nan_semantics(monkeypatch):
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 1 << 30)        # look at the plain ops
    def g(x):
        y = (x - 0.0) * 1.0 / 1.0          # (not x + 0.0: -0.0 + 0.0 is +0.0)
        y = y.reshape(4, 3).reshape(2, 6).reshape(3, 4)
        y = y.transpose(1, 0).transpose(1, 0)
        y = y.astype(ms.float64).astype(ms.float32)
        return y * 0.0 + -(-y)
    x = Tensor(np.array([[np.nan, np.inf, -np.inf, 1.0]] * 3, np.float32))
    low = lowered(g, x, jit_level="O1")
    names = low.graph.primitive_names()
    assert names == ["mul", "add"], names                  # x * 0 stays: inf * 0 is nan
    out = ms.jit(g, capture_mode="trace", jit_level="O1")(x).asnumpy()
    np.testing.assert_array_equal(out, g(x).asnumpy())


@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_weight_gradient_is_computed_in_the_weights_layout(mode):
    # x @ w.T (a Dense layer): w's gradient is transpose(x.T @ ct); O1 computes ct.T @ x,
    # the same products, contiguous for the optimizer's kernel
    x, w = rand(32, 24, seed=10), rand(16, 24, seed=11)

    def loss(x, w):
        return (ops.matmul(x, w.T) ** 2).sum()
    grad = ms.grad(loss, grad_position=1)
    jitted = ms.jit(grad, capture_mode=mode, jit_level="O1")
    graph = jitted.lower(x, w).graph
    producer = {o: n for n in graph.nodes for o in n.outputs}
    assert producer[graph.outputs[0]].prim.name != "transpose", graph.primitive_names()
    expected = 2 * (x.asnumpy() @ w.asnumpy().T).T @ x.asnumpy()     # NumPy formula
    out = jitted(x, w).asnumpy()
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out, grad(x, w).asnumpy(), rtol=1e-6, atol=1e-6)
    assert jitted(x, w).asnumpy().flags.c_contiguous

def test_bias_add_moves_past_a_reshape_into_the_kernel_reading_it():
    x, w, b = rand(4, 8, 16, seed=12), rand(16, 32, seed=13), rand(32, seed=14)

    def g(x, w, b):
        logits = (ops.matmul(x, w) + b).reshape(-1, 32)
        return ops.softmax(logits, axis=-1) * 2.0
    jitted = ms.jit(g, capture_mode="trace", jit_level="O1")
    graph = jitted.lower(x, w, b).graph
    assert "add" not in graph.primitive_names(), graph.primitive_names()
    e = np.exp((x.asnumpy() @ w.asnumpy() + b.asnumpy()).reshape(-1, 32))
    expected = e / e.sum(-1, keepdims=True) * 2.0                       # NumPy formula
    np.testing.assert_allclose(jitted(x, w, b).asnumpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(jitted(x, w, b).asnumpy(), g(x, w, b).asnumpy(), rtol=1e-6,
                               atol=1e-7)
    # a reshape that splits the last axis keeps the add where it is
    split = ms.jit(lambda x, w, b: (ops.matmul(x, w) + b).reshape(4, 8, 2, 16) * 2.0,
                   capture_mode="trace", jit_level="O1")
    np.testing.assert_array_equal(split(x, w, b).asnumpy(),
                                  ((ops.matmul(x, w) + b).reshape(4, 8, 2, 16) * 2.0).asnumpy())

def _sparse_ce(logits, labels):
    return ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(logits, labels)


@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_sparse_cross_entropy_gradient_needs_no_scatter(mode):
    logits = rand(64, 4200, seed=15)                  # large enough to fuse
    labels_np = np.random.default_rng(16).integers(-4200, 4200, 64).astype(np.int32)
    labels = Tensor(labels_np)
    grad = ms.value_and_grad(_sparse_ce)
    jitted = ms.jit(grad, capture_mode=mode, jit_level="O1")
    names = jitted.lower(logits, labels).graph.primitive_names()
    assert "index_add" not in names, names
    (loss, g), (loss_e, g_e) = jitted(logits, labels), grad(logits, labels)
    x = logits.asnumpy().astype(np.float64)
    p = np.exp(x - x.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    onehot = np.zeros_like(p)
    onehot[np.arange(64), labels_np % 4200] = 1.0                  # negative labels wrap
    np.testing.assert_allclose(g.asnumpy(), (p - onehot) / 64, rtol=1e-4, atol=1e-8)
    np.testing.assert_allclose(g.asnumpy(), g_e.asnumpy(), rtol=1e-5, atol=1e-9)
    np.testing.assert_allclose(float(loss), float(loss_e), rtol=1e-6)
    bad = Tensor(np.where(np.arange(64) == 3, 4200, labels_np).astype(np.int32))
    with pytest.raises(IndexError):                   # the forward gather checks bounds
        jitted(logits, bad)

def _split_heads(qkv, w):
    q, k, v = qkv[0], qkv[1], qkv[2]
    return (q * w).sum() + (k * k).sum() + (v * w * -1.5).sum()


def _two_of_three(qkv, w):
    return (qkv[0] * w).sum() + (qkv[2] * w).sum()


@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_gradient_of_indexed_entries_is_one_concat_and_exact(mode):
    qkv = rand(3, 4, 5, seed=8)
    zeros = np.zeros((3, 4, 5), np.float32)
    zeros[1, 0, 0] = -0.0                           # the +0 keeps -0.0 entries +0.0
    qkv = Tensor(qkv.asnumpy() * (zeros == 0) + zeros)
    w = rand(4, 5, seed=9)
    grad = ms.grad(_split_heads)
    jitted = ms.jit(grad, capture_mode=mode, jit_level="O1")
    names = jitted.lower(qkv, w).graph.primitive_names()
    assert "concat" in names and "index_add" not in names, names
    expected = grad(qkv, w).asnumpy()
    for _ in range(2):
        out = jitted(qkv, w).asnumpy()
        np.testing.assert_array_equal(out, expected)
        np.testing.assert_array_equal(np.signbit(out), np.signbit(expected))
    np.testing.assert_array_equal(expected[0], w.asnumpy())     # independent check
    np.testing.assert_array_equal(expected[1], 2 * qkv.asnumpy()[1])
    np.testing.assert_allclose(expected[2], -1.5 * w.asnumpy(), rtol=1e-6)
    # entries that do not cover the axis keep their index_add (no concat to make)
    partial = ms.jit(ms.grad(_two_of_three), capture_mode=mode, jit_level="O1")
    assert "concat" not in partial.lower(qkv, w).graph.primitive_names()
    np.testing.assert_array_equal(partial(qkv, w).asnumpy(),
                                  ms.grad(_two_of_three)(qkv, w).asnumpy())

@pytest.mark.skipif(not numba_backend.numba_available(), reason="needs Numba")
def test_chains_meeting_at_a_node_fuse_into_one_kernel():
    """Adam's two moments feed one update: the groups of both chains merge, so the step
    is one kernel with three outputs; a chain that reaches the other only through a
    matmul cannot merge (that would be a cycle) and stays a kernel of its own."""
    def adam_like(m, v, g, p):
        new_m = m * 0.9 + g * 0.1
        new_v = v * 0.999 + g * g * 0.001
        return new_m, new_v, p - 0.01 * new_m / (ops.sqrt(new_v) + 1e-8)
    args = [rand(64, 96, seed=k) for k in range(4)]
    low = lowered(adam_like, *args, jit_level="O1")
    assert low.as_text().count("= fused") == 1
    for got, want in zip(ms.jit(adam_like, jit_level="O1")(*args), adam_like(*args)):
        np.testing.assert_allclose(got.asnumpy(), want.asnumpy(), rtol=1e-6, atol=1e-6)

    def through_matmul(a, w):
        u = a * 2.0 + 1.0
        v = ops.matmul(u, w) * 3.0 - 1.0
        return u * v
    a, w = rand(64, 64, seed=1), rand(64, 64, seed=2)
    low = lowered(through_matmul, a, w, jit_level="O1")
    assert low.as_text().count("= fused") == 2
    np.testing.assert_allclose(ms.jit(through_matmul, jit_level="O1")(a, w).asnumpy(),
                               through_matmul(a, w).asnumpy(), rtol=1e-5, atol=1e-5)


def test_one_operation_on_a_large_array_is_a_kernel_and_a_small_one_is_numpys():
    """A lone product between two matmuls (a GELU gradient) runs as a parallel kernel
    writing into its dying operand once the array is large; small ones stay NumPy calls."""
    def between_matmuls(a, w):
        h = ops.matmul(a, w)
        return ops.matmul(h * a, w)
    for rows, kernels in ((1024, 1), (8, 0)):
        a, w = rand(rows, 256, seed=1), rand(256, 256, seed=2)
        low = lowered(between_matmuls, a, w, jit_level="O1")
        assert low.as_text().count("= fused") == kernels, low.as_text()
        np.testing.assert_array_equal(ms.jit(between_matmuls, jit_level="O1")(a, w).asnumpy(),
                                      between_matmuls(a, w).asnumpy())


def test_fused_kernel_nan_inf_semantics_equal_eager():
    def g(x, y):
        a = ops.maximum(x, y) - ops.minimum(x, y) * 2.0
        b = ops.relu(a) / (y - 1.0)
        return ops.where(b > 0.5, b, ops.sqrt(ops.abs(a))) + x.sum(axis=1, keepdims=True)
    vals = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.5, 3.0], np.float32)
    x = Tensor(np.tile(vals, (8, 4)))
    y = Tensor(np.tile(np.roll(vals, 3), (8, 4)))
    jitted = ms.jit(g, capture_mode="trace", jit_level="O1")
    assert "fused" in jitted.lower(x, y).graph.primitive_names()
    for _ in range(3):
        np.testing.assert_array_equal(jitted(x, y).asnumpy(), g(x, y).asnumpy())


def test_without_numba_o1_still_optimizes_and_matches(monkeypatch):
    monkeypatch.setattr(native_config, "NUMBA_AVAILABLE", False)
    wl = workloads.resnet_block("tiny", training=True)
    low = lowered(wl.cell, *wl.args, jit_level="O1")
    assert "fused" not in low.graph.primitive_names()
    assert "simplify" in low.graph.pass_report
    ref = workloads.resnet_block("tiny", training=True)
    out = ms.jit(wl.cell, capture_mode="trace", jit_level="O1")(*wl.args)
    np.testing.assert_allclose(out.asnumpy(), ref.cell(*ref.args).asnumpy(), rtol=1e-5,
                               atol=1e-6)


def test_fused_subgraph_numpy_fallback_matches_native(monkeypatch):
    def g(x, y):
        return ops.relu(x * y - 0.5) * 3.0 + y
    x, y = rand(16, 16, seed=1), rand(16, 16, seed=2)
    native = ms.jit(g, capture_mode="trace", jit_level="O1")
    node = next(n for n in native.lower(x, y).graph.nodes if n.prim.name == "fused")
    sub = node.params["graph"]
    monkeypatch.setattr(native_config, "NUMBA_AVAILABLE", False)
    numpy_kernel = native_kernel.build(sub)
    assert numpy_kernel.native is None
    np.testing.assert_allclose(numpy_kernel(x.asnumpy(), y.asnumpy())[0],
                               native(x, y).asnumpy(), rtol=1e-6)


def test_batchnorm_folds_into_conv_in_inference():
    wl = workloads.resnet_block("tiny", training=False)
    low = lowered(wl.cell, *wl.args, jit_level="O1")
    assert low.graph.pass_report["fold_batchnorm"] == 2
    ref = workloads.resnet_block("tiny", training=False)
    out = ms.jit(wl.cell, capture_mode="trace", jit_level="O1")(*wl.args)
    np.testing.assert_allclose(out.asnumpy(), ref.cell(*ref.args).asnumpy(), rtol=1e-5,
                               atol=1e-5)


def test_buffer_reuse_never_writes_visible_arrays():
    w = ms.Parameter(rand(6, 6, seed=3), name="w")

    def g(x, y):
        t = ops.matmul(x, w) + 1.0            # a fresh matmul result: may be reused
        u = ops.relu(t) * y - 2.0
        view = x.reshape(36)                  # a view of an input: never written
        return u * 0.5 + x, view * 2.0, ops.relu(u) - t
    x, y = rand(6, 6, seed=4), rand(6, 6, seed=5)
    keep = [x.asnumpy().copy(), y.asnumpy().copy(), w.asnumpy().copy()]
    jitted = ms.jit(g, capture_mode="trace", jit_level="O1")
    expected = g(x, y)
    for _ in range(3):
        outs = jitted(x, y)
        for a, b in zip(outs, expected):
            np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)
        for before, t in zip(keep, (x, y, w)):
            np.testing.assert_array_equal(before, t.asnumpy())
    reused = [n.params.get("inplace") for n in jitted.lower(x, y).graph.nodes
              if n.prim.name == "fused"]
    assert any(reused)


def test_inplace_kernel_writes_its_operand_and_copies_a_readonly_one():
    # the in-place output is the operand array inside the kernel (``out0 = inJ``), not a
    # second argument aliasing it (which defeats LLVM's vectorization)
    def g(x, w):
        t = ops.matmul(x, w)                    # dies at the fused node: its buffer is reused
        return ops.exp(t - 1.0) * 0.5 + t
    x, w = rand(64, 64, seed=6) * 0.1, rand(64, 64, seed=7) * 0.1
    jitted = ms.jit(g, capture_mode="trace", jit_level="O1")
    np.testing.assert_allclose(jitted(x, w).asnumpy(), g(x, w).asnumpy(), rtol=1e-5, atol=1e-6)
    node = next(n for n in jitted.lower(x, w).graph.nodes if n.prim.name == "fused")
    (k, j), = node.params["inplace"]
    kernel = native_kernel.kernel_for(node.params["graph"], node.params["inplace"])
    if kernel.native is None:
        pytest.skip("Numba is not installed")
    kernel(np.zeros((64, 64), np.float32))          # compiled (tiered: in the background)
    assert background.wait(120)
    assert f"out{k} = in{j}" in kernel.source
    operand = np.asarray(np.matmul(x.asnumpy(), w.asnumpy()), np.float32)
    expected = g(x, w).asnumpy()
    readonly = operand.copy()
    readonly.flags.writeable = False
    assert len(node.inputs) == 1
    out, = kernel(readonly)                 # not writable: the kernel writes a copy
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(readonly, operand)
    out, = kernel(operand)                  # writable: the result is the operand's buffer
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    assert out is operand

def _branches(x, w1, w2, w3):
    outs = []
    for w in (w1, w2, w3):
        h = ops.matmul(ops.matmul(x, w), w)
        outs.append(ops.matmul(h, w).sum())
    return outs[0] + outs[1] + outs[2]


@pytest.mark.parametrize("level", ["O0", "O1"])
def test_dfs_lowers_peak_memory_with_identical_results(level):
    x = rand(64, 64, seed=0)
    ws = [rand(64, 64, seed=i + 1) for i in range(3)]
    bfs = ms.jit(_branches, capture_mode="trace", jit_level=level, exec_order="bfs")
    dfs = ms.jit(_branches, capture_mode="trace", jit_level=level, exec_order="dfs")
    peak_bfs, peak_dfs = bfs.lower(x, *ws).peak_memory, dfs.lower(x, *ws).peak_memory
    assert peak_dfs < peak_bfs
    np.testing.assert_array_equal(bfs(x, *ws).asnumpy(), dfs(x, *ws).asnumpy())
    np.testing.assert_array_equal(dfs(x, *ws).asnumpy(), bfs(x, *ws).asnumpy())
    report = str(ms.explain(dfs)(x, *ws))
    assert "peak memory" in report and "dfs" in report


def test_ge_sinks_the_graph_into_one_unit():
    def g(a, b):
        return ops.matmul(a, b) * 2.0 + a
    a, b = rand(8, 8, seed=1), rand(8, 8, seed=2)
    low = lowered(g, a, b, backend="GE", jit_level="O1")
    assert low.graph.primitive_names() == ["graph_sink"]
    assert "def ge_unit" in low.code and "= gemm(a, b)" in low.code
    np.testing.assert_allclose(ms.jit(g, capture_mode="trace", backend="GE")(a, b).asnumpy(),
                               g(a, b).asnumpy(), rtol=1e-6)


# ---- the on-disk kernel cache ---------------------------------------------------------

def _fresh_kernel(seed_const):
    def g(x):
        return ops.relu(x * seed_const + 1.0) - x
    x = rand(4, 8)
    return ms.jit(g, capture_mode="trace", jit_level="O1"), x, g


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    root = tmp_path / "tjcache"
    monkeypatch.setenv("TENSORJIT_CACHE_DIR", str(root))
    monkeypatch.setattr(native_kernel, "_sources", {})
    # kernels compile at prepare time (the cache's files exist after the first call)
    monkeypatch.setenv("TENSORJIT_BACKGROUND_COMPILE", "0")
    monkeypatch.setattr(background, "ENABLED", False)
    return root


def test_cache_dir_is_private_and_corruption_recompiles(cache_root):
    jitted, x, g = _fresh_kernel(3.25)
    np.testing.assert_allclose(jitted(x).asnumpy(), g(x).asnumpy(), rtol=1e-6)
    kernels = cache_root / "kernels"
    assert (os.stat(cache_root).st_mode & 0o777) == 0o700
    sources = list(kernels.glob("k_*.py"))
    assert sources
    for path in sources:
        path.write_text("garbage(")
    for path in (kernels / "__pycache__").glob("*"):
        path.write_bytes(b"\x00corrupt")
    native_kernel._sources.clear()
    CACHE.clear()                       # forget the compiled graph, not just the kernel
    jitted2, _, _ = _fresh_kernel(3.25)
    with pytest.warns(RuntimeWarning, match="corrupted|could not be loaded"):
        out = jitted2(x)
    np.testing.assert_allclose(out.asnumpy(), g(x).asnumpy(), rtol=1e-6)


def test_unsafe_cache_dir_is_not_used(cache_root):
    cache_root.mkdir(mode=0o700)
    os.chmod(cache_root, 0o777)
    files._warned.clear()
    with pytest.warns(RuntimeWarning, match="not using the kernel cache"):
        assert disk_cache.cache_dir() is None
    jitted, x, g = _fresh_kernel(1.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(jitted(x).asnumpy(), g(x).asnumpy(), rtol=1e-6)
    assert not list(cache_root.glob("kernels/k_*"))


_CHILD = """
import numpy as np, tensorjit as ms
from tensorjit import ops
from tensorjit.backend import numba as numba_backend
from tensorjit.backend.numba import (background, config as native_config, disk_cache,
                                     kernel as native_kernel)
from tensorjit.passes import fusion
fusion.MIN_ELEMENTS = 0
def g(x):
    return ops.relu(x * 0.75 - 0.125) * x + 2.0
x = ms.Tensor(np.ones((4, 8), np.float32))
ms.jit(g, capture_mode="trace", jit_level="O1")(x)
print(numba_backend.STATS["compiled"], numba_backend.STATS["loaded"])
"""


def test_second_process_loads_kernels_from_disk(cache_root):
    env = dict(os.environ, TENSORJIT_CACHE_DIR=str(cache_root))
    runs = [subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                           text=True, check=True).stdout.split() for _ in range(2)]
    assert runs[0] == ["1", "0"], runs
    assert runs[1] == ["0", "1"], runs
