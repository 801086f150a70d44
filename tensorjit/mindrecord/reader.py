"""Reading MindRecord files: ``ShardSet`` (the files of a set, their index, one row by
position; ``MindDataset`` reads through it too) and ``FileReader`` (MindSpore's API).

A file name stands for the whole set it was written in (the shard names in its header, in
the same directory); a list of names reads exactly those files. Every header is checked,
and every row position the ``.db`` gives is checked against its page before it is read,
so a damaged, truncated or mismatched file is a RuntimeError naming the file and the
problem. Nothing read from a file is executed.
"""
import os
import threading

import numpy as np

from .errors import ParamTypeError, ParamValueError
from .header import BLOB, RAW, read_header
from .index_db import read_index
from .writer import check_filename

__all__ = ["ShardSet", "FileReader"]


def _resolve(file_name, who):
    """``[(path, header, pages)]`` of the files to read."""
    names = [file_name] if isinstance(file_name, str) else file_name
    if not isinstance(names, (list, tuple)) or not names or not all(
            isinstance(n, str) and n for n in names):
        raise ParamValueError(f"{who}: file_name must be a file path or a non-empty list of "
                              f"paths, got {file_name!r}")
    for name in names:
        if not os.path.isfile(name):
            raise RuntimeError(f"{who}: the MindRecord file {name} does not exist")
    try:
        if isinstance(file_name, str):
            header, _, _ = read_header(file_name)
            directory = os.path.dirname(os.path.abspath(file_name))
            paths = [os.path.join(directory, n) for n in header.shard_names]
            for path in paths:
                if not os.path.isfile(path):
                    raise RuntimeError(f"{who}: the header of {file_name} names the shard "
                                       f"file {path}, which does not exist")
        else:
            paths = list(names)
        found = []
        for path in paths:
            header, _, pages = read_header(path)
            found.append((path, header, pages))
    except ValueError as exc:
        raise RuntimeError(f"{who}: {exc}") from None
    first = found[0][1].meta()
    for path, header, _ in found[1:]:
        if header.meta() != first:
            raise RuntimeError(f"{who}: {path} has another schema, index or page size than "
                               f"{found[0][0]}: they are not files of one MindRecord set")
    return found


class ShardSet:
    """The rows of a set of MindRecord files, in MindSpore's order (file by file, by row
    id), read by position with ``read(k)``. Thread-safe; usable in forked processes."""

    def __init__(self, file_name, who="FileReader"):
        self.who = who
        found = _resolve(file_name, who)
        self.paths = [path for path, _, _ in found]
        header = found[0][1]
        self.schema = header.schema
        self.index_fields = header.index_fields
        self.header_size, self.page_size = header.header_size, header.page_size
        self.compressed = header.version >= "3.0" and self.schema.compressed
        self.sizes = [os.path.getsize(p) for p in self.paths]
        positions, self.file_rows = [], []
        for k, (path, _, pages) in enumerate(found):
            rows = read_index(path + ".db", os.path.basename(path), who)
            self._check(k, path, pages, rows)
            positions.append(np.column_stack([np.full(len(rows), k, np.int64), rows]))
            self.file_rows.append(len(rows))
        self.positions = (np.concatenate(positions) if positions
                          else np.zeros((0, 8), np.int64))
        self._fds = None
        self._pid = None
        self._lock = threading.Lock()

    def _check(self, k, path, pages, rows):
        expected = sum(p.end_row_id - p.start_row_id for p in pages if p.page_type == BLOB)
        if expected != len(rows):
            raise RuntimeError(f"{self.who}: the index {path}.db lists {len(rows)} rows but "
                               f"{path} holds {expected}: the .db belongs to another write")
        if not len(rows):
            return
        kinds = np.array([p.page_type == RAW for p in pages] + [False], bool)
        used = np.array([p.page_size for p in pages] + [0], np.int64)
        last = len(pages)
        for page_col, start_col, end_col, raw in ((1, 2, 3, True), (4, 5, 6, False)):
            page = np.minimum(rows[:, page_col], last)
            ok = (page < last) & (kinds[page] == raw) & (rows[:, start_col] + 8 <=
                                                          rows[:, end_col])
            ok &= rows[:, end_col] <= used[page]
            if not ok.all():
                bad = int(np.argmin(ok))
                raise RuntimeError(f"{self.who}: the index {path}.db places row "
                                   f"{int(rows[bad, 0])} outside the {'raw' if raw else 'blob'} "
                                   f"pages of {path}: one of them is damaged or they do not "
                                   f"belong together")

    def __len__(self):
        return len(self.positions)

    def __getstate__(self):
        state = dict(self.__dict__)
        state.update(_fds=None, _pid=None, _lock=None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _fd(self, k):
        if self._fds is None or self._pid != os.getpid():
            with self._lock:
                if self._fds is None or self._pid != os.getpid():
                    self._fds = [os.open(p, os.O_RDONLY) for p in self.paths]
                    self._pid = os.getpid()
        return self._fds[k]

    def _read(self, k, page, start, end, where):
        offset = self.header_size + page * self.page_size + start
        data = os.pread(self._fd(k), end - start, offset)
        if len(data) != end - start:
            raise RuntimeError(f"{self.who}: {self.paths[k]} ends inside {where}: it is "
                               f"truncated")
        stored = int.from_bytes(data[:8], "little")
        if stored != end - start - 8:
            raise RuntimeError(f"{self.who}: {self.paths[k]}: {where} is {stored} bytes but "
                               f"its index says {end - start - 8}: the file or its .db is "
                               f"damaged")
        return memoryview(data)[8:]

    def read(self, position, columns=None):
        """``{field: value}`` of the row at ``position``: scalars as Python values, bytes
        as bytes, arrays as ndarrays; ``columns`` limits (and orders) the fields."""
        k, row_id, raw_page, raw_start, raw_end, blob_page, blob_start, blob_end = (
            int(v) for v in self.positions[position])
        where = f"row {row_id}"
        try:
            raw = self.schema.decode_raw(self._read(k, raw_page, raw_start, raw_end, where),
                                         where)
            wanted = self.schema.blob_fields if columns is None else [
                c for c in columns if c in self.schema.blob_fields]
            blob = (self.schema.decode_blob(self._read(k, blob_page, blob_start, blob_end,
                                                       where), self.compressed, where)
                    if wanted else {})
        except ValueError as exc:
            raise RuntimeError(f"{self.who}: {self.paths[k]} is damaged: {exc}") from None
        row = {n: raw[n] for n in self.schema.raw_fields}
        row.update(blob)
        if columns is None:
            return row
        return {c: row[c] for c in columns}

    def close(self):
        if self._fds is not None and self._pid == os.getpid():
            for fd in self._fds:
                os.close(fd)
        self._fds = None

    def __del__(self):
        try:
            self.close()
        except Exception:   # (interpreter shutdown)
            pass


class FileReader:
    """MindSpore's ``FileReader``: ``get_next()`` yields each row as a dict."""

    class _Default(int):
        """4, MindSpore's default, which MindSpore checks against the CPU count only when
        it is given."""

    def __init__(self, file_name, num_consumer=_Default(4), columns=None, operator=None):
        names = file_name if isinstance(file_name, list) else [file_name]
        for name in names:
            check_filename(name)
        if type(num_consumer) is not FileReader._Default:
            if isinstance(num_consumer, bool) or not isinstance(num_consumer, int):
                raise ParamValueError("Parameter num_consumer is not int.")
            if not 1 <= num_consumer <= (os.cpu_count() or 1):
                raise ParamValueError(f"Parameter num_consumer: {num_consumer} should between 1 "
                                      f"and {os.cpu_count() or 1}.")
        if columns:
            if not isinstance(columns, list):
                raise ParamTypeError("Invalid parameter type. 'columns' expect list type.")
        self._columns = list(columns) if columns else None
        self._set = ShardSet(file_name, "FileReader")
        if self._columns:
            unknown = [c for c in self._columns if c not in self._set.schema.fields]
            if unknown:
                self._set.close()
                raise ParamValueError(f"Invalid parameter value. columns {unknown} are not in "
                                      f"the schema {self._set.schema.names}.")

    def get_next(self):
        """A generator of the rows (dicts: scalar fields, then bytes / array fields)."""
        columns = self._columns
        if columns:     # (MindSpore's order: the scalar fields sorted, then the others)
            columns = ([c for c in self._set.schema.raw_fields if c in columns]
                       + [c for c in columns if c in self._set.schema.blob_fields])
        for position in range(len(self._set)):
            yield self._set.read(position, columns)

    def schema(self):
        return {name: dict(spec) for name, spec in sorted(self._set.schema.fields.items())}

    def len(self):
        return len(self._set)

    def close(self):
        self._set.close()
