"""Records MindRecord sets written by MindSpore and what MindSpore reads from them (run with
MindSpore's interpreter:
``$TENSORJIT_MINDSPORE_PYTHON tests/dataset/make_mindrecord_fixtures.py``).

Each file of each set in ``mindrecord_cases.CASES`` is stored gzipped in
``mindrecord_files/`` (a MindRecord file is mostly the zeros of its fixed-size header and
pages), and ``mindrecord_files/expected.json`` holds MindSpore's reading of them:
``FileReader`` (rows in order) and ``MindDataset`` (columns, dtypes, shapes, values; which
rows each shard gets, with and without padded samples). The same script with ``--read DIR``
prints, as JSON, what MindSpore reads from the sets in ``DIR`` (the tests use it on
tensorjit-written files)."""
import gzip
import json
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "mindrecord_files")
sys.path.insert(0, HERE)

import mindrecord_cases as cases        # noqa: E402  (beside this file)
from mindrecord_cases import encode     # noqa: E402


def read(path, name):
    """What MindSpore reads from the set whose first file is ``path``."""
    import mindspore.dataset as ds
    from mindspore.mindrecord import FileReader
    reader = FileReader(path)
    found = {"schema": reader.schema(), "len": reader.len(),
             "file_reader": [{k: encode(v) for k, v in row.items()}
                             for row in reader.get_next()]}
    reader.close()

    def rows(dataset):
        return [{k: encode(v) for k, v in row.items()}
                for row in dataset.create_dict_iterator(num_epochs=1, output_numpy=True)]
    data = ds.MindDataset(path, shuffle=False)
    found["columns"] = data.get_col_names()
    found["dataset"] = rows(data)
    total = found["len"]

    def positions(dataset, columns=None):
        """Each row as its position in the unsharded rows (-1: a padded sample)."""
        names = columns or found["columns"]
        whole = [{c: row[c] for c in names} for row in found["dataset"]]
        return [whole.index(row) if row in whole else -1 for row in rows(dataset)]
    found["shards"] = [positions(ds.MindDataset(path, shuffle=False, num_shards=2, shard_id=k))
                       for k in range(2)]
    schema = cases.CASES[name][0]
    column = sorted(schema)[0]
    pad = {column: {"string": "pad", "bytes": b"pad"}.get(schema[column]["type"], 0)}
    if "shape" in schema[column]:
        pad[column] = np.zeros([1 if d == -1 else d for d in schema[column]["shape"]],
                               schema[column]["type"])
    padded = 3 - total % 3
    sets = [ds.MindDataset(path, columns_list=[column], shuffle=False, num_shards=3, shard_id=k,
                           padded_sample=pad, num_padded=padded) for k in range(3)]
    found["padded"] = {"column": column, "num_padded": padded,
                       "shards": [positions(d, [column]) for d in sets],
                       "sample": rows(sets[-1])[-1]}
    return found


def record():
    from mindspore.mindrecord import FileWriter
    os.makedirs(FIXTURES, exist_ok=True)
    expected = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in cases.CASES:
            first = cases.write(FileWriter, name, tmp)
            for file in cases.file_names(name):
                for suffix in ("", ".db"):
                    with open(os.path.join(tmp, file + suffix), "rb") as f:
                        data = f.read()
                    with gzip.GzipFile(os.path.join(FIXTURES, file + suffix + ".gz"), "wb",
                                       mtime=0) as f:
                        f.write(data)
            expected[name] = read(first, name)
    with open(os.path.join(FIXTURES, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--read"]:
        directory = sys.argv[2]
        print(json.dumps({name: read(os.path.join(directory, cases.file_names(name)[0]), name)
                          for name in cases.CASES}))
    else:
        record()
