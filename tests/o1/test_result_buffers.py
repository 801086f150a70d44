"""Result memory: a jitted call's results are freed as soon as the caller drops them (no
reference cycle keeps them until the garbage collector runs), and a fused kernel that
writes into a buffer it used before never touches a result the caller still holds."""
import gc
import weakref

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, nn
from tensorjit.backend.numba import kernel as native_kernel


def branchy(a, b):
    c = a * b + 1.0
    if c.sum() > 0:
        c = c * 2.0
    return (c - b).exp(), [c]


@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("mode", ["ast", "bytecode", "trace"])
def test_results_are_freed_when_dropped(mode, level):
    x, y = Tensor(np.ones((64, 64), np.float32)), Tensor(np.ones((64, 64), np.float32))
    net = nn.Dense(8, 4)
    grad = ms.value_and_grad(lambda v: (net(v) ** 2).sum(), None, net.trainable_params())
    for fn, args in ((branchy, (x, y)), (grad, (Tensor(np.ones((2, 8), np.float32)),))):
        jitted = ms.jit(fn, capture_mode=mode, jit_level=level)
        for _ in range(3):
            jitted(*args)
        gc.collect()
        gc.disable()
        try:
            out = jitted(*args)
            refs = [weakref.ref(out[0]), weakref.ref(out[1][0])]
            del out
            assert all(r() is None for r in refs), "a result outlived the caller's reference"
        finally:
            gc.enable()


def test_reused_buffers_never_change_held_results(monkeypatch):
    pytest.importorskip("numba")
    monkeypatch.setattr(native_kernel, "RECYCLE_BYTES", 0)    # every result is pooled
    x = Tensor(np.linspace(-2, 2, 4096, dtype=np.float32))
    jitted = ms.jit(lambda v, s: (v * s).tanh() * 2.0 + s, jit_level="O1")
    held = [jitted(x, float(s)) for s in range(6)]              # the caller keeps them all
    for _ in range(5):
        jitted(x, 9.0)                                          # dropped: buffers reused
    for s, out in enumerate(held):
        want = np.tanh(x.asnumpy() * np.float32(s)) * 2 + s
        np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-6, atol=1e-6)
