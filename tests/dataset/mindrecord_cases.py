"""The MindRecord sets recorded in ``mindrecord_files/``: their schemas and rows, made with
plain Python (``random.Random``), so MindSpore's interpreter (which writes the recorded
files, ``make_mindrecord_fixtures.py``) and the tests (which write the same rows with
tensorjit) make the same rows. ``write(FileWriter, name, directory)`` writes one set with
either library's ``FileWriter``; it imports neither."""
import hashlib
import os
import random

import numpy as np

MIXED = {"file_name": {"type": "string"}, "label": {"type": "int32"}, "data": {"type": "bytes"},
         "score": {"type": "float32"}, "weight": {"type": "float64"}, "id": {"type": "int64"},
         "embedding": {"type": "float32", "shape": [-1]},
         "mask": {"type": "int32", "shape": [2, 3]},
         "ids": {"type": "int64", "shape": [-1]}}
SCALARS = {"a": {"type": "int64"}, "b": {"type": "float32"}, "s": {"type": "string"}}
PAGED = {"data": {"type": "bytes"}, "s": {"type": "string"}}


def mixed_rows(seed, n):
    r = random.Random(seed)
    rows = []
    for i in range(n):
        size = r.randint(1, 6)     # (MindSpore reads an empty array as a 0-d garbage value)
        rows.append({
            "file_name": f"img_{seed}_{i}.jpg" + "é" * r.randint(0, 2),
            "label": r.randint(-2 ** 31, 2 ** 31 - 1) if i % 3 == 0 else i,
            "data": bytes(r.randrange(256) for _ in range(r.randint(1, 40))),
            "score": r.choice([0.5, 0.1, -2.0, 3.25]),
            "weight": r.choice([0.0, 1e-300, -1.5, 0.3, 2.0 ** -140]),
            "id": r.choice([0, -1, 127, 128, -129, 70000, 2 ** 40, -2 ** 63, 2 ** 63 - 1]),
            "embedding": np.array([r.uniform(-1, 1) for _ in range(size)], np.float32),
            "mask": np.array([r.randint(-40000, 40000) >> r.randint(0, 15) for _ in range(6)],
                             np.int32).reshape(2, 3),
            "ids": np.array([r.randint(-2 ** 62, 2 ** 62) >> r.randint(0, 62)
                             for _ in range(size)], np.int64)})
    return rows


def scalar_rows(seed, n):
    r = random.Random(seed)
    return [{"a": r.randint(-2 ** 63, 2 ** 63 - 1), "b": r.uniform(-10, 10),
             "s": "ü" * r.randint(0, 40) + chr(r.randint(0x20, 0x2FFF))} for _ in range(n)]


def paged_rows(seed, n):
    """Rows of about 12 KB of bytes and 6 KB of string: on 32 KB pages a later write has to
    move a row group to a new raw page (MindSpore's page layout at its most involved)."""
    r = random.Random(seed)
    return [{"data": bytes([r.randrange(256)]) * 12000, "s": "s" * 6000} for _ in range(n)]


# name: schema, description, index fields (None: MindSpore's default), shard_num, the rows
# of each write_raw_data call, then the calls of each open_for_append session
CASES = {
    "mixed": (MIXED, "every field type", ["file_name", "label"], 1,
              [mixed_rows(1, 7)], []),
    "sharded": (MIXED, "three shards", None, 3, [mixed_rows(2, 6), mixed_rows(3, 3)], []),
    "scalars": (SCALARS, "no blob field", None, 1, [scalar_rows(4, 9)], []),
    "appended": (PAGED, "row groups moved between pages", None, 1,
                 [paged_rows(5, 5), paged_rows(6, 1)], [[paged_rows(7, 1), paged_rows(8, 3)]]),
}
HEADER_SIZE, PAGE_SIZE = 1 << 14, 1 << 15


def file_names(name):
    shard_num = CASES[name][3]
    base = name + ".mindrecord"
    return [base] if shard_num == 1 else [f"{base}{k}" for k in range(shard_num)]


def write(FileWriter, name, directory):
    """Write the set ``name`` into ``directory``; returns its first file's path."""
    schema, desc, index, shard_num, calls, appends = CASES[name]
    path = os.path.join(directory, name + ".mindrecord")
    writer = FileWriter(path, shard_num=shard_num, overwrite=True)
    writer.set_header_size(HEADER_SIZE)
    writer.set_page_size(PAGE_SIZE)
    writer.add_schema(schema, desc)
    if index:
        writer.add_index(index)
    for rows in calls:
        writer.write_raw_data(rows)
    writer.commit()
    first = os.path.join(directory, file_names(name)[0])
    for session in appends:
        writer = FileWriter.open_for_append(first)
        for rows in session:
            writer.write_raw_data(rows)
        writer.commit()
    return first


def all_rows(name):
    """The rows of the set in the order they were written."""
    _, _, _, _, calls, appends = CASES[name]
    return [row for rows in calls + [c for s in appends for c in s] for row in rows]


def text(value):
    """Bytes as hex, a str as itself; long ones by their length and SHA-256."""
    data = value.encode("utf-8") if isinstance(value, str) else value
    if len(data) > 64:
        return {"len": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    return value if isinstance(value, str) else data.hex()


def encode(value):
    """A value MindSpore returned, as JSON (the tests encode tensorjit's the same way)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "S":      # (the array's whole items: tobytes keeps the NULs)
            width = value.dtype.itemsize
            raw = value.tobytes()
            values = [text(raw[k:k + width]) for k in range(0, len(raw), width)]
        elif value.dtype.kind == "U":
            values = [text(v) for v in value.reshape(-1).tolist()]
        else:
            values = value.reshape(-1).tolist()
        return {"dtype": str(value.dtype), "shape": list(value.shape), "values": values}
    if isinstance(value, (bytes, str)):
        return {"bytes" if isinstance(value, bytes) else "str": text(value)}
    return value
