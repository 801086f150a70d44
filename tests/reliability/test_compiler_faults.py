"""The safety net under compilation (jit/fallback.py): a failure injected into each O1
pass, the scheduler and code generation, on a valid program, still gives eager's results
with one warning naming the failure; under fullgraph=True it is a clear error."""
import warnings

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, ops, Tensor
from tensorjit.jit import fallback
from tensorjit.passes import pipeline

STAGES = ["fold_constants", "decompose", "simplify", "eliminate_common_subexpressions",
          "eliminate_dead_code", "fold_batchnorm", "fuse", "reuse_buffers", "schedule",
          "verify", "codegen"]
MODES = ("ast", "bytecode", "trace")


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(64, 64)
        self.norm = nn.LayerNorm((64,))
        self.calls = 0

    def construct(self, x):
        y = ops.gelu(self.norm(self.fc(x))) * 2.0 + 1.0
        if y.sum() > 0:                       # a tensor branch (cond / guard / break)
            y = y - y.mean(-1, True)
        return ops.softmax(y, -1).sum(0)


def _inject(monkeypatch, stage):
    def broken(*args, **kwargs):
        raise KeyError(f"injected into {stage}")
    if stage == "codegen":
        from tensorjit import backend
        monkeypatch.setattr(backend, "compile", broken)
    else:
        monkeypatch.setattr(pipeline, stage, broken)
    monkeypatch.setattr(fallback, "_warned", set())


def _data(seed):
    return Tensor(np.random.default_rng(seed).standard_normal((128, 64)).astype(np.float32))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("stage", STAGES)
def test_a_compiler_failure_gives_eager_results_and_one_warning(stage, mode, monkeypatch):
    net = Block()
    expected = [net(_data(s)).asnumpy() for s in (0, 1)]
    _inject(monkeypatch, stage)
    f = ms.jit(net, capture_mode=mode, jit_level="O1")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = [f(_data(s)).asnumpy() for s in (0, 1, 0, 1)]
    for g, e in zip(got, expected + expected):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)
    said = [str(w.message) for w in caught if "tensorjit internal error" in str(w.message)]
    assert len(said) == 1, said
    assert "injected into" in said[0] and "please report" in said[0], said[0]
    assert ("the graph runs at O0" in said[0]) or ("node by node" in said[0]), said[0]


@pytest.mark.parametrize("stage", ["fuse", "schedule", "codegen"])
def test_under_fullgraph_a_compiler_failure_is_a_clear_error(stage, monkeypatch):
    _inject(monkeypatch, stage)
    f = ms.jit(lambda x: ops.exp(x) * 2 + 1, capture_mode="trace", jit_level="O1",
               fullgraph=True)
    with pytest.raises(fallback.InternalCompilerError) as info:
        f(_data(0))
    message = str(info.value)
    assert "tensorjit internal error compiling" in message and "at O1" in message
    assert "injected into" in message and "bug of tensorjit" in message


def test_kernel_errors_on_constants_are_left_to_run_time():
    """Constant folding must not turn the program's own error into a compiler failure:
    the error comes when the graph runs, naming the user's line, as eagerly."""
    def f(x):
        table = ops.ones((3,), ms.float32)
        return x + table[ops.cast(Tensor(np.array(5)), ms.int32)]
    with pytest.raises(IndexError):
        f(Tensor(np.ones(3, np.float32)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no "internal error" warning either
        with pytest.raises(IndexError):
            ms.jit(f, capture_mode="trace", jit_level="O1")(Tensor(np.ones(3, np.float32)))
