"""MindSpore's operator classes (``ops.MatMul(transpose_b=True)(x, y)``) against MindSpore
2.10 itself: every case in ``tests/mindspore_ref/op_class_cases.py`` was run with MindSpore
(``record_op_classes.py``) and its results are checked in; here each case runs eagerly and
compiled in every capture mode and level, and must give MindSpore's values, dtypes, shapes
and Python result types. With ``$TENSORJIT_MINDSPORE_PYTHON`` set, the recording is redone
first and must equal the checked-in one."""
import os
import subprocess
import sys

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import ops, Tensor
from tensorjit.ops import operations

from mindspore_ref.op_class_cases import cases, nn_cases

from .test_array_classes import CHECKED_WITHOUT_MINDSPORE
from .test_optimizer_updates import CLASSES as OPTIMIZER_UPDATE_CLASSES
from .test_math_extra_classes import CHECKED_HERE as MATH_EXTRA_CHECKED
from .test_nn_classes import CHECKED_HERE as NN_CHECKED_WITHOUT_MINDSPORE

HERE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "mindspore_ref")
RECORDED = np.load(os.path.join(HERE, "op_classes.npz"))
CASES = cases()


def _convert(value):
    if isinstance(value, (np.ndarray, np.generic)):
        return Tensor(np.asarray(value))
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "dtype":
        return getattr(ms, value[1])
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "tensors":
        return tuple(Tensor(a) for a in value[1])
    return value


def _flatten(out):
    items = out if isinstance(out, (tuple, list)) and any(
        isinstance(o, Tensor) for o in out) else [out]
    return ([o.asnumpy() if isinstance(o, Tensor) else np.asarray(o) for o in items],
            ["tensor" if isinstance(o, Tensor) else type(o).__name__ for o in items])


def _expected(i):
    kinds = list(RECORDED[f"{i}_kinds"])
    return [RECORDED[f"{i}_{j}"] for j in range(len(kinds))], kinds


def _assert_matches(i, arrays, kinds):
    name = CASES[i][0]
    expected, expected_kinds = _expected(i)
    assert kinds == expected_kinds, f"{name}: result kinds {kinds} != MindSpore's"
    for got, want in zip(arrays, expected):
        assert got.dtype == want.dtype, f"{name}: dtype {got.dtype} != MindSpore's {want.dtype}"
        assert got.shape == want.shape, f"{name}: shape {got.shape} != MindSpore's {want.shape}"
        if want.dtype.kind == "f":
            tol = 2e-3 if want.dtype == np.float16 else 2e-5
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol, err_msg=name)
        else:
            np.testing.assert_array_equal(got, want, err_msg=name)


def test_the_recording_covers_every_case():
    assert str(RECORDED["mindspore_version"]).startswith("2.10")
    assert [str(RECORDED[f"{i}_name"]) for i in range(len(CASES))] == [c[0] for c in CASES]


@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_eager_equals_mindspore(i):
    name, init, inputs = CASES[i]
    op = getattr(ops, name)(**{k: _convert(v) for k, v in init.items()})
    _assert_matches(i, *_flatten(op(*[_convert(v) for v in inputs])))


# their output shape is computed from their input values, which a compiled graph only
# knows when it runs (trace mode guards on them; ast and bytecode refuse under fullgraph)
VALUE_DEPENDENT_SHAPES = {"Range", "LinSpace", "Expand", "MaskedSelect", "Unique",
                          "UniqueWithPad", "NonZero", "Bincount", "UnravelIndex",
                          "InvertPermutation", "SegmentSum", "SegmentMax", "SegmentMin",
                          "SegmentProd", "SegmentMean", "CumulativeLogsumexp",
                          "BartlettWindow", "BlackmanWindow", "HammingWindow",
                          "MatrixDiagV3", "MatrixDiagPartV3", "MatrixSetDiagV3",
                          "ListDiff", "RaggedRange", "FillV2", "Histogram",
                          "SparseSlice", "Coalesce", "Col2Im", "CTCGreedyDecoder"}


def _plan():
    """(case index, instance, input template) per case; tensors in a template are indices
    into one flat argument list, so a whole table runs as one jitted function."""
    tensors, plan = [], []

    def template(value):
        value = _convert(value)
        if isinstance(value, Tensor):
            tensors.append(value)
            return ("arg", len(tensors) - 1)
        if isinstance(value, tuple) and value and isinstance(value[0], Tensor):
            return ("args", [template(v) for v in value])
        return ("value", value)

    for i, (name, init, inputs) in enumerate(CASES):
        if name in VALUE_DEPENDENT_SHAPES:
            continue
        op = getattr(ops, name)(**{k: _convert(v) for k, v in init.items()})
        plan.append((i, op, [template(v) for v in inputs]))
    return plan, tensors


PLAN, ARGS = _plan()


def _fill(entry, args):
    kind, value = entry
    if kind == "arg":
        return args[value]
    if kind == "args":
        return tuple(_fill(e, args) for e in value)
    return value


def run_all(*args):
    return [op(*[_fill(e, args) for e in template]) for _, op, template in PLAN]


@pytest.mark.parametrize("level", ["O0", "O1"])
@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_every_case_compiled_equals_mindspore(mode, level):
    jitted = ms.jit(run_all, capture_mode=mode, jit_level=level, fullgraph=True)
    for _ in range(2):             # the capture, then the compiled program
        outs = jitted(*ARGS)
    for (i, _, _), out in zip(PLAN, outs):
        _assert_matches(i, *_flatten(out))


def test_attributes_and_repr_follow_mindspore():
    matmul = ops.MatMul(transpose_b=True)
    assert matmul.transpose_a is False and matmul.transpose_b is True
    assert matmul.attrs == {"transpose_a": False, "transpose_b": True}
    assert matmul.name == "MatMul"
    assert repr(matmul) == "Prim[MatMul]<transpose_a=False, transpose_b=True>"
    assert ops.ReduceMean(True).keep_dims is True              # positional attributes
    assert ops.Argmax(output_type=ms.int64).output_type == ms.int64
    assert isinstance(matmul, operations.OpPrimitive)
    assert matmul.add_prim_attr("transpose_a", True) is matmul and matmul.transpose_a
    with pytest.raises(TypeError, match="ReduceMean"):
        ops.ReduceMean(True, False)
    with pytest.raises(TypeError, match="MatMul"):
        ops.MatMul(transpose_c=True)


# operator classes whose MindSpore results are recorded by a family's own script (and
# compared by the test beside it), not by op_class_cases.py
TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORDED_ELSEWHERE = {
    "nn/record_resize.py": {
        "ChannelShuffle", "LpNorm", "MirrorPad", "PadV3", "Padding", "ResizeArea",
        "ResizeBicubic", "ResizeBilinearV2", "ResizeLinear1D", "ResizeNearestNeighbor",
        "ResizeNearestNeighborV2", "UpsampleNearest3D", "UpsampleTrilinear3D"},
    "nn/record_pooling_extra.py": {
        "AdaptiveAvgPool2D", "AdaptiveAvgPool3D", "AdaptiveMaxPool2D", "AdaptiveMaxPool3D",
        "AvgPool3D", "MaxPool3D", "MaxPool3DWithArgmax", "MaxPoolWithArgmax",
        "MaxPoolWithArgmaxV2", "MaxUnpool2D", "MaxUnpool3D"},
}


_SAMPLING_CLASSES = ("Bernoulli Multinomial MultinomialWithReplacement RandomCategorical "
                     "RandomShuffle StandardLaplace TruncatedNormal ParameterizedTruncatedNormal "
                     "UniformInt Cauchy LogNormalReverse RandomChoiceWithMask RandpermV2 "
                     "Randperm NonDeterministicInts").split()


def test_every_class_comes_from_the_table():
    generated = set(operations.CLASSES)
    for name in operations.__all__:
        assert name == "OpPrimitive" or name in generated
        assert getattr(ops, name) is getattr(operations, name)
    covered = {c[0] for c in CASES}
    random_or_effects = {"Dropout", "StandardNormal", "UniformReal", "Print", "Assign"}
    loops = {"WhileLoop", "ForiLoop", "Scan"}          # tests/core/test_loops.py
    for script, names in RECORDED_ELSEWHERE.items():   # each names them in its recording
        with open(os.path.join(TESTS, script), encoding="utf-8") as f:
            source = f.read()
        assert all(f'"{name}"' in source or f'"ops.{name}"' in source or
                   f'"{name} ' in source for name in names), script
        covered |= names
    random_or_effects |= set(_SAMPLING_CLASSES)          # tests/core/test_sampling_classes.py
    python_values = {"DType", "ScalarCast", "TupleToArray", "ScalarToArray", "Eps",
                     "Partial"}                       # tests/core/test_python_value_ops.py
    covered |= python_values
    covered |= OPTIMIZER_UPDATE_CLASSES     # tests/core/test_optimizer_updates.py (Parameters)
    covered |= MATH_EXTRA_CHECKED                     # tests/core/test_math_extra_classes.py
    missing = generated - covered - random_or_effects - loops - CHECKED_WITHOUT_MINDSPORE \
        - NN_CHECKED_WITHOUT_MINDSPORE
    assert not missing, f"operator classes without a MindSpore case: {sorted(missing)}"


def test_random_and_effect_classes():
    ms.set_seed(3)
    x = Tensor(np.ones((200, 50), np.float32))
    out, mask = ops.Dropout(keep_prob=0.8)(x)
    assert out.dtype == mask.dtype == ms.float32 and out.shape == mask.shape == (200, 50)
    kept = mask.asnumpy()
    assert set(np.unique(kept)) <= {0.0, 1.0} and abs(kept.mean() - 0.8) < 0.02
    np.testing.assert_allclose(out.asnumpy(), kept / 0.8, rtol=1e-6)
    samples = ops.StandardNormal()((4000,)).asnumpy()
    assert samples.shape == (4000,) and abs(samples.mean()) < 0.1 and abs(samples.std() - 1) < 0.1
    uniform = ops.UniformReal(seed=2)((4000,)).asnumpy()
    assert uniform.min() >= 0 and uniform.max() < 1 and abs(uniform.mean() - 0.5) < 0.05
    p = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="p")
    assert ops.Assign()(p, Tensor(np.ones(3, np.float32))) is p
    np.testing.assert_array_equal(p.asnumpy(), np.ones(3))


def test_classes_in_a_cell_under_grad():
    """The classes differentiate like the functional ops they are."""
    rng = np.random.default_rng(0)
    x = Tensor(rng.standard_normal((2, 3, 4)))
    w = Tensor(rng.standard_normal((2, 5, 4)))
    bmm, softmax, mean = ops.BatchMatMul(transpose_b=True), ops.Softmax(-1), ops.ReduceMean()

    def f(x):
        return mean(softmax(bmm(x, w)) * 3.0)

    def reference(xv):
        s = np.einsum("bik,bjk->bij", xv, w.asnumpy())
        e = np.exp(s - s.max(-1, keepdims=True))
        return (e / e.sum(-1, keepdims=True) * 3.0).mean()

    g = ms.grad(f)(x).asnumpy()
    eps, base = 1e-6, x.asnumpy()
    numeric = np.zeros_like(base)
    for idx in np.ndindex(base.shape):
        d = np.zeros_like(base)
        d[idx] = eps
        numeric[idx] = (reference(base + d) - reference(base - d)) / (2 * eps)
    np.testing.assert_allclose(g, numeric, rtol=1e-5, atol=1e-8)


@pytest.mark.skipif(not os.environ.get("TENSORJIT_MINDSPORE_PYTHON"),
                    reason="set TENSORJIT_MINDSPORE_PYTHON to MindSpore 2.10's interpreter")
def test_recording_is_current(tmp_path):
    script = os.path.join(HERE, "record_op_classes.py")
    before = {k: RECORDED[k] for k in RECORDED.files}
    subprocess.run([os.environ["TENSORJIT_MINDSPORE_PYTHON"], script], check=True,
                   capture_output=True)
    after = np.load(os.path.join(HERE, "op_classes.npz"))
    assert sorted(after.files) == sorted(before)
    for key in before:
        np.testing.assert_array_equal(after[key], before[key], err_msg=key)


# ---- cells (losses, activations, normalisation, convolutions with given weights) --------

NN_CASES = nn_cases()


def _nn_expected(i):
    kinds = list(RECORDED[f"nn{i}_kinds"])
    return [RECORDED[f"nn{i}_{j}"] for j in range(len(kinds))], kinds


@pytest.mark.parametrize("i", range(len(NN_CASES)),
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(NN_CASES)])
def test_cell_equals_mindspore(i):
    name, init, inputs = NN_CASES[i]
    assert str(RECORDED[f"nn{i}_name"]) == name
    cell = getattr(ms.nn, name)(**{k: _convert(v) for k, v in init.items()})
    arrays, kinds = _flatten(cell(*[_convert(v) for v in inputs]))
    expected, expected_kinds = _nn_expected(i)
    assert kinds == expected_kinds
    for got, want in zip(arrays, expected):
        assert got.dtype == want.dtype and got.shape == want.shape, (name, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5, err_msg=name)
