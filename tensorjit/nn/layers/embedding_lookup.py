"""EmbeddingLookup and MultiFieldEmbeddingLookup, as MindSpore's (a table of shape
(vocab_size, embedding_size) named ``embedding_table``).

An index outside [0, vocab_size) looks up a row of zeros (MindSpore's CPU ``EmbeddingLookup``
kernel). ``max_norm`` rescales each looked-up vector to an L2 norm of at most ``max_norm``.
``target``, ``slice_mode``, ``manual_shapes`` and ``sparse`` choose how MindSpore places and
shards the table; they are checked and kept, the result is the same.

MultiFieldEmbeddingLookup(``input_indices``, ``input_values``, ``field_ids``), all (batch,
n): each looked-up vector is scaled by its value and merged into its field by ``operator``:
'SUM', 'MEAN' (the sum over the summed absolute values, 0 where a field has none) or 'MAX'
(entries with value 0 left out; 0 where a field has no entry); the result is (batch,
field_size, embedding_size).
"""
from ... import dtype as dt
from ... import ops
from ...tensor import Parameter
from ..cell import Cell
from ..initializer import initializer
from .. import _checks

__all__ = ["EmbeddingLookup", "MultiFieldEmbeddingLookup"]

_SLICE_MODES = ("batch_slice", "field_slice", "table_row_slice", "table_column_slice")


class EmbeddingLookup(Cell):
    def __init__(self, vocab_size, embedding_size, param_init="normal", target="CPU",
                 slice_mode="batch_slice", manual_shapes=None, max_norm=None, sparse=True,
                 dtype=dt.float32):
        super().__init__()
        who = type(self).__name__
        self.sparse = _checks.boolean(sparse, "sparse", who)
        self.vocab_size = _checks.positive_int(vocab_size, "vocab_size", who)
        if target not in ("CPU", "DEVICE"):
            raise ValueError(f"{who}: 'target' must be 'CPU' or 'DEVICE', got {target!r}")
        if not sparse and target == "CPU":
            raise ValueError(f"{who}: 'sparse' must be True when 'target' is 'CPU'")
        if slice_mode not in _SLICE_MODES:
            raise ValueError(f"{who}: 'slice_mode' must be one of {_SLICE_MODES}, got "
                             f"{slice_mode!r}")
        self.target, self.slice_mode, self.manual_shapes = target, slice_mode, manual_shapes
        self.embedding_size = _checks.positive_int(embedding_size, "embedding_size", who)
        self.embedding_table = Parameter(initializer(
            param_init, (self.vocab_size, self.embedding_size), dtype), name="embedding_table")
        if max_norm is not None:
            if not isinstance(max_norm, float):
                raise TypeError(f"{who}: 'max_norm' must be a float, got {max_norm!r}")
            if max_norm <= 0:
                raise ValueError(f"{who}: 'max_norm' must be > 0, got {max_norm}")
        self.max_norm = max_norm

    def _lookup(self, indices):
        inside = ops.logical_and(ops.ge(indices, 0), ops.lt(indices, self.vocab_size))
        safe = ops.where(inside, indices, ops.zeros_like(indices))
        rows = ops.gather(self.embedding_table, safe, 0)
        rows = ops.mul(rows, ops.cast(ops.expand_dims(inside, -1), rows.dtype))
        if self.max_norm is not None:
            squares = ops.reduce_sum(ops.mul(rows, rows), -1, True)
            nonzero = ops.gt(squares, 0)
            # a zero row (an index outside the table) has norm 0 and a finite gradient
            norm = ops.where(nonzero, ops.sqrt(ops.where(nonzero, squares, 1.0)),
                             ops.zeros_like(squares))
            rows = ops.div(ops.mul(rows, self.max_norm), ops.maximum(norm, self.max_norm))
        return rows

    def construct(self, indices):
        if dt.is_float(indices.dtype) or dt.is_bool(indices.dtype):
            raise TypeError(f"{type(self).__name__}: indices must be integers, got "
                            f"{indices.dtype}")
        return self._lookup(indices)

    def extend_repr(self):
        return f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}"


class MultiFieldEmbeddingLookup(EmbeddingLookup):
    def __init__(self, vocab_size, embedding_size, field_size, param_init="normal",
                 target="CPU", slice_mode="batch_slice", feature_num_list=None, max_norm=None,
                 sparse=True, operator="SUM", dtype=dt.float32):
        super().__init__(vocab_size, embedding_size, param_init, target, slice_mode,
                         feature_num_list, max_norm, sparse, dtype)
        self.field_size = _checks.positive_int(field_size, "field_size",
                                               "MultiFieldEmbeddingLookup")
        if operator not in ("SUM", "MAX", "MEAN"):
            raise ValueError(f"MultiFieldEmbeddingLookup: 'operator' must be 'SUM', 'MAX' or "
                             f"'MEAN', got {operator!r}")
        self.operator = operator

    def construct(self, input_indices, input_values, field_ids):
        who = "MultiFieldEmbeddingLookup"
        for name, x in (("input_indices", input_indices), ("input_values", input_values),
                        ("field_ids", field_ids)):
            if x.ndim != 2:
                raise ValueError(f"{who}: '{name}' must be 2-D, got shape {tuple(x.shape)}")
        if dt.is_float(input_indices.dtype) or not dt.is_float(input_values.dtype) \
                or dt.is_float(field_ids.dtype):
            raise TypeError(f"{who}: indices and field ids must be integers and values "
                            f"floats, got {input_indices.dtype}, {input_values.dtype}, "
                            f"{field_ids.dtype}")
        vectors = self._lookup(input_indices)                       # (B, n, E)
        values = ops.cast(input_values, vectors.dtype)
        weighted = ops.mul(vectors, ops.expand_dims(values, -1))
        # (B, n, F): which field each entry belongs to
        member = ops.cast(ops.equal(ops.expand_dims(field_ids, -1),
                                    ops.arange(self.field_size)), vectors.dtype)
        if self.operator == "MAX":
            counted = ops.mul(member, ops.cast(ops.not_equal(ops.expand_dims(values, -1), 0),
                                               vectors.dtype))
            # (B, n, F, E): entries outside a field (or of value 0) can not be the maximum
            candidates = ops.where(ops.expand_dims(ops.gt(counted, 0), -1),
                                   ops.expand_dims(weighted, 2),
                                   ops.full_like(ops.expand_dims(weighted, 2), -3.4e38))
            merged = ops.max(candidates, 1)
            present = ops.gt(ops.reduce_sum(ops.mul(member, ops.abs(ops.expand_dims(
                values, -1))), 1), 0)
            return ops.mul(merged, ops.cast(ops.expand_dims(present, -1), merged.dtype))
        merged = ops.matmul(ops.transpose(member, (0, 2, 1)), weighted)     # (B, F, E)
        if self.operator == "MEAN":
            count = ops.reduce_sum(ops.mul(member, ops.abs(ops.expand_dims(values, -1))), 1)
            count = ops.expand_dims(count, -1)
            nonzero = ops.gt(count, 0)
            merged = ops.where(nonzero, ops.div(merged, ops.where(nonzero, count, 1.0)),
                               ops.zeros_like(merged))
        return merged
