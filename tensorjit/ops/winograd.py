"""Winograd F(2x2, 3x3) convolution kernels for 3x3 stride-1 convolutions (Numba transforms,
the products through ``blas.py``); ``conv_kernels.py`` picks them per shape.

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

F(4x4, 3x3) (``winograd4.py``: 4x fewer multiplications, 36 planes) has the same contract
and shares this module's compile, buffers and chunks. The transforms of both compile in a
background thread on first use (on the 2-core development machine F(2x2)'s 7-8 s, F(4x4)'s
15-19 s per dtype; then Numba's disk cache loads them in a fraction of a second), together
with the Numba im2col / col2im of ``column_kernels.py``; until they are ready (``ready``)
the convolutions take the other kernels.

The plane buffers are large (16/4 = 4x the input; F(4x4)'s 36/16 = 2.25x); they are kept
per thread and reused (``plane_rows``, ``planes``), since fresh allocations of that size
come from the OS as zero pages faulted in one by one (measured: half the time of a
fresh-buffer forward at 32x32, 64 channels), and the batch goes through them in chunks of
images (``image_chunks``: at most ``chunk_bytes`` of transformed input each, by default
``CHUNK_BYTES``; a caller may pass its own, measured per machine).
"""
import importlib.util
import os
import threading

import numpy as np

from ..locks import ForkSafeLock, at_fork
from . import blas, thread_pool

# like O1's kernels (backend/numba/background.py), the transforms compile in a thread
# while the convolutions run on the other kernels; 0: compile at first use, waiting
BACKGROUND = os.environ.get("TENSORJIT_BACKGROUND_COMPILE", "1") != "0"
FORK_WAIT_SECONDS = 60.0

_transforms = None            # the winograd_transforms module, once imported
_ready = set()                # dtypes whose transforms are compiled
_threads = {}                 # dtype -> its compiling thread
_state_lock = threading.Lock()
_compile_lock = ForkSafeLock()   # held while compiling: a fork waits for it (bounded)
_held_for_fork = [False]
_workspace = threading.local()


def available():
    """Whether Winograd can run here at all (Numba installed, and not a child forked off
    the OpenMP pool)."""
    return thread_pool.usable() and importlib.util.find_spec("numba") is not None


def ready(dtype):
    """Whether the transforms for ``dtype`` (F(2x2)'s and F(4x4)'s) are compiled. The
    first call starts compiling them (in the background unless
    ``TENSORJIT_BACKGROUND_COMPILE=0``) and says False until they are; the callers take
    the other convolution kernels meanwhile."""
    dtype = np.dtype(dtype)
    if dtype in _ready:
        return thread_pool.usable()
    if not available():
        return False
    with _state_lock:
        if dtype in _threads:
            return False
        thread = _threads[dtype] = threading.Thread(
            target=_compile, args=(dtype,), name="tensorjit-winograd", daemon=True)
        if BACKGROUND:
            thread.start()
            return False
    _compile(dtype)
    return dtype in _ready


def wait(dtype, timeout=None):
    """Compile the transforms for ``dtype`` now (or wait for the thread compiling them);
    True when they are ready."""
    dtype = np.dtype(dtype)
    if ready(dtype):
        return True
    thread = _threads.get(dtype)
    if thread is not None and thread.is_alive():
        thread.join(timeout)
    return ready(dtype)


def wait_started(timeout=None):
    """Wait for every compile that has started; False if ``timeout`` ran out."""
    for thread in list(_threads.values()):
        if thread.is_alive():
            thread.join(timeout)
            if thread.is_alive():
                return False
    return True


def _compile(dtype):
    global _transforms
    with _compile_lock:
        try:
            from . import winograd_transforms, winograd4_transforms, column_kernels
            winograd_transforms.compile_for(dtype)
            winograd4_transforms.compile_for(dtype)
            column_kernels.compile_for(dtype)
        except Exception:     # pragma: no cover - a broken Numba: the other kernels stay
            return
        _transforms = winograd_transforms
        _ready.add(dtype)


def _before_fork():
    _held_for_fork[0] = _compile_lock.acquire(timeout=FORK_WAIT_SECONDS)


def _after_fork_in_parent():
    if _held_for_fork[0]:
        _compile_lock.release()


def _after_fork_in_child():
    # the child has no compiling thread: a dtype still compiling starts again on demand
    for dtype in [d for d in _threads if d not in _ready]:
        del _threads[dtype]


at_fork(before=_before_fork, after_in_parent=_after_fork_in_parent,
        after_in_child=_after_fork_in_child)


# Each plane of a buffer starts one cache line past a 4 KiB boundary: with planes a power
# of two apart (every ResNet shape: 128 KiB to 1 MiB) the 16 (36) streams a transform
# reads or writes at once fall in the same cache sets and evict each other
# (measured at 8x8, 256 channels: the input transform 3.9 -> 0.5 ms).
PLANE_ALIGN = 1024        # elements
PLANE_SKEW = 16           # elements: one 64-byte line in float32


def _plane_stride(size):
    return -(-size // PLANE_ALIGN) * PLANE_ALIGN + PLANE_SKEW


def plane_rows(role, count, size, dtype):
    """A per-thread C-contiguous (count, plane stride) scratch array for ``role``, reused
    from call to call: ``count`` planes of ``size`` elements, each the start of a row, the
    rows ``_plane_stride(size)`` elements apart. (Numba kernels take these rows: their
    innermost stride is known; the products take the planes, see ``planes``.)"""
    stride = _plane_stride(size)
    key = (role, np.dtype(dtype))
    buffers = getattr(_workspace, "buffers", None)
    if buffers is None:
        buffers = _workspace.buffers = {}
    flat = buffers.get(key)
    if flat is None or flat.size < count * stride:
        flat = buffers[key] = np.empty(count * stride, dtype)
    return flat[:count * stride].reshape(count, stride)


def planes(role, shape, dtype):
    """``plane_rows`` seen as an array of ``shape`` = (planes, ...): each plane is
    C-contiguous, the planes skewed apart."""
    size = int(np.prod(shape[1:]))
    return plane_rows(role, shape[0], size, dtype)[:, :size].reshape(shape)


def _tiles(oh, ow):
    return (oh + 1) // 2, (ow + 1) // 2


def _transformed_input(x, top, left, th, tw, role):
    n, c = x.shape[:2]
    v = planes(role, (16, c, n, th, tw), x.dtype)
    _transforms.input_transform(np.ascontiguousarray(x), top, left, v)
    return v.reshape(16, c, n * th * tw)


# The batch goes through in chunks of images whose transformed input takes at most this
# much memory: the 16-plane buffers a chunk's transforms write are read back by its products
# and output transform sooner. Measured per call (batch 16, after an unrelated product, ms,
# forward / input gradient / weight gradient), 64 channels at 32x32 (16 MB in one go):
# one chunk 5.0 / 4.4 / 5.3, two 3.9 / 4.0 / 4.7, four 4.5 / 4.9 / 5.6, eight 4.9 / 5.1 /
# 6.1 (smaller products); 128 channels at 16x16 best in one chunk (2.8 / 2.9 / 3.3).
CHUNK_BYTES = 8 << 20


def image_chunks(n, per_image_bytes, chunk_bytes=None):
    """(start, stop) ranges of the batch's ``n`` images, each range's transformed input
    taking at most ``chunk_bytes`` (``None``: ``CHUNK_BYTES``, read at the call) or one
    image; as few ranges as that allows, their sizes differing by at most one."""
    limit = CHUNK_BYTES if chunk_bytes is None else chunk_bytes
    count = -(-n // max(1, limit // max(per_image_bytes, 1)))
    return [(k * n // count, (k + 1) * n // count) for k in range(count)]


def _image_chunks(n, c, th, tw, itemsize, chunk_bytes=None):
    return image_chunks(n, 16 * max(c, 1) * th * tw * itemsize, chunk_bytes)


def per_image_bytes(channels, oh, ow, itemsize):
    """Transformed bytes one image takes (``channels``: the larger of its input and output
    channels) for an OH x OW output: what the chunks are counted in."""
    th, tw = _tiles(oh, ow)
    return 16 * max(channels, 1) * th * tw * itemsize


def forward(x, w, padding, chunk_bytes=None):
    """3x3, stride 1, dilation 1 correlation of NCHW ``x`` with (O, C, 3, 3) ``w``;
    ``padding`` (top, bottom, left, right); the batch in chunks of at most ``chunk_bytes``
    of transformed input (``None``: ``CHUNK_BYTES``)."""
    n, c, h, wd = x.shape
    o = w.shape[0]
    top, bottom, left, right = padding
    oh, ow = h + top + bottom - 2, wd + left + right - 2
    th, tw = _tiles(oh, ow)
    u = planes("filter", (16, o, c), w.dtype)
    _transforms.filter_transform(np.ascontiguousarray(w), u)
    y = np.empty((n, o, oh, ow), x.dtype)
    for i, j in _image_chunks(n, max(c, o), th, tw, x.itemsize, chunk_bytes):
        v = _transformed_input(x[i:j], top, left, th, tw, "input")
        m = planes("product", (16, o, (j - i) * th * tw), x.dtype)
        blas.matmul(u, v, out=m)
        _transforms.output_transform(m.reshape(16, o, j - i, th, tw), y[i:j])
    return y


def weight_grad(x, dy, padding, chunk_bytes=None):
    """The gradient of ``forward`` for its (O, C, 3, 3) weight, given ``dy`` (N, O, OH, OW);
    the batch in chunks as in ``forward``."""
    n, c = x.shape[:2]
    o, oh, ow = dy.shape[1:]
    th, tw = _tiles(oh, ow)
    if n == 0:                       # no chunk: nothing would write dU
        return np.zeros((o, c, 3, 3), x.dtype)
    dy = np.ascontiguousarray(dy)
    du = planes("filter", (16, o, c), x.dtype)
    for k, (i, j) in enumerate(_image_chunks(n, max(c, o), th, tw, x.itemsize,
                                             chunk_bytes)):
        dm = planes("product", (16, o, j - i, th, tw), dy.dtype)
        _transforms.output_transform_adjoint(dy[i:j], dm)
        v = _transformed_input(x[i:j], padding[0], padding[2], th, tw, "input")
        products = (dm.reshape(16, o, (j - i) * th * tw), v.transpose(0, 2, 1))
        if k == 0:
            blas.matmul(*products, out=du)
        else:
            du += blas.matmul(*products)
    dw = np.empty((o, c, 3, 3), x.dtype)
    _transforms.filter_transform_adjoint(du, dw)
    return dw
