"""Runs op-table probes in a MindSpore interpreter (standalone: NumPy and MindSpore only,
no tensorjit) and prints what MindSpore returns. ``mindspore_record.py`` starts it:

    <mindspore python> mindspore_runner.py < probes.json > results.json

A probe is ``{"id", "fn": "ops.cumsum" | "Tensor.cumsum", "args": [...], "kwargs": {...}}``
with each argument ``{"tensor": dtype name, "shape": [...], "values": [...]}``, a list of
such tensors ``{"tensors": [...]}``, a dtype ``{"dtype": name}`` or ``{"py": value}``;
floats that JSON cannot hold are the strings "nan", "inf", "-inf". The result is
``{"id", "dtypes", "shapes", "values"}`` or ``{"id", "error"}``.
"""
import json
import sys
import warnings

import numpy as np


def _float(v):
    return float(v) if isinstance(v, str) else v


def _tensor(ms, spec):
    values = np.array([_float(v) for v in spec["values"]], dtype=np.float64)
    name = spec["tensor"]
    if name == "bfloat16":
        return ms.Tensor(values.astype(np.float32).reshape(spec["shape"])).astype(ms.bfloat16)
    return ms.Tensor(values.astype(name).reshape(spec["shape"]))


def _arg(ms, spec):
    if "tensor" in spec:
        return _tensor(ms, spec)
    if "tensors" in spec:
        return [_tensor(ms, s) for s in spec["tensors"]]
    if "dtype" in spec:
        return getattr(ms, "bool_" if spec["dtype"] == "bool" else spec["dtype"])
    value = spec["py"]
    return tuple(value) if isinstance(value, list) else value


def _encode(values, digits=17):
    """JSON numbers (``digits`` significant digits: 9 hold a float32 exactly)."""
    out = []
    for v in values:
        if isinstance(v, float) and not np.isfinite(v):
            out.append("nan" if np.isnan(v) else ("inf" if v > 0 else "-inf"))
        elif isinstance(v, float):
            out.append(float(f"{v:.{digits}g}"))
        else:
            out.append(v)
    return out


def _result(ms, value):
    items = value if isinstance(value, (tuple, list)) else [value]
    dtypes, shapes, values = [], [], []
    for item in items:
        if not isinstance(item, ms.Tensor):
            dtypes.append(type(item).__name__)
            shapes.append(None)
            values.append(item if isinstance(item, (int, float, bool)) else None)
            continue
        dtypes.append(str(item.dtype).lower().replace("bfloat16", "bfloat16"))
        shapes.append(list(item.shape))
        if item.dtype == ms.bfloat16:
            item = item.astype(ms.float32)
        array = item.asnumpy()
        digits = 17 if array.dtype == np.float64 else 9
        values.append(_encode(array.astype(np.float64).ravel().tolist(), digits)
                      if array.size <= 4096 else None)
    return {"dtypes": dtypes, "shapes": shapes, "values": values}


def run(probe, ms):
    from mindspore import ops
    args = [_arg(ms, a) for a in probe["args"]]
    kwargs = {k: _arg(ms, v) for k, v in probe.get("kwargs", {}).items()}
    where, name = probe["fn"].split(".", 1)
    if where == "Tensor":
        fn = getattr(args[0], name)
        args = args[1:]
    else:
        fn = getattr(ops if where == "ops" else getattr(ms, where), name)
    return _result(ms, fn(*args, **kwargs))


def main():
    warnings.filterwarnings("ignore")
    import mindspore as ms
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU", pynative_synchronize=True)
    probes = json.load(sys.stdin)
    results = []
    for probe in probes:
        try:
            out = run(probe, ms)
        except Exception as exc:      # a probe's failure is a fact to record
            out = {"error": f"{type(exc).__name__}: {str(exc).strip().splitlines()[0][:200]}"
                   if str(exc).strip() else type(exc).__name__}
        out["id"] = probe["id"]
        results.append(out)
    json.dump({"mindspore": ms.__version__, "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
