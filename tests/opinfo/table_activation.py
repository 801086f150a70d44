"""Table entries: activations and per-channel ops built from elementwise primitives (celu,
selu, fast_gelu, glu, hardsigmoid, hardswish, logsigmoid, prelu, l2_normalize, bias_add);
their gradients come from the primitives' VJPs and are checked here end to end."""
import math

import numpy as np
from scipy import special

from tensorjit import dtype as dt

from .core import op, Sample, Kink, Differs, ALL, NUMERIC, float_result
from .samples import random, specials, unary, grad_unary, finfo

_TOL16 = {dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)}
_F = lambda torch: torch.nn.functional  # noqa: E731
_INT = {"dtypes": "bool and integers compute in float32 (the float constants of the "
                  "definition promote them; MindSpore 2.10's CPU kernels refuse them)"}
_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805


_LARGE = ("large inputs keep the positive slope: the exponential branch is computed on 0 "
          "there (its gradient 0 * exp(x) was NaN once exp overflowed)")


def _with_alpha(alpha):
    """``unary`` samples, and the random ones again with ``alpha`` given."""
    def make(dtype, rng, full):
        out = unary((-3, 3))(dtype, rng, full)
        return out + [Sample(random(rng, (3, 4), dtype, -3, 3), alpha, label="alpha")]
    return make


op("celu", prims=(), ref=lambda x, alpha=1.0: np.where(x > 0, x, alpha * np.expm1(x / alpha)),
   dtypes=ALL, result=float_result, samples=_with_alpha(2.0), tol=_TOL16, notes=_INT,
   grad_samples=lambda rng, full: [Sample(rng.uniform(-3, 3, (3, 4)), label="random"),
                                   Sample(rng.uniform(-3, 3, (4,)), 0.5, label="alpha")],
   torch=lambda torch, x, alpha=1.0: _F(torch).celu(x, alpha),
   kinks=[Kink(Sample(np.array([0.0, -0.0])), [np.array([1.0, 1.0])],
               "at 0 both branches have slope 1 (celu is C1)"),
          Kink(Sample(np.array([1000.0, np.inf])), [np.array([1.0, 1.0])], _LARGE)])
op("selu", prims=(), ref=lambda x: _SELU_SCALE * np.where(x > 0, x, _SELU_ALPHA * np.expm1(x)),
   dtypes=ALL, result=float_result, samples=unary((-3, 3)), tol=_TOL16, notes=_INT,
   torch=lambda torch, x: _F(torch).selu(x),
   kinks=[Kink(Sample(np.array([0.0])), [np.array([_SELU_SCALE * _SELU_ALPHA])],
               "at 0 the negative branch's slope, scale * alpha (PyTorch's too)"),
          Kink(Sample(np.array([1000.0, np.inf])), [np.array([_SELU_SCALE] * 2)], _LARGE)])
op("fast_gelu", prims=(), ref=lambda x: x * special.expit(1.702 * x), dtypes=ALL,
   result=float_result, samples=unary((-4, 4)), tol=_TOL16, torch=None, notes=_INT | {
       "formula": "x * sigmoid(1.702 x) (MindSpore's FastGeLU; PyTorch has no such op)"})
op("logsigmoid", prims=(), ref=lambda x: -np.logaddexp(0, -x), dtypes=ALL,
   result=float_result, samples=unary((-30, 30)), tol=_TOL16, notes=_INT | {
       "stability": "-softplus(-x): no overflow for large |x|"},
   torch_differs={"value:edge": Differs("logsigmoid(x) for huge x is -0.0 (-softplus(-x), "
                                        "as the formula); PyTorch gives +0.0",
                                        lambda x: x.astype(np.float64) > 1e30)},
   torch=lambda torch, x: _F(torch).logsigmoid(x))


def _glu_ref(x, axis=-1):
    a, b = np.split(x, 2, axis)
    return a * special.expit(b)


def _glu_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -3, 3)
    out = [Sample(r(3, 4), label="last axis"), Sample(r(4, 3), 0, label="axis 0"),
           Sample(r(2, 6, 2), -2, label="negative axis"), Sample(r(0, 2), label="empty"),
           Sample(r(3, 5), label="odd axis", raises=ValueError)]
    if dt.is_float(dtype):
        e = specials(dtype)
        out.append(Sample(np.stack([e, e[::-1]], -1), label="edge", smooth=False))
    return out


op("glu", prims=(), ref=_glu_ref, dtypes=ALL, result=float_result, samples=_glu_samples,
   tol=_TOL16, notes=_INT, torch=lambda torch, x, axis=-1: _F(torch).glu(x, axis))


# ---- piecewise-linear gates: at the bounds the gradient is clamp's ----------------------

def _hardsigmoid_ref(x):
    return np.clip(x / 6 + 0.5, 0, 1)


def _at_bounds(*bounds):
    return {"grad:edge": Differs(
        "at the bounds -3 / 3 and at NaN the gradient passes through clamp (clamp's rule: "
        "a bound belongs to the inside); PyTorch gives 0 there (hardswish: 0 and 1)",
        lambda x: np.isnan(x) | np.isin(x, bounds))}


def _gate_samples(dtype, rng, full):
    out = unary((-5, 5))(dtype, rng, full)
    if dt.is_float(dtype):
        out.append(Sample(np.array([-3.0, 3.0, -2.9, 2.9], dtype), label="bounds",
                          smooth=False))
    return out


op("hardsigmoid", prims=(), ref=_hardsigmoid_ref, dtypes=ALL, result=float_result,
   samples=_gate_samples, grad_samples=grad_unary((-5, 5)), tol=_TOL16, notes=_INT | {
       "vs PyTorch's autograd": "not compared: PyTorch's kernel multiplies by the float32 "
                                "constant 1.0f / 6.0f in double precision too (3e-8 off); "
                                "finite differences check ours"},
   torch=lambda torch, x: _F(torch).hardsigmoid(x), signed_zeros=False, torch_grad=False,
   torch_differs=_at_bounds(-3.0, 3.0) | {"grad:bounds": _at_bounds(-3.0, 3.0)["grad:edge"]},
   kinks=[Kink(Sample(np.array([-3.0, 3.0])), [np.array([1 / 6, 1 / 6])],
               "at -3 and 3 the slope inside, 1/6 (clamp's rule: the bound belongs to the "
               "inside); PyTorch gives 0", torch=False)])
op("hardswish", prims=(), ref=lambda x: x * _hardsigmoid_ref(x), dtypes=ALL,
   result=float_result, samples=_gate_samples, grad_samples=grad_unary((-5, 5)), tol=_TOL16,
   notes=_INT | {"-inf": "hardswish(-inf) is NaN (-inf * 0, as PyTorch; MindSpore 2.10 "
                         "gives 0)"},
   torch=lambda torch, x: _F(torch).hardswish(x),
   torch_differs=_at_bounds(-3.0, 3.0) | {"grad:bounds": _at_bounds(-3.0, 3.0)["grad:edge"],
                                          "value:edge": Differs(
       "hardswish(x) is x for x >= 3, also near the float maximum; PyTorch computes "
       "x (x + 3) / 6 and overflows to inf", lambda x: np.abs(x.astype(np.float64)) > 1e30)},
   kinks=[Kink(Sample(np.array([-3.0, 3.0])), [np.array([-0.5, 1.5])],
               "at -3 and 3 the slope inside, x / 3 + 0.5 (clamp's rule); PyTorch gives 0 "
               "and 1", torch=False)])


# ---- per-channel weights and biases --------------------------------------------------------

def _prelu_ref(x, weight):
    w = weight.reshape((1, -1) + (1,) * (x.ndim - 2)) if x.ndim >= 2 and weight.ndim else weight
    return np.where(x > 0, x, w * x)


def _prelu_samples(dtype, rng, full):
    def r(*shape, lo=-3, hi=3):
        return random(rng, shape, dtype, lo, hi)
    out = [Sample(r(2, 3, 4), r(3, lo=0, hi=1), label="per channel"),
           Sample(r(2, 3), r(1, lo=0, hi=1), label="one weight"),
           Sample(r(4, 3, 2, 2), r(3, lo=0, hi=1), label="4-d"),
           Sample(r(0, 3), r(3, lo=0, hi=1), label="empty"),
           Sample(r(2, 3), r(4), label="wrong channel count", raises=ValueError)]
    if dt.is_float(dtype):
        out.append(Sample(specials(dtype), np.array([0.25], dtype), label="edge", smooth=False))
    return out


op("prelu", prims=(), ref=_prelu_ref, dtypes=ALL, result=float_result,
   samples=_prelu_samples, tol=_TOL16, notes=_INT | {
       "weight": "one value, or one per channel (axis 1; axis 0 of a 1-d input)"},
   torch=lambda torch, x, w: _F(torch).prelu(x, w),
   kinks=[Kink(Sample(np.array([[0.0, -0.0]]), np.array([0.25, 0.5])),
               [np.array([[0.25, 0.5]]), np.array([0.0, 0.0])],
               "at 0 the negative branch: slope weight (PyTorch's choice too)")])


def _l2_normalize_ref(x, axis=0, epsilon=1e-4):
    return x / np.sqrt(np.maximum((x * x).sum(axis, keepdims=True), epsilon))


_OVERFLOW = ("a row whose sum of squares overflows the dtype (values near its maximum) "
             "normalises to 0 (x / inf: the formula in the input's dtype, as MindSpore's "
             "L2Normalize); PyTorch's norm and the float64 reference stay finite there")


def _overflowing_rows(x, *args):
    big = np.square(x.astype(np.float64)).sum(-1, keepdims=True) > float(finfo(x.dtype).max)
    return np.broadcast_to(big & np.isfinite(x.astype(np.float64)).all(-1, keepdims=True),
                           x.shape)


def _l2_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -2, 2)
    out = [Sample(r(3, 4), label="axis 0"), Sample(r(3, 4), 1, label="axis 1"),
           Sample(r(2, 3, 4), -1, 1e-2, label="epsilon"),
           Sample(np.full((3, 2), 1e-3, dtype) if dt.is_float(dtype) else r(3, 2), 0,
                  label="below epsilon"),
           Sample(r(0, 3), 1, label="empty")]
    if dt.is_float(dtype):
        out.append(Sample(specials(dtype).reshape(4, 4), 1, label="edge", smooth=False))
    return out


op("l2_normalize", prims=(), ref=_l2_normalize_ref, dtypes=ALL, result=float_result,
   samples=_l2_samples, tol=_TOL16, notes=_INT | {
       "epsilon": "x / sqrt(max(sum(x^2), epsilon)) (MindSpore's L2Normalize; PyTorch's "
                  "normalize is x / max(norm, eps): the same with eps = sqrt(epsilon))"},
   torch=lambda torch, x, axis=0, epsilon=1e-4: _F(torch).normalize(
       x, dim=axis, eps=math.sqrt(epsilon)), ms=None,
   ref_differs={"edge": Differs(_OVERFLOW, _overflowing_rows)},
   torch_differs={"value:edge": Differs(_OVERFLOW, _overflowing_rows),
                  "grad:edge": Differs(_OVERFLOW + "; the gradient there is NaN (inf / inf)",
                                       _overflowing_rows)})


def _bias_add_ref(x, bias, data_format="NCHW"):
    axis = x.ndim - 1 if data_format == "NHWC" else 1
    shape = [1] * x.ndim
    shape[axis] = -1
    return x + bias.reshape(shape)


def _bias_add_samples(dtype, rng, full):
    def r(*shape):
        return random(rng, shape, dtype, -3, 3)
    out = [Sample(r(2, 3, 4, 4), r(3), label="NCHW"), Sample(r(2, 4, 4, 3), r(3), "NHWC",
                                                               label="NHWC"),
           Sample(r(2, 3, 2, 2, 2), r(3), "NCDHW", label="NCDHW"),
           Sample(r(5, 3), r(3), label="2-d"), Sample(r(0, 3), r(3), label="empty batch"),
           Sample(r(3), r(3), label="1-d input", raises=ValueError),
           Sample(r(2, 3), r(3), "NCW", label="unknown format", raises=ValueError)]
    if dt.is_float(dtype):
        e = specials(dtype)
        out.append(Sample(np.stack([e, e[::-1]], 0).T.copy(), e[:2].copy(), label="edge",
                          smooth=False))
    return out


op("bias_add", prims=(), ref=_bias_add_ref, dtypes=NUMERIC, samples=_bias_add_samples,
   torch=None, notes={"dtypes": "bool is refused (MindSpore 2.10's BiasAdd refuses it)",
                      "layout": "the channel is axis 1 ('NCHW', 'NCDHW') or the last axis "
                                "('NHWC')"})
