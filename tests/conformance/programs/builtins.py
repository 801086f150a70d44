"""Python built-in functions, as MindSpore's static-graph syntax page lists them: bool, int,
float, str, tuple, list, dict, getattr, hasattr, len, isinstance, all, any, round, max,
min, sum, abs, map, zip, range, enumerate, super, pow, print, filter, type."""


@program(T([1.0, 2.0]), T(3, "int32"))
def len_of_tuple(x, n):
    return len((x, n, 1)) * x


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def len_of_tensor(x):
    return len(x) + x


@program(T([1.0, 2.0, 3.0]))
def len_of_list_dict_str(x):
    return len([x, x]) + len({"a": 1, "b": 2, "c": 3}) + len("abcd"), x


@program(T([1.0, -2.0]))
def isinstance_of_tensor(x):
    return isinstance(x, Tensor), isinstance(x, (int, float)), isinstance(3, int)


@program(T([1.0, -2.0]))
def isinstance_of_containers(x):
    return isinstance((x, 1), tuple), isinstance([x], list), isinstance({"a": x}, dict), \
        isinstance(2.5, (int, float)), isinstance(True, int)


@program(T(4, "int32"))
def bool_int_float_of_numbers(x):
    return bool(0), bool(2.5), int(3.7), int(-3.7), float(2), int(True), x


@program(T(2.7))
def int_float_of_scalar_tensor(x):
    return int(x), float(x)


@program(T(0.0))
@program(T(2.0))
def bool_of_scalar_tensor(x):
    if bool(x):
        return x + 1
    return x - 1


@program(T([1.0, 2.0]))
def str_of_numbers(x):
    return str(3) + str(2.5) + str(True) + str(None), x


@program(T([1.0, 2.0]))
def tuple_of_list_and_str(x):
    return tuple([1, 2, 3]), tuple("ab"), tuple([x, 2 * x])


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def tuple_of_tensor(x):
    return tuple(x)


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def list_of_tensor(x):
    rows = list(x)
    return rows[0] + rows[1]


@program(T([1.0, 2.0]))
def list_of_tuple_and_range(x):
    return list((1, 2)), list(range(3)), x


@program(T([1.0, 2.0]))
def dict_of_pairs_and_kwargs(x):
    d = dict([("a", x), ("b", 2)])
    e = dict(c=3, d=x * 2)
    return d["a"] + d["b"] + e["c"] + e["d"]


@program(T([1.0, 2.0]))
def getattr_hasattr_of_tensor(x):
    return getattr(x, "shape"), hasattr(x, "shape"), hasattr(x, "no_such_attribute")


class _Holder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 3.0
        self.name_ = "holder"

    def construct(self, x):
        return x * getattr(self, "scale") + (1.0 if hasattr(self, "name_") else 0.0)


holder = _Holder()


@program(T([1.0, 2.0]))
def getattr_of_cell(x):
    return holder(x)


@program(T([1.0, 2.0]))
def getattr_with_default(x):
    return getattr(x, "missing", 5) * x


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def all_any_of_tuples(x):
    return all((1, 2, 3)), all((1, 0)), any((0, 0)), any((0, 2)), all(()), any(()), x


@program(T([True, True]), T([False, True]))
def all_any_of_tensors(a, b):
    return all(a), any(b), all(b)


@program(T([1.0, 2.0]))
def round_of_numbers(x):
    return round(2.567, 2), round(2.5), round(3.5), round(-1.5), x


@program(T([1.0, 5.0, 3.0]))
def max_min_of_numbers(x):
    return max(1, 5, 3), min(1, 5, 3), max((2, 9)), min([4, -1]), max(2.5, 1), x


@program(T(1.0), T(3.0))
def max_min_of_scalar_tensors(a, b):
    return max(a, b), min(a, b)


@program(T([1.0, 5.0, 3.0]))
def max_min_of_tensor(x):
    return max(x), min(x)


@program(T([1.0, 5.0, 3.0]))
def max_with_key_and_default(x):
    return max((1, -7, 3), key=abs), min((), default=4), x


@program(T([1.0, 2.0]))
def sum_of_numbers(x):
    return sum((1, 2, 3)), sum([1.5, 2]), sum((1, 2), 10), x


@program(T([1.0, 2.0]), T([3.0, 4.0]))
def sum_of_tensors(a, b):
    return sum((a, b)), sum([a, b], a)


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def sum_of_tensor(x):
    return sum(x)


@program(T([-1.0, 2.0]))
def abs_of_number_and_tensor(x):
    return abs(-3), abs(-2.5), abs(x)


@program(T([1.0, 2.0]))
def map_over_tuples(x):
    return tuple(map(lambda a, b: a + b, (1, 2), (10, 20))), tuple(map(lambda t: t * 2, (x, x)))


@program(T([1.0, 2.0]))
def map_with_function(x):
    def double(v):
        return v * 2
    return list(map(double, [x, 1]))


@program(T([1.0, 2.0]), T([3.0, 4.0]))
def zip_of_tuples(a, b):
    out = []
    for u, v in zip((a, b), (b, a)):
        out.append(u * v)
    return out[0] + out[1]


@program(T([1.0, 2.0]))
def zip_uneven(x):
    return tuple(zip((1, 2, 3), "ab")), x


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def zip_of_tensor_rows(x):
    total = x[0] * 0
    for row, w in zip(x, (1.0, 2.0)):
        total = total + row * w
    return total


@program(T([1.0, 2.0]))
def range_forms(x):
    return tuple(range(4)), tuple(range(1, 7, 2)), tuple(range(5, 0, -2)), len(range(0)), x


@program(T([1.0, 2.0]))
def range_loop_accumulates(x):
    s = x
    for i in range(1, 4):
        s = s * i
    return s


@program(T([1.0, 2.0]))
def enumerate_tuple(x):
    s = x * 0
    for i, v in enumerate((x, x * 2, x * 3)):
        s = s + i * v
    return s


@program(T([1.0, 2.0]))
def enumerate_with_start(x):
    return tuple(enumerate((5, 6), 1)), tuple(enumerate("ab", start=3)), x


@program(T([[1.0, 2.0], [3.0, 4.0]]))
def enumerate_tensor(x):
    s = x[0] * 0
    for i, row in enumerate(x):
        s = s + row * (i + 1)
    return s


class _Base(nn.Cell):
    def __init__(self):
        super().__init__()
        self.k = 2.0

    def construct(self, x):
        return x * self.k


class _Derived(_Base):
    def construct(self, x):
        return super().construct(x) + 1


class _Derived2(_Base):
    def construct(self, x):
        return super(_Derived2, self).construct(x) - 1


derived, derived2 = _Derived(), _Derived2()


@program(T([1.0, 2.0]))
def super_in_construct(x):
    return derived(x), derived2(x)


@program(T([1.0, 2.0]))
def pow_builtin(x):
    return pow(2, 3), pow(2.0, -1), pow(x, 2), pow(3, 2, 5)


@program(T([1.0, 2.0]))
def print_in_graph(x):
    print("x is", x)
    y = x * 2
    print(y)
    return y


@program(T([1.0, 2.0]))
def filter_tuple(x):
    return tuple(filter(lambda v: v > 1, (0, 1, 2, 3))), list(filter(None, [0, 1, 2])), x


@program(T([1.0, 2.0]))
def type_of_values(x):
    return type(1) == int, type(2.0) is float, type((1,)) == tuple, type(x) == type(x), x


@program(T([1.0, 2.0]))
def divmod_and_hash_free_builtins(x):
    return divmod(7, 3), divmod(-7, 2), x


@program(T([3.0, 1.0, 2.0]))
def sorted_and_reversed(x):
    return tuple(sorted((3, 1, 2))), tuple(reversed((1, 2, 3))), tuple(sorted([2, 1], reverse=True)), x


@program(T([1.0, 2.0]))
def min_max_of_strings(x):
    return max("abc", "abd"), min(("z", "y")), x


@program(T([1.5, -2.5]))
def float_of_string_and_int_of_string(x):
    return float("1.5"), int("12"), int("ff", 16), x
