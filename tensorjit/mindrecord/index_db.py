"""The ``.db`` index beside each shard file: an SQLite database with MindSpore's two tables.

``SHARD_NAME(NAME)`` holds the shard file's name (a reader checks the index is that file's);
``INDEXES`` one row per data row: its id, where its scalar record (raw page, start, end)
and its blob (blob page, start, end) are, its row group, and the index fields' values
(``<field>_0``, each after an ``INC_k`` column of 0). MindSpore reads row positions from
here and, when every requested column is an index field, the values too, so both are
written as MindSpore writes them.
"""
import os
import sqlite3
import urllib.request

import numpy as np

__all__ = ["write_index", "read_index", "POSITION_COLUMNS"]

_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL",
              "string": "TEXT"}
POSITION_COLUMNS = ("ROW_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW", "PAGE_OFFSET_RAW_END",
                    "PAGE_ID_BLOB", "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END")


def _create_sql(schema, index_fields):
    sql = ("CREATE TABLE INDEXES("
           "  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          INT  NOT NULL"
           ", PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT NULL"
           ", ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL"
           ", PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL")
    for k, field in enumerate(index_fields):
        sql += f",INC_{k} INT, {field}_0 {_SQL_TYPES.get(schema.type_of(field), 'TEXT')}"
    sql += ", PRIMARY KEY(ROW_ID" + "".join(f",INC_{k}" for k in range(len(index_fields)))
    return sql + "));"


def write_index(path, shard_name, schema, index_fields, rows):
    """Write the index database ``path`` (replacing it) for ``rows`` (``layout.scan_rows``
    tuples), through a temporary file renamed into place."""
    tmp = f"{path}.{os.getpid()}.tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    columns = ["ROW_ID", "ROW_GROUP_ID", "PAGE_ID_RAW", "PAGE_OFFSET_RAW",
               "PAGE_OFFSET_RAW_END", "PAGE_ID_BLOB", "PAGE_OFFSET_BLOB", "PAGE_OFFSET_BLOB_END"]
    for k, field in enumerate(index_fields):
        columns += [f"INC_{k}", f"{field}_0"]
    insert = (f"INSERT INTO INDEXES ({','.join(columns)}) VALUES "
              f"({','.join('?' * len(columns))})")
    try:
        db = sqlite3.connect(tmp)
        try:
            db.execute("DROP TABLE IF EXISTS INDEXES;")
            db.execute(_create_sql(schema, index_fields))
            db.execute("DROP TABLE IF EXISTS SHARD_NAME;")
            db.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL);")
            db.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?);", (shard_name,))

            def values():
                for *position, raw in rows:
                    fields = schema.decode_raw(raw, f"row {position[0]}")
                    extra = []
                    for field in index_fields:
                        extra += [0, fields[field]]
                    yield (*position, *extra)
            db.executemany(insert, values())
            db.commit()
        finally:
            db.close()
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def read_index(path, shard_name, where):
    """The positions of every row of the shard (an int64 array, one row per data row, the
    ``POSITION_COLUMNS``), in row-id order. ``where`` names the reader in errors."""
    if not os.path.isfile(path):
        raise RuntimeError(f"{where}: the index file {path} does not exist (each MindRecord "
                           f"file needs the .db written beside it)")
    uri = "file:" + urllib.request.pathname2url(os.path.abspath(path)) + "?mode=ro"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=1.0)
    except sqlite3.Error as exc:
        raise RuntimeError(f"{where}: cannot open the index file {path}: {exc}") from None
    try:
        names = db.execute("SELECT NAME FROM SHARD_NAME;").fetchall()
        if not names or names[0][0] != shard_name:
            raise RuntimeError(f"{where}: the index file {path} belongs to "
                               f"{names[0][0] if names else 'no file'!r}, not to {shard_name!r}")
        columns = ",".join(POSITION_COLUMNS)
        bad = db.execute("SELECT COUNT(*) FROM INDEXES WHERE " + " OR ".join(
            f"typeof({c}) != 'integer' OR {c} < 0" for c in POSITION_COLUMNS)).fetchone()[0]
        if bad:
            raise RuntimeError(f"{where}: the index file {path} has {bad} rows whose positions "
                               f"are not non-negative integers: it is damaged")
        rows = db.execute(f"SELECT {columns} FROM INDEXES ORDER BY ROW_ID;").fetchall()
    except sqlite3.Error as exc:
        raise RuntimeError(f"{where}: the index file {path} is not a MindRecord index ({exc})") \
            from None
    finally:
        db.close()
    return np.array(rows, np.int64).reshape(-1, len(POSITION_COLUMNS))
