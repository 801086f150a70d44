"""Primitives whose kernel is LAPACK (through NumPy / SciPy): the linear solve, the
Cholesky factor, the SVD, the log-determinant and the matrix exponential. Each works on
stacks of matrices (leading batch axes), computes float16 in float32, and has a VJP
written with ops (the standard formulas), so functions built on them differentiate in
reverse and forward mode and batch under ``vmap`` (the batch is one more leading axis)."""
import numpy as np
import scipy.linalg

from .. import dtype as dt
from ..aval import ShapedArray, broadcast_shapes
from .primitive import Primitive, FRESH
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from . import batching
from .creation import eye, tril
from .linalg import matmul

__all__ = ["solve_p", "cholesky_p", "svd_p", "slogdet_p", "expm_p", "solve", "transpose_last"]

_KINDS = (dt.float16, dt.float32, dt.float64)


def _computed(fn):
    """The kernel ``fn`` run in float32 for float16 inputs; results in the input's dtype."""
    def kernel(*arrays, **params):
        dtype = arrays[0].dtype
        work = [a.astype(np.float32) if a.dtype == np.float16 else a for a in arrays]
        out = fn(*work, **params)
        if isinstance(out, tuple):
            return tuple(np.asarray(o).astype(dtype, copy=False) for o in out)
        return np.asarray(out).astype(dtype, copy=False)
    return kernel


def _square_rule(name, a):
    if a.dtype not in _KINDS:
        raise TypeError(f"{name}: expected float16, float32 or float64 matrices, got {a}")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: expected square matrices (..., n, n), got {a}")


def transpose_last(x):
    return _shape.swapaxes(x, -1, -2)


def _leading_batch(prim, dims, *args, **params):
    """Batching rule of the stacked kernels: the batch becomes one more leading axis."""
    size = batching.batch_size(args, dims)
    out = prim.bind(*[batching.materialize(a, d, size) for a, d in zip(args, dims)], **params)
    return out, ((0,) * len(out) if prim.multiple_results else 0)


# ---- solve: A X = B ---------------------------------------------------------------------

def _solve_rule(a, b):
    _square_rule("solve", a)
    if b.dtype != a.dtype:
        raise TypeError(f"solve: the matrix and the right-hand side differ in dtype: {a}, {b}")
    if b.ndim < 2 or b.shape[-2] != a.shape[-1]:
        raise ValueError(f"solve: the right-hand side {b} does not fit the matrix {a}")
    batch = broadcast_shapes("solve", a.shape[:-2], b.shape[:-2])
    return ShapedArray(batch + b.shape[-2:], a.dtype)


@_computed
def _solve_impl(a, b):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    try:
        return np.linalg.solve(a, b)
    except np.linalg.LinAlgError:
        raise RuntimeError("solve: the matrix is singular") from None


def _solve_vjp(ct, out, a, b):
    gb = solve_p.bind(transpose_last(a), ct)
    ga = _ew.neg(matmul(gb, transpose_last(out)))
    return _red.sum_to(ga, a.shape), _red.sum_to(gb, b.shape)


solve_p = Primitive("solve", _solve_impl, _solve_rule, _solve_vjp, aliasing=FRESH,
                    batch=_leading_batch)


def solve(a, b):
    """X with A X = B, for a right-hand side of matrices (..., n, k)."""
    return solve_p.bind(a, b)


# ---- Cholesky: A = L L^T, from A's lower triangle ----------------------------------------

def _cholesky_rule(a):
    _square_rule("cholesky", a)
    return a


@_computed
def _cholesky_impl(a):
    try:
        return np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        raise RuntimeError("cholesky: expects symmetric positive definite matrices") from None


def _phi(x):
    """The lower triangle with the diagonal halved."""
    n = x.shape[-1]
    return _ew.sub(tril(x), _ew.mul(_ew.mul(x, eye(n, n, x.dtype)), 0.5))


def _cholesky_vjp(ct, out, a):
    # S = L^-T Phi(L^T Lbar) L^-1 (Murray, 2016); the kernel reads only A's lower
    # triangle, so the gradient is the one of that triangle: Phi(S + S^T)
    lt = transpose_last(out)
    p = _phi(matmul(lt, ct))
    s = transpose_last(solve_p.bind(lt, transpose_last(solve_p.bind(lt, p))))
    return (_phi(_ew.add(s, transpose_last(s))),)


cholesky_p = Primitive("cholesky", _cholesky_impl, _cholesky_rule, _cholesky_vjp,
                       aliasing=FRESH, batch=_leading_batch)


# ---- SVD: A = U diag(S) V^T ---------------------------------------------------------------

def _svd_rule(a, full_matrices):
    if a.dtype not in _KINDS:
        raise TypeError(f"svd: expected float matrices, got {a}")
    if a.ndim < 2:
        raise ValueError(f"svd: expected matrices (..., m, n), got {a}")
    m, n = a.shape[-2:]
    k, batch = min(m, n), a.shape[:-2]
    cols_u, cols_v = (m, n) if full_matrices else (k, k)
    return (ShapedArray(batch + (k,), a.dtype), ShapedArray(batch + (m, cols_u), a.dtype),
            ShapedArray(batch + (n, cols_v), a.dtype))


@_computed
def _svd_impl(a, full_matrices):
    m, n = a.shape[-2:]
    if a.size == 0:
        k = min(m, n)
        batch = a.shape[:-2]
        eye_u = np.broadcast_to(np.eye(m, m if full_matrices else k, dtype=a.dtype),
                                batch + (m, m if full_matrices else k))
        eye_v = np.broadcast_to(np.eye(n, n if full_matrices else k, dtype=a.dtype),
                                batch + (n, n if full_matrices else k))
        return np.zeros(batch + (k,), a.dtype), eye_u.copy(), eye_v.copy()
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return s, u, np.swapaxes(vh, -1, -2)


def _svd_vjp(cts, outs, a, full_matrices):
    """Townsend (2016), real case, for distinct nonzero singular values: with
    F_ij = 1 / (s_j^2 - s_i^2),
    Abar = U [(F o (U^T Ubar - Ubar^T U)) S + diag(Sbar) + S (F o (V^T Vbar - Vbar^T V))] V^T
           + (I - U U^T) Ubar S^-1 V^T + U S^-1 Vbar^T (I - V V^T).
    Full matrices: the columns beyond min(m, n) are not unique and get no gradient."""
    ct_s, ct_u, ct_v = cts
    s, u, v = outs
    k = s.shape[-1]
    u, v = u[..., :, :k], v[..., :, :k]
    ct_u = None if ct_u is None else ct_u[..., :, :k]
    ct_v = None if ct_v is None else ct_v[..., :, :k]
    vt = transpose_last(v)
    inner = None if ct_s is None else _ew.mul(_shape.expand_dims(ct_s, -2), eye(k, k, a.dtype))
    extra = None
    if ct_u is not None or ct_v is not None:
        s2 = _ew.mul(s, s)
        diff = _ew.sub(_shape.expand_dims(s2, -2), _shape.expand_dims(s2, -1))  # s_j^2 - s_i^2
        off = _ew.logical_not(eye(k, k, dt.bool_))
        f = _ew.where(off, _ew.div(_ew.ones_like(diff), _ew.where(off, diff, _ew.ones_like(diff))),
                      _ew.zeros_like(diff))
        s_row, s_col = _shape.expand_dims(s, -2), _shape.expand_dims(s, -1)
        inv_s = _ew.div(_ew.ones_like(s), s)
        terms = []
        if ct_u is not None:
            utg = matmul(transpose_last(u), ct_u)
            terms.append(_ew.mul(_ew.mul(f, _ew.sub(utg, transpose_last(utg))), s_row))
            proj = _ew.sub(ct_u, matmul(u, utg))                 # (I - U U^T) Ubar
            extra = matmul(_ew.mul(proj, _shape.expand_dims(inv_s, -2)), vt)
        if ct_v is not None:
            vtg = matmul(vt, ct_v)
            terms.append(_ew.mul(s_col, _ew.mul(f, _ew.sub(vtg, transpose_last(vtg)))))
            proj = _ew.sub(transpose_last(ct_v), matmul(transpose_last(vtg), vt))
            more = matmul(_ew.mul(u, _shape.expand_dims(inv_s, -2)), proj)
            extra = more if extra is None else _ew.add(extra, more)
        for t in terms:
            inner = t if inner is None else _ew.add(inner, t)
    if inner is None:
        return (_ew.zeros_like(a) if extra is None else extra,)
    out = matmul(matmul(u, inner), vt)
    return (out if extra is None else _ew.add(out, extra),)


svd_p = Primitive("svd", _svd_impl, _svd_rule, _svd_vjp, multiple_results=True,
                  aliasing=FRESH, batch=_leading_batch, symbolic_zeros=True)


# ---- log |det A| and its sign ------------------------------------------------------------

def _slogdet_rule(a):
    _square_rule("slogdet", a)
    out = ShapedArray(a.shape[:-2], a.dtype)
    return out, out


@_computed
def _slogdet_impl(a):
    sign, logabs = np.linalg.slogdet(a)
    return sign, logabs


def _slogdet_vjp(cts, outs, a):
    _, ct_log = cts
    if ct_log is None:
        return (_ew.zeros_like(a),)
    n = a.shape[-1]
    inv_t = solve_p.bind(transpose_last(a), _shape.broadcast_to(eye(n, n, a.dtype), tuple(a.shape)))
    return (_ew.mul(_shape.expand_dims(_shape.expand_dims(ct_log, -1), -1), inv_t),)


slogdet_p = Primitive("slogdet", _slogdet_impl, _slogdet_rule, _slogdet_vjp,
                      multiple_results=True, aliasing=FRESH, batch=_leading_batch,
                      symbolic_zeros=True)


# ---- matrix exponential ------------------------------------------------------------------

def _expm_rule(a):
    _square_rule("matrix_exp", a)
    return a


@_computed
def _expm_impl(a):
    return scipy.linalg.expm(a) if a.size else a.copy()


def _expm_vjp(ct, out, a):
    # the adjoint of the Frechet derivative: the upper-right block of
    # exp([[A^T, G], [0, A^T]]) (Najfeld and Havel, 1995)
    n = a.shape[-1]
    at = transpose_last(a)
    top = _shape.concat([at, ct], -1)
    bottom = _shape.concat([_ew.zeros_like(at), at], -1)
    block = expm_p.bind(_shape.concat([top, bottom], -2))
    return (block[..., :n, n:],)


expm_p = Primitive("matrix_exp", _expm_impl, _expm_rule, _expm_vjp, aliasing=FRESH,
                   batch=_leading_batch)
