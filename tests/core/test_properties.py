"""Property-based checks (hypothesis): random shapes, slices and axes against NumPy."""
import numpy as np
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import tensorjit as ms
from tensorjit import Tensor

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)


@SETTINGS
@given(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=4),
       st.sampled_from(["add", "sub", "mul", "maximum"]))
def test_binary_broadcasting(shapes, op):
    a_shape, b_shape = shapes.input_shapes
    rng = np.random.default_rng(0)
    a = rng.standard_normal(a_shape)
    b = rng.standard_normal(b_shape)
    ref = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "maximum": np.maximum}[op]
    out = getattr(ms.ops, op)(Tensor(a), Tensor(b))
    assert out.shape == shapes.result_shape
    np.testing.assert_allclose(out.asnumpy(), ref(a, b), rtol=1e-12)


@st.composite
def sliced(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5))
    index = draw(hnp.basic_indices(shape, min_dims=0, allow_newaxis=True,
                                   allow_ellipsis=True))
    return shape, index


@SETTINGS
@given(sliced())
def test_basic_indexing(case):
    shape, index = case
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    got = Tensor(a)[index]
    expected = a[index]
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.asnumpy(), expected)


@SETTINGS
@given(sliced(), st.floats(-5, 5, width=32))
def test_basic_setitem(case, value):
    shape, index = case
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    expected = a.copy()
    expected[index] = value
    t = Tensor(a)
    t[index] = value
    np.testing.assert_array_equal(t.asnumpy(), expected)


@SETTINGS
@given(hnp.array_shapes(min_dims=1, max_dims=4, max_side=4), st.data())
def test_sum_and_max_over_random_axes(shape, data):
    ndim = len(shape)
    axes = data.draw(st.lists(st.integers(-ndim, ndim - 1), min_size=1, max_size=ndim,
                              unique_by=lambda a: a % ndim))
    keepdims = data.draw(st.booleans())
    a = np.random.default_rng(1).standard_normal(shape)
    out = Tensor(a).sum(tuple(axes), keepdims=keepdims)
    np.testing.assert_allclose(out.asnumpy(), a.sum(tuple(axes), keepdims=keepdims),
                               rtol=1e-12, atol=1e-12)
    out = Tensor(a).max(tuple(axes), keepdims)
    np.testing.assert_array_equal(out.asnumpy(), a.max(tuple(axes), keepdims=keepdims))


@SETTINGS
@given(hnp.array_shapes(min_dims=0, max_dims=4, max_side=4), st.data())
def test_reshape_and_transpose(shape, data):
    a = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    perm = data.draw(st.permutations(range(len(shape))))
    out = Tensor(a).transpose(tuple(perm)) if shape else Tensor(a)
    np.testing.assert_array_equal(out.asnumpy(), a.transpose(perm) if shape else a)
    flat = Tensor(a).reshape(-1)
    np.testing.assert_array_equal(flat.asnumpy(), a.reshape(-1))
