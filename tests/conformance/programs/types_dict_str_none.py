"""Built-in data types of the static-graph syntax page: Dictionary, String, None, Number."""


@program(T([1.0, 2.0]))
def dict_construction_and_access(x):
    d = {"a": x, "b": 2, 3: "three"}
    return d["a"] * d["b"], d[3], len(d)


@program(T([1.0, 2.0]))
def dict_keys_values_items(x):
    d = {"a": x, "b": x * 2}
    ks = list(d.keys())
    vs = list(d.values())
    total = x * 0
    for k, v in d.items():
        total = total + v
    return ks, vs[1], total


@program(T([1.0, 2.0]))
def dict_get_with_default(x):
    d = {"a": x}
    return d.get("a"), d.get("z", 5), d.get("z")


@program(T([1.0, 2.0]))
def dict_setitem_and_update(x):
    d = {"a": 1}
    d["b"] = x
    d.update({"c": 3})
    d["a"] = d["a"] + 1
    return d["a"], d["b"], d["c"], len(d)


@program(T([1.0, 2.0]))
def dict_in_and_not_in(x):
    d = {"a": 1}
    return "a" in d, "b" in d, "b" not in d, x


@program(T([1.0, 2.0]))
def dict_returned(x):
    return {"sum": x.sum(), "double": x * 2, "n": 2}


@program(T([1.0, 2.0]))
def dict_comprehension(x):
    d = {k: x * k for k in range(3)}
    return d[2], len(d)


@program(T([1.0, 2.0]))
def dict_fromkeys_and_pop(x):
    d = dict.fromkeys(("a", "b"), 0)
    d["a"] = x
    v = d.pop("a")
    return v, list(d.keys())


@program(T([1.0, 2.0]))
def dict_iteration_order(x):
    d = {"z": 1, "a": 2, "m": 3}
    return tuple(d), x


@program(T([1.0, 2.0]))
def dict_with_tuple_keys(x):
    d = {(1, 2): x}
    return d[(1, 2)] + 1


@program(T([1.0, 2.0]))
def nested_dict(x):
    d = {"inner": {"v": x}}
    return d["inner"]["v"] * 3


@program(T([1.0, 2.0]))
def dict_clear_and_copy(x):
    d = {"a": x}
    e = d.copy()
    d.clear()
    return len(d), e["a"]


@program(T([1.0, 2.0]))
def string_methods(x):
    s = "Hello World"
    return s.lower(), s.upper(), s.split(" "), s.replace("l", "L"), s.startswith("He"), \
        s.find("o"), " pad ".strip(), x


@program(T([1.0, 2.0]))
def string_format_method(x):
    return "{} is {}".format("x", 3), "{a}-{b}".format(a=1, b="z"), "{:.2f}".format(2.3456), x


@program(T([1.0, 2.0]))
def string_percent_format(x):
    return "%d items, %s" % (3, "ok"), "%.1f" % 2.25, x


@program(T([1.0, 2.0]))
def f_strings_of_python_values(x):
    n, name = 3, "w"
    return f"{name}{n}", f"{n * 2:03d}", f"{2.5!r}", x


@program(T([1.0, 2.0]))
def f_string_of_tensor_shape(x):
    return f"shape={x.shape}, dtype ok={x.dtype == ms.float32}", x


@program(T([1.0, 2.0]))
def string_indexing_slicing_len(x):
    s = "abcdef"
    return s[0], s[-1], s[1:4], s[::-1], len(s), x


@program(T([1.0, 2.0]))
def string_join_and_in(x):
    return "-".join(["a", "b", "c"]), "bc" in "abcd", "z" not in "abc", x


@program(T([1.0, 2.0]))
def string_comparison(x):
    return "a" == "a", "a" != "b", "abc" < "abd", x


@program(T([1.0, 2.0]))
def string_condition_selects_branch(x):
    mode = "double"
    if mode == "double":
        return x * 2
    return x


@program(T([1.0, 2.0]))
def none_default_argument(x, y=None):
    if y is None:
        return x * 2
    return x + y


@program(T([1.0, 2.0]), T([3.0, 4.0]))
def none_default_argument_given(x, y=None):
    if y is None:
        return x * 2
    return x + y


@program(T([1.0, 2.0]))
def none_returned_and_compared(x):
    a = None
    return a, a is None, a == None, x  # noqa: E711


@program(T([1.0, 2.0]))
def function_returning_none(x):
    def nothing(v):
        v = v + 1
    return nothing(x), x


@program(T([1.0, 2.0]))
def numbers_int_float_bool(x):
    a, b, c = 1, 1.2, True
    return a + b, c + a, b * c, int(b), float(a), bool(a), x


@program(T([1.0, 2.0]))
def number_division_by_zero_is_an_error(x):
    return 1 / 0, x


@program(T([1.0, 2.0]))
def large_and_negative_numbers(x):
    return 2 ** 40, -2 ** 3, 10 ** -2, 1e300 * 10, x


@program(T([1.0, 2.0]))
def number_methods(x):
    return (2.5).is_integer(), (10).bit_length(), abs(-3.5), x
