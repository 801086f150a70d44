"""The Numba im2col and col2im of the weight-major convolution (``conv_kernels.py``):

    cols[(c, i, j), (n, p, q)] = xpad[n, c, p*sh + i*dh, q*sw + j*dw]

so that ``y = w.reshape(O, C*KH*KW) @ cols`` uses the NCHW weight as it is, the weight
gradient ``dy_rows @ cols.T`` comes out in the weight's layout, and the input gradient is
``col2im(w.reshape(O, C*KH*KW).T @ dy_rows)`` (dy_rows: dy as (O, N*OH*OW)). Both loops
run in parallel over input channels (each channel owns its rows of ``cols`` and its
planes of ``dx``, so the scatter of col2im needs no atomics). Imported only once Numba is
known to be there; ``winograd.py`` compiles them with its transforms.
"""
import numba
import numpy as np
from numba import njit, prange

from . import thread_pool

thread_pool.configure_numba()


@njit(parallel=True, cache=True)
def im2col(x, kh, kw, sh, sw, dh, dw, top, left, cols):
    """x (N, C, H, W) -> cols (C, KH, KW, N, OH, OW), zero where the window is in the
    padding."""
    n_img, n_ch, h, w = x.shape
    oh, ow = cols.shape[4], cols.shape[5]
    zero = x.dtype.type(0)
    for c in prange(n_ch):
        for i in range(kh):
            for j in range(kw):
                for n in range(n_img):
                    for p in range(oh):
                        r = p * sh + i * dh - top
                        if r < 0 or r >= h:
                            for q in range(ow):
                                cols[c, i, j, n, p, q] = zero
                        else:
                            for q in range(ow):
                                s = q * sw + j * dw - left
                                if 0 <= s < w:
                                    cols[c, i, j, n, p, q] = x[n, c, r, s]
                                else:
                                    cols[c, i, j, n, p, q] = zero


@njit(parallel=True, cache=True)
def col2im(dcols, sh, sw, dh, dw, top, left, dx):
    """The adjoint of ``im2col``: dcols (C, KH, KW, N, OH, OW) summed into a zeroed
    dx (N, C, H, W)."""
    n_img, n_ch, h, w = dx.shape
    kh, kw, oh, ow = dcols.shape[1], dcols.shape[2], dcols.shape[4], dcols.shape[5]
    for c in prange(n_ch):
        for i in range(kh):
            for j in range(kw):
                for n in range(n_img):
                    for p in range(oh):
                        r = p * sh + i * dh - top
                        if 0 <= r < h:
                            for q in range(ow):
                                s = q * sw + j * dw - left
                                if 0 <= s < w:
                                    dx[n, c, r, s] += dcols[c, i, j, n, p, q]


def compile_for(dtype):
    """Compile (or load from Numba's disk cache) both kernels for ``dtype``, without running
    them (see ``winograd_transforms.compile_for``)."""
    scalar = numba.from_dtype(np.dtype(dtype))
    i64 = numba.types.int64
    image = numba.types.Array(scalar, 4, "C")
    columns = numba.types.Array(scalar, 6, "C")
    im2col.compile((image, i64, i64, i64, i64, i64, i64, i64, i64, columns))
    col2im.compile((columns, i64, i64, i64, i64, i64, i64, image))
