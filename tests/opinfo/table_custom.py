"""Table entries: user-defined operators (ops.Custom) and the custom primitive each call
becomes. Each entry's op runs one fixed Custom operator, eagerly or in a compiled function
(``run=`` names the capture mode and level: one opaque graph node), the reference is the
same computation in NumPy, and the gradients go through the operator's ``bprop``.
tests/core/test_custom_op.py covers the rest (every configuration, errors, aot)."""
import numpy as np

import tensorjit as tj
from tensorjit import dtype as dt

from .core import op, Sample
from .samples import random
from .table_loops import _runner, _per_run, _grad_per_run


def _sin_mul_bprop(a, b, out, dout):
    return dout * tj.ops.sin(b), dout * a * tj.ops.cos(b)


SIN_MUL = tj.ops.Custom(lambda a, b: a * np.sin(b), lambda s, t: s, lambda d, e: d, "pyfunc",
                        bprop=_sin_mul_bprop)


@tj.ops.kernel
def _scaled_softplus(a, w):
    out = output_tensor(a.shape, a.dtype)  # noqa: F821  (the hybrid DSL's names)
    for i in parallel(a.shape[0]):  # noqa: F821
        for j in range(a.shape[1]):
            out[i, j] = log(1.0 + exp(a[i, j])) * w[j]  # noqa: F821
    return out


def _softplus_bprop(a, w, out, dout):
    return dout * tj.ops.sigmoid(a) * w, (dout * tj.ops.log(1 + tj.ops.exp(a))).sum(0)


SOFTPLUS = tj.ops.Custom(_scaled_softplus, func_type="hybrid", bprop=_softplus_bprop)


def _pyfunc_user(a, b):
    return SIN_MUL(a, b)


def _hybrid_user(a, w):
    return SOFTPLUS(a, w)


def _pairs(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    return [Sample(r(2, 3), r(2, 3), label="2x3"), Sample(r(4), r(4), label="1-d"),
            Sample(r(), r(), label="0-d"), Sample(r(3, 0), r(3, 0), label="empty")]


def _rows(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    return [Sample(r(3, 4), r(4), label="3x4"), Sample(r(1, 5), r(5), label="1x5"),
            Sample(r(0, 2), r(2), label="no rows")]


_NOTES = {"graphs": "one custom node in every mode and level, never fused: its kernel calls "
                    "the user's function and checks its results against out_shape / "
                    "out_dtype",
          "gradient": "the operator's bprop(*inputs, out, dout); without one a gradient "
                      "is MindSpore's RuntimeError"}

op("prim:custom", op=_runner(_pyfunc_user), prims=("custom",),
   ref=lambda a, b, run=None: a * np.sin(b), dtypes=(dt.float32, dt.float64),
   samples=_per_run(_pairs), grad_samples=_grad_per_run(lambda rng, full: [
       Sample(rng.standard_normal((2, 3)), rng.standard_normal((2, 3)), label="2x3")]),
   torch=None, ms=None, fuzz=False, only_declared=False, notes=_NOTES)

op("prim:custom_hybrid", op=_runner(_hybrid_user), prims=("custom",),
   ref=lambda a, w, run=None: np.log1p(np.exp(a)) * w, dtypes=(dt.float32, dt.float64),
   samples=_per_run(_rows), grad_samples=_grad_per_run(lambda rng, full: [
       Sample(rng.standard_normal((3, 4)), rng.standard_normal(4), label="3x4")]),
   torch=None, ms=None, fuzz=False, only_declared=False,
   notes=_NOTES | {"kernel": "the hybrid DSL compiled by Numba (run as Python without it); "
                             "out_shape / out_dtype found by running it on zeros"})
