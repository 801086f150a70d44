"""SummaryRecord writes MindSpore's summary files: records compared byte for byte with
records MindSpore 2.10's SummaryRecord wrote (CPU build, same values, its wall times)."""
import os
import struct

import numpy as np
import pytest

import tensorjit as tj
from tensorjit.train import summary_format

# MindSpore 2.10: add_value('scalar', 'loss', 1.5) and ('tensor', 't', arange(6) int32 (2, 3)),
# record(3); then ('scalar', 'loss', 0.5), record(4): its records (length, CRCs, body)
MINDSPORE_STEP3 = ("4100000000000000" "00a9c2ab"
                   "095b57ecf8c1c2da4110032a340a0b0a046c6f73731d0000c03f0a250a01744220080208"
                   "0310041a18000000000000803f0000004000004040000080400000a040" "232a7792")
MINDSPORE_STEP4 = ("1a00000000000000" "129bd82d"
                   "09549eecf8c1c2da4110042a0d0a0b0a046c6f73731d0000003f" "5b301fd5")
MINDSPORE_VERSION = ("1c00000000000000" "c8c1951d"
                     "0912deecf8c1c2da411a114d696e6453706f72652e4576656e743a31" "031c7b18")


def _wall_time(record_hex):
    return struct.unpack("<d", bytes.fromhex(record_hex)[13:21])[0]


def test_records_match_mindspore_bytes():
    tensor = np.arange(6, dtype=np.int32).reshape(2, 3)
    step3 = summary_format.summary_event(
        [("scalar", "loss", np.array(1.5, np.float32)), ("tensor", "t", tensor)], 3,
        _wall_time(MINDSPORE_STEP3))
    assert summary_format.record(step3).hex() == MINDSPORE_STEP3
    step4 = summary_format.summary_event([("scalar", "loss", np.array(0.5, np.float32))], 4,
                                         _wall_time(MINDSPORE_STEP4))
    assert summary_format.record(step4).hex() == MINDSPORE_STEP4
    version = summary_format.version_event(_wall_time(MINDSPORE_VERSION))
    assert summary_format.record(version).hex() == MINDSPORE_VERSION


def _records(path):
    data, at, bodies = open(path, "rb").read(), 0, []
    while at < len(data):
        (length,) = struct.unpack("<Q", data[at:at + 8])
        assert struct.unpack("<I", data[at + 8:at + 12])[0] == \
            summary_format.masked_crc(data[at:at + 8])
        body = data[at + 12:at + 12 + length]
        assert struct.unpack("<I", data[at + 12 + length:at + 16 + length])[0] == \
            summary_format.masked_crc(body)
        bodies.append(body)
        at += 16 + length
    return bodies


def test_summary_record_file(tmp_path):
    with tj.SummaryRecord(str(tmp_path), file_prefix="run", file_suffix="_x") as record:
        name = os.path.basename(record.log_dir)
        assert name.startswith("run.out.events.summary.") and name.endswith("_x")
        with pytest.raises(RuntimeError, match="only one instance"):
            tj.SummaryRecord(str(tmp_path))
        record.add_value("scalar", "loss", tj.Tensor(2.0))
        record.add_value("tensor", "w", tj.Tensor(np.ones((2, 2), np.float32)))
        assert record.record(1) is True
        assert record.record(2) is True   # nothing queued: no event
        with pytest.raises(ValueError, match='no such "plugin"'):
            record.add_value("audio", "x", tj.Tensor(1.0))
        with pytest.raises(TypeError, match="expect to be Tensor"):
            record.add_value("scalar", "x", 1.0)
        with pytest.raises(ValueError, match="rank must be less than or equal to 1"):
            record.add_value("scalar", "x", tj.Tensor([1.0, 2.0]))
        with pytest.raises(ValueError, match="should not be empty"):
            record.add_value("tensor", "x", tj.Tensor(1.0))
        with pytest.raises(TypeError, match="'step' should be 'int'"):
            record.record(1.0)
        with pytest.raises(ValueError, match="not a recognized mode"):
            record.set_mode("test")
    bodies = _records(record.log_dir)
    assert len(bodies) == 2 and bodies[0].endswith(b"MindSpore.Event:1")
    assert b"loss" in bodies[1] and b"w" in bodies[1]
    with pytest.warns(UserWarning, match="closed"):
        assert record.record(3) is False
    with pytest.raises(ValueError, match="has been closed"):
        record.__enter__()
    with pytest.raises(ValueError, match="is illegal"):
        tj.SummaryRecord(str(tmp_path), file_prefix="a b")
    with pytest.raises(ValueError, match="export_options"):
        tj.SummaryRecord(str(tmp_path), export_options={"tensor_format": "npy"})
    tj.SummaryRecord(str(tmp_path)).close()   # the slot was freed


# MindSpore 2.10's event (after wall_time) for add_value('histogram', 'h<i>', ...) of these four
# arrays and record(1): NaN / inf counts, int edges, a constant array, no finite value
MINDSPORE_HISTOGRAMS = (
    "10012a95020a550a0268304a4f0a140900000000000008c011000000000000144018030a1409000000000000"
    "00401100000000000014401802100118012000290000000000001c403100000000000008c039000000000000"
    "1f4040070a550a0268314a4f0a1409000000000000000011000000000000144018050a140900000000000014"
    "4011000000000000184018071000180020002900000000000026403100000000000000003900000000008050"
    "40400c0a550a0268324a4f0a14090000000000000c4011000000000000e03f18000a14090000000000001040"
    "11000000000000e03f1802100018002000290000000000001040310000000000001040390000000000002040"
    "40020a0e0a0268334a081002180020004002")


def test_histograms_match_mindspore_bytes():
    values = [np.array([1.0, 2.5, np.nan, np.inf, -3.0, 0.25, 7.0], np.float32),
              np.arange(12, dtype=np.int32).reshape(3, 4), np.full((2,), 4.0, np.float64),
              np.array([np.nan, np.nan], np.float32)]
    event = summary_format.summary_event(
        [("histogram", f"h{i}", v) for i, v in enumerate(values)], 1, 0.0)
    assert event[9:].hex() == MINDSPORE_HISTOGRAMS
    assert [summary_format.histogram_bins(n) for n in (0, 5, 10, 11, 880, 881)] == \
        [1, 2, 3, 2, 89, 90]
