"""``Tensor.__getitem__`` / ``__setitem__`` against NumPy indexing of the same array."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops

A = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
MASK_FULL = A % 3 == 0
MASK_ROWS = np.array([True, False, True])
MASK_23 = np.array([[True, False, False, True], [False, True, True, False],
                    [False, False, False, True]])


def _to_tensor_index(index, as_tensor):
    """The same index with arrays as Tensors (or lists), for tensorjit."""
    def conv(item):
        if isinstance(item, np.ndarray):
            return Tensor(item) if as_tensor else item.tolist()
        return item
    return tuple(conv(i) for i in index) if isinstance(index, tuple) else conv(index)


GETITEM = [
    ("int", 1), ("negative int", -1), ("int pair", (2, -3)), ("full int", (1, 2, 3)),
    ("slice", slice(1, 3)), ("slice step", (slice(None), slice(None, None, 2))),
    ("negative step", slice(None, None, -1)), ("negative step range", (0, slice(3, 0, -2))),
    ("negative bounds", (slice(-2, None), slice(None, -1))),
    ("slice out of range clips", slice(1, 10)), ("empty slice", slice(2, 1)),
    ("None", None), ("None middle", (slice(None), None, 1)),
    ("Ellipsis", (Ellipsis, 2)), ("Ellipsis middle", (0, Ellipsis, 1)),
    ("Ellipsis and None", (None, Ellipsis, None)), ("empty tuple", ()),
    ("bool mask all dims", MASK_FULL), ("bool mask first axis", MASK_ROWS),
    ("bool mask two dims", MASK_23), ("bool mask after slice", (slice(None), np.array([True, False, True, True]))),
    ("int array", np.array([2, 0, 2])), ("int array 2d", np.array([[0, 1], [2, 2]])),
    ("negative int array", np.array([-1, 0])),
    ("two int arrays broadcast", (np.array([[0], [2]]), np.array([1, 3]))),
    ("int array after slice", (slice(None), np.array([3, 0]))),
    ("separated int arrays", (np.array([0, 2]), slice(None), np.array([4, 1]))),
    ("mixed int, array, slice", (1, np.array([0, 3]), slice(1, 4))),
    ("array and Ellipsis", (Ellipsis, np.array([4, 4, 0]))),
]


@pytest.mark.parametrize("as_tensor", [True, False], ids=["tensor index", "list index"])
@pytest.mark.parametrize("label,index", GETITEM, ids=[g[0] for g in GETITEM])
def test_getitem_matches_numpy(label, index, as_tensor):
    expected = A[index]
    got = Tensor(A)[_to_tensor_index(index, as_tensor)]
    assert got.dtype == ms.float32
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.asnumpy(), expected)


def test_getitem_with_scalar_tensor_index():
    t = Tensor(A)
    np.testing.assert_array_equal(t[Tensor(2)].asnumpy(), A[2])
    np.testing.assert_array_equal(t[Tensor(1), Tensor(-1)].asnumpy(), A[1, -1])
    np.testing.assert_array_equal(t[Tensor(0):Tensor(2)].asnumpy(), A[0:2])


def test_getitem_returns_a_copy_semantically():
    t = Tensor(A)
    row = t[0]
    t[0] = -1.0
    np.testing.assert_array_equal(row.asnumpy(), A[0])


def test_getitem_on_0d_and_other_dtypes():
    assert Tensor(5)[()].item() == 5
    b = np.array([[True, False], [False, True]])
    np.testing.assert_array_equal(Tensor(b)[:, 1].asnumpy(), b[:, 1])
    h = np.arange(6).astype(np.float16).reshape(2, 3)
    out = Tensor(h)[Tensor([1, 0]), 1:]
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(), h[[1, 0], 1:])


# ---- setitem ----------------------------------------------------------------------------

SETITEM = [
    ("int scalar", 1, 7.0),
    ("slice row vector", (slice(None), 1), np.arange(5, dtype=np.float32)),
    ("negative step", (0, slice(None, None, -1)), np.ones((4, 5), np.float32)),
    ("Ellipsis", (Ellipsis, 0), np.array([[1.0], [2.0], [3.0]], np.float32)),
    ("None", (None, 2), 4.0),
    ("bool mask scalar", MASK_FULL, 0.0),
    ("bool mask rows", MASK_ROWS, -1.0),
    ("bool mask rows broadcast value", MASK_ROWS, np.arange(5, dtype=np.float32)),
    ("bool mask 2d with vector value", MASK_23, np.arange(5, dtype=np.float32)),
    ("int array", np.array([2, 0]), np.full((2, 4, 5), 3.0, np.float32)),
    ("int array broadcast value", (slice(None), np.array([3, 1])), np.arange(5, dtype=np.float32)),
    ("two int arrays", (np.array([0, 2]), np.array([1, 3])), np.array([[9.0], [8.0]], np.float32)),
    ("mixed", (1, np.array([0, 3]), slice(1, 4)), 5.0),
    ("python int value", (2, 2, 2), 11),
]


@pytest.mark.parametrize("as_tensor", [True, False], ids=["tensor index", "list index"])
@pytest.mark.parametrize("label,index,value", SETITEM, ids=[s[0] for s in SETITEM])
def test_setitem_matches_numpy(label, index, value, as_tensor):
    expected = A.copy()
    expected[index] = value
    t = Tensor(A)
    alias = t
    v = Tensor(value) if isinstance(value, np.ndarray) else value
    t[_to_tensor_index(index, as_tensor)] = v
    assert alias.dtype == ms.float32
    np.testing.assert_array_equal(alias.asnumpy(), expected)


def test_setitem_casts_value_to_tensor_dtype():
    t = Tensor(np.zeros(4, np.int32))
    t[1:3] = Tensor([2.7, -1.2])                    # float64 value into int32
    assert t.dtype == ms.int32
    np.testing.assert_array_equal(t.asnumpy(), [0, 2, -1, 0])
    h = Tensor(np.zeros(3, np.float16))
    h[0] = 1.5
    assert h.dtype == ms.float16 and h.asnumpy()[0] == 1.5


def test_masked_fill_with_bool_tensor():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = Tensor(a)
    t[t > 2] = 0.0
    np.testing.assert_array_equal(t.asnumpy(), np.where(a > 2, 0, a))
    out = ops.masked_fill(Tensor(a), Tensor(a < 2), -5.0)
    np.testing.assert_array_equal(out.asnumpy(), np.where(a < 2, -5, a))
    out = Tensor(a).masked_fill(Tensor(np.array([True, False, True])), 1.0)   # broadcast mask
    np.testing.assert_array_equal(out.asnumpy(), np.where([True, False, True], 1, a))


def test_gather_and_friends():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    idx = np.array([2, 0, 2])
    np.testing.assert_array_equal(ops.gather(Tensor(a), Tensor(idx), 0).asnumpy(), a[idx])
    np.testing.assert_array_equal(ops.gather(Tensor(a), Tensor(idx), 1).asnumpy(), a[:, idx])
    ge = np.array([[0, 3], [1, 1], [2, 0]])
    np.testing.assert_array_equal(ops.gather_elements(Tensor(a), 1, Tensor(ge)).asnumpy(),
                                  np.take_along_axis(a, ge, 1))
    nz = ops.nonzero(Tensor(np.array([[0, 1], [2, 0]])))
    np.testing.assert_array_equal(nz.asnumpy(), [[0, 1], [1, 0]])
    out = ops.index_add(Tensor(np.zeros(4, np.float32)), Tensor([0, 2, 0]),
                        Tensor([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(out.asnumpy(), [4.0, 0.0, 2.0, 0.0])


@pytest.mark.parametrize("level", [None, "O0", "O1"])
def test_embedding_gradient_is_a_one_hot_product(level):
    """d(sum(table[ids] * ct)) / d(table) = one_hot(ids).T @ ct: rows of repeated ids
    add up (the sorted segment sum of ops/indexing.py)."""
    rng = np.random.default_rng(0)
    table = rng.standard_normal((50, 8)).astype(np.float32)
    ids = rng.integers(-50, 50, (6, 9)).astype(np.int32)        # repeats, negative ids
    ct = rng.standard_normal((6, 9, 8)).astype(np.float32)

    def loss(t):
        return (ops.gather(t, Tensor(ids), 0) * Tensor(ct)).sum()
    grad_fn = ms.grad(loss)
    if level:
        grad_fn = ms.jit(grad_fn, jit_level=level)
    got = grad_fn(Tensor(table)).asnumpy()
    one_hot = (ids.reshape(-1, 1) % 50 == np.arange(50)).astype(np.float64)
    np.testing.assert_allclose(got, one_hot.T @ ct.reshape(-1, 8), rtol=1e-5, atol=1e-5)
    with pytest.raises(IndexError, match="out of bounds"):
        ops.index_add(Tensor(np.zeros((4, 2), np.float32)), Tensor([0, 4]),
                      Tensor(np.ones((2, 2), np.float32)))


@pytest.mark.parametrize("repeats", [1, 3, 40])      # 40: past the per-occurrence levels
def test_embedding_gradient_adds_in_add_at_order(repeats):
    # the gradient of a row lookup with repeated rows: bit-equal to np.add.at (which adds
    # each row's values first to last), negative indices included; a row repeated more
    # than 16 times is summed as a segment first (equal within rounding)
    rng = np.random.default_rng(repeats)
    table = Tensor(rng.standard_normal((37, 6)).astype(np.float32))
    ids = np.concatenate([rng.integers(-37, 37, 50), np.full(repeats, 5), [-32] * repeats])
    ids = rng.permutation(ids).astype(np.int32).reshape(-1, 2)
    ct = rng.standard_normal(ids.shape + (6,)).astype(np.float32)

    def f(t):
        return (t[Tensor(ids)] * Tensor(ct)).sum()
    expected = np.zeros((37, 6), np.float32)
    np.add.at(expected, ids.reshape(-1), ct.reshape(-1, 6))
    if repeats <= 16:
        np.testing.assert_array_equal(ms.grad(f)(table).asnumpy(), expected)
    else:
        np.testing.assert_allclose(ms.grad(f)(table).asnumpy(), expected, rtol=1e-5,
                                   atol=1e-5)
