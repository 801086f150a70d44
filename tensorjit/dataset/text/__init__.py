"""``tensorjit.dataset.text``: MindSpore's text operations on NumPy string arrays.

Columns of text are NumPy unicode arrays (``<U``); the operations run in the pipeline's
``map`` (or called directly on an array, as MindSpore's eager mode allows). Errors in the
data raise RuntimeError with MindSpore's message, as its pipeline does; errors in the
arguments raise TypeError / ValueError when the operation is built.
"""
from .vocab import Vocab
from .transforms import (Lookup, ToNumber, SlidingWindow, PythonTokenizer, WhitespaceTokenizer,
                         UnicodeCharTokenizer, Ngram, Truncate)

__all__ = ["Vocab", "Lookup", "ToNumber", "SlidingWindow", "PythonTokenizer",
           "WhitespaceTokenizer", "UnicodeCharTokenizer", "Ngram", "Truncate"]
