"""Choices that depend on the processor, measured on the machine where tensorjit runs.

Which BLAS runs the products, which algorithm runs a convolution of a given shape, how big
Winograd's chunks are: the fastest answer differs from one CPU to the next (measured: MKL
2x slower than NumPy's OpenBLAS on an AMD EPYC and faster on an Intel Xeon). So no such
answer is a constant here. A kernel module declares a ``Choice`` and its candidates; the
first time a key (a dtype, a shape) is met, the candidates are timed against each other in
alternated rounds (``timing.py``) and the fastest is recorded in a table kept per machine
fingerprint (``machine.py``) beside the kernel cache (``table.py``), then reused by every
later process. Candidates with wrong results on this machine are never candidates (the BLAS
probes IEEE edge cases first). ``python -m tensorjit.tune`` measures ahead of time and
prints the table; ``TENSORJIT_TUNE=0`` turns measuring off (built-in defaults) and each
choice has an environment variable that overrides it.
"""
from . import machine, timing
from .choice import TABLE, Choice, Decision, consulted, mode

__all__ = ["Choice", "Decision", "TABLE", "consulted", "machine", "mode", "timing"]
