"""The fusion benchmark (``python -m tensorjit.bench fusion``): workers build and check
every row, rounds alternate, and a row whose result is wrong is reported, not timed."""
import numpy as np

from tensorjit.bench import alternate, fusion


def test_rows_are_built_checked_and_alternated(capsys):
    results = fusion.measure(fusion.parse_args(
        ["--peers", "numpy", "--workloads", "softmax", "--rounds", "2"]))
    rows = results["softmax"]
    assert [r.label for r in rows] == ["tensorjit eager", "tensorjit O0", "tensorjit O1",
                                       "NumPy"]
    for row in rows:
        assert row.error is None and len(row.samples) == 2 and row.prepare_s > 0
    x = rows[0].output
    assert np.allclose(x.sum(-1), 1.0, atol=1e-5)      # a softmax, from the worker
    text = capsys.readouterr().out
    assert "tensorjit O1" in text and "/ O0" in text


def test_a_row_that_differs_from_eager_is_marked_wrong():
    reference, good, bad = (alternate.Row(n, None, "w", "v") for n in ("ref", "good", "bad"))
    for row, value in ((reference, 1.0), (good, 1.0 + 1e-7), (bad, 1.1)):
        row.key, row.output = "k", np.full(4, value)
    alternate.check([reference, good, bad], reference)
    assert good.error is None and bad.error.startswith("WRONG")


def test_a_worker_that_fails_to_build_reports_the_error():
    worker = alternate.Worker("tensorjit")
    try:
        row = alternate.Row("x", worker, "no-such-workload", "O0")
        alternate.build([row], "/tmp", log=lambda *_: None)
        assert row.error and not row.ok
    finally:
        worker.close()
