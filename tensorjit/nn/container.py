"""Containers of cells: ``SequentialCell``, ``CellList`` and ``CellDict``.

Children of the list-like containers are registered under "0", "1", ...; their parameter
names get that prefix (``layers.0.weight``). Inserting or deleting re-numbers the
children and renames their parameters to match, so names always mirror the structure.
"""
from collections import OrderedDict

from .cell import Cell

__all__ = ["SequentialCell", "CellList", "CellDict"]


def _check_cell(cell, owner, what="element"):
    if not isinstance(cell, Cell):
        raise TypeError(f"{owner}: every {what} must be a Cell, got {type(cell).__name__}")
    return cell


def _move_prefix(owner, cell, old_key, new_key):
    """Rename ``cell``'s parameters from ``<prefix><old_key>.`` to ``<prefix><new_key>.``."""
    if not owner._auto_prefix:
        return
    old = owner._param_prefix + old_key + "."
    new = owner._param_prefix + new_key + "."
    for _, sub in cell.cells_and_names():
        if sub._param_prefix.startswith(old):
            object.__setattr__(sub, "_param_prefix", new + sub._param_prefix[len(old):])
    for _, param in cell.parameters_and_names():
        if param.name and param.name.startswith(old):
            param.name = new + param.name[len(old):]


class _CellSequence(Cell):
    """Shared machinery of the list-like containers."""

    def _items(self):
        return [c for c in self._cells.values()]

    def _numeric_keys(self):
        return all(k == str(i) for i, k in enumerate(self._cells))

    def _rebuild(self, entries):
        """Re-register ``entries`` [(old_key or None, cell)] under keys "0", "1", ..."""
        cells = OrderedDict()
        for i, (old_key, cell) in enumerate(entries):
            key = str(i)
            if old_key is None:
                if self._auto_prefix:
                    cell.update_parameters_name(self._param_prefix + key + ".")
            elif old_key != key:
                _move_prefix(self, cell, old_key, key)
            cells[key] = cell
        object.__setattr__(self, "_cells", cells)

    def _index(self, index):
        n = len(self._cells)
        if not isinstance(index, int):
            raise TypeError(f"{type(self).__name__}: indices must be int or slice, got "
                            f"{type(index).__name__}")
        if not -n <= index < n:
            raise IndexError(f"{type(self).__name__}: index {index} out of range for "
                             f"{n} cell(s)")
        return index % n

    def _subset(self, index):
        """A container of the same kind holding a slice of the children, with their
        parameter names left as they are (the parameters still belong to this one)."""
        subset = type(self).__new__(type(self))
        Cell.__init__(subset, auto_prefix=self._auto_prefix)
        for key, cell in list(self._cells.items())[index]:
            subset._cells[key] = cell
        object.__setattr__(subset, "training", self.training)
        if self._numeric_keys():
            object.__setattr__(subset, "_cells", OrderedDict(
                (str(i), c) for i, c in enumerate(subset._cells.values())))
        return subset

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._subset(index)
        return self._items()[self._index(index)]

    def __setitem__(self, index, cell):
        _check_cell(cell, type(self).__name__)
        key = list(self._cells)[self._index(index)]
        self._cells[key] = cell
        if self._auto_prefix:
            cell.update_parameters_name(self._param_prefix + key + ".")

    def __delitem__(self, index):
        keys = list(self._cells)
        doomed = set(keys[index]) if isinstance(index, slice) else {keys[self._index(index)]}
        numeric = self._numeric_keys()
        remaining = [(k, c) for k, c in self._cells.items() if k not in doomed]
        if numeric:
            self._rebuild(remaining)
        else:
            object.__setattr__(self, "_cells", OrderedDict(remaining))

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._items())

    def __bool__(self):
        return True     # an empty container is still a cell, not "nothing"

    def append(self, cell):
        _check_cell(cell, f"{type(self).__name__}.append", "argument")
        key = str(len(self._cells))
        while key in self._cells:     # name-keyed SequentialCell: find a free integer key
            key = str(int(key) + 1)
        self.insert_child_to_cell(key, cell)
        return self

    def insert(self, index, cell):
        _check_cell(cell, f"{type(self).__name__}.insert", "argument")
        if not isinstance(index, int):
            raise TypeError(f"{type(self).__name__}.insert: index must be an int, got "
                            f"{type(index).__name__}")
        if not self._numeric_keys():
            raise TypeError(f"{type(self).__name__}.insert: only supported when the cells "
                            f"are numbered (built from a list), not named")
        entries = list(self._cells.items())
        n = len(entries)
        position = min(max(index + n if index < 0 else index, 0), n)
        entries.insert(position, (None, cell))
        self._rebuild(entries)
        return self

    def extend(self, cells):
        for cell in cells:
            self.append(cell)
        return self


class SequentialCell(_CellSequence):
    """Cells called one after another: ``SequentialCell([a, b])(x) == b(a(x))``.

    Accepts a list of cells, an OrderedDict of name -> cell, or the cells as arguments."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            items = [(str(i), c) for i, c in enumerate(args[0])]
        elif len(args) == 1 and isinstance(args[0], dict):
            items = list(args[0].items())
        else:
            items = [(str(i), c) for i, c in enumerate(args)]
        for name, cell in items:
            _check_cell(cell, "SequentialCell")
            self.insert_child_to_cell(name, cell)

    def construct(self, input_data):
        for cell in self._cells.values():
            input_data = cell(input_data)
        return input_data


class CellList(_CellSequence):
    """A list of cells, registered so their parameters belong to the owner."""

    def __init__(self, args=None, auto_prefix=True):
        super().__init__(auto_prefix=auto_prefix)
        if args is not None:
            if isinstance(args, Cell) or not hasattr(args, "__iter__"):
                raise TypeError(f"CellList: args must be an iterable of cells, got "
                                f"{type(args).__name__}")
            self.extend(args)

    def __iadd__(self, cells):
        return self.extend(cells)

    def construct(self, *inputs):
        raise NotImplementedError("CellList is a container and cannot be called; "
                                  "call the cells it holds")


class CellDict(Cell):
    """An ordered dict of name -> cell, registered so their parameters belong to it."""

    def __init__(self, args=None, auto_prefix=True):
        super().__init__(auto_prefix=auto_prefix)
        if args is not None:
            self.update(args)

    def __getitem__(self, key):
        return self._cells[key]

    def __setitem__(self, key, cell):
        _check_cell(cell, "CellDict", "value")
        if key in self._cells:
            del self._cells[key]
        self.insert_child_to_cell(key, cell)

    def __delitem__(self, key):
        del self._cells[key]

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def __contains__(self, key):
        return key in self._cells

    def __bool__(self):
        return True

    def keys(self):
        return self._cells.keys()

    def values(self):
        return self._cells.values()

    def items(self):
        return self._cells.items()

    def clear(self):
        self._cells.clear()

    def pop(self, key):
        return self._cells.pop(key)

    def update(self, cells):
        pairs = cells.items() if isinstance(cells, dict) else cells
        for key, cell in pairs:
            self[key] = cell

    def construct(self, *inputs):
        raise NotImplementedError("CellDict is a container and cannot be called; "
                                  "call the cells it holds")
