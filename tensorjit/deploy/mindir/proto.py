"""MindIR messages to and from bytes, driven by the field tables of ``schema.py``.

``encode(message, values)`` writes a dict ({field name: value, or a list for a repeated
field; nested messages are dicts}) with its fields in number order, as protobuf does, so
equal dicts give equal bytes. ``decode(data, message)`` reads bytes into ``Message``
objects; every problem (truncation, a wire type that does not match the schema, text that
is not UTF-8, nesting deeper than any real file) raises ``MindIRFormatError`` naming the
field and the byte offset. Byte fields stay views of the file's bytes (no copy).
"""
import struct

from ...checkpoint.protobuf_wire import (FIXED32, FIXED64, LENGTH_DELIMITED, VARINT, Reader,
                                         delimited, fixed_float, key, signed64, varint)
from .schema import (BOOL, BYTES, DOUBLE, ENUM, FIELDS, FLOAT, INT32, INT64, MESSAGES, STRING,
                     UINT64)

MAX_DEPTH = 64      # graphs in attributes in graphs...: real files nest a few levels


class MindIRFormatError(ValueError):
    """The bytes are not a MindIR file tensorjit can read (the message says why)."""


# ---- writing --------------------------------------------------------------------------

def encode(message, values):
    fields = FIELDS[message]
    unknown = set(values) - set(fields)
    if unknown:
        raise KeyError(f"{message} has no field(s) {sorted(unknown)}")
    out = []
    for name, value in sorted(values.items(), key=lambda item: fields[item[0]][0]):
        number, kind, many = fields[name]
        if value is None:
            continue
        for item in (value if many else (value,)):
            out.append(_encode_field(number, kind, item))
    return b"".join(out)


def _encode_field(number, kind, value):
    if kind in MESSAGES:
        return delimited(number, encode(kind, value))
    if kind == STRING:
        return delimited(number, value.encode("utf-8"))
    if kind == BYTES:
        return delimited(number, bytes(value))
    if kind == FLOAT:
        return key(number, FIXED32) + struct.pack("<f", value)
    if kind == DOUBLE:
        return key(number, FIXED64) + struct.pack("<d", value)
    return key(number, VARINT) + varint(int(value))          # ints, enums, bools


# ---- reading --------------------------------------------------------------------------

class Message:
    """A decoded message: every field of its schema is an attribute (None or [] when the
    file leaves it out)."""

    def __init__(self, message):
        self._message = message
        for name, _, many in MESSAGES[message].values():
            setattr(self, name, [] if many else None)

    def __repr__(self):
        shown = {k: v for k, v in vars(self).items() if not k.startswith("_") and v not in
                 (None, [])}
        return f"{self._message}({shown})"


def decode(data, message, label="the MindIR file"):
    """The ``message`` in ``data`` (bytes or a memoryview)."""
    view = memoryview(data)
    return _decode(view, 0, len(view), message, label, 0)


_WIRE_OF = {STRING: LENGTH_DELIMITED, BYTES: LENGTH_DELIMITED, FLOAT: FIXED32,
            DOUBLE: FIXED64, INT64: VARINT, INT32: VARINT, UINT64: VARINT, BOOL: VARINT,
            ENUM: VARINT}


def _decode(view, start, end, message, label, depth):
    what = f"{label}, {message} message"
    reader = Reader(view, start, end, what, MindIRFormatError, "a MindIR file")
    if depth > MAX_DEPTH:
        reader.fail(f"messages nested more than {MAX_DEPTH} deep: the file is damaged")
    result = Message(message)
    schema = MESSAGES[message]
    for number, wire_type, value in reader.fields():
        field = schema.get(number)
        if field is None:
            continue                         # a field tensorjit does not use
        name, kind, many = field
        if kind in MESSAGES:
            if wire_type != LENGTH_DELIMITED:
                reader.fail(f"field {name!r} has wire type {wire_type}, a message needs 2")
            item = _decode(view, value[0], value[1], kind, label, depth + 1)
            items = [item]
        elif wire_type == _WIRE_OF[kind]:
            items = [_scalar(view, kind, wire_type, value, reader, name)]
        elif many and wire_type == LENGTH_DELIMITED and _WIRE_OF[kind] != LENGTH_DELIMITED:
            items = _packed(view, value, kind, label, name)
        else:
            reader.fail(f"field {name!r} ({kind}) has wire type {wire_type}, expected "
                        f"{_WIRE_OF[kind]}")
        if many:
            getattr(result, name).extend(items)
        else:
            setattr(result, name, items[-1])
    return result


def _scalar(view, kind, wire_type, value, reader, name):
    if kind == STRING:
        try:
            return str(view[value[0]:value[1]], "utf-8")
        except UnicodeDecodeError:
            reader.fail(f"field {name!r} is not UTF-8 text")
    if kind == BYTES:
        return view[value[0]:value[1]]
    if kind in (FLOAT, DOUBLE):
        return fixed_float(value, wire_type)
    if kind == BOOL:
        return bool(value)
    if kind == UINT64:
        return value & ((1 << 64) - 1)
    return signed64(value)                 # int64, int32 and enums: negative ones sign-extend


def _packed(view, span, kind, label, name):
    """A packed repeated number field's values."""
    start, end = span
    if kind in (FLOAT, DOUBLE):
        width = 4 if kind == FLOAT else 8
        if (end - start) % width:
            raise MindIRFormatError(f"{label}: packed field {name!r} holds {end - start} "
                                    f"bytes, not a multiple of {width}")
        return list(struct.unpack(f"<{(end - start) // width}{'f' if width == 4 else 'd'}",
                                  view[start:end]))
    reader = Reader(view, start, end, f"{label}, field {name!r}", MindIRFormatError,
                    "a MindIR file")
    out = []
    while reader.pos < reader.end:
        number = reader.varint()
        out.append(number & ((1 << 64) - 1) if kind == UINT64 else
                   bool(number) if kind == BOOL else signed64(number))
    return out
