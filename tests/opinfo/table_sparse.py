"""Table entries: sparse tensors (COOTensor / CSRTensor / RowTensor, tensorjit/ops/sparse/),
against NumPy and scipy.sparse.

The table feeds ops with dense arrays, and these ops take sparse tensors: each entry is a
small caller (``op=``) that builds the sparse operand from the sample's arrays (its values
on a fixed pattern) and returns dense results (values, indices, ``to_dense()``), so the
values, dtypes, gradients (with respect to the values and dense operands) and refusals
are checked as for any op. The ``coo_*`` / ``csr_*`` elementwise entries are made from
the dense op's own entry (its NumPy reference, dtypes, samples): each applies the dense op
to the stored values (MindSpore's rule). Not here: the MindSpore record (MindSpore takes
sparse tensors, not these callers' arrays: ``ms=None``) and the fuzz feed (callers are not
``ops`` names); tests/core/test_sparse.py runs them under jit in every capture mode.
"""
import numpy as np
import scipy.sparse as sp

import tensorjit as tj
from tensorjit import dtype as dt
from tensorjit import ops

from .core import TABLE, op, Sample
from .samples import random

_F = (dt.float32, dt.float64)
_NOTE = {"caller": "the op on a sparse operand built from the sample's arrays (values on "
                   "a fixed pattern); the reference is scipy.sparse / NumPy on the same data"}


def _t(array, dtype=np.int32):
    return tj.Tensor(np.asarray(array, dtype))


# ---- the elementwise functions: one entry per name, from the dense op's entry ------------

def _sparse_of(kind, values):
    """A COO / CSR tensor holding ``values`` (any shape, flattened): value ``k`` at row
    ``k``, column ``k % 2`` of an (n, 2) matrix."""
    flat = ops.reshape(values, (-1,))
    n = flat.shape[0]
    if kind == "coo":
        index = np.stack([np.arange(n), np.arange(n) % 2], 1).reshape(n, 2)
        return tj.COOTensor(_t(index), flat, (max(n, 1), 2))
    if n == 0:      # MindSpore's only CSRTensor without values: every part empty
        return tj.CSRTensor(_t(np.zeros(0)), _t(np.zeros(0)), flat, (1, 2))
    return tj.CSRTensor(_t(np.arange(n + 1)), _t(np.arange(n) % 2), flat, (n, 2))


def _elementwise_caller(name):
    function = getattr(ops, name)

    def call(x):
        return ops.reshape(function(_sparse_of(name[:3], x)).values, tuple(x.shape))
    call.__name__ = name
    return call


def _first(samples, count):
    def make(dtype, rng, full):
        return list(samples(dtype, rng, full))[:count]
    return make


for _name in sorted(ops.sparse.ELEMENTWISE):
    _dense = TABLE[ops.sparse.UNARY[_name[4:]]]
    op(_name, op=_elementwise_caller(_name), ref=_dense.ref, ms=None, fuzz=False,
       dtypes=[d for d in _F if d in _dense.dtypes], only_declared=False,
       samples=_first(_dense.samples, 5), result=_dense.result, tol=_dense.tol,
       grad=_dense.grad, grad_samples=_dense.grad_samples, nondiff=_dense.nondiff,
       signed_zeros=_dense.signed_zeros, ref_differs=_dense.ref_differs, fd=_dense.fd,
       notes=dict(_NOTE, rule=f"ops.{_dense.name} of the stored values; the pattern is "
                              f"kept (implicit zeros stay zeros)"))


# ---- CSR: a fixed 3x4 pattern with 5 stored values --------------------------------------

_PTR, _IND, _SHAPE = np.array([0, 2, 3, 5]), np.array([0, 2, 3, 1, 3]), (3, 4)
_PTR_B, _IND_B = np.array([0, 1, 3, 4]), np.array([2, 0, 2, 3])     # another, 4 values


def _csr(values, ptr=_PTR, ind=_IND, shape=_SHAPE):
    return tj.CSRTensor(_t(ptr), _t(ind), values, shape)


def _scipy(values, ptr=_PTR, ind=_IND, shape=_SHAPE):
    return sp.csr_matrix((np.asarray(values), ind, ptr), shape=shape)


def _values(*shapes, lo=-2.0, hi=2.0):
    def make(dtype, rng, full):
        return [Sample(*[random(rng, s, dtype, lo, hi) for s in shape], label=f"case {k}")
                for k, shape in enumerate(shapes)]
    return make


_ROWS = np.repeat(np.arange(3), np.diff(_PTR))

op("csr_to_dense", op=lambda v: ops.csr_to_dense(_csr(v)), ref=lambda v: _scipy(v).toarray(),
   dtypes=_F + (dt.int32,), only_declared=False, samples=_values([(5,)]), ms=None,
   fuzz=False, notes=_NOTE)
op("csr_mv", op=lambda v, d: ops.csr_mv(_csr(v), d), ref=lambda v, d: _scipy(v) @ d,
   dtypes=_F, only_declared=False, samples=_values([(5,), (4, 1)]), ms=None, fuzz=False,
   notes=_NOTE)
op("csr_mul", op=lambda v, y: ops.csr_mul(_csr(v), y).values,
   ref=lambda v, y: v * np.broadcast_to(y, _SHAPE)[_ROWS, _IND], dtypes=_F,
   only_declared=False, samples=_values([(5,), (3, 4)], [(5,), (4,)]), ms=None, fuzz=False,
   notes=_NOTE)
op("csr_div", op=lambda v, y: ops.csr_div(_csr(v), y).values,
   ref=lambda v, y: v / np.broadcast_to(y, _SHAPE)[_ROWS, _IND], dtypes=_F,
   only_declared=False, samples=_values([(5,), (3, 4)], lo=0.5, hi=2.0), ms=None, fuzz=False,
   notes=_NOTE)
op("csr_reduce_sum", op=lambda v: ops.csr_reduce_sum(_csr(v), 1),
   ref=lambda v: np.asarray(_scipy(v).sum(1)), dtypes=_F, only_declared=False,
   samples=_values([(5,)]), ms=None, fuzz=False, notes=_NOTE)
op("csr_gather", op=lambda d: ops.csr_gather(_t(_PTR), _t(_IND), d, _SHAPE),
   ref=lambda d: d[_ROWS, _IND], dtypes=_F + (dt.int32,), only_declared=False,
   samples=_values([(3, 4)]), ms=None, fuzz=False, notes=_NOTE)


def _row_softmax(v):
    out = np.empty_like(v)
    for r in range(3):
        part = v[_PTR[r]:_PTR[r + 1]]
        out[_PTR[r]:_PTR[r + 1]] = np.exp(part - part.max()) / np.exp(part - part.max()).sum()
    return out


op("csr_softmax", op=lambda v: ops.csr_softmax(_csr(v), v.dtype).values, ref=_row_softmax,
   dtypes=_F, samples=_values([(5,)]), ms=None, fuzz=False, notes=_NOTE)
op("csr_add", op=lambda a, b, alpha, beta: ops.csr_add(
       _csr(a), _csr(b, _PTR_B, _IND_B), alpha, beta).to_dense(),
   ref=lambda a, b, alpha, beta: (alpha * _scipy(a) + beta * _scipy(b, _PTR_B, _IND_B)).toarray(),
   dtypes=_F, only_declared=False, samples=_values([(5,), (4,), (), ()]), ms=None,
   fuzz=False, notes=_NOTE)
_B_SHAPE, _PTR_B_MM, _IND_B_MM = (4, 3), np.array([0, 2, 3, 4, 5]), np.array([0, 2, 1, 0, 2])
op("csr_mm", op=lambda a, b: ops.csr_mm(_csr(a), _csr(b, _PTR_B_MM, _IND_B_MM,
                                                    _B_SHAPE)).to_dense(),
   ref=lambda a, b: (_scipy(a) @ _scipy(b, _PTR_B_MM, _IND_B_MM, _B_SHAPE)).toarray(),
   dtypes=_F, only_declared=False, samples=_values([(5,), (5,)]), ms=None, fuzz=False,
   notes=_NOTE)
op("csr_to_coo", op=lambda v: ops.csr_to_coo(_csr(v)).to_tuple()[:2],
   ref=lambda v: (np.stack([_ROWS, _IND], 1), v), result=lambda d: (dt.int32, d),
   dtypes=_F, only_declared=False, samples=_values([(5,)]), ms=None, fuzz=False,
   notes=_NOTE)
op("csr2coo", op=lambda ptr: ops.csr2coo(ptr, 5), ref=lambda ptr: _ROWS,
   dtypes=(dt.int32, dt.int64), samples=lambda d, rng, full: [Sample(_PTR.astype(d))],
   grad=False, ms=None, fuzz=False, only_declared=False,
   notes={"MindSpore": "its CPU kernel needs the AKG compiler, absent from the MindSpore "
                       "2.10 install this was checked with: documented semantics"})
op("coo2csr", op=lambda rows: ops.coo2csr(rows, 3), ref=lambda rows: _PTR,
   dtypes=(dt.int32, dt.int64), samples=lambda d, rng, full: [Sample(_ROWS.astype(d))],
   grad=False, ms=None, fuzz=False, only_declared=False,
   notes={"MindSpore": "its CPU kernel needs the AKG compiler, absent from the MindSpore "
                       "2.10 install this was checked with: documented semantics"})


def _dense_samples(dtype, rng, full):
    x = random(rng, (3, 4), dtype)
    x[0, 1] = x[2, :2] = x[1, 3] = 0
    return [Sample(x, label="with zeros"), Sample(np.zeros((2, 2), dtype), label="all zeros")]


def _csr_dense_samples(dtype, rng, full):
    # no value to store: MindSpore's CSRTensor refuses empty values with a non-empty indptr
    with_zeros, zeros = _dense_samples(dtype, rng, full)
    return [with_zeros, Sample(*zeros.args, label="all zeros", raises=ValueError)]


def _nonzero_grad_samples(rng, full):
    # no zero element: a step of the finite differences must not change the pattern
    return [Sample(rng.uniform(0.5, 2.0, (3, 4)) * rng.choice([-1, 1], (3, 4)), label="dense")]


def _coo_ref(x):
    m = sp.coo_matrix(np.asarray(x))
    order = np.lexsort((m.col, m.row))
    return np.stack([m.row[order], m.col[order]], 1).reshape(-1, 2), m.data[order]


op("dense_to_sparse_coo", op=lambda x: ops.dense_to_sparse_coo(x).to_tuple()[:2],
   ref=_coo_ref, result=lambda d: (dt.int32, d), dtypes=_F + (dt.int32,),
   only_declared=False, samples=_dense_samples, ms=None, fuzz=False,
   grad_samples=_nonzero_grad_samples, notes=_NOTE)
op("dense_to_sparse_csr", op=lambda x: ops.dense_to_sparse_csr(x).to_tuple()[:3],
   ref=lambda x: (sp.csr_matrix(x).indptr, sp.csr_matrix(x).indices, sp.csr_matrix(x).data),
   result=lambda d: (dt.int32, dt.int32, d), dtypes=_F, samples=_csr_dense_samples, ms=None,
   fuzz=False, grad_samples=_nonzero_grad_samples, notes=_NOTE)


# ---- COO and RowTensor ----------------------------------------------------------------------

_COO_A = np.array([[0, 1], [1, 2], [2, 0]])
_COO_B = np.array([[0, 1], [2, 3]])


def _coo(values, index):
    return tj.COOTensor(_t(index, np.int64), values, (3, 4))


def _dense_of(values, index):
    return sp.coo_matrix((values, (index[:, 0], index[:, 1])), shape=(3, 4)).toarray()


op("coo_add", op=lambda a, b: ops.coo_add(_coo(a, _COO_A), _coo(b, _COO_B),
                                          tj.Tensor(np.zeros((), a.dtype))).to_dense(),
   ref=lambda a, b: _dense_of(a, _COO_A) + _dense_of(b, _COO_B), dtypes=_F + (dt.int32,),
   only_declared=False, samples=_values([(3,), (2,)]), ms=None, fuzz=False, notes=_NOTE)
op("coo_concat", op=lambda a, b: ops.coo_concat((_coo(a, _COO_A), _coo(b, _COO_B)),
                                                1).to_dense(),
   ref=lambda a, b: np.concatenate([_dense_of(a, _COO_A), _dense_of(b, _COO_B)], 1),
   dtypes=_F + (dt.int32,), only_declared=False, samples=_values([(3,), (2,)]), ms=None,
   fuzz=False, notes=_NOTE)
op("row_tensor_add", op=lambda v, y: ops.row_tensor_add(
       tj.RowTensorInner(_t([0, 2]), v, (4, 3)), y).values,
   ref=lambda v, y: v + y, dtypes=_F, only_declared=False,
   samples=_values([(2, 3), (2, 3)], [(2, 3), ()]), ms=None, fuzz=False, notes=_NOTE)


# ---- on dense triples: coalesce, sparse_segment_mean ------------------------------------

def _coalesce_ref(indices, values, shape):
    sums = {}
    for k, key in enumerate(map(tuple, indices.T)):
        sums[key] = sums.get(key, 0) + values[k]
    keys = sorted(sums)
    return np.array(keys).T.reshape(len(shape), -1), np.array([sums[k] for k in keys]), shape


def _coalesce_samples(dtype, rng, full):
    index = np.array([[1, 0, 1, 2], [1, 0, 1, 3]], np.int64)
    return [Sample(index, random(rng, (4,), dtype), np.array([3, 4], np.int64),
                   label="repeated index")]


op("coalesce", ref=_coalesce_ref, result=lambda i, v, s: (dt.int64, v, dt.int64),
   dtypes=(dt.float16,) + _F, samples=_coalesce_samples, fuzz=False,
   notes={"reads": "the result's size depends on the indices, which are read"})


def _segment_mean_ref(x, indices, segment_ids):
    n = int(segment_ids[-1]) + 1
    out = np.zeros((n,) + x.shape[1:])
    for i in range(n):
        rows = indices[segment_ids == i]
        if rows.size:
            out[i] = x[rows].mean(0)
    return out


def _segment_samples(dtype, rng, full):
    return [Sample(random(rng, (4, 3), dtype), np.array([0, 1, 3, 2], np.int32),
                   np.array([0, 0, 2, 2], np.int32), label="a missing segment"),
            Sample(random(rng, (5,), dtype), np.array([4, 0], np.int64),
                   np.array([1, 1], np.int64), label="1-D")]


op("sparse_segment_mean", ref=_segment_mean_ref, dtypes=(dt.float16,) + _F,
   samples=_segment_samples, fuzz=False,
   notes={"reads": "the number of segments is the last id + 1, read from segment_ids"})
