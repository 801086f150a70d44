"""MindSpore's import paths: scripts change only ``import mindspore`` to ``import tensorjit``
and keep ``from mindspore.common.initializer import ...``, ``ms.tensor(...)``,
``from mindspore.ops import operations as P, functional as F, composite as C``."""
import importlib
import math
import sys

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import ops, nn


def test_common_initializer_is_the_nn_one():
    from tensorjit.common.initializer import (initializer, TruncatedNormal, Normal, Constant,
                                              HeUniform, HeNormal, XavierUniform, XavierNormal,
                                              Uniform, One, Zero, Initializer)
    import tensorjit.nn.initializer as nn_init
    for obj in (initializer, TruncatedNormal, Normal, Constant, HeUniform, HeNormal,
                XavierUniform, XavierNormal, Uniform, One, Zero, Initializer):
        assert getattr(nn_init, obj.__name__) is obj        # one definition, two paths
    ms.set_seed(5)
    t = initializer(Normal(sigma=0.5), (400, 50), ms.float32).init_data()
    assert t.shape == (400, 50) and t.dtype == ms.float32
    assert abs(t.asnumpy().std() - 0.5) < 0.02 and abs(t.asnumpy().mean()) < 0.02
    bound = math.sqrt(6.0 / (30 + 20))
    x = initializer(XavierUniform(), (20, 30)).asnumpy()
    assert np.abs(x).max() <= bound and np.abs(x).max() > 0.9 * bound
    np.testing.assert_array_equal(initializer(Constant(2.5), (2, 2)).asnumpy(),
                                  np.full((2, 2), 2.5, np.float32))


def test_common_names_and_submodules():
    from tensorjit.common import (Tensor, Parameter, ParameterTuple, set_seed, dtype,
                                  initializer)
    from tensorjit.common.parameter import Parameter as P2, ParameterTuple as PT2
    from tensorjit.common.tensor import Tensor as T2
    from tensorjit.common import dtype as mstype
    assert Tensor is ms.Tensor is T2 and Parameter is ms.Parameter is P2
    assert ParameterTuple is nn.ParameterTuple is PT2 is ms.ParameterTuple
    assert set_seed is ms.set_seed and initializer.initializer is nn.initializer.initializer
    assert dtype is mstype and mstype.float32 == ms.float32 and mstype.int64 == ms.int64
    assert mstype.dtype_to_nptype(mstype.float16) is np.float16
    assert mstype.pytype_to_dtype(float) == ms.float32
    assert mstype.pytype_to_dtype(int) == ms.int64
    assert sys.modules["tensorjit.common.tensor"].Tensor is ms.Tensor


def test_top_level_tensor_function_parametertuple_and_seed():
    t = ms.tensor([[1, 2], [3, 4]], ms.float32)
    assert isinstance(t, ms.Tensor) and t.dtype == ms.float32 and t.shape == (2, 2)
    assert ms.tensor(3.0).dtype == ms.float32
    assert ms.tensor(shape=(2, 3), dtype=ms.int32).asnumpy().tolist() == [[0] * 3] * 2
    # the module keeps its import path although the package attribute is the function
    from tensorjit.tensor import Tensor
    assert Tensor is ms.Tensor and sys.modules["tensorjit.tensor"].Tensor is Tensor
    p = ms.Parameter(ms.tensor([1.0]), name="w")
    assert ms.ParameterTuple([p])[0] is p
    ms.set_seed(11)
    assert ms.get_seed() == 11
    a = ops.randn(3).asnumpy()
    ms.set_seed(11)
    np.testing.assert_array_equal(ops.randn(3).asnumpy(), a)
    assert ms.is_tensor(t) and not ms.is_tensor(np.ones(2))


def test_ops_operations_functional_composite_are_modules():
    from tensorjit.ops import operations as P, functional as F, composite as C
    for module, name in ((P, "tensorjit.ops.operations"), (F, "tensorjit.ops.functional"),
                         (C, "tensorjit.ops.composite")):
        assert module is importlib.import_module(name)
    assert P.MatMul is ops.MatMul and P.ReduceMean is ops.ReduceMean
    assert F.reshape is ops.reshape and F.grad is ms.grad and F.tensor_add is ops.add
    assert F.shape is ops.shape and F.assign is ops.assign
    assert C.grad is ms.grad and C.value_and_grad is ms.value_and_grad
    assert set(F.__all__) >= {"matmul", "softmax", "unstack", "topk", "normal", "grad"}
    x = ms.tensor(np.arange(6.0).reshape(2, 3))
    np.testing.assert_allclose(F.grad(lambda v: F.reduce_sum(v * v))(x).asnumpy(),
                               2 * x.asnumpy())


def test_ops_shape_is_mindspores_function():
    x = ms.tensor(np.zeros((2, 3, 4), np.float32))
    assert ops.shape(x) == (2, 3, 4) and ops.rank(x) == 3 and ops.size(x) == 24
    # the shape-op module is still importable by its path
    from tensorjit.ops.shape import reshape
    assert reshape is ops.reshape


def test_facade_modules_sit_on_the_top_layer():
    from architecture.test_layers import FACADES, unit_imports, order_violations
    assert set(FACADES) == {"tensorjit.ops.functional", "tensorjit.ops.composite"}
    edges = unit_imports()
    assert not order_violations(edges)
    # the facades import autodiff, which imports ops: they cannot be part of ``ops``
    assert ("__init__", "autodiff") in edges


@pytest.mark.parametrize("name", ["unstack", "normal", "topk", "sort", "argsort", "uniform",
                                  "standard_normal", "select", "bias_add", "hardswish",
                                  "prelu", "kl_div", "cosine_embedding_loss", "group_norm",
                                  "conv1d", "conv_transpose2d", "unfold", "dropout2d",
                                  "sequence_mask", "addn"])
def test_functional_names_exist(name):
    assert callable(getattr(ops, name))


def test_runtime_utils_summary_and_dataset_text_audio_paths():
    # ms.runtime / ms.utils / ms.SummaryRecord / ms.train.summary / ms.dataset.text / audio
    from tensorjit.train.summary import SummaryRecord
    from tensorjit.dataset.text import Vocab, Lookup
    from tensorjit.dataset.audio import Spectrogram, WindowType
    assert ms.SummaryRecord is SummaryRecord is ms.train.SummaryRecord
    assert ms.dataset.text.Vocab is Vocab and ms.dataset.audio.Spectrogram is Spectrogram
    assert callable(ms.runtime.set_cpu_affinity) and callable(ms.utils.stress_detect)
    assert importlib.import_module("tensorjit.utils.dryrun").set_simulation
