"""Every registered primitive under ``vmap`` equals stacking its per-example results.

Samples come from the gradient table (tests/core/test_vjp_registry.py): each example of a
batch is the primitive's sample drawn with another seed, and scalar control inputs vary
per example (a ``cond`` predicate alternates, a loop counter starts at 0, 1, 2, so the
examples take different branches and trip counts). Each primitive is checked with every
input batched along its first axis, along its last axis, and with only the first input
batched (the others shared), against a loop over the examples -- the reference here, never
in the implementation. A primitive that takes tensors needs a batching rule or a stated
reason (``no_batch``), and vmap names it when there is none.
"""
import io
import contextlib

import numpy as np
import pytest

import tensorjit as ms
from tensorjit.ops import PRIMITIVES, Primitive
from tensorjit.ops.batching import NoBatchingRule, rule_of

from .test_vjp_registry import SAMPLES, _case_id

B = 3
NO_INPUTS = {"full", "random_uniform", "random_normal", "barrier"}  # nothing to map
EFFECT_ONLY = {"assign", "guard"}                           # exist only inside graphs
CASES = [(name, i, case) for name in sorted(SAMPLES) for i, case in enumerate(SAMPLES[name])
         if name in PRIMITIVES and name not in NO_INPUTS | EFFECT_ONLY]
PATTERNS = ["all_first", "all_last", "first_only"]


def _examples(name, index, case):
    examples = []
    for b in range(B):
        rng = np.random.default_rng(1000 * b + 17 * len(name) + index)
        arrays = [np.asarray(a) for a in case.make(rng)]
        varied = []
        for a in arrays:
            if a.ndim == 0 and a.dtype == np.bool_:
                a = np.asarray(bool(a) != bool(b % 2))
            elif a.ndim == 0 and a.dtype.kind == "i":
                a = np.asarray(a + b, a.dtype)
            varied.append(a)
        examples.append(varied)
    return examples


def _batched(examples, pattern):
    """(batched arrays, in_axes)."""
    columns = list(zip(*examples))
    arrays, axes = [], []
    for i, column in enumerate(columns):
        if pattern == "first_only" and i > 0:
            arrays.append(column[0])
            axes.append(None)
            continue
        axis = -1 if pattern == "all_last" else 0
        arrays.append(np.stack(column, axis=axis))
        axes.append(axis)
    return arrays, tuple(axes)


def _reference(prim, examples, params, pattern):
    outs = []
    for b, arrays in enumerate(examples):
        if pattern == "first_only":
            arrays = [arrays[0]] + list(examples[0][1:])
        out = prim.bind(*[ms.Tensor(a) for a in arrays], **params)
        outs.append([o.asnumpy() for o in (out if prim.multiple_results else (out,))])
    return [np.stack(column) for column in zip(*outs)]


def _check_same(name, actual, expected):
    assert len(actual) == len(expected), f"{name}: {len(actual)} outputs, {len(expected)}"
    for k, (a, e) in enumerate(zip(actual, expected)):
        assert a.shape == e.shape, f"{name} output {k}: shape {a.shape}, stacked {e.shape}"
        assert a.dtype == e.dtype, f"{name} output {k}: dtype {a.dtype}, stacked {e.dtype}"
        if a.dtype.kind == "f":
            np.testing.assert_allclose(a, e, rtol=1e-7, atol=1e-10, err_msg=f"{name} out {k}")
        else:
            np.testing.assert_array_equal(a, e, err_msg=f"{name} output {k}")


def _vmapped(prim, params, in_axes):
    def one_example(*xs):
        return prim.bind(*xs, **params)
    return ms.vmap(one_example, in_axes=in_axes)


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("item", CASES, ids=[_case_id(c) for c in CASES])
def test_vmap_equals_stacked_examples(item, pattern):
    name, index, case = item
    prim = PRIMITIVES[name]
    examples = _examples(name, index, case)
    if pattern != "all_first" and not examples[0]:
        pytest.skip("no inputs")
    params = case.params
    arrays, in_axes = _batched(examples, pattern)
    if prim.no_batch:                                # says why, by name
        with pytest.raises(NoBatchingRule, match=f"'{name}' has no batching rule: "):
            _vmapped(prim, params, in_axes)(*[ms.Tensor(a) for a in arrays])
        return
    if prim.random:
        _check_random(prim, arrays, in_axes, params)
        return
    if name == "print":                              # the whole batch, once
        with contextlib.redirect_stdout(io.StringIO()) as printed:
            _vmapped(prim, params, in_axes)(*[ms.Tensor(a) for a in arrays])
        assert printed.getvalue()
        return
    expected = _reference(prim, examples, params, pattern)
    out = _vmapped(prim, params, in_axes)(*[ms.Tensor(a) for a in arrays])
    outs = out if prim.multiple_results else (out,)
    _check_same(name, [o.asnumpy() for o in outs], expected)


def _check_random(prim, arrays, in_axes, params):
    """dropout: each example draws its own mask (MindSpore's Dropout rule); the kept
    elements are scaled by 1/(1-p), the others are zero. Gamma / Poisson draws: each
    example draws its own numbers, batch axis first after the prefix shape."""
    x = np.abs(arrays[0]) + 1.0
    if prim.name != "dropout":
        out = _vmapped(prim, params, in_axes)(ms.Tensor(x)).asnumpy()
        examples = np.moveaxis(x, in_axes[0], 0)
        assert out.shape == (examples.shape[0],) + tuple(params["shape"]) + examples.shape[1:]
        assert any(not np.array_equal(out[0], o) for o in out[1:])
        return
    y, keep = _vmapped(prim, params, in_axes)(ms.Tensor(x))
    y, keep = y.asnumpy(), keep.asnumpy()
    x = np.moveaxis(x, in_axes[0], 0)                # (the outputs have the batch first)
    np.testing.assert_allclose(y, np.where(keep, x / (1 - params["p"]), 0.0), rtol=1e-12)
    assert any(not np.array_equal(keep[0], m) for m in keep[1:])


def test_every_primitive_with_inputs_has_a_batching_rule_or_a_reason():
    missing = []
    for name, prim in sorted(PRIMITIVES.items()):
        if name in NO_INPUTS:
            continue
        if prim.batch is None and not prim.elementwise and not prim.no_batch:
            missing.append(name)
    assert not missing, (f"declare batch=<rule> (ops/batching.py) or no_batch='why' for "
                         f"{missing}")


def test_a_primitive_without_a_rule_is_named_in_the_error():
    name = "_test_only_unbatched"
    prim = Primitive(name, lambda x: x * 2, lambda x: x, lambda ct, out, x: (ct,))
    try:
        with pytest.raises(NoBatchingRule, match=f"primitive '{name}' has no batching rule"):
            ms.vmap(lambda x: prim.bind(x))(ms.Tensor(np.ones((2, 3))))
        with pytest.raises(NoBatchingRule, match="a parameter has one value"):
            rule_of(PRIMITIVES["assign"])
    finally:
        del PRIMITIVES[name]
