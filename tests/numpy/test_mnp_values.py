"""Every public name of tensorjit.numpy against NumPy on the same inputs (cases.py)."""
import math  # noqa: F401  (used by the case expressions)

import numpy as np
import pytest

import tensorjit as ms
import tensorjit.numpy as mnp
from mnp_cases import A, CASES, DTYPE_NAMES, I, J, NAN, NAN2, P, RANDOM, U, V  # noqa
from mnp_compare import assert_matches

NAMES = dict(A=A, V=V, P=P, U=U, I=I, J=J, NAN=NAN, NAN2=NAN2, np=np, math=math)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_against_numpy(case):
    mine = eval(case.expr, dict(NAMES, m=mnp))  # noqa: S307 (the table's own expressions)
    with np.errstate(all="ignore"):
        reference = eval(case.reference or case.expr, dict(NAMES, m=np))  # noqa: S307
    assert_matches(mine, reference, case.dtype, case.tol, case.expr)


def test_every_public_name_is_exercised():
    import json
    import os
    here = os.path.dirname(__file__)
    covered = {c.name for c in CASES} | set(DTYPE_NAMES) | set(RANDOM)
    public = set(mnp.__all__)
    assert public - covered == set(), f"names without a case: {sorted(public - covered)}"
    api = os.path.join(here, "mindspore_numpy_names.json")
    with open(api) as f:
        names = json.load(f)
    missing = sorted(n for n in names if not hasattr(mnp, n))
    assert not missing, f"mindspore.numpy names missing here: {missing}"


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_dtype_objects(name):
    expected = {"int_": np.int32, "float_": np.float32, "bool_": np.bool_}.get(name,
                                                                             getattr(np, name, None))
    assert getattr(mnp, name) == np.dtype(expected)
    assert mnp.zeros(2, getattr(mnp, name)).dtype == np.dtype(expected)


def test_random_functions():
    ms.set_seed(5)
    u = mnp.rand(2000)
    assert u.dtype == np.float32 and u.shape == (2000,)
    values = u.asnumpy()
    assert values.min() >= 0 and values.max() < 1 and abs(values.mean() - 0.5) < 0.05
    assert mnp.rand((2, 3)).shape == (2, 3) and mnp.rand(2, 3, dtype=mnp.float64).dtype == np.float64
    n = mnp.randn(3000).asnumpy()
    assert n.dtype == np.float32 and abs(n.mean()) < 0.1 and abs(n.std() - 1) < 0.1
    r = mnp.randint(2, 5, (1000,))
    assert r.dtype == np.int32 and set(np.unique(r.asnumpy())) == {2, 3, 4}
    assert mnp.randint(3).shape == () and mnp.randint(3, shape=2).shape == (2,)


def test_python_data_defaults():
    assert mnp.array([1]).dtype == np.int32 and mnp.array([1.0]).dtype == np.float32
    assert mnp.array(np.float64(1.5)).dtype == np.float32
    assert mnp.arange(3).dtype == np.int32 and mnp.arange(3.0).dtype == np.float32
    assert mnp.array([mnp.array([1, 2]), mnp.array([3, 4])]).shape == (2, 2)
    assert ms.numpy.zeros(2).dtype == np.float32      # import tensorjit as ms; ms.numpy


ERRORS = [
    ("m.zeros(-1)", ValueError, "no less than 0"),
    ("m.reshape(m.ones(4), (3,))", ValueError, "cannot reshape"),
    ("m.amax(m.array([1, 2]), axis=3)", ValueError, "range"),
    ("m.concatenate((m.ones(2), m.ones((2, 2))))", ValueError, "rank"),
    ("m.add(m.ones(2), m.ones(3))", ValueError, "broadcast"),
    ("m.split(m.arange(3), 2)", ValueError, "equal division"),
    ("m.take(m.array([1, 2]), 5)", TypeError, "indices"),
    ("m.stack([m.ones(2), m.ones(3)])", ValueError, "same shape"),
    ("m.swapaxes(m.ones((2, 3)), 0, 2)", ValueError, "range"),
    ("m.transpose(m.ones((2, 3)), (0, 0))", ValueError, "permutation"),
    ("m.broadcast_to(m.ones(3), (2, 2))", ValueError, "broadcast"),
    ("m.matmul(m.ones((2, 3)), m.ones((2, 3)))", ValueError, "shape1"),
    ("m.diff(m.ones(3), n=-1)", ValueError, "non-negative"),
    ("m.histogram(m.array([1.0, 2.0]), bins=-1)", ValueError, "positive"),
    ("m.norm(m.ones((2, 2)), 'nuc')", NotImplementedError, "singular"),
    ("m.array('abc')", TypeError, "expected a Tensor"),
    ("m.array([[1, 2], [3]])", ValueError, "cannot make"),
    ("m.gcd(m.array([1.5]), m.array([2.0]))", TypeError, "integer"),
    ("m.invert(m.array([1.5]))", TypeError, "integer"),
    ("m.pad(m.ones(2), 1, mode='bogus')", ValueError, "mode"),
    ("m.clip(m.ones(2), None, None)", ValueError, "both"),
    ("m.take(m.array([1, 2]), m.array([3]), mode='raise')", IndexError, "out of range"),
    ("m.unique(m.array([True, False]))", TypeError, "bool"),
    ("m.squeeze(m.ones((1, 2)), 1)", ValueError, "size not equal to one"),
    ("m.vsplit(m.ones(4), 2)", ValueError, "2 or more"),
    ("m.linspace(0, 1, -1)", ValueError, "num"),
    ("m.randint(5, 2)", ValueError, "greater"),
    ("m.where(m.array([True]), 1)", ValueError, "both or neither"),
    ("m.searchsorted(m.array([1, 2]), 1, side='middle')", ValueError, "side"),
    ("m.convolve(m.array([]), m.array([1.0]))", ValueError, "empty"),
]


@pytest.mark.parametrize("expr,error,words", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_name_the_problem(expr, error, words):
    with pytest.raises(error, match=words):
        eval(expr, dict(NAMES, m=mnp))  # noqa: S307
