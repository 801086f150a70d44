"""Winograd F(2x2, 3x3) convolution kernels for 3x3 stride-1 convolutions (Numba transforms,
the products through NumPy's BLAS); ``conv_kernels.py`` picks them per shape.

Each 2x2 block of outputs is computed from the 4x4 input tile under it as

    Y = A^T [ (G w G^T) (.) (B^T d B) ] A

(Lavin & Gray, "Fast Algorithms for Convolutional Neural Networks", 2015): 16 products per
tile and channel pair instead of 36, 2.25x fewer multiplications. Over a batch, the
elementwise product summed over input channels becomes 16 GEMMs, one per tile position
xi = (a, b): ``M[xi] = U[xi] @ V[xi]``, U (16, O, C) the transformed filters and V
(16, C, N*tiles) the transformed input tiles. The transforms read and write NCHW directly
(no channels-last copies), and are bandwidth-bound loops, run in parallel over planes.

The weight gradient is the same algorithm's adjoint (exact, as the algorithm is linear in
w): ``dU[xi] = dM[xi] @ V[xi]^T`` with ``dM = A dY A^T`` per output tile, then
``dw = G^T dU G``. The input gradient of a stride-1 convolution is itself a stride-1
convolution (of the padded output gradient with the flipped, transposed kernel), so it
uses ``forward``.

The 16-plane buffers are large (16/4 = 4x the input); they are kept per thread and reused,
since fresh allocations of that size come from the OS as zero pages faulted in one by one
(measured: half the time of a fresh-buffer forward at 32x32, 64 channels).
"""
import os
import threading

import numpy as np

try:
    import numba
    from numba import njit, prange
except ImportError:             # pragma: no cover - Numba is the ``fast`` extra
    numba = None

_workspace = threading.local()


def available():
    return numba is not None


def _buffer(role, shape, dtype):
    """A per-thread scratch array of ``shape`` for ``role``, reused from call to call."""
    size = int(np.prod(shape))
    key = (role, np.dtype(dtype))
    buffers = getattr(_workspace, "buffers", None)
    if buffers is None:
        buffers = _workspace.buffers = {}
    flat = buffers.get(key)
    if flat is None or flat.size < size:
        flat = buffers[key] = np.empty(size, dtype)
    return flat[:size].reshape(shape)


def _threads():
    return numba.get_num_threads()


if numba is not None:
    if "NUMBA_THREADING_LAYER" not in os.environ:
        # as backend/numba/config.py: OpenMP's spinning workers would steal the cores
        # from OpenBLAS's threads running the next GEMM
        numba.config.THREADING_LAYER = "workqueue"

    @njit(parallel=True, cache=True)
    def _input_transform(x, top, left, v):
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
    def _output_transform(m, y):
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
    def _output_transform_adjoint(dy, dm):
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
    def _filter_transform(w, u):
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
    def _filter_transform_adjoint(du, dw):
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


def _tiles(oh, ow):
    return (oh + 1) // 2, (ow + 1) // 2


def _transformed_input(x, top, left, th, tw, role):
    n, c = x.shape[:2]
    v = _buffer(role, (16, c, n, th, tw), x.dtype)
    _input_transform(np.ascontiguousarray(x), top, left, v)
    return v.reshape(16, c, n * th * tw)


def forward(x, w, padding):
    """3x3, stride 1, dilation 1 correlation of NCHW ``x`` with (O, C, 3, 3) ``w``;
    ``padding`` (top, bottom, left, right)."""
    n, c, h, wd = x.shape
    o = w.shape[0]
    top, bottom, left, right = padding
    oh, ow = h + top + bottom - 2, wd + left + right - 2
    th, tw = _tiles(oh, ow)
    v = _transformed_input(x, top, left, th, tw, "input")
    u = np.empty((16, o, c), w.dtype)
    _filter_transform(np.ascontiguousarray(w), u)
    m = _buffer("product", (16, o, n * th * tw), x.dtype)
    np.matmul(u, v, out=m)
    y = np.empty((n, o, oh, ow), x.dtype)
    _output_transform(m.reshape(16, o, n, th, tw), y)
    return y


def weight_grad(x, dy, padding):
    """The gradient of ``forward`` for its (O, C, 3, 3) weight, given ``dy`` (N, O, OH, OW)."""
    n, c = x.shape[:2]
    o, oh, ow = dy.shape[1:]
    th, tw = _tiles(oh, ow)
    dm = _buffer("product", (16, o, n, th, tw), dy.dtype)
    _output_transform_adjoint(np.ascontiguousarray(dy), dm)
    v = _transformed_input(x, padding[0], padding[2], th, tw, "input")
    du = np.matmul(dm.reshape(16, o, n * th * tw), v.transpose(0, 2, 1))
    dw = np.empty((o, c, 3, 3), x.dtype)
    _filter_transform_adjoint(du, dw)
    return dw
