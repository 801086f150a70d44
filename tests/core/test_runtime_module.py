"""tensorjit.runtime against MindSpore 2.10's mindspore.runtime on its CPU build (answers and
messages checked with MindSpore 2.10 in a fresh process per setter)."""
import os

import pytest

import tensorjit as tj
from tensorjit.runtime import settings as runtime_settings


@pytest.fixture(autouse=True)
def fresh_settings():
    # the settings are once per process, as in MindSpore: each test starts from none set
    saved = dict(runtime_settings.settings)
    affinity = os.sched_getaffinity(0)
    runtime_settings.settings.clear()
    yield
    runtime_settings.settings.clear()
    runtime_settings.settings.update(saved)
    os.sched_setaffinity(0, affinity)


def test_memory_statistics_are_mindspore_cpu_zeros():
    rt = tj.runtime
    tj.Tensor([1.0, 2.0]) + 1
    assert rt.memory_allocated() == rt.max_memory_allocated() == 0
    assert rt.memory_reserved() == rt.max_memory_reserved() == 0
    stats = rt.memory_stats()
    assert stats["total_idle_memory"] == 0
    assert stats["common_mem_pool_stats"] == {"block_unit_size": 0, "block_counts": 0,
                                              "blocks_info": {}}
    for reset in (rt.empty_cache, rt.reset_peak_memory_stats, rt.reset_max_memory_reserved,
                  rt.reset_max_memory_allocated, rt.synchronize, rt.launch_blocking):
        assert reset() is None
    summary = rt.memory_summary()
    # MindSpore 2.10's CPU summary, line for line
    assert summary.splitlines()[:6] == [
        "|=============================================|",
        "|               Memory summary                |",
        "|=============================================|",
        "| Metric               | Data                 |",
        "|---------------------------------------------|",
        "| Reserved memory      |      0 B             |"]
    assert len(summary.splitlines()) == 17 and summary.endswith("|\n")
    with pytest.raises(RuntimeError, match="Ascend"):
        rt.memory_replay("memory_block.csv")


def test_memory_summary_units():
    from tensorjit.runtime.memory import _format_size
    assert _format_size(1000) == "  1000 B  "
    assert _format_size(3 * 2 ** 20) == "  3072 KB"   # below 768 KB-units stays in KB
    assert _format_size(5 * 2 ** 30) == "  5120 MB"


def test_kernel_launch_group_checks_and_once():
    rt = tj.runtime
    with pytest.raises(TypeError, match="The parameter 'thread_num' must be <class 'int'>"):
        rt.set_kernel_launch_group(thread_num="a")
    with pytest.raises(ValueError, match="thread_num should be at least 1"):
        rt.set_kernel_launch_group(thread_num=0)
    with pytest.raises(ValueError, match="cannot be evenly divisible"):
        rt.set_kernel_launch_group(thread_num=3, kernel_group_num=8)
    rt.set_kernel_launch_group()
    assert runtime_settings.settings["kernel_launch_group"] == (2, 8)
    with pytest.raises(RuntimeError, match="can not be set repeatedly"):
        rt.set_kernel_launch_group()
    with pytest.raises(RuntimeError, match="can not be set together"):
        rt.set_kernel_launch_capture(True)


def test_set_memory_and_dispatch_threads():
    rt = tj.runtime
    with pytest.raises(TypeError, match="'init_size' must be <class 'str'>"):
        rt.set_memory(init_size=2)
    with pytest.raises(ValueError, match="'1G' is illegal, it must be match regular"):
        rt.set_memory(init_size="1G")
    with pytest.raises(ValueError, match="'0GB' is illegal"):
        rt.set_memory(max_size="0GB")
    with pytest.raises(ValueError, match="should not be"):
        rt.set_memory(max_size="0.0GB")
    with pytest.raises(ValueError, match="could not convert string to float"):
        rt.set_memory(max_size="2GBx")
    with pytest.raises(ValueError, match="optimize_level must be one of"):
        rt.set_memory(optimize_level="O2")
    rt.set_memory("1.5GB", optimize_level="O1")
    assert runtime_settings.settings["memory"]["init_size"] == 1.5
    with pytest.raises(RuntimeError, match="'set_memory' can not be set repeatedly"):
        rt.set_memory()
    with pytest.raises(TypeError, match="'threads_num' must be"):
        rt.dispatch_threads_num(2.0)
    with pytest.raises(ValueError, match="must be int and must > 0, but got '0'"):
        rt.dispatch_threads_num(0)
    with pytest.raises(TypeError, match="with type 'bool'"):
        rt.dispatch_threads_num(True)
    rt.dispatch_threads_num(6)
    with pytest.raises(RuntimeError, match="can not be set repeatedly"):
        rt.dispatch_threads_num(6)


def test_set_cpu_affinity_binds_this_process():
    rt = tj.runtime
    first = min(os.sched_getaffinity(0))
    with pytest.raises(TypeError, match="must be list"):
        rt.set_cpu_affinity(True, "0-1")
    with pytest.raises(ValueError, match="should be in format"):
        rt.set_cpu_affinity(True, ["a-b"])
    with pytest.raises(ValueError, match="should be a non-negative integer"):
        rt.set_cpu_affinity(True, [str(first)], {"main": [-1]})
    with pytest.raises(RuntimeError, match="is not available"):
        rt.set_cpu_affinity(True, ["100000"])
    rt.set_cpu_affinity(True, [str(first)], {"main": [0]})
    assert os.sched_getaffinity(0) == {first}
    with pytest.raises(RuntimeError, match="cannot be set repeatedly"):
        rt.set_cpu_affinity(True)


def test_set_cpu_affinity_disabled_and_bind_file(tmp_path):
    rt = tj.runtime
    before = os.sched_getaffinity(0)
    rt.set_cpu_affinity(False)
    assert os.sched_getaffinity(0) == before
    runtime_settings.settings.clear()
    first = min(before)
    path = tmp_path / "bind.json"
    path.write_text('{"bind_cpu": {"device0": {"main": "%d"}}}' % first)
    rt.set_cpu_affinity(True, bind_file=str(path))
    assert os.sched_getaffinity(0) == {first}


def test_streams_and_events():
    rt = tj.runtime
    stream = rt.Stream()
    assert stream == rt.current_stream() == rt.default_stream() and stream.id == 0
    assert stream.query() is True and stream.synchronize() is None
    with pytest.raises(TypeError, match="'other' should be Stream"):
        stream == 1
    with rt.StreamCtx(rt.Stream(priority=1)):
        assert rt.current_stream().priority == 1
    assert rt.current_stream().priority == 0
    with pytest.raises(TypeError, match="'ctx_stream' should be Stream"):
        rt.StreamCtx(3)
    start, end = rt.Event(enable_timing=True), rt.Event(enable_timing=True)
    start.record()
    sum(range(10000))
    end.record(stream)
    assert end.query() and 0.0 <= start.elapsed_time(end) < 10_000
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        rt.Event().elapsed_time(end)
    with pytest.raises(TypeError, match="'enable_timing' must be a bool"):
        rt.Event(enable_timing=1)
    assert isinstance(stream.record_event(), rt.Event)
