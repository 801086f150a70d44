"""Refresh the recorded MindSpore results (``mindspore_2_10.json``) the conformance test
compares tensorjit with; CI has no MindSpore, so the record is checked in.

    python tests/conformance/record.py --mindspore-python <path>   (or $TENSORJIT_MINDSPORE_PYTHON)
    python tests/conformance/record.py ... programs/builtins.py    (only those files)

The interpreter needs ``mindspore==2.10.0`` and ``numpy<2`` (its own virtualenv). Each
result keeps a digest of its program's source and calls (``spec.digest``): the test skips
a program whose record was made for other source, naming this command.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "mindspore_2_10.json")


def load_record():
    if not os.path.exists(RECORD):
        return {"mindspore": None, "results": {}}
    with open(RECORD, encoding="utf-8") as f:
        return json.load(f)


def write_record(record):
    with open(RECORD, "w", encoding="utf-8") as f:      # one program a line: small diffs
        f.write('{"mindspore": %s, "results": {\n' % json.dumps(record["mindspore"]))
        f.write(",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}"
                           for k, v in sorted(record["results"].items())))
        f.write("\n}}\n")


def run_mindspore(python, files, timeout=3600):
    """MindSpore's results for the program files (all by default), run now by ``python``."""
    env = dict(os.environ, GLOG_v="3", PYTHONWARNINGS="ignore")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "results.json")
        # (in the temporary directory: MindSpore writes its compile failures' IR there)
        run = subprocess.run([python, os.path.join(HERE, "mindspore_runner.py"), out, *files],
                             capture_output=True, text=True, timeout=timeout, env=env,
                             cwd=tmp)
        if run.returncode or not os.path.exists(out):
            raise RuntimeError(f"the MindSpore runner failed:\n{run.stderr[-3000:]}")
        with open(out, encoding="utf-8") as f:
            return json.load(f)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="program files (default: all)")
    parser.add_argument("--mindspore-python", default=os.environ.get(
        "TENSORJIT_MINDSPORE_PYTHON"), help="the interpreter with MindSpore 2.10 installed")
    args = parser.parse_args(argv)
    if not args.mindspore_python:
        parser.error("give --mindspore-python or set TENSORJIT_MINDSPORE_PYTHON")
    files = [os.path.abspath(f) for f in args.files]
    found = run_mindspore(args.mindspore_python, files)
    record = load_record()
    if not files:                 # a full run drops programs that no longer exist
        record["results"] = {}
    record["mindspore"] = found["mindspore"]
    record["results"].update(found["results"])
    write_record(record)
    print(f"{len(found['results'])} programs recorded in {RECORD} "
          f"(MindSpore {found['mindspore']})")


if __name__ == "__main__":
    main()
