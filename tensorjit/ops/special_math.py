"""MindSpore's elementwise math beyond ``unary.py`` / ``binary.py``, one namespace: the
one-operand functions (``special_unary.py``) and the two-operand ones
(``special_binary.py``), with the list of those MindSpore's Tensor has as methods."""
from .special_unary import *  # noqa: F401,F403
from .special_unary import _UNARY_DOCS, _BESSEL_DOCS
from .special_binary import *  # noqa: F401,F403

__all__ = sorted(list(_UNARY_DOCS) + list(_BESSEL_DOCS) + """
    trunc polygamma arccos arcsin arccosh arcsinh arctanh i0 deg2rad rad2deg frac sinc logit
    positive isneginf isposinf isreal nan_to_num hypot logaddexp logaddexp2 fmax fmin fmod
    truncate_mod copysign heaviside gcd lcm ldexp float_power floor_divide floormod xlogy
    xdivy bitwise_left_shift bitwise_right_shift igamma igammac nextafter truncate_div
    approximate_equal""".split())
# MindSpore's Tensor has these as methods (``x.acos()``)
TENSOR_METHODS = [n for n in __all__ if n not in (
    "polygamma", "exp2", "floormod", "truncate_div", "truncate_mod") and not n.startswith("bessel")]
