"""tensorjit.profiler: MindSpore's and PyTorch's ways of using it, what it records in every
capture mode and level (checked against this file's own lines and against the program run
without a profiler), the Chrome trace format, the schedule, the tables and the CLI."""
import json
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, ops, Tensor
from tensorjit.profiler import (Profiler, profile, schedule, ProfilerActivity, ProfilerAction,
                                tensorboard_trace_handler, mstx)

HERE = os.path.abspath(__file__)
MODES = ("ast", "bytecode", "trace")
LEVELS = ("O0", "O1")


def _line(marker):
    """``this file:line`` of the line holding ``marker``."""
    with open(HERE) as f:
        for number, text in enumerate(f, 1):
            if marker in text and "_line(" not in text:
                return f"{HERE}:{number}"
    raise AssertionError(marker)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(8, 8)

    def construct(self, x):
        y = self.fc(x)                                   # marker: dense
        return ops.tanh(y) * 2 + ops.exp(-y).mean()      # marker: activation


def _inputs(seed=0, n=512):        # 4096 elements: O1 fuses groups this size
    return Tensor(np.random.default_rng(seed).standard_normal((n, 8)).astype(np.float32))


def _kernels_compiled():
    try:
        from tensorjit.backend.numba import background
    except ImportError:
        return
    background.wait(300)


def _train(net, steps=2):
    optimizer = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    loss_fn = nn.MSELoss()

    def forward(x, y):
        return loss_fn(net(x), y)
    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss
    for i in range(steps):
        step(_inputs(i), _inputs(i + 10))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("mode", MODES)
def test_kernels_of_every_mode_and_level_are_recorded_with_their_lines(mode, level):
    net = Net()
    f = ms.jit(net, capture_mode=mode, jit_level=level)
    x = _inputs()
    f(x)
    _kernels_compiled()        # (O1 runs NumPy code until its native kernels are compiled)
    expected = [f(x).asnumpy() for _ in range(3)]          # warm: the fast path is installed
    with profile(record_shapes=True) as prof:
        got = [f(x).asnumpy() for _ in range(3)]
    after = f(x).asnumpy()
    for e, g in zip(expected, got):                         # profiled code: the same numbers
        np.testing.assert_array_equal(e, g)
    np.testing.assert_array_equal(expected[0], after)
    kernels = [e for e in prof.events() if e.category == "kernel"]
    assert kernels, [e.name for e in prof.events()]
    lines = {line for e in kernels for line in e.args["lines"]}
    assert _line("marker: dense") in lines and _line("marker: activation") in lines, lines
    assert any(e.name == "matmul" for e in kernels)
    matmul = next(e for e in kernels if e.name == "matmul")
    assert [512, 8] in matmul.args["shapes"]
    if level == "O1":
        assert any(e.name.startswith("fused[") for e in kernels), [e.name for e in kernels]
    calls = [e for e in prof.events() if e.category == "jit"]
    assert len(calls) == 3
    for call in calls:        # every kernel of a call lies inside its span, on its thread
        inside = [k for k in kernels if k.tid == call.tid and call.start <= k.start < call.end]
        assert inside and all(k.end <= call.end + 1e-3 for k in inside)


def test_the_fast_path_comes_back_after_profiling():
    f = ms.jit(lambda a, b: a * b + 1.0)
    a, b = _inputs(1), _inputs(2)
    for _ in range(4):
        f(a, b)
    assert "_tj_x0" in f._tj_source                       # the inline fast path
    with profile():
        assert f.__globals__["_tj_tapes"] != 0             # diverted to the timed code
        f(a, b)
    assert f.__globals__["_tj_tapes"] == 0
    np.testing.assert_allclose(f(a, b).asnumpy(), a.asnumpy() * b.asnumpy() + 1.0)


def test_eager_ops_collectives_of_one_process_and_the_dataset_are_recorded():
    data = ms.dataset.NumpySlicesDataset({"x": np.arange(12, dtype=np.float32).reshape(6, 2)},
                                         shuffle=False).batch(2)
    with profile() as prof:
        y = ops.exp(_inputs()) + 1                        # marker: eager
        rows = list(data.create_tuple_iterator())
    assert len(rows) == 3 and y.shape == (512, 8)
    ops_ = [e for e in prof.events() if e.category == "op"]
    assert {"exp", "add"} <= {e.name for e in ops_}
    assert all(e.args["line"] == _line("marker: eager") for e in ops_
               if e.name in ("exp", "add"))
    assert sum(e.category == "dataset" for e in prof.events()) >= 3
    with profile(with_stack=True) as prof:
        ops.exp(_inputs())                                # marker: stacked
    (exp,) = [e for e in prof.events() if e.name == "exp"]
    assert exp.args["stack"][0].startswith(_line("marker: stacked"))
    assert "test_eager_ops" in exp.args["stack"][0]


def test_dataset_worker_threads_are_tracks_of_their_own():
    import threading
    data = ms.dataset.NumpySlicesDataset({"x": np.arange(64, dtype=np.float32).reshape(32, 2)},
                                         shuffle=False)
    data = data.map(lambda x: x * 2, "x", num_parallel_workers=2)
    with profile() as prof:
        rows = [r[0].asnumpy() for r in data.create_tuple_iterator()]
    assert len(rows) == 32
    maps = [e for e in prof.events() if e.name.startswith("dataset: map")]
    assert len(maps) == 32
    main = threading.main_thread().native_id
    assert any(e.tid != main for e in maps)
    assert all(prof.recording.thread_names[e.tid] for e in maps)


def test_compile_phases_cover_the_first_call():
    from tensorjit.profiler.summary import compile_breakdown
    _kernels_compiled()      # earlier tests' background compiles hold the kernel lock: wait
    f = ms.jit(Net(), jit_level="O1")
    with profile() as prof:
        f(_inputs())
    names = [e.name for e in prof.events() if e.category == "compile"]
    assert "capture (ast)" in names and "passes (O1)" in names and "codegen" in names
    assert {"fusion", "dce", "cse"} <= {e.name for e in prof.events() if e.category == "pass"}
    (call,) = compile_breakdown(prof.recording)
    assert call["reason"] == "first call" and call["mode"] == "ast" and call["level"] == "O1"
    assert sum(call["phases"].values()) == pytest.approx(call["total"], rel=1e-6)
    assert call["phases"]["other"] <= 0.1 * call["total"], call        # named phases: 90%+
    assert call["phases"]["capture"] > 0 and call["phases"]["passes"] > 0
    assert call["phases"]["codegen"] > 0 and call["phases"]["first run"] > 0


def test_graph_breaks_and_guard_failures_are_recorded():
    def fn(x, flag):
        print("side effect")                               # a graph break in bytecode
        return x * 2 if flag else x + 1
    f = ms.jit(fn, capture_mode="bytecode")
    with profile() as prof:
        f(_inputs(), True)
    capture = next(e for e in prof.events() if e.name == "capture (bytecode)")
    assert capture.args["graph_breaks"], capture.args


def test_chrome_trace_follows_the_trace_event_format(tmp_path):
    f = ms.jit(Net(), jit_level="O1")
    with profile(profile_memory=True, record_shapes=True) as prof:
        for _ in range(3):
            f(_inputs())
            prof.step()
        mstx.mark("checkpoint")
        rid = mstx.range_start("user work")
        ops.exp(_inputs())
        mstx.range_end(rid)
    path = prof.export_chrome_trace(str(tmp_path / "trace.json"))
    with open(path) as f_:
        trace = json.load(f_)
    events = trace["traceEvents"]
    assert events and trace["displayTimeUnit"] == "ms"
    phases = {e["ph"] for e in events}
    assert {"X", "i", "C", "M"} <= phases, phases
    for e in events:
        assert isinstance(e["name"], str) and isinstance(e["pid"], int)
        assert isinstance(e["tid"], int)
        if e["ph"] == "M":
            assert e["name"] in ("process_name", "thread_name") and "name" in e["args"]
            continue
        assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0
        if e["ph"] == "X":
            assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0
        if e["ph"] == "C":
            assert all(isinstance(v, (int, float)) for v in e["args"].values())
        if e["ph"] == "i":
            assert e["s"] in ("t", "p", "g")
    # spans of one thread nest: each one ends before its parent does
    by_thread = {}
    for e in sorted((e for e in events if e["ph"] == "X"), key=lambda e: (e["ts"], -e["dur"])):
        stack = by_thread.setdefault(e["tid"], [])
        while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"] + 0.002:   # (rounding)
            stack.pop()
        if stack:
            assert e["ts"] + e["dur"] <= stack[-1]["ts"] + stack[-1]["dur"] + 0.01, (e, stack[-1])
        stack.append(e)
    names = {e["name"] for e in events}
    assert {"step 0", "step 1", "step 2", "checkpoint", "user work", "matmul"} <= names
    assert any(e["name"] == "process memory" for e in events if e["ph"] == "C")


def test_pytorch_style_key_averages_table():
    f = ms.jit(Net(), jit_level="O0")
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        for _ in range(4):
            f(_inputs())
    averages = prof.key_averages()
    matmul = next(r for r in averages if r.key == "matmul")
    assert matmul.count == 4
    assert matmul.self_cpu_time_total <= matmul.cpu_time_total + 1e-9
    table = averages.table(sort_by="self_cpu_time_total", row_limit=10)
    assert "Self CPU %" in table and "# of Calls" in table and "matmul" in table
    rows = [l for l in table.splitlines() if l and not l.startswith(("-", "Name", "Self"))]
    assert len(rows) <= 10
    # self times partition the recording: their sum is the top-level spans' sum
    spans = [e for e in prof.events() if e.phase == "X" and e.category != "step"]
    top = sum(e.duration for e in spans if e.depth == 0)
    assert sum(r.self_cpu_time_total for r in averages) == pytest.approx(top, rel=1e-6)
    shaped = prof.key_averages(group_by_input_shape=True).table(row_limit=None)
    assert "Input Shapes" in shaped and "[[512, 8], [8, 8]]" in shaped
    by_line = prof.key_averages(group_by_stack_n=1).table()
    assert "Source Location" in by_line and "test_profiler.py" in by_line
    lines = prof.by_source_line()
    assert any(r.key == _line("marker: dense") for r in lines)
    with pytest.raises(ValueError, match="sort_by"):
        averages.table(sort_by="nonsense")


def test_mindspore_profiler_class_example(tmp_path):
    # mindspore.Profiler's API page, CPU parts, with only the import changed
    net = Net()
    profiler = Profiler(output_path=str(tmp_path / "data"))
    _train(net)
    profiler.analyse()
    folder = profiler.output_folder
    assert folder.startswith(str(tmp_path / "data")) and folder.endswith(
        os.path.join("_ascend_ms", "ASCEND_PROFILER_OUTPUT"))
    for name in ("trace_view.json", "op_statistic.csv", "kernel_details.csv", "summary.txt",
                 "report.html"):
        assert os.path.getsize(os.path.join(folder, name)) > 0, name
    with open(os.path.join(folder, "kernel_details.csv")) as f:
        assert "matmul" in f.read()
    assert profiler.op_analyse("matmul")["matmul"]


def test_mindspore_profile_with_schedule_example(tmp_path):
    # mindspore.profiler.profile's API page: schedule + tensorboard_trace_handler + step()
    net = Net()
    seen = []
    handler = tensorboard_trace_handler(str(tmp_path / "prof"))

    def on_ready(prof):
        seen.append(sorted({e.step for e in prof.events() if e.step is not None}))
        handler(prof)
    with profile(activities=[ProfilerActivity.CPU], with_stack=False, profile_memory=False,
                 schedule=schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1),
                 on_trace_ready=on_ready) as prof:
        for _ in range(8):
            _train(net, steps=1)
            prof.step()
    assert seen == [[3, 4]]
    runs = os.listdir(tmp_path / "prof")
    assert len(runs) == 1 and runs[0].endswith("_ascend_ms")


def test_schedule_actions():
    s = schedule(wait=1, warmup=1, active=2, repeat=2, skip_first=1)
    A = ProfilerAction
    assert [s(i) for i in range(10)] == [A.NONE, A.NONE, A.WARM_UP, A.RECORD,
                                         A.RECORD_AND_SAVE, A.NONE, A.WARM_UP, A.RECORD,
                                         A.RECORD_AND_SAVE, A.NONE]
    assert s.to_dict() == {"wait": 1, "active": 2, "warmup": 1, "repeat": 2, "skip_first": 1}
    with pytest.raises(ValueError, match="active"):
        schedule(wait=0, active=0)
    with pytest.raises(ValueError, match="wait"):
        schedule(wait=-1, active=1)


def test_arguments_without_meaning_here_are_accepted_and_named_once():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from tensorjit.profiler import session
        session._noted.discard("activity NPU")
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.NPU]):
            pass
        with profile(activities=[ProfilerActivity.NPU]):
            pass
    said = [w for w in caught if "NPU" in str(w.message)]
    assert len(said) == 1 and "ignored" in str(said[0].message)


def test_misuse_gets_clear_errors():
    with pytest.raises(RuntimeError, match="nothing recorded"):
        profile(start_profile=False).key_averages()
    with pytest.raises(TypeError, match="activities"):
        profile(activities=["CPU"])
    with profile():
        with pytest.raises(RuntimeError, match="another profiler"):
            profile().start()
    with pytest.raises(TypeError, match="schedule"):
        profile(schedule=3)


def test_mstx_without_a_profiler_costs_nothing_and_records_nothing():
    assert mstx.range_start("x") == 0
    mstx.range_end(0)
    mstx.mark("nothing")


SCRIPT = '''
import sys
import numpy as np
import tensorjit as ms
from tensorjit import ops, Tensor

@ms.jit
def f(x):
    return ops.exp(x) * 2 + 1          # the script's line

x = Tensor(np.ones((16, 16), np.float32))
for _ in range(int(sys.argv[1])):
    f(x)
print("ran", sys.argv[1:])
'''


def test_profile_a_whole_script_from_the_command_line(tmp_path):
    script = tmp_path / "job.py"
    script.write_text(SCRIPT)
    proc = subprocess.run([sys.executable, "-m", "tensorjit.profile", "-o", str(tmp_path / "out"),
                           str(script), "3"], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "ran ['3']" in proc.stdout
    assert "Self CPU %" in proc.stdout and "job.py:9" in proc.stdout
    (run,) = os.listdir(tmp_path / "out")
    folder = tmp_path / "out" / run / "ASCEND_PROFILER_OUTPUT"
    with open(folder / "trace_view.json") as f:
        assert any(e["name"].startswith(("fused", "exp", "mul")) for e in
                   json.load(f)["traceEvents"])
    missing = subprocess.run([sys.executable, "-m", "tensorjit.profile", "nope.py"],
                             capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert missing.returncode == 2 and "no such script" in missing.stderr


def test_merging_traces_checks_what_it_reads(tmp_path):
    from tensorjit.profiler.chrome import merge_traces
    with profile() as prof:
        ops.exp(_inputs())
    one = prof.export_chrome_trace(str(tmp_path / "one.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="bad.json: not a JSON trace"):
        merge_traces([one, str(bad)], str(tmp_path / "out.json"))
    bad.write_text('{"events": []}')
    with pytest.raises(ValueError, match="not a Chrome trace"):
        merge_traces([one, str(bad)], str(tmp_path / "out.json"))
    assert not (tmp_path / "out.json").exists()
    merge_traces([one, one], str(tmp_path / "out.json"))
    with open(tmp_path / "out.json") as f:
        assert sum(e["name"] == "exp" for e in json.load(f)["traceEvents"]) == 2
