"""Sparse tensors (tensorjit/ops/sparse/): MindSpore 2.10's COOTensor / CSRTensor /
RowTensor and its functions on them, against scipy.sparse and NumPy; their checks and
errors as MindSpore's; under jit in every capture mode; gradients with respect to the
values by finite differences. (The op table, tests/opinfo/table_sparse.py, checks each
function's values and dtypes over its samples.)"""
import numpy as np
import pytest
import scipy.sparse as sp

import tensorjit as tj
from tensorjit import Tensor, nn, ops
from tensorjit import pytree
from tensorjit.ops.sparse import ELEMENTWISE, UNARY, ZERO_PRESERVING

RNG = np.random.default_rng(7)
DENSE = np.array([[0, 1.5, 0, -2], [3, 0, 0, 0], [0, -0.5, 4, 0]], np.float32)
MATRIX = sp.csr_matrix(DENSE)


def t(array, dtype=None):
    return Tensor(np.asarray(array, dtype))


def coo(dense=DENSE, index_dtype=np.int32):
    m = sp.coo_matrix(dense)
    return tj.COOTensor(t(np.stack([m.row, m.col], 1), index_dtype), t(m.data), dense.shape)


def csr(dense=DENSE):
    m = sp.csr_matrix(dense)
    return tj.CSRTensor(t(m.indptr, np.int32), t(m.indices, np.int32), t(m.data), dense.shape)


# ---- construction, attributes, MindSpore's checks ----------------------------------------

def test_attributes_and_dense_forms_follow_scipy():
    c, x = coo(), csr()
    assert c.shape == x.shape == (3, 4) and c.ndim == x.ndim == 2
    assert c.dtype == x.dtype == tj.float32 and c.size == x.size == 5 and c.itemsize == 4
    np.testing.assert_array_equal(c.to_dense().asnumpy(), DENSE)
    np.testing.assert_array_equal(x.to_dense().asnumpy(), DENSE)
    np.testing.assert_array_equal(ops.csr_to_dense(x).asnumpy(), DENSE)
    back = x.to_coo()
    np.testing.assert_array_equal(back.indices.asnumpy(), np.stack(MATRIX.nonzero(), 1))
    again = c.to_csr()
    np.testing.assert_array_equal(again.indptr.asnumpy(), MATRIX.indptr)
    np.testing.assert_array_equal(again.indices.asnumpy(), MATRIX.indices)
    assert [p is q for p, q in zip(c.to_tuple(), (c.indices, c.values, c.shape))]
    assert tj.COOTensor(coo_tensor=c).values is c.values
    assert isinstance(c.astype(tj.float64).values.asnumpy()[0], np.float64)
    np.testing.assert_array_equal(c.abs().values.asnumpy(), np.abs(c.values.asnumpy()))
    # repeated indices add up; coalesce sums them into sorted unique indices (int64)
    dup = tj.COOTensor(t([[1, 1], [0, 0], [1, 1]], np.int64), t([1., 2., 3.], np.float32), (3, 4))
    assert dup.to_dense().asnumpy()[1, 1] == 4
    merged = dup.coalesce()
    np.testing.assert_array_equal(merged.indices.asnumpy(), [[0, 0], [1, 1]])
    np.testing.assert_array_equal(merged.values.asnumpy(), [2., 4.])


@pytest.mark.parametrize("build, exc, match", [
    (lambda: tj.COOTensor(t([[0, 1]]), t([1., 2.]), (3, 4)), ValueError, "euqal"),
    (lambda: tj.COOTensor(t([[0, 1, 2]]), t([1.]), (3, 4)), ValueError, "must be 2"),
    (lambda: tj.COOTensor(t([[0, 1]]), t([1.]), (3, -4)), ValueError, "positive"),
    (lambda: tj.COOTensor(t([[0, 1]]), t([1.]), (3, 4, 5)), ValueError, "length of 'shape'"),
    (lambda: tj.COOTensor(t([[0, 1]]), t([1.]), [3, 4]), TypeError, "must be tuple"),
    (lambda: tj.COOTensor(t([[0, 1]], np.float32), t([1.]), (3, 4)), TypeError, "int16"),
    (lambda: tj.CSRTensor(t([0, 1]), t([0]), t([1.]), (3, 4)), ValueError, "1 \\+ shape"),
    (lambda: tj.CSRTensor(t([0., 1, 1]), t([0]), t([1.]), (2, 4)), TypeError, "indptr"),
    (lambda: tj.COOTensor(t([[0, 1]]), t([1.]), (3, 4), coo_tensor=coo()), TypeError, "None"),
    (lambda: ops.coo_abs(t([1.])), TypeError, "Expects COOTensor for coo_abs"),
    (lambda: ops.csr_sin(coo()), TypeError, "Expects CSRTensor for csr_sin"),
    (lambda: ops.csr_to_coo(coo()), TypeError, "must be a CSRTensor"),
    (lambda: ops.dense_to_sparse_coo(t(np.ones((2, 2, 2)))), ValueError, "2-D"),
    (lambda: ops.dense_to_sparse_csr(t(np.ones((2, 2), np.int32))), TypeError, "float32"),
    (lambda: ops.coo_add(coo(), coo(), t(0.0, np.float32)), TypeError, "Int64"),
    (lambda: ops.coo_concat((coo(index_dtype=np.int64),), 0), ValueError, "< 2"),
    (lambda: ops.csr_reduce_sum(csr(), 0), ValueError, "axis"),
    (lambda: ops.csr_mv(csr(), t(np.ones(4, np.float32))), ValueError, "2-D"),
    (lambda: tj.COOTensor(t([[0, 9]]), t([1.], np.float32), (3, 4)).to_dense(), RuntimeError,
     "out of range"),
    (lambda: ops.coalesce(t([[1, 0]], np.int32), t([1., 2.], np.float32), t([3])), TypeError,
     "int64"),
    (lambda: ops.SparseToDense()(t([[0, 7]]), t([1.], np.float32), (3, 4)), ValueError,
     "out of bounds"),
    (lambda: nn.SparseTensorDenseMatmul(1, 0), TypeError, "'adjoint_st' should be 'bool'"),
    (lambda: ops.sparse_segment_mean(t(np.ones((4, 2))), t([0, 1]), t([1, 0])), RuntimeError,
     "sorted"),
])
def test_errors_are_mindspores(build, exc, match):
    with pytest.raises(exc, match=match):
        build()


# ---- the elementwise table -----------------------------------------------------------------

def test_every_elementwise_name_applies_its_dense_op_to_the_values_only():
    assert len(ELEMENTWISE) == 62 and set(ELEMENTWISE) == {
        f"{kind}_{name}" for kind in ("coo", "csr") for name in UNARY}
    values = np.array([0.3, -0.7, 1.5, 0.0, 2.5], np.float32)
    dense = np.zeros((3, 4), np.float32)
    rows, cols = np.array([0, 0, 1, 2, 2]), np.array([1, 3, 0, 1, 2])
    dense[rows, cols] = values
    for name, function in ELEMENTWISE.items():
        sparse = coo(dense) if name.startswith("coo") else csr(dense)
        if name.startswith("csr"):       # scipy's CSR drops the stored 0.0: put it back
            sparse = tj.CSRTensor(t([0, 2, 3, 5], np.int32), t(cols, np.int32), t(values),
                                  (3, 4))
        else:
            sparse = tj.COOTensor(t(np.stack([rows, cols], 1), np.int32), t(values), (3, 4))
        out = function(sparse)
        assert type(out) is type(sparse) and out.shape == (3, 4)
        np.testing.assert_array_equal(out.indices.asnumpy(), sparse.indices.asnumpy())
        want = getattr(ops, UNARY[name[4:]])(t(values)).asnumpy()
        np.testing.assert_array_equal(out.values.asnumpy(), want, err_msg=name)
        if out.dtype == tj.bool_:       # no bool scatter-add (nor in MindSpore's to_dense)
            continue
        got_dense = out.to_dense().asnumpy()
        full = getattr(ops, UNARY[name[4:]])(t(dense)).asnumpy()
        if name[4:] in ZERO_PRESERVING:      # f(0) == 0: the dense result itself
            np.testing.assert_array_equal(got_dense, full, err_msg=name)
        else:                                # implicit zeros stay zeros (MindSpore's rule)
            assert not np.any(np.delete(got_dense.ravel(), rows * 4 + cols)), name


# ---- arithmetic against scipy ------------------------------------------------------------

def test_operators_and_products_follow_scipy():
    other = RNG.uniform(0.5, 2, (3, 4)).astype(np.float32)
    c, x = coo(), csr()
    np.testing.assert_allclose((c + t(other)).asnumpy(), DENSE + other)
    np.testing.assert_allclose((c - t(other)).asnumpy(), DENSE - other)
    np.testing.assert_allclose((c * t(other)).to_dense().asnumpy(), DENSE * other)
    np.testing.assert_allclose((c / t(other)).to_dense().asnumpy(), DENSE / other)
    np.testing.assert_allclose((-x).to_dense().asnumpy(), -DENSE)
    np.testing.assert_allclose((x * t(other)).to_dense().asnumpy(), DENSE * other)
    np.testing.assert_allclose((x / t(other)).to_dense().asnumpy(), DENSE / other, 1e-6)
    np.testing.assert_allclose(ops.csr_mul(x, 2.0).asnumpy(), MATRIX.data * 2)  # a Tensor
    vector, matrix = RNG.standard_normal((4, 1)), RNG.standard_normal((4, 3))
    np.testing.assert_allclose(x.mv(t(vector, np.float32)).asnumpy(), MATRIX @ vector, 1e-5)
    np.testing.assert_allclose(x.mm(t(matrix, np.float32)).asnumpy(), MATRIX @ matrix, 1e-5)
    np.testing.assert_allclose(x.sum(1).asnumpy(), MATRIX.sum(1), 1e-6)
    other_sparse = sp.random(3, 4, 0.4, format="csr", random_state=3, dtype=np.float32)
    both = csr(other_sparse.toarray())
    np.testing.assert_allclose((x + both).to_dense().asnumpy(), (MATRIX + other_sparse).toarray())
    np.testing.assert_allclose((x - both).to_dense().asnumpy(), (MATRIX - other_sparse).toarray())
    right = sp.random(4, 5, 0.4, format="csr", random_state=4, dtype=np.float32)
    product = x.mm(csr(right.toarray()))
    assert isinstance(product, tj.CSRTensor) and product.shape == (3, 5)
    np.testing.assert_allclose(product.to_dense().asnumpy(), (MATRIX @ right).toarray(), 1e-6)
    np.testing.assert_allclose(ops.csr_mm(x, csr(DENSE), trans_b=True).to_dense().asnumpy(),
                               DENSE @ DENSE.T, 1e-6)


def test_coo_add_thresholds_only_the_sums_of_shared_indices():
    a = tj.COOTensor(t([[0, 1], [1, 2]], np.int64), t([1., 2.], np.float32), (3, 4))
    b = tj.COOTensor(t([[0, 1], [2, 3]], np.int64), t([5., -7.], np.float32), (3, 4))
    out = ops.coo_add(a, b, t(3.0, np.float32))       # MindSpore 2.10: 6, 2, -7 kept
    np.testing.assert_array_equal(out.indices.asnumpy(), [[0, 1], [1, 2], [2, 3]])
    np.testing.assert_array_equal(out.values.asnumpy(), [6., 2., -7.])
    assert ops.coo_add(a, -a, t(0.5, np.float32)).values.shape == (0,)
    np.testing.assert_array_equal(ops.coo_add(a, -a, t(0., np.float32)).values.asnumpy(), [0, 0])
    joined = ops.coo_concat((a, b), 1)
    assert joined.shape == (3, 8)
    np.testing.assert_array_equal(joined.indices.asnumpy(), [[0, 1], [0, 5], [1, 2], [2, 7]])


def test_operator_classes_and_cells():
    index, values = t([[0, 1], [1, 2], [0, 1]], np.int64), t([1., 2., 5.], np.float32)
    dense = ops.SparseToDense()(index, values, (3, 4)).asnumpy()
    assert dense[0, 1] == 5 and dense[1, 2] == 2       # a repeated index keeps its last value
    np.testing.assert_array_equal(nn.SparseToDense()(coo()).asnumpy(), DENSE)
    added = ops.SparseTensorDenseAdd()(index, values, t([3, 4], np.int64), t(np.ones((3, 4)),
                                                                              np.float32))
    assert added.asnumpy()[0, 1] == 7
    b = RNG.standard_normal((3, 2)).astype(np.float32)
    m = sp.coo_matrix(DENSE)
    got = nn.SparseTensorDenseMatmul(adjoint_st=True)(
        t(np.stack([m.row, m.col], 1), np.int64), t(m.data), (3, 4), t(b))
    np.testing.assert_allclose(got.asnumpy(), DENSE.T @ b, 1e-5)
    d = RNG.standard_normal((2, 4)).astype(np.float32)
    got = ops.SparseTensorDenseMatmul(adjoint_dt=True)(
        t(np.stack([m.row, m.col], 1), np.int64), t(m.data), (3, 4), t(d))
    np.testing.assert_allclose(got.asnumpy(), DENSE @ d.T, 1e-5)
    y_index, y_values, y_shape = ops.SparseSlice()(
        t([[0, 1], [1, 2], [2, 3]], np.int64), t([1., 2., 3.], np.float32), t([3, 4], np.int64),
        t([1, 1], np.int64), t([2, 5], np.int64))
    np.testing.assert_array_equal(y_index.asnumpy(), [[0, 1], [1, 2]])
    np.testing.assert_array_equal(y_values.asnumpy(), [2., 3.])
    np.testing.assert_array_equal(y_shape.asnumpy(), [2, 3])


def test_make_get_and_row_tensors():
    c = ops.make_coo_tensor(t([[0, 1]]), t([2.], np.float32), (2, 2))
    assert ops.coo_tensor_get_dense_shape(c) == (2, 2)
    assert ops.coo_tensor_get_values(c) is c.values
    assert ops.coo_tensor_get_indices(ops.make_sparse_tensor(c.indices, c.values, (2, 2))) \
        is c.indices
    x = ops.make_csr_tensor(t([0, 1, 1]), t([1]), t([2.], np.float32), (2, 2))
    assert ops.csr_tensor_get_indptr(x) is x.indptr and ops.csr_tensor_get_indices(x) is \
        x.indices and ops.csr_tensor_get_values(x) is x.values
    assert ops.csr_tensor_get_dense_shape(x) == (2, 2)
    r = ops.make_row_tensor(t([0, 2]), t(np.ones((2, 3)), np.float32), (4, 3))
    assert isinstance(r, tj.RowTensor) and r.dense_shape == (4, 3)
    assert ops.row_tensor_get_dense_shape(r) == (4, 3)
    assert ops.row_tensor_get_indices(r) is r.indices
    added = ops.row_tensor_add(ops.make_row_tensor_inner(r.indices, r.values, (4, 3)),
                               t(2.0, np.float32))
    np.testing.assert_array_equal(ops.row_tensor_get_values(added).asnumpy(), np.full((2, 3), 3))
    with pytest.raises(TypeError, match="RowTensor"):
        ops.row_tensor_get_values(c)


# ---- pytrees: jit in every capture mode, gradients ---------------------------------------

def test_sparse_tensors_are_pytree_nodes_keyed_by_shape():
    leaves = []
    structure = pytree.flatten({"a": coo(), "b": [csr()]}, leaves)
    assert len(leaves) == 5 and pytree.count_tensors(structure) == 5
    rebuilt = pytree.unflatten(structure, leaves)
    assert isinstance(rebuilt["a"], tj.COOTensor) and rebuilt["b"][0].shape == (3, 4)
    assert "COOTensor" in pytree.describe(structure)


def _program(c, x, dense):
    s = ops.coo_sin(c)
    return s.to_dense() * 2, ops.csr_mv(ops.csr_exp(x), dense), ops.csr_relu(-x), \
        c * ops.broadcast_to(dense[:3], (3, 4))


@pytest.mark.parametrize("mode", ["ast", "bytecode", "trace"])
def test_sparse_arguments_and_results_compile_in_every_capture_mode(mode):
    args = (coo(), csr(), t(RNG.standard_normal((4, 1)), np.float32))
    want = _program(*args)
    jitted = tj.jit(_program, capture_mode=mode, fullgraph=True)
    for _ in range(2):          # the capture, then the compiled program
        got = jitted(*args)
    assert isinstance(got[2], tj.CSRTensor) and isinstance(got[3], tj.COOTensor)
    for g, w in zip(got, want):
        g, w = (g.values, w.values) if not isinstance(g, Tensor) else (g, w)
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), 1e-6)
    # the shape is part of the cache key: another shape compiles anew
    dense = tj.jit(lambda c: c.to_dense(), capture_mode=mode, fullgraph=True)
    assert dense(args[0]).shape == (3, 4)
    assert dense(tj.COOTensor(t([[2, 3]]), t([1.], np.float32), (3, 5))).shape == (3, 5)


def _finite_differences(f, x, eps=1e-6):
    out = np.zeros_like(x)
    for k in range(x.size):
        step = np.zeros_like(x)
        step.flat[k] = eps
        out.flat[k] = (f(x + step) - f(x - step)) / (2 * eps)
    return out


@pytest.mark.parametrize("mode", [None, "ast", "bytecode", "trace"])
def test_gradients_with_respect_to_the_values_match_finite_differences(mode):
    weights = RNG.standard_normal((3, 4))
    index, ptr, ind = t([[0, 1], [1, 2], [2, 0], [0, 1]]), t([0, 2, 3, 4]), t([0, 3, 1, 2])

    def loss(values):
        c = tj.COOTensor(index, values, (3, 4))
        x = tj.CSRTensor(ptr, ind, values, (3, 4))
        dense = ops.coo_tanh(c).to_dense() + ops.csr_mul(ops.csr_square(x), t(weights)).to_dense()
        return (dense * t(weights)).sum() + ops.csr_softmax(x, tj.float64).values[0]

    def reference(v):
        dense = np.zeros((3, 4))
        np.add.at(dense, (index.asnumpy()[:, 0], index.asnumpy()[:, 1]), np.tanh(v))
        rows, cols = np.repeat(np.arange(3), np.diff(ptr.asnumpy())), ind.asnumpy()
        dense[rows, cols] += v ** 2 * weights[rows, cols]
        return (dense * weights).sum() + np.exp(v[0]) / np.exp(v[:2]).sum()

    values = RNG.standard_normal(4)
    grad = tj.grad(loss) if mode is None else tj.jit(tj.grad(loss), capture_mode=mode)
    np.testing.assert_allclose(loss(t(values)).asnumpy(), reference(values), 1e-12)
    np.testing.assert_allclose(grad(t(values)).asnumpy(),
                               _finite_differences(reference, values), 1e-6)


def test_the_gradient_for_a_sparse_argument_is_its_values_gradient():
    # MindSpore 2.10 returns a Tensor shaped like the values
    x = csr()
    got = tj.grad(lambda s: (ops.csr_exp(s).to_dense() * 3).sum())(x)
    assert isinstance(got, Tensor)
    np.testing.assert_allclose(got.asnumpy(), 3 * np.exp(MATRIX.data), 1e-6)
    got = tj.grad(lambda s: s.to_dense().sum())(coo())
    np.testing.assert_array_equal(got.asnumpy(), np.ones(5))
