"""``batch``: stack ``batch_size`` rows into one row of arrays (or hand them to
``per_batch_map``). Over a parallel ``map``, whole batches are made inside its workers
(``worker_batches.py``)."""
import numpy as np

from .engine import Dataset, _count, _names, to_array, stack_columns
from .worker_batches import BatchesInWorkers

__all__ = ["BatchInfo", "BatchDataset"]


class BatchInfo:
    """What ``per_batch_map`` learns about the batch it is given."""

    def __init__(self, epoch, batch):
        self._epoch, self._batch = epoch, batch

    def get_epoch_num(self):
        return self._epoch

    def get_batch_num(self):
        return self._batch


class BatchDataset(Dataset):
    def __init__(self, child, batch_size, drop_remainder, num_parallel_workers, per_batch_map,
                 input_columns, output_columns):
        super().__init__([child], num_parallel_workers)
        who = "batch"
        self.batch_size = _count(batch_size, "batch_size", who)
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"batch: 'drop_remainder' must be a bool, got {drop_remainder!r}")
        self.drop_remainder = drop_remainder
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError(f"batch: 'per_batch_map' must be callable, got {per_batch_map!r}")
        self.per_batch_map = per_batch_map
        self.input_columns = _names(input_columns, "input_columns", who)
        self.output_columns = _names(output_columns, "output_columns", who)
        names = child._columns()
        for name in self.input_columns or ():
            if name not in names:
                raise ValueError(f"batch: input column {name!r} is not one of {names}")
        self.in_workers = None if per_batch_map else BatchesInWorkers.plan(child)

    def _columns(self):
        names = self.children[0]._columns()
        if self.output_columns and self.input_columns:
            return [n for n in names if n not in self.input_columns] + self.output_columns
        return names

    def _size(self):
        n = self.children[0]._size()
        if n is None:
            return None
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def _parallel(self):
        # batches made in workers run ahead through the workers' queue: no prefetch
        # thread is needed above them
        return self.in_workers is None and super()._parallel()

    def _mapped(self, rows, epoch, index):
        names = self.children[0]._columns()
        inputs = self.input_columns or names
        lists = [[row[names.index(n)] for row in rows] for n in inputs]
        result = self.per_batch_map(*lists, BatchInfo(epoch, index))
        result = result if isinstance(result, tuple) else (result,)
        outputs = self.output_columns or inputs
        if len(result) != len(outputs):
            raise ValueError(f"batch: per_batch_map returned {len(result)} columns for "
                             f"{outputs}")
        stacked = [np.stack([to_array(v, "per_batch_map") for v in value])
                   if isinstance(value, list) else to_array(value, "per_batch_map")
                   for value in result]
        rest = [n for n in names if n not in inputs]
        by_name = {n: np.stack([row[names.index(n)] for row in rows]) for n in rest}
        by_name.update(zip(outputs, stacked))
        return [by_name[n] for n in self._columns()]

    def _release(self):
        if self.in_workers is not None:
            self.in_workers.close()
        super()._release()

    def _rows(self, epoch):
        if self.in_workers is not None:
            yield from self.in_workers.batches(epoch, self.batch_size, self.drop_remainder)
            return
        names = self.children[0]._columns()
        rows, index = [], 0
        for row in self.children[0]._epoch(epoch):
            rows.append(row)
            if len(rows) == self.batch_size:
                yield self._mapped(rows, epoch, index) if self.per_batch_map else \
                    stack_columns(rows, names)
                rows, index = [], index + 1
        if rows and not self.drop_remainder:
            yield self._mapped(rows, epoch, index) if self.per_batch_map else \
                stack_columns(rows, names)
