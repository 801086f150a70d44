"""Gradients of integer and bool inputs (MindSpore computes them with the VJP rules in the
values' own dtypes and gives each input a gradient of its dtype)."""


@program(T(3, "int32"), T(5, "int32"))
def issue_example_int32(x, y):
    return ms.grad(lambda a, b: a * b + a, grad_position=(0, 1))(x, y)


@program(T(3, "int64"), T(5, "int64"))
def int64_mul_add(x, y):
    return ms.grad(lambda a, b: a * b + a, grad_position=(0, 1))(x, y)


@program(T(3, "int64"))
def int64_square(x):
    return ms.grad(lambda a: a * a)(x)


@program(T([1, 2, 3], "int32"))
def int32_vector_sum_of_squares(x):
    return ms.grad(lambda a: (a * a).sum())(x)


@program(T(3, "int8"))
def int8(x):
    return ms.grad(lambda a: a * a)(x)


@program(T(3, "int16"))
def int16(x):
    return ms.grad(lambda a: a * a)(x)


@program(T(200, "uint8"))
def uint8_wraps(x):
    return ms.grad(lambda a: a * a)(x)


@program(T(100, "int8"))
def int8_wraps(x):
    return ms.grad(lambda a: a * a * a)(x)


@program(T(3, "int32"), T(3.0))
def int_times_float(x, y):
    return ms.grad(lambda a, b: a * b, grad_position=(0, 1))(x, y)


@program(T(3.0), T(3, "int32"))
def float_times_int(x, y):
    return ms.grad(lambda a, b: a * b, grad_position=(0, 1))(x, y)


@program(T(3, "int32"))
def int_times_python_float(x):
    return ms.grad(lambda a: a * 2.5)(x)


@program(T(3, "int32"))
def int_plus_python_float(x):
    return ms.grad(lambda a: a + 0.5)(x)


@program(T(3, "int32"))
def explicit_cast_to_float(x):
    return ms.grad(lambda a: ops.cast(a, ms.float32) * 2.5)(x)


@program(T(3, "int32"))
def astype_to_float(x):
    return ms.grad(lambda a: a.astype(ms.float32) * 2.5)(x)


@program(T(3.0))
def float_cast_to_int_output(x):
    return ms.grad(lambda a: ops.cast(a, ms.int32))(x)


@program(T(3.0))
def float_cast_to_bool_output(x):
    return ms.grad(lambda a: ops.cast(a, ms.bool_))(x)


@program(T(True))
def bool_times_two(x):
    return ms.grad(lambda a: a * 2)(x)


@program(T([True, False]), T([2, 3], "int32"))
def bool_times_int(b, x):
    return ms.grad(lambda p, q: p * q, grad_position=(0, 1))(b, x)


@program(T(True), T(3.0))
def bool_times_float(b, x):
    return ms.grad(lambda p, q: p * q, grad_position=(0, 1))(b, x)


@program(T(True))
def bool_times_python_float(b):
    return ms.grad(lambda p: p * 2.5)(b)


@program(T(3, "int32"), T(True))
def int_plus_bool(x, b):
    return ms.grad(lambda p, q: p + q, grad_position=(0, 1))(x, b)


@program(T(3, "int32"))
def identity_int(x):
    return ms.grad(lambda a: a)(x)


@program(T(True))
def identity_bool(x):
    return ms.grad(lambda a: a)(x)


@program(T([True, False]))
def bool_vector_sum(x):
    return ms.grad(lambda a: a.sum())(x)


@program(T(3, "int32"))
def comparison_gives_zero(x):
    return ms.grad(lambda a: a > 2)(x)


@program(T(3.0))
def comparison_of_float_gives_zero(x):
    return ms.grad(lambda a: a > 0)(x)


@program(T(True), T(3, "int32"), T(5, "int32"))
def select_int(c, x, y):
    return ms.grad(lambda p, q, r: ops.select(p, q, r), grad_position=(0, 1, 2))(c, x, y)


@program(T(3, "int32"), T(5, "int32"))
def maximum_int(x, y):
    return ms.grad(lambda a, b: ops.maximum(a, b), grad_position=(0, 1))(x, y)


@program(T([1, 2, 3], "int32"))
def int_index_and_reshape(x):
    return ms.grad(lambda a: a[1] * 3)(x), ms.grad(lambda a: a.reshape(3, 1) * 2)(x)


@program(T([[1, 2], [3, 4]], "int32"))
def int_matmul(x):
    return ms.grad(lambda a: ops.matmul(a, a))(x)


@program(T(3, "int32"))
def int_pow_number(x):
    return ms.grad(lambda a: a ** 2)(x), ms.grad(lambda a: a ** 3)(x)


@program(T(3, "int32"))
def int_neg_abs_relu(x):
    return ms.grad(lambda a: -a)(x), ms.grad(lambda a: ops.abs(a))(x), \
        ms.grad(lambda a: ops.relu(a))(x)


@program(T(3, "int32"), T(5, "int32"))
def int_true_division_of_tensors(x, y):
    return ms.grad(lambda a, b: a / b, grad_position=(0, 1))(x, y)


@program(T(3, "int32"), T(5, "int32"))
def int_floor_division(x, y):
    return ms.grad(lambda a, b: a // b, grad_position=(0, 1))(x, y)


@program(T([1, 2, 3], "int32"))
def int_sum_times_half(x):
    return ms.grad(lambda a: a.sum() * 0.5)(x)


@program(T(3, "int64"), T(5, "int32"))
def int64_times_int32(x, y):
    return ms.grad(lambda a, b: a * b, grad_position=(0, 1))(x, y)


@program(T(3, "int32"), T(5, "int32"))
def int_value_and_grad(x, y):
    return ms.value_and_grad(lambda a, b: a * b + a, grad_position=(0, 1))(x, y)


@program(T(3, "int32"), T(5, "int32"))
def int_grad_operation_get_all(x, y):
    return C.GradOperation(get_all=True)(lambda a, b: a * b + a)(x, y)


@program(T(3, "int32"), T(5, "int32"), T(2, "int32"))
def int_grad_operation_sens(x, y, s):
    return C.GradOperation(get_all=True, sens_param=True)(lambda a, b: a * b + a)(x, y, s)


@program(T(3, "int32"), T(5, "int32"), T(2.5))
def int_grad_operation_float_sens(x, y, s):
    return C.GradOperation(get_all=True, sens_param=True)(lambda a, b: a * b + a)(x, y, s)


@program(T(3, "int32"))
@program(T(-3, "int32"))
def int_through_tensor_if(x):
    def f(a):
        if a > 0:
            return a * a
        return a * 3
    return ms.grad(f)(x)


@program(T(3.0), T(2, "int32"))
def float_and_int_mixed_loop(x, n):
    def f(a, k):
        s = a
        for i in range(3):
            s = s * k + a
        return s
    return ms.grad(f, grad_position=(0, 1))(x, n)


@program(T(3, "int32"), T(2, "int32"))
def int_through_tensor_while(x, k):
    def f(a, b):
        while a < 20:
            a = a * b
        return a
    return ms.grad(f, grad_position=(0, 1))(x, k)

