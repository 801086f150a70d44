"""Writes the checked-in checkpoint files with real MindSpore (run with MindSpore's
interpreter: ``$TENSORJIT_MINDSPORE_PYTHON tests/checkpoint/make_mindspore_files.py``).

Every value is ``expected_value(k, shape, dtype)`` (the tests compute the same formula), so
the files hold known numbers of every dtype tensorjit and MindSpore share."""
import os
import sys

import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, Parameter

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "data")


def expected_value(k, shape, dtype):
    return ((np.arange(int(np.prod(shape))) % 7 - 3) * 0.5 + k).reshape(shape).astype(dtype)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, has_bias=True)
        self.bn = nn.BatchNorm2d(2)
        self.fc = nn.Dense(4, 3)
        self.h = Parameter(Tensor(np.zeros((2, 3), np.float16)), name="h")
        self.b = Parameter(Tensor(np.zeros(2, np.float32), ms.bfloat16), name="b")
        self.i = Parameter(Tensor(np.zeros((1, 2), np.int32)), name="i", requires_grad=False)
        self.s = Parameter(Tensor(np.array(0.0, np.float64)), name="s")


def build():
    net = Net()
    for k, p in enumerate(net.get_parameters()):
        dtype = ms.dtype_to_nptype(p.dtype) if p.dtype != ms.bfloat16 else np.float32
        p.set_data(Tensor(expected_value(k, p.shape, dtype), p.dtype))
    return net


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    net = build()
    ms.save_checkpoint(net, os.path.join(OUT, "mindspore_small.ckpt"),
                       append_dict={"epoch_num": 2, "lr": 0.25, "flag": True,
                                    "note": "made by MindSpore"})
    ms.save_checkpoint(net, os.path.join(OUT, "mindspore_small_crc.ckpt"), crc_check=True)
    ms.save_checkpoint(net, os.path.join(OUT, "mindspore_small.safetensors"),
                       format="safetensors")
    print("\n".join(f"{p.name} {tuple(p.shape)} {p.dtype}" for p in net.get_parameters()))
