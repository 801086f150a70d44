"""tensorjit.mindrecord and dataset.MindDataset: the API with MindSpore's semantics and
errors (recorded behaviour of MindSpore 2.10 in the comments), the pipeline on top, and
damaged, truncated or mismatched files giving a clear error that names the file."""
import io
import os
import random
import shutil

import numpy as np
import pytest

import tensorjit.dataset as ds
from tensorjit import mindrecord
from tensorjit.mindrecord import FileReader, FileWriter
from tensorjit.mindrecord.msgpack import pack, unpack

SCHEMA = {"name": {"type": "string"}, "label": {"type": "int32"}, "data": {"type": "bytes"},
          "x": {"type": "float32", "shape": [-1, 2]}, "n": {"type": "int64", "shape": [-1]},
          "w": {"type": "float64"}}


def make_rows(count, start=0):
    return [{"name": f"r{i}", "label": i, "data": bytes([i % 256]) * (i % 5),
             "x": np.full((i % 3, 2), i, np.float32), "n": np.arange(i % 4, dtype=np.int64) - i,
             "w": i / 4} for i in range(start, start + count)]


def write(path, rows, shard_num=1, schema=SCHEMA, calls=1, **options):
    writer = FileWriter(str(path), shard_num=shard_num, **options)
    writer.set_header_size(1 << 14)
    writer.set_page_size(1 << 15)
    writer.add_schema(schema, "test")
    step = -(-len(rows) // calls)
    for k in range(0, len(rows), step):
        writer.write_raw_data(rows[k:k + step])
    writer.commit()
    return str(path) if shard_num == 1 else f"{path}0"


def same_row(found, row):
    assert sorted(found) == sorted(row)
    for key, value in row.items():
        if isinstance(value, np.ndarray):
            assert found[key].dtype == value.dtype and found[key].shape == value.shape
            np.testing.assert_array_equal(found[key], value)
        else:
            assert found[key] == value and type(found[key]) is type(value)


def test_file_reader_gives_back_the_rows(tmp_path):
    rows = make_rows(7)
    path = write(tmp_path / "a.mindrecord", rows)
    reader = FileReader(path)
    assert reader.len() == 7 and reader.schema() == SCHEMA
    for found, row in zip(reader.get_next(), rows):
        same_row(found, row)
    # empty arrays and bytes are kept (MindSpore reads an empty array as a 0-d value)
    assert next(reader.get_next())["x"].shape == (0, 2)
    reader.close()
    # MindSpore's order of the keys: the scalar fields sorted, then the requested others
    picked = next(FileReader(path, columns=["x", "label", "data"]).get_next())
    assert list(picked) == ["label", "x", "data"]
    assert mindrecord.SUCCESS == 0 and mindrecord.FAILED == 1
    # (MindSpore checks num_consumer against the CPU count only when it is given)
    assert FileReader(path, num_consumer=1).len() == 7
    for bad in (0, 10 ** 6, "2"):
        with pytest.raises(mindrecord.ParamValueError):
            FileReader(path, num_consumer=bad)
    with pytest.raises(mindrecord.ParamValueError, match="not in the schema"):
        FileReader(path, columns=["nope"])


def test_shards_calls_and_append_keep_every_row(tmp_path):
    rows = make_rows(12)
    path = write(tmp_path / "s.mindrecord", rows, shard_num=3, calls=2)
    assert sorted(os.listdir(tmp_path)) == [f"s.mindrecord{k}{e}" for k in range(3)
                                            for e in ("", ".db")]
    # a file name reads its whole set; each shard holds a block of every call's rows
    names = [r["name"] for r in FileReader(path).get_next()]
    assert names == [f"r{i}" for i in (0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11)]
    assert len(list(FileReader([path]).get_next())) == 4
    writer = FileWriter.open_for_append(path)
    writer.write_raw_data(make_rows(3, 12))
    writer.commit()
    assert sorted(r["name"] for r in FileReader(path).get_next()) == sorted(
        f"r{i}" for i in range(15))
    assert ds.MindDataset(path).get_dataset_size() == 15
    os.remove(path + ".db")
    with pytest.raises(mindrecord.MRMOpenForAppendError, match="does not exist"):
        FileWriter.open_for_append(path)


def test_parallel_writer_gives_each_call_to_one_shard_in_turn(tmp_path):
    writer = FileWriter(str(tmp_path / "p.mindrecord"), shard_num=2)
    writer.add_schema({"v": {"type": "int32"}})
    for k in range(3):
        writer.write_raw_data([{"v": 10 * k + i} for i in range(2)], parallel_writer=True)
    with pytest.raises(RuntimeError, match="consistent"):
        writer.write_raw_data([{"v": 0}])
    writer.commit()
    # (as in MindSpore: each file is a set of its own)
    assert [r["v"] for r in FileReader(str(tmp_path / "p.mindrecord0")).get_next()] == [
        0, 1, 20, 21]
    assert [r["v"] for r in FileReader(str(tmp_path / "p.mindrecord1")).get_next()] == [10, 11]


@pytest.mark.parametrize("schema, match", [
    ({}, "empty"), ([1], "dict"), ({"a-b": {"type": "int32"}}, "composed"),
    ({"a": {"type": "int8"}}, "illegal"), ({"a": {"type": "string", "shape": [2]}}, "illegal"),
    ({"a": {"type": "int32", "shape": [-1, -1]}}, "at most one"),
    ({"a": {"type": "int32", "shape": [0]}}, "positive"), ({"a": "int32"}, "dict"),
    ({"a": {"type": "int32", "size": 2}}, "dict")])
def test_invalid_schemas(tmp_path, schema, match):
    with pytest.raises(mindrecord.MRMInvalidSchemaError, match=match):
        FileWriter(str(tmp_path / "a.mindrecord")).add_schema(schema)


def test_writer_argument_errors(tmp_path):
    path = str(tmp_path / "a.mindrecord")
    for bad in ("", "a/b?.mindrecord", "dir/"):
        with pytest.raises(mindrecord.ParamValueError):
            FileWriter(bad)
    for shards in (0, 1001, "2", True):
        with pytest.raises(mindrecord.ParamValueError):
            FileWriter(path, shard_num=shards)
    writer = FileWriter(path)
    for size in (1 << 13, (1 << 14) + 2, 1 << 28):
        with pytest.raises(mindrecord.MRMInvalidHeaderSizeError):
            writer.set_header_size(size)
    for size in (1 << 14, 1 << 29):
        with pytest.raises(mindrecord.MRMInvalidPageSizeError):
            writer.set_page_size(size)
    writer.add_schema(SCHEMA, "d")
    with pytest.raises(mindrecord.MRMAddSchemaError):
        writer.add_schema(SCHEMA)
    with pytest.raises(mindrecord.MRMDefineIndexError):
        writer.add_index(["data"])
    with pytest.raises(mindrecord.MRMAddIndexError, match="not in the schema"):
        writer.add_index(["nope"])
    with pytest.raises(mindrecord.ParamTypeError):
        writer.add_index("label")
    with pytest.raises(RuntimeError, match="no valid data"):
        writer.write_raw_data([])
    with pytest.raises(mindrecord.ParamTypeError):
        writer.write_raw_data({"label": 1})


@pytest.mark.parametrize("change, match", [
    ({"label": "1"}, "field 'label' is int32 but the value is a str"),
    ({"label": 2 ** 31}, "out of its range"), ({"label": True}, "a bool cannot"),
    ({"label": np.int64(1)}, "numpy int64"), ({"w": 1}, "float64 but the value is an int"),
    ({"x": np.zeros((1, 3), np.float32)}, "shape"), ({"x": np.zeros(2)}, "float64"),
    ({"x": [1.0, 2.0]}, "numpy array"), ({"data": "text"}, "bytes")])
def test_a_row_that_does_not_match_the_schema_is_an_error(tmp_path, change, match):
    # (MindSpore logs a warning and drops such a row; tensorjit refuses it, naming it)
    row = dict(make_rows(2)[1], **change)
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    writer.add_schema(SCHEMA)
    with pytest.raises(mindrecord.MRMValidateDataError, match=f"row 1.*{match}"):
        writer.write_raw_data([make_rows(1)[0], row])


def test_missing_field_and_too_big_row(tmp_path):
    writer = FileWriter(str(tmp_path / "a.mindrecord"))
    writer.set_page_size(1 << 15)
    writer.add_schema({"a": {"type": "int32"}, "b": {"type": "bytes"}})
    with pytest.raises(mindrecord.MRMValidateDataError, match="has no field 'b'"):
        writer.write_raw_data([{"a": 1}])
    with pytest.raises(mindrecord.MRMValidateDataError, match="page holds 32768"):
        writer.write_raw_data([{"a": 1, "b": bytes(40000)}])


def test_existing_files_need_overwrite_and_abandoned_writes_leave_nothing(tmp_path):
    path = write(tmp_path / "a.mindrecord", make_rows(2))
    with pytest.raises(RuntimeError, match="already exist"):
        write(tmp_path / "a.mindrecord", make_rows(3))
    write(tmp_path / "a.mindrecord", make_rows(3), overwrite=True)
    assert FileReader(path).len() == 3
    writer = FileWriter(str(tmp_path / "b.mindrecord"))
    writer.add_schema(SCHEMA)
    writer.write_raw_data(make_rows(2))
    del writer
    assert sorted(os.listdir(tmp_path)) == ["a.mindrecord", "a.mindrecord.db"]
    writer = FileWriter(path, overwrite=True)
    writer.add_schema(SCHEMA)
    writer.write_raw_data(make_rows(1))
    writer.commit()
    with pytest.raises(RuntimeError, match="open_for_append"):
        writer.write_raw_data(make_rows(1))


# ---- MindDataset ------------------------------------------------------------------------

@pytest.fixture
def two_files(tmp_path):
    return write(tmp_path / "m.mindrecord", make_rows(10), shard_num=2)


def labels(dataset):
    return [int(r["label"]) for r in dataset.create_dict_iterator(num_epochs=1,
                                                                  output_numpy=True)]


def test_mind_dataset_columns_types_and_pipeline(two_files):
    data = ds.MindDataset(two_files, shuffle=False)
    assert data.get_col_names() == ["data", "label", "n", "name", "w", "x"]
    assert labels(data) == list(range(10))
    row = next(data.create_dict_iterator(output_numpy=True))
    assert row["label"].dtype == np.int32 and row["label"].shape == ()
    assert row["name"].dtype.kind == "U" and row["w"].dtype == np.float64
    assert row["data"].dtype == "S1" and row["data"].shape == (1,)   # MindSpore's bytes
    assert isinstance(next(data.create_dict_iterator())["name"], np.ndarray)
    pipeline = ds.MindDataset(two_files, columns_list=["label", "w"], shuffle=False,
                              num_parallel_workers=2)
    pipeline = pipeline.map(lambda w: w * 2, input_columns="w").batch(4, drop_remainder=True)
    batches = list(pipeline.create_tuple_iterator(output_numpy=True))
    assert [b[0].tolist() for b in batches] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    np.testing.assert_array_equal(batches[1][1], [2.0, 2.5, 3.0, 3.5])


def test_mind_dataset_shuffles_and_shards_as_mindspore(two_files):
    ds.config.set_seed(3)
    data = ds.MindDataset(two_files)          # shuffle=None: Shuffle.ADAPTIVE (global)
    it = data.create_dict_iterator(num_epochs=2, output_numpy=True)
    first = [int(r["label"]) for r in it]
    second = [int(r["label"]) for r in it]
    assert sorted(first) == sorted(second) == list(range(10)) and first != second
    files = labels(ds.MindDataset(two_files, shuffle=ds.Shuffle.FILES))
    assert files in (list(range(10)), list(range(5, 10)) + list(range(5)))
    infile = labels(ds.MindDataset(two_files, shuffle=ds.Shuffle.INFILE))
    assert sorted(infile[:5]) == list(range(5)) and sorted(infile[5:]) == list(range(5, 10))
    # shards: every num_shards-th row of one order, wrapping to equal sizes (recorded:
    # MindSpore 2.10 gives shard 1 of 3 over 10 rows [1, 4, 7, 0])
    assert labels(ds.MindDataset(two_files, shuffle=False, num_shards=3, shard_id=1)) == [
        1, 4, 7, 0]
    shards = [labels(ds.MindDataset(two_files, num_shards=2, shard_id=k)) for k in range(2)]
    assert sorted(shards[0] + shards[1]) == list(range(10))
    assert ds.MindDataset(two_files, num_samples=3, shuffle=False).get_dataset_size() == 3
    with pytest.raises(TypeError, match="Shuffle"):
        ds.MindDataset(two_files, shuffle=3)
    with pytest.raises(NotImplementedError, match="samplers"):
        ds.MindDataset(two_files, sampler=object())


def test_padded_samples(two_files):
    pad = {"label": -1, "name": "pad"}
    shards = [[(int(r["label"]), str(r["name"])) for r in ds.MindDataset(
        two_files, columns_list=["label", "name"], shuffle=False, num_shards=4, shard_id=k,
        padded_sample=pad, num_padded=2).create_dict_iterator(output_numpy=True)]
        for k in range(4)]
    # recorded: MindSpore 2.10 gives shards 2 and 3 the padded samples last
    assert shards[2] == [(2, "r2"), (6, "r6"), (-1, "pad")]
    assert shards[0] == [(0, "r0"), (4, "r4"), (8, "r8")]
    with pytest.raises(RuntimeError, match="columns_list"):
        ds.MindDataset(two_files, padded_sample=pad, num_padded=2)
    with pytest.raises(RuntimeError, match="padded_sample is not"):
        ds.MindDataset(two_files, num_padded=2)
    with pytest.raises(RuntimeError, match="not divisible"):
        ds.MindDataset(two_files, columns_list=["label", "name"], num_shards=3, shard_id=0,
                       padded_sample=pad, num_padded=1)
    with pytest.raises(ValueError, match="cannot match"):
        ds.MindDataset(two_files, columns_list=["label", "w"], padded_sample=pad, num_padded=2)
    with pytest.raises(ValueError, match="not in the files' schema"):
        ds.MindDataset(two_files, columns_list=["nope"])


def test_decode_reads_a_bytes_column(tmp_path):
    image_module = pytest.importorskip("PIL.Image")
    pixels = np.random.default_rng(0).integers(0, 256, (6, 5, 3)).astype(np.uint8)
    buffer = io.BytesIO()
    image_module.fromarray(pixels).save(buffer, format="PNG")
    writer = FileWriter(str(tmp_path / "img.mindrecord"))
    writer.add_schema({"data": {"type": "bytes"}, "label": {"type": "int32"}})
    writer.write_raw_data([{"data": buffer.getvalue(), "label": 3}])
    writer.commit()
    data = ds.MindDataset(str(tmp_path / "img.mindrecord")).map(ds.vision.Decode(), "data")
    np.testing.assert_array_equal(next(data.create_dict_iterator(output_numpy=True))["data"],
                                  pixels)


# ---- damaged files ----------------------------------------------------------------------

def read_all(path):
    rows = list(FileReader(path).get_next())
    rows += list(ds.MindDataset(path, shuffle=False).create_tuple_iterator(output_numpy=True))
    return rows


def test_damaged_sets_give_clear_errors(tmp_path):
    path = write(tmp_path / "a.mindrecord", make_rows(6))
    data = open(path, "rb").read()
    cases = {"truncated": (data[:len(data) - 30], "truncated"),
             "no header": (bytes(len(data)), "header length"),
             "not json": (data[:8] + b"x" * 20 + data[28:], "not JSON"),
             "tiny": (data[:5], "fewer than")}
    for name, (content, match) in cases.items():
        with open(path, "wb") as f:
            f.write(content)
        with pytest.raises(RuntimeError, match=f"a.mindrecord.*{match}"):
            read_all(path)
    with open(path, "wb") as f:
        f.write(data)
    # (a renamed file's header still names its set: a list reads the file itself)
    shutil.copy(path, str(tmp_path / "b.mindrecord"))
    with pytest.raises(RuntimeError, match="b.mindrecord.db does not exist"):
        read_all([str(tmp_path / "b.mindrecord")])
    shutil.copy(path + ".db", str(tmp_path / "b.mindrecord.db"))
    with pytest.raises(RuntimeError, match="belongs to 'a.mindrecord', not to 'b.mindrecord'"):
        read_all([str(tmp_path / "b.mindrecord")])
    with open(path + ".db", "wb") as f:
        f.write(b"not a database" * 100)
    with pytest.raises(RuntimeError, match="a.mindrecord.db is not a MindRecord index"):
        read_all(path)
    with pytest.raises(RuntimeError, match="does not exist"):
        read_all(str(tmp_path / "none.mindrecord"))


def test_sets_that_do_not_belong_together(tmp_path):
    first = write(tmp_path / "s.mindrecord", make_rows(4), shard_num=2)
    os.remove(str(tmp_path / "s.mindrecord1"))
    with pytest.raises(RuntimeError, match="names the shard file .*s.mindrecord1"):
        read_all(first)
    other = write(tmp_path / "o.mindrecord", [{"v": v} for v in range(3)],
                  schema={"v": {"type": "int64"}})
    with pytest.raises(RuntimeError, match="not files of one MindRecord set"):
        FileReader([first, other])
    db = str(tmp_path / "o.mindrecord.db")
    shutil.copy(first + ".db", db)                # an index of another file, renamed
    import sqlite3
    con = sqlite3.connect(db)
    con.execute("UPDATE SHARD_NAME SET NAME = 'o.mindrecord'")
    con.commit()
    con.close()
    with pytest.raises(RuntimeError, match="o.mindrecord.db lists 2 rows but .* holds 3"):
        read_all(other)


def test_random_damage_is_always_a_clear_error(tmp_path):
    path = write(tmp_path / "a.mindrecord", make_rows(5))
    data = open(path, "rb").read()
    rng = random.Random(1)
    for _ in range(60):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 6)):
            where = rng.randrange(600) if rng.random() < 0.5 else rng.randrange(1 << 14,
                                                                                len(data))
            damaged[where] = rng.randrange(256)
        with open(path, "wb") as f:
            f.write(bytes(damaged[:rng.randrange(len(data) // 2, len(data) + 1)]))
        try:
            read_all(path)
        except RuntimeError as exc:
            assert "a.mindrecord" in str(exc)


def test_message_pack_as_mindspore_writes_it():
    assert pack({"b": 1, "a": -1}) == b"\x82\xa1a\xff\xa1b\x01"
    assert pack({"v": 128})[3:] == b"\xcc\x80" and pack({"v": -129})[3:] == b"\xd1\xff\x7f"
    assert pack({"v": 2 ** 40})[3] == 0xCF and pack({"v": 0.5})[3] == 0xCA
    assert pack({"v": 0.1})[3] == 0xCB and pack({"v": float("nan")})[3] == 0xCB
    assert pack({"v": "x" * 40})[3:5] == b"\xd9\x28"
    value = {"a": [1, None, True], "s": "é" * 300, "f": -2.5, "i": -2 ** 63}
    assert unpack(pack(value)) == value
    for damaged in (b"\x82\xa1a", b"\xdb\xff\xff\xff\xff", b"\xc1", b"\x01\x02"):
        with pytest.raises(ValueError):
            unpack(damaged)
