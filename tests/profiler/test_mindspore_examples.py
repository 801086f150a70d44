"""The examples of MindSpore 2.10's API pages for ``mindspore.Profiler`` and
``mindspore.profiler.profile`` (their CPU parts: the device is "CPU"), with only the import
changed, each run in its own process as a user runs a script; then what they wrote."""
import json
import os
import subprocess
import sys
import textwrap


COMMON = '''
import numpy as np
import tensorjit as mindspore
import tensorjit as ms
from tensorjit import nn
import tensorjit.dataset as ds
from tensorjit import Profiler
from tensorjit.profiler import ProfilerLevel, ProfilerActivity, AicoreMetrics, ExportType


class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.fc = nn.Dense(2, 2)

    def construct(self, x):
        return self.fc(x)


def generator():
    for i in range(2):
        yield (np.ones([2, 2]).astype(np.float32), np.ones([2]).astype(np.int32))


def train(net):
    optimizer = nn.Momentum(net.trainable_params(), 1, 0.9)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    data = ds.GeneratorDataset(generator, ["data", "label"])
    model = ms.train.Model(net, loss, optimizer)
    model.train(1, data)
'''

PROFILER_CLASS = COMMON + '''
if __name__ == '__main__':
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_device("CPU")

    # Init Profiler
    # Note that the Profiler should be initialized before model.train
    profiler = Profiler(profiler_level=ProfilerLevel.Level0,
                        activities=[ProfilerActivity.CPU],
                        aic_metrics=AicoreMetrics.AiCoreNone,
                        export_type=[ExportType.Text])

    # Train Model
    net = Net()
    train(net)

    # Profiler end
    profiler.analyse()
'''

PROFILE_CLASS = COMMON + '''
if __name__ == '__main__':
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_device("CPU")

    # Init Profiler
    experimental_config = mindspore.profiler._ExperimentalConfig(
                                profiler_level=ProfilerLevel.Level0,
                                aic_metrics=AicoreMetrics.AiCoreNone,
                                l2_cache=False,
                                mstx=False,
                                data_simplification=False,
                                export_type=[ExportType.Text])
    steps = 10
    net = Net()
    # Note that the Profiler should be initialized before model.train
    with mindspore.profiler.profile(activities=[ProfilerActivity.CPU],
                                    schedule=mindspore.profiler.schedule(wait=0, warmup=0, active=1,
                                          repeat=1, skip_first=0),
                                    on_trace_ready=mindspore.profiler.tensorboard_trace_handler("./data"),
                                    profile_memory=False,
                                    experimental_config=experimental_config) as prof:

        # Train Model
        for step in range(steps):
            train(net)
            prof.step()
'''

MSTX = COMMON + '''
from tensorjit.profiler import mstx

if __name__ == '__main__':
    ms.set_device("CPU")
    with mindspore.profiler.profile(activities=[ProfilerActivity.CPU],
                                    on_trace_ready=mindspore.profiler.tensorboard_trace_handler("./data")) as prof:
        net = Net()
        mstx.mark("train start")
        range_id = mstx.range_start("train")
        train(net)
        mstx.range_end(range_id)
'''


def _run(tmp_path, source):
    script = tmp_path / "example.py"
    script.write_text(textwrap.dedent(source))
    env = dict(os.environ)
    env.pop("PYTHONWARNINGS", None)        # (the other interpreters' suites set "ignore")
    proc = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


def _output_folder(tmp_path):
    runs = os.listdir(tmp_path / "data")
    assert len(runs) == 1 and runs[0].endswith("_ascend_ms"), runs
    return tmp_path / "data" / runs[0] / "ASCEND_PROFILER_OUTPUT"


def _trace_names(folder):
    with open(folder / "trace_view.json") as f:
        return {e["name"] for e in json.load(f)["traceEvents"]}


def test_profiler_class_example(tmp_path):
    proc = _run(tmp_path, PROFILER_CLASS)
    assert "aic_metrics is ignored" in proc.stderr and "export_type is ignored" in proc.stderr
    folder = _output_folder(tmp_path)
    names = _trace_names(folder)
    assert "matmul" in names and any(n.startswith("compile ") for n in names), names
    assert (folder / "report.html").stat().st_size > 0


def test_profile_class_example_with_schedule(tmp_path):
    _run(tmp_path, PROFILE_CLASS)
    folder = _output_folder(tmp_path)          # one cycle (repeat=1, active=1): one folder
    names = _trace_names(folder)
    assert "step 0" in names and "step 1" not in names, sorted(names)[:40]
    assert "matmul" in names


def test_mstx_example(tmp_path):
    _run(tmp_path, MSTX)
    names = _trace_names(_output_folder(tmp_path))
    assert {"train start", "train", "matmul"} <= names
