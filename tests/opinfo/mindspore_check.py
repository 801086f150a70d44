"""Comparing the op table with the recorded MindSpore 2.10 results (mindspore_2_10.json)."""
import json
import os

import numpy as np

from tensorjit import dtype as dt

from .core import compare
from .run import call

RECORD_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mindspore_2_10.json")
_NAMES = {"bfloat16": "bfloat16", "bool": "bool"}


def load():
    with open(RECORD_PATH) as f:
        return json.load(f)


def ms_dtype(name):
    """Our dtype for a MindSpore dtype name ("float32", "int64", "bool", ...)."""
    return np.dtype(dt.as_dtype(name.replace("bool_", "bool")))


def decode(values):
    return np.array([float(v) if isinstance(v, str) else v for v in values], np.float64)


def result_of(record, entry, dtype, sample):
    """MindSpore's recorded result for ``sample``; None when there is none or it was
    recorded for other inputs (the samples changed since: re-record)."""
    from .mindspore_record import fingerprint
    found = record["results"].get(f"{entry.name}|{dtype.name}|{sample.label}")
    if found is None or found.get("input") != fingerprint(entry.ms, sample):
        return None
    return found


def dtype_problem(entry, sample, found):
    """Our result dtypes vs MindSpore's for one sample (None when they agree or MindSpore
    refused the call)."""
    if "error" in found:
        return None
    try:
        got = call(entry, sample)
    except Exception as exc:
        return f"we raise {type(exc).__name__} where MindSpore gives {found['dtypes']}"
    theirs = [d for d in found["dtypes"]]
    ours = [g.dtype.name for g in got]
    theirs = [ms_dtype(d).name if d not in ("NoneType",) else d for d in theirs]
    if ours[:len(theirs)] != theirs[:len(ours)]:
        return f"{ours}, MindSpore {theirs}"
    return None


def value_problem(entry, sample, found):
    """Our float32 values vs MindSpore's (NaN, inf and values within float32 tolerance)."""
    if "error" in found:
        return None
    got = call(entry, sample)
    for k, (g, shape, values) in enumerate(zip(got, found["shapes"], found["values"])):
        if values is None or shape is None:
            continue
        want = decode(values).reshape(shape)
        if g.shape != want.shape:
            return f"result {k}: shape {g.shape}, MindSpore {want.shape}"
        problem = compare(g.astype(np.float64), want, np.dtype(np.float64), 1e-4, 1e-4,
                          signed_zeros=False)
        if problem:
            return f"result {k}: {problem}"
    return None
