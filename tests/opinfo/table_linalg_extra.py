"""Table entries: linear algebra structure and products (einsum, diagonals, bands, index
structure, Kronecker / inner / outer products, scaled matrix products, cross products,
norms and distances), against NumPy / SciPy formulas written here. Factorizations and
solves are in table_linalg_solve.py."""
import itertools

import numpy as np
import scipy.linalg

from tensorjit import dtype as dt

from .core import op, Sample, ErrorCase, ALL
from .samples import random, mixed

F16_64 = (dt.float16, dt.float32, dt.float64)
INT_AND_FLOAT = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8, dt.uint16, dt.uint32,
                 dt.uint64) + F16_64
NO_BF16 = tuple(d for d in ALL if d != dt.bfloat16)
MATMUL = (dt.int8, dt.int16, dt.int32, dt.int64, dt.uint8) + F16_64
TOL16 = {dt.float16: (5e-3, 5e-3), dt.float32: (1e-5, 1e-5), dt.float64: (1e-10, 1e-10)}


def _r(rng, dtype, *shape, lo=-2, hi=2):
    return random(rng, shape, dtype, lo, hi)


# ---- einsum --------------------------------------------------------------------------------

def _einsum_samples(dtype, rng, full):
    def r(*shape):
        return _r(rng, dtype, *shape)
    return [Sample("ij,jk->ik", r(2, 3), r(3, 4), label="matmul"),
            Sample("bij,bkj->bik", r(2, 2, 3), r(2, 4, 3), label="batched, transposed"),
            Sample("ii->i", r(3, 3), label="diagonal"),
            Sample("iij,j", r(2, 2, 3), r(3), label="trace-like, implicit output"),
            Sample("...ij,...j->...i", r(2, 1, 2, 3), r(4, 3), label="ellipsis broadcast"),
            Sample("ab,bc,cd->ad", r(2, 3), r(3, 2), r(2, 2), label="three operands"),
            Sample("i,j->ij", r(0), r(3), label="empty"),
            Sample("ij,jk->ik", r(2, 3), r(4, 4), label="sizes differ", raises=ValueError)]


def _einsum_ref(eq, *xs):
    return np.einsum(eq, *xs)


_EINSUM_NOTES = {"method": "the equation is planned into diagonals, early sums and one "
                           "batched matmul per operand pair (left to right)",
                 "MindSpore": "MindSpore 2.10 has no CPU kernel for Einsum (GPU only) and "
                              "einsum_ext runs on Ascend only; the values follow NumPy"}
op("einsum", ref=_einsum_ref, dtypes=F16_64, samples=_einsum_samples, tol=TOL16,
   notes=_EINSUM_NOTES, torch=lambda torch, eq, *xs: torch.einsum(eq, *xs),
   errors=[ErrorCase(Sample("ij,jk->ik", np.ones((2, 3)), np.ones((4, 4))), ValueError,
                     "einsum", "the shared letter has two sizes")])
op("einsum_ext", ref=_einsum_ref, dtypes=F16_64, samples=_einsum_samples, tol=TOL16,
   notes=_EINSUM_NOTES, torch=lambda torch, eq, *xs: torch.einsum(eq, *xs))


# ---- diagonals -----------------------------------------------------------------------------

def _diagonal_samples(dtype, rng, full):
    return [Sample(mixed(rng, (3, 4), dtype), label="edge values", smooth=False),
            Sample(_r(rng, dtype, 2, 3, 4), 1, 2, 0, label="offset 1, axes (2, 0)"),
            Sample(_r(rng, dtype, 3, 4), -2, label="below"),
            Sample(_r(rng, dtype, 3, 4), 7, label="outside: empty"),
            Sample(_r(rng, dtype, 3), label="1-D", raises=ValueError)]


op("diagonal", ref=lambda x, offset=0, dim1=0, dim2=1: np.diagonal(x, offset, dim1, dim2),
   dtypes=ALL, samples=_diagonal_samples,
   torch=lambda torch, x, offset=0, dim1=0, dim2=1: torch.diagonal(x, offset, dim1, dim2))


def _vector_samples(dtype, rng, full):
    return [Sample(mixed(rng, (4,), dtype), label="edge values", smooth=False),
            Sample(_r(rng, dtype, 2, 3), label="2-D"),
            Sample(_r(rng, dtype, 0), label="empty")]


DIAG = (dt.int16, dt.int32, dt.int64) + F16_64
op("diag", ref=lambda x: np.diag(x.reshape(-1)).reshape(x.shape * 2), dtypes=DIAG,
   samples=lambda dtype, rng, full: _vector_samples(dtype, rng, full) + [
       Sample(_r(rng, dtype), label="0-d", raises=ValueError)],
   notes={"N-D": "a (D1, ..., Dk) input gives (D1, ..., Dk, D1, ..., Dk), MindSpore's Diag"})
op("diagflat", ref=lambda x, offset=0: np.diagflat(x, offset), dtypes=DIAG,
   samples=lambda dtype, rng, full: _vector_samples(dtype, rng, full) + [
       Sample(_r(rng, dtype, 3), -2, label="offset -2")],
   torch=lambda torch, x, offset=0: torch.diagflat(x, offset))


def _diag_embed_ref(x, offset=0, dim1=-2, dim2=-1):
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n), x.dtype)
    for i in range(x.shape[-1]):
        out[..., i + max(-offset, 0), i + max(offset, 0)] = x[..., i]
    nd = x.ndim + 1
    d1, d2 = dim1 % nd, dim2 % nd
    rest = iter(range(nd - 2))
    return np.transpose(out, [nd - 2 if i == d1 else nd - 1 if i == d2 else next(rest)
                              for i in range(nd)])


op("diag_embed", ref=_diag_embed_ref, dtypes=INT_AND_FLOAT,
   samples=lambda dtype, rng, full: [
       Sample(mixed(rng, (2, 3), dtype), label="edge values", smooth=False),
       Sample(_r(rng, dtype, 2, 3), 1, 0, 2, label="offset 1 into axes (0, 2)"),
       Sample(_r(rng, dtype, 3), -1, label="below"),
       Sample(_r(rng, dtype, 3), 0, 0, -2, label="same axis", raises=ValueError)],
   torch=lambda torch, x, offset=0, dim1=-2, dim2=-1: torch.diag_embed(x, offset, dim1, dim2))


def _diagonal_scatter_ref(x, src, offset=0, dim1=0, dim2=1):
    out = np.moveaxis(x.copy(), (dim1, dim2), (-2, -1))
    for i in range(src.shape[-1]):
        out[..., i + max(-offset, 0), i + max(offset, 0)] = src[..., i]
    return np.moveaxis(out, (-2, -1), (dim1, dim2))


op("diagonal_scatter", ref=_diagonal_scatter_ref, dtypes=INT_AND_FLOAT,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), mixed(rng, (3,), dtype), label="edge values"),
       Sample(_r(rng, dtype, 2, 3, 3), _r(rng, dtype, 2, 2), 1, 1, 2, label="batched, above"),
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 2), label="wrong size", raises=ValueError)],
   torch=lambda torch, x, s, offset=0, dim1=0, dim2=1: torch.diagonal_scatter(x, s, offset,
                                                                              dim1, dim2))

op("trace", ref=lambda x: np.trace(x).astype(x.dtype), dtypes=INT_AND_FLOAT,
   samples=lambda dtype, rng, full: [
       Sample(_r(rng, dtype, 3, 4), label="3x4"), Sample(_r(rng, dtype, 2, 2), label="2x2"),
       Sample(_r(rng, dtype, 0, 0), label="empty"),
       Sample(_r(rng, dtype, 2, 2, 2), label="3-D", raises=RuntimeError)],
   torch=lambda torch, x: torch.trace(x), torch_grad=True,
   notes={"dtype": "the sum keeps the input's dtype (MindSpore's Trace)"})


def _indices_samples(dtype, rng, full):
    return [Sample(3, 4, label="3x4", dtype=dtype), Sample(4, 3, 1, label="offset 1", dtype=dtype),
            Sample(3, 3, -5, label="nothing", dtype=dtype)]


for _which in ("tril", "triu"):
    op(f"{_which}_indices", dtypes=(dt.int32, dt.int64), grad=False, fuzz=False,
       ref=(lambda f: lambda row, col, offset=0, dtype=None:
            np.stack(f(row, offset, col)).reshape(2, -1))(getattr(np, f"{_which}_indices")),
       result=lambda *_, dtype=None: dtype, samples=_indices_samples,
       torch=(lambda name: lambda torch, row, col, offset=0, dtype=None:
              getattr(torch, name)(row, col, offset))(f"{_which}_indices"))


def _block_diag_ref(*xs):
    return scipy.linalg.block_diag(*[np.reshape(x, (1,) * (2 - np.ndim(x)) + np.shape(x))
                                     for x in xs])


op("block_diag", ref=_block_diag_ref, dtypes=ALL, samples=lambda dtype, rng, full: [
    Sample(mixed(rng, (2, 2), dtype), _r(rng, dtype, 3), _r(rng, dtype), label="2-D, 1-D, 0-d",
           smooth=False),
    Sample(_r(rng, dtype, 1, 3), label="one"),
    Sample(_r(rng, dtype, 2, 0), _r(rng, dtype, 1, 2), label="empty block"),
    Sample(_r(rng, dtype, 2, 2, 2), label="3-D", raises=ValueError)],
    torch=lambda torch, *xs: torch.block_diag(*xs))

op("cartesian_prod", ref=lambda *xs: np.array(list(itertools.product(*xs)),
                                              xs[0].dtype).reshape(-1, len(xs)),
   dtypes=NO_BF16, samples=lambda dtype, rng, full: [
       Sample(mixed(rng, (3,), dtype), _r(rng, dtype, 2), label="two", smooth=False),
       Sample(_r(rng, dtype, 2), _r(rng, dtype, 1), _r(rng, dtype, 2), label="three"),
       Sample(_r(rng, dtype, 3), label="one"),
       Sample(_r(rng, dtype, 2, 2), label="2-D", raises=ValueError)],
   torch=lambda torch, *xs: torch.cartesian_prod(*xs).reshape(-1, len(xs)))


def _combinations_ref(x, r=2, with_replacement=False):
    pick = itertools.combinations_with_replacement if with_replacement else \
        itertools.combinations
    rows = list(pick(list(x), r))
    return np.array(rows, x.dtype).reshape(-1, r) if rows else np.zeros((0,), x.dtype)


op("combinations", ref=_combinations_ref, dtypes=ALL, samples=lambda dtype, rng, full: [
    Sample(mixed(rng, (4,), dtype), label="pairs", smooth=False),
    Sample(_r(rng, dtype, 4), 3, label="triples"),
    Sample(_r(rng, dtype, 3), 2, True, label="with replacement"),
    Sample(_r(rng, dtype, 2), 3, label="r > n: empty"),
    Sample(_r(rng, dtype, 2, 2), label="2-D", raises=ValueError)],
   notes={"r > n": "an empty 1-D tensor, as MindSpore's (PyTorch: shape (0, r))"})

op("adjoint", ref=lambda x: np.swapaxes(x, -1, -2), dtypes=ALL,
   samples=lambda dtype, rng, full: [
       Sample(mixed(rng, (2, 3), dtype), label="2-D", smooth=False),
       Sample(_r(rng, dtype, 2, 1, 3), label="3-D"),
       Sample(_r(rng, dtype, 3), label="1-D", raises=ValueError)],
   torch=lambda torch, x: torch.adjoint(x))


# ---- TensorFlow's band forms (MatrixDiagV3 and friends), references from TF's formulas ------

def _aligned_offset(align, d, max_len, length):
    right = (align.split("_")[0] if d >= 0 else align.split("_")[1]) == "RIGHT"
    return max_len - length if right else 0


def _matrix_diag_part_ref(x, k, padding_value, align="RIGHT_LEFT"):
    k = np.ravel(k)
    low, high = int(k[0]), int(k[-1])
    rows, cols = x.shape[-2:]
    lengths = {d: min(cols - max(d, 0), rows + min(d, 0)) for d in range(low, high + 1)}
    max_len = max(lengths.values())
    out = np.full(x.shape[:-2] + (high - low + 1, max_len), padding_value, x.dtype)
    for d in range(low, high + 1):
        off = _aligned_offset(align, d, max_len, lengths[d])
        for n in range(max_len):
            i, j = n + max(-d, 0) - off, n + max(d, 0) - off
            if 0 <= i < rows and 0 <= j < cols:
                out[..., high - d, n] = x[..., i, j]
    return out if low != high else out[..., 0, :]


def _matrix_diag_ref(x, k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT",
                     into=None):
    k = np.ravel(k)
    low, high = int(k[0]), int(k[-1])
    x = x[..., None, :] if low == high else x
    max_len = x.shape[-1]
    min_rows, min_cols = max_len - min(high, 0), max_len + max(low, 0)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    rows = min_rows if num_rows == -1 else num_rows
    cols = min_cols if num_cols == -1 else num_cols
    out = np.full(x.shape[:-2] + (rows, cols), padding_value, x.dtype) if into is None else \
        into.copy()
    for i in range(rows):
        for j in range(cols):
            d = j - i
            if low <= d <= high:
                length = min(cols - max(d, 0), rows + min(d, 0))
                n = j - max(d, 0) + _aligned_offset(align, d, max_len, length)
                if 0 <= n < max_len:
                    out[..., i, j] = x[..., high - d, n]
    return out


def _band_part_ref(x, lower, upper):
    i, j = np.indices(x.shape[-2:])
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return np.where(keep, x, np.zeros_like(x))


op("matrix_band_part", ref=_band_part_ref, dtypes=NO_BF16, samples=lambda dtype, rng, full: [
    Sample(mixed(rng, (3, 4), dtype), 1, 0, label="edge values", smooth=False),
    Sample(_r(rng, dtype, 2, 3, 3), -1, 1, label="whole lower triangle"),
    Sample(_r(rng, dtype, 3, 4), 0, -1, label="upper triangle"),
    Sample(_r(rng, dtype, 3), 1, 1, label="1-D", raises=ValueError)])
op("matrix_diag", ref=_matrix_diag_ref, dtypes=INT_AND_FLOAT,
   samples=lambda dtype, rng, full: [
       Sample(mixed(rng, (3,), dtype), label="main diagonal", smooth=False),
       Sample(_r(rng, dtype, 2, 3), 1, label="k = 1, batched"),
       Sample(_r(rng, dtype, 3), -1, 5, label="k = -1, five rows"),
       Sample(_r(rng, dtype, 2, 3), [-1, 0], padding_value=9, label="band, padded"),
       Sample(_r(rng, dtype, 2, 3), [0, 1], align="LEFT_RIGHT", label="band, LEFT_RIGHT"),
       Sample(_r(rng, dtype, 2, 3), [0, 1], align="MIDDLE", label="bad align",
              raises=ValueError)])
op("matrix_diag_part", ref=_matrix_diag_part_ref, dtypes=INT_AND_FLOAT,
   samples=lambda dtype, rng, full: [
       Sample(mixed(rng, (3, 4), dtype), 0, 0, label="main diagonal", smooth=False),
       Sample(_r(rng, dtype, 2, 3, 4), [-1, 1], 9, label="band, padded"),
       Sample(_r(rng, dtype, 3, 4), [0, 2], 0, "LEFT_LEFT", label="band, LEFT_LEFT"),
       Sample(_r(rng, dtype, 3, 4), [1, 0], 0, label="k reversed", raises=ValueError)])
op("matrix_set_diag", ref=lambda x, d, k=0, align="RIGHT_LEFT": _matrix_diag_ref(
    d, k, x.shape[-2], x.shape[-1], 0, align, into=x), dtypes=INT_AND_FLOAT,
   samples=lambda dtype, rng, full: [
       Sample(mixed(rng, (3, 4), dtype), _r(rng, dtype, 3), label="main diagonal", smooth=False),
       Sample(_r(rng, dtype, 2, 3, 4), _r(rng, dtype, 2, 3, 3), [-1, 1], label="band"),
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 2, 3), [0, 1], "LEFT_RIGHT",
              label="band, LEFT_RIGHT"),
       Sample(_r(rng, dtype, 3, 4), _r(rng, dtype, 4), label="wrong length",
              raises=ValueError)])
