"""Operator classes of the scatter / gather family that ``op_class_cases.py`` cannot
record: those writing into a Parameter (ScatterAdd, ScatterNdUpdate, IndexAdd, ...: a
recorded case would run them twice), checked eagerly and compiled against NumPy; and
those MindSpore 2.10 has no CPU kernel for (GatherV2, SplitV, Quantile, ...), checked
against NumPy."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import ops, Tensor, Parameter

IN_PLACE = {"ScatterAdd", "ScatterDiv", "ScatterMax", "ScatterMin", "ScatterMul", "ScatterSub",
            "ScatterUpdate", "ScatterNdAdd", "ScatterNdDiv", "ScatterNdMax", "ScatterNdMin",
            "ScatterNdMul", "ScatterNdSub", "ScatterNdUpdate", "ScatterNonAliasingAdd",
            "IndexAdd", "InplaceIndexAdd"}
NO_MINDSPORE_CPU_KERNEL = {"GatherV2", "SparseGatherV2", "BatchToSpace", "SpaceToBatch",
                           "BatchToSpaceNDV2", "SplitV", "Quantile", "CountNonZero",
                           "UniqueConsecutive", "Roll"}
CHECKED_WITHOUT_MINDSPORE = IN_PLACE | NO_MINDSPORE_CPU_KERNEL

_COMBINE = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide,
            "Max": np.maximum, "Min": np.minimum, "Update": lambda old, new: new}
X = np.arange(1, 13, dtype=np.float32).reshape(4, 3)


def _rows_in_order(x, coords, updates, combine):
    out = x.copy()
    for at, value in zip(coords, updates):
        out[tuple(at)] = combine(out[tuple(at)], value)
    return out


def _cases():
    rows = np.array([0, 2, 0], np.int32)
    nd = np.array([[0, 1], [3, 2], [0, 1]], np.int64)
    updates_rows = np.full((3, 3), 2.0, np.float32) + np.arange(3, dtype=np.float32)[:, None]
    updates_nd = np.array([3.0, 4.0, 5.0], np.float32)
    for r, combine in _COMBINE.items():
        yield ("Scatter" + r, {}, (rows, updates_rows),
               _rows_in_order(X, rows[:, None], updates_rows, combine))
        yield ("ScatterNd" + r, {}, (nd, updates_nd), _rows_in_order(X, nd, updates_nd, combine))
    yield ("ScatterNonAliasingAdd", {}, (nd, updates_nd),
           _rows_in_order(X, nd, updates_nd, np.add))
    index_add = X.copy()
    np.add.at(index_add, (slice(None), [0, 2, 0]), np.ones((4, 3), np.float32))
    yield ("IndexAdd", {"axis": 1}, (rows, np.ones((4, 3), np.float32)), index_add)
    yield ("InplaceIndexAdd", {"axis": 1}, (rows, np.ones((4, 3), np.float32)), index_add)


CASES = list(_cases())


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_in_place_classes_write_their_parameter(case):
    name, init, inputs, want = case
    op = getattr(ops, name)(**init)
    param = Parameter(Tensor(X.copy()), name="p")
    assert op(param, *[Tensor(a) for a in inputs]) is param
    np.testing.assert_allclose(param.asnumpy(), want, rtol=1e-6)
    compiled = Parameter(Tensor(X.copy()), name="q")
    step = ms.jit(lambda *args: op(compiled, *args), capture_mode="trace")
    step(*[Tensor(a) for a in inputs])
    np.testing.assert_allclose(compiled.asnumpy(), want, rtol=1e-6)


def test_classes_without_a_mindspore_cpu_kernel():
    x = Tensor(X)
    index = Tensor(np.array([2, 0], np.int32))
    for name in ("GatherV2", "SparseGatherV2"):
        np.testing.assert_array_equal(getattr(ops, name)()(x, index, 1).asnumpy(), X[:, [2, 0]])
    pieces = ops.SplitV((1, -1), 1, 2)(x)
    assert [p.shape for p in pieces] == [(4, 1), (4, 2)]
    np.testing.assert_array_equal(pieces[1].asnumpy(), X[:, 1:])
    np.testing.assert_allclose(ops.Quantile(dim=1)(x, Tensor(np.array([0.25], np.float32)))
                               .asnumpy(), np.quantile(X, [0.25], axis=1), rtol=1e-6)
    counts = ops.CountNonZero(dims=[0])(Tensor(np.array([[0, 1], [2, 0], [3, 4]], np.int32)))
    assert counts.dtype == ms.int64 and counts.asnumpy().tolist() == [2, 2]
    values, inverse, runs = ops.UniqueConsecutive(True, True)(
        Tensor(np.array([1, 1, 2, 2, 1], np.int32)))
    assert values.asnumpy().tolist() == [1, 2, 1] and runs.asnumpy().tolist() == [2, 2, 1]
    assert inverse.asnumpy().tolist() == [0, 0, 1, 1, 2]
    np.testing.assert_array_equal(ops.Roll(shifts=1, dims=0)(x).asnumpy(), np.roll(X, 1, 0))
    image = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
    batch = ops.SpaceToBatch(2, [[0, 0], [0, 0]])(Tensor(image))
    np.testing.assert_array_equal(batch.asnumpy()[:, 0], np.stack(
        [image[0, 0, i::2, j::2] for i in range(2) for j in range(2)]))
    for back in (ops.BatchToSpace(2, [[0, 0], [0, 0]])(batch),
                 ops.BatchToSpaceNDV2()(batch, Tensor(np.array([2, 2], np.int32)),
                                        Tensor(np.zeros((2, 2), np.int32)))):
        np.testing.assert_array_equal(back.asnumpy(), image)
