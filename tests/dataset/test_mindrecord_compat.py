"""MindRecord sets move both ways between MindSpore 2.10 and tensorjit.

``mindrecord_files/`` holds sets MindSpore 2.10 wrote (gzipped) and what MindSpore read
from them (``expected.json``; ``make_mindrecord_fixtures.py`` records both). Here:

- tensorjit's ``FileReader`` and ``MindDataset`` read those files as MindSpore did: the
  same rows in the same order, columns, dtypes, shapes, shards and padded samples;
- tensorjit's ``FileWriter`` given the same rows writes the same bytes: every data file is
  identical to MindSpore's, and each ``.db`` holds the same tables and rows (an SQLite
  file's own bytes depend on the SQLite version) -- so MindSpore reads tensorjit's files as
  it reads its own, with or without MindSpore installed here to show it;
- where MindSpore 2.10 is installed (``$TENSORJIT_MINDSPORE_PYTHON``, else
  ``/tmp/msvenv/bin/python``), it reads tensorjit-written sets in a subprocess and finds what
  it found in its own.
"""
import gzip
import json
import os
import sqlite3
import subprocess

import pytest

import tensorjit.dataset as ds
from tensorjit.mindrecord import FileReader, FileWriter

from . import mindrecord_cases as cases
from .mindrecord_cases import encode

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "mindrecord_files")
with open(os.path.join(FIXTURES, "expected.json")) as _f:
    EXPECTED = json.load(_f)


def unpack(name, directory):
    """The recorded set ``name`` gunzipped into ``directory``; its first file's path."""
    for file in cases.file_names(name):
        for suffix in ("", ".db"):
            with gzip.open(os.path.join(FIXTURES, file + suffix + ".gz")) as f:
                data = f.read()
            with open(os.path.join(directory, file + suffix), "wb") as f:
                f.write(data)
    return os.path.join(directory, cases.file_names(name)[0])


def rows(dataset):
    return [{k: encode(v) for k, v in row.items()}
            for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True)]


def positions(dataset, whole, columns):
    whole = [{c: row[c] for c in columns} for row in whole]
    return [whole.index(row) if row in whole else -1 for row in rows(dataset)]


def reading(path, name):
    """What tensorjit reads from a set, in the recorder's terms."""
    reader = FileReader(path)
    found = {"schema": reader.schema(), "len": reader.len(),
             "file_reader": [{k: encode(v) for k, v in row.items()}
                             for row in reader.get_next()]}
    reader.close()
    data = ds.MindDataset(path, shuffle=False)
    found["columns"] = data.get_col_names()
    found["dataset"] = whole = rows(data)
    found["shards"] = [positions(ds.MindDataset(path, shuffle=False, num_shards=2, shard_id=k),
                                 whole, found["columns"]) for k in range(2)]
    padded = EXPECTED[name]["padded"]
    column = padded["column"]
    kind = cases.CASES[name][0][column]
    sample = {column: {"string": "pad", "bytes": b"pad"}.get(kind["type"], 0)}
    sets = [ds.MindDataset(path, columns_list=[column], shuffle=False, num_shards=3, shard_id=k,
                           padded_sample=sample, num_padded=padded["num_padded"])
            for k in range(3)]
    found["padded"] = {"column": column, "num_padded": padded["num_padded"],
                       "shards": [positions(d, whole, [column]) for d in sets],
                       "sample": rows(sets[-1])[-1]}
    return found


def mindspore_file_reader_rows(found, expected, schema):
    """tensorjit's FileReader rows where MindSpore's differ only by its known quirk: it
    gives a float field within about 1e-6 of a whole number as that int (0.0 as 0, 1e-300
    as 0); tensorjit gives the stored float (docs/mindspore-differences.md)."""
    fixed = []
    for mine, theirs in zip(found, expected):
        mine = dict(mine)
        for name, value in mine.items():
            if schema.get(name, {}).get("type") in ("float32", "float64") \
                    and "shape" not in schema[name] and type(theirs.get(name)) is int \
                    and isinstance(value, float) and abs(value - theirs[name]) < 1e-6:
                mine[name] = theirs[name]
        fixed.append(mine)
    return fixed


def compare(found, expected):
    for key in ("schema", "len", "columns", "dataset", "shards", "padded"):
        assert found[key] == expected[key], key
    assert mindspore_file_reader_rows(found["file_reader"], expected["file_reader"],
                                      expected["schema"]) == expected["file_reader"]


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_tensorjit_reads_what_mindspore_wrote(tmp_path, name):
    path = unpack(name, str(tmp_path))
    compare(reading(path, name), EXPECTED[name])


def db_content(path):
    db = sqlite3.connect(path)
    try:
        return (db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall(),
                db.execute("SELECT * FROM SHARD_NAME").fetchall(),
                sorted(db.execute("SELECT * FROM INDEXES").fetchall()))
    finally:
        db.close()


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_tensorjit_writes_mindspores_bytes(tmp_path, name):
    recorded, written = tmp_path / "mindspore", tmp_path / "tensorjit"
    recorded.mkdir()
    written.mkdir()
    unpack(name, str(recorded))
    cases.write(FileWriter, name, str(written))
    assert sorted(os.listdir(written)) == sorted(os.listdir(recorded))
    for file in cases.file_names(name):
        assert (written / file).read_bytes() == (recorded / file).read_bytes(), file
        assert db_content(str(written / (file + ".db"))) == db_content(
            str(recorded / (file + ".db"))), file + ".db"


def mindspore_python():
    python = os.environ.get("TENSORJIT_MINDSPORE_PYTHON") or "/tmp/msvenv/bin/python"
    return python if os.path.exists(python) else None


@pytest.mark.skipif(mindspore_python() is None,
                    reason="MindSpore 2.10 is not installed here (set TENSORJIT_MINDSPORE_PYTHON "
                           "to its interpreter); test_tensorjit_writes_mindspores_bytes shows "
                           "the files are the ones MindSpore writes")
def test_mindspore_reads_what_tensorjit_wrote(tmp_path):
    for name in cases.CASES:
        cases.write(FileWriter, name, str(tmp_path))
    proc = subprocess.run([mindspore_python(), os.path.join(HERE, "make_mindrecord_fixtures.py"),
                           "--read", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    for name in cases.CASES:
        compare(found[name], EXPECTED[name])
