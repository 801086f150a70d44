"""Protobuf's wire format, written and read by hand: what MindSpore's ``.ckpt``
(``ckpt_format.py``) and MindIR (``export/mindir``) files are made of.

A message is a sequence of fields, each a key (``field number << 3 | wire type``, a varint)
and a value: a varint, 8 or 4 little-endian bytes, or a length-delimited payload (bytes,
strings, nested messages, packed repeated numbers). Nothing here knows a schema.

Why not the ``protobuf`` package: generated ``_pb2`` modules are tied to the protobuf
runtime's version, the formats tensorjit reads need a handful of fields, and reading by
hand lets a damaged file be reported by byte offset, bounded by the bytes actually present
(a corrupted length can never allocate more than the file holds).
"""
import struct

__all__ = ["VARINT", "FIXED64", "LENGTH_DELIMITED", "FIXED32", "varint", "key",
           "delimited", "signed64", "fixed_float", "Reader"]

VARINT, FIXED64, LENGTH_DELIMITED, FIXED32 = 0, 1, 2, 5
_WIDTHS = {FIXED64: 8, FIXED32: 4}


def varint(value):
    """The varint bytes of ``value``; a negative number is written as protobuf writes an
    int64: its 64-bit two's complement, 10 bytes."""
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def key(field, wire_type):
    return varint(field << 3 | wire_type)


def delimited(field, payload):
    return key(field, LENGTH_DELIMITED) + varint(len(payload)) + payload


def signed64(value):
    """An int64 field's value from its varint (negative numbers are 10-byte varints)."""
    value &= (1 << 64) - 1
    return value - (1 << 64) if value >= 1 << 63 else value


def fixed_float(value, wire_type):
    """A ``float`` (fixed32) or ``double`` (fixed64) field's value from its bits."""
    if wire_type == FIXED32:
        return struct.unpack("<f", value.to_bytes(4, "little"))[0]
    return struct.unpack("<d", value.to_bytes(8, "little"))[0]


class Reader:
    """Reads protobuf fields from ``data[start:end]``. Every problem raises ``error`` with
    a message naming it, ``what`` was being read and the byte offset; ``kind`` names what
    the bytes should have been ("a checkpoint")."""

    def __init__(self, data, start, end, what, error=ValueError, kind="protobuf data"):
        self.data, self.pos, self.end, self.what = data, start, end, what
        self.error, self.kind = error, kind

    def fail(self, problem):
        raise self.error(f"{problem} (in {self.what}, at byte {self.pos})")

    def varint(self):
        result, shift = 0, 0
        while True:
            if self.pos >= self.end:
                self.fail("the file ends inside a number: it is truncated")
            byte = self.data[self.pos]
            self.pos += 1
            result |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return result
            shift += 7
            if shift >= 70:
                self.fail(f"a number is longer than 10 bytes: this is not {self.kind}")

    def fields(self):
        """(field number, wire type, value): an int for a varint or a fixed-width field (its
        little-endian bits), or (start, end) of a length-delimited payload."""
        while self.pos < self.end:
            field_key = self.varint()
            field, wire_type = field_key >> 3, field_key & 7
            if field == 0:
                self.fail(f"field number 0: this is not {self.kind}")
            if wire_type == VARINT:
                yield field, wire_type, self.varint()
            elif wire_type == LENGTH_DELIMITED:
                size = self.varint()
                start = self.pos
                if start + size > self.end:
                    self.fail(f"a field of {size} bytes runs past the end ({self.end - start} "
                              f"bytes left): the file is truncated")
                self.pos = start + size
                yield field, wire_type, (start, start + size)
            elif wire_type in _WIDTHS:
                width = _WIDTHS[wire_type]
                if self.pos + width > self.end:
                    self.fail("the file ends inside a field: it is truncated")
                value = int.from_bytes(bytes(self.data[self.pos:self.pos + width]), "little")
                self.pos += width
                yield field, wire_type, value
            else:
                self.fail(f"wire type {wire_type} does not exist in protobuf: this is not "
                          f"{self.kind}")
