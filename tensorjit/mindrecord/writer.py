"""``FileWriter``: rows to MindRecord files (one file, or ``shard_num`` files named
``<file_name>0`` .. ``<file_name>N-1``), each with its ``.db`` index, as MindSpore writes
them.

A new set is written to temporary files beside the targets and renamed into place by
``commit``, so a failed or abandoned write leaves no half-written MindRecord file behind.
``open_for_append`` adds pages to committed files in place, as MindSpore does (their old
pages are not touched; the header and the index are rewritten at ``commit``).
"""
import os
import tempfile

from .errors import (MRMAddIndexError, MRMAddSchemaError, MRMCommitError, MRMDefineIndexError,
                     MRMGetMetaError, MRMInvalidHeaderSizeError, MRMInvalidPageSizeError,
                     MRMOpenError, MRMOpenForAppendError, MRMValidateDataError,
                     ParamTypeError, ParamValueError)
from .header import (DEFAULT_HEADER_SIZE, DEFAULT_PAGE_SIZE, MAX_HEADER_SIZE, MAX_PAGE_SIZE,
                     MIN_HEADER_SIZE, MIN_PAGE_SIZE, Header, read_header)
from .index_db import write_index
from .layout import ShardLayout, record, scan_rows
from .schema import Schema

__all__ = ["FileWriter", "check_filename"]

_FORBIDDEN = set('\\/:*?"<>|`&\';')


def check_filename(path, what="File path"):
    """MindSpore's rules for a MindRecord file name (ParamValueError otherwise)."""
    if not path:
        raise ParamValueError(f"{what} is not allowed None or empty!")
    if not isinstance(path, str):
        raise ParamValueError(f"File path: {path!r} is not string.")
    if path.endswith("/"):
        raise ParamValueError("File path can not end with '/'")
    name = os.path.basename(path)
    if set(name) & _FORBIDDEN:
        raise ParamValueError("File name should not contains \\/:*?\"<>|`&;\\'")
    if name.startswith(" ") or name.endswith(" "):
        raise ParamValueError("File name should not start/end with space.")


class FileWriter:
    """Writes rows (dicts) that match a schema into MindRecord files."""

    def __init__(self, file_name, shard_num=1, overwrite=False):
        check_filename(file_name)
        if isinstance(shard_num, bool) or not isinstance(shard_num, int):
            raise ParamValueError("Parameter shard_num's type is not int.")
        if not 1 <= shard_num <= 1000:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between 1 "
                                  f"and 1000.")
        if not isinstance(overwrite, bool):
            raise ParamValueError("Parameter overwrite's type is not bool.")
        digits = len(str(shard_num - 1))
        self._paths = ([file_name] if shard_num == 1 else
                       [f"{file_name}{str(k).rjust(digits, '0')}" for k in range(shard_num)])
        self._overwrite = overwrite
        self._schema = None
        self._index_fields = []
        self._header_size, self._page_size = DEFAULT_HEADER_SIZE, DEFAULT_PAGE_SIZE
        self._header = None            # made when the files open
        self._files = None             # open shard files
        self._temps = None             # their temporary names (a new set)
        self._parallel = None
        self._calls = 0
        self._committed = False

    # ---- describing the data ------------------------------------------------------------
    def add_schema(self, content, desc=None):
        """The schema of the rows (see ``schema.py``)."""
        if self._schema is not None:
            raise MRMAddSchemaError("Failed to add schema: a MindRecord file holds one schema "
                                    "and it is already set.")
        self._schema = Schema(content, desc or "")

    def add_index(self, index_fields):
        """Index these scalar fields (else all of them) in the ``.db`` files."""
        if not index_fields or not isinstance(index_fields, list):
            raise ParamTypeError("Invalid parameter type. 'index_fields' expect list type.")
        if self._schema is None:
            raise MRMGetMetaError("Failed to get meta info: add the schema before the index.")
        if self._header is not None:
            raise MRMAddIndexError("Failed to add index field: the index is set before the "
                                   "first write.")
        for field in index_fields:
            if not isinstance(field, str):
                raise ParamTypeError("Invalid parameter type. 'index field' expect str type.")
            if field in self._schema.blob_fields:
                raise MRMDefineIndexError(f"Failed to set field {field} since it's not "
                                          f"primitive type.")
            if field not in self._schema.fields:
                raise MRMAddIndexError(f"Failed to add index field: {field!r} is not in the "
                                       f"schema {self._schema.names}.")
            if field in self._index_fields:
                raise MRMAddIndexError(f"Failed to add index field: {field!r} is indexed "
                                       f"twice.")
            self._index_fields.append(field)

    def set_header_size(self, header_size):
        """Header region size in bytes: 16 KB .. 128 MB, a multiple of 4."""
        if isinstance(header_size, bool) or not isinstance(header_size, int) or not (
                MIN_HEADER_SIZE <= header_size <= MAX_HEADER_SIZE) or header_size % 4:
            raise MRMInvalidHeaderSizeError(f"Failed to set header size: {header_size!r} is not "
                                            f"a multiple of 4 between 16KB and 128MB.")
        self._check_not_started("set_header_size")
        self._header_size = header_size

    def set_page_size(self, page_size):
        """Page size in bytes: 32 KB .. 256 MB, a multiple of 4 (a row must fit a page)."""
        if isinstance(page_size, bool) or not isinstance(page_size, int) or not (
                MIN_PAGE_SIZE <= page_size <= MAX_PAGE_SIZE) or page_size % 4:
            raise MRMInvalidPageSizeError(f"Failed to set page size: {page_size!r} is not a "
                                          f"multiple of 4 between 32KB and 256MB.")
        self._check_not_started("set_page_size")
        self._page_size = page_size

    def _check_not_started(self, what):
        if self._header is not None:
            raise RuntimeError(f"{what}: the files are already being written")

    # ---- files --------------------------------------------------------------------------
    def _open(self):
        if self._header is not None:
            return
        if self._schema is None:
            raise MRMGetMetaError("Failed to get meta info: call add_schema before writing.")
        for path in self._paths:
            directory = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(directory):
                raise MRMOpenError(f"MindRecord File could not open: the directory {directory} "
                                   f"does not exist.")
            for existing in (path, path + ".db"):
                if os.path.exists(existing) and not self._overwrite:
                    raise RuntimeError(f"Invalid file, mindrecord files already exist. Please "
                                       f"check file path: {existing} (or pass overwrite=True).")
        for path in self._paths:
            for existing in (path, path + ".db"):
                if os.path.exists(existing):
                    os.remove(existing)
        index = self._index_fields or self._schema.default_index_fields()
        self._header = Header(self._schema, index, [os.path.basename(p) for p in self._paths],
                              self._header_size, self._page_size)
        self._temps, self._files = [], []
        for path in self._paths:
            fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                                       dir=os.path.dirname(os.path.abspath(path)))
            self._temps.append(tmp)
            self._files.append(os.fdopen(fd, "r+b"))

    def _layout(self, k):
        header = self._header
        return ShardLayout(k, header.pages[k], header.header_size, header.page_size,
                           self._files[k])

    def write_raw_data(self, raw_data, parallel_writer=False):
        """Write ``raw_data`` (a list of dicts matching the schema). The rows of one call are
        shared among the shards in order; with ``parallel_writer=True`` each call's rows go
        to one shard in turn and each shard file is a set of its own (as in MindSpore)."""
        if not isinstance(parallel_writer, bool):
            raise TypeError("The parameter `parallel_writer` must be bool.")
        if self._parallel is None:
            self._parallel = parallel_writer
        if self._parallel != parallel_writer:
            raise RuntimeError("The parameter `parallel_writer` must be consistent during use.")
        if self._committed:
            raise RuntimeError("Not allowed to call `write_raw_data` on committed MindRecord "
                               "files: to add rows to them, use FileWriter.open_for_append.")
        if not isinstance(raw_data, list):
            raise ParamTypeError("Invalid parameter type. 'raw_data' expect list type.")
        self._open()
        encoded, saved = [], 0
        for k, row in enumerate(raw_data):
            raw, blob, row_saved = self._schema.encode(row, f"write_raw_data: row {k}")
            encoded.append((record(raw), record(blob)))
            saved += row_saved
        if not encoded:
            raise RuntimeError("There is no valid data which can be written by "
                               "'write_raw_data' to mindrecord file.")
        shards = len(self._paths)
        if self._parallel:
            spans = [(0, 0)] * shards
            spans[self._calls % shards] = (0, len(encoded))
        else:
            # MindSpore gives the remainder rows to randomly chosen shards; here the first ones
            per, extra = divmod(len(encoded), shards)
            bounds = [0]
            for k in range(shards):
                bounds.append(bounds[-1] + per + (k < extra))
            spans = list(zip(bounds[:-1], bounds[1:]))
        self._calls += 1
        try:
            for k, (a, b) in enumerate(spans):
                rows = encoded[a:b]
                self._layout(k).add([r[1] for r in rows], [r[0] for r in rows])
        except ValueError as exc:
            raise MRMValidateDataError(f"write_raw_data: {exc}") from None
        self._header.compression_size += saved

    def commit(self):
        """Write the headers and the ``.db`` index files; the files are complete after it."""
        if self._committed:
            raise MRMCommitError("Failed to commit: the files are already committed.")
        self._open()
        header = self._header
        sets = ([[k] for k in range(len(self._paths))] if self._parallel
                else [list(range(len(self._paths)))])
        for members in sets:
            names = [os.path.basename(self._paths[k]) for k in members]
            for position, k in enumerate(members):
                own = Header(header.schema, header.index_fields, names, header.header_size,
                             header.page_size, header.compression_size, header.version)
                own.pages = [header.pages[m] for m in members]
                try:
                    text = own.serialize(position)
                except ValueError as exc:
                    raise MRMCommitError(f"Failed to commit: {exc}.") from None
                self._files[k].seek(0)
                self._files[k].write(text)
        for f in self._files:
            f.flush()
            os.fsync(f.fileno())
        for k, path in enumerate(self._paths):
            if self._temps is not None:
                os.chmod(self._temps[k], 0o600)
                os.replace(self._temps[k], path)
            self._index(k, path)
        for f in self._files:
            f.close()
        self._committed = True

    def _index(self, k, path):
        header, f = self._header, self._files[k]

        def read(offset, n):
            f.seek(offset)
            return f.read(n)
        rows = scan_rows(header.pages[k], header.header_size, header.page_size, read)
        write_index(path + ".db", os.path.basename(path), header.schema, header.index_fields,
                    rows)

    def __del__(self):
        # an abandoned new set leaves nothing behind (its files only appear at commit)
        try:
            if self._files is not None and not self._committed:
                for f in self._files:
                    f.close()
                for tmp in self._temps or []:
                    if os.path.exists(tmp):
                        os.remove(tmp)
        except Exception:     # (interpreter shutdown)
            pass

    # ---- appending ----------------------------------------------------------------------
    @classmethod
    def open_for_append(cls, file_name):
        """A writer adding rows to the committed set ``file_name`` belongs to."""
        check_filename(file_name)
        if not os.path.isfile(file_name) or not os.path.isfile(file_name + ".db"):
            raise MRMOpenForAppendError(f"MindRecord File could not open successfully for "
                                        f"append: {file_name} or its .db does not exist.")
        try:
            first, _, _ = read_header(file_name)
            directory = os.path.dirname(os.path.abspath(file_name))
            paths = [os.path.join(directory, n) for n in first.shard_names]
            headers = [read_header(p) for p in paths]
        except ValueError as exc:
            raise MRMOpenForAppendError(f"MindRecord File could not open successfully for "
                                        f"append: {exc}") from None
        writer = cls(file_name)
        writer._paths = paths
        writer._schema = first.schema
        writer._index_fields = list(first.index_fields)
        writer._header = first
        first.pages = [[] for _ in paths]
        for (header, shard_id, pages), path in zip(headers, paths):
            if header.meta() != first.meta():
                raise MRMOpenForAppendError(f"MindRecord File could not open successfully for "
                                            f"append: {path} does not belong to the set of "
                                            f"{file_name}.")
            first.pages[shard_id if shard_id < len(paths) else 0] = pages
        writer._files = [open(p, "r+b") for p in paths]
        return writer
