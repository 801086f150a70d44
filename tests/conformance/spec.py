"""What the conformance programs are and how their results are written down; shared by
the tensorjit side (``harness.py``) and MindSpore's interpreter (``mindspore_runner.py``),
so it needs only the standard library and NumPy.

A program file (``programs/*.py``) is plain Python executed in a namespace that provides
``ms`` (the framework: ``mindspore`` or ``tensorjit``), ``ops``, ``nn``, ``Tensor``,
``Parameter``, ``ParameterTuple``, ``C`` / ``F`` / ``P`` (composite, functional,
operations), ``np``, and ``program`` / ``T`` from here:

    @program(T([1.0, 2.0]), T(3, "int32"))
    def len_of_tuple(x, n):
        return len((x, n, 1)) * x

Each ``@program(...)`` is one call of the function (stack them for several calls, made in
order with one jitted function, so later calls meet the cache). ``program(..., eager=False)``
marks a construct MindSpore's graph mode rejects that Python runs: eager runs are not
compared. ``T(values, dtype)`` is a tensor argument; other arguments are passed as they are.
"""
import hashlib
import inspect
import json
import math
import os
import re
import sys
import types

import numpy as np

class T:
    """A tensor argument: ``T(values, dtype="float32")`` (values: nested lists or a number);
    ``parameter="name"`` makes it a Parameter."""

    def __init__(self, values, dtype=None, parameter=None):
        array = np.asarray(values)
        if dtype is None:
            dtype = ("float32" if array.dtype.kind == "f" else
                     "int64" if array.dtype.kind in "iu" else array.dtype.name)
        self.values = array.astype(dtype).tolist()
        self.dtype = dtype
        self.shape = list(array.shape)
        self.parameter = parameter

    def spec(self):
        return {"tensor": self.dtype, "shape": self.shape, "values": self.values,
                "parameter": self.parameter}

    def array(self):
        return np.asarray(self.values, dtype=self.dtype).reshape(self.shape)


def load(path, names):
    """Run the program file at ``path`` in a namespace of ``names`` (the framework's);
    returns its programs: ``{"name", "fn", "calls": [(args, kwargs)], "eager"}`` each."""
    programs = []

    def program(*args, eager=True, **kwargs):
        """Register the decorated function with one call's arguments (module doc)."""
        def deco(fn):
            entry = next((p for p in programs if p["fn"] is fn), None)
            if entry is None:
                entry = {"name": fn.__name__, "fn": fn, "calls": [], "eager": eager}
                programs.append(entry)
            entry["calls"].insert(0, (args, kwargs))    # decorators apply bottom-up
            entry["eager"] = entry["eager"] and eager
            return fn
        return deco

    stem = os.path.splitext(os.path.basename(path))[0]
    # a real module (MindSpore's parser imports a function's module by name)
    module = types.ModuleType(f"conformance_{stem}")
    module.__dict__.update(names, program=program, T=T, __file__=path)
    sys.modules[module.__name__] = module
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), module.__dict__)
    for entry in programs:
        entry["name"] = f"{stem}.{entry['name']}"
    return programs


def program_files():
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")
    return sorted(os.path.join(folder, n) for n in os.listdir(folder)
                  if n.endswith(".py") and not n.startswith("_"))


def arg_spec(value):
    if isinstance(value, T):
        return value.spec()
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [arg_spec(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[k, arg_spec(v)] for k, v in value.items()]}
    if isinstance(value, float) and not math.isfinite(value):
        return {"float": repr(value)}
    return {"py": value}


def digest(entry):
    """What a recorded result is valid for: the program's source and its calls."""
    text = json.dumps([inspect.getsource(entry["fn"]),
                       [[[arg_spec(a) for a in args], {k: arg_spec(v) for k, v in kw.items()}]
                        for args, kw in entry["calls"]]], sort_keys=True)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def _number(v):
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


def encode(value, tensor_type, dtype_name):
    """A result as JSON data: tensors by dtype name, shape and values; Python values by
    type and value; containers by kind. ``dtype_name(tensor)`` names a tensor's dtype
    ("float32", "int64", "bool")."""
    if isinstance(value, tensor_type):
        array = value.asnumpy()
        flat = array.astype(np.float64).ravel().tolist() if array.dtype.kind in "fc" \
            else array.ravel().tolist()
        return {"tensor": dtype_name(value), "shape": list(array.shape),
                "values": [_number(v) for v in flat]}
    for kind in (bool, int, float, str, type(None)):       # (NumPy's float64 is a float)
        if isinstance(value, kind):
            return {"py": kind.__name__, "value": _number(kind(value) if value is not None
                                                           else None)}
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [encode(v, tensor_type, dtype_name) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[repr(k), encode(v, tensor_type, dtype_name)]
                         for k, v in value.items()]}
    if isinstance(value, np.ndarray):
        return {"ndarray": value.dtype.name, "values": value.ravel().tolist()}
    return {"other": type(value).__name__}


def encode_error(exc):
    message = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
    message = re.sub(r"0x[0-9a-f]{6,}", "0x...", message)   # addresses: a record stays put
    notes = [str(n)[:300] for n in getattr(exc, "__notes__", ())]
    return {"error": type(exc).__name__, "message": message, "notes": notes}


def decode_number(v):
    return float(v) if isinstance(v, str) else v


def differences(ours, theirs, path="result", rtol=1e-5, atol=1e-6):
    """How ``ours`` differs from ``theirs`` (both encoded): a list of strings."""
    if "error" in theirs or "error" in ours:
        if "error" in theirs and "error" in ours:
            return [] if ours["error"] == theirs["error"] else [
                f"{path}: raises {ours['error']}, MindSpore raises {theirs['error']}"]
        if "error" in theirs:
            return [f"{path}: returns, MindSpore raises {theirs['error']}: "
                    f"{theirs['message'][:120]}"]
        return [f"{path}: raises {ours['error']}: {ours['message'][:160]}, MindSpore returns"]
    kind_ours, kind_theirs = kind(ours), kind(theirs)
    if kind_ours != kind_theirs:
        return [f"{path}: {describe(ours)}, MindSpore {describe(theirs)}"]
    if kind_ours == "tensor":
        if ours["tensor"] != theirs["tensor"] or ours["shape"] != theirs["shape"]:
            return [f"{path}: {describe(ours)}, MindSpore {describe(theirs)}"]
        a = np.array([decode_number(v) for v in ours["values"]], np.float64)
        b = np.array([decode_number(v) for v in theirs["values"]], np.float64)
        if not np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True):
            return [f"{path}: values {a.tolist()[:8]}, MindSpore {b.tolist()[:8]}"]
        return []
    if kind_ours == "py":
        a, b = ours["value"], theirs["value"]
        same = ours["py"] == theirs["py"] and (
            a == b or (isinstance(a, float) and isinstance(b, float) and
                       math.isclose(a, b, rel_tol=rtol, abs_tol=atol)))
        return [] if same else [f"{path}: {describe(ours)}, MindSpore {describe(theirs)}"]
    if kind_ours in ("tuple", "list"):
        a, b = ours[kind_ours], theirs[kind_theirs]
        if len(a) != len(b):
            return [f"{path}: {kind_ours} of {len(a)}, MindSpore {len(b)}"]
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, f"{path}[{i}]", rtol, atol)
        return out
    if kind_ours == "dict":
        a, b = dict(map(tuple, ours["dict"])), dict(map(tuple, theirs["dict"]))
        if list(a) != list(b):
            return [f"{path}: keys {list(a)}, MindSpore {list(b)}"]
        out = []
        for k in a:
            out += differences(a[k], b[k], f"{path}[{k}]", rtol, atol)
        return out
    return [] if ours == theirs else [f"{path}: {describe(ours)}, MindSpore {describe(theirs)}"]


KINDS = ("error", "tensor", "py", "tuple", "list", "dict", "ndarray", "other")


def kind(encoded):
    return next(k for k in KINDS if k in encoded)


def describe(encoded):
    kind_ = kind(encoded)
    if kind_ == "tensor":
        return f"Tensor {encoded['tensor']}{tuple(encoded['shape'])}"
    if kind_ == "py":
        return f"{encoded['py']} {encoded['value']!r}"
    if kind_ in ("tuple", "list"):
        return f"{kind_} of {len(encoded[kind_])}"
    if kind_ == "error":
        return f"{encoded['error']}"
    return kind_


def arguments(value, make_tensor):
    """A call's argument with each ``T`` made a framework tensor by ``make_tensor(T)``."""
    if isinstance(value, T):
        return make_tensor(value)
    if isinstance(value, (tuple, list)):
        return type(value)(arguments(v, make_tensor) for v in value)
    if isinstance(value, dict):
        return {k: arguments(v, make_tensor) for k, v in value.items()}
    return value
