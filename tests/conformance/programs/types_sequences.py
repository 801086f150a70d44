"""Built-in data types of the static-graph syntax page: List and Tuple -- construction,
indexing (by numbers, slices, tensors, bool tensors), methods, and their use with tensors."""


@program(T([1.0, 2.0]))
def list_construction_and_indexing(x):
    a = [1, 2.5, x, "s"]
    return a[0], a[1], a[2], a[-1], a[1:3][0], len(a)


@program(T([1.0, 2.0]))
def list_append_extend_insert(x):
    a = [x]
    a.append(x * 2)
    a.extend([1, 2])
    a.insert(0, 5)
    return a[0], a[1], a[2], len(a)


@program(T([1.0, 2.0]))
def list_pop_and_clear(x):
    a = [1, 2, x, 4]
    last = a.pop()
    second = a.pop(1)
    b = [1, 2]
    b.clear()
    return last, second, a[1], len(a), len(b)


@program(T([1.0, 2.0]))
def list_reverse_index_count(x):
    a = [3, 1, 3, 2]
    a.reverse()
    return a, a.index(3), a.count(3), x


@program(T([1.0, 2.0]))
def list_setitem(x):
    a = [1, 2, 3]
    a[0] = x
    a[-1] = 10
    a[1:2] = [7, 8]
    return a[0] * a[-1], len(a), a[1], a[2]


@program(T([1.0, 2.0]))
def list_of_lists(x):
    a = [[1, 2], [3, x]]
    return a[1][1] * a[0][1], a[1][0]


@program(T([1.0, 2.0]))
def list_slicing_with_steps(x):
    a = [0, 1, 2, 3, 4, 5]
    return a[::2], a[::-1], a[1:-1:2], a[10:], x


@program(T([1.0, 2.0]))
def list_comparison_and_membership(x):
    a = [1, 2]
    return a == [1, 2], a < [1, 3], 2 in a, [] == [], x


@program(T(1, "int64"))
def tuple_indexed_by_int_tensor(i):
    t = (10, 20, 30)
    return t[i]


@program(T(1, "int64"), T([1.0, 2.0]))
def tuple_of_tensors_indexed_by_int_tensor(i, x):
    t = (x, x * 2, x * 3)
    return t[i]


@program(T(-1, "int32"), T([1.0, 2.0]))
def list_indexed_by_negative_int_tensor(i, x):
    a = [x, x + 1, x + 2]
    return a[i]


@program(T(True), T([1.0, 2.0]))
@program(T(False), T([1.0, 2.0]))
def tuple_indexed_by_bool_tensor(b, x):
    t = (x, x * 10)
    return t[b]


@program(T(2.0), T([1.0, 2.0]))
@program(T(-2.0), T([1.0, 2.0]))
def list_indexed_by_comparison_result(v, x):
    a = [x - 1, x + 1]
    return a[v > 0]


@program(T(1, "int32"), T([1.0, 2.0]))
def tuple_slice_with_tensor_bounds(i, x):
    t = (x, x * 2, x * 3, x * 4)
    return t[i:], t[:i]


@program(T([1.0, 2.0]))
def tuple_construction_and_unpacking(x):
    t = 1, 2.5, x
    a, b, c = t
    return a + b, c, len(t), t[-1]


@program(T([1.0, 2.0]))
def tuple_index_and_count(x):
    t = (3, 1, 3)
    return t.index(1), t.count(3), x


@program(T([1.0, 2.0]))
def tuple_slicing(x):
    t = (0, 1, 2, 3, 4)
    return t[1:3], t[::-1], t[-2:], t[:0], x


@program(T([1.0, 2.0]))
def tuple_comparison(x):
    return (1, 2) == (1, 2), (1, 2) != (1, 3), (1, 2) < (1, 2, 0), () == (), x


@program(T([1.0, 2.0]))
def nested_tuple_return(x):
    return ((x, 1), (2, (x * 2,)))


@program(T([1.0, 2.0]))
def tuple_with_none_and_strings(x):
    return (None, "a", x), None


@program(T([1.0, 2.0]))
def tuple_of_tuples_loop(x):
    s = x * 0
    for a, b in ((1, 2), (3, 4)):
        s = s + a * x + b
    return s


@program(T([1.0, 2.0]))
def list_returned_as_list(x):
    return [x, x * 2]


@program(T([1.0, 2.0]))
def list_comprehension_results(x):
    return [i * x for i in range(3)][2], [i for i in range(5) if i % 2]


@program(T([1.0, 2.0]))
def list_mutation_in_loop(x):
    out = []
    for i in range(3):
        out.append(x * i)
    return out[0] + out[1] + out[2], len(out)


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def list_of_tensor_rows_stack(x):
    rows = [x[i] * (i + 1) for i in range(2)]
    return ops.stack(rows)


@program(T([1.0, 2.0]))
def sequence_multiply_by_int(x):
    return (x,) * 2, [1] * 3


@program(T([1.0, 2.0]))
def list_sort_and_sorted(x):
    a = [3, 1, 2]
    a.sort()
    b = sorted([5, 4], reverse=True)
    return a, b, x


@program(T([1.0, 2.0]))
def del_list_item(x):
    a = [1, 2, 3]
    del a[1]
    return a, x


@program(T([1.0, 2.0]))
def star_unpacking_in_call_and_literal(x):
    args = (x, 2)
    return ops.mul(*args), [*args, 3][2], (*args,)[1]
