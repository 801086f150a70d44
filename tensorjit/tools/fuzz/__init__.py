"""Differential fuzzing of the compiler: random programs must give eager's answers under
every capture mode x jit_level x backend.

    python -m tensorjit.tools.fuzz --programs 2000 --seed 1      # forward programs
    python -m tensorjit.tools.fuzz --grad --programs 300 --seed 1  # gradients vs finite differences

A program is Python source over tensorjit (so ``capture_mode="ast"`` can read it), written
to a temporary ``.py`` file and imported. The generator builds it statement by statement and
runs every candidate statement eagerly on the first input set, keeping it only if it runs:
programs are always valid, and their shapes and dtypes are whatever tensorjit's eager mode
says. Programs mix broadcasting (0-d and empty tensors included), float16 / bfloat16 /
float32 / float64 / int / bool, promotion with Python scalars, reductions with axes,
reshapes, transposes, slices and indexing, casts, matmul, softmax, in-place updates (also of
the arguments), tensor-dependent ``if`` / ``while`` / ``for``, Python values read from tensors
(guards, graph breaks, fallbacks) and NaN / inf / -0.0 in the inputs. About a third of the
programs also use Python state (``programs.STATE_HEADER``): globals the checker rebinds
between calls, a global list they append to, an object's attributes and a dict's items they
read and write (and the checker changes), a helper whose closure variable changes, a
recursive helper, and ``try`` / ``except`` decisions that depend on shapes and on values;
their state after every call must be eager's.

Each program runs eagerly on several input sets (same shapes, other values, so tensor
conditions go both ways, plus, when the program allows, other shapes) and then, per
configuration, through a fresh ``jit`` called on the sets in an order that exercises first
compiles, cache hits, guard failures and the generated fast path. A *mismatch* is any
difference from eager: an exception, another structure, dtype or shape, NaN or inf in other
places, values beyond the dtype's tolerance, a different final value of an argument the
program updates in place, or other Python state after the call.

The same generator drives the hypothesis tests in ``tests/reliability`` (``HypothesisChooser``)
and this command (``RandomChooser``: program ``i`` of ``--seed s`` is reproducible alone with
``--seed s --start i --programs 1 --show``).

Files: ``programs.py`` (configurations, random choosers, program source and loading),
``expressions.py`` / ``generate.py`` (the random program generator: expressions, then
statements and whole programs), ``generate_grad.py`` (differentiable programs),
``check.py`` (running against eager and comparing), ``cli.py`` (the command line).
"""
from .programs import (  # noqa: F401  (the package's API)
    MODES, LEVELS, BACKENDS, CONFIGS, config_label, RandomChooser, HypothesisChooser,
    Program, load)
from .generate import Generator  # noqa: F401
from .generate_grad import GradGenerator  # noqa: F401
from .check import (  # noqa: F401
    compare, compare_arrays, check_program, check_grad_program, numeric_grad, Mismatch, STATS,
    GRAD_CONFIGS)
from .cli import generate, main  # noqa: F401
