"""Checkpoints in MindSpore's formats: files written by real MindSpore (checked in, made by
make_mindspore_files.py) load with their exact values, tensorjit writes them byte for byte,
and bad files or mismatched nets never half-load."""
import os

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor, Parameter
from tensorjit.checkpoint import CheckpointFormatError, async_ckpt_thread_status
from tensorjit.checkpoint.api import wait_async_saves

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
MS_CKPT = os.path.join(DATA, "mindspore_small.ckpt")
MS_CRC = os.path.join(DATA, "mindspore_small_crc.ckpt")
MS_SAFETENSORS = os.path.join(DATA, "mindspore_small.safetensors")

# (name, shape, dtype) in the order MindSpore wrote them
LAYOUT = [("h", (2, 3), ms.float16), ("b", (2,), ms.bfloat16), ("i", (1, 2), ms.int32),
          ("s", (), ms.float64), ("conv.weight", (2, 1, 3, 3), ms.float32),
          ("conv.bias", (2,), ms.float32), ("bn.moving_mean", (2,), ms.float32),
          ("bn.moving_variance", (2,), ms.float32), ("bn.gamma", (2,), ms.float32),
          ("bn.beta", (2,), ms.float32), ("fc.weight", (3, 4), ms.float32),
          ("fc.bias", (3,), ms.float32)]


def expected_value(k, shape, dtype):
    """The formula make_mindspore_files.py filled the parameters with."""
    values = ((np.arange(int(np.prod(shape))) % 7 - 3) * 0.5 + k).reshape(shape)
    return values.astype(np.float32).astype(dtype) if dtype == ms.bfloat16 else \
        values.astype(dtype)


class Net(nn.Cell):
    """tensorjit's twin of make_mindspore_files.Net (same parameter names and shapes)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, has_bias=True)
        self.bn = nn.BatchNorm2d(2)
        self.fc = nn.Dense(4, 3)
        self.h = Parameter(Tensor(np.zeros((2, 3), np.float16)), name="h")
        self.b = Parameter(Tensor(np.zeros(2, np.float32), ms.bfloat16), name="b")
        self.i = Parameter(Tensor(np.zeros((1, 2), np.int32)), name="i", requires_grad=False)
        self.s = Parameter(Tensor(np.array(0.0, np.float64)), name="s")


def values_of(net):
    return {p.name: p.asnumpy().copy() for p in net.get_parameters()}


def test_a_file_written_by_mindspore_loads_with_its_values():
    loaded = ms.load_checkpoint(MS_CKPT)
    assert list(loaded)[:len(LAYOUT)] == [name for name, _, _ in LAYOUT]
    for k, (name, shape, dtype) in enumerate(LAYOUT):
        value = loaded[name]
        assert isinstance(value, Parameter) and value.name == name
        assert value.shape == shape and value.dtype == dtype, name
        np.testing.assert_array_equal(value.asnumpy(), expected_value(k, shape, dtype))
    assert loaded["epoch_num"].dtype == ms.int64 and int(loaded["epoch_num"].asnumpy()) == 2
    assert loaded["lr"].dtype == ms.float32 and float(loaded["lr"].asnumpy()) == 0.25
    assert loaded["flag"].dtype == ms.bool_ and bool(loaded["flag"].asnumpy())
    assert loaded["note"] == "made by MindSpore"


@pytest.mark.parametrize("path, kwargs", [(MS_CRC, dict(crc_check=True)),
                                          (MS_SAFETENSORS, dict(format="safetensors"))])
def test_crc_and_safetensors_files_by_mindspore_load(path, kwargs):
    loaded = ms.load_checkpoint(path, **kwargs)
    for k, (name, shape, dtype) in enumerate(LAYOUT):
        assert loaded[name].dtype == dtype
        np.testing.assert_array_equal(loaded[name].asnumpy(), expected_value(k, shape, dtype))


@pytest.mark.parametrize("path, kwargs", [(MS_CKPT, {}), (MS_CRC, dict(crc_check=True)),
                                          (MS_SAFETENSORS, dict(format="safetensors"))])
def test_tensorjit_writes_the_same_bytes_as_mindspore(tmp_path, path, kwargs):
    loaded = ms.load_checkpoint(path, **kwargs)
    out = tmp_path / os.path.basename(path)
    ms.save_checkpoint(loaded, str(out), **kwargs)
    with open(path, "rb") as a, open(out, "rb") as b:
        assert a.read() == b.read()


def test_load_into_a_net_and_back(tmp_path):
    net = Net()
    param_not_load, ckpt_not_load = ms.load_param_into_net(net, ms.load_checkpoint(MS_CKPT))
    assert param_not_load == []
    assert ckpt_not_load == ["epoch_num", "lr", "flag", "note"]
    for k, (name, shape, dtype) in enumerate(LAYOUT):
        np.testing.assert_array_equal(net.parameters_dict()[name].asnumpy(),
                                      expected_value(k, shape, dtype))
    path = str(tmp_path / "net")                  # ".ckpt" is appended, as MindSpore does
    ms.save_checkpoint(net, path)
    assert os.path.exists(path + ".ckpt")
    other = Net()
    ms.load_checkpoint(path + ".ckpt", net=other)
    for name, value in values_of(net).items():
        np.testing.assert_array_equal(other.parameters_dict()[name].asnumpy(), value)


def test_saving_lists_dicts_and_selections(tmp_path):
    net = Net()
    ms.load_param_into_net(net, ms.load_checkpoint(MS_CKPT))
    path = str(tmp_path / "list.ckpt")
    ms.save_checkpoint(net.trainable_params(), path, choice_func=lambda n: n.startswith("conv"))
    assert list(ms.load_checkpoint(path)) == ["conv.weight", "conv.bias"]
    ms.save_checkpoint([{"name": "x", "data": Tensor(np.ones(3, np.float32))}], path)
    assert list(ms.load_checkpoint(path)) == ["x"]
    full = ms.load_checkpoint(MS_CKPT, filter_prefix=["bn.", "fc."])
    assert not any(n.startswith(("bn.", "fc.")) for n in full) and "conv.bias" in full
    only = ms.load_checkpoint(MS_CKPT, specify_prefix="fc.")
    assert list(only) == ["fc.weight", "fc.bias"]
    with pytest.raises(ValueError, match="no parameter"):
        ms.load_checkpoint(MS_CKPT, choice_func=lambda n: False)


def test_names_with_an_extra_prefix_load_unless_strict():
    loaded = ms.load_checkpoint(MS_CKPT)
    prefixed = {"network.backbone." + k: v for k, v in loaded.items() if not isinstance(v, str)}
    net = Net()
    assert ms.load_param_into_net(net, prefixed)[0] == []
    np.testing.assert_array_equal(net.fc.bias.asnumpy(), expected_value(11, (3,), np.float32))
    strict = Net()
    not_loaded, _ = ms.load_param_into_net(strict, prefixed, strict_load=True)
    assert len(not_loaded) == len(LAYOUT)


def test_float_dtypes_convert_unless_strict():
    net = Net()
    loaded = ms.load_checkpoint(MS_CKPT)
    loaded["h"] = Parameter(Tensor(loaded["h"].asnumpy().astype(np.float32)), name="h")
    ms.load_param_into_net(net, loaded)
    assert net.h.dtype == ms.float16
    np.testing.assert_array_equal(net.h.asnumpy(), expected_value(0, (2, 3), np.float16))
    with pytest.raises(RuntimeError, match="h: dtype float32 in the checkpoint, float16"):
        ms.load_param_into_net(Net(), loaded, strict_load=True)


def test_a_mismatched_net_loads_nothing():
    net = Net()
    before = values_of(net)
    loaded = ms.load_checkpoint(MS_CKPT)
    loaded["fc.bias"] = Parameter(Tensor(np.zeros(5, np.float32)), name="fc.bias")
    with pytest.raises(RuntimeError, match=r"nothing was loaded.*fc\.bias: shape \(5,\)"):
        ms.load_param_into_net(net, loaded)
    for name, value in values_of(net).items():        # h, b, conv... come first: untouched
        np.testing.assert_array_equal(value, before[name])


def test_every_truncation_of_a_file_is_a_clear_error(tmp_path):
    with open(MS_CKPT, "rb") as f:
        data = f.read()
    net = Net()
    before = values_of(net)
    path = tmp_path / "cut.ckpt"
    for cut in range(1, len(data)):
        path.write_bytes(data[:cut])
        try:
            ms.load_checkpoint(str(path), net=net)
        except CheckpointFormatError as exc:
            assert "cut.ckpt" in str(exc) and "load_checkpoint" in str(exc)
            assert "truncated" in str(exc) or "damaged" in str(exc) or \
                "not a checkpoint" in str(exc), str(exc)
        else:
            # A cut exactly between two values is a well-formed, shorter checkpoint.
            assert set(ms.load_checkpoint(str(path))) < set(ms.load_checkpoint(MS_CKPT))
            net = Net()
            before = values_of(net)
            continue
        for name, value in values_of(net).items():
            np.testing.assert_array_equal(value, before[name])


def test_foreign_and_damaged_files(tmp_path):
    path = tmp_path / "x.ckpt"
    path.write_bytes(b"")
    with pytest.raises(ValueError, match="is empty"):
        ms.load_checkpoint(str(path))
    path.write_bytes(b"This is a text file, not weights.\n" * 3)
    with pytest.raises(CheckpointFormatError, match="x.ckpt"):
        ms.load_checkpoint(str(path))
    path.write_bytes(np.random.default_rng(0).bytes(300))
    with pytest.raises(CheckpointFormatError):
        ms.load_checkpoint(str(path))
    with pytest.raises(CheckpointFormatError, match="format='safetensors'"):
        ms.load_checkpoint(MS_SAFETENSORS)
    with pytest.raises(CheckpointFormatError, match="safetensors"):
        ms.load_checkpoint(MS_CKPT, format="safetensors")
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint(str(tmp_path / "missing.ckpt"))
    with open(MS_CRC, "rb") as f:
        data = bytearray(f.read())
    data[200] ^= 0x01                                   # inside a tensor's bytes
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointFormatError, match="CRC-32 check failed"):
        ms.load_checkpoint(str(path), crc_check=True)
    with pytest.raises(CheckpointFormatError, match="has no CRC"):
        ms.load_checkpoint(MS_CKPT, crc_check=True)


def test_writes_are_atomic(tmp_path, monkeypatch):
    from tensorjit.checkpoint import api
    path = tmp_path / "net.ckpt"
    net = Net()
    ms.save_checkpoint(net, str(path))
    good = path.read_bytes()

    def failing(f, arrays, crc_check):
        f.write(b"\x0a\x05partial")
        raise OSError("disk full")
    monkeypatch.setattr(api, "_write_ckpt", failing)
    with pytest.raises(OSError, match="disk full"):
        ms.save_checkpoint(net, str(path))
    assert path.read_bytes() == good
    assert os.listdir(tmp_path) == ["net.ckpt"]          # no temporary file left


def test_async_save(tmp_path):
    net = Net()
    ms.load_param_into_net(net, ms.load_checkpoint(MS_CKPT))
    path = str(tmp_path / "async.ckpt")
    ms.save_checkpoint(net, path, async_save=True)
    net.fc.bias.set_data(Tensor(np.zeros(3, np.float32)))   # after the call: not in the file
    wait_async_saves()
    assert not async_ckpt_thread_status()
    np.testing.assert_array_equal(ms.load_checkpoint(path)["fc.bias"].asnumpy(),
                                  expected_value(11, (3,), np.float32))


@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_a_compiled_net_sees_loaded_weights(tmp_path, mode):
    ms.set_seed(0)
    net = nn.Dense(4, 3)
    x = Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))
    forward = ms.jit(net, capture_mode=mode)
    forward(x)
    other = nn.Dense(4, 3)
    ms.save_checkpoint(other, str(tmp_path / "other.ckpt"))
    ms.load_checkpoint(str(tmp_path / "other.ckpt"), net=net)
    expected = x.asnumpy() @ other.weight.asnumpy().T + other.bias.asnumpy()
    np.testing.assert_allclose(forward(x).asnumpy(), expected, rtol=1e-6)


def test_bad_arguments():
    with pytest.raises(TypeError, match="'save_obj' must be a Cell"):
        ms.save_checkpoint(3, "/tmp/x.ckpt")
    with pytest.raises(ValueError, match="'format' must be"):
        ms.save_checkpoint(Net(), "/tmp/x.ckpt", format="npz")
    with pytest.raises(TypeError, match="values of 'parameter_dict' must be Parameters"):
        ms.load_param_into_net(Net(), {"h": np.zeros(3)})
    with pytest.raises(TypeError, match="append_dict"):
        ms.save_checkpoint(Net(), "/tmp/x.ckpt", append_dict={"a": [1, 2]})
