"""``Dataset``: a pipeline of rows (tuples of NumPy arrays, one per named column) pulled
through its operations one epoch at a time.

Every node knows its column names and its size without reading data, and produces an
epoch's rows with ``_rows(epoch)``; sources shuffle by ``(seed, epoch)``, so every epoch has
a new order and a rerun the same orders. Stages with ``num_parallel_workers > 1`` run ahead
of their consumer (``workers.py``), so the training loop takes ready rows.
"""
import numbers

import numpy as np

from ..tensor import Tensor
from . import config
from .workers import ordered_map, prefetch

__all__ = ["Dataset", "to_array"]


def to_array(value, where):
    """A column value as a NumPy array with MindSpore's types for Python values."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, np.generic):
        return np.array(value)
    if isinstance(value, bool):
        return np.array(value, np.bool_)
    if isinstance(value, numbers.Integral):
        return np.array(value, np.int64)
    if isinstance(value, numbers.Real):
        return np.array(value, np.float64)
    if isinstance(value, (str, bytes)):
        return np.array(value)
    if isinstance(value, (list, tuple)):
        array = np.array(value)
        if array.dtype == object:
            raise TypeError(f"{where}: a column value must be rectangular, got a ragged "
                            f"{type(value).__name__}")
        return array.astype(np.int64) if array.dtype.kind == "i" else array
    raise TypeError(f"{where}: a column value must be a NumPy array, a Tensor or a number, "
                    f"got {type(value).__name__}")


def stack_columns(rows, names):
    columns = []
    for k, name in enumerate(names):
        values = [row[k] for row in rows]
        if len({v.shape for v in values}) > 1:
            raise ValueError(f"batch: column {name!r} has rows of different shapes "
                             f"{sorted({v.shape for v in values})}; make them equal "
                             f"(e.g. with a Resize or pad in map) before batching")
        columns.append(np.stack(values))
    return columns


def _names(value, what, who):
    if value is None:
        return None
    names = [value] if isinstance(value, str) else list(value)
    if not names or not all(isinstance(n, str) and n for n in names):
        raise TypeError(f"{who}: '{what}' must be a column name or a list of names, got "
                        f"{value!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"{who}: '{what}' names a column twice: {names}")
    return names


def _count(value, what, who, allow_all=False):
    if allow_all and value in (None, -1):
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"{who}: '{what}' must be a positive int"
                         f"{' or -1' if allow_all else ''}, got {value!r}")
    return int(value)


def workers_arg(value, who):
    if value is None:
        return 1
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"{who}: 'num_parallel_workers' must be a positive int, got {value!r}")
    return int(value)


class Dataset:
    """Base of every dataset; subclasses define ``_columns``, ``_size`` and ``_rows``."""

    def __init__(self, children=(), num_parallel_workers=None):
        self.children = list(children)
        self.num_parallel_workers = num_parallel_workers

    # ---- what subclasses define ---------------------------------------------------------
    def _columns(self):
        return self.children[0]._columns()

    def _size(self):
        return self.children[0]._size()

    def _rows(self, epoch):
        raise NotImplementedError

    def _parallel(self):
        """Whether this stage or one below it runs workers (then iterators prefetch)."""
        return (self.num_parallel_workers or 1) > 1 or any(c._parallel() for c in self.children)

    def _release(self):
        """Stop the workers that run ahead of this pipeline (an iterator's last epoch has
        ended)."""
        for child in self.children:
            child._release()

    def _row_by_row(self):
        """Whether each output row is ``_transform_row`` of the input row at the same
        position (a batch may then run this stage inside its workers)."""
        return False

    # ---- pipeline operations ------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None,
              per_batch_map=None, input_columns=None, output_columns=None, **kwargs):
        from .batching import BatchDataset
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers,
                            per_batch_map, input_columns, output_columns)

    def map(self, operations, input_columns=None, output_columns=None,
            num_parallel_workers=None, python_multiprocessing=False, **kwargs):
        from .operations import MapDataset
        return MapDataset(self, operations, input_columns, output_columns,
                          num_parallel_workers, python_multiprocessing)

    def shuffle(self, buffer_size):
        return ShuffleDataset(self, buffer_size)

    def repeat(self, count=None):
        return RepeatDataset(self, count)

    def take(self, count=-1):
        return TakeDataset(self, count)

    def skip(self, count):
        return SkipDataset(self, count)

    def project(self, columns):
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        return RenameDataset(self, input_columns, output_columns)

    # ---- what it is ---------------------------------------------------------------------
    def get_col_names(self):
        return list(self._columns())

    def get_dataset_size(self):
        """Rows (batches after ``batch``) in one epoch."""
        return self._size()

    def get_batch_size(self):
        node = self
        while node.children:
            if hasattr(node, "batch_size"):
                return node.batch_size
            node = node.children[0]
        return 1

    def get_repeat_count(self):
        node = self
        while node.children:
            if isinstance(node, RepeatDataset):
                return -1 if node.count is None else node.count
            node = node.children[0]
        return 1

    def _first_row(self):
        for row in self._epoch(0):
            return row
        raise ValueError(f"{type(self).__name__}: the dataset is empty")

    def output_shapes(self):
        return [list(a.shape) for a in self._first_row()]

    def output_types(self):
        return [a.dtype for a in self._first_row()]

    # ---- iterating ----------------------------------------------------------------------
    def _epoch(self, epoch):
        rows = self._rows(epoch)
        if self._parallel():
            rows = prefetch(rows, config.get_prefetch_size())
        return rows

    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False,
                              do_copy=True):
        from .iterators import TupleIterator
        return TupleIterator(self, columns, num_epochs, output_numpy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        from .iterators import DictIterator
        return DictIterator(self, num_epochs, output_numpy)

    def __iter__(self):
        return iter(self.create_tuple_iterator(num_epochs=1))

    def __len__(self):
        return self.get_dataset_size()


class ShuffleDataset(Dataset):
    """Rows drawn at random from a buffer of ``buffer_size`` (a full shuffle when the buffer
    holds the whole dataset)."""

    def __init__(self, child, buffer_size):
        super().__init__([child])
        self.buffer_size = _count(buffer_size, "buffer_size", "shuffle")
        self.seed = config.get_seed()

    def _rows(self, epoch):
        rng = np.random.default_rng([self.seed, epoch, 1])
        buffer = []
        for row in self.children[0]._epoch(epoch):
            if len(buffer) < self.buffer_size:
                buffer.append(row)
                continue
            k = int(rng.integers(len(buffer)))
            yield buffer[k]
            buffer[k] = row
        rng.shuffle(buffer)
        yield from buffer


class RepeatDataset(Dataset):
    def __init__(self, child, count):
        super().__init__([child])
        self.count = _count(count, "count", "repeat", allow_all=True)

    def _size(self):
        n = self.children[0]._size()
        return None if n is None or self.count is None else n * self.count

    def _rows(self, epoch):
        k = 0
        while self.count is None or k < self.count:
            # each repetition is an epoch of the child (a new shuffle order)
            yield from self.children[0]._epoch(epoch * (self.count or 1) + k)
            k += 1


class TakeDataset(Dataset):
    def __init__(self, child, count):
        super().__init__([child])
        self.count = _count(count, "count", "take", allow_all=True)

    def _size(self):
        n = self.children[0]._size()
        if self.count is None:
            return n
        return self.count if n is None else min(n, self.count)

    def _rows(self, epoch):
        if self.count is None:
            yield from self.children[0]._epoch(epoch)
            return
        for k, row in enumerate(self.children[0]._epoch(epoch)):
            if k >= self.count:
                return
            yield row


class SkipDataset(Dataset):
    def __init__(self, child, count):
        super().__init__([child])
        if isinstance(count, bool) or not isinstance(count, numbers.Integral) or count < 0:
            raise ValueError(f"skip: 'count' must be an int >= 0, got {count!r}")
        self.count = int(count)

    def _size(self):
        n = self.children[0]._size()
        return None if n is None else max(0, n - self.count)

    def _rows(self, epoch):
        for k, row in enumerate(self.children[0]._epoch(epoch)):
            if k >= self.count:
                yield row


class ProjectDataset(Dataset):
    def __init__(self, child, columns):
        super().__init__([child])
        self.columns = _names(columns, "columns", "project")
        names = child._columns()
        missing = [c for c in self.columns if c not in names]
        if missing:
            raise ValueError(f"project: columns {missing} are not among {names}")
        self.index = [names.index(c) for c in self.columns]

    def _columns(self):
        return list(self.columns)

    def _row_by_row(self):
        return True

    def _transform_row(self, row):
        return [row[k] for k in self.index]

    def _rows(self, epoch):
        for row in self.children[0]._epoch(epoch):
            yield self._transform_row(row)


class RenameDataset(Dataset):
    def __init__(self, child, input_columns, output_columns):
        super().__init__([child])
        inputs = _names(input_columns, "input_columns", "rename")
        outputs = _names(output_columns, "output_columns", "rename")
        if len(inputs) != len(outputs):
            raise ValueError(f"rename: {len(inputs)} input columns but {len(outputs)} output "
                             f"columns")
        names = child._columns()
        missing = [c for c in inputs if c not in names]
        if missing:
            raise ValueError(f"rename: columns {missing} are not among {names}")
        mapping = dict(zip(inputs, outputs))
        self.names = [mapping.get(n, n) for n in names]
        if len(set(self.names)) != len(self.names):
            raise ValueError(f"rename: the result would have duplicate columns {self.names}")

    def _columns(self):
        return list(self.names)

    def _row_by_row(self):
        return True

    def _transform_row(self, row):
        return row

    def _rows(self, epoch):
        return self.children[0]._epoch(epoch)


def parallel_rows(function, items, workers, processes=False):
    """``function`` over ``items`` in order, on ``workers`` workers."""
    return ordered_map(function, items, workers, 2 * max(workers, config.get_prefetch_size()),
                       processes)
