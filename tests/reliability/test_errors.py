"""Error quality of jitted code: bad input raises the right exception type with a message
naming the op, the shapes and -- for errors inside a jitted function -- the user's file and
line, in every capture mode (trace, ast, bytecode), at capture time and at run time.

Eager-mode messages are covered by tests/core/test_errors.py; the front door's option
validation by tests/jit/test_trace.py. Here: the same errors inside ``jit``, plus the
jit-specific ones (fullgraph, static arguments, argument counts, non-callables)."""
import re

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit.capture.bytecode import GraphBreakError
from tensorjit.capture.ast.errors import SourceUnavailableError

MODES = ["trace", "ast", "bytecode"]
FILE = "test_errors.py"


def f32(*shape):
    return Tensor(np.zeros(shape, np.float32))


def line_of(fn, marker="# <-"):
    """The line number of the line marked ``marker`` in ``fn``'s source."""
    import inspect
    lines, start = inspect.getsourcelines(fn)
    return start + next(i for i, text in enumerate(lines) if marker in text)


def raises(exc_type, *fragments):
    pattern = "".join(f"(?=.*{re.escape(f)})" for f in fragments)
    return pytest.raises(exc_type, match=re.compile(pattern, re.S))


# ---- errors inside a jitted function: op, shapes, and the user's file:line -----------------

def matmul_mismatch(x, y):
    z = x * 2
    return ops.matmul(z, y)  # <-


def matmul_operator_mismatch(x, y):
    return x @ y  # <-


def conv_channels(x, w):
    return ops.conv2d(x, w)  # <-


def conv_kernel_too_large(x, w):
    return ops.conv2d(x, w)  # <-


def broadcast_add(x, y):
    return x + y  # <-


def broadcast_where(x, y):
    return ops.where(x > 0, x, y)  # <-


def reshape_impossible(x):
    return x.reshape(4, 2)  # <-


def reshape_two_unknowns(x):
    return x.reshape(-1, -1)  # <-


def index_out_of_range(x):
    return x[5]  # <-


def axis_out_of_range(x):
    return x.sum(2)  # <-


def cast_unknown_dtype(x):
    return x.astype("float17")  # <-


def cast_unsupported_dtype(x):
    return x.astype(np.complex64)  # <-


def concat_mismatch(x, y):
    return ops.concat((x, y), 1)  # <-


def stack_mismatch(x, y):
    return ops.stack((x, y))  # <-


def bad_permutation(x):
    return x.transpose(0, 0)  # <-


def neg_of_bool(x):
    return -(x > 0)  # <-


def abs_of_bool(x):
    return ops.abs(x > 0)  # <-


def layer_norm_shape(x):
    return ops.layer_norm(x, (2,))  # <-


def softmax_axis(x):
    return ops.softmax(x, 2)  # <-


def squeeze_non_unit(x):
    return x.squeeze(1)  # <-


def ragged_inside(x):
    return x + Tensor([[1.0, 2.0], [3.0]])  # <-


def inplace_grows(x, y):
    x += y  # <-
    return x


def bool_of_many(x):
    if x:  # <-
        return x
    return -x


def item_of_many(x):
    return x * x.item()  # <-


IN_GRAPH_CASES = [
    (matmul_mismatch, (f32(2, 3), f32(4, 5)), ValueError, ("matmul", "f32[2,3]", "f32[4,5]")),
    (matmul_operator_mismatch, (f32(3), f32(4, 5)), ValueError, ("matmul", "3", "4")),
    (conv_channels, (f32(1, 3, 5, 5), f32(2, 4, 3, 3)), ValueError,
     ("conv2d", "3 channels", "(2, 4, 3, 3)")),
    (conv_kernel_too_large, (f32(1, 3, 2, 2), f32(2, 3, 3, 3)), ValueError,
     ("conv2d", "3x3", "2x2")),
    (broadcast_add, (f32(2, 3), f32(4)), ValueError, ("add", "(2, 3)", "(4,)")),
    (broadcast_where, (f32(2, 3), f32(4)), ValueError, ("where", "(4,)")),
    (reshape_impossible, (f32(2, 3),), ValueError, ("reshape", "6", "(4, 2)")),
    (reshape_two_unknowns, (f32(2, 3),), ValueError, ("reshape", "(-1, -1)")),
    (index_out_of_range, (f32(2, 3),), IndexError, ("getitem", "5", "size 2")),
    (axis_out_of_range, (f32(2, 3),), IndexError, ("sum", "axis 2", "rank 2")),
    (cast_unknown_dtype, (f32(2),), TypeError, ("dtype", "'float17'", "float32")),
    (cast_unsupported_dtype, (f32(2),), TypeError, ("complex64", "not supported")),
    (concat_mismatch, (f32(2, 3), f32(3, 3)), ValueError, ("concat", "(2, 3)", "(3, 3)")),
    (stack_mismatch, (f32(2, 3), f32(3, 3)), ValueError, ("stack", "(2, 3)", "(3, 3)")),
    (bad_permutation, (f32(2, 3),), ValueError, ("transpose", "(0, 0)")),
    (neg_of_bool, (f32(2),), TypeError, ("neg", "bool")),
    (abs_of_bool, (f32(2),), TypeError, ("abs", "bool")),
    (layer_norm_shape, (f32(2, 3),), ValueError, ("layer_norm", "(2,)", "(2, 3)")),
    (softmax_axis, (f32(2, 3),), IndexError, ("softmax", "2")),
    (squeeze_non_unit, (f32(2, 3),), ValueError, ("squeeze", "axis 1")),
    (ragged_inside, (f32(2, 2),), ValueError, ("Tensor", "ragged")),
    (inplace_grows, (f32(2, 3), f32(4, 2, 3)), ValueError, ("in-place", "(4, 2, 3)", "(2, 3)")),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("fn, args, exc_type, fragments", IN_GRAPH_CASES,
                         ids=[c[0].__name__ for c in IN_GRAPH_CASES])
def test_errors_inside_jit_name_the_op_shapes_file_and_line(fn, args, exc_type, fragments,
                                                            mode):
    where = f"{FILE}:{line_of(fn)}"
    with raises(exc_type, *fragments, where):
        ms.jit(fn, capture_mode=mode)(*args)
    with raises(exc_type, *fragments):          # eager says the same (without the line)
        fn(*args)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("level, backend", [("O0", "ms_backend"), ("O1", "GE")])
def test_run_time_index_errors_name_the_op_shapes_file_and_line(mode, level, backend):
    def gather(x, i):
        y = x * 2
        return y[i]  # <-

    jitted = ms.jit(gather, capture_mode=mode, jit_level=level, backend=backend)
    for _ in range(3):                          # slow path, then the generated fast path
        jitted(f32(2, 3), Tensor(np.array([0, 1])))
        with raises(IndexError, "getitem", "f32[2,3]", "i64[2]", "7",
                    f"{FILE}:{line_of(gather)}"):
            jitted(f32(2, 3), Tensor(np.array([0, 7])))


@pytest.mark.parametrize("mode", ["trace", "bytecode"])
def test_truth_value_and_item_of_a_non_scalar(mode):
    with raises(ValueError, "truth value", "(2, 3)", f"{FILE}:{line_of(bool_of_many)}"):
        ms.jit(bool_of_many, capture_mode=mode)(f32(2, 3))
    with raises(ValueError, "item", "(2, 3)", f"{FILE}:{line_of(item_of_many)}"):
        ms.jit(item_of_many, capture_mode=mode)(f32(2, 3))


def test_truth_value_of_a_non_scalar_in_ast():
    with raises(ValueError, "truth value", "(2, 3)", f"{FILE}:{line_of(bool_of_many)}"):
        ms.jit(bool_of_many, capture_mode="ast")(f32(2, 3))


# ---- fullgraph=True: unsupported syntax and graph breaks ------------------------------------

def with_try(x):
    try:  # <-
        y = x + 1
    except ValueError:
        y = x
    return y


def with_print_of_numpy(x):
    y = x * 2
    print(np.sum(y.asnumpy()))  # <-
    return y


def with_python_float(x):
    s = float(x.sum())  # <-
    return x * s


def test_fullgraph_unsupported_syntax_in_ast_is_a_jit_syntax_error():
    with pytest.raises(ms.JitSyntaxError) as info:
        ms.jit(with_try, capture_mode="ast", fullgraph=True)(f32(2))
    error = info.value
    assert isinstance(error, SyntaxError)
    assert "'try' statement" in str(error) and "fullgraph=False" in str(error)
    assert error.filename.endswith(FILE) and error.lineno == line_of(with_try)
    assert "try:" in error.text


def test_fullgraph_concretization_in_ast_is_a_jit_syntax_error():
    with pytest.raises(ms.JitSyntaxError) as info:
        ms.jit(with_python_float, capture_mode="ast", fullgraph=True)(f32(2))
    assert info.value.lineno == line_of(with_python_float)
    assert "float" in str(info.value)


@pytest.mark.parametrize("fn", [with_print_of_numpy, with_python_float])
def test_fullgraph_graph_break_in_bytecode_names_reason_and_line(fn):
    with pytest.raises(GraphBreakError) as info:
        ms.jit(fn, capture_mode="bytecode", fullgraph=True)(f32(2))
    assert f"{FILE}:{line_of(fn)}" in str(info.value)
    assert "fullgraph=True" in str(info.value)


@pytest.mark.parametrize("fn", [with_try, with_print_of_numpy, with_python_float])
@pytest.mark.parametrize("mode", ["ast", "bytecode"])
def test_without_fullgraph_the_same_functions_run(fn, mode):
    x = Tensor(np.array([1.0, 2.0], np.float32))
    np.testing.assert_allclose(ms.jit(fn, capture_mode=mode)(x).asnumpy(), fn(x).asnumpy())


def test_ast_needs_source_and_says_which_modes_do_not():
    namespace = {"ops": ops}
    exec("def no_source(x):\n    return ops.relu(x)\n", namespace)
    with raises(SourceUnavailableError, "no_source", "capture_mode='trace'",
                "capture_mode='bytecode'"):
        ms.jit(namespace["no_source"], capture_mode="ast")(f32(2))
    for mode in ("trace", "bytecode"):
        assert ms.jit(namespace["no_source"], capture_mode=mode)(f32(2)).shape == (2,)


def one_branch_only(x):
    if x.sum() > 0:
        y = x * 2
    return y  # <-


def loop_changes_shape(x):
    while x.sum() < 10:
        x = ops.concat((x, x))  # <-
    return x


def test_ast_variable_assigned_on_one_tensor_path_says_why():
    with raises(UnboundLocalError, "'y'", "only when the tensor condition",
                f"{FILE}:{line_of(one_branch_only) - 2}"):
        ms.jit(one_branch_only, capture_mode="ast")(f32(2) + 1)


def test_ast_loop_variable_changing_shape_with_fullgraph():
    with pytest.raises(ms.JitSyntaxError) as info:
        ms.jit(loop_changes_shape, capture_mode="ast", fullgraph=True)(f32(2) + 1)
    assert "'x'" in str(info.value) and "f32[2]" in str(info.value)
    x = Tensor(np.array([1.0, 2.0], np.float32))      # without fullgraph: as Python
    np.testing.assert_array_equal(ms.jit(loop_changes_shape)(x).asnumpy(),
                                  loop_changes_shape(x).asnumpy())


# ---- the jitted callable's own arguments ------------------------------------------------

def scale(x, n):
    return x * n


@pytest.mark.parametrize("mode", MODES)
def test_unhashable_and_tensor_static_arguments(mode):
    by_num = ms.jit(scale, capture_mode=mode, static_argnums=1)
    by_name = ms.jit(scale, capture_mode=mode, static_argnames="n")
    with raises(TypeError, "static argument 1 ('n')", "unhashable", "list", "tuple"):
        by_num(f32(2), [1, 2])
    with raises(TypeError, "static argument 1 ('n')", "unhashable", "dict"):
        by_name(f32(2), n={"a": 1})
    with raises(TypeError, "static argument 1 ('n')", "Tensor"):
        by_num(f32(2), f32(1))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("call, message", [
    (lambda j: j(f32(2)), "scale() missing 1 required positional argument: 'n'"),
    (lambda j: j(f32(2), 1, 2), "scale() takes 2 positional arguments but 3 were given"),
    (lambda j: j(f32(2), 1, m=3), "scale() got an unexpected keyword argument 'm'"),
    (lambda j: j(f32(2), 1, x=f32(2)), "scale() got multiple values for argument 'x'"),
])
def test_wrong_arguments_are_reported_in_the_users_terms(mode, call, message):
    jitted = ms.jit(scale, capture_mode=mode)
    for _ in range(3):                      # also once a fast path is installed
        with pytest.raises(TypeError, match=re.escape(message)):
            call(jitted)
        jitted(f32(2), 2.0)


@pytest.mark.parametrize("value", [42, "not a function", None, [scale]])
def test_jit_of_a_non_callable(value):
    if value is None:                       # jit(None) is the decorator form
        assert callable(ms.jit(None))
        with raises(TypeError, "int", "not callable"):
            ms.jit(None)(3)
        return
    with raises(TypeError, type(value).__name__, "not callable"):
        ms.jit(value, capture_mode="trace")


@pytest.mark.parametrize("kwargs, fragments", [
    (dict(capture_mode="Bytecode"), ("capture_mode", "'Bytecode'", "'ast', 'bytecode', 'trace'")),
    (dict(jit_level="O2"), ("jit_level", "'O2'", "'O0', 'O1'")),
    (dict(backend="gpu"), ("backend", "'gpu'", "'ms_backend', 'GE'")),
    (dict(exec_order="random"), ("exec_order", "'random'", "'bfs', 'dfs'")),
    (dict(infer_boost="yes"), ("infer_boost", "'yes'", "'on', 'off'")),
    (dict(disable_format_transform="no"), ("disable_format_transform", "True or False")),
    (dict(ge_options=[1]), ("ge_options", "dict")),
    (dict(fast_math=True), ("unknown option 'fast_math'", "exec_order")),
    (dict(dynamic=2), ("dynamic", "0 / False", "1 / True")),
    (dict(static_argnums="n"), ("static_argnums", "ints")),
    (dict(static_argnames=[1]), ("static_argnames", "strings")),
])
def test_invalid_jit_options_are_value_errors_listing_valid_values(kwargs, fragments):
    with raises(ValueError, *fragments):
        ms.jit(scale, **kwargs)
    with raises(ValueError, *fragments):
        ms.jit(**kwargs)                      # decorator form: at once, too


@pytest.mark.parametrize("kwargs, fragments", [
    (dict(static_argnums=5), ("static_argnums 5", "out of range", "scale", "2 positional")),
    (dict(static_argnames="m"), ("static_argnames 'm'", "not a parameter", "scale")),
])
def test_static_arguments_that_do_not_exist(kwargs, fragments):
    with raises(ValueError, *fragments):
        ms.jit(scale, **kwargs)


@pytest.mark.parametrize("mode", MODES)
def test_a_tensor_stored_by_a_jitted_call_is_explained_when_used_later(mode):
    stash = []

    def keep(x):
        y = x * 2
        stash.append(y)
        return y

    ms.jit(keep, capture_mode=mode, fullgraph=False)(f32(2))
    leaked = stash[-1]
    if leaked._data is not None:              # modes that run the call for real hold data
        return
    with raises(RuntimeError, "outside of the graph capture"):
        leaked + 1


# ---- exceptions raised by the user's own Python code keep its file and line ----------------

TABLE = {"a": 1}


class StepError(Exception):
    pass


def missing_key(x):
    y = x * 2
    return y + TABLE["b"]                                  # <-


def missing_attribute(x):
    return x.no_such_attribute + 1                          # <-


def divide_by_zero(x):
    n = x.shape[0] - 3
    return x * (1 / n)                                     # <-


def raise_own(x):
    if x.shape[0] == 3:
        raise StepError("three is not allowed")            # <-
    return x


def through_a_helper(x):
    return missing_key(x) + 1


@pytest.mark.parametrize("fn, exc_type, where", [
    (missing_key, KeyError, missing_key),
    (missing_attribute, AttributeError, missing_attribute),
    (divide_by_zero, ZeroDivisionError, divide_by_zero),
    (raise_own, StepError, raise_own),
    (through_a_helper, KeyError, missing_key),
])
@pytest.mark.parametrize("mode", MODES)
def test_exceptions_from_user_code_end_at_the_users_line(fn, exc_type, where, mode):
    """The innermost traceback entry is the user's line, as in eager mode (bytecode
    capture once reported only its own interpreter frames)."""
    import traceback
    with pytest.raises(exc_type) as info:
        ms.jit(fn, capture_mode=mode)(f32(3))
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (last.filename.endswith(FILE), last.lineno, last.name) == (
        True, line_of(where), where.__name__)
    assert type(info.value) is exc_type
