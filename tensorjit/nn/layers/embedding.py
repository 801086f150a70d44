"""Embedding: a lookup table of vectors indexed by integer ids."""
import numpy as np

from ... import dtype as dt
from ... import ops
from ...tensor import Tensor, Parameter
from ..cell import Cell
from ..initializer import initializer
from .. import _checks

__all__ = ["Embedding"]


class Embedding(Cell):
    """``table[ids]`` with ``table`` of shape (vocab_size, embedding_size); output shape is
    ``ids.shape + (embedding_size,)``. ``dtype`` is the dtype of the ids (MindSpore).
    ``padding_idx`` only initialises that row to zeros."""

    def __init__(self, vocab_size, embedding_size, use_one_hot=False, embedding_table="normal",
                 dtype=dt.int32, padding_idx=None):
        super().__init__()
        self.vocab_size = _checks.positive_int(vocab_size, "vocab_size", "Embedding")
        self.embedding_size = _checks.positive_int(embedding_size, "embedding_size", "Embedding")
        self.use_one_hot = _checks.boolean(use_one_hot, "use_one_hot", "Embedding")
        self.dtype = dt.as_dtype(dtype)
        if not dt.is_int(self.dtype):
            raise TypeError(f"Embedding: 'dtype' is the dtype of the ids and must be an "
                            f"integer type, got {self.dtype}")
        if padding_idx is not None:
            if isinstance(padding_idx, bool) or not isinstance(padding_idx, (int, np.integer)):
                raise TypeError(f"Embedding: 'padding_idx' must be an int or None, got "
                                f"{padding_idx!r}")
            if not -self.vocab_size <= padding_idx < self.vocab_size:
                raise ValueError(f"Embedding: 'padding_idx' must be in [{-self.vocab_size}, "
                                 f"{self.vocab_size}), got {padding_idx}")
            padding_idx = int(padding_idx) % self.vocab_size
        self.padding_idx = padding_idx
        shape = (self.vocab_size, self.embedding_size)
        table = initializer(embedding_table, shape, dt.float32)
        if tuple(table.shape) != shape:
            raise ValueError(f"Embedding: embedding_table has shape {tuple(table.shape)}, "
                             f"expected {shape}")
        if padding_idx is not None:
            values = table.asnumpy().copy()
            values[padding_idx] = 0
            table = Tensor(values)
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        if not dt.is_int(ids.dtype):
            raise TypeError(f"Embedding: the ids must be an integer tensor, got {ids.dtype}")
        table = self.embedding_table
        if self.use_one_hot:
            flat = ops.reshape(ids, (-1,))
            one_hot = ops.one_hot(flat, self.vocab_size, 1.0, 0.0)
            out = ops.matmul(ops.cast(one_hot, table.dtype), table)
            return ops.reshape(out, tuple(ids.shape) + (self.embedding_size,))
        return ops.gather(table, ids, 0)

    def extend_repr(self):
        return (f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
                f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table!r}, "
                f"dtype={self.dtype}, padding_idx={self.padding_idx}")
