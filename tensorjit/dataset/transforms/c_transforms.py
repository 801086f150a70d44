"""MindSpore 1.x's module name for the same transforms."""
from . import TypeCast, Compose, OneHot  # noqa: F401
