"""Statements of the static-graph syntax page: raise, assert, pass, return, break,
continue; if / while / for (on Python and tensor conditions, nested, with else);
function definitions, lambda, comprehensions, with."""


@program(T(2.0), T(1.0))
@program(T(1.0), T(2.0))
def raise_on_tensor_condition(x, y):
    if x <= y:
        raise ValueError("x should be greater than y")
    return x - y


@program(T([1.0, 2.0]))
def raise_on_python_condition(x):
    if x.shape[0] != 3:
        raise TypeError(f"need 3 elements, got {x.shape[0]}")
    return x


@program(T([1.0, 2.0]))
def assert_on_python_value(x):
    assert x.shape == (2,), "shape"
    assert len(x) == 2
    return x * 2


@program(T([1.0, 2.0]))
def assert_fails_on_python_value(x):
    assert x.ndim == 2, "expected a matrix"
    return x


@program(T([1.0, 2.0]))
def pass_statement(x):
    if x.shape[0] == 2:
        pass
    else:
        pass
    for _ in range(2):
        pass
    return x


@program(T(1.0))
@program(T(-1.0))
def return_in_tensor_if(x):
    if x > 0:
        return x * 2
    return x * 3


@program(T(1.0))
@program(T(-1.0))
def return_in_both_branches(x):
    if x > 0:
        return x + 1
    else:
        return x - 1


@program(T(1.0))
@program(T(-1.0))
def elif_chain_on_tensors(x):
    if x > 0.5:
        y = x * 2
    elif x > -0.5:
        y = x * 3
    else:
        y = x * 4
    return y


@program(T([1.0, 2.0]), T(1.0))
@program(T([1.0, 2.0]), T(-1.0))
def nested_tensor_ifs(x, c):
    if c > 0:
        if x.sum() > 2:
            x = x * 2
        else:
            x = x * 3
    else:
        x = x - 1
    return x


@program(T([1.0, 2.0]))
def if_on_python_value(x):
    n = 3
    if n > 2:
        x = x + 1
    return x


@program(T(1.0))
@program(T(-1.0))
def if_without_else_modifies_variable(x):
    y = x
    if x > 0:
        y = y * 10
    return y


@program(T(5.0))
def while_on_tensor_condition(x):
    while x > 1:
        x = x / 2
    return x


@program(T(0.0))
def while_with_counter(x):
    i = 0
    while i < 4:
        x = x + i
        i += 1
    return x, i


@program(T(1.0))
def while_with_break(x):
    while x < 100:
        x = x * 3
        if x > 20:
            break
    return x


@program(T(1.0))
def while_with_continue(x):
    i = 0
    s = x * 0
    while i < 5:
        i += 1
        if i % 2 == 0:
            continue
        s = s + x * i
    return s


@program(T(3.0))
def while_else(x):
    while x > 0:
        x = x - 1
    else:
        x = x + 10
    return x


@program(T(2.0))
def while_else_skipped_by_break(x):
    while x > 0:
        x = x - 1
        if x < 1:
            break
    else:
        x = x + 10
    return x


@program(T(1.0), T(4.0))
def nested_while_loops(x, n):
    i = x * 0
    total = x * 0
    while i < n:
        j = x * 0
        while j < i:
            total = total + 1
            j = j + 1
        i = i + 1
    return total


@program(T([1.0, 2.0]))
def for_over_range_unrolled(x):
    for i in range(3):
        x = x + i
    return x


@program(T([1.0, 2.0]))
def for_with_break_and_continue(x):
    s = x * 0
    for i in range(6):
        if i == 1:
            continue
        s = s + x * i
        if i == 4:
            break
    return s


@program(T([1.0, 2.0]))
@program(T([10.0, 20.0]))
def for_with_tensor_break(x):
    s = x * 0
    for i in range(5):
        s = s + x
        if s.sum() > 10:
            break
    return s


@program(T([1.0, 2.0]))
def for_else(x):
    for i in range(2):
        x = x + 1
    else:
        x = x * 10
    return x


@program(T([1.0, 2.0]))
def for_over_tuple_of_mixed(x):
    out = x
    for v in (1, 2.5, x):
        out = out + v
    return out


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def for_over_tensor_rows(x):
    s = x[0] * 0
    for row in x:
        s = s + row
    return s


@program(T([1.0, 2.0]))
def for_over_dict(x):
    s = x
    for k in {"a": 1, "b": 2}:
        s = s * 2 if k == "a" else s + 1
    return s


@program(T([1.0, 2.0]))
def for_over_string(x):
    n = 0
    for ch in "abc":
        n += ord(ch)
    return n, x


@program(T(3, "int64"), T([1.0, 2.0]))
def for_over_range_of_scalar_tensor(n, x):
    for i in range(n):
        x = x + 1
    return x


@program(T([1.0, 2.0]))
def for_with_return_inside(x):
    for i in range(4):
        if i == 2:
            return x * i
    return x


@program(T([1.0, 2.0]))
@program(T([-1.0, -2.0]))
def for_with_tensor_return_inside(x):
    for i in range(3):
        if x.sum() > i:
            return x * i
    return x


@program(T([1.0, 2.0]))
def nested_for_loops(x):
    s = x * 0
    for i in range(3):
        for j in range(i):
            s = s + x * j
    return s


@program(T([1.0, 2.0]))
def function_defined_inside(x):
    def helper(a, b=2):
        return a * b
    return helper(x), helper(x, 3)


@program(T([1.0, 2.0]))
def recursive_helper(x):
    def power(v, n):
        if n == 0:
            return v * 0 + 1
        return v * power(v, n - 1)
    return power(x, 3)


@program(T([1.0, 2.0]))
def lambda_expressions(x):
    f = lambda a: a * 2  # noqa: E731
    g = lambda a, b=1: a + b  # noqa: E731
    return f(x), g(x), (lambda: 7)()


@program(T([1.0, 2.0]))
def list_comprehension_with_condition(x):
    return [x * i for i in range(4) if i % 2 == 1][1]


@program(T([1.0, 2.0]))
def nested_comprehension(x):
    return [(i, j) for i in range(2) for j in range(2) if i != j], x


@program(T([1.0, 2.0]))
def dict_and_set_comprehension(x):
    d = {str(i): i * i for i in range(3)}
    s = {i % 2 for i in range(5)}
    return d["2"], len(s), x


@program(T([1.0, 2.0]))
def generator_expression_in_sum(x):
    return sum(i * i for i in range(4)), sum(x * i for i in range(3))


@program(T([1.0, 2.0]))
def generator_expression_in_tuple(x):
    return tuple(x * i for i in range(2))


@program(T([1.0, 2.0]))
def comprehension_over_tensor(x):
    return [v * 2 for v in x][1]


@program(T([1.0, 2.0]))
def global_statement_read(x):
    global _G_VALUE
    return x * _G_VALUE


_G_VALUE = 5.0


@program(T([1.0, 2.0]))
def nonlocal_in_nested_function(x):
    count = 0

    def bump():
        nonlocal count
        count += 1
    bump()
    bump()
    return x * count


class _Scope:
    def __init__(self):
        self.entered = False

    def __enter__(self):
        self.entered = True
        return 3

    def __exit__(self, *exc):
        return False


@program(T([1.0, 2.0]))
def with_statement(x):
    with _Scope() as k:
        y = x * k
    return y


@program(T([1.0, 2.0]))
def try_except(x):
    try:
        y = x * 2
    except ValueError:
        y = x
    return y


@program(T(1.0))
@program(T(-1.0))
def tensor_if_assigning_tuple(x):
    if x > 0:
        a, b = x, x * 2
    else:
        a, b = x * 3, x * 4
    return a + b


@program(T(1.0))
@program(T(-1.0))
def tensor_if_in_loop_accumulating(x):
    s = x * 0
    for i in range(3):
        if x > 0:
            s = s + i
        else:
            s = s - i
    return s


@program(T([1.0, 2.0]))
def early_return_of_different_structures_python(x):
    if x.shape[0] == 2:
        return x, 1
    return x


@program(T(3.0))
def while_updates_two_variables(x):
    a, b = x, x * 0
    while a > 0:
        a = a - 1
        b = b + a
    return a, b
