"""Array creation: matrices (eye, tri, tril / triu, diag), grids (indices, meshgrid, ix_,
mgrid / ogrid), vander, the window functions, triangle and diagonal index helpers and
random arrays. Functions of tensors (``tril``, ``diag``, ``meshgrid``, ``vander``) are built
from ops, so they run under ``jit`` and differentiate; the rest are host constants."""
import numpy as np

from .. import dtype as dt
from .. import ops
from ..ops import coerce
from ..tensor import Tensor
from ._common import as_shape, is_number, to_tensor
from .creation import _constant, _dtype_or


def eye(N, M=None, k=0, dtype=dt.float32):  # noqa: N803 (NumPy's names)
    """A 2-D tensor with ones on the k-th diagonal, zeros elsewhere.

    mindspore.numpy.eye: N rows, M columns (default N), k the diagonal (0 main, > 0
    above); dtype (default float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.eye(2, k=1).asnumpy().tolist()
    [[0.0, 1.0], [0.0, 0.0]]
    """
    if N < 0 or (M is not None and M < 0):
        raise ValueError(f"eye: N and M must be non-negative, got N={N}, M={M}")
    return _constant(np.eye(N, M, k), _dtype_or(dtype, dt.float32))


def identity(n, dtype=dt.float32):
    """The n x n identity matrix.

    mindspore.numpy.identity: dtype (default float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.identity(2).asnumpy().tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=dt.float32):  # noqa: N803
    """Ones at and below the k-th diagonal of an N x M matrix, zeros above.

    mindspore.numpy.tri: dtype (default float32).

    >>> import tensorjit.numpy as mnp
    >>> mnp.tri(2).asnumpy().tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    return _constant(np.tri(N, M, k), _dtype_or(dtype, dt.float32))


def _band_mask(shape, k, lower):
    rows, cols = shape[-2], shape[-1]
    mask = np.tri(rows, cols, k, dtype=bool) if lower else ~np.tri(rows, cols, k - 1, dtype=bool)
    return coerce.constant(mask)


def tril(m, k=0):
    """The lower triangle of ``m`` (at and below the k-th diagonal); zeros above.

    mindspore.numpy.tril: m (a tensor of rank >= 2; a 1-D one is broadcast to a square
    first, as in NumPy).

    >>> import tensorjit.numpy as mnp
    >>> mnp.tril(mnp.ones((2, 2))).asnumpy().tolist()
    [[1.0, 0.0], [1.0, 1.0]]
    """
    m = to_tensor(m, name="tril")
    if m.ndim < 2:
        m = ops.broadcast_to(m, (m.shape[-1] if m.ndim else 1,) * 2)
    return ops.where(_band_mask(m.shape, k, True), m, ops.zeros_like(m))


def triu(m, k=0):
    """The upper triangle of ``m`` (at and above the k-th diagonal); zeros below.

    >>> import tensorjit.numpy as mnp
    >>> mnp.triu(mnp.ones((2, 2))).asnumpy().tolist()
    [[1.0, 1.0], [0.0, 1.0]]
    """
    m = to_tensor(m, name="triu")
    if m.ndim < 2:
        m = ops.broadcast_to(m, (m.shape[-1] if m.ndim else 1,) * 2)
    return ops.where(_band_mask(m.shape, k, False), m, ops.zeros_like(m))


def diag(v, k=0):
    """The k-th diagonal of a 2-D tensor, or a 2-D tensor with a 1-D ``v`` on its k-th
    diagonal.

    mindspore.numpy.diag: v (a 1-D or 2-D tensor); k (0 main, > 0 above, < 0 below).

    >>> import tensorjit.numpy as mnp
    >>> mnp.diag(mnp.array([1, 2])).asnumpy().tolist()
    [[1, 0], [0, 2]]
    """
    v = to_tensor(v, name="diag")
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        rows = ops.reshape(v, (-1, 1)) * coerce.constant(np.eye(v.shape[0], dtype=v.dtype))
        pad = (max(k, 0), max(-k, 0), max(-k, 0), max(k, 0))   # (left, right, top, bottom)
        if k:
            rows = ops.pad(rows, pad)
        return ops.reshape(rows, (n, n))
    if v.ndim == 2:
        from .indexing import diagonal
        return diagonal(v, k)
    raise ValueError(f"diag: the input must be 1-D or 2-D, got shape {tuple(v.shape)}")


def diagflat(v, k=0):
    """A 2-D tensor with the flattened ``v`` on its k-th diagonal.

    >>> import tensorjit.numpy as mnp
    >>> mnp.diagflat(mnp.array([[1, 2]])).asnumpy().tolist()
    [[1, 0], [0, 2]]
    """
    return diag(ops.reshape(to_tensor(v, name="diagflat"), (-1,)), k)


def indices(dimensions, dtype=dt.int32, sparse=False):
    """A grid of indices: one tensor per dimension, each varying along its own axis.

    mindspore.numpy.indices: dimensions (tuple of ints); dtype (default int32); sparse
    gives broadcastable shapes. The dense result is a tuple of tensors, as MindSpore's is.

    >>> import tensorjit.numpy as mnp
    >>> [t.asnumpy().tolist() for t in mnp.indices((2, 2))]
    [[[0, 0], [1, 1]], [[0, 1], [0, 1]]]
    """
    dims = as_shape(dimensions, "dimensions")
    grids = np.indices(dims, sparse=sparse)
    return tuple(_constant(g, dtype) for g in grids)


def meshgrid(*xi, sparse=False, indexing="xy"):
    """Coordinate tensors from 1-D coordinate vectors (broadcast with ops, so it runs in
    graphs).

    mindspore.numpy.meshgrid: indexing 'xy' (Cartesian, default) or 'ij' (matrix); sparse
    keeps broadcastable shapes.

    >>> import tensorjit.numpy as mnp
    >>> xs, ys = mnp.meshgrid(mnp.array([1, 2]), mnp.array([3]))
    >>> xs.asnumpy().tolist(), ys.asnumpy().tolist()
    ([[1, 2]], [[3, 3]])
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    vectors = [ops.reshape(to_tensor(x, name="meshgrid"), (-1,)) for x in xi]
    n = len(vectors)
    shapes = []
    for i, vec in enumerate(vectors):
        shape = [1] * n
        shape[i] = vec.shape[0]
        shapes.append(shape)
    if indexing == "xy" and n >= 2:
        for shape in shapes:
            shape[0], shape[1] = shape[1], shape[0]
    grids = [ops.reshape(vec, tuple(shape)) for vec, shape in zip(vectors, shapes)]
    if sparse:
        return tuple(grids)
    full_shape = tuple(max(s[i] for s in shapes) for i in range(n))
    return tuple(ops.broadcast_to(g, full_shape) for g in grids)


def ix_(*args):
    """Open-mesh index tensors from 1-D sequences (for indexing cross products).

    >>> import tensorjit.numpy as mnp
    >>> [t.shape for t in mnp.ix_(mnp.array([0, 1]), mnp.array([2]))]
    [(2, 1), (1, 1)]
    """
    out = []
    for i, seq in enumerate(args):
        t = to_tensor(seq, name="ix_")
        if t.ndim != 1:
            raise ValueError(f"ix_: each argument must be 1-D, got shape {tuple(t.shape)}")
        shape = [1] * len(args)
        shape[i] = t.shape[0]
        out.append(ops.reshape(t, tuple(shape)))
    return tuple(out)


def vander(x, N=None, increasing=False):  # noqa: N803
    """The Vandermonde matrix of the 1-D ``x``: columns are powers of x.

    mindspore.numpy.vander: N columns (default len(x)); increasing puts x ** 0 first.

    >>> import tensorjit.numpy as mnp
    >>> mnp.vander(mnp.array([1, 2, 3])).asnumpy().tolist()
    [[1, 1, 1], [4, 2, 1], [9, 3, 1]]
    """
    x = to_tensor(x, name="vander")
    if x.ndim != 1:
        raise ValueError(f"vander: x must be 1-D, got shape {tuple(x.shape)}")
    n = x.shape[0] if N is None else N
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    # repeated products (not pow) so integer inputs stay exact
    columns = [ops.ones_like(x)]
    for _ in range(max(n - 1, 0)):
        columns.append(columns[-1] * x)
    return ops.stack([columns[p] for p in powers], 1) if n else ops.zeros((x.shape[0], 0),
                                                                         dtype=x.dtype)


def _window(name, fn):
    def window(M):  # noqa: N803
        if isinstance(M, bool) or not isinstance(M, (int, np.integer)):
            raise TypeError(f"{name}: M must be an int, got {type(M).__name__}")
        return _constant(fn(M), dt.float32)
    window.__name__ = window.__qualname__ = name
    window.__doc__ = (
        f"The {name} window of ``M`` points (float32), as ``numpy.{name}``.\n\n"
        f"    mindspore.numpy.{name}: M (int; <= 0 gives an empty tensor, 1 gives [1.]).\n\n"
        f"    >>> import tensorjit.numpy as mnp\n    >>> mnp.{name}(1).asnumpy().tolist()\n"
        f"    [1.0]\n")
    return window


hamming = _window("hamming", np.hamming)
hanning = _window("hanning", np.hanning)
blackman = _window("blackman", np.blackman)
bartlett = _window("bartlett", np.bartlett)


def tril_indices(n, k=0, m=None):
    """Row and column indices of the lower triangle of an n x m matrix (int32).

    >>> import tensorjit.numpy as mnp
    >>> [t.asnumpy().tolist() for t in mnp.tril_indices(2)]
    [[0, 1, 1], [0, 0, 1]]
    """
    return tuple(_constant(i, dt.int32) for i in np.tril_indices(n, k, m))


def triu_indices(n, k=0, m=None):
    """Row and column indices of the upper triangle of an n x m matrix (int32).

    >>> import tensorjit.numpy as mnp
    >>> [t.asnumpy().tolist() for t in mnp.triu_indices(2)]
    [[0, 0, 1], [0, 1, 1]]
    """
    return tuple(_constant(i, dt.int32) for i in np.triu_indices(n, k, m))


def _square_shape(arr, name):
    arr = to_tensor(arr, name=name)
    if arr.ndim != 2:
        raise ValueError(f"{name}: the input must be 2-D, got shape {tuple(arr.shape)}")
    return arr.shape


def tril_indices_from(arr, k=0):
    """``tril_indices`` for the shape of the 2-D ``arr``.

    >>> import tensorjit.numpy as mnp
    >>> [t.asnumpy().tolist() for t in mnp.tril_indices_from(mnp.ones((2, 2)))]
    [[0, 1, 1], [0, 0, 1]]
    """
    rows, cols = _square_shape(arr, "tril_indices_from")
    return tril_indices(rows, k, cols)


def triu_indices_from(arr, k=0):
    """``triu_indices`` for the shape of the 2-D ``arr``.

    >>> import tensorjit.numpy as mnp
    >>> [t.asnumpy().tolist() for t in mnp.triu_indices_from(mnp.ones((2, 2)))]
    [[0, 0, 1], [0, 1, 1]]
    """
    rows, cols = _square_shape(arr, "triu_indices_from")
    return triu_indices(rows, k, cols)


def diag_indices(n, ndim=2):
    """Indices of the main diagonal of an n x ... x n tensor of rank ``ndim`` (int32).

    >>> import tensorjit.numpy as mnp
    >>> [t.asnumpy().tolist() for t in mnp.diag_indices(2)]
    [[0, 1], [0, 1]]
    """
    if isinstance(n, Tensor):
        raise TypeError("diag_indices: n must be an int (use the tensor's shape)")
    return tuple(_constant(i, dt.int32) for i in np.diag_indices(n, ndim))


def rand(*shape, dtype=dt.float32):
    """Uniform random values in [0, 1) of ``shape``.

    mindspore.numpy.rand: shape as ints or one tuple; dtype (default float32, a float
    dtype). The stream follows ``tensorjit.set_seed``, not MindSpore's generator.

    >>> import tensorjit.numpy as mnp
    >>> mnp.rand(2, 3).shape
    (2, 3)
    """
    shape = as_shape(shape[0] if len(shape) == 1 and not is_number(shape[0]) else shape)
    dtype = dt.as_dtype(dtype)
    if not dt.is_float(dtype):
        raise TypeError(f"rand: dtype must be a float dtype, got {dtype}")
    return ops.rand(*shape, dtype=dtype)


def randn(*shape, dtype=dt.float32):
    """Standard normal random values of ``shape``.

    mindspore.numpy.randn: as ``rand``.

    >>> import tensorjit.numpy as mnp
    >>> mnp.randn(4).shape
    (4,)
    """
    shape = as_shape(shape[0] if len(shape) == 1 and not is_number(shape[0]) else shape)
    dtype = dt.as_dtype(dtype)
    if not dt.is_float(dtype):
        raise TypeError(f"randn: dtype must be a float dtype, got {dtype}")
    return ops.randn(*shape, dtype=dtype)


def randint(minval, maxval=None, shape=None, dtype=dt.int32):
    """Random integers in [minval, maxval) (or [0, minval) without maxval).

    mindspore.numpy.randint: shape (default a scalar: ()); dtype (default int32, an int
    dtype).

    >>> import tensorjit.numpy as mnp
    >>> x = mnp.randint(1, 4, (3,))
    >>> bool(((x >= 1) & (x < 4)).all())
    True
    """
    if maxval is None:
        minval, maxval = 0, minval
    if not (isinstance(minval, (int, np.integer)) and isinstance(maxval, (int, np.integer))):
        raise TypeError("randint: minval and maxval must be ints")
    if maxval <= minval:
        raise ValueError(f"randint: maxval ({maxval}) must be greater than minval ({minval})")
    dtype = dt.as_dtype(dtype)
    if not dt.is_int(dtype):
        raise TypeError(f"randint: dtype must be an int dtype, got {dtype}")
    return ops.randint(int(minval), int(maxval), as_shape(() if shape is None else shape),
                       dtype=dtype)


class _Grid:
    """``mgrid[...]`` / ``ogrid[...]``: dense or open index grids from slices."""

    def __init__(self, sparse, name):
        self.sparse = sparse
        self.name = name
        kind = "sparse (open)" if sparse else "dense"
        example = ("[g.shape for g in mnp.ogrid[0:2, 0:3]]\n    [(2, 1), (1, 3)]" if sparse
                   else "mnp.mgrid[0:2, 0:3].shape\n    (2, 2, 3)")
        self.__doc__ = (f"``{name}[start:stop:step, ...]``: a {kind} mesh grid, int32 for int "
                        "slices, float32 otherwise (a complex step 5j means 5 points).\n\n"
                        f"    >>> import tensorjit.numpy as mnp\n    >>> {example}\n")

    def __getitem__(self, key):
        grid = (np.ogrid if self.sparse else np.mgrid)[key]
        if isinstance(grid, (list, tuple)):
            return tuple(_constant(g) for g in grid)
        return _constant(grid)

    def __repr__(self):
        return f"tensorjit.numpy.{self.name}"


mgrid = _Grid(False, "mgrid")
ogrid = _Grid(True, "ogrid")
