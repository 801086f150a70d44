"""MindSpore 1.x's module name for the same image operations."""
from .transforms import *  # noqa: F401,F403
from .transforms import __all__  # noqa: F401
