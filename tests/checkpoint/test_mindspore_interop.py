"""Weights move between real MindSpore and tensorjit in both directions, with identical
values: MindSpore runs in its own interpreter, named by $TENSORJIT_MINDSPORE_PYTHON (the
benchmark's variable); without it these tests are skipped (the checked-in files of
test_checkpoint.py cover the format always)."""
import os
import subprocess
import textwrap

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor, Parameter

MINDSPORE_PYTHON = os.environ.get("TENSORJIT_MINDSPORE_PYTHON")
pytestmark = pytest.mark.skipif(
    not MINDSPORE_PYTHON, reason="set TENSORJIT_MINDSPORE_PYTHON to a Python with MindSpore "
                                 "installed to check checkpoints against it")


def run_mindspore(script, tmp_path):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(script))
    proc = subprocess.run([MINDSPORE_PYTHON, str(path)], capture_output=True, text=True,
                          timeout=300, cwd=str(tmp_path),
                          env=dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def random_net(seed):
    rng = np.random.default_rng(seed)
    net = nn.SequentialCell([nn.Conv2d(3, 4, 3), nn.BatchNorm2d(4), nn.Flatten(),
                             nn.Dense(4 * 8 * 8, 5)])
    for p in net.get_parameters():
        p.set_data(Tensor(rng.standard_normal(p.shape).astype(np.float32)))
    net.extra = Parameter(Tensor(rng.standard_normal((3, 2)).astype(np.float16)), name="extra")
    net.count = Parameter(Tensor(np.array([7, -9], np.int64)), name="count", requires_grad=False)
    net.half = Parameter(Tensor(rng.standard_normal(4).astype(np.float32), ms.bfloat16),
                         name="half")
    return net


@pytest.mark.parametrize("format", ["ckpt", "safetensors"])
def test_mindspore_loads_what_tensorjit_writes(tmp_path, format):
    net = random_net(1)
    path = str(tmp_path / f"tj.{format}")
    ms.save_checkpoint(net, path, format=format)
    run_mindspore(f"""
        import numpy as np, mindspore
        loaded = mindspore.load_checkpoint({path!r}, format={format!r})
        np.savez("values.npz", **{{k: (v.float() if v.dtype == mindspore.bfloat16 else v)
                                   .asnumpy() for k, v in loaded.items()}})
        with open("dtypes.txt", "w") as f:
            f.write("\\n".join(f"{{k}} {{v.dtype}}" for k, v in loaded.items()))
        """, tmp_path)
    values = np.load(tmp_path / "values.npz")
    dtypes = dict(line.split() for line in (tmp_path / "dtypes.txt").read_text().splitlines())
    names = [p.name for p in net.get_parameters()]
    assert sorted(values.files) == sorted(names)
    for p in net.get_parameters():
        mine = p.asnumpy().astype(np.float32) if p.dtype == ms.bfloat16 else p.asnumpy()
        np.testing.assert_array_equal(values[p.name], mine)
        assert dtypes[p.name].lower() == p.dtype.name.lower()


def test_tensorjit_loads_what_mindspore_writes(tmp_path):
    run_mindspore("""
        import numpy as np, mindspore
        from mindspore import nn
        mindspore.set_seed(3)
        net = nn.SequentialCell([nn.Conv2d(3, 4, 3, has_bias=True), nn.BatchNorm2d(4),
                                 nn.Flatten(), nn.Dense(4 * 8 * 8, 5)])
        net.to_float(mindspore.float16)
        mindspore.save_checkpoint(net, "ms.ckpt", append_dict={"epoch_num": 4})
        mindspore.save_checkpoint(net, "ms.safetensors", format="safetensors")
        np.savez("values.npz", **{p.name: p.asnumpy() for p in net.get_parameters()})
        """, tmp_path)
    values = np.load(tmp_path / "values.npz")
    for path, format in (("ms.ckpt", "ckpt"), ("ms.safetensors", "safetensors")):
        loaded = ms.load_checkpoint(str(tmp_path / path), format=format)
        for name in values.files:
            assert loaded[name].dtype == values[name].dtype
            np.testing.assert_array_equal(loaded[name].asnumpy(), values[name])
    net = nn.SequentialCell([nn.Conv2d(3, 4, 3, has_bias=True), nn.BatchNorm2d(4), nn.Flatten(),
                             nn.Dense(4 * 8 * 8, 5)])
    param_not_load, ckpt_not_load = ms.load_param_into_net(
        net, ms.load_checkpoint(str(tmp_path / "ms.ckpt")))
    assert param_not_load == [] and ckpt_not_load == ["epoch_num"]
    for p in net.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), values[p.name])
