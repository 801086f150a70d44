"""The safetensors file (Hugging Face's format, which MindSpore writes with
``format="safetensors"``): an 8-byte little-endian header size, a JSON header
``{name: {"dtype": "F32", "shape": [...], "data_offsets": [begin, end]}, "__metadata__":
{...}}`` padded with spaces to a multiple of 8 bytes, then the tensors' bytes.

Written by hand (the format is those three lines); the tests check it against the
``safetensors`` package when MindSpore's interpreter has it.
"""
import json

import numpy as np

from .. import dtype as dt
from .ckpt_format import CheckpointFormatError

__all__ = ["header_bytes", "parse"]

CODES = {dt.bool_: "BOOL", dt.int8: "I8", dt.int16: "I16", dt.int32: "I32", dt.int64: "I64",
         dt.uint8: "U8", dt.uint16: "U16", dt.uint32: "U32", dt.uint64: "U64",
         dt.float16: "F16", dt.bfloat16: "BF16", dt.float32: "F32", dt.float64: "F64"}
DTYPES = {code: dtype for dtype, code in CODES.items()}
# The safetensors library lays tensors out by this dtype order (last first), then by name;
# following it makes our files byte-identical to its own.
_LAYOUT_ORDER = ["BOOL", "U8", "I8", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "F64",
                 "I64", "U64"]


def layout(arrays):
    """``arrays`` ({name: ndarray}) in the order the safetensors library writes them."""
    return dict(sorted(arrays.items(),
                       key=lambda item: (-_LAYOUT_ORDER.index(CODES[item[1].dtype]), item[0])))
MAX_HEADER = 100 * 1024 * 1024


def header_bytes(arrays, metadata):
    """The header for ``arrays`` ({name: contiguous ndarray}, written in this order after
    it)."""
    header, offset = {}, 0
    if metadata:
        header["__metadata__"] = metadata
    for name, array in arrays.items():
        header[name] = {"dtype": CODES[array.dtype], "shape": list(array.shape),
                        "data_offsets": [offset, offset + array.nbytes]}
        offset += array.nbytes
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return len(text).to_bytes(8, "little") + text


def looks_like_safetensors(data):
    if len(data) < 10:
        return False
    size = int.from_bytes(data[:8], "little")
    return 2 <= size <= min(MAX_HEADER, len(data) - 8) and data[8:9] == b"{"


def parse(data, name="the checkpoint"):
    """({name: ndarray}, metadata) from the bytes of a safetensors file."""
    if len(data) < 8:
        raise CheckpointFormatError(f"{name}: {len(data)} bytes is too short for a "
                                    f"safetensors file: it is truncated")
    size = int.from_bytes(data[:8], "little")
    if size > MAX_HEADER or 8 + size > len(data):
        raise CheckpointFormatError(f"{name}: the safetensors header claims {size} bytes, the "
                                    f"file has {len(data) - 8} after the size: it is truncated "
                                    f"or not a safetensors file")
    try:
        header = json.loads(bytes(data[8:8 + size]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointFormatError(f"{name}: the safetensors header is not JSON ({exc}): "
                                    f"not a safetensors file") from None
    if not isinstance(header, dict):
        raise CheckpointFormatError(f"{name}: the safetensors header is not a JSON object")
    metadata = header.pop("__metadata__", None) or {}
    body = memoryview(data)[8 + size:]
    arrays = {}
    for tensor_name, entry in header.items():
        try:
            dtype = DTYPES[entry["dtype"]]
            shape = tuple(int(d) for d in entry["shape"])
            begin, end = (int(v) for v in entry["data_offsets"])
        except (KeyError, TypeError, ValueError):
            raise CheckpointFormatError(f"{name}: tensor {tensor_name!r} has a header entry "
                                        f"tensorjit cannot read: {entry!r}") from None
        expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        if not 0 <= begin <= end <= len(body) or end - begin != expected:
            raise CheckpointFormatError(f"{name}: tensor {tensor_name!r} ({entry['dtype']} "
                                        f"{list(shape)}) has bytes {begin}..{end} of a "
                                        f"{len(body)}-byte body: the file is truncated or "
                                        f"damaged")
        arrays[tensor_name] = np.frombuffer(body[begin:end], dtype).reshape(shape).copy()
    return arrays, metadata
