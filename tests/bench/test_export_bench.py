"""The export benchmark (``python -m tensorjit.bench export``): each model is exported to
ONNX and TJIR, loaded in its worker (tensorjit under jit O1, ONNX Runtime), checked against
the source model and alternated."""
import pytest

from tensorjit.bench import export

pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")


def test_rows_are_built_checked_and_alternated(capsys):
    results = export.measure(export.parse_args(
        ["--size", "tiny", "--models", "gpt", "--batches", "1", "--rounds", "2"]))
    rows = results["gpt batch 1"]
    assert [r.label for r in rows] == ["tensorjit O1 (.onnx)", "tensorjit O1 (.tjir)",
                                       "ONNX Runtime (.onnx)"]
    for row in rows:
        assert row.error is None and len(row.samples) == 2, (row.label, row.error)
    text = capsys.readouterr().out
    assert "vs ORT" in text and "1.00x" in text
