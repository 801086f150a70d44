"""dataset.transforms: Fill, Concatenate, Duplicate, Mask, Slice, PadEnd, Unique give
MindSpore 2.10's outputs and dtypes (the expected values below are MindSpore's, from running
its ops on the same inputs); RandomChoice / RandomApply / RandomOrder draw valid choices."""
import numpy as np
import pytest

import tensorjit as ms
import tensorjit.dataset as ds
from tensorjit.dataset import transforms as t
from tensorjit.dataset.transforms import Relational


def _check(out, values, dtype):
    assert out.tolist() == values and out.dtype == np.dtype(dtype)


def test_data_ops_equal_mindspore():
    a = np.array([1, 2, 3], np.int32)
    _check(t.Fill(7)(a), [7, 7, 7], np.int32)
    _check(t.Fill(2.5)(a), [2, 2, 2], np.int32)
    _check(t.Fill(0)(np.ones((2, 2), np.float32)), [[0.0, 0.0], [0.0, 0.0]], np.float32)
    _check(t.Concatenate(0, np.array([9], np.int32), np.array([8, 7], np.int32))(a),
           [9, 1, 2, 3, 8, 7], np.int32)
    first, second = t.Duplicate()(a)
    _check(first, [1, 2, 3], np.int32)
    assert np.array_equal(second, a) and second is not a
    _check(t.Mask(Relational.GE, 2)(a), [False, True, True], np.bool_)
    _check(t.Mask(Relational.EQ, 2, ms.int32)(a), [0, 1, 0], np.int32)
    _check(t.Mask(Relational.LT, 2.5)(a), [True, True, False], np.bool_)
    _check(t.Slice(slice(0, 2))(a), [1, 2], np.int32)
    _check(t.Slice([0, 2])(a), [1, 3], np.int32)
    _check(t.Slice(1)(a), [2], np.int32)
    _check(t.Slice(Ellipsis)(a), [1, 2, 3], np.int32)
    _check(t.Slice(None)(a), [1, 2, 3], np.int32)
    _check(t.Slice(slice(None), [0, 2])(np.arange(6).reshape(2, 3)), [[0, 2], [3, 5]],
           np.int64)
    _check(t.PadEnd([5], 0)(a), [1, 2, 3, 0, 0], np.int32)
    _check(t.PadEnd([2])(a), [1, 2], np.int32)
    _check(t.PadEnd([3, 3], -1)(np.ones((2, 2), np.int64)),
           [[1, 1, -1], [1, 1, -1], [-1, -1, -1]], np.int64)
    _check(t.PadEnd([4])(np.array([1.5], np.float32)), [1.5, 0.0, 0.0, 0.0], np.float32)
    _check(t.PadEnd([3])(np.array(["a"])), ["a", "", ""], np.array(["a"]).dtype)
    values, index, counts = t.Unique()(np.array([[5, 3], [5, 1]], np.int32))
    _check(values, [5, 3, 1], np.int32)
    _check(index, [0, 1, 0, 2], np.int32)
    _check(counts, [2, 1, 1], np.int32)


def test_data_op_errors():
    a = np.array([1, 2, 3], np.int32)
    for make, error in [(lambda: t.PadEnd(3), TypeError), (lambda: t.Concatenate(2), ValueError),
                        (lambda: t.Mask("x", 1), TypeError), (lambda: t.Fill([1]), TypeError),
                        (lambda: t.Slice(1.5), TypeError)]:
        with pytest.raises(error):
            make()
    for call in [lambda: t.Fill("x")(a), lambda: t.Concatenate(0, np.array([9.5]))(a),
                 lambda: t.Concatenate()(np.ones((2, 2))), lambda: t.Slice([5])(a),
                 lambda: t.PadEnd([2, 2])(a)]:
        with pytest.raises(RuntimeError):
            call()


def test_random_compositions():
    ds.config.set_seed(9)
    a = np.array([1, 2, 3], np.int32)
    for make in [lambda: t.RandomChoice([]), lambda: t.RandomOrder("x"),
                 lambda: t.RandomApply([t.Duplicate()], 2)]:
        with pytest.raises((TypeError, ValueError)):
            make()
    choice = t.RandomChoice([t.Fill(1), t.Fill(2), t.Fill(3)])
    assert {choice(a)[0] for _ in range(40)} == {1, 2, 3}
    apply = t.RandomApply([t.Fill(5), t.TypeCast(ms.float32)], 0.5)
    outs = [apply(a) for _ in range(40)]
    assert {o.dtype for o in outs} == {np.dtype(np.int32), np.dtype(np.float32)}
    assert all(o.tolist() == [5.0] * 3 for o in outs if o.dtype == np.float32)
    assert t.RandomApply([t.Fill(5)], 1.0)(a).tolist() == [5, 5, 5]
    order = t.RandomOrder([t.Fill(4), t.Concatenate(0, np.array([0], np.int32))])
    assert {tuple(order(a)) for _ in range(40)} == {(4, 4, 4, 4), (0, 4, 4, 4)}
    pipeline = ds.NumpySlicesDataset({"x": np.tile(a, (6, 1))}, shuffle=False).map(
        [t.Duplicate()], input_columns=["x"], output_columns=["x", "y"])
    rows = list(pipeline.create_dict_iterator(output_numpy=True))
    assert len(rows) == 6 and all((r["x"] == r["y"]).all() for r in rows)
    ds.config.set_seed(5489)
