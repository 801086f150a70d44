"""The table covers every primitive of the registry and every public op, each with the
dtypes it declares exercised, and its declarations are true: the primitives an entry names
are the ones running it binds, aliases are the same function, Tensor methods give the
function's result. A primitive or op added later without an entry fails here."""
import numpy as np
import pytest

import tensorjit as tj
from tensorjit.ops import PRIMITIVES, Primitive

from .coverage import (public_ops, covered_ops, covered_primitives, bound_primitives,
                       HOW_TO_ADD)
from .run import call
from .table import TABLE


def test_every_primitive_has_an_entry():
    missing = sorted(set(PRIMITIVES) - covered_primitives(TABLE))
    assert not missing, f"primitives no entry names in prims=(...): {missing}; {HOW_TO_ADD}"


def test_every_public_op_has_an_entry():
    missing = sorted(set(public_ops()) - covered_ops(TABLE))
    assert not missing, f"public ops without a table entry: {missing}; {HOW_TO_ADD}"


def test_a_new_primitive_or_op_without_an_entry_is_reported():
    name = "_test_only_unlisted_primitive"
    Primitive(name, lambda x: x, lambda x: x, lambda ct, out, x: (ct,))
    try:
        assert name not in covered_primitives(TABLE)
    finally:
        del PRIMITIVES[name]
    tj.ops._test_only_op = lambda x: x
    try:
        assert "_test_only_op" not in public_ops() and "_test_only_op" not in covered_ops(TABLE)
        tj.ops.test_only_op = tj.ops._test_only_op
        assert "test_only_op" in set(public_ops()) - covered_ops(TABLE)
    finally:
        del tj.ops._test_only_op, tj.ops.test_only_op


def test_entries_name_ops_that_exist():
    stray = sorted(n for e in TABLE.values() for n in (e.name,) + e.aliases
                   if not e.name.startswith("prim:") and not hasattr(tj.ops, n))
    assert not stray, f"entries for names tensorjit.ops does not have: {stray}"
    unknown = sorted(p for e in TABLE.values() for p in e.prims if p not in PRIMITIVES)
    assert not unknown, f"entries naming unregistered primitives: {unknown}"


@pytest.mark.parametrize("entry", list(TABLE.values()), ids=str)
def test_declarations_are_true(entry):
    # every declared dtype is exercised by at least one sample of that dtype
    for dtype in entry.dtypes:
        samples = entry.samples_for(dtype)
        assert samples, f"{entry.name}: declared dtype {dtype} has no sample"
        assert any(a.dtype == dtype for s in samples for a in s.arrays()) or not any(
            s.arrays() for s in samples), f"{entry.name}: no {dtype} input among the samples"
    # the primitives it names are bound when it runs (forward or gradient)
    samples = [s for d in entry.dtypes for s in entry.samples_for(d)[:2]]
    samples += entry.gradient_samples()
    bound = bound_primitives(entry, samples)
    unbound = sorted(set(entry.prims) - bound)
    assert not unbound, f"{entry.name} names primitives it never binds: {unbound}"
    # aliases are the very same function
    for alias in entry.aliases:
        assert getattr(tj.ops, alias) is entry.op, f"ops.{alias} is not ops.{entry.name}"


METHOD_CASES = [e for e in TABLE.values() if e.method]


@pytest.mark.parametrize("entry", METHOD_CASES, ids=str)
def test_tensor_methods_give_the_functions_result(entry):
    dtype = np.dtype(np.float32) if np.dtype(np.float32) in entry.dtypes else entry.dtypes[0]
    sample = entry.samples_for(dtype)[0]
    tensors = sample.tensors()
    if callable(entry.method):         # a method whose signature is not the function's
        got = entry.method(*tensors, **sample.kwargs)
    else:
        got = getattr(tensors[0], entry.method)(*tensors[1:], **sample.kwargs)
    want = call(entry, sample)
    got = got if isinstance(got, (tuple, list)) else (got,)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.asnumpy(), w)
