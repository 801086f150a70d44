"""Table entries: reductions (sum, prod, mean, max / min, any / all, argmax / argmin, var,
std, logsumexp, norms) -- every axis form, keepdims, empty axes, edge values."""
import numpy as np
from scipy import special

from tensorjit import dtype as dt

from .core import (op, Sample, Kink, Differs, ALL, FLOATS, accumulate, float_result, bool_result,
                   int64_result)
from .samples import reduction, random


def _axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def _dim(x, axis):
    """PyTorch's dim argument for our axis (None: every axis)."""
    return tuple(range(x.ndim)) if axis is None else axis


def _np_reduce(fn, dtype_rule=None):
    def ref(x, axis=None, keepdims=False, **kw):
        if dtype_rule is not None:
            kw["dtype"] = dtype_rule(x.dtype)
        return fn(x, axis=_axis(axis), keepdims=keepdims, **kw)
    return ref


def _torch_prod(torch, x, axis, keepdims):
    """torch.prod takes one dim: reduce the axes one at a time, last first."""
    axes = range(x.ndim) if axis is None else ((axis,) if isinstance(axis, int) else axis)
    for a in sorted((a % max(x.ndim, 1) for a in axes), reverse=True):
        x = torch.prod(x, a, keepdims)
    return x


_ACC_NOTE = {"dtypes": "bool, signed integers and uint8 accumulate in int64; uint16 / uint32 / "
                       "uint64 keep their dtype and wrap (MindSpore 2.10; NumPy widens every "
                       "integer, PyTorch has no such uints)"}

op("sum", ref=_np_reduce(np.sum, accumulate), dtypes=ALL, result=accumulate,
   samples=reduction(), aliases=("reduce_sum",), prims=("reduce_sum",),
   method=lambda x, axis=None, keepdims=False: x.sum(axis, keepdims=keepdims),
   torch=lambda torch, x, axis=None, keepdims=False: torch.sum(x, _dim(x, axis), keepdims),
   notes=_ACC_NOTE | {"empty": "a sum over an empty axis is 0"})
op("prod", ref=_np_reduce(np.prod, accumulate), dtypes=ALL, result=accumulate,
   samples=reduction(domain=(-1.5, 1.5), int_domain=(-3, 3)), prims=("reduce_prod",),
   method="prod",
   torch=lambda torch, x, axis=None, keepdims=False: _torch_prod(torch, x, axis, keepdims),
   torch_differs={"grad:edge rows": Differs(
       "in a row with an infinite or NaN element the gradient is out / x (NaN at inf / inf); "
       "PyTorch multiplies the other elements", lambda x, *rest: (
           ~np.isfinite(x) | (np.abs(x) > 1e300)).any(axis=-1, keepdims=True))},
   kinks=[Kink(Sample(np.array([1.0, 0.0, 3.0]), None, False), [np.array([0.0, 3.0, 0.0])],
               "at a single zero the gradient is the product of the other elements "
               "(MindSpore, PyTorch)"),
          Kink(Sample(np.array([[0.0, 2.0, 0.0], [2.0, 3.0, 4.0]]), 1, False),
               [np.array([[0.0, 0.0, 0.0], [12.0, 8.0, 6.0]])],
               "with two zeros every partial product contains a zero")],
   notes=_ACC_NOTE | {"empty": "a product over an empty axis is 1",
                      "bool": "the product of bools is int64 (MindSpore, NumPy, PyTorch)"})
op("mean", ref=_np_reduce(np.mean), dtypes=ALL, result=float_result,
   samples=reduction(), aliases=("reduce_mean",), method="mean",
   torch=lambda torch, x, axis=None, keepdims=False: torch.mean(x, _dim(x, axis), keepdims),
   notes={"dtypes": "the mean of bool or integers is float32 (PyTorch refuses them; "
                    "MindSpore 2.10 returns the integer dtype, truncating)",
          "empty": "a mean over an empty axis is NaN (NumPy, MindSpore, PyTorch)"})


def _extremum(name, fn, torch_name, **extra):
    op(name, ref=_np_reduce(fn), dtypes=ALL, samples=reduction(empty_raises=ValueError),
       torch=lambda torch, x, axis=None, keepdims=False: getattr(torch, torch_name)(
           x, _dim(x, axis), keepdims),
       notes={"empty": "over an empty axis it raises ValueError (NumPy, PyTorch; MindSpore "
                       "2.10's CPU kernel returns uninitialised memory)",
              "ties": "tied extrema share the gradient evenly (MindSpore, PyTorch's amax)",
              "NaN": "NaN propagates"}, **extra)


_extremum("amax", np.max, "amax", prims=("reduce_max",), aliases=("reduce_max",),
          method="amax", kinks=[Kink(Sample(np.array([[1.0, 3.0, 3.0]]), 1, False),
                                     [np.array([[0.0, 0.5, 0.5]])],
                                     "tied maxima share the gradient evenly")])
_extremum("amin", np.min, "amin", prims=("reduce_min",), aliases=("reduce_min",),
          method="amin", kinks=[Kink(Sample(np.array([[2.0, -1.0, -1.0]]), 1, False),
                                     [np.array([[0.0, 0.5, 0.5]])],
                                     "tied minima share the gradient evenly")])
_extremum("max", np.max, "amax", prims=(), method="max")
_extremum("min", np.min, "amin", prims=(), method="min")

for _name, _fn in (("any", np.any), ("all", np.all)):
    op(_name, ref=_np_reduce(_fn), dtypes=ALL, result=bool_result, samples=reduction(),
       prims=(f"reduce_{_name}",), method=_name, grad=False,
       torch=lambda torch, x, axis=None, keepdims=False, _f=_name: (
           getattr(torch, _f)(x) if axis is None else
           getattr(torch, _f)(x, _dim(x, axis), keepdims)),
       notes={"dtypes": "any value is true when it is not 0 (NaN is true)"})


def _arg_ref(fn):
    def ref(x, axis=None, keepdims=False):
        out = fn(x.reshape(-1) if axis is None else x, axis=0 if axis is None else axis)
        if keepdims:
            out = np.reshape(out, (1,) * x.ndim) if axis is None else np.expand_dims(out, axis)
        return np.asarray(out, np.int64)
    return ref


for _name, _fn in (("argmax", np.argmax), ("argmin", np.argmin)):
    op(_name, ref=_arg_ref(_fn), dtypes=ALL, result=int64_result, grad=False, method=_name,
       samples=reduction(multi_axis=False, empty_raises=ValueError),
       torch=lambda torch, x, axis=None, keepdims=False, _f=_name: getattr(torch, _f)(
           x, axis, keepdims),
       notes={"ties": "the first of tied extrema, NaN counting as the extremum (NumPy, "
                      "PyTorch)", "empty": "over an empty axis it raises ValueError"})


# ---- statistics -----------------------------------------------------------------------

def _moment(fn):
    def ref(x, axis=None, keepdims=False, ddof=0):
        return fn(x, axis=_axis(axis), ddof=ddof, keepdims=keepdims)
    return ref


def _stat_samples(dtype, rng, full):
    out = reduction(keepdims=False, extra=[{}, {"ddof": 1}])(dtype, rng, full)
    out.append(Sample(random(rng, (2, 1), dtype), 1, ddof=1, label="ddof = n: NaN"))
    out.append(Sample(random(rng, (2, 3), dtype), 1, ddof=5, label="ddof > n"))
    return out


_STAT_NOTE = {
    "dtypes": "bool and integers compute in float32 (PyTorch refuses them)",
    "degrees of freedom": "an empty axis or ddof >= n divides by max(n - ddof, 0): NaN for "
                          "0 / 0, inf otherwise (NumPy's rule; MindSpore and PyTorch give "
                          "NaN)"}
_CONSTANT = Sample(np.array([[2.0, 2.0, 2.0], [-1.0, -1.0, -1.0]]), 1)
_DDOF = Differs("with ddof > n the divisor is NumPy's max(n - ddof, 0) (PyTorch divides by "
                "the negative count)")
_STAT_TORCH = {"value:ddof > n": _DDOF, "grad:ddof > n": _DDOF,
               "grad:edge rows": Differs("at infinite inputs the gradient is NaN (inf - inf); "
                                         "PyTorch gives -inf"),
               "grad:edge rows ddof=1": Differs("at infinite inputs the gradient is NaN "
                                                "(inf - inf); PyTorch gives -inf")}
_SQUARES = Differs("float32 squares overflow past |x - mean| ~ 1.8e19, so such rows give inf "
                   "(NumPy and PyTorch accumulate in float64; float16 and bfloat16 compute "
                   "in float32 here)", lambda x, *rest: np.abs(x.astype(np.float64)).max(
                       axis=-1) > 1e19)
_OVERFLOW = {"edge rows": _SQUARES, "edge rows ddof=1": _SQUARES}
op("var", ref=_moment(np.var), dtypes=ALL, result=float_result, samples=_stat_samples,
   method="var", notes=_STAT_NOTE, torch=lambda torch, x, axis=None, ddof=0: torch.var(
       x, _dim(x, axis), correction=ddof),
   torch_differs=_STAT_TORCH | {"value:edge rows": _SQUARES, "value:edge rows ddof=1": _SQUARES},
   ref_differs=_OVERFLOW,
   kinks=[Kink(_CONSTANT, [np.zeros((2, 3))], "a constant row has gradient 0 (MindSpore, "
                                                "PyTorch)")])
op("std", ref=_moment(np.std), dtypes=ALL, result=float_result, samples=_stat_samples,
   method="std", notes=_STAT_NOTE | {
       "gradient": "0 where the variance is 0 (a constant row): the subgradient of a "
                   "norm at its minimum, as abs gets 0 at 0; MindSpore and PyTorch give NaN"},
   torch=lambda torch, x, axis=None, ddof=0: torch.std(x, _dim(x, axis), correction=ddof),
   torch_differs=_STAT_TORCH | {"value:edge rows": _SQUARES, "value:edge rows ddof=1": _SQUARES},
   ref_differs=_OVERFLOW,
   kinks=[Kink(_CONSTANT, [np.zeros((2, 3))], "a constant row has gradient 0, not NaN",
               torch=False)])
op("logsumexp", ref=lambda x, axis=None, keepdims=False: special.logsumexp(
    x, axis=_axis(axis), keepdims=keepdims), dtypes=ALL, result=float_result,
   samples=reduction(), method="logsumexp",
   torch=lambda torch, x, axis=None, keepdims=False: torch.logsumexp(x, _dim(x, axis), keepdims),
   notes={"empty": "over an empty axis it is -inf, the log of an empty sum (MindSpore, "
                   "PyTorch, SciPy)",
          "dtypes": "bool and integers compute in float32 (MindSpore 2.10 refuses them)"})


# ---- norms ---------------------------------------------------------------------------------

def _norm_samples(dtype, rng, full):
    x = random(rng, (3, 4), dtype)
    return [Sample(x, label="all"), Sample(x, dim=1, label="dim 1"),
            Sample(x, dim=0, keepdim=True, label="dim 0 keepdim"),
            Sample(np.zeros((2, 3), dtype), dim=1, label="zero rows", smooth=False),
            Sample(np.zeros((2, 0), dtype), dim=1, label="empty axis"),
            Sample(random(rng, (), dtype), label="0-d")]


op("norm", ref=lambda x, ord=None, dim=None, keepdim=False: np.sqrt(np.sum(
    x * x, axis=dim, keepdims=keepdim)), dtypes=ALL, result=float_result,
   samples=_norm_samples, prims=(),
   torch=lambda torch, x, dim=None, keepdim=False: torch.linalg.vector_norm(
       x, dim=dim, keepdim=keepdim),
   kinks=[Kink(Sample(np.zeros((2, 3)), dim=1), [np.zeros((2, 3))],
               "at the zero vector the gradient is 0, the subgradient of a norm at its "
               "minimum (PyTorch)")],
   notes={"ord": "the 2-norm / Frobenius norm only (ord None, 2 or 'fro')"})


def _normalize_ref(x, p=2.0, dim=1, epsilon=1e-12):
    return x / np.maximum(np.sqrt(np.sum(x * x, axis=dim, keepdims=True)), epsilon)


def _normalize_samples(dtype, rng, full):
    return [Sample(random(rng, (3, 4), dtype), label="dim 1"),
            Sample(random(rng, (3, 4), dtype), dim=0, label="dim 0"),
            Sample(np.zeros((2, 3), dtype), label="zero rows", smooth=False),
            Sample(np.zeros((0, 3), dtype), label="empty")]


op("normalize", ref=_normalize_ref, dtypes=ALL, result=float_result,
   samples=_normalize_samples, prims=(),
   torch=lambda torch, x, dim=1: torch.nn.functional.normalize(x, dim=dim),
   notes={"zero": "a zero row stays 0 (divided by epsilon), as in PyTorch"})


def _sum_to_samples(dtype, rng, full):
    return [Sample(random(rng, (2, 3, 4), dtype), (3, 1), label="to (3, 1)"),
            Sample(random(rng, (2, 3, 4), dtype), (1, 4), label="to (1, 4)"),
            Sample(random(rng, (3, 4), dtype), (3, 4), label="same shape"),
            Sample(random(rng, (2, 3), dtype), (), label="to 0-d"),
            Sample(np.zeros((2, 0), dtype), (1, 0), label="empty")]


def _sum_to_ref(x, shape):
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape)
                                      if d == 1 and x.shape[lead + i] != 1)
    return np.sum(x, axis=axes, keepdims=True).reshape(shape) if axes else x


op("sum_to", ref=_sum_to_ref, dtypes=ALL, samples=_sum_to_samples, prims=(),
   torch=None, ms=None, notes={"use": "the transpose of broadcasting (gradients of "
                                      "broadcast operands)"})
