"""One small test per bug the differential fuzzer (tensorjit/tools/fuzz.py) or the other
reliability tests found, named after the bug, each checked against eager in the
configurations where it showed (usually all: trace / ast / bytecode x O0 / O1 x ms_backend /
GE)."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit.jit.function import STATS
from tensorjit.tools.fuzz import CONFIGS, config_label, compare, compare_arrays

CONFIG_IDS = [config_label(c) for c in CONFIGS]
MODES = ["trace", "ast", "bytecode"]


def check(fn, *arg_sets, configs=CONFIGS, calls=None):
    """Call a fresh jit of ``fn`` per config on ``arg_sets`` (numpy arrays) in turn, a few
    rounds (first compiles, cache hits, guard failures, fast path), comparing each result
    and each argument after the call with eager."""
    order = calls or [0, 1, 0, 1, 0, 1] if len(arg_sets) > 1 else [0, 0, 0, 0]
    with np.errstate(all="ignore"):
        expected = []
        for arrays in arg_sets:
            tensors = [Tensor(a) for a in arrays]
            expected.append((fn(*tensors), [t.asnumpy() for t in tensors]))
        for config in configs:
            jitted = ms.jit(fn, **config)
            for i in order:
                tensors = [Tensor(a) for a in arg_sets[i]]
                out = jitted(*tensors)
                problems = compare(out, expected[i][0])
                problems += [p for t, e in zip(tensors, expected[i][1])
                             for p in [compare_arrays(t.asnumpy(), e)] if p]
                assert not problems, (config_label(config), i, problems)


def f32(*values):
    return np.array(values, np.float32)


# ---- backends and code generation ---------------------------------------------------------

def constant_results_guarded(x):
    if x.sum() > 0:
        return ops.zeros_like(x) + 1.0
    return ops.zeros_like(x) - 1.0


def test_ge_keeps_the_guards_of_a_graph_whose_results_are_constants():
    """GE dropped a graph_sink without outputs, and with it the trace guards: the second
    path returned the first path's constants."""
    check(constant_results_guarded, [f32(1.0, 2.0)], [f32(-1.0, -2.0)])


def pow_and_div_with_a_literal_first(x):
    return 2 ** x, 1.0 / x, 3.0 - x


def test_literal_first_operand_of_a_dtype_keeping_kernel():
    """Codegen passed a plain Python number to kernels reading ``x.dtype`` of their first
    operand (pow, div): AttributeError: 'float' object has no attribute 'dtype'."""
    check(pow_and_div_with_a_literal_first, [np.float32(1.5)], [f32(1.0, -2.0)])


def zero_d_counter_loop(x):
    i = (x.sum() > 0).astype(ms.int32)
    while i < 3:
        x = x * 2.0
        i = i + 1
    return x, i


def test_ge_in_place_ufunc_on_a_zero_d_result():
    """GE wrote ``np.add(v, 1, out=v)`` into a 0-d result, which kernels return as a NumPy
    scalar: TypeError: return arrays must be of ArrayType."""
    check(zero_d_counter_loop, [f32(1.0, 2.0)], [f32(-1.0, -2.0)])


def bf16_arithmetic(x, y):
    return x + 4.0, x * 0.5 - 1.0, x @ y.mT, (x @ y.mT).sum()


def test_bfloat16_literals_and_matmul_keep_bfloat16():
    """Generated code turned bfloat16 into float32: bfloat16 + a Python float and NumPy's
    ``@`` on bfloat16 are float32 in NumPy (the kernels cast back, the templates did not)."""
    bf = np.dtype(ms.bfloat16)
    x = np.arange(6).reshape(2, 3).astype(bf)
    check(bf16_arithmetic, [x, x], [np.zeros((0, 3), bf), np.zeros((1, 3), bf)])


def bool_add_in_a_fused_kernel(a, b):
    c = a + b
    return 1.0 / c.astype(ms.float32) + 1.0


def test_fused_kernel_bool_add_is_logical_or():
    """Numba computed ``True + True`` as 2 (NumPy: True), so 1 / 2 + 1 became 1.5."""
    check(bool_add_in_a_fused_kernel, [np.array([[True], [False]]), np.array([[True], [False]])])


def reduction_over_a_unit_axis(x, y):
    return ops.broadcast_to((x / y).max(1, True), (2, 2, 1, 3)), (x * y).sum(1, keepdims=True)


def test_fused_reduction_over_an_axis_of_size_one():
    """KernelPlan took every value as per-row when the reduced axis has size 1, then failed:
    AssertionError: row value indexed by an inner axis."""
    check(reduction_over_a_unit_axis, [np.ones((2, 1, 3), np.float32), f32(1.0, 2.0, 4.0)])


def max_of_signed_zeros(x):
    y = ops.maximum(x.reshape(-1), 0.0)
    return 2.0 / y > 0.5, 2.0 / ops.minimum(x * 2.0, 0.0), 1.0 / ops.relu(x * -1.0)


def test_fused_maximum_and_minimum_of_signed_zeros_follow_numpy():
    """Fused kernels used Python's max/min, which keep the first of two equal values;
    np.maximum(-0.0, 0.0) is 0.0 (so 2 / relu(-0.0) was -inf instead of inf)."""
    check(max_of_signed_zeros, [f32(-0.0, 0.0, 1.0, -1.0)])


def signed_zero(x):
    return 1.0 / (x + 0.0), 1.0 / (0.0 + x), 1.0 / (x - 0.0)


def test_o1_keeps_x_plus_zero_for_signed_zeros():
    """O1 simplified ``x + 0.0`` to ``x``, but ``-0.0 + 0.0`` is ``+0.0``: 1 / (x + 0.0) was
    -inf instead of +inf."""
    check(signed_zero, [f32(-0.0, 0.0, 1.0)])


def copy_then_compare_sums(x):
    y = x.copy()
    z = y
    if y.sum() > x.sum():                 # equal sums: eager takes the else path
        z = y - y.mean(1, True)
    return z


def test_o1_copy_reduces_like_the_original():
    """``identity`` (Tensor.copy) blocked CSE, so one of two equal sums was a fused kernel
    summing in another order: 1 ulp apart, and the branch flipped."""
    x = np.array([[-0.66923875, 1.2494684], [-0.10524529, -0.7939511],
                  [-0.48900178, 0.14655143]], np.float32)
    check(copy_then_compare_sums, [x])


# ---- primitives: kernels and shape rules agree --------------------------------------------

def argmax_everywhere(x):
    return x.argmax(), x.argmin(0), ops.argmax(x, 1), x.argmax(1, True)


def test_argmax_and_argmin_inside_graphs():
    """The argmax/argmin shape rule called the module's own ``max`` (the reduction) instead of
    the builtin: every argmax under a capture raised IndexError."""
    check(argmax_everywhere, [np.arange(6, dtype=np.float32).reshape(2, 3)])


def argmax_keepdims_of_zero_d(x):
    return x.argmax(0, True) + 1


def test_argmax_keepdims_of_a_zero_d_tensor():
    """The kernel returned shape (1,) where the rule says (): internal error under trace."""
    check(argmax_keepdims_of_zero_d, [np.float32(3.0)])


def floordiv_mod_of_bools(a, b):
    return a // b, a % b


def test_floordiv_and_mod_of_bools_stay_bool():
    """NumPy gives int8 for bool // bool; the rule says bool: internal error under trace."""
    check(floordiv_mod_of_bools, [np.array([True, False, True]), np.array([True, True, False])])


def abs_of_bool(x):
    return ops.abs(x > 0)


def test_abs_of_bool_is_rejected_eagerly_too():
    """Eager accepted abs(bool) (np.abs does), every graph rejected it."""
    x = Tensor(f32(1.0, -1.0))
    with pytest.raises(TypeError, match="abs: not defined for bool"):
        abs_of_bool(x)
    for mode in MODES:
        with pytest.raises(TypeError, match="abs: not defined for bool"):
            ms.jit(abs_of_bool, capture_mode=mode)(x)


def setitem_with_leading_unit_dims(x, y):
    z = x.copy()
    z[0] = y.reshape(1, 2)           # value (1, 2) into a row of shape (2,): NumPy allows it
    return z


def test_setitem_value_with_extra_leading_unit_dims():
    """Eager (NumPy) accepted it, the graphs' rule rejected it."""
    check(setitem_with_leading_unit_dims, [np.zeros((3, 2), np.float32), f32(1.0, 2.0)])


# ---- graphs reused for other shapes --------------------------------------------------------

def shape_decisions(x):
    return x.squeeze() * 2.0, x.T + 1.0, x.sum() - 1.0, ops.zeros_like(x)


def test_graphs_reused_across_shapes_respect_library_shape_decisions():
    """Library code that emitted no node because of a shape (squeeze of nothing, .T of a
    vector, sum of a 0-d tensor, zeros_like of a 0-d tensor) left an 'elementwise-only'
    graph that was reused for other shapes: wrong shapes."""
    check(shape_decisions, [np.ones((0, 3), np.float32)], [np.ones((1, 3), np.float32)],
          [np.ones((3,), np.float32)], [np.float32(2.0)], [np.ones((2, 3), np.float32)],
          calls=[0, 1, 2, 3, 4, 0, 1, 2, 3, 4])


# ---- bytecode capture --------------------------------------------------------------------

def in_place_argument_then_break(x0, x2):
    v0 = x2
    if x0.min() < 0.5:
        v0 = x2 - 1e-3
    x0[:] = x2
    v3 = v0 * 2
    if v3.sum() > 0:
        v3 = v3 + 1
    return v3


def test_bytecode_in_place_argument_update_before_a_graph_break():
    """The first call mixed up the slots of graph outputs and written-back arguments at a
    break: it returned the argument's new value instead of ``v0 * 2``."""
    check(in_place_argument_then_break, [f32(-0.27), np.float32(2.12)],
          [f32(3.0), np.float32(-1.0)])


def unpacking(x, **options):
    values = [1.0, 2.0, 3.0]
    more = [x, *values]
    merged = {**options}
    return scaled(x * len(more), **merged) + values[2] + len({1, 2, 3})


def scaled(x, scale=1.0, shift=0.0):
    return x * scale + shift


def test_bytecode_list_set_and_dict_unpacking():
    """LIST_EXTEND / SET_UPDATE / DICT_UPDATE read the container before popping the
    operand: list literals of constants crashed, ``{**d}`` was empty and ``f(**kw)`` lost
    its keyword arguments (silently wrong)."""
    x = Tensor(f32(1.0, 2.0))
    for _ in range(3):
        out = ms.jit(unpacking, capture_mode="bytecode")(x, scale=3.0, shift=0.5)
        np.testing.assert_array_equal(out.asnumpy(), unpacking(x, scale=3.0, shift=0.5).asnumpy())


def mask_index(x, y):
    return y[y > 0].sum() + x.copy()


def test_bytecode_guard_inside_a_single_graph_is_not_raised_to_the_user():
    """A value read by library code (a mask index) is a guard inside the graph; the fast
    path of a bytecode single-graph entry did not catch it: GuardFailure escaped."""
    check(mask_index, [f32(1.0), f32(1.0, -2.0)], [f32(1.0), f32(3.0, 4.0)],
          configs=[c for c in CONFIGS if c["capture_mode"] == "bytecode"])


# ---- ast capture: tensor objects shared by several names --------------------------------------

def alias_through_if(x):
    y = x * 1.0
    z = y
    if x.sum() > 0:
        z = z * 10.0
    y += 1.0                  # z is y when the condition was false
    w = z
    if x.max() > 2.0:
        w = w - 3.0
    w *= 2.0                  # w is z is y when both conditions were false
    return y, z, w


def test_ast_in_place_update_reaches_names_shared_through_a_tensor_if():
    """After ``z = y; if c: z = f(z)``, ``y += 1`` must change ``z`` when ``c`` is false
    (the same Python object), also through chains of such ifs."""
    check(alias_through_if, [f32(1.0, 2.0)], [f32(-1.0, -2.0)], [f32(-5.0, 3.0)])


def alias_through_while(x):
    y = x * 1.0
    z = y
    while y.sum() < 3.0:
        y += 1.0              # only updated in place: y stays the object z names
    v = x * 1.0
    u = v
    w = v
    n = 0
    while (u.sum() < 5.0) & (n < 3):
        u = u + 1.0           # reassigned: u is v only if the loop never runs
        n += 1
    v -= 1.0
    return z, u, w


def test_ast_in_place_update_in_a_tensor_while_and_zero_trip_aliases():
    check(alias_through_while, [f32(1.0, 2.0)], [f32(-1.0, -2.0)], [f32(10.0, 3.0)])


def in_place_inside_if_inside_while(x0):
    v0 = x0
    i = (x0.max() > -1).astype(ms.int32)
    while i < 2:
        if ops.all(v0 <= 2):
            v0 *= v0
        i = i + 1
    return v0 * 1


def test_ast_in_place_update_inside_a_tensor_if_keeps_the_object():
    """The if merged ``v0`` into a new tensor object, so the loop's result was not written
    to the caller's argument ``x0`` (the object ``v0`` names)."""
    check(in_place_inside_if_inside_while, [np.array([[-3]], np.int64)],
          [np.array([[5]], np.int64)])


def alias_through_unrolled_ifs_then_a_fallback_loop(x0):
    v0 = x0
    for _ in range(2):
        if v0.min() < -1:
            v0 = v0 + 4
        v0 += x0
    v4 = v0
    i = (v0.min() < -1).astype(ms.int32)
    while i < 1:              # runs as Python (v4 is updated in place and reassigned)
        v4 -= 1
        if (v0 > 2).any():
            v4 = ops.abs(v4)
        i = i + 1
    return v4


def test_ast_fallback_statement_sees_objects_aliased_through_several_tensor_ifs():
    """fuzz campaign seed 61128199 program 14 (ast): before a statement that runs as Python,
    the graph segment hands it the environment's tensors, made one object where eager has
    one object. ``v0`` is the argument ``x0`` when neither unrolled ``if`` was taken, a
    relation through the first ``if``'s result, which no name holds any more: only direct
    pairs were followed, so ``v4 -= 1`` in the Python loop missed the caller's ``x0``."""
    i32 = np.int32
    check(alias_through_unrolled_ifs_then_a_fallback_loop, [np.array(2, i32)],
          [np.array(-3, i32)], [np.array([1, -5], i32)])


def loop_var_in_place_and_reassigned(x0):
    v0 = x0
    i = (x0.min() < -1).astype(ms.int32)
    while i < 2:
        if (x0 > -1).any():
            v0 = v0 - 1
        v0 *= v0
        i = i + 1
    return v0 * 1


def test_ast_loop_variable_updated_in_place_and_reassigned():
    """Which object the update reaches depends on the data: the loop now runs as Python
    (``fullgraph=False``) -- it used to leave the caller's argument unchanged -- and with
    ``fullgraph=True`` the error says why."""
    check(loop_var_in_place_and_reassigned, [np.float32(-6.5)], [np.float32(0.5)])
    with pytest.raises(ms.JitSyntaxError, match="'v0' is both updated in place and reassigned"):
        ms.jit(loop_var_in_place_and_reassigned, fullgraph=True)(Tensor(np.float32(0.5)))


def alias_then_fallback(x0, x1):
    v0 = x0
    if (x0 > 2).any():
        v0 = 2 ** x0
    v4 = v0
    n = float(x1.sum())       # runs as Python: the objects must still be shared
    v4 -= n
    return x1


def test_ast_branch_alias_survives_a_fallback_statement():
    check(alias_then_fallback, [f32(1.4), f32(1.0)], [f32(3.0), f32(1.0)],
          configs=[c for c in CONFIGS if c["capture_mode"] == "ast"])


def branch_invalid_for_other_shapes(x, y):
    z = x
    if x.sum() > 100:          # never true here; eager never runs the branch
        z = x + y              # (4,) + (3,) does not broadcast
    return z * 2


def test_ast_branch_invalid_for_these_shapes_runs_as_python():
    """Graph control flow compiles both branches; one that fails for these shapes made the
    call fail although eager never runs it. It now falls back (fullgraph=False)."""
    check(branch_invalid_for_other_shapes, [f32(1, 2, 3, 4), f32(1, 2, 3)])
    with pytest.raises(ms.JitSyntaxError, match="add"):
        ms.jit(branch_invalid_for_other_shapes, fullgraph=True)(
            Tensor(f32(1, 2, 3, 4)), Tensor(f32(1, 2, 3)))


def grad_through_in_place_in_if(x):
    v = x + 2.0
    if x.sum() > 0:
        v *= v
    return v.sum()


@pytest.mark.parametrize("mode", MODES)
def test_grad_through_an_in_place_update_in_a_tensor_if(mode):
    for value in (1.0, -1.0):
        x = Tensor(np.float64(value))
        expected = ms.grad(grad_through_in_place_in_if)(x).asnumpy()
        got = ms.jit(ms.grad(grad_through_in_place_in_if), capture_mode=mode)(x).asnumpy()
        np.testing.assert_allclose(got, expected)


# ---- errors point at the user's code -----------------------------------------------------------

def reshape_bad(x):
    return x.reshape(4, 2)


@pytest.mark.parametrize("mode", MODES)
def test_errors_from_the_functional_layer_and_bytecode_name_the_users_line(mode):
    """Checks in the functional layer (before any primitive) named no location in any mode,
    and bytecode named the jitted call's caller instead of the interpreted line."""
    line = reshape_bad.__code__.co_firstlineno + 1
    with pytest.raises(ValueError, match=rf"test_regressions.py:{line} \(reshape_bad\): "
                                         r"reshape: .*6.*\(4, 2\)"):
        ms.jit(reshape_bad, capture_mode=mode)(Tensor(np.zeros((2, 3), np.float32)))


def test_bytecode_ir_notes_name_the_interpreted_line():
    def g(x):
        return x * 2.0 + 1.0

    text = ms.jit(g, capture_mode="bytecode").lower(Tensor(f32(1.0))).as_text()
    assert f"test_regressions.py:{g.__code__.co_firstlineno + 1}" in text


# ---- compile counts stay as they were --------------------------------------------------------

def test_elementwise_graphs_are_still_shared_across_shapes():
    """(the shape-decision fix must not make every graph shape-specific)"""
    def f(a, b):
        return a * b + 1.0

    jitted = ms.jit(f, capture_mode="trace")
    before = STATS["compiles"]
    for shape in [(2, 3), (4,), (), (1, 5), (0, 2)]:
        x = Tensor(np.ones(shape, np.float32))
        jitted(x, x)
    assert STATS["compiles"] - before == 1


def _setitem_on_alias_in_untaken_branch(x1):
    v5 = x1 * 2.0
    v9 = v5                      # v9 and v5 are one tensor: the branch's outputs repeat it
    i = 0
    while i < 2:
        if v5.max() > 1.0:
            v9[1] = 2.0
            v9 = v9 / 3.0
        i = i + 1
    return v9.sum()


@pytest.mark.parametrize("mode", MODES)
def test_gradient_through_a_branch_returning_one_value_twice(mode):
    # found by fuzz --grad (seed 31, program 36): in ast mode the gradient was silently 0
    # when the branch was not taken, because vjp kept one of two cotangents of an output
    # that a graph returns twice
    grad_fn = ms.grad(_setitem_on_alias_in_untaken_branch)
    for values, want in [([0.1, 0.2], [2.0, 2.0]), ([1.1, 0.2], [2 / 9, 0.0])]:
        x = Tensor(np.array(values, np.float32))
        np.testing.assert_allclose(grad_fn(x).asnumpy(), want, rtol=1e-6)
        got = ms.jit(grad_fn, capture_mode=mode)(x).asnumpy()
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_vjp_of_an_output_returned_twice_sums_both_cotangents():
    x = Tensor(np.array([1.0, -2.0], np.float32))
    _, pullback = ms.vjp(lambda t: _twice(t * 3.0), x)
    (g,) = pullback(Tensor(np.ones(2, np.float32)), Tensor(np.full(2, 2.0, np.float32)))
    np.testing.assert_allclose(g.asnumpy(), [9.0, 9.0])


def _twice(t):
    return t, t


def reassigned_in_a_loop_on_some_paths(x0, x1):
    v1 = x1
    i = 0
    while i < 2 and v1.sum() < 100:
        if ops.all(v1 <= 0.5):
            v1 = v1 + 3
        i = i + 1
    v5 = v1
    v5 -= x0
    return v5 * 2


def reassigned_in_a_loop_after_a_chain_of_ifs(x0, x1):
    v1 = x1
    while x0.sum() < 3:
        if v1.sum() < -5:
            v1 = v1 * 2
        if v1.sum() < 0:
            v1 = v1 + 100
        x0 += 1
    v1 += 1
    return v1, x0


def test_an_update_after_a_loop_reaches_the_tensor_no_iteration_reassigned():
    """fuzz seed 21 program 1520: ``v1 = x1`` then a tensor ``while`` whose ``if`` (never
    taken) would reassign v1; eager's v1 is still x1, so ``v5 = v1; v5 -= ...`` changes the
    argument x1. ast's loop output was a new tensor and x1 stayed unchanged. A carried flag
    per such variable now says whether any iteration reassigned it."""
    check(reassigned_in_a_loop_on_some_paths, [f32(1.0), f32(0.7, 2.0)],
          [f32(1.0), f32(0.1, 0.2)], [f32(0.5), f32(-1.0, 0.3)])
    check(reassigned_in_a_loop_after_a_chain_of_ifs, [f32(0.0), f32(1.0, 2.0)],
          [f32(0.0), f32(-1.0, 0.5)], [f32(0.0), f32(-20.0, 1.0)], calls=[0, 1, 2, 0, 2, 1])


def read_after_a_reused_buffer(x0):
    v1 = ops.concat((x0, x0.sum(axis=-2, keepdims=True)), -3)
    v2 = v1 ** 2
    v3 = v2.sum()
    v4 = v2
    for _ in range(2):
        if v4.min() < 0:
            v4 = ops.exp(v4)
            v4 = v4.sum(axis=-3, keepdims=True) // v4
        v4 = v4 - v4.mean(0, True)
    return v2 * float(v3.sum()), v1


def test_an_inlined_expression_does_not_read_a_buffer_a_fused_kernel_reused(monkeypatch):
    """fuzz seed 23 program 1768 (trace, O1): buffer reuse let a fused kernel write into
    v2's buffer, where v2 dies in the schedule; but codegen had inlined ``v2 * c`` into the
    return statement, after the kernel, so it read the overwritten buffer."""
    from tensorjit.passes import fusion
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 0)
    a = np.array([[[1.0097739]], [[10000.0]], [[3.2674298]], [[-3.1044512]]], np.float32)
    b = np.array([[[0.05572234]], [[0.1974194]], [[-0.1398344]], [[-0.8811733]]], np.float32)
    check(read_after_a_reused_buffer, [a], [b],
          configs=[c for c in CONFIGS if c["jit_level"] == "O1"])


def augmented_assignment_of_a_broadcast(x0, x1):
    v3 = ops.logical_not(x0).copy()
    v3 -= ops.erf(x1)
    return v3


def test_augmented_assignment_is_guarded_on_the_shapes_it_decided_by():
    """fuzz seed 901 program 966 (trace, O0): ``v3 -= w`` stores the result in v3 (cast to
    bool) when it has v3's shape, and rebinds v3 to the float32 result when broadcasting
    makes it larger. The trace graph of the first shapes held the cast and, reading no
    shape in user code, was reused for the second: a bool result where eager gives
    float32. The decision now makes the graph specific to its input shapes."""
    rng = np.random.default_rng(0)
    same = [rng.standard_normal(s).astype(np.float32) for s in ((5, 5, 3), (5, 5, 1))]
    larger = [rng.standard_normal(s).astype(np.float32) for s in ((5, 1), (2, 6, 1, 2))]
    check(augmented_assignment_of_a_broadcast, same, larger, calls=[0, 1, 0, 1, 1, 0])


def gauss_jordan_steps(x0):
    n = 3
    a = ops.cat([x0, ops.eye(n, n, ms.float32)], -1)
    for k in range(n):
        row = a[k, :] / a[k, k]
        a = a - a[:, k:k + 1] * ops.expand_dims(row, 0)
        e_k = Tensor(np.eye(n, dtype=np.float32)[:, k:k + 1])
        a = a + e_k * ops.expand_dims(row, 0)
    return a


def test_a_fused_kernel_never_overwrites_a_buffer_another_operand_views():
    """Found writing ops.inverse: in ``a - a[:, k:k+1] * row`` the fused kernel wrote its
    result into ``a``'s buffer (``a`` dies there) while reading column k of the same
    buffer through the view ``a[:, k:k+1]``: once the kernel had written column k, the
    rows after it read the new values. Wrong at O1 once the native kernel was compiled.
    The same program stopped bytecode capture: it followed NumPy's ``np.eye``, written in
    Python, into its implementation (a library function is now computed, as its C
    functions are)."""
    from tensorjit.backend.numba import background
    a = np.array([[3.6, -0.1, 0.85], [-0.2, 2.4, 0.8], [0.6, -0.3, 2.6]], np.float32)
    o1 = [c for c in CONFIGS if c["jit_level"] == "O1"]
    check(gauss_jordan_steps, [a], [a[[1, 2, 0]]])
    background.wait(300)                     # now with the native kernels
    check(gauss_jordan_steps, [a], [a[[1, 2, 0]]], configs=o1)
    np.testing.assert_allclose(ms.jit(gauss_jordan_steps, jit_level="O1")(
        Tensor(a)).asnumpy()[:, 3:], np.linalg.inv(a), rtol=1e-5, atol=1e-6)


def augmented_assignment_of_a_zero_d_operand(x0, x1, x2):
    x0 -= x2
    return ops.clamp(ops.where(ops.isnan(x2), 0.0, x2), -100.0, 100.0).astype(ms.int8), x1


def test_augmented_assignment_by_a_zero_d_tensor_is_guarded_on_its_shape():
    """fuzz campaign seed 61128007 program 1448 (ast and trace): ``x0 -= x2`` with a 0-d
    ``x2`` updates ``x0`` in place whatever ``x0``'s shape, so no shape decision was
    recorded and the graph was reused when ``x2`` came with shape (2,): the caller's
    (2, 1) ``x0`` was overwritten with the (2, 2) result, where eager rebinds ``x0``."""
    rng = np.random.default_rng(1)
    zero_d = [np.zeros(0, np.float32), f32(0.5), np.array(-0.45, np.float16)]
    larger = [rng.standard_normal(s).astype(t) for s, t in
              (((2, 1), np.float32), ((1,), np.float32), ((2,), np.float16))]
    check(augmented_assignment_of_a_zero_d_operand, zero_d, larger, calls=[0, 0, 1, 0, 1])


def update_inside_branches_inside_a_loop(x0, x1):
    v0 = ops.stack((x0, x0 * x0))
    v1 = v0.transpose((1, 0))
    v2 = v1[1, ::-1]
    v4 = ops.gelu(v2)
    v5 = ops.erf(v2)
    v6 = ops.atan(v4)
    v7 = v2
    for i8 in range(1):
        if v7.mean() < 0.5:
            v7 = ops.atan2(v7, v7.sum(axis=0, keepdims=True) * v7.sum(axis=0, keepdims=True)
                           + 1.0)
            v9 = v5 - x1                                        # noqa: F841 (as generated)
            v7 = v7 - v7.mean(0, True)
        else:
            v7 = v6 * v7
            v7 = ops.atan2(v7, v7.sum(axis=-1, keepdims=True) * v7.sum(axis=-1, keepdims=True)
                           + 1.0)
        if v7.sum() > 0:
            v7[0] = 0.5
            v7 = v7 + 2.0
    return (v7 * ops.cos(v7)).sum()


@pytest.mark.parametrize("mode", MODES)
def test_fusion_never_makes_two_groups_wait_for_each_other(mode, monkeypatch):
    """fuzz --grad seed 778 programs 168 and 423 (ast, O1): "schedule: the graph has a
    cycle". A node joined group A with an input from group B that did not depend on A
    itself, but B, fused into one node, also waits for an input that depends on A (the
    backward of a branch): A and B waited for each other. Joining now follows the
    dependencies of whole groups (and of sub-graph captures and the order of effects)."""
    from tensorjit.passes import fusion
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 0)
    rng = np.random.default_rng(0)
    args = [rng.standard_normal(3), rng.standard_normal(1)]
    grad = ms.grad(update_inside_branches_inside_a_loop, grad_position=(0, 1))
    expected = grad(*map(Tensor, args))
    for level in ("O0", "O1"):
        got = ms.jit(grad, capture_mode=mode, jit_level=level)(*map(Tensor, args))
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g.asnumpy(), e.asnumpy(), rtol=1e-12, atol=1e-12)


def test_a_branch_taken_only_at_the_point_itself_is_ill_conditioned():
    """fuzz --grad seed 778 program 258: ``if v5.sum() > 0`` of a mean-centred ``v5`` is
    decided by rounding; at the inputs one branch, a step away on both sides the other, so
    finite differences (either step) measure the other branch's derivative and the check
    reported eager's gradient as wrong. A function whose value at the point is not the mean
    of its neighbours' now counts as ill-conditioned."""
    from tensorjit.tools.fuzz import check as fuzz_check
    from tensorjit.tools.fuzz.cli import generate

    point = np.array([0.3, -1.2])

    def spike(x):                  # smooth, plus a jump exactly at ``point``
        at = ops.cast(ops.all(x == Tensor(point)), x.dtype)
        return (x * x).sum() + 3.0 * at

    def smooth(x):
        return (ops.sin(x) * x).sum()

    reference = fuzz_check.numeric_grad(spike, [point])
    assert fuzz_check.not_smooth(spike, [point], reference)
    assert not fuzz_check.not_smooth(smooth, [point], fuzz_check.numeric_grad(smooth, [point]))
    program = generate(778, 258, grad=True)
    before = fuzz_check.STATS["ill_conditioned"]
    assert fuzz_check.check_grad_program(program, configs=CONFIGS[:2]) == []
    assert fuzz_check.STATS["ill_conditioned"] == before + 1


def remainder_by_a_one_element_constant(x0, x1):
    return x1 % Tensor(np.array([10000.0], np.float16))


def test_a_constant_read_as_a_scalar_keeps_the_graph_to_its_shapes():
    """fuzz campaign seed 52607527 program 1693 (trace, O1): O1 reads a constant whose
    elements are all equal as a scalar when the other operand already has the result's
    shape; the graph then had no shaped constant, was judged shape-generic and was reused
    for a 0-d ``x1``: shape () where eager broadcasts to (1,). Such a rewrite now marks the
    graph specific to its shapes."""
    i32 = np.int32
    check(remainder_by_a_one_element_constant,
          [np.ones((3, 1), i32), np.array([7], i32)], [np.ones(1, i32), np.array(7, i32)])


def test_a_remainder_of_two_roundings_of_one_value_is_ill_conditioned():
    """fuzz campaign seed 61128003 program 1535 (every mode, O1): ``np.tanh(x) % ops.tanh(x)``
    is 0 in eager (the same NumPy kernel twice) and nearly ``tanh(x)`` where O1's fused tanh
    (within its few ulps) lands one ulp above NumPy's. Moving the inputs could not show it
    (both sides move together); moving every elementwise kernel's result by a few ulps, the
    accuracy fused kernels are allowed, does. A program that tells apart the roundings of
    equal values is ill-conditioned, not a compiler error."""
    from tensorjit.tools.fuzz import check as fuzz_check
    from tensorjit.tools.fuzz.cli import generate

    def remainder(x):
        return Tensor(np.tanh(x.asnumpy())) % ops.tanh(x)

    def well_posed(x):
        return Tensor(np.tanh(x.asnumpy())) + ops.tanh(x) % 0.75

    x = np.array([[1.9, -3.6, 1.58], [-1.16, 0.1, 2.4]], np.float32)
    assert fuzz_check.ill_conditioned(remainder, [x], fuzz_check._call(remainder, [x]))
    assert not fuzz_check.ill_conditioned(well_posed, [x], fuzz_check._call(well_posed, [x]))
    program = generate(61128003, 1535)
    before = fuzz_check.STATS["ill_conditioned"]
    assert fuzz_check.check_program(program, configs=[c for c in CONFIGS
                                                      if c["jit_level"] == "O1"][:2]) == []
    assert fuzz_check.STATS["ill_conditioned"] > before
