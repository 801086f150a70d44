"""Tensor and Parameter: construction, default dtypes, metadata, conversion, repr."""
import copy
import pickle

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, Parameter

from .helpers import BF16

ALL = [ms.float16, ms.float32, ms.float64, ms.bfloat16, ms.int8, ms.int16, ms.int32,
       ms.int64, ms.uint8, ms.bool_]


# ---- construction and MindSpore default dtypes -----------------------------------------

@pytest.mark.parametrize("data,dtype,shape", [
    (1.5, np.float32, ()),                      # Python float -> float32
    (3, np.int64, ()),                          # Python int -> int64
    (True, np.bool_, ()),
    ([1.0, 2.0], np.float32, (2,)),
    ([[1, 2], [3, 4]], np.int64, (2, 2)),
    ([1, 2.5], np.float32, (2,)),               # mixed int/float list -> float32
    ([True, False], np.bool_, (2,)),
    ((1, 2, 3), np.int64, (3,)),                # tuples too
    ([], np.float32, (0,)),
    ([[]], np.float32, (1, 0)),
])
def test_python_data_default_dtypes(data, dtype, shape):
    t = Tensor(data)
    assert t.dtype == dtype
    assert t.shape == shape
    np.testing.assert_array_equal(t.asnumpy(), np.array(data, dtype=dtype))


@pytest.mark.parametrize("np_dtype", [np.float16, np.float32, np.float64, np.int8, np.int16,
                                      np.int32, np.int64, np.uint8, np.bool_])
def test_numpy_data_keeps_dtype(np_dtype):
    a = np.arange(6).reshape(2, 3).astype(np_dtype)
    t = Tensor(a)
    assert t.dtype == np_dtype
    np.testing.assert_array_equal(t.asnumpy(), a)
    assert Tensor(a[0, 1]).dtype == np_dtype         # NumPy scalars keep theirs too


def test_construction_copies_numpy_data():
    a = np.zeros(3, np.float32)
    t = Tensor(a)
    a[0] = 5
    assert t.asnumpy()[0] == 0


@pytest.mark.parametrize("dtype", ALL)
def test_explicit_dtype(dtype):
    t = Tensor([0, 1, 2], dtype)
    assert t.dtype == dtype
    assert t.shape == (3,)
    np.testing.assert_array_equal(t.asnumpy(), np.array([0, 1, 2]).astype(dtype))


def test_python_floats_keep_their_digits_in_float64():
    """Tensor([0.1], float64) is 0.1, not the float32 nearest to it widened (as MindSpore)."""
    assert Tensor([0.1, 1 / 3], ms.float64).asnumpy().tolist() == [0.1, 1 / 3]
    assert Tensor(0.1, ms.float64).asnumpy() == 0.1
    assert Tensor([[0.1]]).dtype == ms.float32 and Tensor(0.1).dtype == ms.float32
    assert Tensor([0.1], ms.float32).asnumpy()[0] == np.float32(0.1)


@pytest.mark.parametrize("name,dtype", [("float16", ms.float16), ("float32", ms.float32),
                                        ("float64", ms.float64), ("bfloat16", ms.bfloat16),
                                        ("int32", ms.int32), ("uint8", ms.uint8),
                                        ("bool", ms.bool_), ("half", ms.float16),
                                        ("double", ms.float64)])
def test_dtype_names(name, dtype):
    assert Tensor([1], name).dtype == dtype


def test_dtype_module_aliases():
    assert ms.half == ms.float16 and ms.single == ms.float32 and ms.double == ms.float64
    assert ms.float32 == np.float32 and ms.bfloat16 == BF16


def test_from_tensor_and_tensor_lists():
    base = Tensor([1, 2])
    assert Tensor(base).dtype == ms.int64
    converted = Tensor(base, ms.float64)
    assert converted.dtype == ms.float64
    np.testing.assert_array_equal(converted.asnumpy(), [1.0, 2.0])
    stacked = Tensor([Tensor([1.0, 2.0]), Tensor([3.0, 4.0])])
    assert stacked.dtype == ms.float32 and stacked.shape == (2, 2)
    np.testing.assert_array_equal(stacked.asnumpy(), [[1, 2], [3, 4]])
    # the copy is independent
    c = Tensor(base)
    base[0] = 9
    assert c.asnumpy()[0] == 1


def test_shape_and_dtype_constructor():
    t = Tensor(shape=(2, 3), dtype=ms.int32)
    assert t.shape == (2, 3) and t.dtype == ms.int32
    assert not t.asnumpy().any()


def test_bfloat16_values_round_to_bfloat16():
    t = Tensor([1.0, 1.00390625, 3.14159], ms.bfloat16)
    assert t.dtype == ms.bfloat16
    # bfloat16 has 8 significant bits: 1 + 2**-8 rounds to 1, pi to 3.140625
    np.testing.assert_array_equal(t.asnumpy().astype(np.float64), [1.0, 1.0, 3.140625])


# ---- metadata and conversion --------------------------------------------------------------

def test_metadata():
    t = Tensor(np.zeros((2, 3, 4), np.float32))
    assert t.shape == (2, 3, 4)
    assert t.ndim == 3 and t.dim() == 3
    assert t.size == 24 and t.numel() == 24
    assert t.itemsize == 4 and t.nbytes == 96
    assert len(t) == 2
    assert isinstance(t.shape, tuple)


def test_asnumpy_and_array_protocol():
    t = Tensor([[1.5, 2.5]])
    a = t.asnumpy()
    assert isinstance(a, np.ndarray) and a.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(t), [[1.5, 2.5]])
    as64 = np.asarray(t, dtype=np.float64)
    assert as64.dtype == np.float64
    np.testing.assert_array_equal(np.array(t) + 1, [[2.5, 3.5]])


@pytest.mark.parametrize("dtype", ALL)
def test_astype_and_to(dtype):
    src = np.array([0.0, 1.0, 2.75, -3.5])
    t = Tensor(src, ms.float64)
    for out in (t.astype(dtype), t.to(dtype)):
        assert out.dtype == dtype
        expected = src.astype(dtype)
        np.testing.assert_array_equal(out.asnumpy(), expected)
    assert t.dtype == ms.float64                       # the source is unchanged


def test_astype_by_name_and_python_type():
    t = Tensor([1.7, -1.7])
    assert t.astype("int32").dtype == ms.int32
    np.testing.assert_array_equal(t.astype(ms.int32).asnumpy(), [1, -1])   # truncation
    assert t.astype(float).dtype == ms.float32
    assert t.astype(int).dtype == ms.int64
    assert t.astype(bool).dtype == ms.bool_


def test_dtype_conversion_methods():
    t = Tensor([1.5, 0.0])
    assert t.float().dtype == ms.float32
    assert t.half().dtype == ms.float16
    assert t.double().dtype == ms.float64
    assert t.int().dtype == ms.int32
    assert t.long().dtype == ms.int64
    assert t.bool().dtype == ms.bool_
    np.testing.assert_array_equal(t.bool().asnumpy(), [True, False])


def test_item_and_python_scalars():
    assert Tensor(2.5).item() == 2.5 and isinstance(Tensor(2.5).item(), float)
    assert Tensor([[7]]).item() == 7 and isinstance(Tensor([[7]]).item(), int)
    assert Tensor(True).item() is True
    assert float(Tensor([3.0])) == 3.0
    assert int(Tensor(4)) == 4
    assert bool(Tensor([1])) is True
    assert [1, 2, 3][Tensor(1)] == 2                  # __index__
    assert Tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]


def test_iteration():
    rows = list(Tensor([[1, 2], [3, 4]]))
    assert len(rows) == 2
    np.testing.assert_array_equal(rows[1].asnumpy(), [3, 4])


def test_repr_mentions_shape_dtype_value():
    r = repr(Tensor([[1.0, 2.0]]))
    assert "shape=[1, 2]" in r and "dtype=Float32" in r and "1." in r and "2." in r
    r0 = repr(Tensor(3))
    assert "shape=[]" in r0 and "dtype=Int64" in r0 and "3" in r0
    assert "BFloat16" in repr(Tensor([1.5], ms.bfloat16))
    assert "Bool" in repr(Tensor([True]))
    assert "1.5" in str(Tensor([1.5]))
    assert f"{Tensor(2.5):.2f}" == "2.50"


def test_copy_deepcopy_pickle():
    t = Tensor([1.0, 2.0])
    c = t.copy()
    d = copy.deepcopy(t)
    p = pickle.loads(pickle.dumps(t))
    t[0] = 10.0
    for other in (c, d, p):
        np.testing.assert_array_equal(other.asnumpy(), [1.0, 2.0])
        assert other.dtype == ms.float32


# ---- 0-d and empty tensors ----------------------------------------------------------------

def test_zero_dim_tensor():
    t = Tensor(2.0)
    assert t.shape == () and t.ndim == 0 and t.size == 1
    np.testing.assert_array_equal((t * 3).asnumpy(), 6.0)
    assert (t * 3).shape == ()
    assert t.sum().shape == () and t.sum().item() == 2.0
    assert t.reshape(1, 1).shape == (1, 1)
    assert t.reshape(()).shape == ()
    assert t[()].item() == 2.0
    assert t[None].shape == (1,)
    assert t.unsqueeze(0).shape == (1,)
    assert (t + Tensor([1.0, 2.0])).shape == (2,)


def test_empty_tensor():
    t = Tensor(np.zeros((0, 3), np.float32))
    assert t.shape == (0, 3) and t.size == 0
    assert (t + 1).shape == (0, 3)
    s = t.sum(0)
    assert s.shape == (3,)
    np.testing.assert_array_equal(s.asnumpy(), np.zeros(3))
    assert t.sum().item() == 0.0
    assert t.reshape(3, 0).shape == (3, 0)
    assert ms.ops.cat([t, Tensor(np.ones((2, 3), np.float32))]).shape == (2, 3)
    assert t[1:].shape == (0, 3)
    assert Tensor([]).shape == (0,)
    assert (t @ Tensor(np.ones((3, 2), np.float32))).shape == (0, 2)


# ---- Parameter ----------------------------------------------------------------------------

def test_parameter_basics():
    p = Parameter(Tensor([1.0, 2.0]), name="w")
    assert isinstance(p, Tensor)
    assert p.name == "w" and p.requires_grad is True
    assert p.dtype == ms.float32 and p.shape == (2,)
    q = Parameter(np.ones((2, 2)), name="q", requires_grad=False)
    assert q.requires_grad is False and q.dtype == ms.float64
    q.requires_grad = True
    assert q.requires_grad
    assert "w" in repr(p)
    np.testing.assert_array_equal((p * 2).asnumpy(), [2.0, 4.0])     # behaves as a Tensor


def test_parameter_set_data_keeps_identity_and_dtype():
    p = Parameter(Tensor([1.0, 2.0]), name="w")
    ident = id(p)
    p.set_data(Tensor([3.0, 4.0], ms.float64))
    assert id(p) == ident and p.dtype == ms.float32
    np.testing.assert_array_equal(p.asnumpy(), [3.0, 4.0])
    p.set_data(Tensor(np.ones((3, 2))))                 # a new shape is allowed
    assert p.shape == (3, 2) and p.dtype == ms.float32


def test_parameter_assign_value_in_place():
    p = Parameter(Tensor([1.0, 2.0]), name="w")
    alias = p
    p.assign_value(Tensor([5.0, 6.0]))
    np.testing.assert_array_equal(alias.asnumpy(), [5.0, 6.0])
    ms.ops.assign(p, Tensor([7, 8]))                     # cast to the parameter's dtype
    assert p.dtype == ms.float32
    np.testing.assert_array_equal(alias.asnumpy(), [7.0, 8.0])
    p += 1.0
    assert p is alias and isinstance(p, Parameter)
    np.testing.assert_array_equal(alias.asnumpy(), [8.0, 9.0])
    p[0] = 0.0
    np.testing.assert_array_equal(alias.asnumpy(), [0.0, 9.0])


def test_parameter_clone_and_deepcopy():
    p = Parameter(Tensor([1.0]), name="w", requires_grad=False)
    c = p.clone()
    d = copy.deepcopy(p)
    p.assign_value(Tensor([2.0]))
    for other in (c, d):
        assert isinstance(other, Parameter) and other.name == "w"
        assert other.requires_grad is False
        np.testing.assert_array_equal(other.asnumpy(), [1.0])
