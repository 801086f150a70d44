"""Runs the conformance programs in MindSpore's interpreter (standalone: NumPy, MindSpore
and ``spec.py`` only) and prints what MindSpore returns, as JSON. ``record.py`` starts it:

    <mindspore python> mindspore_runner.py results.json [program files]

(the results go to a file: programs print, and MindSpore writes to stdout itself).

Every program is run in graph mode (``mindspore.jit(fn)``, one jitted function for all its
calls) and in PyNative mode (the plain call), each file executed afresh for each.
"""
import json
import os
import signal
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spec  # noqa: E402

TIMEOUT = 120           # seconds for one program (all its calls), then it counts as failed


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout(f"more than {TIMEOUT} s")


def framework():
    import mindspore as ms
    from mindspore import ops, nn, Tensor, Parameter, ParameterTuple
    from mindspore.ops import composite as C, functional as F, operations as P
    import numpy as np
    return ms, {"ms": ms, "mindspore": ms, "ops": ops, "nn": nn, "Tensor": Tensor,
                "Parameter": Parameter, "ParameterTuple": ParameterTuple, "C": C, "F": F,
                "P": P, "np": np}


def run_program(ms, entry, graph):
    def make_tensor(t):
        import numpy as np
        value = ms.Tensor(t.array()) if t.dtype != "bfloat16" else \
            ms.Tensor(t.array().astype(np.float32)).astype(ms.bfloat16)
        return ms.Parameter(value, name=t.parameter) if t.parameter else value

    def dtype_name(x):
        return str(x.dtype).lower()

    fn = entry["fn"]
    if graph:
        try:
            fn = ms.jit(fn)
        except Exception as exc:
            return [spec.encode_error(exc)] * len(entry["calls"])
    results = []
    for args, kwargs in entry["calls"]:
        try:
            out = fn(*spec.arguments(list(args), make_tensor),
                     **spec.arguments(dict(kwargs), make_tensor))
            results.append(spec.encode(out, ms.Tensor, dtype_name))
        except Timeout:
            raise
        except BaseException as exc:      # an error is a result to record
            results.append(spec.encode_error(exc))
    return results


def main(argv):
    out_path, argv = argv[0], argv[1:]
    warnings.filterwarnings("ignore")
    ms, names = framework()
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    signal.signal(signal.SIGALRM, _alarm)
    files = argv or spec.program_files()
    out = {}
    for path in files:
        for graph in (True, False):
            programs = spec.load(path, names)
            for entry in programs:
                signal.alarm(TIMEOUT)
                try:
                    results = run_program(ms, entry, graph)
                except Timeout as exc:
                    results = [spec.encode_error(exc)] * len(entry["calls"])
                finally:
                    signal.alarm(0)
                record = out.setdefault(entry["name"], {"input": spec.digest(entry)})
                record["graph" if graph else "pynative"] = results
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"mindspore": ms.__version__, "results": out}, f)


if __name__ == "__main__":
    main(sys.argv[1:])
