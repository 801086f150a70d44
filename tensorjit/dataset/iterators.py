"""Iterators over a dataset: each ``for`` loop over one is one epoch (the next epoch's shuffle
order), for at most ``num_epochs`` loops; rows come as lists (tuple iterator) or dicts of
Tensors, or of NumPy arrays with ``output_numpy=True``."""
import numbers

from .. import timeline
from ..tensor import Tensor

__all__ = ["TupleIterator", "DictIterator"]


class _Iterator:
    def __init__(self, dataset, num_epochs, output_numpy):
        if isinstance(num_epochs, bool) or not isinstance(num_epochs, numbers.Integral) or \
                (num_epochs <= 0 and num_epochs != -1):
            raise ValueError(f"create iterator: 'num_epochs' must be a positive int or -1, got "
                             f"{num_epochs!r}")
        self.dataset = dataset
        self.num_epochs = None if num_epochs == -1 else int(num_epochs)
        self.output_numpy = bool(output_numpy)
        self.epoch = 0
        self._rows = None
        self.names = dataset.get_col_names()

    def _convert(self, array):
        # string and bytes columns stay NumPy arrays, as in MindSpore (no such Tensors)
        return array if self.output_numpy or array.dtype.kind in "SU" else Tensor(array)

    def __iter__(self):
        self.stop()                            # a new loop starts the next epoch
        return self

    def __next__(self):
        if timeline.recorder is None:
            return self._next()
        with timeline.span("dataset: next row", "dataset"):
            return self._next()

    def _next(self):
        if self._rows is None:
            if self.num_epochs is not None and self.epoch >= self.num_epochs:
                raise RuntimeError(f"dataset iterator: all {self.num_epochs} epoch(s) it was "
                                   f"created for were read (create it with a larger "
                                   f"num_epochs)")
            self._rows = iter(self.dataset._epoch(self.epoch))
            self.epoch += 1
        try:
            row = next(self._rows)
        except StopIteration:
            self._rows = None
            if self.num_epochs is not None and self.epoch >= self.num_epochs:
                self.dataset._release()        # the last epoch: no workers run on
            raise
        return self._output(row)

    def stop(self):
        """End the current epoch early (its background workers stop)."""
        rows, self._rows = self._rows, None
        close = getattr(rows, "close", None)
        if close is not None:
            close()

    def get_next(self):
        return next(self)


class TupleIterator(_Iterator):
    def __init__(self, dataset, columns, num_epochs, output_numpy):
        super().__init__(dataset, num_epochs, output_numpy)
        if columns is None:
            self.index = None
        else:
            columns = [columns] if isinstance(columns, str) else list(columns)
            missing = [c for c in columns if c not in self.names]
            if missing:
                raise ValueError(f"create_tuple_iterator: columns {missing} are not among "
                                 f"{self.names}")
            self.index = [self.names.index(c) for c in columns]

    def _output(self, row):
        if self.index is not None:
            row = [row[k] for k in self.index]
        return [self._convert(a) for a in row]


class DictIterator(_Iterator):
    def _output(self, row):
        return {name: self._convert(a) for name, a in zip(self.names, row)}
