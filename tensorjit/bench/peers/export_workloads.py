"""Exported files for the benchmark workers (``server.py`` imports this; standalone like it):
the tensorjit worker loads a file with ``tensorjit.load`` and jits it at O1, the onnxruntime
worker opens the same file in an ONNX Runtime CPU session. The build request names the file
(``file``) and an ``.npz`` of the inputs (``inputs``, arrays ``arg0``, ``arg1``, ...).
"""
import numpy as np


def _inputs(request):
    with np.load(request["inputs"]) as data:
        return [data[f"arg{i}"] for i in range(len(data.files))]


def tensorjit_builder(request):
    import tensorjit as ms
    cell = ms.load(request["file"])
    level = request["variant"].split(".")[-1]
    fn = cell if level == "eager" else ms.jit(cell, jit_level=level)
    args = [ms.Tensor(a) for a in _inputs(request)]

    def first(out):
        return (out[0] if isinstance(out, tuple) else out).asnumpy()
    return fn, args, first, None


def onnxruntime_builder(request):
    import onnxruntime
    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = onnxruntime.InferenceSession(request["file"], options,
                                           providers=["CPUExecutionProvider"])
    names = [i.name for i in session.get_inputs()]
    feeds = dict(zip(names, _inputs(request)))

    def run(feeds):
        return session.run(None, feeds)
    return run, [feeds], lambda out: out[0], None


BUILDERS = {"tensorjit": tensorjit_builder, "onnxruntime": onnxruntime_builder}
