"""MindSpore's ops helpers on Python values (ops.scalar_add, ops.tuple_len, ops.constexpr,
ops.dtype, ...): each is the Python operation it stands for, with MindSpore 2.10's results
and errors (checked with MindSpore 2.10 in PyNative mode, or, where it has no PyNative
kernel, by its graph-mode meaning), eagerly and inside jitted functions."""
import math

import numpy as np
import pytest

import tensorjit as tj
from tensorjit import ops, Tensor
from tensorjit import dtype as dt

X = Tensor(np.array([1.0, 2.0, 3.0], np.float32))

# (call, expected): MindSpore 2.10's answers
CASES = [
    (lambda: ops.is_(None, None), True), (lambda: ops.is_not(1, None), True),
    (lambda: ops.in_dict("a", {"a": 1}), True), (lambda: ops.not_in_dict("a", {"a": 1}), False),
    (lambda: ops.make_tuple(1, 2), (1, 2)), (lambda: ops.make_list(1, 2), [1, 2]),
    (lambda: ops.make_dict(("a", "b"), (1, 2)), {"a": 1, "b": 2}),
    (lambda: ops.make_range(3), (0, 1, 2)), (lambda: ops.make_range(1, 7, 2), (1, 3, 5)),
    (lambda: ops.make_slice(1, 5, 2), slice(1, 5, 2)),
    (lambda: ops.list_getitem([1, 2, 3], 1), 2), (lambda: ops.list_setitem([1, 2, 3], 1, 9), [1, 9, 3]),
    (lambda: ops.list_len([1, 2, 3]), 3), (lambda: ops.list_equal([1, 2], [1, 2]), True),
    (lambda: ops.tuple_getitem((1, 2, 3), -1), 3), (lambda: ops.tuple_setitem((1, 2, 3), 1, 9), (1, 9, 3)),
    (lambda: ops.tuple_len((1, 2, 3)), 3), (lambda: ops.tuple_equal((1, 2), (1, 2)), True),
    (lambda: ops.tuple_reversed((1, 2, 3)), (3, 2, 1)), (lambda: ops.tuple_div((4, 6), (2, 3)), (2, 2)),
    (lambda: ops.dict_getitem({"a": 1}, "a"), 1), (lambda: ops.dict_setitem({"a": 1}, "b", 2), {"a": 1, "b": 2}),
    (lambda: ops.scalar_add(7, 2), 9), (lambda: ops.scalar_sub(7.5, 2), 5.5),
    (lambda: ops.scalar_mul(-7, 2), -14), (lambda: ops.scalar_div(7, 2), 3.5),
    (lambda: ops.scalar_floordiv(-7, 2), -4), (lambda: ops.scalar_floordiv(7.5, 2), 3.0),
    (lambda: ops.scalar_mod(-7, 2), 1), (lambda: ops.scalar_mod(7.5, 2), 1.5),
    (lambda: ops.scalar_pow(-7, 2), 49), (lambda: ops.scalar_eq(7, 2), False),
    (lambda: ops.scalar_ne(7, 2), True), (lambda: ops.scalar_lt(-7, 2), True),
    (lambda: ops.scalar_le(7.5, 2), False), (lambda: ops.scalar_gt(7, 2), True),
    (lambda: ops.scalar_ge(-7, 2), False), (lambda: ops.scalar_max(7.5, 2), 7.5),
    (lambda: ops.scalar_min(7.5, 2), 2), (lambda: ops.scalar_log(8), math.log(8)),
    (lambda: ops.scalar_uadd(3), 3), (lambda: ops.scalar_usub(3.5), -3.5),
    (lambda: ops.scalar_add(True, 2), 3),
    (lambda: ops.scalar_cast(3, tj.bool_), True), (lambda: ops.scalar_cast(3.7, tj.int64), 3),
    (lambda: ops.ScalarCast()(3.7, tj.int64), 3),
    (lambda: ops.bool_and(True, False), False), (lambda: ops.bool_or(True, False), True),
    (lambda: ops.bool_not(True), False), (lambda: ops.bool_eq(True, True), True),
    (lambda: ops.augassign_add(7, 2), 9), (lambda: ops.augassign_add((1, 2), (3,)), (1, 2, 3)),
    (lambda: ops.augassign_sub(7, 2), 5), (lambda: ops.augassign_mul(7, 2), 14),
    (lambda: ops.augassign_div(7, 2), 3.5), (lambda: ops.augassign_floordiv(7, 2), 3),
    (lambda: ops.augassign_mod(7, 2), 1), (lambda: ops.shape_mul((2, 3, 4)), 24),
    (lambda: ops.shape_mul(()), 1), (lambda: ops.zip_operation((1, 2), (3, 4)), ((1, 3), (2, 4))),
    (lambda: ops.dtype(X), tj.float32), (lambda: ops.DType()(X), tj.float32),
    (lambda: str(ops.typeof(1)), "Int64"), (lambda: ops.typeof(1) == tj.int64, True),
    (lambda: str(ops.typeof(X)), "Tensor[Float32]"), (lambda: str(ops.typeof((1, 2))), "Tuple[Int64*2]"),
    (lambda: str(ops.typeof([1.0, X])), "List[Float32,Tensor[Float32]]"), (lambda: ops.hastype(1, tj.int64), True),
    (lambda: ops.hastype(1.0, tj.float32), True), (lambda: ops.hastype(X, tj.float32), True),
    (lambda: ops.hastype(X, tj.float64), False), (lambda: ops.hastype((1, 2), tuple), True),
    (lambda: ops.isconstant(1), True), (lambda: ops.isconstant(X), True),
    (lambda: ops.array_to_scalar(Tensor(3.5)), 3.5),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_results_are_mindsporess(case):
    fn, expected = CASES[case]
    got = fn()
    assert got == expected and type(got) is type(expected), (got, expected)


ERRORS = [
    (lambda: ops.scalar_div(1, 0), ValueError), (lambda: ops.scalar_floordiv(1, 0), ValueError),
    (lambda: ops.scalar_mod(1, 0), ValueError), (lambda: ops.scalar_log(0), ValueError),
    (lambda: ops.scalar_cast(3, tj.int32), ValueError),
    (lambda: ops.scalar_cast(3, tj.float32), ValueError),
    (lambda: ops.tuple_div((5, 6), (2, 3)), RuntimeError),
    (lambda: ops.tuple_getitem(X, 1), TypeError), (lambda: ops.tuple_len(X), TypeError),
    (lambda: ops.dtype(1), TypeError), (lambda: ops.augassign_sub((1, 2), (3,)), TypeError),
    (lambda: ops.tuple_to_array([1, 2]), TypeError),
]


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_are_mindspores(case):
    fn, exc = ERRORS[case]
    with pytest.raises(exc):
        fn()


def test_tensor_conversions():
    a = ops.tuple_to_array((1, 2, 3))
    assert a.dtype == tj.int32 and a.asnumpy().tolist() == [1, 2, 3]
    b = ops.TupleToArray()((1.0, 2.0))
    assert b.dtype == tj.float32 and b.asnumpy().tolist() == [1.0, 2.0]
    c = ops.tuple_to_array((1, 2.5))         # the first element's kind, as MindSpore
    assert c.dtype == tj.int32 and c.asnumpy().tolist() == [1, 2]
    for value, dtype in ((1, tj.int64), (1.5, tj.float32), (True, tj.bool_)):
        t = ops.scalar_to_array(value)
        assert t.dtype == dtype and t.shape == () and t.item() == value
    assert ops.ScalarToArray()(2).item() == 2
    e = ops.Eps()(Tensor(np.ones(2, np.float16)))
    assert e.dtype == tj.float16 and (e.asnumpy() == np.finfo(np.float16).eps).all()


def test_augmented_assignment_on_tensors_is_the_tensor_operator():
    np.testing.assert_array_equal(ops.augassign_add(X, 2).asnumpy(), [3, 4, 5])
    np.testing.assert_array_equal(ops.scalar_add(X, 2).asnumpy(), [3, 4, 5])
    np.testing.assert_array_equal(ops.augassign_floordiv(X, 2.0).asnumpy(), [0, 1, 1])


def test_constexpr_runs_on_python_values_eagerly_and_at_compile_time():
    @ops.constexpr
    def add(a, b):
        return a + b

    @ops.constexpr(reuse_result=False)
    def twice(a):
        return (a, a)

    assert add(1, 2) == 3 and twice(3) == (3, 3)
    cls = ops.constexpr(get_instance=False)(lambda n: n * 2)
    assert cls()(4) == 8

    def f(x):
        return x * add(x.shape[0], 1)

    for mode in ("trace", "ast", "bytecode"):
        np.testing.assert_array_equal(tj.jit(f, capture_mode=mode)(X).asnumpy(), [4, 8, 12])


def test_helpers_inside_jitted_functions():
    def f(x):
        n = ops.shape_mul(ops.tuple_reversed(x.shape))
        k = ops.scalar_floordiv(n, 2)
        return x * ops.scalar_cast(k, tj.float64) + ops.tuple_getitem((1.0, 2.0), 1)

    want = X.asnumpy() * 1.0 + 2.0
    for mode in ("trace", "ast", "bytecode"):
        np.testing.assert_allclose(tj.jit(f, capture_mode=mode)(X).asnumpy(), want)
