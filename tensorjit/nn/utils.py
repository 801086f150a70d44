"""``nn.utils`` (MindSpore's ``mindspore.nn.utils``): ``no_init_parameters``.

Inside ``with no_init_parameters():`` (or a function decorated with it), Parameters made
from ``initializer(...)`` get no values: they hold a zero-memory placeholder and
``param.init_param`` is False. Loading a checkpoint into them (``set_data``) skips the
initialisation; ``cell.init_parameters_data()`` -- called by the first call of any Cell --
draws the initializer's values for those still pending. Parameters made from Tensors or
arrays are initialised as usual (as in MindSpore).
"""
import contextlib

from . import initializer as _initializer

__all__ = ["no_init_parameters"]


@contextlib.contextmanager
def no_init_parameters():
    _initializer._DEFERRING[0] += 1
    try:
        yield
    finally:
        _initializer._DEFERRING[0] -= 1
