"""The BLAS libraries that can run tensorjit's products, each behind ``matmul(a, b, out)``
with ``np.matmul``'s semantics, and a timing of them at the models' shapes.

* ``numpy``: ``np.matmul``, i.e. the BLAS NumPy was built with (OpenBLAS in its wheels).
  NumPy runs a batch of matrices as a loop of single GEMMs.
* ``mkl``: Intel's MKL runtime (``libmkl_rt``, the ``mkl`` wheel), called through CBLAS;
  a batch is one grouped call (any strides: one pointer per matrix). It runs on the GNU
  OpenMP threading layer, so its threads are the pool Numba's parallel kernels use
  (``thread_pool.py``: a second pool spins against the first), and in strict reproducible
  mode (``MKL_CBWR``: the same result whatever the operands' alignment in memory), so a
  product gives the same bits eagerly and inside a compiled step.
"""
import ctypes
import glob
import os
import sys
import threading

import numpy as np

from .tuning import timing

NAMES = ("mkl", "numpy")


class NumpyBlas:
    name = "numpy"

    @staticmethod
    def matmul(a, b, out=None):
        return np.matmul(a, b, out=out)


NUMPY = NumpyBlas()

_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
_GNU_THREADING, _LP64 = 3, 0
_CBWR_AUTO, _CBWR_STRICT = 2, 0x10000
_ROUTINES = {np.dtype(np.float32): ("cblas_sgemm", "cblas_sgemm_batch", ctypes.c_float),
             np.dtype(np.float64): ("cblas_dgemm", "cblas_dgemm_batch", ctypes.c_double)}


class MklBlas:
    name = "mkl"

    def __init__(self, lib):
        self.lib = lib

    def matmul(self, a, b, out=None):
        if a.ndim < 2 or b.ndim < 2 or 0 in a.shape or 0 in b.shape \
                or a.shape[-1] != b.shape[-2]:
            return np.matmul(a, b, out=out)
        m, k = a.shape[-2:]
        n = b.shape[-1]
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        shape = batch + (m, n)
        target = out if _writable(out, shape, a, b) else np.empty(shape, a.dtype)
        a, b = _usable(a), _usable(b)
        single, batched, scalar = _ROUTINES[a.dtype]
        (ta, lda), (tb, ldb) = _operand(a), _operand(b)
        ldc = _row_major_ld(target)
        if not batch:
            getattr(self.lib, single)(_ROW_MAJOR, ta, tb, m, n, k, 1.0, a.ctypes.data, lda,
                                      b.ctypes.data, ldb, 0.0, target.ctypes.data, ldc)
        else:
            _batched(getattr(self.lib, batched), scalar, a, b, target, batch, (ta, lda),
                     (tb, ldb), ldc)
        if target is not out and out is not None:
            out[...] = target
            return out
        return target


_mkl = []
_mkl_lock = threading.Lock()


def available(load_mkl=True):
    """The libraries that load here: MKL when its runtime is installed, and NumPy's."""
    if not load_mkl and not _mkl:
        return [NUMPY]
    with _mkl_lock:
        if not _mkl:
            lib = _load_mkl()
            _mkl.append(MklBlas(lib) if lib is not None else None)
    return [lib for lib in (_mkl[0], NUMPY) if lib is not None]


def _mkl_candidates():
    names = ("libmkl_rt.so.3", "libmkl_rt.so.2", "libmkl_rt.so")
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix)):
        for name in names:
            yield os.path.join(prefix, "lib", name)
    for path in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep):
        if path:
            yield from sorted(glob.glob(os.path.join(path, "libmkl_rt.so*")))


def _load_mkl():
    """The MKL runtime library configured for us, or None."""
    try:
        ctypes.CDLL("libgomp.so.1")        # the GNU threading layer's runtime
    except OSError:
        return None
    for path in _mkl_candidates():
        if not os.path.exists(path):
            continue
        try:
            lib = ctypes.CDLL(path)
            lib.MKL_Set_Interface_Layer.argtypes = [ctypes.c_int]
            lib.MKL_Set_Threading_Layer.argtypes = [ctypes.c_int]
            if lib.MKL_Set_Interface_Layer(_LP64) != _LP64 or \
                    lib.MKL_Set_Threading_Layer(_GNU_THREADING) != _GNU_THREADING:
                continue
            lib.MKL_CBWR_Set.argtypes = [ctypes.c_int]
            if lib.MKL_CBWR_Set(_CBWR_AUTO | _CBWR_STRICT) != 0:
                continue
            for dtype, (single, batch, scalar) in _ROUTINES.items():
                p, i = ctypes.c_void_p, ctypes.c_int
                getattr(lib, single).argtypes = [i, i, i, i, i, i, scalar, p, i, p, i,
                                                 scalar, p, i]
                getattr(lib, single).restype = None
                getattr(lib, batch).argtypes = [i, p, p, p, p, p, p, p, p, p, p, p, p, p,
                                                i, p]
                getattr(lib, batch).restype = None
            return lib
        except (OSError, AttributeError):
            continue
    return None


# ---------------------------------------------------------------------------------------
# timing: the products a train step runs, per library

# (a, b) shapes: dense layers up and down, the head, an im2col product, Winograd's planes,
# attention's per-head products
TIMED_SHAPES = [((1024, 256), (256, 1024)), ((1024, 1024), (1024, 256)),
                ((1024, 256), (256, 2048)), ((256, 4608), (4608, 256)),
                ((16, 64, 1024), (16, 1024, 64)), ((32, 128, 64), (32, 64, 128))]
# a library's threads keep spinning after a call (OpenBLAS's up to ~0.1 s): before timing
# the next library, let them sleep so that it does not run beside them
SETTLE_SECONDS = 0.15


def time_libraries(libraries):
    """{name: seconds for one pass over ``TIMED_SHAPES`` in float32}, alternated."""
    rng = np.random.default_rng(0)
    operands = [(rng.standard_normal(sa).astype(np.float32),
                 rng.standard_normal(sb).astype(np.float32)) for sa, sb in TIMED_SHAPES]

    def suite(lib):
        def run():
            for a, b in operands:
                lib.matmul(a, b)
        return run
    return timing.alternate({lib.name: suite(lib) for lib in libraries}, rounds=3,
                            settle=SETTLE_SECONDS if len(libraries) > 1 else 0.0, prime=True)


# ---------------------------------------------------------------------------------------
# operand layouts for CBLAS

def _row_major_ld(m):
    """Leading dimension of ``m``'s matrices when each is stored row by row, else None."""
    cols = m.shape[-1]
    size = m.itemsize
    rs, cs = m.strides[-2:]
    if (cs == size or cols == 1) and rs % size == 0 and rs // size >= max(cols, 1):
        return rs // size
    return None


def _operand(m):
    """(transpose flag, leading dimension) describing a 2-D matrix's layout to BLAS, or
    None when its strides are not a BLAS layout."""
    rows, cols = m.shape[-2:]
    size = m.itemsize
    rs, cs = m.strides[-2:]
    ld = _row_major_ld(m)
    if ld is not None:
        return _NO_TRANS, ld
    if (rs == size or rows == 1) and cs % size == 0 and cs // size >= max(rows, 1):
        return _TRANS, cs // size
    if cols == 1 and rows == 1:
        return _NO_TRANS, 1
    return None


def _usable(a):
    """An array BLAS can read as it is (a copy otherwise)."""
    if _operand(a) is None or any(s < 0 for s in a.strides):
        a = np.ascontiguousarray(a)
    return a


def _writable(out, shape, a, b):
    """Whether BLAS can write the product straight into ``out``: each matrix stored row by
    row (any distance between matrices: Winograd's planes are skewed apart), and no
    memory shared with an operand (NumPy would buffer; BLAS would read what it wrote)."""
    return (out is not None and out.shape == shape and out.dtype == a.dtype
            and out.flags.writeable and _row_major_ld(out) is not None
            and all(s >= 0 for s in out.strides)
            and not np.may_share_memory(out, a) and not np.may_share_memory(out, b))


def _addresses(x, batch):
    """The address of each matrix of ``x`` broadcast over ``batch`` (int64, flat)."""
    lead = x.ndim - 2
    strides = (0,) * (len(batch) - lead) + tuple(
        0 if d == 1 else s for d, s in zip(x.shape[:-2], x.strides[:-2]))
    offsets = np.zeros(batch, np.int64)
    for axis, (size, stride) in enumerate(zip(batch, strides)):
        if stride:
            shape = [1] * len(batch)
            shape[axis] = size
            offsets = offsets + (np.arange(size, dtype=np.int64) * stride).reshape(shape)
    return (x.ctypes.data + offsets).ravel()


def _batched(routine, scalar, a, b, out, batch, a_layout, b_layout, ldc):
    """All products of the batch in one call (MKL's grouped batch API, one group)."""
    m, k = a.shape[-2:]
    n = b.shape[-1]
    count = int(np.prod(batch))
    ints = np.array([a_layout[0], b_layout[0], m, n, k, a_layout[1], b_layout[1],
                     ldc, count], np.int32)
    scalars = np.array([1.0, 0.0], np.float32 if scalar is ctypes.c_float else np.float64)
    pa, pb, pc = _addresses(a, batch), _addresses(b, batch), _addresses(out, batch)
    address = [arr.ctypes.data for arr in (ints, scalars, pa, pb, pc)]
    step = ints.itemsize
    routine(_ROW_MAJOR, address[0], address[0] + step, address[0] + 2 * step,
            address[0] + 3 * step, address[0] + 4 * step, address[1], address[2],
            address[0] + 5 * step, address[3], address[0] + 6 * step,
            address[1] + scalars.itemsize, address[4], address[0] + 7 * step, 1,
            address[0] + 8 * step)
