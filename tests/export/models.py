"""The programs export is checked on (issue 39): the seed blocks, ResNet-18, the GPT decoder,
an LSTM and mindcv's MobileNetV2, each small, with fixed weights and inputs.

``build(name)`` -> (net or function, [input Tensors]); ``eager(name)`` its outputs as a list
of arrays (the reference every format must reproduce)."""
import importlib.util
import os

import numpy as np

import tensorjit as ms
from tensorjit import Tensor, nn
from tensorjit.bench import models, workloads

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAMES = ("simple_function", "resnet_block", "llama_attention", "resnet18", "gpt", "lstm",
         "mobilenet_v2")


def simple_function(a, b, c):
    return a * b + c


def _mobilenet_module():
    path = os.path.join(ROOT, "examples", "mindcv_mobilenet_v2.py")
    spec = importlib.util.spec_from_file_location("mindcv_mobilenet_v2_export", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(name):
    rng = np.random.default_rng(0)
    if name == "simple_function":
        return simple_function, [Tensor(rng.standard_normal((2, 3)).astype(np.float32))
                                 for _ in range(3)]
    if name == "resnet_block":
        w = workloads.resnet_block("tiny")
        return w[1], list(w[2])
    if name == "llama_attention":
        w = workloads.llama_attention("tiny", with_mask=True)
        return w[1], list(w[2])
    if name in ("resnet18", "gpt"):
        m = models.make_model(name, "tiny")
        m.net.set_train(False)
        return m.net, [m.inputs[0][0]]
    if name == "lstm":
        ms.set_seed(0)
        return nn.LSTM(8, 16, num_layers=2, batch_first=True), \
            [Tensor(rng.standard_normal((2, 5, 8)).astype(np.float32))]
    if name == "mobilenet_v2":
        ms.set_seed(0)
        net = _mobilenet_module().MobileNetV2(alpha=0.35, num_classes=10)
        net.set_train(False)
        _as_if_trained(net, rng)
        return net, [Tensor(rng.standard_normal((1, 3, 32, 32)).astype(np.float32))]
    raise KeyError(name)


def _as_if_trained(net, rng):
    """Weights of a trained network's scale: mindcv's initialisation of the depthwise
    convolutions shrinks the activations tenfold per block (logits near 1e-9, which would
    check nothing); the BatchNorm statistics and affine terms become non-trivial too."""
    for name, param in net.parameters_and_names():
        shape = param.shape
        if name.endswith("weight") and len(shape) in (2, 4):
            fan_in = int(np.prod(shape[1:]))
            value = rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)
        elif name.endswith(("moving_variance", "gamma")):
            value = rng.uniform(0.5, 1.5, shape)
        elif name.endswith(("moving_mean", "beta", "bias")):
            value = rng.standard_normal(shape) * 0.1
        else:
            continue
        param.set_data(Tensor(value.astype(np.float32)))


def flat_outputs(result):
    if isinstance(result, (tuple, list)):
        out = []
        for r in result:
            out += flat_outputs(r)
        return out
    return [np.asarray(result.asnumpy())]


def eager(net, inputs):
    if isinstance(net, nn.Cell):
        net.set_train(False)
    return flat_outputs(net(*inputs))
