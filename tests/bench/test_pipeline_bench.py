"""The pipeline benchmark (``python -m tensorjit.bench pipeline``): every row is a training
step fed its own way; all three train the same network on the same kind of data, and the
rows are built in persistent workers and alternated."""
import numpy as np
import pytest

from tensorjit.bench import train_pipeline

pytest.importorskip("PIL")


@pytest.mark.parametrize("variant", ["memory", "workers1", "workers2", "processes2"])
def test_each_row_trains(variant, monkeypatch):
    from tensorjit.dataset import config
    for key in ("prefetch_size", "seed", "seed_generation"):     # build() sets them
        monkeypatch.setitem(config._SETTINGS, key, config._SETTINGS[key])
    step, args, to_numpy, _ = train_pipeline.build(variant, batch=16)
    losses = [float(to_numpy(step(*args))) for _ in range(40)]
    assert all(np.isfinite(losses))
    assert np.mean(losses[-10:]) < np.mean(losses[:10])


def test_rows_are_alternated(capsys):
    rows = train_pipeline.measure(rounds=2, steps=3)
    assert [r.label for r in rows] == [label for label, _ in train_pipeline.VARIANTS]
    for row in rows:
        assert row.error is None and len(row.samples) == 2
    out = capsys.readouterr().out
    assert "steps/s" in out and "pipeline, 2 threads" in out
