"""MessagePack, the encoding of a MindRecord row's scalar fields, written with the choices
MindSpore's JSON library (nlohmann) makes, so that rows are byte for byte MindSpore's:

- maps with their keys sorted (a JSON object is a sorted map there);
- a non-negative integer in the smallest unsigned form (fixint, uint8 .. uint64), a negative
  one in the smallest signed form (negative fixint, int8 .. int64);
- a float as float32 when float32 holds it exactly (NaN and infinities stay float64);
- strings as fixstr / str8 / str16 / str32 of their UTF-8 bytes.

``unpack`` reads any of those (and bin / arrays / nil / booleans), checking every length
against the bytes there are, so a damaged row is a ``ValueError``, never a crash or a
runaway allocation.
"""
import struct

import numpy as np

__all__ = ["pack", "unpack"]

_F32_MAX = float(np.finfo(np.float32).max)
_MAX_DEPTH = 32


def _pack_int(value, out):
    if value >= 0:
        if value < 0x80:
            out.append(value)
        elif value <= 0xFF:
            out += b"\xcc" + struct.pack(">B", value)
        elif value <= 0xFFFF:
            out += b"\xcd" + struct.pack(">H", value)
        elif value <= 0xFFFFFFFF:
            out += b"\xce" + struct.pack(">I", value)
        elif value <= 0xFFFFFFFFFFFFFFFF:
            out += b"\xcf" + struct.pack(">Q", value)
        else:
            raise ValueError(f"the integer {value} does not fit in 64 bits")
    elif value >= -32:
        out.append(value & 0xFF)
    elif value >= -0x80:
        out += b"\xd0" + struct.pack(">b", value)
    elif value >= -0x8000:
        out += b"\xd1" + struct.pack(">h", value)
    elif value >= -0x80000000:
        out += b"\xd2" + struct.pack(">i", value)
    elif value >= -0x8000000000000000:
        out += b"\xd3" + struct.pack(">q", value)
    else:
        raise ValueError(f"the integer {value} does not fit in 64 bits")


def _pack_float(value, out):
    if -_F32_MAX <= value <= _F32_MAX and float(np.float32(value)) == value:
        out += b"\xca" + struct.pack(">f", value)
    else:
        out += b"\xcb" + struct.pack(">d", value)


def _pack_str(value, out):
    data = value.encode("utf-8")
    n = len(data)
    if n <= 31:
        out.append(0xA0 | n)
    elif n <= 0xFF:
        out += b"\xd9" + struct.pack(">B", n)
    elif n <= 0xFFFF:
        out += b"\xda" + struct.pack(">H", n)
    else:
        out += b"\xdb" + struct.pack(">I", n)
    out += data


def _pack(value, out):
    if value is None:
        out.append(0xC0)
    elif value is True or value is False:
        out.append(0xC3 if value else 0xC2)
    elif isinstance(value, int):
        _pack_int(value, out)
    elif isinstance(value, float):
        _pack_float(value, out)
    elif isinstance(value, str):
        _pack_str(value, out)
    elif isinstance(value, dict):
        n = len(value)
        if n <= 15:
            out.append(0x80 | n)
        elif n <= 0xFFFF:
            out += b"\xde" + struct.pack(">H", n)
        else:
            out += b"\xdf" + struct.pack(">I", n)
        for key in sorted(value, key=lambda k: k.encode("utf-8")):
            _pack_str(key, out)
            _pack(value[key], out)
    elif isinstance(value, (list, tuple)):
        n = len(value)
        if n <= 15:
            out.append(0x90 | n)
        elif n <= 0xFFFF:
            out += b"\xdc" + struct.pack(">H", n)
        else:
            out += b"\xdd" + struct.pack(">I", n)
        for item in value:
            _pack(item, out)
    else:
        raise TypeError(f"cannot encode a {type(value).__name__} in a MindRecord row")


def pack(value):
    """``value`` (JSON-like: dicts, lists, str, int, float, bool, None) as MessagePack."""
    out = bytearray()
    _pack(value, out)
    return bytes(out)


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, n):
        end = self.pos + n
        if end > len(self.data):
            raise ValueError(f"the row's MessagePack data ends {end - len(self.data)} bytes "
                             f"early")
        chunk = self.data[self.pos:end]
        self.pos = end
        return chunk

    def number(self, fmt):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def value(self, depth=0):
        if depth > _MAX_DEPTH:
            raise ValueError("the row's MessagePack data is nested too deeply")
        code = self.take(1)[0]
        if code < 0x80:
            return code
        if code >= 0xE0:
            return code - 0x100
        if 0x80 <= code <= 0x8F:
            return self.mapping(code & 0x0F, depth)
        if 0x90 <= code <= 0x9F:
            return [self.value(depth + 1) for _ in range(code & 0x0F)]
        if 0xA0 <= code <= 0xBF:
            return self.text(code & 0x1F)
        simple = {0xC0: None, 0xC2: False, 0xC3: True}
        if code in simple:
            return simple[code]
        numbers = {0xCA: ">f", 0xCB: ">d", 0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q",
                   0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q"}
        if code in numbers:
            return self.number(numbers[code])
        sizes = {0xC4: ">B", 0xC5: ">H", 0xC6: ">I", 0xD9: ">B", 0xDA: ">H", 0xDB: ">I",
                 0xDC: ">H", 0xDD: ">I", 0xDE: ">H", 0xDF: ">I"}
        if code not in sizes:
            raise ValueError(f"the row's MessagePack data has the unsupported type byte "
                             f"0x{code:02x}")
        n = self.number(sizes[code])
        if code <= 0xC6:
            return bytes(self.take(n))
        if code <= 0xDB:
            return self.text(n)
        if code <= 0xDD:
            if n > len(self.data) - self.pos:        # each item takes at least a byte
                raise ValueError("the row's MessagePack array is longer than its data")
            return [self.value(depth + 1) for _ in range(n)]
        return self.mapping(n, depth)

    def text(self, n):
        try:
            return bytes(self.take(n)).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("a string in the row is not valid UTF-8") from None

    def mapping(self, n, depth):
        if 2 * n > len(self.data) - self.pos:
            raise ValueError("the row's MessagePack map is longer than its data")
        result = {}
        for _ in range(n):
            key = self.value(depth + 1)
            if not isinstance(key, str):
                raise ValueError("the row's MessagePack map has a key that is not a string")
            result[key] = self.value(depth + 1)
        return result


def unpack(data):
    """The value encoded in ``data`` (bytes-like), which must hold exactly one value."""
    reader = _Reader(memoryview(data))
    value = reader.value()
    if reader.pos != len(reader.data):
        raise ValueError(f"the row's MessagePack data has {len(reader.data) - reader.pos} "
                         f"bytes after its value")
    return value
