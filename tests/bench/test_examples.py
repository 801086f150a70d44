"""Every file in examples/ runs as it is (small size) and prints the seed's lines."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")


def run_example(name):
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    proc = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), "--small"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_the_seed_examples_are_there():
    # (examples/train_lenet.py has its own smoke test in tests/training)
    assert {"simple_attention.py", "simple_conv.py", "simple_function.py"} <= set(
        os.listdir(EXAMPLES))


def test_simple_function_example():
    out = run_example("simple_function.py")
    lines = [line for line in out.splitlines() if line.startswith("function")]
    assert len(lines) == 13                       # the seed's function_dict
    for line in lines:
        assert "time to prepare" in line or "not available" in line, line
    assert "out shape: (2, 3)" in out


@pytest.mark.parametrize("name, shape", [("simple_conv.py", "(1, 8, 16, 16)"),
                                         ("simple_attention.py", "(1, 8, 32)")])
def test_block_examples(name, shape):
    out = run_example(name)
    lines = [line for line in out.splitlines() if "block" in line]
    assert [line.split(",")[0].split(":")[0] for line in lines] == [
        "origin block fp", "jitted block by default fp", "jitted block by O1 fp",
        "origin block fp+bp", "jitted block by default fp+bp", "jitted block by O1 fp+bp"]
    for line in lines:
        assert "time to prepare" in line or "not available" in line, line
    assert f"output shape is: {shape}" in out
    assert "grad[0] shape is" in out
