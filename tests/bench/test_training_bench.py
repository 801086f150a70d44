"""The training benchmark (``python -m tensorjit.bench resnet18|gpt``): every row runs in
its own worker from the same weights, its first losses are checked against eager, rounds
alternate, and the table has time per step, first steps cold / warm and peak memory; with
``--busy``, the rounds again beside each background load."""
import json
import os

import numpy as np
import pytest

from tensorjit.bench import alternate, busy, report, training
from tensorjit.bench.peers.server import peak_rss


def test_rows_train_alike_and_alternate(capsys):
    args = training.parse_args(["gpt", "--size", "tiny", "--rounds", "2", "--first-steps",
                                "3", "--peers", "none", "--rows", "O0"])
    record = training.measure("gpt", args)
    rows = {r["label"]: r for r in record["rows"]}
    assert list(rows) == ["tensorjit eager", "tensorjit O0"]
    eager, o0 = rows["tensorjit eager"], rows["tensorjit O0"]
    for row in (eager, o0):
        assert row["error"] is None and len(row["samples"]) == 2
        assert row["first_steps"] == 3 and row["first_steps_s"] >= row["first_step_s"] > 0
        assert row["peak_rss"] > 10 * 2 ** 20
    assert o0["warm_first_step_s"] > 0 and eager["warm_first_step_s"] is None
    np.testing.assert_allclose(o0["losses"], eager["losses"], rtol=1e-6)
    assert eager["losses"][-1] < eager["losses"][0]           # it trains
    assert 0 < o0["ratios"]["tensorjit O0"] == 1.0
    text = capsys.readouterr().out
    assert "| tensorjit O0 |" in text and "first 3 steps cold / warm" in text
    assert "beside" not in text and "busy" not in record and "busy" not in o0  # no --busy


def test_losses_that_differ_from_eager_are_wrong():
    rows = [alternate.Row(label, None, "gpt", "v") for label in
            ("tensorjit eager", "close", "far", "late")]
    outputs = ([2.0, 1.5, 1.2, 1.0], [2.0, 1.5 + 1e-6, 1.2, 1.0], [2.0, 1.6, 1.2, 1.0],
               [2.0, 1.5, 1.2, 0.9])
    for row, losses in zip(rows, outputs):
        row.key, row.output = "k", np.array(losses)
    training._check(rows)
    assert rows[1].error is None and rows[1].loss_error < 1e-5
    assert rows[2].error.startswith("WRONG")
    # after the checked steps a difference is reported, not an error: training drifts
    assert rows[3].error is None and abs(rows[3].loss_error - 0.1) < 1e-9


def test_peak_rss_sees_a_large_allocation():
    small = peak_rss(lambda: None)
    large = peak_rss(lambda: np.ones(64 * 2 ** 20, np.uint8).sum())
    assert large - small > 48 * 2 ** 20


def test_table_and_summary_name_the_ratios():
    row = {"label": "tensorjit O1", "per_step_s": 0.2, "ratios": {"PyTorch eager": 0.9,
                                                                  "tensorjit O0": 0.8},
           "first_step_s": 3.0, "warm_first_step_s": 0.5, "first_steps_s": 5.0,
           "warm_first_steps_s": 2.5, "first_steps": 10, "peak_rss": 300 * 2 ** 20,
           "loss_rel_diff": 1e-6, "error": None}
    o0 = dict(row, label="tensorjit O0", first_steps_s=4.0, ratios={"tensorjit O0": 1.0})
    record = {"first_steps": 10, "rows": [o0, row]}
    table = report.training_table(record)
    assert "| tensorjit O1 | 200 ms | 0.90x | 0.80x | 3.00 s / 500 ms | 5.00 s / 2.50 s |" \
        in table
    summary = "\n".join(report.training_summary(record))
    assert "0.90x PyTorch eager" in summary and "1.25x the first 10 O0 steps" in summary


def test_kernel_workloads_compute_what_pytorch_does():
    """Each kernel row (tensorjit O1 on its own, PyTorch eager) gives the same first
    gradient, checked here in one process before any timing."""
    import pytest
    pytest.importorskip("torch")
    from tensorjit.bench.peers import kernel_workloads as kw
    for name in ("embedding_grad", "bn_relu_grad", "softmax_xent_grad"):
        fn, args, first, _ = kw.tensorjit_builder(name, "O1")
        ref, ref_args, ref_first, _ = kw.torch_builder(name, "eager")
        np.testing.assert_allclose(first(fn(*args)), ref_first(ref(*ref_args)), rtol=1e-4,
                                   atol=1e-5, err_msg=name)


def test_busy_option_parses():
    parse = training.parse_args
    assert parse(["gpt"]).busy_list == []
    assert parse(["gpt", "--busy", "all"]).busy_list == ["spin", "blas"]
    args = parse(["gpt", "--busy", "blas", "--busy-rounds", "2"])
    assert args.busy_list == ["blas"] and args.busy_rounds == 2
    for bad in (["--busy", "disk"], ["--busy", "spin", "--busy-rounds", "0"]):
        with pytest.raises(SystemExit):
            parse(["gpt"] + bad)


def test_rows_alternate_again_beside_each_load(tmp_path, capsys):
    code = training.main(["gpt", "--size", "tiny", "--rounds", "2", "--first-steps", "2",
                          "--peers", "none", "--rows", "O0", "--no-warm", "--no-png",
                          "--busy", "all", "--busy-rounds", "1", "--out-dir", str(tmp_path)])
    assert code == 0 and busy.running() == []
    with open(tmp_path / "tensorjit-bench-gpt.json") as f:
        record = json.load(f)
    assert record["busy"]["rounds"] == 1
    for scenario in ("spin", "blas"):
        load = record["busy"]["scenarios"][scenario]
        assert load["error"] is None and load["load"]["ready"] == scenario
        assert load["cores"] > 0.1
    for row in record["rows"]:
        assert len(row["samples"]) == 2            # the quiet samples, kept apart
        for scenario in ("spin", "blas"):
            beside = row["busy"][scenario]
            assert len(beside["samples"]) == 1 and beside["error"] is None
            assert len(beside["quiet_samples"]) == 1       # the load paused, same rounds
            ratios = [a / b for a, b in zip(beside["samples"], beside["quiet_samples"])]
            assert beside["slowdown"] == pytest.approx(float(np.median(ratios)))
    text = capsys.readouterr().out
    assert "| row | quiet step | beside spin: paused / running | slowdown | beside blas: " \
        "paused / running | slowdown |" in text
    assert "- beside blas (a second tensorjit job" in text and "tensorjit O0 " in text


class FailingWorker:
    """A worker whose timing request fails, as a crashed peer's would."""

    def __init__(self):
        self.seen = []

    def request(self, **message):
        neighbour, = busy.running()
        self.seen.append(neighbour.pid)
        raise RuntimeError("the measurement failed")


def test_load_is_gone_when_the_rounds_beside_it_raise():
    worker = FailingWorker()
    row = alternate.Row("tensorjit O0", worker, "gpt", "O0")
    row.key, row.calls, row.samples = "k", 1, [0.1]
    args = training.parse_args(["gpt", "--busy", "spin"])
    with pytest.raises(RuntimeError, match="measurement failed"):
        training.beside_load([row], "spin", args)
    assert busy.running() == [] and row.samples == [0.1] and row.error is None
    assert worker.seen and not os.path.exists(f"/proc/{worker.seen[0]}")


def test_busy_table_and_summary_give_the_slowdowns():
    row = {"label": "tensorjit O1", "per_step_s": 0.2, "ratios": {}, "error": None,
           "busy": {"spin": {"per_step_s": 0.41, "quiet_step_s": 0.2, "slowdown": 2.05,
                             "error": None, "samples": [0.41], "quiet_samples": [0.2]}}}
    record = {"rows": [row], "busy": {"rounds": 5, "scenarios": {"spin": {
        "description": busy.SCENARIOS["spin"], "load": {"ready": "spin"}, "cores": 0.98,
        "error": None}}}}
    assert "| tensorjit O1 | 200 ms | 200 ms / 410 ms | 2.05x |" in report.busy_table(record)
    line, = report.busy_summary(record)
    assert "kept 0.98 cores busy" in line and "tensorjit O1 2.05x (200 ms -> 410 ms)" in line
