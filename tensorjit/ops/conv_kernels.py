"""The convolution kernels (NumPy + BLAS), chosen per shape; ``conv.py`` declares the
primitives on them.

Inputs and results are NCHW. Inside, the work is channels-last (NHWC), where a kernel
offset (i, j) of a stride-1 convolution is a *shift*: with the zero-padded input flattened
to rows of C values, output row r reads input row r + shift(i, j), shift = i*dh*Wp + j*dw.
So the forward convolution is, block of output rows by block,

    out[block] = [xp[block + shift(0, 0)] | ... | xp[block + shift(KH-1, KW-1)]] @ W

one GEMM with K = KH*KW*C over an im2col of just that block (copies of contiguous row
ranges, built in a buffer that stays in cache), never the whole batch's im2col (KH*KW
times the input). The rows cover the padded grid, so a few outputs are computed and
dropped (13% at 32x32 for 3x3, 56% at 8x8). The input gradient of a stride-1 convolution
is the same correlation of the padded output gradient with the flipped, transposed
kernel, and the weight gradient is one GEMM per offset over all images at once,
``dW[:, :, i, j] = dY_grid.T @ xp[shift(i, j) : ...]``. (Every product goes through
``ops/blas.py``, one BLAS for the whole step: a second one's threads would spin beside
the first's.)

3x3 stride-1 convolutions use Winograd F(2x2, 3x3) (``winograd.py``, when Numba is
installed, once its transforms have compiled) for the forward convolution and the weight
gradient on images of 4x4 and more, and for the input gradient (itself a stride-1
convolution) from 8x8. Measured per call, batch 16 (forward / input gradient / weight
gradient, ms): 64 channels at 32x32 4.2 / 3.9 / 4.6 against the shifted GEMMs' 13.6 /
13.5 / 10.8; 256 at 8x8 2.7 / 3.3 / 2.7 against the weight-major products' 4.5 / 4.0 /
4.6; 512 at 4x4 3.9 / 6.8 / 3.4 against 4.7 / 4.6 / 4.3 (the input gradient's transforms
of dy and of the flipped kernel cost more than its products save there).

Strided convolutions and small images (where the padded grid wastes more than the copy
costs: the input gradient at 4x4, the RGB stem) take weight-major products over an
NCHW im2col built by Numba (``column_kernels.py``, compiled with the Winograd transforms):
``y = W(O, C*KH*KW) @ cols(C*KH*KW, N*OH*OW)`` uses the weight as it is, the weight
gradient ``dY(O, N*OH*OW) @ cols.T`` comes out in the weight's layout, and the input
gradient is col2im of ``W.T @ dY``; only dy and y cross between NCHW and (O, N*OH*OW)
(measured 15-30% faster per call than the channels-last im2col, whose layout copies,
weight transposes and strided col2im cost ~2 ms of each ~6.5 ms call). Until Numba's
kernels are ready they take a channels-last im2col and a single GEMM (its transpose,
col2im, for the input gradient). 1x1 convolutions are plain batched GEMMs on NCHW.
Grouped convolutions and dtypes without a BLAS (float16, bfloat16, integers) take the
general NCHW im2col path.
"""
import numpy as np

from . import winograd
from . import blas

# a stride-1 convolution uses shifted GEMMs when the padded grid wastes at most this much
# (3x3, padding 1: 32x32 -> 1.13, 16x16 -> 1.27, 8x8 -> 1.56, 4x4 -> 2.25)
MAX_GRID_WASTE = 1.3
MIN_SHIFT_CHANNELS = 16       # fewer input channels: one GEMM over im2col (the RGB stem)
BLOCK_BYTES = 2 << 20         # the im2col of one block of output rows: stays in cache
BLAS_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def fast_path(x, w, groups):
    return groups == 1 and x.dtype in BLAS_DTYPES and x.dtype == w.dtype


def _shifted(x_shape, kernel, stride, padding, dilation):
    n, c, h, w = x_shape
    if stride != (1, 1) or c < MIN_SHIFT_CHANNELS or kernel == (1, 1):
        return False
    hp, wp = h + padding[0] + padding[1], w + padding[2] + padding[3]
    oh, ow = hp - dilation[0] * (kernel[0] - 1), wp - dilation[1] * (kernel[1] - 1)
    return hp * wp <= MAX_GRID_WASTE * oh * ow


# output pixels per image from which Winograd pays: the forward convolution and the weight
# gradient from 4x4, the input gradient (the forward of dy) from 8x8
WINOGRAD_MIN_PIXELS = 4 * 4
WINOGRAD_MIN_PIXELS_INPUT_GRAD = 8 * 8


def _winograd(x_shape, dtype, kernel, stride, padding, dilation,
              min_pixels=WINOGRAD_MIN_PIXELS):
    """Whether a convolution of an (N, C, H, W) input takes the Winograd kernels (once
    their transforms have compiled for ``dtype``)."""
    n, c, h, w = x_shape
    if kernel != (3, 3) or stride != (1, 1) or dilation != (1, 1) or c < MIN_SHIFT_CHANNELS:
        return False
    oh, ow = h + padding[0] + padding[1] - 2, w + padding[2] + padding[3] - 2
    return oh * ow >= min_pixels and winograd.ready(dtype)


def _out_hw(x_shape, kernel, stride, padding, dilation):
    hp, wp = x_shape[2] + padding[0] + padding[1], x_shape[3] + padding[2] + padding[3]
    return ((hp - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1,
            (wp - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1)


def _pointwise(kernel, padding, dilation):
    return kernel == (1, 1) and not any(padding)


# ---------------------------------------------------------------------------------------
# layouts

def padded_rows(x, padding):
    """The NCHW input, zero-padded and channels-last, as (N*Hp*Wp, C) rows; Hp, Wp."""
    n, c, h, w = x.shape
    top, bottom, left, right = padding
    hp, wp = h + top + bottom, w + left + right
    rows = np.empty((n * hp * wp, c), x.dtype)
    grid = rows.reshape(n, hp, wp, c)
    if top:
        grid[:, :top] = 0
    if bottom:
        grid[:, hp - bottom:] = 0
    if left:
        grid[:, top:hp - bottom, :left] = 0
    if right:
        grid[:, top:hp - bottom, wp - right:] = 0
    grid[:, top:top + h, left:left + w] = x.transpose(0, 2, 3, 1)
    return rows, hp, wp


def _to_nchw(rows, n, hp, wp, oh, ow):
    """(N*Hp*Wp, O) rows on the padded grid -> contiguous NCHW of the valid OH x OW."""
    o = rows.shape[1]
    return np.ascontiguousarray(rows.reshape(n, hp, wp, o)[:, :oh, :ow].transpose(0, 3, 1, 2))


def _shifted_correlation(xp, hp, wp, weights, kernel, dilation):
    """The stride-1 correlation on the padded grid: (N*Hp*Wp, O) rows (rows past the last
    valid output are not written), one GEMM per block of rows over that block's im2col.
    weights: (O, KH*KW*C), columns ordered (i, j, c)."""
    kh, kw = kernel
    dh, dw = dilation
    total, c = xp.shape
    o = weights.shape[0]
    needed = total - (kh - 1) * dh * wp - (kw - 1) * dw      # last valid output + 1
    out = np.empty((total, o), xp.dtype)
    block = max(64, min(needed, BLOCK_BYTES // (kh * kw * c * xp.itemsize)))
    cols = np.empty((block, kh * kw, c), xp.dtype)
    shifts = [i * dh * wp + j * dw for i in range(kh) for j in range(kw)]
    for start in range(0, needed, block):
        stop = min(start + block, needed)
        part = cols[:stop - start]
        for k, shift in enumerate(shifts):
            part[:, k] = xp[start + shift:stop + shift]
        blas.matmul(part.reshape(stop - start, kh * kw * c), weights.T, out=out[start:stop])
    return out


def _columns(grid, kernel, stride, dilation, oh, ow):
    """Channels-last im2col: (N*OH*OW, KH*KW*C) from the padded (N, Hp, Wp, C) grid."""
    n, _, _, c = grid.shape
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    cols = np.empty((n, oh, ow, kh, kw, c), grid.dtype)
    for i in range(kh):
        for j in range(kw):
            cols[:, :, :, i, j] = grid[:, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                                       j * dw:j * dw + sw * (ow - 1) + 1:sw]
    return cols.reshape(n * oh * ow, kh * kw * c)


def _nhwc_rows(y):
    """NCHW (N, O, H, W) -> (N*H*W, O) rows."""
    n, o = y.shape[:2]
    return np.ascontiguousarray(y.transpose(0, 2, 3, 1)).reshape(-1, o)


# ---------------------------------------------------------------------------------------
# weight-major products over an NCHW im2col (Numba's, ``column_kernels.py``)

def _weight_major(dtype):
    """Whether the Numba im2col / col2im are compiled for ``dtype`` (they compile with the
    Winograd transforms)."""
    return winograd.ready(dtype)


def _nchw_columns(x, kernel, stride, padding, dilation, oh, ow):
    """(C*KH*KW, N*OH*OW) columns, rows ordered (c, i, j) as the weight's columns are."""
    from . import column_kernels
    n, c = x.shape[:2]
    cols = np.empty((c, kernel[0], kernel[1], n, oh, ow), x.dtype)
    column_kernels.im2col(np.ascontiguousarray(x), kernel[0], kernel[1], stride[0],
                          stride[1], dilation[0], dilation[1], padding[0], padding[2], cols)
    return cols.reshape(c * kernel[0] * kernel[1], n * oh * ow)


def _channel_rows(y):
    """NCHW (N, O, H, W) -> (O, N*H*W)."""
    return np.ascontiguousarray(y.transpose(1, 0, 2, 3)).reshape(y.shape[1], -1)


def _from_channel_rows(rows, n, oh, ow):
    """(O, N*OH*OW) -> contiguous NCHW."""
    o = rows.shape[0]
    return np.ascontiguousarray(rows.reshape(o, n, oh, ow).transpose(1, 0, 2, 3))


def _weight_major_forward(x, w, stride, padding, dilation, oh, ow):
    o = w.shape[0]
    cols = _nchw_columns(x, w.shape[2:], stride, padding, dilation, oh, ow)
    return _from_channel_rows(blas.matmul(w.reshape(o, -1), cols), x.shape[0], oh, ow)


def _weight_major_input_grad(dy, w, x_shape, stride, padding, dilation):
    from . import column_kernels
    n, o, oh, ow = dy.shape
    c, kh, kw = w.shape[1:]
    dcols = blas.matmul(w.reshape(o, -1).T, _channel_rows(dy))   # (C*KH*KW, N*OH*OW)
    dx = np.zeros(x_shape, dy.dtype)
    column_kernels.col2im(dcols.reshape(c, kh, kw, n, oh, ow), stride[0], stride[1],
                          dilation[0], dilation[1], padding[0], padding[2], dx)
    return dx


def _weight_major_weight_grad(x, dy, w_shape, stride, padding, dilation):
    oh, ow = dy.shape[2:]
    cols = _nchw_columns(x, w_shape[2:], stride, padding, dilation, oh, ow)
    return blas.matmul(_channel_rows(dy), cols.T).reshape(w_shape)


# ---------------------------------------------------------------------------------------
# the three kernels

def forward(x, w, stride, padding, dilation):
    n = x.shape[0]
    o, c, kh, kw = w.shape
    if _pointwise((kh, kw), padding, dilation):
        xs = x if stride == (1, 1) else x[:, :, ::stride[0], ::stride[1]]
        oh, ow = xs.shape[2], xs.shape[3]
        out = blas.matmul(w.reshape(o, c), xs.reshape(n, c, oh * ow))
        return out.reshape(n, o, oh, ow)
    if _winograd(x.shape, x.dtype, (kh, kw), stride, padding, dilation):
        return winograd.forward(x, w, padding)
    shifted = _shifted(x.shape, (kh, kw), stride, padding, dilation)
    oh, ow = _out_hw(x.shape, (kh, kw), stride, padding, dilation)
    if not shifted and _weight_major(x.dtype):
        return _weight_major_forward(x, w, stride, padding, dilation, oh, ow)
    xp, hp, wp = padded_rows(x, padding)
    # (O, KH*KW*C), each row gathered within its own filter (a cache-friendly copy; a
    # (KH*KW*C, O) layout would stride across the whole weight for every element)
    weights = w.transpose(0, 2, 3, 1).reshape(o, kh * kw * c)
    if shifted:
        return _to_nchw(_shifted_correlation(xp, hp, wp, weights, (kh, kw), dilation), n,
                        hp, wp, oh, ow)
    cols = _columns(xp.reshape(n, hp, wp, c), (kh, kw), stride, dilation, oh, ow)
    out = blas.matmul(cols, weights.T)
    return np.ascontiguousarray(out.reshape(n, oh, ow, o).transpose(0, 3, 1, 2))


def input_grad(dy, w, x_shape, stride, padding, dilation):
    n, c, h, wd = x_shape
    o, _, kh, kw = w.shape
    oh, ow = dy.shape[2], dy.shape[3]
    if _pointwise((kh, kw), padding, dilation):
        dxs = blas.matmul(w.reshape(o, c).T, dy.reshape(n, o, oh * ow)).reshape(n, c, oh, ow)
        if stride == (1, 1):
            return dxs
        dx = np.zeros(x_shape, dy.dtype)
        dx[:, :, ::stride[0], ::stride[1]] = dxs
        return dx
    dh, dw = dilation
    # the padding that makes the gradient a stride-1 correlation of dy (full minus own)
    full = (dh * (kh - 1) - padding[0], dh * (kh - 1) - padding[1],
            dw * (kw - 1) - padding[2], dw * (kw - 1) - padding[3])
    if min(full) >= 0 and _winograd((n, o, oh, ow), dy.dtype, (kh, kw), stride, full,
                                    dilation, WINOGRAD_MIN_PIXELS_INPUT_GRAD):
        # the correlation of dy with the flipped kernel, its in/out channels swapped
        flipped = np.ascontiguousarray(w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3))
        return winograd.forward(dy, flipped, full)
    if stride == (1, 1) and min(full) >= 0 and _shifted(
            (n, o, oh, ow), (kh, kw), stride, full, dilation):
        # rows (i, j, o) of the flipped kernel, each gathered within one filter
        flipped = w[:, :, ::-1, ::-1].transpose(2, 3, 0, 1).reshape(kh * kw * o, c).T
        gp, hp, wp = padded_rows(dy, full)
        return _to_nchw(_shifted_correlation(gp, hp, wp, flipped, (kh, kw), dilation), n,
                        hp, wp, h, wd)
    if _weight_major(dy.dtype):
        return _weight_major_input_grad(dy, w, x_shape, stride, padding, dilation)
    # col2im: scatter each offset's slice of dY @ W back onto the padded grid
    top, bottom, left, right = padding
    sh, sw = stride
    hp, wp = h + top + bottom, wd + left + right
    dcols = blas.matmul(_nhwc_rows(dy), w.transpose(0, 2, 3, 1).reshape(o, kh * kw * c)).reshape(
        n, oh, ow, kh, kw, c)
    grid = np.zeros((n, hp, wp, c), dy.dtype)
    for i in range(kh):
        for j in range(kw):
            grid[:, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                 j * dw:j * dw + sw * (ow - 1) + 1:sw] += dcols[:, :, :, i, j]
    return np.ascontiguousarray(grid[:, top:top + h, left:left + wd].transpose(0, 3, 1, 2))


def weight_grad(x, dy, w_shape, stride, padding, dilation):
    n, c = x.shape[:2]
    o, _, kh, kw = w_shape
    oh, ow = dy.shape[2], dy.shape[3]
    if _pointwise((kh, kw), padding, dilation):
        xs = x if stride == (1, 1) else x[:, :, ::stride[0], ::stride[1]]
        per_image = blas.matmul(dy.reshape(n, o, oh * ow),
                                xs.reshape(n, c, oh * ow).transpose(0, 2, 1))
        return per_image.sum(axis=0, dtype=x.dtype).reshape(w_shape)
    if _winograd(x.shape, x.dtype, (kh, kw), stride, padding, dilation):
        return winograd.weight_grad(x, dy, padding)
    shifted = _shifted(x.shape, (kh, kw), stride, padding, dilation)
    if not shifted and _weight_major(x.dtype):
        return _weight_major_weight_grad(x, dy, w_shape, stride, padding, dilation)
    xp, hp, wp = padded_rows(x, padding)
    if shifted:
        # dY on the padded grid (zeros where no output is), one GEMM per offset
        dh, dw = dilation
        needed = xp.shape[0] - (kh - 1) * dh * wp - (kw - 1) * dw
        grid = np.zeros((n, hp, wp, o), dy.dtype)
        grid[:, :oh, :ow] = dy.transpose(0, 2, 3, 1)
        rows = grid.reshape(-1, o)[:needed]
        taps = np.empty((o, c, kh, kw), x.dtype)
        for i in range(kh):
            for j in range(kw):
                shift = i * dh * wp + j * dw
                taps[:, :, i, j] = blas.matmul(rows.T, xp[shift:shift + needed])
        return taps
    cols = _columns(xp.reshape(n, hp, wp, c), (kh, kw), stride, dilation, oh, ow)
    dw2 = blas.matmul(_nhwc_rows(dy).T, cols)        # (O, KH*KW*C)
    return np.ascontiguousarray(dw2.reshape(o, kh, kw, c).transpose(0, 3, 1, 2))
