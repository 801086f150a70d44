"""``ops.Custom`` (pyfunc, hybrid, aot), ``ops.kernel``, ``CustomRegOp`` / ``DataType`` /
``custom_info_register`` against NumPy and MindSpore 2.10's behaviour (checked with its
interpreter): values eagerly and in every capture mode x level x backend, one opaque graph
node, gradients through ``bprop`` against finite differences, the errors and their types."""
import os
import shutil
import subprocess
import warnings

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import Tensor, ops
from tensorjit.ops import hybrid as hybrid_module
from tensorjit.tools.fuzz.programs import CONFIGS, config_label

RNG = np.random.default_rng(36)


def arr(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


def sin_mul(a, b):
    return a * np.sin(b)


def sin_mul_bprop(a, b, out, dout):
    return dout * ops.sin(b), dout * a * ops.cos(b)


SIN_MUL = ops.Custom(sin_mul, lambda s, t: s, lambda d, e: d, "pyfunc", bprop=sin_mul_bprop)


@ops.kernel
def row_softplus(a, w):
    out = output_tensor(a.shape, a.dtype)
    for i in parallel(a.shape[0]):
        for j in vectorize(a.shape[1]):
            out[i, j] = log(1.0 + exp(a[i, j])) * w[j]
    return out


def softplus_bprop(a, w, out, dout):
    sig = ops.sigmoid(a)
    return dout * sig * w, (dout * ops.log(1 + ops.exp(a))).sum(0)


SOFTPLUS = ops.Custom(row_softplus, func_type="hybrid", bprop=softplus_bprop)


def softplus_ref(a, w):
    return np.log1p(np.exp(a.astype(np.float64))) * w


def program(a, b, w):
    return SIN_MUL(a, b) * 2 + SOFTPLUS(a, w)


def program_ref(a, b, w):
    return 2 * a.astype(np.float64) * np.sin(b) + softplus_ref(a, w)


# ---- pyfunc ---------------------------------------------------------------------------------

def test_pyfunc_values_outputs_and_python_arguments():
    a, b = arr(2, 3), arr(2, 3)
    np.testing.assert_allclose(SIN_MUL(Tensor(a), Tensor(b)).asnumpy(), a * np.sin(b))
    two = ops.Custom(lambda x: (x + 1, (x * 2).astype(np.int32)), lambda s: (s, s),
                     lambda d: (d, ms.int32), "pyfunc")
    y, z = two(Tensor(a))
    assert y.dtype == ms.float32 and z.dtype == ms.int32
    np.testing.assert_array_equal(z.asnumpy(), (a * 2).astype(np.int32))
    # a Python number reaches the function as it is; out_shape sees [] for it (MindSpore's)
    seen = []
    scaled = ops.Custom(lambda x, k: x * np.float32(k), lambda s, k: seen.append(k) or s,
                        lambda d, k: d, "pyfunc")
    np.testing.assert_allclose(scaled(Tensor(a), 3.0).asnumpy(), a * 3)
    assert seen == [[]]
    fixed = ops.Custom(lambda x: (np.ones(4, np.int32), np.zeros((2, 2), np.float32)),
                       ((4,), [2, 2]), (ms.int32, ms.float32), "pyfunc")
    assert [t.shape for t in fixed(Tensor(a))] == [(4,), (2, 2)]
    # out_shape () is MindSpore's placeholder (1,); [] is a 0-d result
    with pytest.warns(RuntimeWarning, match="empty tuple"):
        assert ops.Custom(lambda x: x.sum(), (), ms.float32)(Tensor(a)).shape == (1,)
    assert ops.Custom(lambda x: 3.0, lambda s: [], lambda d: ms.float32)(Tensor(a)).shape == ()


def test_pyfunc_gets_copies_and_results_are_fresh():
    a = arr(3)
    keep = a.copy()
    op = ops.Custom(lambda x: x.__iadd__(1), lambda s: s, lambda d: d, "pyfunc")
    x = Tensor(a)
    y = op(x)
    np.testing.assert_array_equal(x.asnumpy(), keep)        # the input tensor is untouched
    np.testing.assert_array_equal(y.asnumpy(), keep + 1)
    table = np.arange(3, dtype=np.float32)
    const = ops.Custom(lambda x: table, lambda s: s, lambda d: d, "pyfunc")
    out = ms.jit(lambda t: const(t) * 1 + 0, jit_level="O1")(x)     # buffer reuse may write
    np.testing.assert_array_equal(table, np.arange(3))               # ... never into `table`
    np.testing.assert_array_equal(out.asnumpy(), table)


@pytest.mark.parametrize("config", CONFIGS, ids=[config_label(c) for c in CONFIGS])
def test_every_mode_level_backend_forward_and_grad(config):
    a, b, w = arr(3, 4, dtype=np.float64), arr(3, 4, dtype=np.float64), arr(4, dtype=np.float64)
    out = ms.jit(program, fullgraph=True, **config)       # one graph: no Python fallback
    for _ in range(3):
        np.testing.assert_allclose(out(Tensor(a), Tensor(b), Tensor(w)).asnumpy(),
                                   program_ref(a, b, w), rtol=1e-12)
    grads = ms.jit(ms.grad(lambda *xs: program(*xs).sum(), grad_position=(0, 1, 2)),
                   fullgraph=True, **config)
    expected = [np.cos(0) * 0 + 2 * np.sin(b) + 1 / (1 + np.exp(-a)) * w,
                2 * a * np.cos(b), np.log1p(np.exp(a)).sum(0)]
    for got, want in zip(grads(Tensor(a), Tensor(b), Tensor(w)), expected):
        np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-10)


def around_softplus(x, v):
    return ops.exp(SOFTPLUS(x, v) + 1) * 2 - x * x


def test_one_opaque_node_at_every_level():
    a, w = Tensor(arr(64, 128)), Tensor(arr(128))
    for level in ("O0", "O1"):
        lowered = ms.jit(around_softplus, jit_level=level).lower(a, w)
        text = lowered.as_text()
        assert text.count("custom[") == 1, text
        assert level == "O0" or "fused" in text       # its neighbours fuse, it does not
    ir = str(ms.make_ir(lambda x, v: SOFTPLUS(x, v) * 2)(a, w))
    assert "custom[op=Custom[hybrid](row_softplus)" in ir


def test_gradients_against_finite_differences():
    a, b = arr(2, 3, dtype=np.float64), arr(2, 3, dtype=np.float64)
    ct = arr(2, 3, dtype=np.float64)

    def loss(x, y):
        return (SIN_MUL(x, y) * Tensor(ct)).sum()
    value, (ga, gb) = ms.value_and_grad(loss, grad_position=(0, 1))(Tensor(a), Tensor(b))
    eps = 1e-6
    for grad, position in ((ga, 0), (gb, 1)):
        numeric = np.zeros_like(a)
        for index in np.ndindex(a.shape):
            args = [a.copy(), b.copy()]
            args[position][index] += eps
            up = (sin_mul(*args) * ct).sum()
            args[position][index] -= 2 * eps
            numeric[index] = (up - (sin_mul(*args) * ct).sum()) / (2 * eps)
        np.testing.assert_allclose(grad.asnumpy(), numeric, rtol=1e-7, atol=1e-8)
    assert abs(value.asnumpy() - (sin_mul(a, b) * ct).sum()) < 1e-12


def test_mindspore_bprop_conventions():
    """A single input's bprop may return a bare gradient; several outputs give tuples."""
    square = ops.Custom(lambda x: x * x, lambda s: s, lambda d: d,
                        bprop=lambda x, out, dout: 2 * x * dout)
    x = np.array([1.0, 4.0, 9.0], np.float32)
    np.testing.assert_allclose(ms.grad(lambda t: square(t).sum())(Tensor(x)).asnumpy(), 2 * x)

    def bprop(a, b, out, dout):
        assert isinstance(out, tuple) and isinstance(dout, tuple)
        return dout[0] * b + dout[1], dout[0] * a + dout[1]
    pair = ops.Custom(lambda a, b: (a * b, a + b), lambda s, t: (s, s), lambda d, e: (d, d),
                      bprop=bprop)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    ga, gb = ms.grad(lambda p, q: pair(p, q)[0].sum() + 2 * pair(p, q)[1].sum(),
                     grad_position=(0, 1))(Tensor(a), Tensor(a + 1))
    np.testing.assert_allclose(ga.asnumpy(), a + 3)
    np.testing.assert_allclose(gb.asnumpy(), a + 2)


# ---- errors -------------------------------------------------------------------------------

def _everywhere(fn, *args):
    yield lambda: fn(*args)
    for mode in ("ast", "trace", "bytecode"):
        yield lambda mode=mode: ms.jit(fn, capture_mode=mode)(*args)


def _plus_one(op):
    def run(t):
        return op(t) + 1
    return run


def test_no_bprop_and_bad_results_are_clear_errors():
    x = Tensor(arr(2, 3))
    plain = ops.Custom(sin_mul, lambda s, t: s, lambda d, e: d)
    for run in _everywhere(ms.grad(lambda t: plain(t, t).sum()), x):
        with pytest.raises(RuntimeError, match="Illegal primitive Custom's bprop not defined"):
            run()
    flat = ops.Custom(lambda a: a.reshape(-1), lambda s: s, lambda d: d)
    wide = ops.Custom(lambda a: a.astype(np.float64), lambda s: s, lambda d: d)
    many = ops.Custom(lambda a: (a, a), lambda s: s, lambda d: d)
    for op, match in ((flat, r"Custom\[pyfunc\]\(<lambda>\): output 0 .* shape \(6,\), but "
                             r"out_shape says \(2, 3\)"),
                      (wide, "dtype float64, but out_dtype says float32"),
                      (many, "returned 2 outputs, but out_shape / out_dtype declare 1")):
        for run in _everywhere(_plus_one(op), x):
            with pytest.raises(RuntimeError, match=match):
                run()


def test_construction_and_call_errors_follow_mindspore():
    x = Tensor(arr(2))
    with pytest.raises(ValueError, match=r"'func_type' must be one of \['hybrid', 'akg', "
                                         r"'tbe', 'aicpu', 'aot', 'pyfunc'\], but got foo"):
        ops.Custom(sin_mul, func_type="foo")
    with pytest.raises(TypeError, match="'func' must be of type function or str"):
        ops.Custom(3)
    with pytest.raises(TypeError, match="'func' must be a function decorated by kernel"):
        ops.Custom(sin_mul, func_type="hybrid")
    with pytest.raises(ValueError, match="registration information must be set"):
        ops.Custom(sin_mul, func_type="aicpu")
    with pytest.raises(TypeError, match="'out_shape' must be one of"):
        ops.Custom(lambda a: a)(x)                    # pyfunc needs out_shape (as 2.10)
    with pytest.raises(TypeError, match=r"'out_dtype' must be one of \[mindspore.dtype"):
        ops.Custom(lambda a: a, lambda s: s, "float32")(x)
    for kind, needs in (("akg", "AKG"), ("tbe", "TBE")):
        op = ops.Custom(lambda a: a, lambda s: s, lambda d: d, func_type=kind)
        with pytest.raises(RuntimeError, match=f"needs .*{needs}.*'pyfunc', 'hybrid', 'aot'"):
            op(x)
    with pytest.raises(TypeError, match="'func' should be like 'file_name:func_name'"):
        ops.Custom("add.so", (2,), ms.float32, "aot")


# ---- hybrid ---------------------------------------------------------------------------------

def test_hybrid_infers_shape_and_dtype_and_runs_natively():
    a, w = arr(5, 6), arr(6)
    out = SOFTPLUS(Tensor(a), Tensor(w))
    assert out.shape == (5, 6) and out.dtype == ms.float32
    np.testing.assert_allclose(out.asnumpy(), softplus_ref(a, w), rtol=3e-6, atol=1e-6)
    natives = row_softplus.hybrid.natives()
    assert any(native is not None for native in natives.values()) or \
        not ms.backend.numba.numba_available()
    # called directly, the decorated function is the DSL run in Python on ndarrays
    np.testing.assert_allclose(row_softplus(a, w), out.asnumpy(), rtol=1e-6)


@ops.kernel
def forward_substitution(a, b):
    for i in serial(a.shape[0]):
        for j in serial(i):
            b[i] = b[i] - a[i, j] * b[j]
    return b


@ops.kernel
def grid_sum(a, b):
    c = output_tensor((a.shape[0],), "float64")
    t = output_tensor((1,), a.dtype)
    s = allocate((1,), a.dtype)
    with block_realize(c):
        for i in range(a.shape[0]):
            c[i] = 0.0
        for arg in grid(a.shape):
            s[0] = a[arg] * b[arg[1]]
            t[0] = s[0]
            c[arg[0]] = c[arg[0]] + float64(t[0]) + ceil_div(arg[1] + 1, 2) * 0
    return c, t


def test_hybrid_in_place_outputs_grid_and_several_outputs():
    a = np.tril(arr(4, 4)) + 3 * np.eye(4, dtype=np.float32)
    b = np.ones(4, np.float32)
    solved = ops.Custom(forward_substitution, func_type="hybrid")(Tensor(a), Tensor(b))
    expect = b.copy()
    for i in range(4):
        expect[i] -= a[i, :i] @ expect[:i]
    np.testing.assert_allclose(solved.asnumpy(), expect, rtol=1e-5)
    np.testing.assert_array_equal(b, np.ones(4))         # the input was not written
    c, t = ops.Custom(grid_sum, func_type="hybrid")(Tensor(a), Tensor(b))
    assert c.dtype == ms.float64 and t.shape == (1,) and t.dtype == ms.float32
    np.testing.assert_allclose(c.asnumpy(), (a * b).sum(1), rtol=1e-6)


def test_hybrid_without_numba_runs_as_python(monkeypatch):
    @ops.kernel
    def doubled(a):
        out = output_tensor(a.shape, a.dtype)
        for i in range(a.shape[0]):
            out[i] = a[i] * 2.0
        return out
    monkeypatch.setattr(hybrid_module, "_native", [])
    hybrid_module._warned.clear()
    with pytest.warns(RuntimeWarning, match="'doubled' runs as Python"):
        out = ops.Custom(doubled, func_type="hybrid")(Tensor(np.arange(3.0)))
    np.testing.assert_array_equal(out.asnumpy(), [0.0, 2.0, 4.0])
    half = np.arange(3, dtype=np.float16)
    monkeypatch.undo()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")           # float16: Numba does not compile it
        out = ops.Custom(doubled, func_type="hybrid")(Tensor(half))
    assert out.dtype == ms.float16
    np.testing.assert_array_equal(out.asnumpy(), half * 2)


def test_hybrid_dsl_checks_follow_mindspore(tmp_path):
    cases = {
        "while": ("def f(a):\n    c = output_tensor(a.shape, a.dtype)\n    while True:\n"
                  "        pass\n    return c\n", TypeError, "Keyword 'while' not accepted"),
        "call": ("def f(a):\n    c = output_tensor(a.shape, a.dtype)\n    c[0] = foo(a[0])\n"
                 "    return c\n", ValueError, r"function call id \[foo\] not in intrinsics"),
        "attr": ("def f(a):\n    c = output_tensor(a.shape, a.dtype)\n    c[0] = a.size\n"
                 "    return c\n", ValueError, "has no attribute called size"),
        "unreturned": ("def f(a):\n    c = output_tensor(a.shape, a.dtype)\n"
                       "    d = output_tensor(a.shape, a.dtype)\n    return c\n", TypeError,
                       "allocated as an output tensor but not in the return value: d"),
        "undeclared": ("def f(a):\n    c = output_tensor(a.shape, a.dtype)\n    c[0] = z\n"
                       "    return c\n", ValueError, "undeclared variable: z"),
    }
    for name, (source, exc, match) in cases.items():
        path = tmp_path / f"dsl_{name}.py"
        path.write_text(source)
        namespace = {"__file__": str(path)}
        exec(compile(source, str(path), "exec"), namespace)
        with pytest.raises(exc, match=match):
            ops.Custom(ops.kernel(namespace["f"]), func_type="hybrid")
    # without source (exec, a REPL) the function runs as Python; a hybrid op needs source
    namespace = {}
    exec("def g(a):\n    c = output_tensor(a.shape, a.dtype)\n    with block_realize(c):\n"
         "        for i in parallel(a.shape[0]):\n            c[i] = sqrt(a[i]) + 1.0\n"
         "    return c\n", namespace)
    g = ops.kernel(namespace["g"])
    np.testing.assert_allclose(g(np.arange(4.0)), np.sqrt(np.arange(4.0)) + 1)
    pyfunc = ops.Custom(g, lambda s: s, lambda d: d)
    np.testing.assert_allclose(pyfunc(Tensor(np.ones(2))).asnumpy(), [2.0, 2.0])
    with pytest.raises(OSError, match="source of 'g', which is not available"):
        ops.Custom(g, func_type="hybrid")
    with pytest.warns(DeprecationWarning, match="'ms_kernel' is deprecated"):
        assert ops.ms_kernel(sin_mul).ms_kernel_flag


# ---- aot ------------------------------------------------------------------------------------

AOT_SOURCE = r"""
#include <string.h>
#include <stdint.h>
extern "C" int CustomAdd(int nparam, void **params, int *ndims, int64_t **shapes,
                         const char **dtypes, void *stream, void *extra) {
  if (nparam != 3) return 1;
  for (int i = 0; i < nparam; i++) if (strcmp(dtypes[i], "float32") != 0) return 2;
  float *x = (float *)params[0], *y = (float *)params[1], *out = (float *)params[2];
  int64_t size = 1;
  for (int i = 0; i < ndims[2]; i++) size *= shapes[2][i];
  for (int64_t i = 0; i < size; i++) out[i] = x[i] + y[i];
  return 0;
}
"""


@pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
def test_aot_calls_a_compiled_function(tmp_path):
    source = tmp_path / "add.cc"
    source.write_text(AOT_SOURCE)
    library = tmp_path / "add.so"
    subprocess.run(["g++", "--shared", "-fPIC", "-o", str(library), str(source)], check=True)
    x0 = np.array([[0.0, 0.0], [1.0, 1.0]], np.float32)
    x1 = np.array([[2.0, 2.0], [3.0, 3.0]], np.float32)
    for spec in (f"{library}:CustomAdd", f"{source}:CustomAdd"):     # a library, a source
        op = ops.Custom(spec, out_shape=lambda x, _: x, out_dtype=lambda x, _: x,
                        func_type="aot")
        np.testing.assert_array_equal(op(Tensor(x0), Tensor(x1)).asnumpy(), x0 + x1)
        jitted = ms.jit(lambda a, b: op(a, b) * 2, jit_level="O1")
        np.testing.assert_array_equal(jitted(Tensor(x0), Tensor(x1)).asnumpy(), 2 * (x0 + x1))
    with pytest.raises(RuntimeError, match="returned 2"):
        op(Tensor(x0.astype(np.float64)), Tensor(x1.astype(np.float64)))
    with pytest.raises(RuntimeError, match="couldn't find the AOT binary file"):
        ops.Custom(f"{tmp_path}/missing.so:f", lambda x: x, lambda x: x, "aot")(Tensor(x0))
    with pytest.raises(RuntimeError, match="cannot load the function 'Nope'"):
        ops.Custom(f"{library}:Nope", lambda x: x, lambda x: x, "aot")(Tensor(x0))
    assert os.path.exists(library)


# ---- registration information -------------------------------------------------------------

def test_reg_info_builders_give_mindspores_dicts():
    info = (ops.CustomRegOp().input(0, "x", "dynamic").output(0, "y")
            .dtype_format(ops.DataType.F16_Default, ops.DataType.F16_Default)
            .dtype_format(ops.DataType.F32_Default, ops.DataType.F32_Default)
            .attr("axis", "required", "int", "1").target("Ascend").get_op_info())
    assert info == {  # MindSpore 2.10's get_op_info() of the same calls
        "op_name": "Custom", "inputs": [{"index": 0, "name": "x", "paramType": "dynamic"}],
        "outputs": [{"index": 0, "name": "y", "paramType": "required"}],
        "attr": [{"name": "axis", "paramType": "required", "type": "int",
                  "defaultValue": "1"}],
        "fusion_type": "", "dtype_format": [
            (("float16", "DefaultFormat"), ("float16", "DefaultFormat")),
            (("float32", "DefaultFormat"), ("float32", "DefaultFormat"))],
        "target": "Ascend"}
    assert ops.DataType.I32_None == ("int32", "") and ops.DataType.BOOL_5HD == ("bool", "NC1HWC0")
    assert ops.DataType.F32_Default_List == ("float32", "DefaultFormat", "list")
    assert len([k for k in vars(ops.DataType) if not k.startswith("_")]) == 204
    with pytest.raises(ValueError, match="must be equal to the sum of input tensors and "
                                         "output tensors, but got 2 vs 1"):
        ops.CustomRegOp().input(0, "x").dtype_format(ops.DataType.F32_None,
                                                     ops.DataType.F32_None)
    with pytest.raises(TypeError, match="0 value must be int"):
        ops.CustomRegOp().input("0", "x")

    @ops.custom_info_register(info)
    def double(x):
        return x * 2
    assert double.reg_info == (info,)
    op = ops.Custom(double, lambda s: s, lambda d: d)
    assert op.reg_info == (info,)
    np.testing.assert_array_equal(op(Tensor(np.ones(2, np.float32))).asnumpy(), [2, 2])
