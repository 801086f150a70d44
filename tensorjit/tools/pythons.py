"""The test suite and the examples on every other installed CPython that tensorjit supports.

    python -m tensorjit.tools.pythons                  # every other supported version found
    python -m tensorjit.tools.pythons --here           # and the running one's whole suite
    python -m tensorjit.tools.pythons --only 3.12 --quick

Interpreters are found the ordinary way: ``python3.X`` on PATH, then pyenv's versions
(``$PYENV_ROOT``, else ``~/.pyenv``). For each supported version other than the running
one, a virtual environment ``.venvs/py3.X`` in the checkout is made (and kept for the next
run), the project is installed there with its test extra, and the test suite runs in it
(``--quick``: the capture, fuzzer, conformance and example tests only), under NumPy's BLAS
on 3.13 and MKL on 3.12 (``TENSORJIT_BLAS``), so that both libraries pass it. The newest
interpreter (3.13, with the newest NumPy, where releases remove names) runs the whole
suite; 3.10 and 3.12 run the quick part, as the running interpreter (3.11) has run the
whole suite already: what differs between versions is in the captures, which the quick
part covers, and CI's 25 minutes on two cores fit neither four nor three whole suites
(three took 26 minutes once ``mint``, ``mindspore.numpy`` and their tables landed). Then the
examples run with ``--check`` in every interpreter, the running one included, and their
results must agree to float32 rounding (the interpreters may carry different NumPy releases). Interpreters are
checked side by side (``--jobs``, default 3 on two or more cores: each suite is one process,
mostly on one core; three on two cores keep both busy to the end, where two at a time left
one core idle while the third suite ran alone). With ``--here`` the running interpreter's
whole suite is one more of these jobs (the README's test command: a suite is one process on
one core, so run alone it left the second core idle for ten minutes). It prints which
versions ran and which were not found; exit status 1 if anything failed.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

SUPPORTED = ("3.10", "3.11", "3.12", "3.13")
QUICK_TESTS = ("tests/capture_ast", "tests/capture_bytecode", "tests/reliability/test_fuzz.py",
               "tests/conformance",
               "tests/bench/test_examples.py", "tests/architecture")
EXAMPLES = [["examples/simple_function.py", "--small", "--check"],
            ["examples/simple_conv.py", "--small", "--check"],
            ["examples/simple_attention.py", "--small", "--check"]] + [
    ["examples/train_lenet.py", "--steps", "12", "--size", "8", "--batch", "8",
     "--target", "100", "--capture-mode", mode] for mode in ("ast", "bytecode", "trace")]
RTOL = 2e-6        # a few float32 roundings: NumPy releases may order sums differently
# the suites run under each BLAS tensorjit can choose (ops/blas.py), one per interpreter;
# the running interpreter's suite takes the built-in choice (MKL where it is installed)
BLAS_BY_VERSION = {"3.13": "numpy", "3.12": "mkl"}
QUICK_VERSIONS = ("3.10", "3.12")


def checksum(value):
    """A number summarizing a result (tensors, arrays, nested tuples of them): the sum of
    absolute values in float64, printed to compare runs."""
    total = 0.0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (tuple, list)):
            stack.extend(item)
        elif item is not None:
            array = item.asnumpy() if hasattr(item, "asnumpy") else item
            total += float(np.abs(np.asarray(array, np.float64)).sum())
    return f"{total:.9e}"


def project_root():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not os.path.exists(os.path.join(root, "pyproject.toml")):
        raise SystemExit(f"{root} is not a checkout of tensorjit (no pyproject.toml)")
    return root


def find_interpreter(version):
    """An interpreter for ``version`` ("3.12"), or None."""
    candidates = [shutil.which(f"python{version}")]
    pyenv = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    candidates += sorted(glob.glob(os.path.join(pyenv, "versions", f"{version}.*", "bin",
                                                f"python{version}")), reverse=True)
    for path in candidates:
        if not path or not os.path.exists(path):
            continue
        try:
            out = subprocess.run([path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=60).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            continue
        if out == version:
            return path
    return None


def _run(cmd, cwd, timeout, env=None):
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=env)
    return proc, time.perf_counter() - started


def prepare_venv(root, version, interpreter):
    """``.venvs/py<version>`` with the project and its test extra installed."""
    venv = os.path.join(root, ".venvs", f"py{version}")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        proc, _ = _run([interpreter, "-m", "venv", venv], root, 600)
        if proc.returncode:
            raise RuntimeError(f"could not make a virtualenv: {proc.stderr[-2000:]}")
    proc, _ = _run([python, "-m", "pip", "install", "-q", "-e", ".[test]"], root, 1800)
    if proc.returncode:
        raise RuntimeError(f"pip install failed: {proc.stderr[-2000:]}")
    return python


def run_suite(root, python, quick, blas=None):
    cmd = [python, "-m", "pytest", "-p", "no:cacheprovider", "-W", "ignore"]
    env = _clean_env(root)
    if blas:
        env["TENSORJIT_BLAS"] = blas
    proc, seconds = _run(cmd + (list(QUICK_TESTS) if quick else []), root, 3000, env=env)
    summary = [line for line in proc.stdout.splitlines() if re.search(r"\d+ (passed|failed)",
                                                                     line)]
    lines = proc.stdout.splitlines()
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    # the assertion lines too: a failure seen only in this run (under the others' load)
    # must be diagnosable from the CI log alone
    failed += [line for line in lines if line.startswith("E ")][:40] if failed else []
    return proc.returncode == 0, seconds, (summary[-1] if summary else ""), failed


def _clean_env(root):
    """The checkout under test comes first on the path, whatever is installed. The suites
    run side by side, more threads than cores: OpenMP's threads (MKL's products, Numba's
    kernels) sleep at once instead of spinning for CPU the other suites need (measured:
    three suites of tests/core + tests/o1 at once, 49 -> 41 s). The suites start hundreds
    of Python processes (examples, MPI ranks, compile servers): each reuses the bytecode the
    first wrote, where a machine that sets PYTHONDONTWRITEBYTECODE would have every one
    compile the package anew (1.0 s of CPU per process on this 2-core Xeon)."""
    env = dict(os.environ, PYTHONWARNINGS="ignore", PYTHONPATH=root)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return env


def example_numbers(root, python):
    """{example row: [numbers]} from every example run with ``--check``."""
    numbers = {}
    for args in EXAMPLES:
        proc, _ = _run([python] + args, root, 900, env=_clean_env(root))
        if proc.returncode:
            raise RuntimeError(f"{' '.join(args)} failed: {proc.stderr[-2000:]}")
        for line in proc.stdout.splitlines():
            if "checksum" in line or "loss eager" in line:
                label, _, rest = line.partition(":") if "checksum" in line else (
                    line.split("loss")[0], "", line)
                key = f"{os.path.basename(args[0])} {' '.join(args[1:])} | {label.strip()}"
                numbers[key] = [float(x) for x in re.findall(r"-?\d+\.\d+(?:e[-+]\d+)?",
                                                             rest.split("loss", 1)[-1])]
    return numbers


def compare(reference, numbers):
    """(max relative difference, problems) of ``numbers`` against ``reference``."""
    problems, worst = [], 0.0
    if set(reference) != set(numbers):
        problems.append(f"other rows: {sorted(set(reference) ^ set(numbers))}")
    for key in sorted(set(reference) & set(numbers)):
        a, b = np.asarray(reference[key]), np.asarray(numbers[key])
        if a.shape != b.shape:
            problems.append(f"{key}: {list(b)} != {list(a)}")
            continue
        diff = float(np.max(np.abs(a - b) / np.maximum(np.abs(a), 1e-30))) if a.size else 0.0
        worst = max(worst, diff)
        if diff > RTOL:
            problems.append(f"{key}: {list(b)} != {list(a)} (relative {diff:.2e})")
    return worst, problems


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tensorjit.tools.pythons",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SUPPORTED),
                        help="comma-separated versions (default: every supported one)")
    parser.add_argument("--quick", action="store_true",
                        help="run the capture, fuzzer, conformance and example tests only")
    parser.add_argument("--full", action="store_true",
                        help=f"the whole suite on {', '.join(QUICK_VERSIONS)} too")
    parser.add_argument("--no-examples", action="store_true")
    parser.add_argument("--here", action="store_true",
                        help="also run the whole suite in the running interpreter, side by "
                             "side with the others")
    parser.add_argument("--jobs", type=int, default=None,
                        help="suites run at once (default: all of them on two or more cores, "
                             "else 1)")
    args = parser.parse_args(argv)
    root = project_root()
    running = "%d.%d" % sys.version_info[:2]
    wanted = [v.strip() for v in args.only.split(",") if v.strip()]
    ok, ran, missing = True, [], []
    reference = None if args.no_examples else example_numbers(root, sys.executable)
    found = []
    for version in wanted:
        if version == running:
            continue
        interpreter = find_interpreter(version)
        if interpreter is None:
            missing.append(version)
            print(f"CPython {version}: not found (no python{version} on PATH or in pyenv)")
        else:
            found.append((version, interpreter))
    jobs = args.jobs or (len(found) + args.here if (os.cpu_count() or 1) >= 2 else 1)
    # each suite is one process, mostly on one core: run them side by side
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        here = pool.submit(check_running, root, args.quick) if args.here else None
        reports = [pool.submit(check_version, root, version, interpreter,
                               args.quick or (version in QUICK_VERSIONS and not args.full),
                               reference, running) for version, interpreter in found]
        if here is not None:
            passed, text = here.result()
            print(text, flush=True)
            ok = ok and passed
        for (version, _), report in zip(found, reports):
            passed, text = report.result()
            print(text, flush=True)
            ok = ok and bool(passed)
            if passed is not None:
                ran.append(version)
    print(f"ran on CPython {', '.join([running + ' (this one)'] + ran)}"
          + (f"; not found: {', '.join(missing)}" if missing else ""))
    return 0 if ok else 1


def check_running(root, quick):
    """(passed, report text) for the running interpreter's suite."""
    passed, seconds, summary, failed = run_suite(root, sys.executable, quick)
    lines = [f"CPython {'%d.%d' % sys.version_info[:2]} (this one, {sys.executable}):",
             f"  test suite{' (quick)' if quick else ''}: {summary} ({seconds:.0f} s)"]
    return passed, "\n".join(lines + [f"    {line}" for line in failed[:70]])


def check_version(root, version, interpreter, quick, reference, running):
    """(passed, report text) for one interpreter: its venv, the suite, the examples;
    passed is None if it could not be set up."""
    lines = [f"CPython {version} ({interpreter}):"]
    try:
        python = prepare_venv(root, version, interpreter)
        blas = BLAS_BY_VERSION.get(version)
        passed, seconds, summary, failed = run_suite(root, python, quick, blas)
        lines.append(f"  test suite{' (quick)' if quick else ''}"
                     f"{f' with TENSORJIT_BLAS={blas}' if blas else ''}: {summary} "
                     f"({seconds:.0f} s)")
        lines += [f"    {line}" for line in failed[:70]]
        if reference is not None:
            worst, problems = compare(reference, example_numbers(root, python))
            lines.append(f"  examples: {len(reference)} results "
                         + ("agree with" if not problems else "DIFFER from")
                         + f" CPython {running}'s (largest relative difference {worst:.1e})")
            lines += [f"    {problem}" for problem in problems]
            passed = passed and not problems
        return passed, "\n".join(lines)
    except (RuntimeError, subprocess.SubprocessError) as exc:
        lines.append(f"  failed: {exc}")
        return None, "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
