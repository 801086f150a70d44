"""The differential conformance harness: every program of ``programs/`` run on tensorjit --
eagerly and under every capture mode x level -- and compared with MindSpore 2.10's results
(recorded in ``mindspore_2_10.json`` by ``record.py``, or computed now by MindSpore's
interpreter when one is given).

    python tests/conformance/harness.py [--mindspore-python PATH] [--deep] [files...]

prints every difference and the counts. The test (``test_conformance.py``) runs the same
comparisons, one test per program.

What is compared, per call of a program: values (float tolerance 1e-5), dtypes, shapes,
Python types and container kinds, and exception types. Each jit configuration is compared
with MindSpore's graph mode (``mindspore.jit``); the eager run too, except for programs
marked ``eager=False`` (constructs MindSpore's graph mode rejects that Python runs), whose
eager run is compared with MindSpore's PyNative mode. Within tensorjit, every configuration
must agree with eager (errors included), and an error raised in every configuration has one
message, naming the program's file and line.
"""
import contextlib
import functools
import io
import os
import re
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import spec  # noqa: E402

EAGER = "eager"
CONFIGS = [(mode, level) for mode in ("ast", "bytecode", "trace") for level in ("O0", "O1")]
DEEP_CONFIGS = CONFIGS + [("ast", "O1", "GE"), ("bytecode", "O0", "GE"), ("trace", "O1", "GE")]


def config_name(config):
    return EAGER if config == EAGER else "-".join(config)


def framework():
    import numpy as np
    import tensorjit as ms
    from tensorjit import ops, nn, Tensor, Parameter, ParameterTuple
    from tensorjit.ops import composite as C, functional as F, operations as P
    return ms, {"ms": ms, "mindspore": ms, "ops": ops, "nn": nn, "Tensor": Tensor,
                "Parameter": Parameter, "ParameterTuple": ParameterTuple, "C": C, "F": F,
                "P": P, "np": np}


def _make_tensor(ms):
    def make(t):
        value = ms.Tensor(t.array(), dtype=getattr(ms, "bool_" if t.dtype == "bool"
                                                   else t.dtype))
        return ms.Parameter(value, name=t.parameter) if t.parameter else value
    return make


def _dtype_name(x):
    return str(x.dtype).lower()


def run_config(ms, entry, config, calls):
    """The encoded results of ``entry``'s calls under ``config`` (EAGER or a jit
    configuration), each call made ``calls`` times (the last result kept)."""
    fn = entry["fn"]
    if config != EAGER:
        options = dict(capture_mode=config[0], jit_level=config[1])
        if len(config) > 2:
            options["backend"] = config[2]
        fn = ms.jit(fn, **options)
    make = _make_tensor(ms)
    results = []
    for args, kwargs in entry["calls"]:
        encoded = None
        for _ in range(calls):
            try:
                with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                    warnings.simplefilter("ignore")
                    out = fn(*spec.arguments(list(args), make),
                             **spec.arguments(dict(kwargs), make))
                encoded = spec.encode(out, ms.Tensor, _dtype_name)
            except Exception as exc:        # an error is a result to compare
                encoded = spec.encode_error(exc)
        results.append(encoded)
    return results


@functools.lru_cache(maxsize=None)
def run_file(path, deep=False):
    """{program name: {config name: [encoded result per call]}} for one program file;
    every configuration executes the file afresh (its own functions, Cells, state)."""
    ms, names = framework()
    configs = [EAGER] + (DEEP_CONFIGS if deep else CONFIGS)
    out = {}
    for config in configs:
        for entry in spec.load(path, names):
            results = run_config(ms, entry, config, calls=3 if deep else 1)
            record = out.setdefault(entry["name"], {"_entry": entry})
            record[config_name(config)] = results
    return out


_LOCATION = re.compile(r"^(?P<where>[^:]+\.py:\d+) \([^)]*\): ")


def consistency_problems(name, results, path):
    """Within tensorjit: each configuration agrees with eager; one message per error."""
    entry = results["_entry"]
    problems = []
    configs = [c for c in results if c not in ("_entry", EAGER)]
    for config in configs:
        for i, (ours, eager) in enumerate(zip(results[config], results[EAGER])):
            if not entry["eager"]:
                continue
            for d in spec.differences(ours, eager, f"call {i}"):
                problems.append(f"{config} differs from eager: {d.replace('MindSpore', 'eager')}")
    for i in range(len(entry["calls"])):
        errors = [results[c][i] for c in configs if "error" in results[c][i]]
        if len(errors) != len(configs):
            continue
        messages = {" / ".join([e["message"]] + e.get("notes", [])) for e in errors}
        if len(messages) > 1:
            problems.append(f"call {i}: the error is worded {len(messages)} ways: "
                            + " | ".join(sorted(messages)))
        base = os.path.basename(path)
        if sys.version_info < (3, 11) and errors[0]["error"] == "KeyError":
            continue        # its argument is the key; the location is a note, new in 3.11
        for message in messages:
            if not re.search(re.escape(base) + r":\d+", message):
                problems.append(f"call {i}: the error does not name {base}:<line>: {message}")
    return problems


def mindspore_problems(name, results, theirs, reference=None):
    """Against MindSpore's results: {config: [difference, ...]}. Each configuration is
    compared with MindSpore's graph mode (eager, for a program marked ``eager=False``, with
    its PyNative mode), or every one with ``reference`` ("pynative") when given."""
    entry = results["_entry"]
    found = {}
    for config, ours_calls in results.items():
        if config == "_entry":
            continue
        side = reference or ("pynative" if config == EAGER and not entry["eager"]
                             else "graph")
        for i, (ours, want) in enumerate(zip(ours_calls, theirs[side])):
            for d in spec.differences(ours, want, f"call {i}"):
                found.setdefault(config, []).append(d)
    return found


def main(argv=None):
    import argparse
    import record
    from known_differences import DIFFERENCES
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--mindspore-python", default=None,
                        help="compare with MindSpore run now instead of the record")
    parser.add_argument("--deep", action="store_true", help="GE configs, 3 calls each")
    args = parser.parse_args(argv)
    files = [os.path.abspath(f) for f in args.files] or spec.program_files()
    start = time.perf_counter()
    reference = (record.run_mindspore(args.mindspore_python, files)
                 if args.mindspore_python else record.load_record())["results"]
    counts = {"programs": 0, "differ": 0, "listed": 0, "unrecorded": 0, "inconsistent": 0}
    for path in files:
        for name, results in run_file(path, args.deep).items():
            counts["programs"] += 1
            inconsistent = consistency_problems(name, results, path)
            if inconsistent:
                counts["inconsistent"] += 1
                print(f"INCONSISTENT {name}:\n    " + "\n    ".join(inconsistent))
            theirs = reference.get(name)
            if theirs is None or theirs.get("input") != spec.digest(results["_entry"]):
                counts["unrecorded"] += 1
                print(f"UNRECORDED {name}")
                continue
            found = mindspore_problems(name, results, theirs)
            if not found:
                continue
            key = "listed" if name in DIFFERENCES else "differ"
            if key == "listed" and DIFFERENCES[name][0] is not None:
                unlike = mindspore_problems(name, results, theirs, DIFFERENCES[name][0])
                if unlike:
                    key = "differ"
                    found = {f"{c} vs {DIFFERENCES[name][0]}": d for c, d in unlike.items()}
            counts[key] += 1
            lines = [f"{c}: {d}" for c, ds in found.items() for d in ds[:2]]
            print(f"{'LISTED' if key == 'listed' else 'DIFFERS'} {name}:\n    "
                  + "\n    ".join(lines[:8]))
    print(f"{counts} in {time.perf_counter() - start:.1f} s")
    return 1 if counts["differ"] or counts["inconsistent"] else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
    sys.exit(main())
