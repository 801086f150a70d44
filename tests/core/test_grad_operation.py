"""``GradOperation``, ``MultitypeFuncGraph`` / ``HyperMap`` / ``Map`` and ``ops.functional``
as MindSpore scripts use them (``from mindspore.ops import composite as C, functional as F``).
The return structures are MindSpore 2.10's (tests/conformance checks them against its
recorded results); the values here are the analytic derivatives, computed with NumPy."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, Parameter, ParameterTuple, nn, ops
from tensorjit.ops import composite as C, functional as F

X = np.array([1.0, 2.0], np.float32)
Y = np.float32(3.0)
MODES = [None] + [(m, lv) for m in ("ast", "bytecode", "trace") for lv in ("O0", "O1")]


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0, 3.0], np.float32)), name="w")
        self.b = Parameter(Tensor(np.array(1.0, np.float32)), name="b")

    def construct(self, x, y):
        return (x * self.w * y).sum() + self.b


def _run(fn, mode, *args):
    if mode is None:
        return fn(*args)
    jitted = ms.jit(fn, capture_mode=mode[0], jit_level=mode[1])
    jitted(*args)
    return jitted(*args)


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert isinstance(got, Tensor), got
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-6)
    assert got.shape == np.shape(want)


def test_flags_choose_the_result_structure():
    net = Net()
    params = ParameterTuple(net.trainable_params())
    x, y = Tensor(X), Tensor(Y)
    w = np.array([2.0, 3.0], np.float32)
    dx, dy, dw, db = w * Y, (X * w).sum(), X * Y, np.float32(1.0)
    _same(C.GradOperation()(net)(x, y), dx)
    _same(C.GradOperation(get_all=True)(net)(x, y), (dx, dy))
    _same(C.GradOperation(get_by_list=True)(net, params)(x, y), (dw, db))
    _same(C.GradOperation(get_all=True, get_by_list=True)(net, params)(x, y),
          ((dx, dy), (dw, db)))
    _same(C.GradOperation(get_by_list=True)(net, net.w)(x, y), dw)       # one Parameter: bare
    _same(C.GradOperation(get_by_list=True)(net, [net.w])(x, y), (dw,))
    _same(C.GradOperation(get_by_list=True)(net)(x, y), (dw, db))        # the Cell's own
    sens = Tensor(np.array([1.0, 0.5], np.float32))
    f = lambda a, b: a * a * b                                              # noqa: E731
    _same(C.GradOperation(get_all=True, sens_param=True)(f)(x, y, sens),
          (2 * X * Y * sens.asnumpy(), (X * X * sens.asnumpy()).sum()))


def test_non_tensor_arguments_and_outputs():
    x = Tensor(X)
    assert C.GradOperation()(lambda n, a: a * n)(2, x) == ()
    _same(C.GradOperation(get_all=True)(lambda a, n: a * n)(x, 2), (np.full(2, 2.0),))
    _same(C.GradOperation()(lambda a: {"k": a * 2, "j": [a]})(x), np.full(2, 3.0))
    _same(C.GradOperation()(lambda a: a > 0)(x), np.zeros(2))            # bool output
    _same(C.GradOperation()(lambda a: 3)(x), np.zeros(2))
    grads = C.GradOperation(get_all=True)(lambda xs, z: xs[0] * xs[1] * z)([x, Tensor(Y)],
                                                                           Tensor(Y))
    assert isinstance(grads[0], list)                  # the argument's structure
    _same((tuple(grads[0]), grads[1]), ((np.full(2, 9.0), 9.0), 9.0))


def test_errors():
    with pytest.raises(TypeError, match="'get_all' should be bool"):
        C.GradOperation(get_all=1)
    with pytest.raises(TypeError, match="callable"):
        C.GradOperation()(3)
    f = C.GradOperation(sens_param=True)(lambda a: a * 2)
    with pytest.raises(ValueError, match=r"sensitivity has shape \(3,\)"):
        f(Tensor(X), Tensor(np.ones(3, np.float32)))


def _loop_fn(x, y):
    s = x * 0
    i = 0
    while i < 4:
        i += 1
        if i == 2:
            continue
        if (s.sum() > 20) and i > 2:
            break
        s = s + x * y * i
    for k in range(3):
        if k == 1:
            s = s * y
    return s.sum()


def _loop_reference(x, y):
    """d/dx and d/dy of _loop_fn by central differences in float64."""
    def value(a, b):
        s, i = a * 0, 0
        while i < 4:
            i += 1
            if i == 2:
                continue
            if s.sum() > 20 and i > 2:
                break
            s = s + a * b * i
        return float((s * b).sum())
    eps = 1e-6
    dx = np.array([(value(x + eps * e, y) - value(x - eps * e, y)) / (2 * eps)
                   for e in np.eye(2)])
    dy = (value(x, y + eps) - value(x, y - eps)) / (2 * eps)
    return dx, dy


@pytest.mark.parametrize("mode", MODES, ids=lambda m: "eager" if m is None else "-".join(m))
def test_through_control_flow_nested_and_in_cells_in_every_mode(mode):
    grad_all = C.GradOperation(get_all=True)

    def first_order(x, y):
        return grad_all(_loop_fn)(x, y)

    for xv, yv in ((X, Y), (X * 4, np.float32(2.0))):
        dx, dy = _loop_reference(xv.astype(np.float64), float(yv))
        got = _run(first_order, mode, Tensor(xv), Tensor(yv))
        np.testing.assert_allclose(got[0].asnumpy(), dx, rtol=1e-4)
        np.testing.assert_allclose(got[1].asnumpy(), dy, rtol=1e-4)

    inner = C.GradOperation()

    def second_order(y):                 # d2/dy2 of y**3 = 6 y
        return C.GradOperation()(inner(lambda v: v * v * v))(y)
    _same(_run(second_order, mode, Tensor(Y)), np.float32(6 * Y))

    class Trainer(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.params = ParameterTuple(net.trainable_params())
            self.grad = C.GradOperation(get_all=True, get_by_list=True)

        def construct(self, x, y):
            return self.grad(self.net, self.params)(x, y)

    trainer = Trainer(Net())
    w = np.array([2.0, 3.0], np.float32)
    _same(_run(lambda a, b: trainer(a, b), mode, Tensor(X), Tensor(Y)),
          ((w * Y, (X * w).sum()), (X * Y, np.float32(1.0))))


@pytest.mark.parametrize("mode", MODES, ids=lambda m: "eager" if m is None else "-".join(m))
def test_integer_and_bool_inputs_in_every_mode(mode):
    # MindSpore 2.10: grad(lambda x, y: x * y + x, grad_position=(0, 1)) at int32 (3, 5)
    # is int32 (6, 3); an int64 input gets int64; a bool input gets True where non-zero
    def f(x, y):
        return ms.grad(lambda a, b: a * b + a, grad_position=(0, 1))(x, y)
    for dtype in (np.int32, np.int64):
        got = _run(f, mode, Tensor(dtype(3)), Tensor(dtype(5)))
        assert [g.dtype for g in got] == [np.dtype(dtype)] * 2
        assert [int(g) for g in got] == [6, 3]

    def g(b, v):
        return C.GradOperation(get_all=True)(lambda p, q: p * q)(b, v)
    got = _run(g, mode, Tensor(np.array([True, False])), Tensor(np.array([2, 0], np.int32)))
    assert got[0].dtype == np.bool_ and got[0].asnumpy().tolist() == [True, False]
    assert got[1].dtype == np.int32 and got[1].asnumpy().tolist() == [1, 0]


def test_multitype_func_graph_hypermap_and_map():
    scale = C.MultitypeFuncGraph("scale")

    @scale.register("Number", "Tensor")
    def _number(s, t):
        return t * s

    @scale.register("Tensor", "Tensor")
    def _tensor(s, t):
        return t * s * 10

    grads = (Tensor(X), (Tensor(Y), Tensor(X)))
    out = C.HyperMap()(F.partial(scale, 0.5), grads)
    _same(out, (X * 0.5, (np.float32(Y * 0.5), X * 0.5)))
    out = C.HyperMap(scale)((2, Tensor(Y)), (Tensor(X), Tensor(Y)))
    _same(out, (X * 2, np.float32(Y * Y * 10)))
    with pytest.raises(ValueError, match="cannot find fn match"):
        scale("a", Tensor(X))
    with pytest.raises(ValueError, match="different lengths"):
        C.HyperMap(scale)((1, 2), (Tensor(X),))
    assert C.Map()(lambda a: a + 1, (1, 2)) == (2, 3)
    assert C.Map()(lambda a: len(a), ((1, 2), (3,))) == (2, 1)     # one level deep


def test_functional_module_names():
    p = Parameter(Tensor(np.array([1.0, 2.0], np.float32)), name="p")
    F.assign_add(p, Tensor(np.array([1.0, 1.0], np.float32)))
    F.assign_sub(p, Tensor(np.array([0.5, 0.5], np.float32)))
    np.testing.assert_allclose(p.asnumpy(), [1.5, 2.5])
    assert F.tuple_len((1, 2, 3)) == 3 and F.dtype(p) == ms.float32
    assert F.partial(ops.add, 1)(2) == 3 and F.grad is ms.grad
    assert F.depend(p, 1) is p and F.make_tuple(1, 2) == (1, 2)
