"""QR by Householder reflections, written with registry ops in LAPACK's conventions
(``geqrf``: R above the diagonal, the reflectors' vectors below it with an implied unit
leading entry, and their scales ``tau``; ``orgqr`` / ``ormqr`` form or apply Q). One
unrolled step per column, so every function differentiates and compiles; meant for the
small matrices these ops serve."""
import numpy as np

from .. import dtype as dt
from . import coerce
from . import elementwise as _ew
from . import reduction as _red
from . import shape as _shape
from .creation import eye, triu, zeros
from .decompositions import check_matrices

__all__ = ["geqrf", "orgqr", "ormqr", "qr", "householder_qr"]

_F16_TO_64 = (dt.float16, dt.float32, dt.float64)
_F32_64 = (dt.float32, dt.float64)


def _reflect(a, j, rows):
    """LAPACK's dlarfg on column j of ``a`` (rows j.. of it): beta = -sign(alpha) ||x||,
    tau = (beta - alpha) / beta, v = x / (alpha - beta) below the unit entry; a column
    already zero below the diagonal needs no reflection (tau = 0)."""
    column = a[..., :, j]                                               # (..., m)
    below = _ew.gt(rows, j)
    tail = _ew.where(below, column, _ew.zeros_like(column))
    alpha = column[..., j:j + 1]                                         # (..., 1)
    tail_sq = _red.sum(_ew.mul(tail, tail), -1, keepdims=True)
    reflect = _ew.gt(tail_sq, 0)
    safe_sq = _ew.where(reflect, tail_sq, _ew.ones_like(tail_sq))
    norm = _ew.sqrt(_ew.add(_ew.mul(alpha, alpha), safe_sq))
    beta = _ew.where(_ew.ge(alpha, 0), _ew.neg(norm), norm)
    tau = _ew.where(reflect, _ew.div(_ew.sub(beta, alpha), beta), _ew.zeros_like(beta))
    scale = _ew.where(reflect, _ew.div(_ew.ones_like(beta), _ew.sub(alpha, beta)),
                      _ew.zeros_like(beta))
    v = _ew.add(_ew.mul(tail, scale), _ew.cast(_ew.eq(rows, j), a.dtype))  # v_j = 1
    return v, tau, _ew.where(reflect, beta, alpha)


def householder_qr(a):
    """(the geqrf-packed matrix, tau) of matrices ``a`` (..., m, n)."""
    m, n = a.shape[-2:]
    rows = coerce.constant(np.arange(m))
    taus = []
    for j in range(min(m, n)):
        v, tau, diagonal = _reflect(a, j, rows)
        # H = I - tau v v^T on the columns j.. ; column j becomes (beta, v below)
        vcol = _shape.expand_dims(v, -1)                                # (..., m, 1)
        update = _ew.mul(_ew.mul(_shape.expand_dims(tau, -1), vcol),
                         _red.sum(_ew.mul(vcol, a), -2, keepdims=True))
        reflected = _ew.sub(a, update)
        packed = _ew.where(_ew.eq(rows, j), diagonal,
                           _ew.where(_ew.gt(rows, j), v, a[..., :, j]))
        columns = coerce.constant(np.arange(n))
        a = _ew.where(_ew.gt(columns, j), reflected,
                      _ew.where(_ew.eq(columns, j), _shape.expand_dims(packed, -1), a))
        taus.append(tau)
    tau = _shape.concat(taus, -1) if taus else _ew.zeros_like(a[..., 0, :0])
    return a, tau


def _vectors(packed, k):
    """The reflectors' vectors (..., m, k): column i of ``packed`` below row i, 1 at i."""
    m = packed.shape[-2]
    rows = np.arange(m).reshape(m, 1)
    cols = np.arange(k).reshape(1, k)
    below = coerce.constant(rows > cols)
    unit = coerce.constant((rows == cols).astype(packed.dtype))
    return _ew.add(_ew.where(below, packed[..., :, :k], _ew.zeros_like(packed[..., :, :k])),
                   unit)


def _apply(vectors, tau, c, left, transpose):
    """Q c, Q^T c, c Q or c Q^T for Q = H_1 ... H_k, H_i = I - tau_i v_i v_i^T."""
    k = tau.shape[-1]
    forward = left == transpose          # Q^T c and c Q apply H_1 first
    for i in (range(k) if forward else range(k - 1, -1, -1)):
        v = vectors[..., :, i:i + 1]                                    # (..., m, 1)
        t = _shape.expand_dims(tau[..., i:i + 1], -1)                   # (..., 1, 1)
        if left:
            c = _ew.sub(c, _ew.mul(_ew.mul(t, v), _red.sum(_ew.mul(v, c), -2, keepdims=True)))
        else:
            vt = _shape.swapaxes(v, -1, -2)
            c = _ew.sub(c, _ew.mul(_ew.mul(t, _red.sum(_ew.mul(c, vt), -1, keepdims=True)), vt))
    return c


def geqrf(input):
    """``ops.geqrf``: QR in LAPACK's packed form: R on and above the diagonal, the
    Householder vectors below it (unit leading entry implied), and their scales ``tau``
    (..., min(m, n)).

    >>> import tensorjit as ms
    >>> a, tau = ms.ops.geqrf(ms.Tensor([[3.0], [4.0]], ms.float64))
    >>> a.asnumpy().round(4).tolist(), tau.asnumpy().round(4).tolist()
    ([[-5.0], [0.5]], [1.6])
    """
    x = check_matrices(input, "geqrf", _F16_TO_64)
    if x.dtype == dt.float16:          # computed in float32, as the kernels do
        return tuple(_in(t, x.dtype) for t in householder_qr(_ew.cast(x, dt.float32)))
    return householder_qr(x)


def _in(t, dtype):
    return t if t.dtype == dtype else _ew.cast(t, dtype)


def _checked_tau(tau, x, k, op):
    tau = coerce.as_tensor(tau, op=op)
    if tau.dtype != x.dtype:
        raise TypeError(f"{op}: tau's dtype {tau.dtype} differs from the input's {x.dtype}")
    if tuple(tau.shape) != tuple(x.shape[:-2]) + (k,):
        raise ValueError(f"{op}: tau of shape {tuple(tau.shape)} does not fit an input of "
                         f"shape {tuple(x.shape)}")
    return tau


def orgqr(input, input2):
    """``ops.orgqr``: the first n columns of Q = H_1 ... H_k from ``geqrf``'s output
    (``input`` (..., m, n), m >= n, ``input2`` = tau (..., k), k <= n).

    >>> import tensorjit as ms
    >>> q = ms.ops.orgqr(*ms.ops.geqrf(ms.Tensor([[3.0], [4.0]], ms.float64)))
    >>> q.asnumpy().round(4).tolist()
    [[-0.6], [-0.8]]
    """
    x = check_matrices(input, "orgqr", _F32_64)
    m, n = x.shape[-2:]
    if m < n:
        raise ValueError(f"orgqr: the input must have at least as many rows as columns, got "
                         f"shape {tuple(x.shape)}")
    tau = coerce.as_tensor(input2, op="orgqr")
    if tau.ndim < 1 or tau.shape[-1] > n:
        raise ValueError(f"orgqr: tau of shape {tuple(tau.shape)} does not fit an input of "
                         f"shape {tuple(x.shape)}")
    tau = _checked_tau(tau, x, tau.shape[-1], "orgqr")
    identity = _shape.broadcast_to(eye(m, n, x.dtype), tuple(x.shape))
    return _apply(_vectors(x, tau.shape[-1]), tau, identity, left=True, transpose=False)


def ormqr(input, tau, other, left=True, transpose=False):
    """``ops.ormqr``: ``other`` multiplied by Q (from ``geqrf``'s ``input`` and ``tau``):
    Q C, Q^T C (``transpose``), or C Q, C Q^T with ``left=False``.

    >>> import tensorjit as ms
    >>> a, tau = ms.ops.geqrf(ms.Tensor([[3.0], [4.0]], ms.float64))
    >>> ms.ops.ormqr(a, tau, ms.Tensor([[3.0], [4.0]], ms.float64), transpose=True).asnumpy().round(4).tolist()
    [[-5.0], [0.0]]
    """
    x = check_matrices(input, "ormqr", _F32_64)
    c = check_matrices(coerce.as_tensor(other, op="ormqr"), "ormqr", _F32_64)
    if c.dtype != x.dtype:
        raise TypeError(f"ormqr: other's dtype {c.dtype} differs from the input's {x.dtype}")
    tau = coerce.as_tensor(tau, op="ormqr")
    size = c.shape[-2] if left else c.shape[-1]
    if x.shape[-2] != size:
        raise ValueError(f"ormqr: the input's {x.shape[-2]} rows do not fit other of shape "
                         f"{tuple(c.shape)} (left={left})")
    if tau.ndim < 1 or tau.shape[-1] > min(x.shape[-2], x.shape[-1]):
        raise ValueError(f"ormqr: tau of shape {tuple(tau.shape)} does not fit an input of "
                         f"shape {tuple(x.shape)}")
    tau = _checked_tau(tau, x, tau.shape[-1], "ormqr")
    return _apply(_vectors(x, tau.shape[-1]), tau, c, bool(left), bool(transpose))


def qr(input, mode="reduced", op="qr"):
    """``ops.qr``: Q and R with input = Q R (Householder, LAPACK's signs): ``mode``
    ``'reduced'`` (Q (m, k), R (k, n), k = min(m, n)), ``'complete'`` (Q (m, m), R (m, n))
    or ``'r'`` (R only, Q an empty tensor).

    >>> import tensorjit as ms
    >>> q, r = ms.ops.qr(ms.Tensor([[3.0], [4.0]], ms.float64))
    >>> r.asnumpy().round(4).tolist()
    [[-5.0]]
    """
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"{op}: mode must be 'reduced', 'complete' or 'r', got {mode!r}")
    x = check_matrices(input, op, _F16_TO_64)
    m, n = x.shape[-2:]
    k = min(m, n)
    packed, tau = householder_qr(_ew.cast(x, dt.float32) if x.dtype == dt.float16 else x)
    rows = k if mode in ("reduced", "r") else m
    r = _in(triu(packed[..., :rows, :]), x.dtype)
    if mode == "r":
        return zeros((0,), x.dtype), r
    cols = k if mode == "reduced" else m
    identity = _shape.broadcast_to(eye(m, cols, packed.dtype), tuple(x.shape[:-2]) + (m, cols))
    q = _apply(_vectors(packed, k), tau, identity, left=True, transpose=False)
    return _in(q, x.dtype), r
