"""python -m tensorjit.bench profiler: the profiler's cost and its accounting, on the tiny
GPT (the figures themselves are the benchmark's, not asserted)."""
from tensorjit.bench import profiler


def test_profiler_bench_reports_cost_coverage_and_compile_phases(capsys):
    assert profiler.main(["--size", "tiny", "--rounds", "2", "--steps", "1"]) == 0
    out = capsys.readouterr().out
    assert "on / off" in out and "kernels and ops account for" in out
    assert "Chrome trace of 10 steps" in out
    for phase in ("capture", "passes", "codegen", "first run", "other"):
        assert phase in out, out
    share = float(out.split("kernels and ops account for ")[1].split("%")[0])
    assert 50 < share <= 100.5, out
