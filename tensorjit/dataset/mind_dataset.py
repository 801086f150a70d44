"""``MindDataset``: MindRecord files (``tensorjit.mindrecord``, MindSpore's format) as a
pipeline source, and ``Shuffle``, the ways it can shuffle.

Rows come file by file in row-id order (MindSpore's order); columns are the schema's fields,
sorted, or ``columns_list``. Values have MindSpore's types: scalars 0-d arrays of their
dtype (``string`` a str array), ``bytes`` a 1-element bytes array, arrays their shape.
``padded_sample`` rows (``num_padded`` of them) follow the file rows, so that
``num_shards`` divides the total; shards take every ``num_shards``-th row of the epoch's
order, as for every random-access source (``sources.py``).
"""
import enum
import numbers

import numpy as np

from ..mindrecord.reader import ShardSet
from .sources import IndexedSource

__all__ = ["MindDataset", "Shuffle"]

_PARTIAL_BLOCK = 1_000_000           # MindSpore's Shuffle.PARTIAL shuffles blocks of 1M rows
_ADAPTIVE_LIMIT = 100_000_000


class Shuffle(str, enum.Enum):
    """MindSpore's shuffle levels of file datasets."""
    ADAPTIVE = "adaptive"      # GLOBAL up to 100 million rows, else PARTIAL
    GLOBAL = "global"          # every row anywhere
    PARTIAL = "partial"        # rows within each block of 1 million
    FILES = "files"            # the order of the files; rows keep their order in a file
    INFILE = "infile"          # rows within each file; the files keep their order


def _shuffle_mode(shuffle, who):
    if shuffle is None or shuffle is True:
        return Shuffle.ADAPTIVE
    if shuffle is False:
        return None
    if isinstance(shuffle, Shuffle):
        return shuffle
    raise TypeError(f"{who}: shuffle must be of boolean or enum of 'Shuffle' values like "
                    f"'Shuffle.ADAPTIVE' or 'Shuffle.GLOBAL' or 'Shuffle.PARTIAL' or "
                    f"'Shuffle.FILES' or 'Shuffle.INFILE', got {shuffle!r}")


def _value(schema, name, value, who):
    """A field's value (as the reader gives it, or a padded sample's) as MindSpore's array."""
    kind, shape = schema.type_of(name), schema.shape_of(name)
    try:
        if kind == "bytes":
            data = bytes(value)
            return np.array([data], dtype=f"S{max(len(data), 1)}")
        if kind == "string":
            return np.array(str(value))
        if shape is not None:
            return np.asarray(value, kind)
        return np.array(value, kind)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{who}: the value {value!r} of column {name!r} is not a {kind}"
                         f"{' array' if shape else ''} ({exc})") from None


class MindDataset(IndexedSource):
    """Rows of MindRecord files (one file name: its whole set; a list: those files)."""

    def __init__(self, dataset_files, columns_list=None, num_parallel_workers=None,
                 shuffle=None, num_shards=None, shard_id=None, sampler=None,
                 padded_sample=None, num_padded=None, num_samples=None, cache=None):
        who = "MindDataset"
        if sampler is not None:
            raise NotImplementedError(f"{who}: samplers are not supported; use shuffle, "
                                      f"num_shards / shard_id and num_samples")
        if isinstance(dataset_files, (list, tuple)):
            files = list(dataset_files)
        elif isinstance(dataset_files, str):
            files = dataset_files
        else:
            raise TypeError(f"{who}: dataset_files must be a file name or a list of file "
                            f"names, got {type(dataset_files).__name__}")
        self.mode = _shuffle_mode(shuffle, who)
        if columns_list is not None and (not isinstance(columns_list, list) or not columns_list
                                         or not all(isinstance(c, str) for c in columns_list)):
            raise TypeError(f"{who}: columns_list must be a non-empty list of column names, got "
                            f"{columns_list!r}")
        self.padded_sample, self.num_padded = self._padding(padded_sample, num_padded,
                                                            columns_list, who)
        self.records = ShardSet(files, who)
        schema = self.records.schema
        columns = columns_list or schema.names
        unknown = [c for c in columns if c not in schema.fields]
        if unknown:
            raise ValueError(f"{who}: columns {unknown} are not in the files' schema "
                             f"{schema.names}")
        if len(set(columns)) != len(columns):
            raise ValueError(f"{who}: columns_list names a column twice: {columns}")
        if self.padded_sample is not None:
            self.padded_row = [_value(schema, c, self.padded_sample[c], who) for c in columns]
        super().__init__(columns, num_samples, num_parallel_workers, self.mode is not None,
                         num_shards, shard_id, who)
        total = len(self.records) + self.num_padded
        if self.num_padded and self.num_shards is not None and total % self.num_shards:
            raise RuntimeError(f"{who}: the {len(self.records)} rows and {self.num_padded} padded "
                               f"samples ({total}) are not divisible by num_shards "
                               f"{self.num_shards}")

    @staticmethod
    def _padding(padded_sample, num_padded, columns_list, who):
        if padded_sample is None:
            if num_padded is not None:
                raise RuntimeError(f"{who}: num_padded is specified but padded_sample is not.")
            return None, 0
        if not isinstance(padded_sample, dict):
            raise TypeError(f"{who}: padded_sample must be a dict of column values, got "
                            f"{type(padded_sample).__name__}")
        if num_padded is None:
            raise RuntimeError(f"{who}: padded_sample is specified and requires num_padded as "
                               f"well.")
        if isinstance(num_padded, bool) or not isinstance(num_padded, numbers.Integral) \
                or num_padded < 0:
            raise ValueError(f"{who}: num_padded is invalid, num_padded={num_padded!r}.")
        if columns_list is None:
            raise RuntimeError(f"{who}: padded_sample is specified and requires columns_list as "
                               f"well.")
        if any(c not in padded_sample for c in columns_list):
            raise ValueError(f"{who}: padded_sample cannot match columns_list.")
        return dict(padded_sample), int(num_padded)

    def _length(self):
        return len(self.records) + self.num_padded

    def _order(self, epoch, n):
        if self.mode is None:
            return np.arange(n)
        rng = np.random.default_rng([self.seed, epoch])
        rows = len(self.records)
        mode = self.mode
        if mode is Shuffle.ADAPTIVE:
            mode = Shuffle.GLOBAL if n <= _ADAPTIVE_LIMIT else Shuffle.PARTIAL
        if mode is Shuffle.GLOBAL:
            return rng.permutation(n)
        if mode is Shuffle.PARTIAL:
            return np.concatenate([start + rng.permutation(min(_PARTIAL_BLOCK, n - start))
                                   for start in range(0, n, _PARTIAL_BLOCK)] or [[]]
                                  ).astype(np.int64)
        starts = np.concatenate([[0], np.cumsum(self.records.file_rows)])
        spans = [np.arange(a, b) for a, b in zip(starts[:-1], starts[1:])]
        if mode is Shuffle.FILES:
            spans = [spans[k] for k in rng.permutation(len(spans))]
        else:                                                    # INFILE
            spans = [rng.permutation(span) for span in spans]
        return np.concatenate(spans + [np.arange(rows, n)]).astype(np.int64)

    def _read(self, index):
        if index >= len(self.records):
            return [a.copy() for a in self.padded_row]
        row = self.records.read(index, self.column_names)
        schema = self.records.schema
        return [_value(schema, c, row[c], self.who) for c in self.column_names]

    def get_col_names(self):
        return list(self.column_names)
