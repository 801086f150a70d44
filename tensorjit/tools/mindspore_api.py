"""MindSpore's public names (``ops``, ``nn``, ``numpy``, ``mint`` and its ``nn`` /
``nn.functional``), and which of them tensorjit provides.

    python -m tensorjit.tools.mindspore_api --mindspore-python PATH   # refresh the file
    python -m tensorjit.tools.mindspore_api --check                    # coverage, no writes

Refreshing runs MindSpore's interpreter (``--mindspore-python`` or
``$TENSORJIT_MINDSPORE_PYTHON``) to list each namespace's ``__all__`` with each name's kind
(class, function, other object), then marks as claimed every name tensorjit offers under the
same namespace with the same kind. Two kinds are listed but never counted: "module" (a
submodule such as ``ops.auto_generate``: not an API name) and "absent" (in ``__all__`` but
not an attribute: ``mint.__all__`` also names what lives in ``mint.nn`` and
``mint.optim``). The result is ``tests/mindspore_ref/mindspore_api.json``;
``tests/core/test_api_coverage.py`` checks every claimed name and the coverage figures the
README states.
"""
import argparse
import importlib
import inspect
import json
import os
import subprocess
import sys

NAMESPACES = ("ops", "nn", "numpy", "mint", "mint.nn", "mint.nn.functional")
CORE = ("ops", "nn")                 # the headline figure: MindSpore's ops and nn
UNCOUNTED = ("module", "absent")
# names tensorjit has but does not claim, with the reason
NOT_CLAIMED = {"ops": {"Primitive": "tensorjit.ops.Primitive is the primitive registry's "
                                    "class, not MindSpore's base class for custom operators"}}
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))), "tests", "mindspore_ref", "mindspore_api.json")

# run by MindSpore's interpreter: prints {namespace: {name: kind}} and the version
_LISTER = r"""
import importlib, inspect, json, sys, types, warnings
warnings.filterwarnings("ignore")
import mindspore
out = {"version": mindspore.__version__}
missing = object()
for ns in %r:
    module = importlib.import_module("mindspore." + ns)
    names = {}
    for name in sorted(set(module.__all__)):
        obj = getattr(module, name, missing)
        names[name] = ("absent" if obj is missing else "module" if isinstance(
            obj, types.ModuleType) else "class" if inspect.isclass(obj) else
            "function" if callable(obj) else "other")
    out[ns] = names
sys.stdout.write(json.dumps(out))
""" % (NAMESPACES,)


def kind_of(obj):
    if inspect.isclass(obj):
        return "class"
    return "function" if callable(obj) else "other"


def module_of(ns):
    """tensorjit's module for a namespace (``"mint.nn"`` -> ``tensorjit.mint.nn``), or None."""
    try:
        return importlib.import_module("tensorjit." + ns)
    except ImportError:
        return None


def counted(names):
    """The names of a namespace's listing that are API names (no submodules, no absent)."""
    return {name: kind for name, kind in names.items() if kind not in UNCOUNTED}


def list_mindspore(python):
    proc = subprocess.run([python, "-c", _LISTER], capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"listing MindSpore's API with {python} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout[proc.stdout.index("{"):])


def claims(listing):
    """{namespace: sorted names tensorjit offers with MindSpore's kind}."""
    found = {}
    for ns in NAMESPACES:
        module = module_of(ns)
        skip = NOT_CLAIMED.get(ns, {})
        found[ns] = sorted(name for name, kind in counted(listing[ns]).items()
                           if module is not None and name not in skip
                           and hasattr(module, name) and kind_of(getattr(module, name)) == kind)
    return found


def coverage(record, namespaces=CORE):
    claimed = sum(len(record["claimed"][ns]) for ns in namespaces)
    total = sum(len(counted(record["mindspore"][ns])) for ns in namespaces)
    return claimed, total


def summary(record):
    claimed, total = coverage(record)
    parts = [f"{ns}: {len(record['claimed'][ns])} / {len(counted(record['mindspore'][ns]))}"
             for ns in NAMESPACES]
    return (f"MindSpore {record['version']} public API claimed: {claimed} / {total} of ops "
            f"and nn ({'; '.join(parts)})")


def missing(record, ns):
    """The counted names of a namespace tensorjit does not claim."""
    return sorted(set(counted(record["mindspore"][ns])) - set(record["claimed"][ns]))


def gap_report(record):
    """The names not offered, grouped by the reason mindspore_gaps.py gives."""
    from .mindspore_gaps import reasons
    lines = []
    for ns in NAMESPACES:
        why = reasons(ns)
        groups = {}
        for name in missing(record, ns):
            groups.setdefault(why.get(name, "NO REASON GIVEN (add it to mindspore_gaps.py)"),
                              []).append(name)
        for reason, names in groups.items():
            lines.append(f"{ns}, {len(names)} names: {reason}\n    {' '.join(names)}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mindspore-python",
                        default=os.environ.get("TENSORJIT_MINDSPORE_PYTHON"),
                        help="MindSpore's interpreter (to refresh the name lists)")
    parser.add_argument("--check", action="store_true",
                        help="only report: recompute the claims against the stored lists")
    parser.add_argument("--output", default=DATA)
    parser.add_argument("--gaps", action="store_true",
                        help="list the names tensorjit does not offer, by reason")
    args = parser.parse_args(argv)
    if args.gaps:
        with open(args.output, encoding="utf-8") as f:
            print(gap_report(json.load(f)))
        return 0
    if args.check or not args.mindspore_python:
        if not args.check:
            print("no MindSpore interpreter given (--mindspore-python or "
                  "$TENSORJIT_MINDSPORE_PYTHON): reporting the stored lists")
        with open(args.output, encoding="utf-8") as f:
            record = json.load(f)
        fresh = claims({ns: record["mindspore"][ns] for ns in NAMESPACES})
        if fresh != record["claimed"]:
            for ns in NAMESPACES:
                added = sorted(set(fresh[ns]) - set(record["claimed"][ns]))
                lost = sorted(set(record["claimed"][ns]) - set(fresh[ns]))
                if added or lost:
                    print(f"{ns}: now offered but not claimed {added}; claimed but missing "
                          f"{lost}")
        print(summary(record))
        return 0 if fresh == record["claimed"] else 1
    listing = list_mindspore(args.mindspore_python)
    record = {"version": listing["version"],
              "mindspore": {ns: listing[ns] for ns in NAMESPACES},
              "claimed": claims(listing)}
    with open(args.output, "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(summary(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
