"""The benchmark runner: tables print, every row is checked, results land in JSON.

No wall-clock assertions: these check what is measured and reported, not how fast."""
import json

import numpy as np
import pytest

from tensorjit.bench import cli, report
from tensorjit.bench.rows import rows_for, select, RowSpec
from tensorjit.bench.suite import Case, compare
from tensorjit.bench.measure import measure_row, timed_loop, OK, WRONG, NOT_AVAILABLE
from tensorjit.bench.progress import ProgressBar

SEED_SIMPLE_ROWS = ["eager", "ast.O0", "ast.O1", "ast.GE", "bytecode.O0", "bytecode.O1",
                    "bytecode.GE", "trace.O0", "trace.O1", "trace.GE", "ast.O0.fullgraph",
                    "ast.O1.fullgraph", "ast.GE.fullgraph"]


def run_cli(tmp_path, capsys, *argv):
    out_json = tmp_path / "out.json"
    code = cli.main(list(argv) + ["--json", str(out_json), "--no-png", "--progress", "off",
                                  "--out-dir", str(tmp_path)])
    text = capsys.readouterr().out
    with open(out_json) as f:
        data = json.load(f)
    return code, text, data


def statuses(data):
    return {(c["title"], r["id"]): r for c in data["cases"] for g in c["groups"] for r in g}


def test_simple_prints_the_seed_table_with_every_row_checked(tmp_path, capsys):
    code, text, data = run_cli(tmp_path, capsys, "simple", "-n", "20", "--repeat", "1",
                               "--peers", "numpy")
    assert code == 0
    (case,) = data["cases"]
    ids = [r["id"] for g in case["groups"] for r in g]
    assert ids == SEED_SIMPLE_ROWS
    table = text.split("### simple", 1)[1]
    assert "| enable jit | jit level | capture mode | backend | fullgraph | time to prepare " \
           "| time to run 20 times |" in table
    for row in (r for g in case["groups"] for r in g):
        # correct, or a capture mode that is still being built: never wrong, never broken
        assert row["status"] in (OK, NOT_AVAILABLE), (row["id"], row["status"], row["error"])
        if row["status"] == OK:
            assert row["prepare_s"] > 0 and row["run_s"] > 0 and row["iterations"] == 20
            assert row["compiles_while_timed"] == 0, row        # compiled once, up front
    rows = {r["id"]: r for g in case["groups"] for r in g}
    assert rows["eager"]["status"] == OK and rows["trace.O0"]["status"] == OK
    table_lines = [l for l in table.splitlines() if l.startswith("| true") or
                   l.startswith("| false")]
    assert len(table_lines) == 13
    # issue 3's printout: per call, raw NumPy vs eager and jitted tensorjit, and the ratio
    assert "raw NumPy" in text and "jit(trace, O0)" in text
    assert "jitted / raw NumPy per call:" in text
    assert "slowest capture mode" in text and "10-op function on 2x3 tensors" in text
    assert set(case["ten_ops"]) == {"numpy", "ast.O0", "bytecode.O0", "trace.O0"}
    numpy_row = case["peers"][0]
    assert numpy_row["peer"] == "numpy" and numpy_row["status"] == OK


def test_blocks_forward_and_backward_tiny(tmp_path, capsys):
    code, text, data = run_cli(tmp_path, capsys, "conv", "--size", "tiny", "-n", "2",
                               "--rows", "O0", "--peers", "none")
    assert [c["title"] for c in data["cases"]] == ["conv forward", "conv forward+backward"]
    for (title, row_id), row in statuses(data).items():
        assert row["status"] in (OK, NOT_AVAILABLE), (title, row_id, row["error"])
        assert "O1" not in row_id
    assert "### conv forward+backward" in text


def test_attention_tiny_seed_rows(tmp_path, capsys):
    code, text, data = run_cli(tmp_path, capsys, "attention", "--size", "tiny", "-n", "2",
                               "--rows", "seed", "--peers", "none")
    assert [c["title"] for c in data["cases"]] == ["attention forward",
                                                   "attention forward+backward"]
    for (title, row_id), row in statuses(data).items():
        assert row_id in ("eager", "ast.O0", "ast.O1")
        assert row["status"] in (OK, NOT_AVAILABLE), (title, row_id, row["error"])


def test_unknown_row_or_peer_is_a_usage_error(capsys):
    with pytest.raises(SystemExit):
        cli.parse_args(["simple", "--rows", "O7"])
    with pytest.raises(SystemExit):
        cli.parse_args(["simple", "--peers", "tensorflow"])
    capsys.readouterr()


def test_row_selection():
    groups = rows_for("simple")
    assert [r.id for g in groups for r in g] == SEED_SIMPLE_ROWS
    assert all(r.seed for g in groups for r in g)
    block = [r for g in rows_for("conv") for r in g]
    assert [r.id for r in block if r.seed] == ["eager", "ast.O0", "ast.O1"]
    assert {r.id for r in block} >= {"trace.O1", "bytecode.GE", "ast.GE"}
    picked = [r.id for g in select(groups, "trace,fullgraph") for r in g]
    assert picked == ["eager", "trace.O0", "trace.O1", "trace.GE", "ast.O0.fullgraph",
                      "ast.O1.fullgraph", "ast.GE.fullgraph"]
    assert [r.id for g in select(rows_for("conv"), "seed") for r in g] == \
        ["eager", "ast.O0", "ast.O1"]
    assert RowSpec("trace", "O1").jit_kwargs() == {"capture_mode": "trace", "jit_level": "O1"}
    assert RowSpec("ast", backend="GE", fullgraph=True).jit_kwargs() == {
        "capture_mode": "ast", "backend": "GE", "fullgraph": True}


def test_a_wrong_row_is_reported_and_not_timed(monkeypatch):
    case = Case("simple", "forward", "cpu", iterations=5)
    case.refs = {i: [r[0] + 1.0] for i, r in case.refs.items()}     # sabotage the reference
    result = measure_row(case, RowSpec("trace", "O0"))
    assert result["status"] == WRONG and result["run_s"] is None
    assert "differs from eager" in result["error"]


def test_not_implemented_is_not_available(monkeypatch):
    case = Case("simple", "forward", "cpu", iterations=3)

    def boom(*args):
        raise NotImplementedError("capture_mode='ast' is not available yet")
    monkeypatch.setattr(case, "fn", boom)
    result = measure_row(case, RowSpec())
    assert result["status"] == NOT_AVAILABLE and "ast" in result["error"]


def test_compare_and_timed_loop():
    a = np.array([1.0, 2.0, 4.0], np.float32)
    assert compare([a], [a], 1e-6)[0] is None
    assert compare([a + 1e-3], [a], 1e-4)[0] is not None
    assert "shape" in compare([a[:2]], [a], 1e-4)[0]
    assert "dtype" in compare([a.astype(np.float64)], [a], 1e-4, check_dtype=True)[0]
    calls, seen = [(1,), (2,), (3,)], []
    fractions = []
    timed_loop(seen.append, calls, repeat=2, on_chunk=fractions.append, chunks=3)
    assert seen == [1, 2, 3, 1, 2, 3] and abs(sum(fractions) - 1.0) < 1e-9


def test_report_formatting():
    assert report.fmt_time(2.5) == "2.50 s"
    assert report.fmt_time(0.0123) == "12.3 ms"
    assert report.fmt_time(4.2e-6) == "4.2 µs"
    assert report.fmt_time(None) == "-"
    assert "slower" in report.fmt_ratio(0.5) and "faster" in report.fmt_ratio(2.0)


def test_progress_bar_draws_only_when_enabled(capsys):
    import io
    stream = io.StringIO()
    bar = ProgressBar(4, enabled=True, stream=stream)
    bar.set_label("conv forward")
    bar.advance(2)
    bar.close()
    assert "50.0%" in stream.getvalue() and "conv forward" in stream.getvalue()
    quiet = io.StringIO()
    ProgressBar(4, enabled=False, stream=quiet).advance(1)
    assert quiet.getvalue() == ""
