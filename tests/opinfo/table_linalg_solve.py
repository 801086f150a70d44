"""Table entries: factorizations and solves (cholesky and its solves, svd, pinv, lstsq,
slogdet / logdet, matrix_exp, matrix_power, LU unpacking and solving, Householder QR and
LAPACK's geqrf / orgqr / ormqr), against NumPy's and SciPy's LAPACK-based linalg."""
import numpy as np
import scipy.linalg

from tensorjit import dtype as dt

from .core import op, Sample, ErrorCase, Differs
from .samples import random
from .table_linalg_extra import F16_64

F32_64 = (dt.float32, dt.float64)
TOL = {dt.float16: (2e-2, 2e-2), dt.float32: (2e-4, 2e-4), dt.float64: (1e-9, 1e-9)}
GRAD = dict(fd=(1e-6, 1e-5))


def _well(rng, dtype, *shape):
    """Random matrices plus n on the diagonal: far from singular."""
    m, n = shape[-2:]
    return (rng.uniform(-1, 1, shape) + max(m, n) * np.eye(m, n)).astype(dtype)


def _spd(rng, dtype, *shape):
    a = rng.uniform(-1, 1, shape)
    return (a @ np.swapaxes(a, -1, -2) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def _lower(rng, dtype, *shape):
    return np.linalg.cholesky(_spd(rng, np.float64, *shape)).astype(dtype)


def _r(rng, dtype, *shape):
    return random(rng, shape, dtype, -2, 2)


def _square_error(name):
    return [ErrorCase(Sample(np.ones((2, 3))), ValueError, name, "a non-square matrix")]


op("cholesky", ref=lambda a, upper=False: np.swapaxes(np.linalg.cholesky(a), -1, -2)
   if upper else np.linalg.cholesky(a), dtypes=F16_64, tol=TOL, **GRAD,
   samples=lambda dtype, rng, full: [
       Sample(_spd(rng, dtype, 3, 3), label="3x3"),
       Sample(_spd(rng, dtype, 2, 2, 2), True, label="batched, upper"),
       Sample(np.array([[1.0, 2.0], [2.0, 1.0]], dtype), label="not positive definite",
              raises=RuntimeError)],
   errors=_square_error("cholesky"), torch_grad=False, fuzz=False,
   torch=lambda torch, a, upper=False: torch.linalg.cholesky(a, upper=upper),
   notes={"gradient": "of the triangle the kernel reads (LAPACK's potrf reads only the "
                      "lower one, the upper with upper=True); PyTorch's is symmetrized",
          "fuzz feed": "off: the fuzzer's second input set shuffles the values, which "
                       "leaves no positive-definite matrix (RuntimeError, as MindSpore)"})
op("cholesky_inverse", ref=lambda l, upper=False: np.linalg.inv(
    l.T @ l if upper else l @ l.T), dtypes=F16_64, tol=TOL, **GRAD,
   samples=lambda dtype, rng, full: [
       Sample(_lower(rng, dtype, 3, 3), label="lower"),
       Sample(_lower(rng, dtype, 2, 2).T.copy(), True, label="upper")],
   torch=lambda torch, l, upper=False: torch.cholesky_inverse(l, upper=upper))
op("cholesky_solve", ref=lambda b, l, upper=False: np.linalg.solve(
    np.swapaxes(l, -1, -2) @ l if upper else l @ np.swapaxes(l, -1, -2), b), dtypes=F32_64,
   tol=TOL, **GRAD, samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 2), _lower(rng, dtype, 3, 3), label="lower"),
       Sample(_r(rng, dtype, 2, 3, 1), np.swapaxes(_lower(rng, dtype, 2, 3, 3), -1, -2).copy(),
              True, label="batched, upper")],
   torch=lambda torch, b, l, upper=False: torch.cholesky_solve(b, l, upper=upper))
op("matrix_solve", prims=("solve",), ref=lambda a, b, adjoint=False: np.linalg.solve(
    np.swapaxes(a, -1, -2) if adjoint else a, b), dtypes=F16_64, tol=TOL, **GRAD,
   samples=lambda dtype, rng, full: [
       Sample(_well(rng, dtype, 3, 3), _r(rng, dtype, 3, 2), label="3x3"),
       Sample(_well(rng, dtype, 2, 2, 2), _r(rng, dtype, 2, 2, 1), True, label="adjoint"),
       Sample(np.zeros((2, 2), dtype), _r(rng, dtype, 2, 1), label="singular",
              raises=RuntimeError)],
   torch=lambda torch, a, b, adjoint=False: torch.linalg.solve(a.mT if adjoint else a, b))


def _svd_ref(a, full_matrices=False, compute_uv=True):
    if not compute_uv:
        return np.linalg.svd(a, compute_uv=False)
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return s, u, np.swapaxes(vh, -1, -2)


op("svd", ref=_svd_ref, dtypes=F32_64, tol=TOL, **GRAD, samples=lambda dtype, rng, full: [
    Sample(_r(rng, dtype, 4, 3), label="tall"),
    Sample(_r(rng, dtype, 2, 2, 3), label="batched, wide"),
    Sample(_r(rng, dtype, 3, 3), False, False, label="values only"),
    Sample(_r(rng, dtype, 3, 2), True, label="full matrices", smooth=False)],
   ms_differs={f"value:{label}": "singular vectors' signs: LAPACK's (NumPy's, PyTorch's); "
                                 "MindSpore's CPU kernel picks the opposite ones (u diag(s) "
                                 "v^T is the same)"
               for label in ("tall", "batched, wide", "full matrices")},
   torch=None, notes={"signs": "singular vectors' signs are LAPACK's (NumPy's)",
                      "gradient": "for distinct singular values; with full_matrices the "
                                  "columns beyond min(m, n) get none (PyTorch's)"})
op("pinv", ref=lambda a: np.linalg.pinv(a), dtypes=F32_64, tol=TOL, **GRAD,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 4, 3), label="tall"), Sample(_r(rng, dtype, 2, 3), label="wide"),
       Sample(np.diag([2.0, 0.0]).astype(dtype), label="rank deficient", smooth=False)],
   torch=lambda torch, a: torch.linalg.pinv(a),
   torch_differs={"grad:rank deficient": Differs(
       "the gradient goes through the SVD's, which divides by the zero singular value "
       "(NaN); PyTorch's pinv has its own backward")})
op("lstsq", ref=lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0], dtypes=F16_64, tol=TOL,
   **GRAD, samples=lambda dtype, rng, full: [
       Sample(_well(rng, dtype, 4, 2), _r(rng, dtype, 4, 3), label="overdetermined"),
       Sample(_well(rng, dtype, 2, 3), _r(rng, dtype, 2, 1), label="minimum norm")],
   torch=None, notes={"method": "normal equations (full-rank inputs, as MindSpore's)"})

_DET_SAMPLES = lambda dtype, rng, full: [  # noqa: E731
    Sample(_well(rng, dtype, 3, 3), label="3x3"),
    Sample((-_well(rng, np.float64, 2, 3, 3)).astype(dtype), label="batched, negative determinant"),
    Sample(np.array([[0.0, 1.0], [1.0, 0.0]], dtype), label="swap")]
op("slogdet", ref=np.linalg.slogdet, dtypes=F16_64, tol=TOL, **GRAD, samples=_DET_SAMPLES,
   errors=_square_error("slogdet"), torch=lambda torch, a: tuple(torch.linalg.slogdet(a)))
op("log_matrix_determinant", ref=np.linalg.slogdet, dtypes=F16_64, tol=TOL, **GRAD,
   samples=_DET_SAMPLES, torch=lambda torch, a: tuple(torch.linalg.slogdet(a)))
op("logdet", ref=lambda a: np.log(np.linalg.det(a)), dtypes=F16_64, tol=TOL, **GRAD,
   samples=_DET_SAMPLES, torch=lambda torch, a: torch.logdet(a),
   notes={"negative determinant": "NaN"})
op("matrix_exp", ref=scipy.linalg.expm, dtypes=F16_64, tol=TOL, **GRAD,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 3), label="3x3"), Sample(_r(rng, dtype, 2, 2, 2), label="batched"),
       Sample(np.zeros((0, 0), dtype), label="empty")],
   torch=lambda torch, a: torch.linalg.matrix_exp(a),
   notes={"MindSpore": "MindSpore 2.10 has no CPU kernel for MatrixExp"})
op("matrix_power", ref=lambda a, n: np.linalg.matrix_power(a, n),
   dtypes=(dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8) + F32_64, tol=TOL, **GRAD,
   samples=lambda dtype, rng, full: [
       Sample(random(rng, (3, 3), dtype, -1, 1), 3, label="cube"),
       Sample(random(rng, (2, 2, 2), dtype, -1, 1), 0, label="identity"),
       Sample(_well(rng, dtype, 3, 3), -2, label="inverse squared")
       if dt.is_float(dtype) else Sample(random(rng, (2, 2), dtype, 0, 2), 5, label="fifth")],
   torch=lambda torch, a, n: torch.linalg.matrix_power(a, n))


def _lu_sample(rng, dtype, *shape):
    """A packed LU factorization (LAPACK's getrf, through SciPy) and its 1-based pivots."""
    a = rng.uniform(-2, 2, shape)
    packed, pivots = [], []
    for m in a.reshape((-1,) + shape[-2:]):
        lu, piv = scipy.linalg.lu_factor(m)
        packed.append(lu)
        pivots.append(piv + 1)
    return (np.array(packed).reshape(shape).astype(dtype),
            np.array(pivots, np.int32).reshape(shape[:-2] + (min(shape[-2:]),)))


def _unpack_ref(lu, pivots, unpack_data=True, unpack_pivots=True):
    m, n = lu.shape[-2:]
    k = min(m, n)
    lower = np.tril(lu[..., :, :k], -1) + np.eye(m, k)
    upper = np.triu(lu[..., :k, :])
    perms = []
    for piv in pivots.reshape(-1, k):
        p = np.eye(m)
        for i, j in enumerate(piv - 1):     # A = P L U: the swaps undone on the identity
            p[:, [i, j]] = p[:, [j, i]]
        perms.append(p)
    return np.array(perms).reshape(pivots.shape[:-1] + (m, m)), lower, upper


op("lu_unpack", ref=_unpack_ref,
   dtypes=(dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8) + F16_64, tol=TOL, **GRAD,
   result=lambda d, *_: (d, d, d),
   samples=lambda dtype, rng, full: [
       Sample(*_lu_sample(rng, dtype, 3, 3), label="3x3"),
       Sample(*_lu_sample(rng, dtype, 2, 4, 3), label="batched, tall")],
   torch=lambda torch, lu, piv: tuple(torch.lu_unpack(lu, piv)))
def _lu_solve_ref(b, lu, pivots):
    def stack(x, tail):
        return x.reshape((-1,) + x.shape[-tail:])
    return np.stack([scipy.linalg.lu_solve((m, p - 1), c) for c, m, p in
                     zip(stack(b, 2), stack(lu, 2), stack(pivots, 1))]).reshape(b.shape)


op("lu_solve", ref=_lu_solve_ref,
   dtypes=F16_64, tol=TOL, **GRAD, samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 2), *_lu_sample(rng, dtype, 3, 3), label="3x3"),
       Sample(_r(rng, dtype, 2, 2, 1), *_lu_sample(rng, dtype, 2, 2, 2), label="batched")],
   torch=lambda torch, b, lu, piv: torch.linalg.lu_solve(lu, piv, b))


# ---- Householder QR ---------------------------------------------------------------------------

def _geqrf_ref(a):
    h, tau = np.linalg.qr(a, mode="raw")
    return np.swapaxes(h, -1, -2), tau


def _packed(rng, dtype, *shape):
    return tuple(t.astype(dtype) for t in _geqrf_ref(_r(rng, np.dtype(np.float64), *shape)))


def _q_from(packed, tau, columns):
    """Q's first ``columns`` columns: H_1 ... H_k applied to the identity."""
    m = packed.shape[0]
    q = np.eye(m)[:, :columns]
    for i in reversed(range(len(tau))):
        v = np.concatenate([np.zeros(i), [1.0], packed[i + 1:, i]])
        q = q - tau[i] * np.outer(v, v @ q)
    return q


op("geqrf", ref=_geqrf_ref, dtypes=F16_64, tol=TOL, **GRAD, samples=lambda dtype, rng, full: [
    Sample(_r(rng, dtype, 4, 3), label="tall"), Sample(_r(rng, dtype, 2, 3), label="wide")],
   torch=lambda torch, a: tuple(torch.geqrf(a)), torch_grad=False,
   notes={"gradient": "through the Householder steps (PyTorch has none for geqrf)"})
op("orgqr", ref=lambda a, tau: _q_from(a, tau, a.shape[1]), dtypes=F32_64, tol=TOL, **GRAD,
   samples=lambda dtype, rng, full: [
       Sample(*_packed(rng, dtype, 4, 3), label="4x3"),
       Sample(*_packed(rng, dtype, 3, 3), label="3x3")],
   torch=lambda torch, a, tau: torch.linalg.householder_product(a, tau))


def _ormqr_ref(a, tau, c, left=True, transpose=False):
    q = _q_from(a, tau, a.shape[0])
    q = q.T if transpose else q
    return q @ c if left else c @ q


op("ormqr", ref=_ormqr_ref, dtypes=F32_64, tol=TOL, **GRAD, samples=lambda dtype, rng, full: [
    Sample(*_packed(rng, dtype, 4, 3), _r(rng, dtype, 4, 2), label="Q C"),
    Sample(*_packed(rng, dtype, 4, 3), _r(rng, dtype, 4, 2), True, True,
           label="Q^T C"),
    Sample(*_packed(rng, dtype, 3, 3), _r(rng, dtype, 2, 3), False, False,
           label="C Q")],
   torch=lambda torch, a, tau, c, left=True, transpose=False: torch.ormqr(a, tau, c, left,
                                                                          transpose),
   notes={"MindSpore": "MindSpore 2.10 has no CPU kernel for Ormqr"})
op("qr", ref=lambda a, mode="reduced": tuple(np.linalg.qr(a, mode)), dtypes=F16_64, tol=TOL,
   **GRAD, samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 4, 3), label="tall"),
       Sample(_r(rng, dtype, 2, 3, 3), "complete", label="batched, complete"),
       Sample(_r(rng, dtype, 2, 3), label="wide")],
   torch=lambda torch, a, mode="reduced": tuple(torch.linalg.qr(a, mode)))
