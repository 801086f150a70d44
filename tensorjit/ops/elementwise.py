"""The elementwise family: ``unary.py`` (one operand: math, activations, casts) and
``binary.py`` (arithmetic, comparisons, logic, ``where``), re-exported here as one module
for the ops that are built from them (``from . import elementwise as _ew``)."""
from .unary import *  # noqa: F401,F403
from .binary import *  # noqa: F401,F403
from .unary import (abs, round, cast, stop_gradient, identity, _float_operand)  # noqa: F401
from .binary import pow, where, clamp, clip, zeros_like, ones_like, _as_bool  # noqa: F401
