"""The Numba transforms of Winograd F(4x4, 3x3) (``winograd4.py`` runs them): 6x6 input
tiles B^T d B, filters G w G^T, products back A^T m A, and the adjoints the weight gradient
needs (A dy A^T, G^T du G). Imported only once Numba is known to be there.

Longer than 500 lines because the helpers live with the kernels that call them: Numba's
disk cache checks only the kernel's own source file, so a helper in another module could
be run stale, compiled into a cached kernel, after an edit.

The 36-plane buffers are passed as their C-contiguous (36, plane stride) rows
(``winograd.plane_rows``); plane 6 k + l holds entry (k, l) of each transformed tile, the
tiles ordered (channel, image, tile row, tile column), the filters (out, in channel).

Each 2-D transform is its 1-D one applied to the tile's columns, then to its rows, over
blocks of ``BLOCK`` tiles (or filters): a block buffer holds entry e of every tile at
e * ROW, so a 1-D pass is a loop over the block with one tile per SIMD lane. Such a loop
vectorizes only if LLVM can tell its stores apart from its loads: block rows a constant
apart, plane rows as separate views (two rows of one array a run-time stride apart, it
gives up). The tiles move between the NCHW images and the blocks in scalar loops (offsets
unsigned: Numba checks a signed index for wraparound, 3x the instructions of a load),
except the input's windows: from a copy of the plane with its rows grouped by row mod 4,
a window row of consecutive tiles is a stride-4 run, which vectorizes.

Where the time goes (one thread, 64 channels at 32x32, batch 16, float32): the input
transform 0.7 ms moving windows into blocks, 0.15 ms for the column passes, 1.0 ms for the
row passes, which write the 9.4 MB of planes; the output transform 1.1 ms reading the
planes, 0.1 ms in the passes, 0.5 ms writing y. What is left is the plane buffers' memory
traffic: 2.25x the input, against F(2x2)'s 4x.
"""
import numba
import numpy as np
from numba import njit, prange

from . import thread_pool

thread_pool.configure_numba()

BLOCK = 256          # tiles per block: its entries stay in L1 / L2, loops stay long
# entry e of a block's tiles starts at e * ROW: rows a power of two apart would put the
# 16-36 rows a pass touches at once in a few cache sets (measured: BLOCK 1024, the output
# transform's adjoint 3.3x slower), so they are one cache line (float32) further apart
ROW = BLOCK + 16
# the parallel iterations of a kernel, each a run of blocks (Numba hoists their scratch
# allocations out of the loop: a thread allocates them once per call)
MAX_WORKERS = 64


# ---------------------------------------------------------------------------------------
# the 1-D transforms (points 0, 1, -1, 2, -2, infinity); constants of the array's type are
# passed in, since a Python number would promote float32 arithmetic to float64

@njit(cache=True)
def _bt(d0, d1, d2, d3, d4, d5, two, four):
    """B^T d: rows (4, 0, -5, 0, 1, 0), (0, -4, -4, 1, 1, 0), (0, 4, -4, -1, 1, 0),
    (0, -2, -1, 2, 1, 0), (0, 2, -1, -2, 1, 0), (0, 4, 0, -5, 0, 1)."""
    even = d4 - four * d2
    odd = d3 - four * d1
    near = d4 - d2
    far = two * (d3 - d1)
    return (four * (d0 - d2) + near, even + odd, even - odd, near + far, near - far,
            four * (d1 - d3) + (d5 - d3))


@njit(cache=True)
def _at(m0, m1, m2, m3, m4, m5, two, four, eight):
    """A^T m: rows (1, 1, 1, 1, 1, 0), (0, 1, -1, 2, -2, 0), (0, 1, 1, 4, 4, 0),
    (0, 1, -1, 8, -8, 1)."""
    s12 = m1 + m2
    d12 = m1 - m2
    s34 = m3 + m4
    d34 = m3 - m4
    return m0 + s12 + s34, d12 + two * d34, s12 + four * s34, d12 + eight * d34 + m5


@njit(cache=True)
def _a(g0, g1, g2, g3, two, four, eight):
    """A g, the adjoint of ``_at``: (g0, g0+g1+g2+g3, g0-g1+g2-g3, g0+2g1+4g2+8g3,
    g0-2g1+4g2-8g3, g3)."""
    even = g0 + g2
    odd = g1 + g3
    even4 = g0 + four * g2
    odd4 = two * g1 + eight * g3
    return g0, even + odd, even - odd, even4 + odd4, even4 - odd4, g3


@njit(cache=True)
def _g(w0, w1, w2, c):
    """G w: rows (1/4, 0, 0), (-1/6, -1/6, -1/6), (-1/6, 1/6, -1/6), (1/24, 1/12, 1/6),
    (1/24, -1/12, 1/6), (0, 0, 1); c = (1/4, 1/6, 1/12, 1/24) in the array's type."""
    outer = w0 + w2
    mid = c[3] * w0 + c[1] * w2
    return (c[0] * w0, -c[1] * (outer + w1), -c[1] * (outer - w1), mid + c[2] * w1,
            mid - c[2] * w1, w2)


@njit(cache=True)
def _gt(u0, u1, u2, u3, u4, u5, c):
    """G^T u, the adjoint of ``_g``."""
    s12, d12 = u1 + u2, u1 - u2
    s34, d34 = u3 + u4, u3 - u4
    return (c[0] * u0 - c[1] * s12 + c[3] * s34, c[2] * d34 - c[1] * d12,
            c[1] * (s34 - s12) + u5)


# ---------------------------------------------------------------------------------------
# passes over a block (entry e of tile g at e * ROW + g), vectorized over the tiles; the
# plane rows come as slices starting at the block's first tile (an index that LLVM cannot
# prove non-negative gets Numba's wraparound select, and the loop does not vectorize)

@njit(cache=True)
def _six(rows, first, start, stop):
    """Planes first .. first + 5 of ``rows``, columns start .. stop: six views (one 2-D
    view would be one array to LLVM, its rows a run-time stride apart)."""
    return (rows[first, start:stop], rows[first + 1, start:stop], rows[first + 2, start:stop],
            rows[first + 3, start:stop], rows[first + 4, start:stop],
            rows[first + 5, start:stop])


@njit(cache=True)
def _put6(p, g, s):
    p[0][g] = s[0]
    p[1][g] = s[1]
    p[2][g] = s[2]
    p[3][g] = s[3]
    p[4][g] = s[4]
    p[5][g] = s[5]


@njit(cache=True)
def _bt_columns(d, e, count, two, four):
    """e[k, q] = (B^T d)[k, q] for every tile, d and e 6x6 entries (row * 6 + column)."""
    for q in range(6):
        for g in range(count):
            o = q * ROW + g
            s = _bt(d[o], d[o + 6 * ROW], d[o + 12 * ROW], d[o + 18 * ROW],
                    d[o + 24 * ROW], d[o + 30 * ROW], two, four)
            e[o] = s[0]
            e[o + 6 * ROW] = s[1]
            e[o + 12 * ROW] = s[2]
            e[o + 18 * ROW] = s[3]
            e[o + 24 * ROW] = s[4]
            e[o + 30 * ROW] = s[5]


@njit(cache=True)
def _bt_row(e, k, p, two, four):
    """Row k of (B^T d) B for every tile, into ``p``: planes 6k .. 6k + 5."""
    for g in range(p[0].size):
        o = 6 * k * ROW + g
        s = _bt(e[o], e[o + ROW], e[o + 2 * ROW], e[o + 3 * ROW], e[o + 4 * ROW],
                e[o + 5 * ROW], two, four)
        _put6(p, g, s)


@njit(cache=True)
def _at_row(a, p, z, two, four, eight):
    """Row a of m A (4 entries) for every tile, from ``p``: planes 6a .. 6a + 5; into
    z[a, j] (row * 4 + column)."""
    for g in range(p[0].size):
        s = _at(p[0][g], p[1][g], p[2][g], p[3][g], p[4][g], p[5][g], two, four, eight)
        o = 4 * a * ROW + g
        z[o] = s[0]
        z[o + ROW] = s[1]
        z[o + 2 * ROW] = s[2]
        z[o + 3 * ROW] = s[3]


@njit(cache=True)
def _at_columns(z, out, count, two, four, eight):
    """out[i, j] = (A^T z)[i, j] for every tile, z 6x4 entries, out 4x4."""
    for j in range(4):
        for g in range(count):
            o = j * ROW + g
            s = _at(z[o], z[o + 4 * ROW], z[o + 8 * ROW], z[o + 12 * ROW],
                    z[o + 16 * ROW], z[o + 20 * ROW], two, four, eight)
            out[o] = s[0]
            out[o + 4 * ROW] = s[1]
            out[o + 8 * ROW] = s[2]
            out[o + 12 * ROW] = s[3]


@njit(cache=True)
def _a_columns(gin, h, count, two, four, eight):
    """h[k, j] = (A g)[k, j] for every tile, g 4x4 entries, h 6x4."""
    for j in range(4):
        for g in range(count):
            o = j * ROW + g
            s = _a(gin[o], gin[o + 4 * ROW], gin[o + 8 * ROW], gin[o + 12 * ROW],
                   two, four, eight)
            h[o] = s[0]
            h[o + 4 * ROW] = s[1]
            h[o + 8 * ROW] = s[2]
            h[o + 12 * ROW] = s[3]
            h[o + 16 * ROW] = s[4]
            h[o + 20 * ROW] = s[5]


@njit(cache=True)
def _a_row(h, k, p, two, four, eight):
    """Row k of (A g) A^T for every tile, into ``p``: planes 6k .. 6k + 5."""
    for g in range(p[0].size):
        o = 4 * k * ROW + g
        _put6(p, g, _a(h[o], h[o + ROW], h[o + 2 * ROW], h[o + 3 * ROW], two, four,
                       eight))


@njit(cache=True)
def _g_columns(w, h, count, c):
    """h[k, j] = (G w)[k, j] for every filter, w 3x3 entries, h 6x3."""
    for j in range(3):
        for g in range(count):
            o = j * ROW + g
            s = _g(w[o], w[o + 3 * ROW], w[o + 6 * ROW], c)
            h[o] = s[0]
            h[o + 3 * ROW] = s[1]
            h[o + 6 * ROW] = s[2]
            h[o + 9 * ROW] = s[3]
            h[o + 12 * ROW] = s[4]
            h[o + 15 * ROW] = s[5]


@njit(cache=True)
def _g_row(h, k, p, c):
    """Row k of (G w) G^T for every filter, into ``p``: planes 6k .. 6k + 5."""
    for g in range(p[0].size):
        o = 3 * k * ROW + g
        _put6(p, g, _g(h[o], h[o + ROW], h[o + 2 * ROW], c))


@njit(cache=True)
def _gt_row(k, p, h, c):
    """Row k of du G (3 entries) for every filter, from ``p``: planes 6k .. 6k + 5; into
    h[k, j]."""
    for g in range(p[0].size):
        s = _gt(p[0][g], p[1][g], p[2][g], p[3][g], p[4][g], p[5][g], c)
        o = 3 * k * ROW + g
        h[o] = s[0]
        h[o + ROW] = s[1]
        h[o + 2 * ROW] = s[2]


@njit(cache=True)
def _gt_columns(h, out, count, c):
    """out[i, j] = (G^T h)[i, j] for every filter, h 6x3 entries, out 3x3."""
    for j in range(3):
        for g in range(count):
            o = j * ROW + g
            s = _gt(h[o], h[o + 3 * ROW], h[o + 6 * ROW], h[o + 9 * ROW],
                    h[o + 12 * ROW], h[o + 15 * ROW], c)
            out[o] = s[0]
            out[o + 3 * ROW] = s[1]
            out[o + 6 * ROW] = s[2]


# ---------------------------------------------------------------------------------------
# moving tiles between images and blocks: scalar loops, their offsets unsigned (Numba
# checks a signed index for wraparound: 3x the instructions of a plain load)

@njit(cache=True)
def _load_plane(flat, plane, h, w, top, left, th, tw, rows, edge):
    """The H x W plane at flat[plane] (x flattened), zero-padded, its rows grouped by row
    mod 4: padded row 4 i + f, columns below 4 TW, at rows[(f * (TH + 1) + i) * 4 TW], its
    two columns past at edge[2 (f * (TH + 1) + i)]. Then window row r, column q of a
    plane's tiles is rows[base(r) + 4 t + q] for consecutive tiles t (but for q = 4, 5 of a
    tile row's last tile: the edge's). What lies in the padding stays zero from plane to
    plane."""
    width = 4 * tw
    inside = min(w, max(width - left, 0))
    u = np.uint64
    source = u(plane)
    for i in range(h):
        line = (top + i) % 4 * (th + 1) + (top + i) // 4
        to = u(line * width + left)
        for j in range(inside):
            rows[to + u(j)] = flat[source + u(j)]
        for j in range(inside, w):
            edge[2 * line + left + j - width] = flat[source + u(j)]
        source += u(w)


@njit(cache=True)
def _window_row(src, first, dst, at, count):
    """Row r of ``count`` consecutive windows: dst[at + q * ROW + t] = src[first + 4 t + q]
    (offsets rather than slices: making a view costs more than a plane of a 4x4 image)."""
    u = np.uint64
    block, four = u(ROW), u(4)
    for t in range(count):
        i = u(first) + four * u(t)
        j = u(at) + u(t)
        dst[j] = src[i]
        dst[j + block] = src[i + u(1)]
        dst[j + u(2) * block] = src[i + u(2)]
        dst[j + u(3) * block] = src[i + u(3)]
        dst[j + four * block] = src[i + four]
        dst[j + u(5) * block] = src[i + u(5)]


@njit(cache=True)
def _gather_input(x, flat, top, left, th, tw, start, count, rows, edge, loaded, d):
    """The 6x6 windows (stride 4) of tiles start .. start + count (ordered channel, image,
    tile row, tile column) into block ``d``, a plane's tiles at a time; ``rows``, ``edge``
    hold plane ``loaded`` (``_load_plane``). Returns the plane they hold after. ``flat``:
    x flattened (made once per call: a reshape costs more than a small plane)."""
    n_img, n_ch, h, w = x.shape
    width, tiles = 4 * tw, th * tw
    g = 0
    p, t = start // tiles, start % tiles
    while g < count:
        if p != loaded:
            _load_plane(flat, (p % n_img * n_ch + p // n_img) * h * w, h, w, top, left, th, tw,
                        rows, edge)
            loaded = p
        run = min(tiles - t, count - g)
        for r in range(6):
            _window_row(rows, (r % 4 * (th + 1) + r // 4) * width + 4 * t, d,
                        6 * r * ROW + g, run)
        ty = t // tw
        last = (ty + 1) * tw - 1 - t          # a tile row's last tile, from t
        while last < run:
            for r in range(6):
                line = r % 4 * (th + 1) + ty + r // 4
                d[(6 * r + 4) * ROW + g + last] = edge[2 * line]
                d[(6 * r + 5) * ROW + g + last] = edge[2 * line + 1]
            last += tw
            ty += 1
        g += run
        t = 0
        p += 1
    return loaded


@njit(cache=True)
def _scatter_output(out, start, count, y, flat):
    """Block ``out`` (4x4 entries per tile) into the 4x4 blocks of y (N, O, OH, OW) for
    tiles start .. start + count (ordered out channel, image, tile row, tile column),
    dropping what falls past OH, OW; ``flat``: y flattened."""
    n_img, n_out, oh, ow = y.shape
    th, tw = (oh + 3) // 4, (ow + 3) // 4
    tiles = th * tw
    u = np.uint64
    uow, block = u(ow), u(ROW)
    g = 0
    p, t = start // tiles, start % tiles
    while g < count:
        run = min(tiles - t, count - g)
        plane = (p % n_img * n_out + p // n_img) * oh * ow
        ty, tx = t // tw, t % tw
        for at in range(g, g + run):
            i0, j0 = 4 * ty, 4 * tx
            corner = u(plane + i0 * ow + j0)
            if i0 + 4 <= oh and j0 + 4 <= ow:
                o = u(at)
                for i in range(4):
                    flat[corner] = out[o]
                    flat[corner + u(1)] = out[o + block]
                    flat[corner + u(2)] = out[o + u(2) * block]
                    flat[corner + u(3)] = out[o + u(3) * block]
                    corner += uow
                    o += u(4) * block
            else:
                for i in range(min(4, oh - i0)):
                    for j in range(min(4, ow - j0)):
                        flat[corner + u(i) * uow + u(j)] = out[(4 * i + j) * ROW + at]
            tx += 1
            if tx == tw:
                tx = 0
                ty += 1
        g += run
        t = 0
        p += 1


@njit(cache=True)
def _gather_output_gradient(dy, flat, start, count, gin):
    """The 4x4 blocks of dy for tiles start .. start + count into block ``gin``, zero
    past OH, OW; ``flat``: dy flattened."""
    n_img, n_out, oh, ow = dy.shape
    th, tw = (oh + 3) // 4, (ow + 3) // 4
    tiles = th * tw
    u = np.uint64
    uow, block = u(ow), u(ROW)
    zero = dy.dtype.type(0)
    g = 0
    p, t = start // tiles, start % tiles
    while g < count:
        run = min(tiles - t, count - g)
        plane = (p % n_img * n_out + p // n_img) * oh * ow
        ty, tx = t // tw, t % tw
        for at in range(g, g + run):
            i0, j0 = 4 * ty, 4 * tx
            corner = u(plane + i0 * ow + j0)
            if i0 + 4 <= oh and j0 + 4 <= ow:
                o = u(at)
                for i in range(4):
                    gin[o] = flat[corner]
                    gin[o + block] = flat[corner + u(1)]
                    gin[o + u(2) * block] = flat[corner + u(2)]
                    gin[o + u(3) * block] = flat[corner + u(3)]
                    corner += uow
                    o += u(4) * block
            else:
                for i in range(4):
                    for j in range(4):
                        inside = i0 + i < oh and j0 + j < ow
                        gin[(4 * i + j) * ROW + at] = (
                            flat[corner + u(i) * uow + u(j)] if inside else zero)
            tx += 1
            if tx == tw:
                tx = 0
                ty += 1
        g += run
        t = 0
        p += 1


@njit(cache=True)
def _gather_filters(wf, start, count, block):
    """Filters start .. start + count (9 entries each, flat) into ``block``."""
    u = np.uint64
    for g in range(count):
        f = u(9 * (start + g))
        for e in range(9):
            block[u(e * ROW + g)] = wf[f + u(e)]


@njit(cache=True)
def _scatter_filters(block, start, count, wf):
    u = np.uint64
    for g in range(count):
        f = u(9 * (start + g))
        for e in range(9):
            wf[f + u(e)] = block[u(e * ROW + g)]


@njit(cache=True)
def _workers(total):
    """How many parallel iterations take the blocks of ``total`` tiles, and the blocks."""
    blocks = -(-total // BLOCK)
    return min(blocks, MAX_WORKERS), blocks


@njit(cache=True)
def _block_span(worker, workers, blocks):
    """The run of blocks parallel iteration ``worker`` takes."""
    return worker * blocks // workers, (worker + 1) * blocks // workers


# ---------------------------------------------------------------------------------------
# the kernels, in parallel over runs of blocks

@njit(parallel=True, cache=True)
def input_transform(x, top, left, th, tw, v):
    """x (N, C, H, W) -> v rows (36, C*N*TH*TW): B^T d B of each 6x6 window (stride 4) of
    the plane zero-padded by ``top``, ``left`` (and past the bottom and right edges)."""
    n_img, n_ch = x.shape[0], x.shape[1]
    two, four = x.dtype.type(2), x.dtype.type(4)
    flat = x.reshape(x.size)
    total = n_img * n_ch * th * tw
    workers, blocks = _workers(total)
    for worker in prange(workers):
        rows = np.zeros(4 * (th + 1) * 4 * tw + 2, x.dtype)
        edge = np.zeros(8 * (th + 1), x.dtype)
        d = np.empty(36 * ROW, x.dtype)
        e = np.empty(36 * ROW, x.dtype)
        loaded = -1
        first, last = _block_span(worker, workers, blocks)
        for b in range(first, last):
            start = b * BLOCK
            count = min(BLOCK, total - start)
            loaded = _gather_input(x, flat, top, left, th, tw, start, count, rows, edge, loaded,
                                   d)
            _bt_columns(d, e, count, two, four)
            stop = start + count
            for k in range(6):
                _bt_row(e, k, _six(v, 6 * k, start, stop), two, four)


@njit(parallel=True, cache=True)
def output_transform(m, y):
    """m rows (36, O*N*TH*TW) -> y (N, O, OH, OW): A^T m A per tile, the rows and columns
    past OH, OW dropped."""
    n_img, n_out, oh, ow = y.shape
    two, four, eight = y.dtype.type(2), y.dtype.type(4), y.dtype.type(8)
    flat = y.reshape(y.size)
    total = n_img * n_out * ((oh + 3) // 4) * ((ow + 3) // 4)
    workers, blocks = _workers(total)
    for worker in prange(workers):
        z = np.empty(24 * ROW, y.dtype)
        out = np.empty(16 * ROW, y.dtype)
        first, last = _block_span(worker, workers, blocks)
        for b in range(first, last):
            start = b * BLOCK
            count = min(BLOCK, total - start)
            stop = start + count
            for a in range(6):
                _at_row(a, _six(m, 6 * a, start, stop), z, two, four, eight)
            _at_columns(z, out, count, two, four, eight)
            _scatter_output(out, start, count, y, flat)


@njit(parallel=True, cache=True)
def output_transform_adjoint(dy, dm):
    """dy (N, O, OH, OW) -> dm rows (36, O*N*TH*TW): A g A^T of each 4x4 block of the
    output gradient (zero past OH, OW)."""
    n_img, n_out, oh, ow = dy.shape
    two, four, eight = dy.dtype.type(2), dy.dtype.type(4), dy.dtype.type(8)
    flat = dy.reshape(dy.size)
    total = n_img * n_out * ((oh + 3) // 4) * ((ow + 3) // 4)
    workers, blocks = _workers(total)
    for worker in prange(workers):
        gin = np.empty(16 * ROW, dy.dtype)
        h = np.empty(24 * ROW, dy.dtype)
        first, last = _block_span(worker, workers, blocks)
        for b in range(first, last):
            start = b * BLOCK
            count = min(BLOCK, total - start)
            _gather_output_gradient(dy, flat, start, count, gin)
            _a_columns(gin, h, count, two, four, eight)
            stop = start + count
            for k in range(6):
                _a_row(h, k, _six(dm, 6 * k, start, stop), two, four, eight)


@njit(cache=True)
def _g_constants(dtype_like):
    t = dtype_like.dtype.type
    return t(0.25), t(1.0 / 6.0), t(1.0 / 12.0), t(1.0 / 24.0)


@njit(parallel=True, cache=True)
def filter_transform(w, u):
    """w (O, C, 3, 3) -> u rows (36, O*C): G w G^T."""
    total = w.shape[0] * w.shape[1]
    wf = w.reshape(9 * total)
    c = _g_constants(w)
    workers, blocks = _workers(total)
    for worker in prange(workers):
        block = np.empty(9 * ROW, w.dtype)
        h = np.empty(18 * ROW, w.dtype)
        first, last = _block_span(worker, workers, blocks)
        for b in range(first, last):
            start = b * BLOCK
            count = min(BLOCK, total - start)
            _gather_filters(wf, start, count, block)
            _g_columns(block, h, count, c)
            stop = start + count
            for k in range(6):
                _g_row(h, k, _six(u, 6 * k, start, stop), c)


@njit(parallel=True, cache=True)
def filter_transform_adjoint(du, dw):
    """du rows (36, O*C) -> dw (O, C, 3, 3): G^T du G."""
    total = dw.shape[0] * dw.shape[1]
    wf = dw.reshape(9 * total)
    c = _g_constants(dw)
    workers, blocks = _workers(total)
    for worker in prange(workers):
        h = np.empty(18 * ROW, dw.dtype)
        block = np.empty(9 * ROW, dw.dtype)
        first, last = _block_span(worker, workers, blocks)
        for b in range(first, last):
            start = b * BLOCK
            count = min(BLOCK, total - start)
            stop = start + count
            for k in range(6):
                _gt_row(k, _six(du, 6 * k, start, stop), h, c)
            _gt_columns(h, block, count, c)
            _scatter_filters(block, start, count, wf)


def compile_for(dtype):
    """Compile (or load from Numba's disk cache) every transform for ``dtype``, for the
    arrays ``winograd4.py`` passes: C-contiguous images and filters, C-contiguous plane
    rows. Compiled without running (see ``winograd_transforms.compile_for``)."""
    scalar = numba.from_dtype(np.dtype(dtype))
    i64 = numba.types.int64
    image = numba.types.Array(scalar, 4, "C")
    rows = numba.types.Array(scalar, 2, "C")
    input_transform.compile((image, i64, i64, i64, i64, rows))
    output_transform.compile((rows, image))
    output_transform_adjoint.compile((image, rows))
    filter_transform.compile((image, rows))
    filter_transform_adjoint.compile((rows, image))
