"""examples/custom_operators.py: MindSpore 2.10's documented Custom / kernel examples run
as scripts and print what MindSpore's documentation shows."""
import os
import shutil
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sections(out):
    """The printed text of each numbered section."""
    parts, name = {}, None
    for line in out.splitlines():
        if line.startswith("== "):
            name = int(line[3])
            parts[name] = []
        elif name is not None:
            parts[name].append(line)
    return {k: "\n".join(v) for k, v in parts.items()}


def numbers(text):
    return np.array(text.replace("[", " ").replace("]", " ").split(), float)


def test_documented_examples_print_mindspores_results():
    env = dict(os.environ, PYTHONWARNINGS="ignore", PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "examples",
                                                        "custom_operators.py")],
                          capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = sections(proc.stdout)
    assert out[1] == "(16, 16)"
    np.testing.assert_allclose(numbers(out[2]), np.sin([0, 1, 0.2, 0.3, 0.4]), rtol=1e-6)
    np.testing.assert_array_equal(numbers(out[3]), [2.0, 8.0, 18.0])
    np.testing.assert_array_equal(numbers(out[4]), [4.0] * 8)      # Python, then hybrid op
    np.testing.assert_array_equal(numbers(out[5]), [3.0] * 48)     # hybrid, then pyfunc
    if shutil.which("g++"):
        np.testing.assert_array_equal(numbers(out[6]), [2.0, 2.0, 4.0, 4.0])
