"""Operators of MindSpore's static-graph syntax page: unary and binary arithmetic on
numbers and tensors, assignment and augmented assignment, logical operators, comparisons
(chains, ``in``, ``is``)."""


@program(T([1.0, -2.0]))
def unary_on_numbers_and_tensors(x):
    return -3, +2.5, ~5, not 0, -x, +x


@program(T([1, -2], "int32"), T([True, False]))
def invert_of_int_and_bool_tensors(a, b):
    return ~a, ~b


@program(T([1.0, 2.0]))
def arithmetic_on_numbers(x):
    return 7 + 2, 7 - 2, 7 * 2, 7 / 2, 7 // 2, 7 % 2, 2 ** 10, -7 // 2, -7 % 3, 7.5 // 2, x


@program(T([1.0, 2.0]), T([3.0, 4.0]))
def arithmetic_on_tensors(a, b):
    return a + b, a - b, a * b, a / b, b // a, b % a, a ** 2, a @ b


@program(T([1, 5], "int32"), T([2, 3], "int32"))
def int_tensor_division(a, b):
    return a / b, a // b, a % b, -a // b, -a % b


@program(T([1.0, 2.0]))
def tensor_with_python_numbers(x):
    return x + 1, 2 * x, x / 2, 3 - x, 2 ** x, x ** 0.5, 1 / x


@program(T([1, 2], "int32"))
def int_tensor_with_float_number(x):
    return x * 2.5, x + 1, x / 2, x * True


@program(T([True, False]))
def bool_tensor_arithmetic(b):
    return b + 1, b * 2.5, b & True, b | False, b ^ True


@program(T([1.0, 2.0]))
def string_concat_and_repeat(x):
    return "ab" + "cd", "ab" * 3, 2 * "x", x


@program(T([1.0, 2.0]))
def tuple_concat_and_repeat(x):
    return (1, 2) + (3,), (1,) * 3, (x,) + (x * 2,)


@program(T([1.0, 2.0]))
def list_concat_and_repeat(x):
    return [1, 2] + [3], [0] * 3, len([x] * 2)


@program(T([1.0, 2.0]), T([3.0, 4.0]))
def augmented_assignment_on_tensors(a, b):
    c = a
    c += b
    c -= 1
    c *= 2
    c /= 4
    c **= 2
    return c


@program(T([1.0, 2.0]))
def augmented_assignment_on_numbers(x):
    n = 3
    n += 2
    n *= 4
    n //= 3
    n %= 4
    n **= 2
    f = 1.5
    f /= 2
    return n, f, x


@program(T([1, 2], "int32"))
def augmented_assignment_on_int_tensors(x):
    y = x
    y += 3
    y //= 2
    y %= 3
    y *= 5
    return y


@program(T(0.0), T([1.0]))
def augmented_assignment_broadcasts_to_bigger_shape(s, x):
    s += x
    return s


@program(T([1.0, 2.0]), T([3.0, 4.0]))
def augmented_assignment_broadcasts_in_zip_loop(a, b):
    s = Tensor(0.0)
    for u, v in zip(a, b):
        s += u * v
    return s


@program(T([[1.0], [2.0]]))
def augmented_assignment_grows_in_loop(x):
    s = Tensor(0.0)
    for i in range(2):
        s += x * i
    return s


@program(T([1.0, 2.0]))
def augmented_assignment_on_tuple_and_list(x):
    t = (1,)
    t += (2, 3)
    lst = [x]
    lst += [x * 2]
    return t, lst[1]


@program(T([1.0, 2.0]))
def augmented_assignment_on_string(x):
    s = "ab"
    s += "c"
    s *= 2
    return s, x


@program(T([1.0, 2.0]))
def chained_assignment_and_unpacking(x):
    a = b = x * 2
    c, (d, e) = 1, (x, 3)
    f, *rest = (1, 2, 3)
    return a + b, c, d * e, f, rest


@program(T([1.0, 2.0]))
def swap_by_tuple_assignment(x):
    a, b = x, x * 3
    a, b = b, a
    return a - b


@program(T([1.0, 2.0]))
def and_or_on_numbers(x):
    return 1 and 2, 0 and 2, 0 or 3, 2 or 3, None or "d", "" and 5, x


@program(T(1.0), T(0.0))
def and_or_on_scalar_tensors(a, b):
    return a and b, a or b, b and a, b or a


@program(T(2.0), T(3.0))
def and_or_mixing_tensors_and_numbers(a, b):
    return (a > 1) and 5, 0 or b, (a < 1) or (b > 2)


@program(T(1.0))
@program(T(-1.0))
def not_on_scalar_tensor(x):
    if not x > 0:
        return x * 10
    return x


@program(T([1.0, 2.0]))
def not_on_values(x):
    return not 0, not [], not (1,), not "", not None, x


@program(T([1.0, 2.0]))
def comparisons_on_numbers(x):
    return 1 < 2, 2 <= 2, 3 > 4, 1 == 1.0, 1 != 2, "a" < "b", (1, 2) < (1, 3), x


@program(T([1.0, 2.0]), T([2.0, 2.0]))
def comparisons_on_tensors(a, b):
    return a < b, a <= b, a > b, a >= b, a == b, a != b


@program(T(1.0), T(2.0), T(3.0))
def comparison_chain_on_scalar_tensors(a, b, c):
    return a < b < c, a < c < b, 0 < a <= 1


@program(T([1.0, 2.0]))
def comparison_chain_on_numbers(x):
    return 1 < 2 < 3, 1 < 3 < 2, 1 == 1 < 2 > 0, x


@program(T([1.0, 2.0]))
def in_tuple_and_list_of_numbers(x):
    return 2 in (1, 2, 3), 5 in [1, 2], 5 not in (1, 2), "b" in "abc", "a" in {"a": 1}, x


@program(T([1.0, 2.0]))
def tensor_in_list_with_other_objects(x):
    y = x * 2
    return x in [x, "a"], y in [x, "a"], x in (1, x), x not in [y]


@program(T([1.0, 2.0]))
def tensor_in_tuple_of_tensors_is_identity(x):
    y = x
    z = x + 0
    return y in (x,), z in (x,)


@program(T([1.0, 2.0]))
def is_and_is_not(x):
    y = None
    one = 1
    return y is None, x is not None, x is x, one is not None, (x is None) or 5


@program(T([1.0, 2.0]))
def int_float_bool_mixing(x):
    return True + 1, 2 * False, 1 + 2.0, True / 2, 3 // 2.0, x


@program(T([1.0, 4.0]))
def matmul_and_unary_tensor_ops(x):
    m = Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))
    return x @ m, m @ x, -(m @ m)


@program(T([5, 3], "int32"), T([3, 6], "int32"))
def bitwise_on_int_tensors(a, b):
    return a & b, a | b, a ^ b, a << 1, a >> 1


@program(T([1.0, 2.0]))
def bitwise_on_numbers(x):
    return 5 & 3, 5 | 3, 5 ^ 3, 1 << 4, 256 >> 3, x


@program(T(3.0))
def comparison_of_tensor_with_number_in_if(x):
    if x == 3:
        return x + 1
    return x


@program(T([1.0, 2.0]), T([1.0, 2.0]))
def equality_of_tuples_of_numbers(a, b):
    return (1, 2) == (1, 2), [1, 2] != [1, 2], "ab" == "ab", a.shape == b.shape


@program(T([1.0, 2.0]))
def ternary_expressions(x):
    a = 1 if x.shape[0] == 2 else 2
    b = x * 2 if a == 1 else x
    return a, b


@program(T(1.0))
@program(T(-1.0))
def ternary_on_tensor_condition(x):
    return x * 2 if x > 0 else x - 1


@program(T([1.0, 2.0]), T([2.0, 1.0]))
def walrus_in_condition(a, b):
    if (c := a + b).sum() > 0:
        return c
    return a
