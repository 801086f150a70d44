"""What MindSpore 2.10 does with the table's samples, recorded once into
``mindspore_2_10.json`` so that CI, which has no MindSpore, checks us against it.

    python tests/opinfo/mindspore_record.py --mindspore-python <path>
    (or set $TENSORJIT_MINDSPORE_PYTHON)

For every entry with a MindSpore counterpart (``OpInfo.ms``, "ops.<name>" by default) and
every dtype, the first sample's result dtypes (or MindSpore's error); for float32, every
sample's values too; and ``ops.add`` over every pair of dtypes and with Python numbers (the
promotion table). ``mindspore_runner.py`` runs the probes in MindSpore's interpreter.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "mindspore_2_10.json")
SCALARS = (True, 2, 2.5)


def _encode_value(v):
    if isinstance(v, float) and not np.isfinite(v):
        return "nan" if np.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def _tensor(a):
    return {"tensor": a.dtype.name, "shape": list(a.shape),
            "values": [_encode_value(v) for v in a.astype(np.float64).ravel().tolist()]}


def encode(value):
    """A probe argument, or None when it has no JSON form (slices, ...)."""
    from tensorjit import dtype as dt
    if isinstance(value, np.ndarray):
        return _tensor(value)
    if isinstance(value, list) and value and all(isinstance(v, np.ndarray) for v in value):
        return {"tensors": [_tensor(v) for v in value]}
    if isinstance(value, np.dtype):
        return {"dtype": value.name} if value in dt.ALL_DTYPES else None
    if isinstance(value, (tuple, list)):
        items = [encode(v) for v in value]
        if any(i is None or "py" not in i for i in items):
            return None
        return {"py": [i["py"] for i in items]}
    if isinstance(value, (bool, int, float, str, type(None))):
        return {"py": _encode_value(value)}
    return None


def probe(pid, fn, sample):
    args = [encode(a) for a in sample.args]
    kwargs = {k: encode(v) for k, v in sample.kwargs.items()}
    if any(a is None for a in args) or any(v is None for v in kwargs.values()):
        return None
    return {"id": pid, "fn": fn, "args": args, "kwargs": kwargs}


def fingerprint(fn, sample):
    """A digest of a probe's call and inputs: a record made for other inputs (the samples
    changed since) is not used."""
    p = probe("", fn, sample)
    text = json.dumps([p["fn"], p["args"], p["kwargs"]], sort_keys=True) if p else ""
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def probes():
    from tensorjit import dtype as dt
    from opinfo.table import TABLE
    out = []
    for entry in TABLE.values():
        if not entry.ms or entry.random:
            continue
        for dtype in dt.ALL_DTYPES:
            samples = [s for s in entry.samples_for(dtype) if s.raises is None]
            chosen = samples if dtype == dt.float32 else samples[:1]
            for sample in chosen:
                p = probe(f"{entry.name}|{dtype.name}|{sample.label}", entry.ms, sample)
                if p is not None:
                    out.append(p)
    ones = {d: np.ones(2, d) for d in dt.ALL_DTYPES}
    from opinfo.core import Sample
    for a in dt.ALL_DTYPES:
        for b in dt.ALL_DTYPES:
            out.append(probe(f"promote|{a.name}|{b.name}", "ops.add",
                             Sample(ones[a], ones[b])))
        for s in SCALARS:
            out.append(probe(f"scalar|{a.name}|{s!r}", "ops.add", Sample(ones[a], s)))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mindspore-python", default=os.environ.get(
        "TENSORJIT_MINDSPORE_PYTHON"), help="the interpreter with MindSpore 2.10 installed")
    args = parser.parse_args(argv)
    if not args.mindspore_python:
        parser.error("give --mindspore-python or set TENSORJIT_MINDSPORE_PYTHON")
    sys.path[:0] = [os.path.dirname(os.path.dirname(HERE)), os.path.dirname(HERE)]
    todo = probes()
    run = subprocess.run([args.mindspore_python, os.path.join(HERE, "mindspore_runner.py")],
                         input=json.dumps(todo), capture_output=True, text=True, timeout=3600)
    if run.returncode:
        sys.exit(f"the MindSpore runner failed:\n{run.stderr[-3000:]}")
    result = json.loads(run.stdout)
    inputs = {p["id"]: hashlib.sha1(json.dumps([p["fn"], p["args"], p["kwargs"]],
                                              sort_keys=True).encode()).hexdigest()[:12]
              for p in todo}
    record = {"mindspore": result["mindspore"], "results": {}}
    for found in result["results"]:
        pid = found.pop("id")
        found["input"] = inputs[pid]
        record["results"][pid] = found
    for key, found in record["results"].items():
        if "|float32|" not in key:       # other dtypes: the result dtypes are what we check
            found.pop("values", None)
    with open(RECORD, "w") as f:       # one probe a line: small diffs when re-recorded
        f.write('{"mindspore": %s, "results": {\n' % json.dumps(record["mindspore"]))
        f.write(",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}"
                           for k, v in sorted(record["results"].items())))
        f.write("\n}}\n")
    print(f"{len(todo)} probes recorded in {RECORD} (MindSpore {result['mindspore']})")


if __name__ == "__main__":
    main()
