"""Table entries: linear algebra products, norms and distances (kron, inner, ger, mv, the
scaled products addmm / addbmm / addmv / addr / baddbmm_ext, batch_dot, cross, inv,
matrix_norm, cdist, pdist, dist, renorm, cov), against NumPy / SciPy formulas."""
import numpy as np

from tensorjit import dtype as dt

from .core import op, Sample, ALL, accumulate
from .samples import random, mixed
from .table_linalg_extra import F16_64, INT_AND_FLOAT, MATMUL, TOL16

ADD_PRODUCT = (dt.int16, dt.int32, dt.int64) + F16_64
TOL_PRODUCT = {dt.float16: (1e-2, 1e-2), dt.float32: (1e-5, 1e-5), dt.float64: (1e-10, 1e-10)}


def _r(rng, dtype, *shape, lo=-2, hi=2):
    return random(rng, shape, dtype, lo, hi)


op("kron", ref=np.kron, dtypes=ALL, samples=lambda dtype, rng, full: [
    Sample(mixed(rng, (2, 2), dtype), _r(rng, dtype, 2, 3), label="2-D", smooth=False),
    Sample(_r(rng, dtype, 3), _r(rng, dtype, 2, 2), label="ranks differ"),
    Sample(_r(rng, dtype), _r(rng, dtype, 2), label="0-d"),
    Sample(_r(rng, dtype, 0, 2), _r(rng, dtype, 2), label="empty")],
   torch=lambda torch, a, b: torch.kron(a, b), promotes=True, weak_scalars=False,
   notes={"bool": "the product of bools is and, as mul's"})

op("inner", ref=np.inner, dtypes=MATMUL, tol=TOL_PRODUCT, samples=lambda dtype, rng, full: [
    Sample(_r(rng, dtype, 2, 3), _r(rng, dtype, 4, 3), label="2-D"),
    Sample(_r(rng, dtype, 3), _r(rng, dtype, 3), label="vectors"),
    Sample(_r(rng, dtype, 2, 3), _r(rng, dtype, 2), label="sizes differ", raises=ValueError)],
   torch=lambda torch, a, b: torch.inner(a, b))

op("ger", ref=np.outer, dtypes=F16_64, samples=lambda dtype, rng, full: [
    Sample(mixed(rng, (3,), dtype), _r(rng, dtype, 2), label="edge values", smooth=False),
    Sample(_r(rng, dtype, 0), _r(rng, dtype, 2), label="empty"),
    Sample(_r(rng, dtype, 2, 2), _r(rng, dtype, 2), label="2-D", raises=ValueError)],
   torch=lambda torch, a, b: torch.outer(a, b))

op("mv", ref=lambda m, v: m @ v, dtypes=MATMUL, tol=TOL_PRODUCT,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 2, 3), _r(rng, dtype, 3), label="2x3"),
       Sample(_r(rng, dtype, 2, 0), _r(rng, dtype, 0), label="empty contraction"),
       Sample(_r(rng, dtype, 2, 3), _r(rng, dtype, 4), label="sizes differ",
              raises=ValueError)],
   torch=lambda torch, m, v: torch.mv(m, v),
   ms_differs={"value:empty contraction": "MindSpore 2.10's CPU MatMul leaves the result of "
                                          "an empty contraction unset; the sum of no "
                                          "products is 0"})


def _scaled(x, product, beta, alpha):
    return beta * x + alpha * product


def _add_samples(make):
    def samples(dtype, rng, full):
        def r(*shape):
            return _r(rng, dtype, *shape)
        scales = dict(beta=2, alpha=3) if dt.is_int(dtype) else dict(beta=0.5, alpha=-1.5)
        return [Sample(*make(r), label="beta = alpha = 1"),
                Sample(*make(r), label="beta, alpha", **scales)]
    return samples


op("addmm", ref=lambda x, a, b, beta=1, alpha=1: _scaled(x, a @ b, beta, alpha),
   dtypes=MATMUL, tol=TOL_PRODUCT, samples=_add_samples(lambda r: (r(2, 4), r(2, 3), r(3, 4))),
   torch=lambda torch, x, a, b, beta=1, alpha=1: torch.addmm(x, a, b, beta=beta, alpha=alpha))
op("addbmm", ref=lambda x, a, b, beta=1, alpha=1: _scaled(x, np.sum(a @ b, 0), beta, alpha),
   dtypes=(dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32) + F16_64,
   tol=TOL_PRODUCT, result=accumulate,
   samples=_add_samples(lambda r: (r(2, 4), r(3, 2, 3), r(3, 3, 4))),
   notes={"dtype": "the sum over the batch accumulates integers in int64 (MindSpore's sum)"},
   torch=lambda torch, x, a, b, beta=1, alpha=1: torch.addbmm(x, a, b, beta=beta, alpha=alpha))
op("addmv", ref=lambda x, m, v, beta=1, alpha=1: _scaled(x, m @ v, beta, alpha),
   dtypes=ADD_PRODUCT, tol=TOL_PRODUCT, samples=_add_samples(lambda r: (r(2), r(2, 3), r(3))),
   torch=lambda torch, x, m, v, beta=1, alpha=1: torch.addmv(x, m, v, beta=beta, alpha=alpha))
op("addr", ref=lambda x, u, v, beta=1, alpha=1: _scaled(x, np.outer(u, v), beta, alpha),
   dtypes=ADD_PRODUCT, tol=TOL_PRODUCT, samples=_add_samples(lambda r: (r(2, 3), r(2), r(3))),
   torch=lambda torch, x, u, v, beta=1, alpha=1: torch.addr(x, u, v, beta=beta, alpha=alpha))
op("baddbmm_ext", ref=lambda x, a, b, beta=1, alpha=1: _scaled(x, a @ b, beta, alpha),
   dtypes=MATMUL, tol=TOL_PRODUCT,
   samples=_add_samples(lambda r: (r(2, 2, 4), r(2, 2, 3), r(2, 3, 4))),
   notes={"MindSpore": "Ascend only in MindSpore 2.10; the values follow ops.baddbmm"},
   torch=lambda torch, x, a, b, beta=1, alpha=1: torch.baddbmm(x, a, b, beta=beta,
                                                               alpha=alpha))


def _batch_dot_ref(x1, x2, axes=None):
    n1, n2 = x1.ndim, x2.ndim
    if axes is None:
        axes = (n1 - 1, n2 - 1) if n2 == 2 else (n1 - 1, n2 - 2)
    a1, a2 = axes
    out = np.stack([np.tensordot(a, b, (a1 - 1, a2 - 1)) for a, b in zip(x1, x2)])
    return out.reshape(out.shape + (1,)) if n1 == 2 and n2 == 2 else out


op("batch_dot", ref=_batch_dot_ref, dtypes=(dt.float32,), tol={dt.float32: (1e-5, 1e-5)},
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 2, 3, 4), _r(rng, dtype, 2, 4, 5), label="default axes"),
       Sample(_r(rng, dtype, 2, 3, 4), _r(rng, dtype, 2, 3, 2), (1, 1), label="axes (1, 1)"),
       Sample(_r(rng, dtype, 2, 3), _r(rng, dtype, 2, 3), label="2-D"),
       Sample(_r(rng, dtype, 2, 3), _r(rng, dtype, 3, 3), label="batches differ",
              raises=ValueError)],
   grad=False, notes={"dtype": "float32 only, as MindSpore's (so no float64 finite-difference "
                               "check: its gradient is the matmul's)"})

op("cross", ref=lambda a, b, dim=None: np.cross(a, b, axis=dim if dim is not None else
                                                 [d for d, n in enumerate(np.broadcast_shapes(
                                                     a.shape, b.shape)) if n == 3][0]),
   dtypes=INT_AND_FLOAT, samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 2, 3), _r(rng, dtype, 2, 3), label="rows"),
       Sample(_r(rng, dtype, 3, 2), _r(rng, dtype, 3, 2), 0, label="dim 0"),
       Sample(_r(rng, dtype, 2, 3), _r(rng, dtype, 1, 3), label="broadcast"),
       Sample(_r(rng, dtype, 2, 4), _r(rng, dtype, 2, 4), label="no size 3",
              raises=ValueError)],
   torch=lambda torch, a, b, dim=None: torch.linalg.cross(a, b, dim=-1 if dim is None and
                                                          a.shape[-1] == 3 else dim),
   ms_differs={"value:broadcast": "MindSpore 2.10's CPU Cross leaves the broadcast rows "
                                  "zero; the cross product broadcasts here"},
   notes={"integers": "wrap around in their dtype"})


def _inv_ref(x):
    if x.dtype.kind == "f":
        return 1.0 / x
    smallest = np.iinfo(x.dtype).min
    return np.where(np.abs(x) == 1, x, np.where(x == 0, smallest, 0)).astype(x.dtype)


op("inv", ref=_inv_ref, dtypes=(dt.int16, dt.int32, dt.int64) + F16_64,
   samples=lambda dtype, rng, full: [
       Sample(mixed(rng, (6,), dtype), label="edge values", smooth=False),
       Sample(np.array([2, -3, 1, -1, 0]).astype(dtype) if dt.is_int(dtype) else
              _r(rng, dtype, 2, 3, lo=0.5, hi=2), label="values", smooth=dt.is_float(dtype))],
   notes={"integers": "1 / x truncated: 0 but for +-1; 1 / 0 gives the dtype's smallest "
                      "value (MindSpore's CPU kernel)"},
   torch=None)


# ---- norms and distances ---------------------------------------------------------------------

op("matrix_norm", ref=lambda a, ord="fro", axis=(-2, -1), keepdims=False:
   np.linalg.norm(a, ord, tuple(axis), keepdims),
   dtypes=INT_AND_FLOAT, tol=TOL16, result=lambda d, **_: d if dt.is_float(d) else dt.float32,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), label="fro"),
       Sample(_r(rng, dtype, 2, 3, 2), "nuc", label="nuc, batched"),
       Sample(_r(rng, dtype, 3, 4), 2, label="2"),
       Sample(_r(rng, dtype, 3, 4), -2, (1, 0), True, label="-2, axes swapped, keepdims"),
       Sample(_r(rng, dtype, 3, 4), 1, label="1"),
       Sample(_r(rng, dtype, 3, 4), -np.inf, (0, 1), label="-inf"),
       Sample(_r(rng, dtype, 3, 4), 3, label="bad ord", raises=ValueError)],
   torch=lambda torch, a, ord="fro", axis=(-2, -1), keepdims=False:
   torch.linalg.matrix_norm(a, ord, axis, keepdims))


def _p_norm(d, p):
    if p == 0:
        return np.sum(d != 0, -1).astype(d.dtype)
    if np.isinf(p):
        return np.max(np.abs(d), -1)
    return np.sum(np.abs(d) ** p, -1) ** (1.0 / p)


def _distance_samples(make):
    def samples(dtype, rng, full):
        return [Sample(*make(rng, dtype), label="p = 2"),
                Sample(*make(rng, dtype), 1.0, label="p = 1"),
                Sample(*make(rng, dtype), 3.0, label="p = 3"),
                Sample(*make(rng, dtype), np.inf, label="p = inf", smooth=False),
                Sample(*make(rng, dtype), 0.0, label="p = 0", smooth=False),
                Sample(*make(rng, dtype), -1.0, label="p < 0", raises=ValueError)]
    return samples


op("cdist", ref=lambda a, b, p=2.0: _p_norm(a[..., :, None, :] - b[..., None, :, :], p),
   dtypes=F16_64, tol=TOL16,
   samples=_distance_samples(lambda rng, d: (_r(rng, d, 2, 3, 4), _r(rng, d, 2, 2, 4))),
   torch=lambda torch, a, b, p=2.0: torch.cdist(a, b, p))


def _pdist_ref(x, p=2.0):
    i, j = np.triu_indices(x.shape[0], 1)
    return _p_norm(x[i] - x[j], p)


op("pdist", ref=_pdist_ref, dtypes=F16_64, tol=TOL16,
   samples=_distance_samples(lambda rng, d: (_r(rng, d, 4, 3),)),
   torch=lambda torch, x, p=2.0: torch.nn.functional.pdist(x, p))
op("dist", ref=lambda a, b, p=2: _p_norm(np.reshape(a - b, (1, -1)), p)[0],
   dtypes=(dt.float16, dt.float32), tol=TOL16, grad=False,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 4), label="broadcast"),
       Sample(_r(rng, dtype, 3), _r(rng, dtype, 3), 1, label="p = 1"),
       Sample(_r(rng, dtype, 3), _r(rng, dtype, 3), 1.5, label="float p", raises=TypeError)],
   notes={"dtypes": "float16 and float32 only: MindSpore's CPU LpNorm"},
   torch=lambda torch, a, b, p=2: torch.dist(a, b, p))


def _renorm_ref(x, p, axis, maxnorm):
    others = tuple(i for i in range(x.ndim) if i != axis)
    norm = np.sum(np.abs(x) ** p, others, keepdims=True) ** (1.0 / p)
    return x * np.where(norm > maxnorm, maxnorm / (norm + 1e-7), 1.0)


op("renorm", ref=_renorm_ref, dtypes=F16_64, tol=TOL16, samples=lambda dtype, rng, full: [
    Sample(_r(rng, dtype, 3, 4), 2, 0, 1.0, label="rows, p = 2"),
    Sample(_r(rng, dtype, 2, 3, 2), 1, 1, 2.5, label="middle axis, p = 1"),
    Sample(_r(rng, dtype, 3, 4), 0, 0, 1.0, label="p = 0", raises=ValueError)],
    torch=lambda torch, x, p, axis, maxnorm: torch.renorm(x, p, axis, maxnorm))


def _cov_ref(x, correction=1, fweights=None, aweights=None):
    return np.cov(x, ddof=correction, fweights=fweights, aweights=aweights)


op("cov", ref=_cov_ref, dtypes=(dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8) + F16_64,
   tol=TOL16, result=lambda d, *_, **__: d if d in (dt.float32, dt.float64) else dt.float32,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 5), label="3 variables"),
       Sample(_r(rng, dtype, 5), correction=0, label="1-D, biased"),
       Sample(_r(rng, dtype, 2, 4), fweights=np.array([1, 2, 1, 3], np.int32),
              label="frequency weights"),
       Sample(_r(rng, dtype, 2, 3, 4), label="3-D", raises=ValueError)],
   notes={"dtype": "float16 and integers compute in float32 (MindSpore)"},
   torch=lambda torch, x, correction=1, fweights=None, aweights=None:
   torch.cov(x, correction=correction, aweights=aweights,
             fweights=None if fweights is None else torch.as_tensor(fweights)))
