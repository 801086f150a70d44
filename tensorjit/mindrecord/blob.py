"""A row's blob: its ``bytes`` and array fields in one byte string, as MindSpore stores it.

- no blob field: 4 zero bytes (MindSpore's placeholder);
- one blob field: that field's bytes;
- several: each field, in the order of ``blob_fields`` (sorted names), as an 8-byte
  big-endian length and the bytes.

An array's bytes are its elements in C order. When the schema has an int32 / int64 array
field (file version 3.0), every integer array is stored compressed: a 4-byte big-endian
element count, a bitmap of 2 bits per element (most significant first) naming the width
each element is stored in (0: 1 byte, 1: 2, 2: 4, 3: 8 bytes: the smallest signed width
that holds it), then the elements little-endian in those widths.
"""
import numpy as np

__all__ = ["PLACEHOLDER", "merge", "split", "compress_ints", "decompress_ints"]

PLACEHOLDER = b"\x00\x00\x00\x00"
_WIDTHS = np.array([1, 2, 4, 8])


def compress_ints(data, dtype):
    """The compressed form of the native-endian ``dtype`` integers in ``data``."""
    values = np.frombuffer(data, dtype).astype(np.int64)
    n = len(values)
    codes = np.full(n, 3, np.uint8)
    for code, kind in ((2, np.int32), (1, np.int16), (0, np.int8)):
        info = np.iinfo(kind)
        codes[(values >= info.min) & (values <= info.max)] = code
    padded = np.zeros(-(-n // 4) * 4, np.uint8)
    padded[:n] = codes
    groups = padded.reshape(-1, 4).astype(np.uint8)
    bitmap = (groups[:, 0] << 6) | (groups[:, 1] << 4) | (groups[:, 2] << 2) | groups[:, 3]
    little = values.astype("<i8").view(np.uint8).reshape(n, 8)
    widths = _WIDTHS[codes]
    keep = np.arange(8)[None, :] < widths[:, None]
    return n.to_bytes(4, "big") + bitmap.astype(np.uint8).tobytes() + little[keep].tobytes()


def decompress_ints(data, dtype, where):
    """The ``dtype`` array stored compressed in ``data``; ``where`` names it in errors."""
    if len(data) < 4:
        raise ValueError(f"{where}: its compressed integers are shorter than their count")
    n = int.from_bytes(data[:4], "big")
    bitmap_len = -(-n // 4)
    if 4 + bitmap_len > len(data):
        raise ValueError(f"{where}: its compressed integers declare {n} elements but the data "
                         f"is {len(data)} bytes")
    bitmap = np.frombuffer(data, np.uint8, bitmap_len, 4)
    shifts = np.array([6, 4, 2, 0], np.uint8)
    codes = ((bitmap[:, None] >> shifts) & 3).reshape(-1)[:n]
    widths = _WIDTHS[codes]
    body = np.frombuffer(data, np.uint8, offset=4 + bitmap_len)
    if int(widths.sum()) != len(body):
        raise ValueError(f"{where}: its compressed integers need {int(widths.sum())} bytes of "
                         f"elements but have {len(body)}")
    starts = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    out = np.zeros(n, np.int64)
    for code, kind in enumerate(("<i1", "<i2", "<i4", "<i8")):
        chosen = codes == code
        if chosen.any():
            width = 1 << code
            rows = body[starts[chosen, None] + np.arange(width)[None, :]]
            out[chosen] = np.ascontiguousarray(rows).view(kind).reshape(-1)
    dtype = np.dtype(dtype)
    if dtype == np.int32 and ((out < -2 ** 31) | (out >= 2 ** 31)).any():
        raise ValueError(f"{where}: a compressed int32 element is out of the int32 range")
    return out.astype(dtype)


def merge(parts, int_types):
    """The blob of a row from ``parts`` (each field's bytes in ``blob_fields`` order).
    ``int_types``: per part, its integer dtype when it is stored compressed, else None.
    Returns ``(blob, bytes saved by compression)``."""
    if not parts:
        return PLACEHOLDER, 0
    if len(parts) == 1:
        if int_types[0] is None:
            return parts[0], 0
        packed = compress_ints(parts[0], int_types[0])
        return packed, len(parts[0]) - len(packed)
    chunks, saved = [], 0
    for part, kind in zip(parts, int_types):
        if kind is not None:
            packed = compress_ints(part, kind)
            saved += len(part) - len(packed)
            part = packed
        chunks += [len(part).to_bytes(8, "big"), part]
    return b"".join(chunks), saved


def split(blob, count, where):
    """The ``count`` fields' bytes in ``blob`` (memoryviews), checking the lengths."""
    if count == 1:
        return [blob]
    parts, pos = [], 0
    for k in range(count):
        if pos + 8 > len(blob):
            raise ValueError(f"{where}: its blob ends inside the length of field {k}")
        n = int.from_bytes(blob[pos:pos + 8], "big")
        pos += 8
        if n > len(blob) - pos:
            raise ValueError(f"{where}: its blob field {k} declares {n} bytes but "
                             f"{len(blob) - pos} remain")
        parts.append(blob[pos:pos + n])
        pos += n
    if pos != len(blob):
        raise ValueError(f"{where}: its blob has {len(blob) - pos} bytes after its fields")
    return parts
