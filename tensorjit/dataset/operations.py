"""``map``: apply a list of operations to some columns of every row, on worker threads (or
forked processes) when ``num_parallel_workers > 1``, keeping the rows' order. Each row is
transformed under its key ``(epoch, position)`` (``row_key``), which random operations
draw from."""
from .. import timeline
from . import row_key
from .engine import Dataset, _names, to_array, workers_arg, parallel_rows

__all__ = ["MapDataset"]


def _op_name(op):
    return getattr(op, "__name__", None) or type(op).__name__


class _ApplyOperations:
    """The per-row work of a map: picklable-free (forked workers inherit it)."""

    def __init__(self, operations, in_index, out_count, layout):
        self.operations, self.in_index, self.out_count = operations, in_index, out_count
        self.layout = layout        # for each output column: ("new", k) or ("old", index)

    def __call__(self, keyed_row):
        key, row = keyed_row
        with row_key.transforming(key):
            return self.transform(row)

    def transform(self, row):
        """The row's new columns (the caller has set the row's key)."""
        if timeline.recorder is None:
            return self._transform(row)
        # (on the thread that runs it: worker threads are tracks of their own)
        with timeline.span("dataset: map " + ", ".join(map(_op_name, self.operations)),
                           "dataset"):
            return self._transform(row)

    def _transform(self, row):
        values = tuple(row[k] for k in self.in_index)
        for op in self.operations:
            try:
                result = op(*values)
            except Exception as exc:
                shapes = ", ".join(f"{getattr(v, 'dtype', type(v).__name__)}"
                                   f"{list(getattr(v, 'shape', ()))}" for v in values)
                if not _rebuildable(exc):
                    raise
                raise type(exc)(f"dataset map: operation {_op_name(op)} failed on ({shapes}): "
                                f"{exc}") from exc
            values = result if isinstance(result, tuple) else (result,)
        if len(values) != self.out_count:
            raise ValueError(f"dataset map: the operations returned {len(values)} values for "
                             f"{self.out_count} output columns")
        values = [to_array(v, "dataset map") for v in values]
        return [values[k] if kind == "new" else row[k] for kind, k in self.layout]


def _library_operation(op):
    """An operation of this package (a pure function of its inputs), not user code."""
    if not type(op).__module__.startswith(__package__ + "."):
        return False
    return all(_library_operation(t) for t in getattr(op, "transforms", ()))


def _rebuildable(exc):
    try:
        type(exc)("probe")
        return True
    except Exception:
        return False


class MapDataset(Dataset):
    def __init__(self, child, operations, input_columns, output_columns, num_parallel_workers,
                 python_multiprocessing):
        super().__init__([child], workers_arg(num_parallel_workers, "map"))
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        if not ops or not all(callable(op) for op in ops):
            raise TypeError(f"map: 'operations' must be a callable or a list of callables, got "
                            f"{operations!r}")
        names = child._columns()
        inputs = _names(input_columns, "input_columns", "map") or [names[0]]
        missing = [c for c in inputs if c not in names]
        if missing:
            raise ValueError(f"map: input columns {missing} are not among {names}")
        outputs = _names(output_columns, "output_columns", "map") or list(inputs)
        if len(outputs) == len(inputs):
            # outputs take the places of the inputs (MindSpore's order)
            renamed = dict(zip(inputs, outputs))
            self.names = [renamed.get(n, n) for n in names]
            layout = [("new", inputs.index(n)) if n in renamed else ("old", names.index(n))
                      for n in names]
        else:
            # otherwise the outputs come first, then the columns the map did not touch
            kept = [n for n in names if n not in inputs]
            self.names = outputs + kept
            layout = [("new", k) for k in range(len(outputs))] + \
                [("old", names.index(n)) for n in kept]
        if len(set(self.names)) != len(self.names):
            raise ValueError(f"map: the result would have duplicate columns {self.names}")
        self.operations = ops
        self.python_multiprocessing = bool(python_multiprocessing)
        self.apply = _ApplyOperations(ops, [names.index(c) for c in inputs], len(outputs),
                                      layout)

    def _columns(self):
        return list(self.names)

    def _library_only(self):
        return all(_library_operation(op) for op in self.operations)

    def _may_run_in_workers(self):
        """Whether its rows may be transformed in pipeline workers: it asked for workers,
        or its operations are all this package's own."""
        return self.num_parallel_workers > 1 or self._library_only()

    def _row_by_row(self):
        return True

    def _transform_row(self, row):
        return self.apply.transform(row)

    def _rows(self, epoch):
        keyed = (((epoch, k), row) for k, row in enumerate(self.children[0]._epoch(epoch)))
        return parallel_rows(self.apply, keyed, self.num_parallel_workers,
                             self.python_multiprocessing)
