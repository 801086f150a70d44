"""Sources: ``GeneratorDataset`` (a generator function, an iterable, or a random-access
object with ``__getitem__`` and ``__len__``) and ``NumpySlicesDataset``; ``IndexedSource``
is the base of every random-access source (the file readers too).

A random-access source picks its rows per epoch as MindSpore's samplers do: shuffled by
``(seed, epoch)`` (the same permutation in every shard), then for ``num_shards`` the list
is padded cyclically to a multiple of ``num_shards`` and shard ``k`` takes every
``num_shards``-th row from ``k``; ``num_samples`` keeps the first rows of that. In
data-parallel training on several processes, a source given no shard reads this rank's.
"""
import numbers

import numpy as np

from .. import context
from ..ops import process_groups
from . import config
from .engine import Dataset, to_array, workers_arg, parallel_rows

__all__ = ["IndexedSource", "GeneratorDataset", "NumpySlicesDataset"]


def _shard_args(num_shards, shard_id, who):
    if num_shards is None and shard_id is None:
        return _shard_of_this_rank()
    if num_shards is None or shard_id is None:
        raise ValueError(f"{who}: give both 'num_shards' and 'shard_id', or neither")
    for name, value in (("num_shards", num_shards), ("shard_id", shard_id)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{who}: '{name}' must be an int, got {value!r}")
    if num_shards <= 0 or not 0 <= shard_id < num_shards:
        raise ValueError(f"{who}: need num_shards > 0 and 0 <= shard_id < num_shards, got "
                         f"num_shards={num_shards}, shard_id={shard_id}")
    return int(num_shards), int(shard_id)


def _shard_of_this_rank():
    """Data-parallel training (``set_auto_parallel_context(parallel_mode=DATA_PARALLEL)``
    on several processes, ``full_batch=False``) reads one shard per rank by default."""
    if context.get_auto_parallel_context("parallel_mode") != context.ParallelMode.DATA_PARALLEL \
            or context.get_auto_parallel_context("full_batch"):
        return None, None
    size = process_groups.world_size()
    return (size, process_groups.world_rank()) if size > 1 else (None, None)


def _num_samples(value, who):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"{who}: 'num_samples' must be an int >= 0, got {value!r}")
    return int(value) or None            # 0 means all, as in MindSpore


class IndexedSource(Dataset):
    """A source of ``_length()`` rows read by index with ``_read(i)``."""

    # whether ``_row(i)`` is a pure read (files, arrays) that a pipeline worker may make in
    # its own thread or process; user code (GeneratorDataset) is read where the user runs
    reads_in_workers = True

    def __init__(self, column_names, num_samples, num_parallel_workers, shuffle, num_shards,
                 shard_id, who, default_shuffle=True):
        super().__init__((), workers_arg(num_parallel_workers, who))
        self.column_names = list(column_names)
        self.num_samples = _num_samples(num_samples, who)
        if shuffle is not None and not isinstance(shuffle, bool):
            raise TypeError(f"{who}: 'shuffle' must be a bool, got {shuffle!r}")
        self.shuffle_rows = default_shuffle if shuffle is None else shuffle
        self.num_shards, self.shard_id = _shard_args(num_shards, shard_id, who)
        self.seed = config.get_seed()
        self.who = who

    def _columns(self):
        return list(self.column_names)

    def _order(self, epoch, n):
        """The epoch's order of the ``n`` rows, before sharding."""
        return (np.random.default_rng([self.seed, epoch]).permutation(n) if self.shuffle_rows
                else np.arange(n))

    def _indices(self, epoch):
        n = self._length()
        order = self._order(epoch, n)
        if self.num_shards is not None and n:
            per_shard = -(-n // self.num_shards)
            order = np.resize(order, per_shard * self.num_shards)[self.shard_id::self.num_shards]
        if self.num_samples is not None:
            order = order[:self.num_samples]
        return order

    def _size(self):
        n = self._length()
        if self.num_shards is not None:
            n = -(-n // self.num_shards)
        return n if self.num_samples is None else min(n, self.num_samples)

    def _row(self, index):
        values = self._read(int(index))
        values = values if isinstance(values, (tuple, list)) else (values,)
        if len(values) != len(self.column_names):
            raise ValueError(f"{self.who}: row {index} has {len(values)} values for the "
                             f"{len(self.column_names)} columns {self.column_names}")
        return [to_array(v, f"{self.who} row {index}") for v in values]

    def _rows(self, epoch):
        yield from parallel_rows(self._row, self._indices(epoch), self.num_parallel_workers)


def _default_names(count):
    return [f"column_{k}" for k in range(count)]


class GeneratorDataset(IndexedSource):
    reads_in_workers = False

    def __init__(self, source, column_names=None, column_types=None, schema=None,
                 num_samples=None, num_parallel_workers=1, shuffle=None, sampler=None,
                 num_shards=None, shard_id=None, python_multiprocessing=True, max_rowsize=None):
        who = "GeneratorDataset"
        if sampler is not None:
            raise NotImplementedError(f"{who}: samplers are not supported; use shuffle, "
                                      f"num_shards / shard_id and num_samples")
        self.source = source
        self.random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__")
        if not self.random_access and not callable(source) and not hasattr(source, "__iter__"):
            raise TypeError(f"{who}: 'source' must be a generator function, an iterable or an "
                            f"object with __getitem__ and __len__, got {type(source).__name__}")
        if not self.random_access and shuffle:
            raise ValueError(f"{who}: an iterable source cannot be shuffled (it has no "
                             f"__getitem__ / __len__); use .shuffle(buffer_size)")
        names = [column_names] if isinstance(column_names, str) else column_names
        if names is None:
            names = _default_names(len(self._probe(who)))
        elif not names or not all(isinstance(n, str) and n for n in names):
            raise TypeError(f"{who}: 'column_names' must be a list of names, got "
                            f"{column_names!r}")
        super().__init__(names, num_samples, num_parallel_workers, shuffle, num_shards,
                         shard_id, who, default_shuffle=self.random_access)
        self.column_types = list(column_types) if column_types else None

    def _probe(self, who):
        for row in self._iterate():
            return row if isinstance(row, (tuple, list)) else (row,)
        raise ValueError(f"{who}: the source yields no rows, so column_names cannot be guessed")

    def _iterate(self):
        return iter(self.source() if callable(self.source) and not hasattr(self.source, "__iter__")
                    else self.source)

    def _length(self):
        return len(self.source)

    def _read(self, index):
        return self.source[index]

    def _size(self):
        if self.random_access:
            return super()._size()
        n = sum(1 for _ in self._iterate())
        if self.num_shards is not None:
            n = -(-n // self.num_shards)
        return n if self.num_samples is None else min(n, self.num_samples)

    def _cast(self, row):
        if self.column_types:
            row = [a.astype(t) for a, t in zip(row, self.column_types)]
        return row

    def _rows(self, epoch):
        if self.random_access:
            for row in super()._rows(epoch):
                yield self._cast(row)
            return
        count = 0
        for k, values in enumerate(self._iterate()):
            if self.num_shards is not None and k % self.num_shards != self.shard_id:
                continue
            if self.num_samples is not None and count >= self.num_samples:
                return
            values = values if isinstance(values, (tuple, list)) else (values,)
            if len(values) != len(self.column_names):
                raise ValueError(f"GeneratorDataset: row {k} has {len(values)} values for the "
                                 f"{len(self.column_names)} columns {self.column_names}")
            count += 1
            yield self._cast([to_array(v, f"GeneratorDataset row {k}") for v in values])


class NumpySlicesDataset(IndexedSource):
    """Rows are slices along the first axis of ``data``: an array, a list (one column), a
    tuple of them (one column each) or a dict (its keys name the columns)."""

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1,
                 shuffle=None, sampler=None, num_shards=None, shard_id=None):
        who = "NumpySlicesDataset"
        if sampler is not None:
            raise NotImplementedError(f"{who}: samplers are not supported; use shuffle, "
                                      f"num_shards / shard_id and num_samples")
        if isinstance(data, dict):
            names, columns = list(data), list(data.values())
        elif isinstance(data, tuple):
            names, columns = None, list(data)
        else:
            names, columns = None, [data]
        arrays = []
        for column in columns:
            array = to_array(column, who)
            if array.ndim == 0:
                raise ValueError(f"{who}: a column must have a first axis to slice, got a "
                                 f"scalar")
            arrays.append(array)
        if len({len(a) for a in arrays}) > 1:
            raise ValueError(f"{who}: the columns have different lengths "
                             f"{[len(a) for a in arrays]}")
        if column_names is not None:
            names = [column_names] if isinstance(column_names, str) else list(column_names)
            if len(names) != len(arrays):
                raise ValueError(f"{who}: {len(names)} column names for {len(arrays)} columns")
        self.arrays = arrays
        super().__init__(names or _default_names(len(arrays)), num_samples,
                         num_parallel_workers, shuffle, num_shards, shard_id, who)

    def _length(self):
        return len(self.arrays[0])

    def _read(self, index):
        return [a[index] for a in self.arrays]
