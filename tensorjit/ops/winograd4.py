"""Winograd F(4x4, 3x3) convolution kernels for 3x3 stride-1 convolutions: the same
contract as ``winograd.py``'s F(2x2, 3x3) (``forward``, ``weight_grad``), with 4x4 blocks
of outputs computed from the 6x6 input tile under them (stride 4),

    Y = A^T [ (G w G^T) (.) (B^T d B) ] A

(Lavin & Gray 2015; B^T 6x6, G 6x3, A^T 4x6 on the points 0, 1, -1, 2, -2, infinity):
36 products per tile and channel pair instead of direct convolution's 144, 4x fewer
multiplications (F(2x2): 2.25x), and a transformed input 36/16 = 2.25x the input (F(2x2):
4x). Over a batch the products are 36 GEMMs ``M[xi] = U[xi] @ V[xi]`` (U (36, O, C),
V (36, C, N*tiles)), written straight into skewed 36-plane buffers; the transforms
(``winograd4_transforms.py``) read and write NCHW directly. The weight gradient is the
algorithm's adjoint, ``dU[xi] = dM[xi] @ V[xi]^T`` with ``dM = A dY A^T`` per tile, then
``dw = G^T dU G``; the input gradient is ``forward`` of dy with the flipped kernel.

The transforms compile with F(2x2)'s: callers check ``winograd.ready(dtype)`` first (or
``winograd.wait``), which covers both. The per-thread plane buffers and image chunks are
``winograd.py``'s, under their own roles so the two algorithms do not evict each other's
buffers. Which of the two (or another kernel) runs a shape is the caller's choice, by
measurement: per call at batch 16 on the development machine, F(4x4) took 0.55-0.7x
F(2x2)'s time at 64 channels 32x32 and 128 at 16x16, 0.7-0.85x at 256 at 8x8, and
1.1-1.4x at 512 at 4x4, where its filter transforms (36 planes of O x C: 38 MB) cost more
than the products save.

F(4x4)'s larger transform coefficients (B^T d B up to 25, A^T m A up to 64) give it more
rounding error in float32 than F(2x2): measured on random normal data at 64 to 512
channels, up to 1.4e-5 of the output's largest magnitude (F(2x2): 8e-7), 6.5e-6 for the
weight gradient (``tests/core/test_winograd4.py``).
"""
import numpy as np

from . import blas, winograd

PLANES = 36


def _kernels():
    from . import winograd4_transforms   # Numba is there once winograd.ready said so
    return winograd4_transforms


def _tiles(oh, ow):
    return (oh + 3) // 4, (ow + 3) // 4


def per_image_bytes(channels, oh, ow, itemsize):
    """Transformed bytes one image takes (as ``winograd.per_image_bytes``)."""
    th, tw = _tiles(oh, ow)
    return PLANES * max(channels, 1) * th * tw * itemsize


def _chunks(n, c, th, tw, itemsize, chunk_bytes):
    return winograd.image_chunks(n, PLANES * max(c, 1) * th * tw * itemsize, chunk_bytes)


def _transformed_input(x, top, left, th, tw):
    """V as (36, C, N*TH*TW) planes."""
    n, c = x.shape[:2]
    size = c * n * th * tw
    rows = winograd.plane_rows("input 4x4", PLANES, size, x.dtype)
    _kernels().input_transform(np.ascontiguousarray(x), top, left, th, tw, rows)
    return rows[:, :size].reshape(PLANES, c, n * th * tw)


def forward(x, w, padding, chunk_bytes=None):
    """3x3, stride 1, dilation 1 correlation of NCHW ``x`` with (O, C, 3, 3) ``w``;
    ``padding`` (top, bottom, left, right); the batch in chunks of at most ``chunk_bytes``
    of transformed input (``None``: ``winograd.CHUNK_BYTES``)."""
    kernels = _kernels()
    n, c, h, wd = x.shape
    o = w.shape[0]
    top, bottom, left, right = padding
    oh, ow = h + top + bottom - 2, wd + left + right - 2
    th, tw = _tiles(oh, ow)
    u = winograd.plane_rows("filter 4x4", PLANES, o * c, w.dtype)
    kernels.filter_transform(np.ascontiguousarray(w), u)
    u = u[:, :o * c].reshape(PLANES, o, c)
    y = np.empty((n, o, oh, ow), x.dtype)
    for i, j in _chunks(n, max(c, o), th, tw, x.itemsize, chunk_bytes):
        v = _transformed_input(x[i:j], top, left, th, tw)
        size = o * (j - i) * th * tw
        m = winograd.plane_rows("product 4x4", PLANES, size, x.dtype)
        blas.matmul(u, v, out=m[:, :size].reshape(PLANES, o, (j - i) * th * tw))
        kernels.output_transform(m, y[i:j])
    return y


def weight_grad(x, dy, padding, chunk_bytes=None):
    """The gradient of ``forward`` for its (O, C, 3, 3) weight, given ``dy`` (N, O, OH, OW);
    the batch in chunks as in ``forward``."""
    kernels = _kernels()
    n, c = x.shape[:2]
    o, oh, ow = dy.shape[1:]
    th, tw = _tiles(oh, ow)
    if n == 0:                       # no chunk: nothing would write dU
        return np.zeros((o, c, 3, 3), x.dtype)
    dy = np.ascontiguousarray(dy)
    rows = winograd.plane_rows("filter 4x4", PLANES, o * c, x.dtype)
    du = rows[:, :o * c].reshape(PLANES, o, c)
    for k, (i, j) in enumerate(_chunks(n, max(c, o), th, tw, x.itemsize, chunk_bytes)):
        size = o * (j - i) * th * tw
        dm = winograd.plane_rows("product 4x4", PLANES, size, x.dtype)
        kernels.output_transform_adjoint(dy[i:j], dm)
        v = _transformed_input(x[i:j], padding[0], padding[2], th, tw)
        products = (dm[:, :size].reshape(PLANES, o, (j - i) * th * tw), v.transpose(0, 2, 1))
        if k == 0:
            blas.matmul(*products, out=du)
        else:   # into a reused buffer: dU is 36 O C, 38 MB at 512 channels
            part = winograd.planes("filter sum 4x4", (PLANES, o, c), x.dtype)
            blas.matmul(*products, out=part)
            du += part
    dw = np.empty((o, c, 3, 3), x.dtype)
    kernels.filter_transform_adjoint(rows, dw)
    return dw
