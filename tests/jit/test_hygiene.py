"""Names the compiler generates never meet the user's names.

ast capture's rewrite names everything it introduces with a "$" (``tj$ret``, ``tj$if_true_1``,
the runtime module ``tj$``), which no Python source can spell; the dispatcher falls back to
a generic signature when a parameter starts with its prefix; generated graph code renames
its inputs when one would hide a kernel it calls. Here user globals, locals and parameters
carry every name those generators used to use or still use, in every capture mode x level,
and the results equal eager mode's."""
import numpy as np
import pytest

import tensorjit as ms
import tensorjit as _tj          # the example: a module imported as ``_tj``
from tensorjit import Tensor, ops

MODES = [(m, lv) for m in ("ast", "bytecode", "trace") for lv in ("O0", "O1")]

# globals named like every prefix the generators use or used
_tj_ret = 100.0
_tj_do_ret = False
_tj_break_1 = 7.0
_tj_continue_1 = 8.0
_tj_if_true_1 = 2.0
_tj_if_false_1 = 3.0
_tj_while_body_1 = 4.0
_tj_for_body_1 = 5.0
_tj_item_1 = 6.0
_tj_def_f = 9.0
_tj_factory = 10.0
_tj_lambda = 11.0
_tj_stmt_0 = 12.0
_tj_args = 13.0
_tj_kwargs = 14.0
_tj_range_index = 15.0
tj = 16.0
lit_float32 = 17.0
const = 18.0


def uses_module_named_tj(x):
    g = _tj.grad(lambda v: (v * v).sum())(x)
    if x.sum() > 0:
        y = g * 2
    else:
        y = g * 3
    return y


def uses_generator_names(x):
    total = x * _tj_ret + _tj_break_1 + _tj_continue_1
    if _tj_do_ret:
        total = total * 0
    for i in range(3):
        if i == 1:
            continue
        total = total + _tj_if_true_1 * _tj_item_1
        if total.sum() > 1000:
            break
    if x.sum() > 0:
        total = total + _tj_if_false_1 + _tj_def_f
    else:
        total = total - _tj_factory
    while ops.abs(total).sum() < 5000:
        total = total * 2 + _tj_while_body_1
    return total + _tj_for_body_1 + _tj_lambda + _tj_stmt_0 + _tj_args + _tj_kwargs + \
        _tj_range_index + tj + lit_float32 + const


def locals_named_like_generated(x):
    _tj_ret = x * 2
    _tj_do_ret = True
    _tj_break_3 = 0
    for _tj_item_0 in range(2):
        _tj_break_3 += 1
    if x.sum() > 0:
        _tj_if_true_1 = _tj_ret + _tj_break_3
    else:
        _tj_if_true_1 = _tj_ret - _tj_break_3
    tj = _tj_if_true_1 if _tj_do_ret else x
    return tj


def params_named_like_kernels(exp, where, const, ref0, fused, lit, np, v0, in0, _tj_slow):
    return ops.exp(exp) + const * ref0 + ops.where(where > 0, fused, lit) + np * v0 * in0 \
        + _tj_slow


CASES = [
    (uses_module_named_tj, lambda: (Tensor(np.array([1.0, 2.0], np.float32)),)),
    (uses_module_named_tj, lambda: (Tensor(np.array([-1.0, -2.0], np.float32)),)),
    (uses_generator_names, lambda: (Tensor(np.array([1.0, 2.0], np.float32)),)),
    (uses_generator_names, lambda: (Tensor(np.array([-3.0, -2.0], np.float32)),)),
    (locals_named_like_generated, lambda: (Tensor(np.array([1.0, 2.0], np.float32)),)),
    (locals_named_like_generated, lambda: (Tensor(np.array([-1.0, -2.0], np.float32)),)),
    (params_named_like_kernels,
     lambda: tuple(Tensor(np.array([0.5 * i, -1.0 + i], np.float32)) for i in range(10))),
]


@pytest.mark.parametrize("mode,level", MODES)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_user_names_like_generated_ones_in_every_mode(case, mode, level):
    fn, make_args = CASES[case]
    expected = fn(*make_args())
    jitted = ms.jit(fn, capture_mode=mode, jit_level=level)
    for _ in range(3):                      # the slow path, then the generated fast path
        got = jitted(*make_args())
    np.testing.assert_allclose(got.asnumpy(), expected.asnumpy(), rtol=1e-6)
    assert got.dtype == expected.dtype


def test_generated_names_cannot_be_spelled_in_source():
    from tensorjit.capture.ast import syntax
    for name in (syntax.HELPER, syntax.RET, syntax.DO_RET, *syntax.GENERATED_DEF_PREFIXES,
                 syntax.THUNK_ARG):
        assert not name.isidentifier(), name
