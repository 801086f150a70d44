"""The Numba transforms of Winograd F(2x2, 3x3) (``winograd.py`` runs them): input tiles
B^T d B, filters G w G^T, products back A^T m A, and the adjoints the weight gradient needs.
Imported only once Numba is known to be there (it is the ``fast`` extra)."""
import numba
import numpy as np
from numba import njit, prange

from . import thread_pool

thread_pool.configure_numba()


@njit(parallel=True, cache=True)
def input_transform(x, top, left, v):
    """x (N, C, H, W) -> v (16, C, N, TH, TW): B^T d B of each 4x4 tile (stride 2) of
    the zero-padded plane, planes in parallel."""
    n_img, n_ch, h, w = x.shape
    th, tw = v.shape[3], v.shape[4]
    hp, wp = 2 * th + 2, 2 * tw + 2
    for p in prange(n_img * n_ch):
        n = p // n_ch
        c = p % n_ch
        s = np.zeros((hp, wp), x.dtype)
        for i in range(h):
            if 0 <= i + top < hp:
                for j in range(w):
                    if 0 <= j + left < wp:
                        s[i + top, j + left] = x[n, c, i, j]
        for ty in range(th):
            r = 2 * ty
            for tx in range(tw):
                q = 2 * tx
                # B^T d, column k of the tile at a time (k unrolled by Numba)
                for k in range(4):
                    d0 = s[r, q + k]
                    d1 = s[r + 1, q + k]
                    d2 = s[r + 2, q + k]
                    d3 = s[r + 3, q + k]
                    if k == 0:
                        a0 = d0 - d2
                        a1 = d1 + d2
                        a2 = d2 - d1
                        a3 = d1 - d3
                    elif k == 1:
                        b0 = d0 - d2
                        b1 = d1 + d2
                        b2 = d2 - d1
                        b3 = d1 - d3
                    elif k == 2:
                        e0 = d0 - d2
                        e1 = d1 + d2
                        e2 = d2 - d1
                        e3 = d1 - d3
                    else:
                        f0 = d0 - d2
                        f1 = d1 + d2
                        f2 = d2 - d1
                        f3 = d1 - d3
                # (.) B: the same along the rows
                v[0, c, n, ty, tx] = a0 - e0
                v[1, c, n, ty, tx] = b0 + e0
                v[2, c, n, ty, tx] = e0 - b0
                v[3, c, n, ty, tx] = b0 - f0
                v[4, c, n, ty, tx] = a1 - e1
                v[5, c, n, ty, tx] = b1 + e1
                v[6, c, n, ty, tx] = e1 - b1
                v[7, c, n, ty, tx] = b1 - f1
                v[8, c, n, ty, tx] = a2 - e2
                v[9, c, n, ty, tx] = b2 + e2
                v[10, c, n, ty, tx] = e2 - b2
                v[11, c, n, ty, tx] = b2 - f2
                v[12, c, n, ty, tx] = a3 - e3
                v[13, c, n, ty, tx] = b3 + e3
                v[14, c, n, ty, tx] = e3 - b3
                v[15, c, n, ty, tx] = b3 - f3


@njit(parallel=True, cache=True)
def output_transform(m, y):
    """m (16, O, N, TH, TW) -> y (N, O, OH, OW): A^T m A per tile, the last row or
    column dropped where OH or OW is odd."""
    n_img, n_out, oh, ow = y.shape
    th, tw = m.shape[3], m.shape[4]
    for p in prange(n_img * n_out):
        n = p // n_out
        o = p % n_out
        for ty in range(th):
            i = 2 * ty
            for tx in range(tw):
                j = 2 * tx
                c0 = m[0, o, n, ty, tx] + m[4, o, n, ty, tx] + m[8, o, n, ty, tx]
                c1 = m[1, o, n, ty, tx] + m[5, o, n, ty, tx] + m[9, o, n, ty, tx]
                c2 = m[2, o, n, ty, tx] + m[6, o, n, ty, tx] + m[10, o, n, ty, tx]
                c3 = m[3, o, n, ty, tx] + m[7, o, n, ty, tx] + m[11, o, n, ty, tx]
                e0 = m[4, o, n, ty, tx] - m[8, o, n, ty, tx] - m[12, o, n, ty, tx]
                e1 = m[5, o, n, ty, tx] - m[9, o, n, ty, tx] - m[13, o, n, ty, tx]
                e2 = m[6, o, n, ty, tx] - m[10, o, n, ty, tx] - m[14, o, n, ty, tx]
                e3 = m[7, o, n, ty, tx] - m[11, o, n, ty, tx] - m[15, o, n, ty, tx]
                y[n, o, i, j] = c0 + c1 + c2
                if j + 1 < ow:
                    y[n, o, i, j + 1] = c1 - c2 - c3
                if i + 1 < oh:
                    y[n, o, i + 1, j] = e0 + e1 + e2
                    if j + 1 < ow:
                        y[n, o, i + 1, j + 1] = e1 - e2 - e3


@njit(parallel=True, cache=True)
def output_transform_adjoint(dy, dm):
    """dy (N, O, OH, OW) -> dm (16, O, N, TH, TW): A g A^T of each 2x2 block of the
    output gradient (zero past the last row or column)."""
    n_img, n_out, oh, ow = dy.shape
    th, tw = dm.shape[3], dm.shape[4]
    zero = dy.dtype.type(0)
    for p in prange(n_img * n_out):
        n = p // n_out
        o = p % n_out
        for ty in range(th):
            i = 2 * ty
            for tx in range(tw):
                j = 2 * tx
                g00 = dy[n, o, i, j]
                g01 = dy[n, o, i, j + 1] if j + 1 < ow else zero
                g10 = dy[n, o, i + 1, j] if i + 1 < oh else zero
                g11 = dy[n, o, i + 1, j + 1] if i + 1 < oh and j + 1 < ow else zero
                # rows A g: (g0, g0 + g1, g0 - g1, -g1), then the same on columns
                for a in range(4):
                    if a == 0:
                        r0, r1 = g00, g01
                    elif a == 1:
                        r0, r1 = g00 + g10, g01 + g11
                    elif a == 2:
                        r0, r1 = g00 - g10, g01 - g11
                    else:
                        r0, r1 = -g10, -g11
                    dm[4 * a, o, n, ty, tx] = r0
                    dm[4 * a + 1, o, n, ty, tx] = r0 + r1
                    dm[4 * a + 2, o, n, ty, tx] = r0 - r1
                    dm[4 * a + 3, o, n, ty, tx] = -r1


@njit(parallel=True, cache=True)
def filter_transform(w, u):
    """w (O, C, 3, 3) -> u (16, O, C): G w G^T."""
    n_out, n_ch = w.shape[0], w.shape[1]
    half = w.dtype.type(0.5)
    for o in prange(n_out):
        for c in range(n_ch):
            # G w: rows (w0, (w0 + w1 + w2) / 2, (w0 - w1 + w2) / 2, w2), per column
            for j in range(3):
                g0, g1, g2 = w[o, c, 0, j], w[o, c, 1, j], w[o, c, 2, j]
                s0, s1, s2, s3 = g0, half * (g0 + g1 + g2), half * (g0 - g1 + g2), g2
                if j == 0:
                    a0, a1, a2, a3 = s0, s1, s2, s3
                elif j == 1:
                    b0, b1, b2, b3 = s0, s1, s2, s3
                else:
                    e0, e1, e2, e3 = s0, s1, s2, s3
            # (.) G^T: the same along each row
            u[0, o, c] = a0
            u[1, o, c] = half * (a0 + b0 + e0)
            u[2, o, c] = half * (a0 - b0 + e0)
            u[3, o, c] = e0
            u[4, o, c] = a1
            u[5, o, c] = half * (a1 + b1 + e1)
            u[6, o, c] = half * (a1 - b1 + e1)
            u[7, o, c] = e1
            u[8, o, c] = a2
            u[9, o, c] = half * (a2 + b2 + e2)
            u[10, o, c] = half * (a2 - b2 + e2)
            u[11, o, c] = e2
            u[12, o, c] = a3
            u[13, o, c] = half * (a3 + b3 + e3)
            u[14, o, c] = half * (a3 - b3 + e3)
            u[15, o, c] = e3


@njit(parallel=True, cache=True)
def filter_transform_adjoint(du, dw):
    """du (16, O, C) -> dw (O, C, 3, 3): G^T du G (rows of G^T: (1, .5, .5, 0),
    (0, .5, -.5, 0), (0, .5, .5, 1))."""
    n_out, n_ch = dw.shape[0], dw.shape[1]
    half = du.dtype.type(0.5)
    for o in prange(n_out):
        for c in range(n_ch):
            for i in range(3):
                # row i of G^T du, one of its 4 entries per b
                if i == 0:
                    t0 = du[0, o, c] + half * (du[4, o, c] + du[8, o, c])
                    t1 = du[1, o, c] + half * (du[5, o, c] + du[9, o, c])
                    t2 = du[2, o, c] + half * (du[6, o, c] + du[10, o, c])
                    t3 = du[3, o, c] + half * (du[7, o, c] + du[11, o, c])
                elif i == 1:
                    t0 = half * (du[4, o, c] - du[8, o, c])
                    t1 = half * (du[5, o, c] - du[9, o, c])
                    t2 = half * (du[6, o, c] - du[10, o, c])
                    t3 = half * (du[7, o, c] - du[11, o, c])
                else:
                    t0 = half * (du[4, o, c] + du[8, o, c]) + du[12, o, c]
                    t1 = half * (du[5, o, c] + du[9, o, c]) + du[13, o, c]
                    t2 = half * (du[6, o, c] + du[10, o, c]) + du[14, o, c]
                    t3 = half * (du[7, o, c] + du[11, o, c]) + du[15, o, c]
                dw[o, c, i, 0] = t0 + half * (t1 + t2)
                dw[o, c, i, 1] = half * (t1 - t2)
                dw[o, c, i, 2] = half * (t1 + t2) + t3


def compile_for(dtype):
    """Compile (or load from Numba's disk cache) every transform for ``dtype``, for the
    arrays ``winograd.py`` passes: C-contiguous images and filters, 16-plane buffers whose
    planes are apart (non-contiguous, Numba's 'A' layout). Compiled without running: this
    runs in a background thread, and Numba's workqueue pool takes one parallel launch at a
    time (the program's thread may be in one: "Concurrent access has been detected")."""
    scalar = numba.from_dtype(np.dtype(dtype))
    image = numba.types.Array(scalar, 4, "C")
    planes5 = numba.types.Array(scalar, 5, "A")
    planes3 = numba.types.Array(scalar, 3, "A")
    input_transform.compile((image, numba.types.int64, numba.types.int64, planes5))
    output_transform.compile((planes5, image))
    output_transform_adjoint.compile((image, planes5))
    filter_transform.compile((image, planes3))
    filter_transform_adjoint.compile((planes3, image))
