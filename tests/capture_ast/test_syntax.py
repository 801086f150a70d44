"""The static-graph syntax of ast mode: Python values resolved at compile time (and
guarded), containers, subscripts, calls converted recursively, print and f-strings,
assert, lambdas, nested jit and grad transforms."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, nn

from .helpers import t, close, compiles

SCALE = 2.0


def scaled(x):
    return x * SCALE


def test_changed_global_recompiles():
    global SCALE
    jitted = ms.jit(scaled)
    close(jitted(t(1, 2)), t(2, 4))
    close(jitted(t(1, 2)), t(2, 4))
    SCALE = 3.0
    try:
        close(jitted(t(1, 2)), t(3, 6))
        assert compiles(jitted) == 2
        assert "global 'SCALE'" in jitted._tj_jit.events[1].reason
        assert "global 'SCALE'" in str(ms.explain(jitted)(t(1, 2)))
    finally:
        SCALE = 2.0


def helper_with_tensor_if(x, k):
    if x.sum() > 0:
        return x * k
    return x - k


class Affine:
    def __init__(self, w):
        self.w = w

    def apply(self, x):
        return helper_with_tensor_if(x, self.w)

    def __call__(self, x):
        y = x + self.w if x.max() > 1 else x
        return y


def test_called_functions_methods_and_callables_are_converted():
    affine = Affine(10.0)

    def program(x):
        a = affine.apply(x)              # method -> function, both with tensor ifs
        b = affine(x)                    # __call__ of a user object
        return a + b

    jitted = ms.jit(program, fullgraph=True)
    for x in (t(1, 2), t(-3, 1), t(0.5, 0.1)):
        close(jitted(x), program(x))
    assert compiles(jitted) == 1


def test_closures_nested_functions_and_lambdas():
    offset = 5.0

    def program(x):
        def inner(v):
            if v.sum() > offset:
                return v - offset
            return v + offset
        pick = lambda v: v * 2 if v.mean() > 0 else -v
        return inner(x), pick(x)

    jitted = ms.jit(program, fullgraph=True)
    for x in (t(1, 2), t(4, 9), t(-1, -2)):
        close(jitted(x), program(x))
    assert compiles(jitted) == 1


def test_containers_subscripts_unpacking_and_augmented_assignment():
    def program(x, pair, table):
        a, b = pair
        n = len(pair)
        assert n == 2, "pair must have two tensors"
        if isinstance(a, Tensor):
            c = a + b
        d = {"k": c, "n": n}
        d["k"] += table["w"]
        x[0] = 5.0                          # setitem on an input: written back
        z = x[1:] * d["k"][:2]
        items = [z, z * 2]
        first, *rest = items
        return first + rest[0], d["n"], (n, "done")

    pair = (t(1, 1, 1), t(2, 2, 2))
    table = {"w": t(10, 10, 10)}
    jitted = ms.jit(program, fullgraph=True)
    x_jit, x_eager = t(1, 2, 3), t(1, 2, 3)
    close(jitted(x_jit, pair, table), program(x_eager, pair, table))
    close(x_jit, x_eager)
    assert x_jit.asnumpy()[0] == 5.0


def test_assert_on_constants_and_fstrings_of_constants():
    def program(x, name):
        assert x.ndim == 1, f"expected a vector, got {x.ndim} dims"
        label = f"{name}-{x.shape[0]}"
        return x * len(label)

    jitted = ms.jit(program, static_argnums=1)
    close(jitted(t(1, 2), "ab"), t(4, 8))
    with pytest.raises(AssertionError, match="expected a vector, got 2 dims"):
        jitted(Tensor(np.ones((2, 2), np.float32)), "ab")


def test_print_and_fstrings_of_graph_values_run_every_call(capsys):
    def program(x):
        y = x * 2
        print("y:", y, "sum", y.sum())
        print(f"max={y.max()} shape={y.shape}")
        return y

    jitted = ms.jit(program)
    jitted(t(1, 2))
    jitted(t(3, 4))
    # what eager prints: a 0-d tensor shows as NumPy shows it ("6.")
    expected = ["y: [2. 4.] sum 6.", "max=4. shape=(2,)", "y: [6. 8.] sum 14.",
                "max=8. shape=(2,)"]
    assert capsys.readouterr().out.splitlines() == expected
    program(t(1, 2))
    program(t(3, 4))
    assert capsys.readouterr().out.splitlines() == expected
    assert compiles(jitted) == 1


def test_bytecode_jitted_function_inside_ast_is_inlined_as_plain_code():
    @ms.jit(capture_mode="bytecode")
    def helper(x):
        if x.sum() > 0:                 # tensor control flow: converted in the ast graph
            return x * 3
        return x

    def program(x):
        return helper(x) + 1

    jitted = ms.jit(program, fullgraph=True)
    for x in (t(1, 2), t(-1, -2)):
        close(jitted(x), program(x))
    names = jitted.lower(t(1, 2)).graph.primitive_names()
    assert "cond" in names and "call" not in names


def test_varargs_keyword_only_and_defaults():
    def program(*xs, scale=2.0, shift=None):
        total = xs[0]
        for x in xs[1:]:
            total = total + x
        if shift is not None:
            total = total + shift
        return total * scale

    jitted = ms.jit(program)
    close(jitted(t(1), t(2), t(3)), t(12))
    close(jitted(t(1), t(2), scale=1.0, shift=t(4)), t(7))


def test_super_and_cell_methods_in_construct():
    class Base(nn.Cell):
        def construct(self, x):
            return x * 2

        def bonus(self, x):
            return x + 1 if x.sum() > 0 else x - 1

    class Child(Base):
        def construct(self, x):
            y = super().construct(x)
            return self.bonus(y)

    net = Child()
    jitted = ms.jit(net, fullgraph=True)
    for x in (t(1, 2), t(-1, -2)):
        close(jitted(x), net(x))
    assert compiles(jitted) == 1
