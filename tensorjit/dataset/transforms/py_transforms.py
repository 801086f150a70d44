"""MindSpore 1.x's module name for the same transforms."""
from . import (TypeCast, Compose, OneHot, Relational, Fill, Concatenate, Duplicate,  # noqa: F401
                Mask, Slice, PadEnd, Unique, RandomChoice, RandomApply, RandomOrder)
