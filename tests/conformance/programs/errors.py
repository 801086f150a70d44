"""Errors: constructs MindSpore's graph mode rejects and mistakes in user code. tensorjit
raises MindSpore's exception type, with one message naming the user's file and line in
every mode -- or, where it gives Python's answer instead, the program is listed in
docs/mindspore-differences.md."""


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def truth_value_of_matrix_in_if(x):
    if x > 0:
        return x
    return -x


@program(T([1.0, 2.0]))
def truth_value_of_vector_in_while(x):
    while x < 10:
        x = x * 2
    return x


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def multi_element_tensor_in_and(x):
    return x and 1


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def multi_element_tensor_in_or(x):
    return 0 or (x or 1)


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def multi_element_tensor_in_not(x):
    return not x


@program(T([1.0, 2.0]))
def multi_element_tensor_in_bool(x):
    return bool(x)


@program(T([1.0, 2.0]))
def multi_element_tensor_in_int(x):
    return int(x)


@program(T([1.0, 2.0]))
def multi_element_tensor_in_float(x):
    return float(x)


@program(T([1.0, 2.0]), T([3.0, 1.0]))
def nested_tensors_in_max(x, y):
    return max(x, y)


@program(T([1.0, 2.0]), T([3.0, 1.0]))
def nested_tensors_in_min_of_tuple(x, y):
    return min((x, y))


@program(T(3.0))
def iterate_zero_d_tensor(x):
    s = x * 0
    for v in x:
        s = s + v
    return s


@program(T(3.0))
def len_of_zero_d_tensor(x):
    return len(x)


@program(T([1.0, 2.0]))
def enumerate_with_float_start(x):
    s = x * 0
    for i, v in enumerate((x, x), 1.5):
        s = s + v * i
    return s


@program(T([1.0, 2.0]), T(2.0))
def enumerate_with_tensor_start(x, start):
    s = x * 0
    for i, v in enumerate((x, x), start):
        s = s + v * i
    return s


@program(T(2.5))
def range_of_float_tensor(x):
    s = x * 0
    for i in range(x):
        s = s + i
    return s


@program(T([1.0, 2.0]))
def range_of_float(x):
    return tuple(range(2.5)), x


@program(T(1.0))
@program(T(-1.0))
def branches_return_different_types(x):
    if x > 0:
        return x
    return (x, 1)


@program(T(1.0))
@program(T(-1.0))
def branches_assign_different_types(x):
    if x > 0:
        y = x
    else:
        y = "negative"
    return y


@program(T(1.0))
@program(T(-1.0))
def branches_assign_different_shapes(x):
    if x > 0:
        y = x
    else:
        y = ops.ones((2,), ms.float32)
    return y


@program(T(1.0))
@program(T(-1.0))
def branches_assign_different_dtypes(x):
    if x > 0:
        y = x
    else:
        y = ops.cast(x, ms.int32)
    return y


@program(T(1.0))
@program(T(-1.0))
def variable_defined_in_one_branch(x):
    if x > 0:
        y = x * 2
    return y


@program(T([1.0, 2.0]))
def name_not_defined(x):
    return x + undefined_name  # noqa: F821


@program(T([1.0, 2.0]))
def local_used_before_assignment(x):
    if x.shape[0] == 3:
        z = 1
    return x + z


@program(T([1.0, 2.0]), T([1.0, 2.0, 3.0]))
def add_with_mismatched_shapes(x, y):
    return x + y


@program(T([[1.0, 2.0]]), T([[1.0, 2.0]]))
def matmul_with_mismatched_shapes(x, y):
    return ops.matmul(x, y)


@program(T([1.0, 2.0, 3.0]))
def reshape_to_impossible_shape(x):
    return x.reshape(2, 2)


@program(T([1.0, 2.0]))
def tuple_index_out_of_range(x):
    t = (x, x)
    return t[5]


@program(T([1.0, 2.0]))
def tensor_index_out_of_range(x):
    return x[5]


@program(T([1.0, 2.0]))
def dict_missing_key(x):
    d = {"a": x}
    return d["b"]


@program(T([1.0, 2.0]))
def missing_attribute_of_tensor(x):
    return x.no_such_method()


@program(T([1.0, 2.0]))
def calling_with_too_many_arguments(x):
    def f(a):
        return a
    return f(x, x)


@program(T([1.0, 2.0]))
def calling_a_number(x):
    n = 3
    return n(x)


@program(T([1.0, 2.0]))
def string_plus_tensor(x):
    return "a" + x


@program(T([1.0, 2.0]))
def tuple_index_with_float(x):
    i = 1.0
    return (x, x)[i]


@program(T([1.0, 2.0]))
def list_index_of_missing_value(x):
    return [1, 2].index(3), x


@program(T([1.0, 2.0]))
def zip_of_a_number(x):
    return tuple(zip(3, (1,))), x


@program(T(2.0), T(1.0))
@program(T(1.0), T(2.0))
def raise_value_error_on_tensor_condition(x, y):
    if x < y:
        raise ValueError("x must not be smaller than y")
    return x


@program(T(2.0))
@program(T(-2.0))
def raise_type_error_on_tensor_condition(x):
    if x < 0:
        raise TypeError("negative")
    return x


@program(T([1.0, 2.0]))
def raise_runtime_error(x):
    raise RuntimeError("always")


@program(T(1.0))
@program(T(-1.0))
def assert_on_tensor_condition(x):
    assert x > 0, "x must be positive"
    return x


@program(T(5.0))
def while_changing_tensor_shape(x):
    y = x
    while y.sum() < 100:
        y = ops.concat((y.reshape(-1), y.reshape(-1)))
    return y


@program(T([1.0, 2.0]))
def cast_to_unknown_dtype(x):
    return ops.cast(x, "no_dtype")


@program(T([1.0, 2.0]))
def tensor_from_ragged_list(x):
    return Tensor([[1.0, 2.0], [3.0]]) + x


@program(T([1.0, 2.0]))
def concat_of_mismatched_ranks(x):
    return ops.concat((x, x.reshape(1, 2)))


@program(T([1.0, 2.0]))
def unpack_wrong_number_of_values(x):
    a, b, c = (x, x)
    return a


@program(T([1.0, 2.0]))
def unpack_tensor_with_wrong_length(x):
    a, b, c = x
    return a


@program(T([1.0, 2.0]))
def tensor_in_list_with_string(x):
    return x in [x * 2, "a"]


@program(T(1.0))
def zero_d_tensor_in_list_with_string(x):
    return x in [x * 2, "a"], x in (x, "b"), (x + 0) in [x]


@program(T([1.0, 2.0]))
def subscript_of_none(x):
    y = None
    return y[0]


@program(T([1.0, 2.0]))
def item_of_vector(x):
    return x.item()


@program(T([1.0, 2.0]))
def grad_of_non_tensor_position(x):
    return ms.grad(lambda a, n: a * n, grad_position=1)(x, 2)


@program(T([1.0, 2.0]))
def grad_position_out_of_range(x):
    return ms.grad(lambda a: a * 2, grad_position=3)(x)


@program(T([1.0, 2.0]))
def grad_operation_flag_not_bool(x):
    return C.GradOperation(get_all=1)(lambda a: a * 2)(x)


@program(T([1.0, 2.0]))
def grad_operation_sens_wrong_shape(x):
    return C.GradOperation(sens_param=True)(lambda a: a * 2)(x, Tensor([1.0, 2.0, 3.0]))


@program(T([1.0, 2.0]))
def has_aux_with_single_output(x):
    return ms.grad(lambda a: (a * a).sum(), has_aux=True)(x)


@program(T([1.0, 2.0]))
def wrong_dtype_for_op(x):
    return ops.logical_and(x, x)


@program(T([1, 2], "int32"))
def float_op_on_int_tensor(x):
    return ops.exp(x)
