"""MindSpore's ``.ckpt`` file: protobuf messages of its ``checkpoint.proto``, written and
read by hand.

    message Checkpoint  { repeated Value value = 1; }
    message Value       { required string tag = 1;  oneof { TensorProto tensor = 2; ... } }
    message TensorProto { repeated int64 dims = 1;  required string tensor_type = 2;
                          required bytes tensor_content = 3; }

A file is a concatenation of ``Checkpoint`` messages with one ``Value`` each (protobuf merges
concatenated messages into one); a tensor larger than 512 MiB is split into several values
with the same tag whose contents are joined. An optional trailer ``b"crc_num"`` + 10 bytes
(big-endian CRC-32 of everything before it) ends the file.

The wire format itself is ``protobuf_wire.py``, shared with the MindIR files. Why by hand
and not the ``protobuf`` package: the schema is three messages and six fields of
a wire format that has not changed since 2008, while generated ``_pb2`` modules are tied to
the protobuf runtime's version; writing it here keeps the dependency list short, lets the
tensor bytes be written from the arrays without an intermediate message holding a copy, and
lets a damaged file be reported by byte offset and parameter name. The tests check the bytes
against files written by MindSpore itself.
"""
import binascii

import numpy as np

from .. import dtype as dt
from .protobuf_wire import LENGTH_DELIMITED as _LENGTH_DELIMITED, VARINT as _VARINT, \
    Reader, delimited as _delimited, key as _key, varint as _varint

__all__ = ["TYPE_NAMES", "encode_value_header", "parse", "CheckpointFormatError", "CRC_MARK"]

# MindSpore's ``str(dtype)`` spellings, as stored in ``tensor_type``.
TYPE_NAMES = {dtype: dt.mindspore_name(dtype) for dtype in dt.ALL_DTYPES}
DTYPES = {name: dtype for dtype, name in TYPE_NAMES.items()}
STRING_TYPE = "str"
CRC_MARK = b"crc_num"
SLICE_BYTES = 512 * 1024 * 1024       # MindSpore's SLICE_SIZE: larger tensors are split


class CheckpointFormatError(ValueError):
    """The bytes are not a well-formed MindSpore checkpoint."""


def encode_value_header(tag, dims, type_name, content_size):
    """The bytes of one ``Checkpoint`` message up to (not including) the tensor content of
    ``content_size`` bytes, which follows it directly; fields in number order, as protobuf
    writes them."""
    dims_bytes = b"".join(_key(1, _VARINT) + _varint(int(d)) for d in dims)
    tensor_head = (dims_bytes + _delimited(2, type_name.encode())
                   + _key(3, _LENGTH_DELIMITED) + _varint(content_size))
    tensor_size = len(tensor_head) + content_size
    value_head = (_delimited(1, tag.encode()) + _key(2, _LENGTH_DELIMITED)
                  + _varint(tensor_size))
    value_size = len(value_head) + tensor_size
    return _key(1, _LENGTH_DELIMITED) + _varint(value_size) + value_head + tensor_head


def _reader(data, start, end, what):
    return Reader(data, start, end, what, CheckpointFormatError, "a checkpoint")


def _parse_tensor(data, start, end, tag):
    reader = _reader(data, start, end, f"parameter {tag!r}")
    dims, type_name, content = [], None, None
    for field, wire_type, value in reader.fields():
        if field == 1 and wire_type == _VARINT:
            dims.append(value - (1 << 64) if value >= 1 << 63 else value)
        elif field == 1 and wire_type == _LENGTH_DELIMITED:          # packed dims
            packed = _reader(data, value[0], value[1], f"parameter {tag!r}")
            while packed.pos < packed.end:
                dims.append(packed.varint())
        elif field == 2 and wire_type == _LENGTH_DELIMITED:
            type_name = bytes(data[value[0]:value[1]]).decode("utf-8", "replace")
        elif field == 3 and wire_type == _LENGTH_DELIMITED:
            content = value
    if type_name is None or content is None:
        reader.fail("a tensor without its type or its content")
    return dims, type_name, content


def _records(data, end):
    """(tag, dims, type name, (content start, end)) for every value, in file order."""
    top = _reader(data, 0, end, "the file")
    for field, wire_type, span in top.fields():
        if field != 1 or wire_type != _LENGTH_DELIMITED:
            top.fail(f"unexpected field {field} (wire type {wire_type}) where a checkpoint "
                     f"value should be")
        reader = _reader(data, span[0], span[1], "a checkpoint value")
        tag, tensor = None, None
        for sub, sub_type, value in reader.fields():
            if sub == 1 and sub_type == _LENGTH_DELIMITED:
                try:
                    tag = bytes(data[value[0]:value[1]]).decode("utf-8")
                except UnicodeDecodeError:
                    reader.fail("a parameter name that is not UTF-8: this is not a checkpoint")
            elif sub == 2 and sub_type == _LENGTH_DELIMITED:
                tensor = value
            elif sub == 3:
                reader.fail("a MapParameter (maptensor) entry: tensorjit has no MapParameter")
        if tag is None or tensor is None:
            reader.fail("a checkpoint value without its name or its tensor")
        yield (tag,) + _parse_tensor(data, tensor[0], tensor[1], tag)


def _array(tag, dims, type_name, chunks):
    content = b"".join(chunks)
    if type_name == STRING_TYPE:
        if len(content) % 4:
            raise CheckpointFormatError(f"parameter {tag!r}: a string of {len(content)} bytes "
                                        f"(UTF-32 needs a multiple of 4)")
        return np.frombuffer(content, f"U{len(content) // 4}")[0] if content else ""
    dtype = DTYPES.get(type_name)
    if dtype is None:
        raise CheckpointFormatError(f"parameter {tag!r} has type {type_name!r}, which tensorjit "
                                    f"cannot hold (known: {', '.join(sorted(DTYPES))})")
    shape = () if list(dims) == [0] else tuple(dims)
    expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if any(d < 0 for d in shape) or expected != len(content):
        raise CheckpointFormatError(f"parameter {tag!r}: shape {shape} of {type_name} needs "
                                    f"{expected} bytes, the file holds {len(content)}: it is "
                                    f"truncated or damaged")
    return np.frombuffer(content, dtype).reshape(shape).copy()


def parse(data, crc_check=False, name="the checkpoint"):
    """{name: ndarray or str} from the bytes of a ``.ckpt`` file, in file order. Raises
    ``CheckpointFormatError`` naming the problem; nothing is returned from a bad file."""
    end = len(data)
    if data[end - 17:end - 10] == CRC_MARK:
        end -= 17
        if crc_check:
            stored = int.from_bytes(data[-10:], "big")
            if binascii.crc32(memoryview(data)[:end]) != stored:
                raise CheckpointFormatError(f"{name}: the CRC-32 check failed: the file is "
                                            f"damaged")
    elif crc_check:
        raise CheckpointFormatError(f"{name}: crc_check=True but the file has no CRC "
                                    f"(save it with crc_check=True)")
    view = memoryview(data)
    result, pending = {}, None
    for tag, dims, type_name, (start, stop) in _records(view, end):
        if pending is not None and pending[0] != tag:
            result[pending[0]] = _array(*pending)
            pending = None
        if pending is None:
            if tag in result:
                raise CheckpointFormatError(f"{name}: parameter {tag!r} appears twice")
            pending = (tag, dims, type_name, [])
        pending[3].append(view[start:stop])
    if pending is not None:
        result[pending[0]] = _array(*pending)
    return result
