"""Table entries: the in-place tensor helpers (zero_, clamp_, erfinv_, tanh_,
inplace_sigmoid, put_, stop_gradient_ and the in-place draws bernoulli_, normal_, uniform_,
random_, exponential_), MindSpore's F names of elementwise ops (tensor_add, ...: aliases of
their entries) and the tensor helpers among the Python-value ones (eps, tensor_range).

An in-place helper must return the very tensor it was given, now holding the result: the
entries run it on a fresh tensor and check both."""
import numpy as np
from scipy import special

import tensorjit as tj
from tensorjit import dtype as dt

from .core import op, Sample, TABLE, ALL, FLOATS, NUMERIC
from .samples import random

_DRAWS = dict(grad=False, torch=None, fuzz=False, random=True)


def _in_place(name):
    """ops.<name> on the input tensor itself; raises unless it returns that tensor."""
    def run(x, *args, **kwargs):
        out = getattr(tj.ops, name)(x, *args, **kwargs)
        if name == "stop_gradient_":
            assert out is None, "stop_gradient_ returns None"
            return x
        assert out is x, f"{name} returned another object than its input"
        return out
    run.__name__ = name
    return run


def _unary(dtype, rng, full):
    if not dt.is_float(dtype):
        return [Sample(random(rng, (3, 4), dtype), label="2-d")]
    return [Sample(random(rng, (3, 4), dtype, -0.9, 0.9), label="in (-1, 1)"),
            Sample(random(rng, (), dtype, -0.9, 0.9), label="0-d"),
            Sample(np.zeros((2, 0), dtype), label="empty")]


op("zero_", op=_in_place("zero_"), prims=(), ref=np.zeros_like, dtypes=ALL, grad=False,
   torch=None, fuzz=False, samples=lambda dtype, rng, full: [
       Sample(random(rng, (3, 4), dtype), label="2-d"), Sample(np.zeros((0,), dtype),
                                                                label="empty")])
op("clamp_", op=_in_place("clamp_"), prims=(), dtypes=NUMERIC, torch=None, fuzz=False,
   ref=lambda x, lo=None, hi=None: np.clip(x, lo, hi),
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (3, 4), dtype), 1, 3, label="[1, 3]"),
       Sample(random(rng, (3, 4), dtype), 2, label="min only"),
       Sample(random(rng, (3, 4), dtype), label="neither bound", raises=ValueError)])
op("erfinv_", op=_in_place("erfinv_"), prims=(), ref=special.erfinv, dtypes=FLOATS,
   torch=None, fuzz=False, samples=_unary,
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2), dt.float32: (1e-5, 1e-5),
        dt.float64: (1e-10, 1e-10)})
op("tanh_", op=_in_place("tanh_"), prims=(), ref=np.tanh, dtypes=FLOATS, torch=None,
   fuzz=False, samples=_unary, tol={dt.float32: (1e-6, 1e-6)})
op("inplace_sigmoid", op=_in_place("inplace_sigmoid"), prims=(), ref=special.expit,
   dtypes=FLOATS, torch=None, fuzz=False, samples=_unary)


def _put_ref(x, index, source, accumulate=False):
    out = x.copy().reshape(-1)
    if accumulate:
        np.add.at(out, index.reshape(-1), source.reshape(-1).astype(out.dtype))
    else:
        out[index.reshape(-1)] = source.reshape(-1)
    return out.reshape(x.shape)


def _put_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype)
    return [Sample(r(2, 3), np.array([0, 4, -1]), r(3), label="flat positions"),
            Sample(r(2, 3), np.array([[1], [1]]), r(2, 1), True, label="accumulate repeats"),
            Sample(r(2, 3), np.array([6]), r(1), label="out of range", raises=ValueError),
            Sample(r(2, 3), np.array([0, 1]), r(1), label="sizes differ", raises=ValueError)]


op("put_", op=_in_place("put_"), prims=(), ref=_put_ref, dtypes=ALL,
   torch=None, fuzz=False, samples=_put_samples, result=lambda x, *_: x)
op("stop_gradient_", op=_in_place("stop_gradient_"), prims=(), ref=lambda x: x, dtypes=ALL,
   torch=None, fuzz=False, grad=False, samples=_unary,
   notes={"result": "None; the tensor keeps its value and no gradient flows through it"})


def _draw_check(low, high, mean, std):
    def check(entry, sample, got):
        x = sample.args[0]
        y = got[0]
        if y.dtype != x.dtype or y.shape != x.shape:
            return f"{y.dtype}{y.shape} for a {x.dtype}{x.shape} input"
        v = y.astype(np.float64)
        lo, hi = low(sample), high(sample)
        if not ((v >= lo) & (v <= hi)).all():
            return f"values outside [{lo}, {hi}]: {v[(v < lo) | (v > hi)][:5]}"
        if v.size >= 5000:
            m, s = mean(sample), std(sample)
            if abs(v.mean() - m) > 0.05 * max(s, 1) or abs(v.std() - s) > 0.05 * max(s, 1):
                return f"mean {v.mean():.3f} / std {v.std():.3f}, expected {m:.3f} / {s:.3f}"
        return None
    return check


def _draw_samples(*args, dtypes_kind="float"):
    def samples(dtype, rng, full):
        return [Sample(np.zeros((100, 100), dtype), *args, label="10000 draws"),
                Sample(np.zeros((2, 0), dtype), *args, label="empty")]
    return samples


def _arg(k, default):
    return lambda s: s.args[k] if len(s.args) > k else default


op("bernoulli_", op=_in_place("bernoulli_"), prims=(), dtypes=(dt.float32, dt.int32), **_DRAWS,
   samples=_draw_samples(0.3), check=_draw_check(lambda s: 0, lambda s: 1, lambda s: 0.3,
                                                 lambda s: (0.3 * 0.7) ** 0.5))
op("normal_", op=_in_place("normal_"), prims=(), dtypes=FLOATS, **_DRAWS,
   samples=_draw_samples(2.0, 3.0), check=_draw_check(
       lambda s: -np.inf, lambda s: np.inf, lambda s: 2.0, lambda s: 3.0))
op("uniform_", op=_in_place("uniform_"), prims=(), dtypes=FLOATS, **_DRAWS,
   samples=_draw_samples(5.0, 7.0), check=_draw_check(
       lambda s: 5.0, lambda s: 7.0, lambda s: 6.0, lambda s: 2 / 12 ** 0.5))
op("random_", op=_in_place("random_"), prims=(), dtypes=(dt.float32, dt.int32, dt.uint8),
   **_DRAWS, samples=_draw_samples(3, 9), check=_draw_check(
       lambda s: 3, lambda s: 8, lambda s: 5.5, lambda s: (35 / 12) ** 0.5))
op("exponential_", op=_in_place("exponential_"), prims=(), dtypes=FLOATS, **_DRAWS,
   samples=_draw_samples(2.0), check=_draw_check(
       lambda s: 0, lambda s: np.inf, lambda s: 0.5, lambda s: 0.5))


# ---- MindSpore's F names and the tensor helpers among the Python-value ones ---------------

for _entry, _alias in (("add", "tensor_add"), ("sub", "tensor_sub"), ("mul", "tensor_mul"),
                       ("div", "tensor_div"), ("floor_div", "tensor_floordiv"),
                       ("floor_mod", "tensor_mod"), ("pow", "tensor_pow"), ("exp", "tensor_exp"),
                       ("expm1", "tensor_expm1"), ("gt", "tensor_gt"), ("ge", "tensor_ge"),
                       ("lt", "tensor_lt"), ("le", "tensor_le")):
    TABLE[_entry].aliases += (_alias,)

op("eps", prims=(), ref=lambda x: np.full(x.shape, np.finfo(x.dtype).eps), grad=False,
   dtypes=(dt.float16, dt.float32, dt.float64), torch=None, fuzz=False,
   samples=lambda dtype, rng, full: [Sample(random(rng, (2, 3), dtype), label="2-d"),
                                     Sample(np.zeros((0,), dtype), label="empty")],
   ref_differs=None)
op("tensor_range", prims=(), ref=lambda a, b, c: np.arange(a, b, c), grad=False, torch=None,
   fuzz=False, dtypes=NUMERIC,
   result=lambda *d: dt.float32 if dt.is_float(d[0]) else dt.int64,
   samples=lambda dtype, rng, full: [
       Sample(*[np.array(v).astype(dtype) for v in (0, 5, 2)], label="0 to 5 by 2"),
       Sample(*[np.array(v).astype(dtype) for v in (6, 1, -1)], label="downwards",
              # an unsigned -1 wraps to a large step, which moves away from the end
              raises=ValueError if dtype.kind == "u" else None),
       Sample(*[np.array(v).astype(dtype) for v in (0, 5, 0)], label="zero step",
              raises=ValueError)])
