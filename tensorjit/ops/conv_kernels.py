"""The convolution algorithms (NumPy + BLAS + Numba), each computing the forward, input
gradient or weight gradient for the shapes it applies to; ``conv_select.py`` picks one per
shape, ``conv.py`` declares the primitives.

Inputs and results are NCHW. The shifted algorithm works channels-last (NHWC), where a
kernel offset (i, j) of a stride-1 convolution is a *shift*: with the zero-padded input
flattened to rows of C values, output row r reads input row r + shift(i, j),
shift = i*dh*Wp + j*dw. So the forward convolution is, block of output rows by block,

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

3x3 stride-1 convolutions can also take Winograd F(4x4, 3x3) or F(2x2, 3x3)
(``winograd4.py``, ``winograd.py``: fewer multiplications, transforms in Numba; the input
gradient, itself a stride-1 convolution, is their forward on the flipped kernel).

The weight-major algorithm runs products over an NCHW im2col built by Numba
(``column_kernels.py``, compiled with the Winograd transforms):
``y = W(O, C*KH*KW) @ cols(C*KH*KW, N*OH*OW)`` uses the weight as it is, the weight
gradient ``dY(O, N*OH*OW) @ cols.T`` comes out in the weight's layout, and the input
gradient is col2im of ``W.T @ dY``; only dy and y cross between NCHW and (O, N*OH*OW).
The channels-last im2col (one GEMM; its transpose, col2im, for the input gradient) needs no
Numba. 1x1 convolutions are plain batched GEMMs on NCHW. Which algorithm runs a shape is
``conv_select.py``'s choice, measured per machine (docs/training_performance.md has the
figures). Grouped convolutions and dtypes without a BLAS (float16, bfloat16, integers)
take ``conv.py``'s general NCHW im2col path.
"""
import numpy as np

from . import blas

BLOCK_BYTES = 2 << 20         # the im2col of one block of output rows: stays in cache


def out_hw(x_shape, kernel, stride, padding, dilation):
    hp, wp = x_shape[2] + padding[0] + padding[1], x_shape[3] + padding[2] + padding[3]
    return ((hp - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1,
            (wp - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1)


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


def weight_major_forward(x, w, stride, padding, dilation):
    o = w.shape[0]
    oh, ow = out_hw(x.shape, w.shape[2:], stride, padding, dilation)
    cols = _nchw_columns(x, w.shape[2:], stride, padding, dilation, oh, ow)
    return _from_channel_rows(blas.matmul(w.reshape(o, -1), cols), x.shape[0], oh, ow)


def weight_major_input_grad(dy, w, x_shape, stride, padding, dilation):
    from . import column_kernels
    n, o, oh, ow = dy.shape
    c, kh, kw = w.shape[1:]
    dcols = blas.matmul(w.reshape(o, -1).T, _channel_rows(dy))   # (C*KH*KW, N*OH*OW)
    dx = np.zeros(x_shape, dy.dtype)
    column_kernels.col2im(dcols.reshape(c, kh, kw, n, oh, ow), stride[0], stride[1],
                          dilation[0], dilation[1], padding[0], padding[2], dx)
    return dx


def weight_major_weight_grad(x, dy, w_shape, stride, padding, dilation):
    oh, ow = dy.shape[2:]
    cols = _nchw_columns(x, w_shape[2:], stride, padding, dilation, oh, ow)
    return blas.matmul(_channel_rows(dy), cols.T).reshape(w_shape)


# ---------------------------------------------------------------------------------------
# the algorithms, each computing one primitive on the shapes it applies to
# (``conv_select.py`` says which apply and picks one per shape)

def full_padding(kernel, padding, dilation):
    """The padding that makes the input gradient a stride-1 correlation of dy (full minus
    the forward's own)."""
    (kh, kw), (dh, dw) = kernel, dilation
    return (dh * (kh - 1) - padding[0], dh * (kh - 1) - padding[1],
            dw * (kw - 1) - padding[2], dw * (kw - 1) - padding[3])


def pointwise_forward(x, w, stride, padding, dilation):
    n = x.shape[0]
    o, c = w.shape[:2]
    xs = x if stride == (1, 1) else x[:, :, ::stride[0], ::stride[1]]
    oh, ow = xs.shape[2], xs.shape[3]
    return blas.matmul(w.reshape(o, c), xs.reshape(n, c, oh * ow)).reshape(n, o, oh, ow)


def pointwise_input_grad(dy, w, x_shape, stride, padding, dilation):
    n, c = x_shape[:2]
    o = w.shape[0]
    oh, ow = dy.shape[2], dy.shape[3]
    dxs = blas.matmul(w.reshape(o, c).T, dy.reshape(n, o, oh * ow)).reshape(n, c, oh, ow)
    if stride == (1, 1):
        return dxs
    dx = np.zeros(x_shape, dy.dtype)
    dx[:, :, ::stride[0], ::stride[1]] = dxs
    return dx


def pointwise_weight_grad(x, dy, w_shape, stride, padding, dilation):
    n, c = x.shape[:2]
    o, oh, ow = dy.shape[1:]
    xs = x if stride == (1, 1) else x[:, :, ::stride[0], ::stride[1]]
    per_image = blas.matmul(dy.reshape(n, o, oh * ow),
                            xs.reshape(n, c, oh * ow).transpose(0, 2, 1))
    return per_image.sum(axis=0, dtype=x.dtype).reshape(w_shape)


def winograd_forward(method, chunk_bytes):
    """Winograd's forward (``method``: the winograd or winograd4 module) at a chunk size."""
    def run(x, w, stride, padding, dilation):
        return method.forward(x, w, padding, chunk_bytes=chunk_bytes)
    return run


def winograd_input_grad(method, chunk_bytes):
    def run(dy, w, x_shape, stride, padding, dilation):
        # the correlation of dy with the flipped kernel, its in/out channels swapped
        flipped = np.ascontiguousarray(w[:, :, ::-1, ::-1].transpose(1, 0, 2, 3))
        return method.forward(dy, flipped, full_padding(w.shape[2:], padding, dilation),
                              chunk_bytes=chunk_bytes)
    return run


def winograd_weight_grad(method, chunk_bytes):
    def run(x, dy, w_shape, stride, padding, dilation):
        return method.weight_grad(x, dy, padding, chunk_bytes=chunk_bytes)
    return run


def _channels_last_operands(x, w, padding):
    """The padded input as channels-last rows (and Hp, Wp), and the weight as (O, KH*KW*C),
    each row gathered within its own filter (a cache-friendly copy; a (KH*KW*C, O) layout
    would stride across the whole weight for every element)."""
    o, c, kh, kw = w.shape
    xp, hp, wp = padded_rows(x, padding)
    return xp, hp, wp, w.transpose(0, 2, 3, 1).reshape(o, kh * kw * c)


def shifted_forward(x, w, stride, padding, dilation):
    n = x.shape[0]
    kh, kw = w.shape[2:]
    oh, ow = out_hw(x.shape, (kh, kw), stride, padding, dilation)
    xp, hp, wp, weights = _channels_last_operands(x, w, padding)
    return _to_nchw(_shifted_correlation(xp, hp, wp, weights, (kh, kw), dilation), n,
                    hp, wp, oh, ow)


def shifted_input_grad(dy, w, x_shape, stride, padding, dilation):
    n, c, h, wd = x_shape
    o, _, kh, kw = w.shape
    # rows (i, j, o) of the flipped kernel, each gathered within one filter
    flipped = w[:, :, ::-1, ::-1].transpose(2, 3, 0, 1).reshape(kh * kw * o, c).T
    gp, hp, wp = padded_rows(dy, full_padding((kh, kw), padding, dilation))
    return _to_nchw(_shifted_correlation(gp, hp, wp, flipped, (kh, kw), dilation), n,
                    hp, wp, h, wd)


def shifted_weight_grad(x, dy, w_shape, stride, padding, dilation):
    # dY on the padded grid (zeros where no output is), one GEMM per offset
    n, c = x.shape[:2]
    o, _, kh, kw = w_shape
    oh, ow = dy.shape[2], dy.shape[3]
    xp, hp, wp = padded_rows(x, padding)
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


def im2col_forward(x, w, stride, padding, dilation):
    n = x.shape[0]
    o, c, kh, kw = w.shape
    oh, ow = out_hw(x.shape, (kh, kw), stride, padding, dilation)
    xp, hp, wp, weights = _channels_last_operands(x, w, padding)
    cols = _columns(xp.reshape(n, hp, wp, c), (kh, kw), stride, dilation, oh, ow)
    out = blas.matmul(cols, weights.T)
    return np.ascontiguousarray(out.reshape(n, oh, ow, o).transpose(0, 3, 1, 2))


def im2col_input_grad(dy, w, x_shape, stride, padding, dilation):
    # col2im: scatter each offset's slice of dY @ W back onto the padded grid
    n, c, h, wd = x_shape
    o, _, kh, kw = w.shape
    oh, ow = dy.shape[2], dy.shape[3]
    top, bottom, left, right = padding
    (sh, sw), (dh, dw) = stride, dilation
    hp, wp = h + top + bottom, wd + left + right
    dcols = blas.matmul(_nhwc_rows(dy), w.transpose(0, 2, 3, 1).reshape(o, kh * kw * c)).reshape(
        n, oh, ow, kh, kw, c)
    grid = np.zeros((n, hp, wp, c), dy.dtype)
    for i in range(kh):
        for j in range(kw):
            grid[:, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                 j * dw:j * dw + sw * (ow - 1) + 1:sw] += dcols[:, :, :, i, j]
    return np.ascontiguousarray(grid[:, top:top + h, left:left + wd].transpose(0, 3, 1, 2))


def im2col_weight_grad(x, dy, w_shape, stride, padding, dilation):
    n, c = x.shape[:2]
    o, _, kh, kw = w_shape
    oh, ow = dy.shape[2], dy.shape[3]
    xp, hp, wp = padded_rows(x, padding)
    cols = _columns(xp.reshape(n, hp, wp, c), (kh, kw), stride, dilation, oh, ow)
    dw2 = blas.matmul(_nhwc_rows(dy).T, cols)        # (O, KH*KW*C)
    return np.ascontiguousarray(dw2.reshape(o, kh, kw, c).transpose(0, 3, 1, 2))
