"""The ports of MindSpore's tutorials in examples/ run (small sizes, generated data) and
their losses fall; each imports tensorjit as ``mindspore`` and nothing of MindSpore."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
TUTORIALS = ["quick_start.py", "quick_start_mint.py", "model_callbacks.py", "save_load.py", "mixed_precision.py",
             "dataset_pipeline.py", "mindrecord_conversion.py"]


def run(name, *args, tmp_path):
    env = dict(os.environ, PYTHONWARNINGS="ignore",
               PYTHONPATH=os.pathsep.join([ROOT] + os.environ.get("PYTHONPATH", "").split(
                   os.pathsep)).rstrip(os.pathsep))
    proc = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), "--workdir",
                           str(tmp_path), *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    return proc.stdout


def floats(pattern, text):
    found = re.findall(pattern, text)
    return [float(v) for item in found for v in (item if isinstance(item, tuple) else (item,))]


@pytest.mark.parametrize("name", TUTORIALS)
def test_only_the_import_names_tensorjit(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        source = f.read()
    assert "import tensorjit as mindspore" in source and "import mindspore" not in source


# the mint form trains in float16, which NumPy multiplies without a BLAS: fewer images
@pytest.mark.parametrize("name, images", [("quick_start.py", "640"),
                                          ("quick_start_mint.py", "256")])
def test_quick_start(tmp_path, name, images):
    out = run(name, "--epochs", "2", "--train", images, tmp_path=tmp_path)
    losses = floats(r"loss: ([\d.]+)  \[", out)
    assert losses[-1] < losses[0]
    test_losses = floats(r"Avg loss: ([\d.]+)", out)
    assert test_losses[1] < test_losses[0]
    assert "\n[]\n" in out                                   # param_not_load is empty
    reloaded = floats(r"reloaded test loss: ([\d.]+)", out)[0]
    assert reloaded == pytest.approx(test_losses[1], rel=1e-5)
    assert os.path.exists(tmp_path / "model.ckpt")


@pytest.mark.parametrize("sink", [False, True])
def test_model_with_callbacks(tmp_path, sink):
    out = run("model_callbacks.py", "--epochs", "2", "--train", "640",
              *(["--sink"] if sink else []), tmp_path=tmp_path)
    epoch_losses = [float(v) for v in re.search(r"epoch losses: \[(.*)\]", out).group(1)
                    .split(",")]
    assert epoch_losses[1] < epoch_losses[0]
    assert "Train epoch time:" in out and "{'accuracy': " in out
    assert re.search(r"checkpoints: \['mnist-1_10.ckpt', 'mnist-2_10.ckpt'\]", out)


def test_save_load(tmp_path):
    out = run("save_load.py", "--steps", "12", tmp_path=tmp_path)
    first, last = floats(r"training loss: first ([\d.]+), last ([\d.]+)", out)
    assert last < first and "\n[]\n" in out


def test_mixed_precision(tmp_path):
    out = run("mixed_precision.py", "--epochs", "2", "--train", "512", tmp_path=tmp_path)
    first, last = floats(r"functional O2: first loss ([\d.]+), last loss ([\d.]+)", out)
    assert last < first
    model_losses = floats(r"epoch: \d+ step: \d+, loss is ([\d.]+)", out)
    assert model_losses[-1] < model_losses[0]


def test_mindrecord_conversion(tmp_path):
    pytest.importorskip("PIL", reason="the tutorial makes its images with Pillow")
    out = run("mindrecord_conversion.py", "--samples", "30", tmp_path=tmp_path)
    assert "Got 30 samples" in out and "batches per epoch: 3" in out
    assert "batch: (8, 3, 32, 32) float32 (8,) int32" in out
    assert "nlp rows: 30" in out and "nlp batch: (16, 8) int64 True" in out
    assert sorted(os.listdir(tmp_path)) == ["nlp.mindrecord0", "nlp.mindrecord0.db",
                                            "nlp.mindrecord1", "nlp.mindrecord1.db",
                                            "test.mindrecord", "test.mindrecord.db"]


def test_dataset_pipeline(tmp_path):
    out = run("dataset_pipeline.py", "--train", "640", "--epochs", "2", tmp_path=tmp_path)
    assert "(32, 28, 28, 1) float32" in out and "(64, 1, 28, 28) (64,)" in out
    losses = floats(r"epoch: \d+ step: \d+, loss is ([\d.]+)", out)
    assert len(losses) == 2 and losses[1] < losses[0]
