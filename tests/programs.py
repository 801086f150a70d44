"""Control-flow programs in the style of MindSpore's own control-flow tests, shared by the
capture-mode tests. Each program is plain Python over tensorjit; ``CASES`` pairs it with
inputs that take different paths on different calls."""
import numpy as np

from tensorjit import Tensor, nn, ops


def t(*values):
    return Tensor(np.array(values, dtype=np.float32))


def while_on_tensor(x):
    while x.sum() < 20:
        x = x * 2 + 1
    return x


def if_inside_while(x):
    i = 0
    while x.sum() < 30:
        if x.max() > 4:
            x = x + 3
        else:
            x = x * 2
        i = i + 1
    return x * i


def while_inside_if(x):
    if x.mean() > 0:
        while x.sum() < 50:
            x = x * 3
    else:
        x = x - 1
    return x


def nested_while(x):
    out = x * 0
    i = 0
    while i < 3:
        y = x
        while y.sum() < 10 + i:
            y = y + 2
        out = out + y
        i += 1
    return out


def for_with_break_continue(x):
    total = x * 0
    for i in range(6):
        if i == 1:
            continue
        total = total + x * i
        if total.sum() > 25:
            break
    return total


def for_with_return(x):
    for i in range(5):
        x = x + i
        if x.sum() > 12:
            return x * 10
    return x


def elif_chain(x):
    s = x.sum()
    if s > 10:
        return x * 1
    elif s > 0:
        return x * 2
    elif s > -10:
        return x * 3
    else:
        return x * 4


def conditional_expression(x):
    y = x * 2 if x.sum() > 0 else x - 5
    return y + (1 if x.max() > 2 else 2)


def tuple_loop_state(x):
    a, b = x, x * 0
    while a.sum() > 1:
        a, b = a * 0.5, b + a
    return a, b


def early_return_in_while(x):
    while x.sum() < 100:
        x = x * 2
        if x.max() > 20:
            return x - 1
    return x


class GatedCells(nn.Cell):
    """A CellList loop whose body has a data-dependent if."""

    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(3, 3, weight_init="ones", bias_init="zeros")
                                   for _ in range(3)])

    def construct(self, x):
        for layer in self.layers:
            y = layer(x)
            if y.sum() > 0:
                x = y * 0.5
            else:
                x = y - 1
        return x


def celllist_gated(x, _cells=GatedCells()):
    return _cells(x)


CASES = [
    (while_on_tensor, [t(1, 2, 3), t(5, 6, 7), t(0.5, 0.5, 0.5)]),
    (if_inside_while, [t(1, 1, 1), t(5, 0, 0), t(0.2, 0.1, 0.3)]),
    (while_inside_if, [t(1, 2, 3), t(-1, -2, -3), t(4, 5, 6)]),
    (nested_while, [t(1, 1, 1), t(3, 3, 3), t(0, 0, 0.5)]),
    (for_with_break_continue, [t(1, 1, 1), t(3, 3, 3), t(0.1, 0.1, 0.1)]),
    (for_with_return, [t(1, 1, 1), t(5, 5, 5), t(-9, -9, -9)]),
    (elif_chain, [t(5, 5, 5), t(1, 1, 1), t(-2, -2, -2), t(-9, -9, -9)]),
    (conditional_expression, [t(1, 2, 3), t(-1, -2, -3), t(1, 1, 1)]),
    (tuple_loop_state, [t(4, 4, 4), t(0.1, 0.1, 0.1), t(16, 1, 1)]),
    (early_return_in_while, [t(1, 1, 1), t(0.5, 0.5, 0.5), t(30, 1, 1)]),
    (celllist_gated, [t(1, 1, 1), t(-1, -1, -1), t(-3, 1, 0.5)]),
]


def assert_same(result, expected):
    if isinstance(expected, (tuple, list)):
        assert isinstance(result, (tuple, list)) and len(result) == len(expected)
        for r, e in zip(result, expected):
            assert_same(r, e)
        return
    assert isinstance(result, Tensor), type(result)
    assert result.dtype == expected.dtype and tuple(result.shape) == tuple(expected.shape)
    np.testing.assert_allclose(result.asnumpy(), expected.asnumpy(), rtol=1e-6, atol=1e-6)
