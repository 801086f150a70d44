"""No kernel computes elements one Python call at a time: such a kernel (``np.vectorize``
over ``math.erf`` was one) is hundreds of times slower than NumPy and stalls a model.

Checked two ways: nothing in the package calls ``np.vectorize`` / ``np.frompyfunc``, and
every elementwise primitive's kernel (and the gradient kernels of the training ops) makes
as many Python-level calls on a thousand times more elements as on a few."""
import ast
import math
import os
import sys

import numpy as np
import pytest

import tensorjit
import tensorjit as ms
from tensorjit import ops
from tensorjit.ops.primitive import PRIMITIVES

from core.test_vjp_registry import SAMPLES

PACKAGE = os.path.dirname(tensorjit.__file__)
PER_ELEMENT = {"vectorize", "frompyfunc"}


def test_no_kernel_is_built_with_np_vectorize():
    found = []
    for directory, _, files in os.walk(PACKAGE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read(), path)
                for node in ast.walk(tree):
                    if isinstance(node, ast.Attribute) and node.attr in PER_ELEMENT:
                        found.append(f"{os.path.relpath(path, PACKAGE)}:{node.lineno}")
    assert not found, f"per-element Python kernels: {found}"


def python_calls(fn, *args, **kwargs):
    """How many Python functions run during ``fn(*args)``."""
    count = [0]

    def profile(frame, event, arg):
        if event in ("call", "c_call"):
            count[0] += 1
    sys.setprofile(profile)
    try:
        fn(*args, **kwargs)
    finally:
        sys.setprofile(None)
    return count[0]


ELEMENTWISE = sorted(n for n, p in PRIMITIVES.items() if p.elementwise and n in SAMPLES)


def _grown(arrays, factor):
    """The sample's arrays with a new leading axis of ``factor`` copies (the same
    broadcasting between operands)."""
    ndim = max(a.ndim for a in arrays)
    out = []
    for a in arrays:
        a = a.reshape((1,) * (ndim - a.ndim) + a.shape)
        out.append(np.ascontiguousarray(np.broadcast_to(a[None], (factor,) + a.shape)))
    return out


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_elementwise_kernels_make_no_python_call_per_element(name):
    prim = PRIMITIVES[name]
    case = SAMPLES[name][0]
    arrays = [np.asarray(a) for a in case.make(np.random.default_rng(0))]
    with np.errstate(all="ignore"):
        small = python_calls(prim.impl, *_grown(arrays, 1), **case.params)
        large = python_calls(prim.impl, *_grown(arrays, 1000), **case.params)
    assert large <= small + 5, f"{name}: {small} Python calls on few elements, {large} on more"


def test_erf_and_exact_gelu_never_call_math_erf(monkeypatch):
    def per_element(value):
        raise AssertionError("math.erf called per element")
    monkeypatch.setattr(math, "erf", per_element)
    x = ms.Tensor(np.linspace(-4, 4, 4096, dtype=np.float32))
    want = np.array([0.5 * v * (1 + math.erfc(-v / math.sqrt(2)) - 1) for v in
                     np.linspace(-4, 4, 4096)])
    for fn in (lambda t: ops.gelu(t, approximate="none"),
               ms.jit(lambda t: ops.gelu(t, approximate="none"), jit_level="O0")):
        np.testing.assert_allclose(fn(x).asnumpy(), want, rtol=1e-6, atol=1e-7)
    grad = ms.grad(lambda t: ops.gelu(t, approximate="none").sum())(x).asnumpy()
    assert np.all(np.isfinite(grad)) and abs(grad[-1] - 1.0) < 1e-3
