"""MindSpore's summary event file format, written without protobuf.

A summary file is a sequence of records, each: the body's length (uint64, little endian), the
masked CRC-32C of those 8 bytes, the body, the masked CRC-32C of the body (TensorBoard's
record framing). A body is a serialized ``Event`` of MindSpore's ``summary.proto``:
wall_time = 1 (double), step = 2 (int64), version = 3 (string), summary = 5 (Summary:
value = 1, a Value: tag = 1, scalar_value = 3 (float), tensor = 8 (anf_ir TensorProto:
dims = 1 (int64, unpacked), data_type = 2 (enum), float_data = 3 (packed float)),
histogram = 9 (see ``_histogram``)).
"""
import struct

import numpy as np

_CRC_TABLE = []
for _byte in range(256):
    _crc = _byte
    for _ in range(8):   # CRC-32C (Castagnoli), reflected polynomial
        _crc = (_crc >> 1) ^ 0x82F63B78 if _crc & 1 else _crc >> 1
    _CRC_TABLE.append(_crc)

# anf_ir.proto DataType numbers of the NumPy dtypes MindSpore's summary accepts
DATA_TYPES = {np.bool_: 1, np.int8: 2, np.int16: 3, np.int32: 4, np.int64: 5, np.uint8: 6,
              np.uint16: 7, np.uint32: 8, np.uint64: 9, np.float16: 10, np.float32: 11,
              np.float64: 12}
VERSION = "MindSpore.Event:1"


def crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data):
    crc = crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def record(body):
    """One framed record around a serialized event."""
    length = struct.pack("<Q", len(body))
    return (length + struct.pack("<I", masked_crc(length)) + body +
            struct.pack("<I", masked_crc(body)))


def _varint(value):
    value = int(value) & 0xFFFFFFFFFFFFFFFF   # negative int64: ten bytes, as protobuf does
    out = bytearray()
    while True:
        bits, value = value & 0x7F, value >> 7
        out.append(bits | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number, wire, payload):
    return _varint(number << 3 | wire) + payload


def _bytes_field(number, data):
    return _field(number, 2, _varint(len(data)) + data)


def _tensor(array):
    body = b"".join(_field(1, 0, _varint(int(d))) for d in array.shape)
    body += _field(2, 0, _varint(DATA_TYPES[array.dtype.type]))
    if array.size:
        body += _bytes_field(3, array.astype("<f4").tobytes())
    return body


def _double(number, value):
    return _field(number, 1, struct.pack("<d", float(value)))


def histogram_bins(count):
    # MindSpore's choice: about 10 values a bin, 90 bins at most
    if not count:
        return 1
    if count <= 5:
        return 2
    if count <= 10:
        return 3
    return count // 10 + 1 if count <= 880 else 90


def _histogram(array):
    # Summary.Histogram: buckets = 1 (left = 1, width = 2, count = 3), nan_count = 2,
    # pos_inf_count = 3, neg_inf_count = 4, max = 5, min = 6, sum = 7, count = 8
    finite = array[np.isfinite(array)] if array.dtype.kind == "f" else array.reshape(-1)
    counts = ([int(np.count_nonzero(f(array))) for f in (np.isnan, np.isposinf, np.isneginf)]
              if array.dtype.kind == "f" else [0, 0, 0])
    head = b"".join(_field(n, 0, _varint(c)) for n, c in zip((2, 3, 4), counts))
    tail = _field(8, 0, _varint(array.size))
    if not finite.size:
        return head + tail
    low, high = finite.min(), finite.max()
    stats = _double(5, high) + _double(6, low) + _double(7, finite.sum(dtype=np.float64))
    first, last = float(low), float(high)
    if not first < last:
        first, last = first - 0.5, last + 0.5
    edges = np.linspace(first, last, histogram_bins(finite.size) + 1, dtype=array.dtype)
    hist, edges = np.histogram(finite, bins=edges)
    buckets = b"".join(
        _bytes_field(1, _double(1, left) + _double(2, right - left) + _field(3, 0, _varint(n)))
        for n, left, right in zip(hist, edges, edges[1:]))
    return buckets + head + stats + tail


def summary_event(values, step, wall_time):
    """An Event holding ``values``: [(kind 'scalar' / 'tensor' / 'histogram', tag, value)]."""
    summary = b""
    for kind, tag, array in values:
        value = _bytes_field(1, tag.encode())
        if kind == "scalar":
            value += _field(3, 5, struct.pack("<f", array.reshape(-1)[0]))
        elif kind == "histogram":
            value += _bytes_field(9, _histogram(array))
        else:
            value += _bytes_field(8, _tensor(array))
        summary += _bytes_field(1, value)
    return (_field(1, 1, struct.pack("<d", wall_time)) + _field(2, 0, _varint(int(step))) +
            _bytes_field(5, summary))


def version_event(wall_time):
    """The first event of a file: the format version."""
    return _field(1, 1, struct.pack("<d", wall_time)) + _bytes_field(3, VERSION.encode())
