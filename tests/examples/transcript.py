"""What a tutorial script prints, as data: every ``print`` argument described (a tensor by
dtype, shape and values; a tuple or list by its items; anything else by its text), so that
tensorjit's run of a tutorial can be compared with MindSpore's run of the same file whatever
each prints tensors like.

    python tests/examples/transcript.py --record --mindspore-python /tmp/msvenv/bin/python

runs each of ``TUTORIALS`` under MindSpore 2.10 (the file with ``tensorjit`` read as
``mindspore``: only the imports differ) and writes ``transcripts/<name>.json``;
tests/examples/test_transcripts.py runs them under tensorjit and compares.
"""
import argparse
import builtins
import json
import os
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TUTORIALS = ["tutorial_numpy.py"]


def describe(obj):
    import numpy as np
    if hasattr(obj, "asnumpy") and hasattr(obj, "shape"):
        array = obj.asnumpy()
        return {"tensor": str(array.dtype), "shape": list(array.shape),
                "values": [None if v != v else v for v in
                           array.astype(np.float64).ravel().tolist()]}
    if isinstance(obj, (tuple, list)):
        return {type(obj).__name__: [describe(item) for item in obj]}
    return {"text": str(obj)}


def run_here(path, framework, out):
    """Run the tutorial at ``path`` in this process, recording its prints into ``out``."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    if framework == "mindspore":
        source = source.replace("tensorjit", "mindspore")
        import mindspore
        if not hasattr(mindspore, "ms_function"):
            # the tutorial's ms_function is jit's old name, which MindSpore 2.10 removed
            mindspore.ms_function = mindspore.jit
    printed, real_print = [], builtins.print

    def recording_print(*args, **kwargs):
        printed.append([describe(a) for a in args])
        real_print(*args, **kwargs)

    builtins.print = recording_print
    try:
        # a real __main__ module: MindSpore's graph parser looks the tutorial's globals up
        # through sys.modules[function.__module__]
        main = types.ModuleType("__main__")
        main.__file__ = path
        sys.modules["__main__"] = main
        exec(compile(source, path, "exec"), main.__dict__)
    finally:
        builtins.print = real_print
        with open(out, "w", encoding="utf-8") as f:
            json.dump(printed, f, indent=0)


def run(name, python, framework, out):
    """Run ``examples/<name>`` with ``python`` in a fresh process; its prints, described."""
    env = dict(os.environ, PYTHONWARNINGS="ignore",
               PYTHONPATH=ROOT if framework == "tensorjit" else "")
    proc = subprocess.run([python, os.path.abspath(__file__), "--run",
                           os.path.join(ROOT, "examples", name), "--framework", framework,
                           "--out", out], capture_output=True, text=True, timeout=600,
                          cwd=ROOT, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"{name} under {framework} failed:\n{proc.stderr[-3000:]}")
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--mindspore-python", default=os.environ.get(
        "TENSORJIT_MINDSPORE_PYTHON"))
    parser.add_argument("--run")
    parser.add_argument("--framework", default="tensorjit")
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.run:
        run_here(args.run, args.framework, args.out)
        return 0
    if not args.mindspore_python:
        raise SystemExit("--mindspore-python (or $TENSORJIT_MINDSPORE_PYTHON) is needed")
    for name in TUTORIALS:
        out = os.path.join(HERE, "transcripts", name[:-3] + ".json")
        run(name, args.mindspore_python, "mindspore", out)
        print(f"wrote {os.path.relpath(out, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
