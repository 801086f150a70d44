"""The training benchmark (``python -m tensorjit.bench resnet18|gpt``): every row runs in
its own worker from the same weights, its first losses are checked against eager, rounds
alternate, and the table has time per step, first steps cold / warm and peak memory."""
import numpy as np

from tensorjit.bench import alternate, report, training
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
