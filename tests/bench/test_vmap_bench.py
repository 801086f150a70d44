"""The vmap benchmark (``python -m tensorjit.bench vmap``): every row is built in its
worker, checked against tensorjit's hand-batched eager result, and alternated; vmap rows
are compared with the hand-batched row of the same level."""
from tensorjit.bench import vmap


def test_rows_are_built_checked_and_alternated(capsys):
    results = vmap.measure(vmap.parse_args(
        ["--peers", "numpy", "--workloads", "vmap_grads", "--rounds", "2"]))
    rows = results["vmap_grads"]
    assert [r.label for r in rows] == [
        "tensorjit batched eager", "tensorjit vmap eager", "tensorjit batched O0",
        "tensorjit vmap O0", "tensorjit batched O1", "tensorjit vmap O1", "NumPy batched"]
    for row in rows:
        assert row.error is None and len(row.samples) == 2, (row.label, row.error)
    assert vmap.by_hand(rows[1], rows) is rows[0]
    assert vmap.by_hand(rows[5], rows) is rows[4] and vmap.by_hand(rows[0], rows) is None
    text = capsys.readouterr().out
    assert "vmap / by hand" in text and "tensorjit vmap O1" in text
