"""One OpenMP pool for products and kernels (ops/thread_pool.py), and a forked child that
runs without it."""
import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

from tensorjit.ops import blas, thread_pool


def test_numba_shares_mkls_pool_and_keeps_its_own_beside_openblas(monkeypatch):
    monkeypatch.delenv("NUMBA_THREADING_LAYER", raising=False)
    monkeypatch.setattr(blas, "backend_name", lambda: "mkl")
    assert thread_pool.numba_layer() == "omp"
    monkeypatch.setattr(blas, "backend_name", lambda: "numpy")
    assert thread_pool.numba_layer() == "workqueue"
    monkeypatch.setenv("NUMBA_THREADING_LAYER", "tbb")      # the user's choice wins
    assert thread_pool.numba_layer() == "tbb"


# The parent runs a large fused kernel at O1 (parallel) and a Winograd convolution (parallel
# transforms, MKL products), then forks. On the OpenMP pool the child would wait forever in
# MKL or be terminated by Numba at its first parallel kernel; it must compute the same
# numbers on NumPy instead.
_SCRIPT = textwrap.dedent("""
    import multiprocessing, sys
    import numpy as np
    import tensorjit as ms
    from tensorjit import ops
    from tensorjit.ops import thread_pool, winograd

    def f(x, w):
        y = ops.conv2d(x, w, pad_mode="pad", padding=1)
        return ops.tanh(y) * 2.0 + ops.exp(-y * y)

    step = ms.jit(f, jit_level="O1")
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((8, 16, 32, 32)).astype(np.float32))
    w = ms.Tensor(rng.standard_normal((16, 16, 3, 3)).astype(np.float32) * 0.1)
    winograd.wait(np.float32)
    parent = step(x, w).asnumpy()
    layer = thread_pool.configure_numba()

    def child(conn):
        conn.send((thread_pool.usable(), step(x, w).asnumpy()))

    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    worker = ctx.Process(target=child, args=(send,))
    worker.start()
    if not receive.poll(240):
        worker.kill()
        sys.exit(f"the forked child did not answer (exit code {worker.exitcode})")
    usable, got = receive.recv()
    worker.join()
    np.testing.assert_allclose(got, parent, rtol=1e-5, atol=1e-5)
    assert usable == (layer != "omp"), (layer, usable)
    print("layer", layer, "child usable", usable)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork() only")
@pytest.mark.skipif(importlib.util.find_spec("numba") is None,
                    reason="Numba not installed: no parallel kernels")
def test_a_child_forked_off_the_pool_computes_the_same_numbers_on_numpy(tmp_path):
    script = tmp_path / "fork_after_kernels.py"
    script.write_text(_SCRIPT)
    env = dict(os.environ, TENSORJIT_BACKGROUND_COMPILE="0")
    env.pop("NUMBA_THREADING_LAYER", None)
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    expected = "omp" if blas.backend_name() == "mkl" else "workqueue"
    assert f"layer {expected}" in out.stdout, out.stdout
