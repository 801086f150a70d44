"""A process that compiles kernels into the disk cache for another one (tiered
compilation, ``background.py``): ``python -m tensorjit.backend.numba.compile_server``.

Numba spends most of a compilation in Python (type inference, lowering); in a thread of
the program itself it would hold the GIL the program's thread needs after every NumPy
call. Here it has its own interpreter: one JSON request per line on stdin,

    {"directory": D, "stem": S, "source": TEXT, "arrays": [[dtype, ndim], ...]}

compiles the kernel module D/S.py (written if absent, as the program would) for
C-contiguous writable arrays of those dtypes and ranks, which writes Numba's cache files
beside it, and answers one line, {"stem": S, "ok": true} or {"stem": S, "error": TEXT}.
The program then loads the kernel from the cache in a few milliseconds. It exits when
stdin closes (the program exited or dropped it).
"""
import json
import sys


def _compile(request):
    import numpy as np
    from numba import typeof
    from tensorjit.backend.numba.disk_cache import load_module, private_files
    dispatcher = load_module(request["directory"], request["stem"], request["source"])
    types = tuple(typeof(np.empty((0,) * ndim, np.dtype(dtype)))
                  for dtype, ndim in request["arrays"])
    dispatcher.compile(types)
    private_files(request["directory"], request["stem"])


# lower priority than the program: measured on ResNet-18 (2 cores, 25 kernels), nice 10
# left the steps at O0's pace but needed ~4 min of training to compile them all; nice 0
# made the first 10 steps 2.2x O0's; nice 5: ~1.25x, and 19 of 25 kernels within 75 s
NICE = 5


def main():
    import os
    import warnings
    warnings.simplefilter("ignore")           # Numba's pedantic IR checks (kernel.py)
    try:
        os.nice(NICE)
    except (AttributeError, OSError):         # not on this platform
        pass
    for line in sys.stdin:
        request = json.loads(line)
        try:
            _compile(request)
            reply = {"stem": request["stem"], "ok": True}
        except Exception as exc:              # the program compiles it itself, and says
            reply = {"stem": request["stem"], "error": f"{type(exc).__name__}: {exc}"[:500]}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
