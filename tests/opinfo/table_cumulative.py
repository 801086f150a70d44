"""Table entries: cumulative ops along an axis (cumsum, cumprod, cummax, cummin,
logcumsumexp)."""
import numpy as np
from scipy import special

from tensorjit import dtype as dt

from .core import op, Sample, Kink, Differs, ErrorCase, ALL, NUMERIC, accumulate, float_result
from .samples import random, specials, edge_rows


def scans(domain=(-2.0, 2.0), int_domain=(-3, 3)):
    """Samples of ``op(x, axis)``: every axis form, 0-d, empty axes, edge values in a
    vector and in rows."""
    def make(dtype, rng, full):
        lo, hi = domain if dt.is_float(dtype) or dtype == dt.bool_ else int_domain
        if dtype.kind == "u":
            lo = 0

        def r(*shape):
            return random(rng, shape, dtype, lo, hi)
        out = [Sample(r(3, 4), 1, label="axis 1"), Sample(r(3, 4), 0, label="axis 0"),
               Sample(r(2, 3, 4), -1, label="negative axis"), Sample(r(6), 0, label="vector"),
               Sample(r(), 0, label="0-d"), Sample(r(0), 0, label="empty"),
               Sample(r(2, 0), 1, label="empty axis"), Sample(r(0, 3), 1, label="no rows"),
               Sample(specials(dtype), 0, label="edge", smooth=False),
               Sample(edge_rows(dtype), 1, label="edge rows", smooth=False)]
        if full:
            out += [Sample(r(4, 64), 1, label="long rows"), Sample(r(3, 4, 5), 1, label="3-d")]
        return out
    return make


def _accumulated(fn):
    def ref(x, axis, dtype=None):
        return fn(x, axis=axis % max(x.ndim, 1), dtype=dtype or accumulate(x.dtype)).reshape(
            x.shape) if x.ndim else x.astype(dtype or accumulate(x.dtype))
    return ref


def _cumsum_samples(dtype, rng, full):
    out = scans()(dtype, rng, full)
    out.append(Sample(random(rng, (3, 4), dtype, 0, 3), 1, dtype=dt.float64,
                      label="dtype float64"))
    return out


_FIRST_ZERO = {"value:edge rows": Differs(
    "a scan starts from its first element, so -0.0 stays -0.0 (NumPy); PyTorch starts from "
    "+0.0", lambda x, *axis: x == 0)}
_ACC = {"dtypes": "bool, signed integers and uint8 accumulate in int64, as sum does "
                  "(MindSpore 2.10's cumprod does too; its cumsum keeps the input dtype and "
                  "refuses bool; NumPy and PyTorch widen both)"}
op("cumsum", ref=_accumulated(np.cumsum), dtypes=ALL, samples=_cumsum_samples,
   errors=[ErrorCase(Sample(np.ones((2, 3)), 2), IndexError, "cumsum:", "an axis out of range")],
   result=lambda x, dtype=None: dtype or accumulate(x),
   method=lambda x, axis, dtype=None: x.cumsum(axis, dtype),
   torch=lambda torch, x, axis, dtype=None: torch.cumsum(x, axis, dtype=None if dtype is None
                                                         else torch.float64),
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)}, notes=_ACC,
   torch_differs=_FIRST_ZERO)
op("cumprod", ref=_accumulated(np.cumprod), dtypes=ALL, result=accumulate,
   samples=scans((-1.5, 1.5), (-2, 2)), method="cumprod",
   torch=lambda torch, x, axis: torch.cumprod(x, axis),
   tol={dt.float16: (4e-3, 4e-3), dt.bfloat16: (3e-2, 3e-2)}, notes=_ACC | {
       "gradient": "exact at zeros: before the first zero the prefix products divided by "
                   "x_i, at the first zero the products that skip it, after it 0 "
                   "(PyTorch, MindSpore)"},
   torch_differs={}, kinks=[
       Kink(Sample(np.array([2.0, 0.0, 3.0, 0.0, 5.0]), 0), [np.array([1.0, 8.0, 0.0, 0.0, 0.0])],
            "the gradient at zeros is the sum of the products that skip them"),
       Kink(Sample(np.array([[0.0, 2.0, 3.0], [1.0, 2.0, 0.0]]), 1),
            [np.array([[9.0, 0.0, 0.0], [3.0, 1.0, 2.0]])], "a zero first or last in a row")])


def _running_ref(better):
    """(running extremum, its index): an element takes over when it is NaN or, while the
    extremum is not NaN, at least as good (ties move to the later index)."""
    def ref(x, axis):
        axis = axis % max(x.ndim, 1)
        rows = np.moveaxis(np.atleast_1d(x), axis, -1)
        values, index = np.empty_like(rows), np.zeros(rows.shape, np.int64)
        for pos in np.ndindex(rows.shape[:-1]):
            best, at = None, 0
            for k, v in enumerate(rows[pos]):
                if best is None or np.isnan(v) or (not np.isnan(best) and better(v, best)):
                    best, at = v, k
                values[pos + (k,)], index[pos + (k,)] = best, at
        shape = x.shape
        return (np.moveaxis(values, -1, axis).reshape(shape),
                np.moveaxis(index, -1, axis).reshape(shape))
    return ref


_EXTREMUM_NOTE = {"ties": "a tie moves the index to the later position; after a NaN only a "
                          "later NaN moves it (MindSpore, PyTorch)",
                  "indices": "int64 (PyTorch; MindSpore 2.10 gives int32 for cummin)",
                  "gradient": "the cotangent of each running extremum goes to the position "
                              "its index names"}
op("cummax", ref=_running_ref(lambda v, best: v >= best), dtypes=NUMERIC,
   result=lambda x: (x, dt.int64), samples=scans(), method="cummax", notes=_EXTREMUM_NOTE,
   torch=lambda torch, x, axis: tuple(torch.cummax(x, axis)),
   kinks=[Kink(Sample(np.array([2.0, 1.0, 3.0, 3.0, 5.0]), 0),
               [np.array([2.0, 0.0, 1.0, 1.0, 1.0])], "a tie's cotangent goes to the later "
                                                      "index")])
op("cummin", ref=_running_ref(lambda v, best: v <= best), dtypes=NUMERIC,
   result=lambda x: (x, dt.int64), samples=scans(), method="cummin", notes=_EXTREMUM_NOTE,
   torch=lambda torch, x, axis: tuple(torch.cummin(x, axis)))


def _logcumsumexp_ref(x, axis):
    """out_k = logsumexp(x_0 .. x_k), from SciPy, one prefix at a time."""
    axis = axis % max(x.ndim, 1)
    rows = np.moveaxis(np.atleast_1d(x), axis, -1)
    out = np.empty(rows.shape)
    for k in range(rows.shape[-1]):
        out[..., k] = special.logsumexp(rows[..., :k + 1], axis=-1)
    return np.moveaxis(out, -1, axis).reshape(x.shape)


op("logcumsumexp", ref=_logcumsumexp_ref, dtypes=ALL, result=float_result,
   samples=scans((-3, 3)), method="logcumsumexp",
   torch=lambda torch, x, axis: torch.logcumsumexp(x, axis), signed_zeros=False,
   torch_differs={"grad:edge rows": Differs(
       "in a row holding values near the float maximum the gradient's log-space sums lose "
       "it (0 where PyTorch gives the cotangent)", lambda x, *axis: np.broadcast_to(
           (np.abs(x) > 1e300).any(-1, keepdims=True), x.shape))},
   notes={"dtypes": "bool and integers compute in float32 (MindSpore 2.10 refuses them)",
          "signed zeros": "the first element is x_0 itself, so -0.0 stays -0.0 (SciPy and "
                          "PyTorch give +0.0)"})
