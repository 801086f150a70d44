"""The primitive registry holds every fact each layer needs, and each fact is right.

For every registered primitive: its aliasing is declared; an elementwise primitive has a
scalar rule for fused kernels or a stated reason; each scalar rule, compiled into a real
native kernel, computes what the primitive's NumPy kernel computes (NaN, +-inf and signed
zeros included); an elementwise primitive whose rule needs no scalar libm call fuses
through the O1 pipeline and is visible in the IR; a decomposition computes the primitive.
Input samples come from the gradient table (tests/core/test_vjp_registry.py), so a new
primitive needs only its entry there to be checked here too.
"""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import ops
from tensorjit.ops import scalar
from tensorjit.ops.primitive import PRIMITIVES, ALIASING
from tensorjit.backend import numba as native
from tensorjit.backend.numba import kernel as native_kernel
from tensorjit.backend.numba.scalars import SCALAR_BINDINGS, EXACT_CALLS, slow_calls
from tensorjit.passes import fusion
from tensorjit.passes.decompose import decompose

from core.test_vjp_registry import SAMPLES

ELEMENTWISE = sorted(n for n, p in PRIMITIVES.items() if p.elementwise)
WITH_SCALAR = [n for n in ELEMENTWISE if PRIMITIVES[n].scalar is not None]
DECOMPOSABLE = sorted(n for n, p in PRIMITIVES.items() if p.decompose is not None)
SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40, -3e38]
needs_numba = pytest.mark.skipif(not native.numba_available(), reason="needs Numba")


def test_every_primitive_declares_its_aliasing():
    missing = sorted(n for n, p in PRIMITIVES.items() if p.aliasing not in ALIASING)
    assert not missing, f"declare aliasing= ({ALIASING}) for {missing}"


def test_every_elementwise_primitive_has_a_scalar_rule_or_a_reason():
    missing = [n for n in ELEMENTWISE
               if PRIMITIVES[n].scalar is None and not PRIMITIVES[n].no_scalar]
    assert not missing, f"give scalar= or no_scalar='why' to {missing}"
    stray = sorted(n for n, p in PRIMITIVES.items() if not p.elementwise and p.scalar)
    assert not stray, f"scalar rules on non-elementwise primitives: {stray}"


def test_the_native_backend_binds_every_scalar_name():
    assert set(SCALAR_BINDINGS) == set(scalar.NAMES)
    assert EXACT_CALLS <= set(scalar.FUNCTIONS)


def _sample_arrays(name, dtype):
    """The primitive's first gradient-table sample, floats in ``dtype``."""
    rng = np.random.default_rng(len(name))
    case = SAMPLES[name][0]
    arrays = [np.asarray(a) for a in case.make(rng)]
    arrays = [a.astype(dtype) if a.dtype.kind == "f" else a for a in arrays]
    return arrays, case.params


def _with_specials(arrays):
    """The same arrays with NaN, +-inf, +-0, a subnormal and a huge value written in
    (rotated per operand, so binary ops meet different pairs)."""
    out = []
    for k, a in enumerate(arrays):
        if a.dtype.kind == "f" and a.size:
            a = a.copy()
            flat = a.reshape(-1)
            for i, v in enumerate(np.roll(SPECIALS, k)[:flat.size]):
                flat[i] = v
        out.append(a)
    return out


def _one_node_graph(prim, arrays, params):
    tensors = [ms.Tensor(a) for a in arrays]
    return ms.make_ir(lambda *xs: prim.bind(*xs, **params))(*tensors)


def _same(actual, expected, exact):
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    if expected.dtype.kind != "f":
        np.testing.assert_array_equal(actual, expected)
        return
    np.testing.assert_array_equal(np.isnan(actual), np.isnan(expected))
    finite = ~np.isnan(expected)
    if exact:     # bit for bit, signed zeros included
        np.testing.assert_array_equal(np.signbit(actual[finite]), np.signbit(expected[finite]))
        np.testing.assert_array_equal(actual[finite], expected[finite])
    else:         # approximations (scalar_math, libm): a few ulp of NumPy, or of the
        # result's scale where a formula cancels (1 + erf(x) for very negative x)
        tol = 4e-6 if expected.dtype == np.float32 else 1e-13
        values = expected[finite]
        scale = np.abs(values[np.isfinite(values)]).max(initial=0.0)
        np.testing.assert_allclose(actual[finite], values, rtol=tol, atol=tol * scale)


@needs_numba
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", WITH_SCALAR)
def test_scalar_rule_in_a_native_kernel_equals_the_numpy_kernel(name, dtype):
    prim = PRIMITIVES[name]
    arrays, params = _sample_arrays(name, dtype)
    graph = _one_node_graph(prim, arrays, params)
    node = graph.nodes[0]
    operands = [f"x{i}" for i in range(len(node.inputs))]
    expr = scalar.expression(prim, operands, node.outputs[0].aval.dtype,
                             [v.aval.dtype for v in node.inputs], params)
    if expr is None:
        pytest.skip(f"{name} has no scalar rule for these dtypes")
    assert scalar.names(expr) <= set(operands) | scalar.NAMES, expr
    run = native_kernel.build(graph)
    assert run.native is not None, f"{name}: the kernel did not compile natively"
    exact = scalar.calls(expr) <= EXACT_CALLS
    for inputs in (arrays, _with_specials(arrays)):
        with np.errstate(all="ignore"):
            expected = prim.impl(*inputs, **params)
        (actual,) = run(*inputs)
        _same(actual, expected, exact)


def _post(x):
    """A second fusible op after the primitive, so the group has two nodes."""
    return ops.logical_not(x) if x.dtype == ms.bool_ else ops.neg(x)


@needs_numba
@pytest.mark.parametrize("name", WITH_SCALAR)
def test_elementwise_primitive_fuses_at_o1_and_shows_in_the_ir(name, monkeypatch):
    monkeypatch.setattr(fusion, "MIN_ELEMENTS", 0)
    prim = PRIMITIVES[name]
    arrays, params = _sample_arrays(name, np.float32)
    tensors = [ms.Tensor(a) for a in arrays]

    def f(*xs):
        return _post(prim.bind(*xs, **params))

    jitted = ms.jit(f, capture_mode="trace", jit_level="O1")
    lowered = jitted.lower(*tensors)
    outer = [n.prim.name for n in lowered.graph.nodes]
    inner = [m.prim.name for n in lowered.graph.nodes if n.prim.name == "fused"
             for m in n.params["graph"].nodes]
    graph = _one_node_graph(prim, arrays, params)
    node = graph.nodes[0]
    libm = slow_calls(scalar.expression(
        prim, ["a", "b", "c"][:len(arrays)], node.outputs[0].aval.dtype,
        [v.aval.dtype for v in node.inputs], params) or "0", node.outputs[0].aval.dtype)
    if name not in outer + inner:
        pass              # simplified away (a cast to its own dtype, identity, ...)
    elif libm and not native.svml():
        assert name not in inner, f"{name} calls scalar libm {libm}: not worth fusing"
    else:
        assert name in inner, f"{name} was not fused: {lowered.as_text()}"
        assert f"= {name}" in lowered.as_text()
    with np.errstate(all="ignore"):
        expected = f(*tensors).asnumpy()
        np.testing.assert_array_equal(jitted(*tensors).asnumpy(), expected)


@needs_numba
@pytest.mark.parametrize("name", DECOMPOSABLE)
def test_decomposition_computes_the_primitive(name):
    prim = PRIMITIVES[name]
    arrays, params = _sample_arrays(name, np.float64)
    graph = _one_node_graph(prim, arrays, params)
    expected = [np.asarray(o) for o in (prim.impl(*arrays, **params) if prim.multiple_results
                                        else [prim.impl(*arrays, **params)])]
    rewritten = decompose(graph, min_elements=0)
    names = [n.prim.name for n in graph.nodes]
    if rewritten == 0:
        assert native.svml() is False and name in names      # kept whole: needs libm
        return
    assert name not in names
    from tensorjit.backend import compile as compile_graph
    outputs = compile_graph(graph).fn(*arrays)
    for actual, want in zip(outputs, expected):
        np.testing.assert_allclose(actual, want, rtol=1e-12, atol=1e-12)
