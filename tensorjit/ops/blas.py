"""Matrix products through the BLAS that is fastest and right on this machine.

Every GEMM a kernel runs (matmul, the convolutions' products) calls ``matmul`` here, with
``np.matmul``'s semantics. The libraries (``blas_libraries.py``) are NumPy's own BLAS
(OpenBLAS in NumPy's wheels) and Intel's MKL when its wheel is installed (the ``fast``
extra). Which one runs float32 and float64 products is measured per machine (``tuning``):
on an Intel Xeon MKL's GEMMs were 5-15% faster than OpenBLAS's and 2-3x faster on batches
of small ones; on an AMD EPYC MKL took its AVX2 path at half OpenBLAS's speed. Before
either may be chosen it passes a probe of IEEE edge cases and reference values
(``blas_probe.py``: MKL on that AMD CPU gave NaN for a row holding -inf, where IEEE gives
-inf); a library that fails it is not chosen for that dtype. One library runs both dtypes
unless one fails: two libraries' thread pools would spin against each other.

``TENSORJIT_BLAS=numpy|mkl`` overrides the measurement. A library forced that way but
failing the probe has its results corrected: a product whose operands hold inf or NaN is
computed again by NumPy (with a warning that says so, once).

GNU OpenMP cannot run in a process forked from one that used it (the child waits forever on
threads it does not have), so a forked child (a dataset worker) uses ``np.matmul``.
"""
import threading
import warnings

import numpy as np

from ..locks import at_fork
from . import blas_libraries, blas_probe, cpu_share, tuning

__all__ = ["matmul", "backend_name", "library_name", "LIBRARY"]

LIBRARY = tuning.Choice(
    "blas", blas_libraries.NAMES, env=("TENSORJIT_BLAS",),
    doc="the library that runs float32 / float64 matrix products")
DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
_chosen = {}                   # dtype -> (library, results need checking)
_lock = threading.Lock()


def _forked():
    _chosen.clear()
    for dtype in DTYPES:
        _chosen[dtype] = (blas_libraries.NUMPY, False)


at_fork(after_in_child=_forked)


def library_name(dtype=np.float32):
    """"mkl" or "numpy": the library that runs ``dtype``'s products in this process."""
    return _library(np.dtype(dtype))[0].name


def backend_name():
    """The library that runs float32 products (the models' dtype)."""
    return library_name(np.float32)


def _library(dtype):
    found = _chosen.get(dtype)
    if found is None:
        with _lock:
            if not _chosen:
                _chosen.update(_choose())
            found = _chosen[dtype]
    return found


def _choose():
    """{dtype: (library, results need checking)} for float32 and float64."""
    forced = LIBRARY.override()
    if forced:
        return _forced(*forced)
    libraries = blas_libraries.available()
    problems = {(lib.name, dtype): blas_probe.problems(lib, dtype)
                for lib in libraries for dtype in DTYPES}
    for (name, dtype), wrong in problems.items():
        if wrong:
            LIBRARY.record(f"{dtype.name} probe", name, "not a candidate: " + wrong[0], {})
    right = {dtype: [lib for lib in libraries if not problems[(lib.name, dtype)]]
             for dtype in DTYPES}
    main = right[np.dtype(np.float32)] or [blas_libraries.NUMPY]
    by_name = {lib.name: lib for lib in main}
    name = LIBRARY("float32", [lib.name for lib in main],
                   lambda names: blas_libraries.time_libraries([by_name[n] for n in names]),
                   default=main[0].name)
    chosen = {np.dtype(np.float32): (by_name[name], False)}
    for dtype in DTYPES[1:]:
        lib = by_name[name] if by_name[name] in right[dtype] else blas_libraries.NUMPY
        if lib is not by_name[name]:
            LIBRARY.record(dtype.name, lib.name, f"{name} failed the probe", {})
        chosen[dtype] = (lib, False)
    return chosen


def _forced(variable, name):
    """The library the environment names, for both dtypes; where it fails the probe, its
    results are checked (``matmul``)."""
    lib = {lib.name: lib for lib in blas_libraries.available(load_mkl=name == "mkl")}.get(name)
    if lib is None:
        warnings.warn(f"tensorjit: {variable}={name}, but that library cannot be loaded "
                      f"here; NumPy's BLAS runs the products", RuntimeWarning, stacklevel=5)
        lib = blas_libraries.NUMPY
    chosen = {}
    for dtype in DTYPES:
        wrong = blas_probe.problems(lib, dtype)
        if wrong:
            warnings.warn(f"tensorjit: {variable}={name}: its {dtype} products are wrong on "
                          f"this CPU ({wrong[0]}); products whose operands hold inf or NaN "
                          f"are computed again by NumPy", RuntimeWarning, stacklevel=5)
        LIBRARY.record(dtype.name, lib.name, f"set by {variable}" + (
            " (failed the probe: inf / NaN operands go to NumPy)" if wrong else ""), {})
        chosen[dtype] = (lib, bool(wrong))
    return chosen


def matmul(a, b, out=None):
    """``np.matmul(a, b, out=out)``, run by the library chosen for the dtype."""
    if a.dtype != b.dtype or a.dtype not in DTYPES:
        return np.matmul(a, b, out=out)
    lib, check = _library(a.dtype)
    if check and not (np.isfinite(a).all() and np.isfinite(b).all()):
        return np.matmul(a, b, out=out)
    cpu_share.fit_to_load()                # as many threads as the other processes leave
    return lib.matmul(a, b, out)

