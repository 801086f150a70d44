"""MindRecord schemas: which fields a file holds, as MindSpore checks them, and a row turned
into its stored form (scalar fields as MessagePack, blob fields as one blob) and back.

A schema maps field names (letters, digits, ``_``) to ``{"type": t}`` with t one of int32,
int64, float32, float64, string, bytes, or ``{"type": t, "shape": [...]}`` with t numeric
(an array; at most one -1 in the shape). ``bytes`` and array fields are the blob fields.
"""
import re

import numpy as np

from . import blob as blobs
from . import msgpack
from .errors import MRMInvalidSchemaError, MRMValidateDataError

__all__ = ["Schema", "SCALAR_TYPES", "ARRAY_TYPES"]

SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
_NAME = re.compile(r"^[0-9a-zA-Z_]+$")
_RANGES = {"int32": (-2 ** 31, 2 ** 31), "int64": (-2 ** 63, 2 ** 63)}
_NUMPY_SCALARS = {np.int32: "int32", np.int64: "int64", np.float32: "float32",
                  np.float64: "float64"}


def check_schema(content):
    """Raise MRMInvalidSchemaError unless ``content`` is a schema MindSpore accepts."""
    if not content:
        raise MRMInvalidSchemaError("Schema format is error. Detail: Schema content is empty.")
    if not isinstance(content, dict):
        raise MRMInvalidSchemaError("Schema format is error. Detail: Schema content should be "
                                    "dict.")
    for name, spec in content.items():
        where = f"Schema format is error. Detail: Field {name!r}"
        if not isinstance(name, str) or not _NAME.match(name):
            raise MRMInvalidSchemaError(f"{where} should be composed of '0-9' or 'a-z' or "
                                        f"'A-Z' or '_'.")
        if not spec or not isinstance(spec, dict) or "type" not in spec or not (
                set(spec) <= {"type", "shape"}):
            raise MRMInvalidSchemaError(f"{where} should be a dict of 'type' (and 'shape' for "
                                        f"an array), got {spec!r}.")
        kind = spec["type"]
        allowed = ARRAY_TYPES if "shape" in spec else SCALAR_TYPES
        if not isinstance(kind, str) or kind not in allowed:
            raise MRMInvalidSchemaError(f"{where} contain illegal attribute {kind!r} (allowed: "
                                        f"{', '.join(allowed)}).")
        if "shape" in spec:
            shape = spec["shape"]
            if not isinstance(shape, list) or not shape or not all(
                    isinstance(d, int) and not isinstance(d, bool) for d in shape):
                raise MRMInvalidSchemaError(f"{where} has the shape {shape!r}; a shape is a "
                                            f"non-empty list of ints.")
            if any(d == 0 or d < -1 for d in shape) or shape.count(-1) > 1:
                raise MRMInvalidSchemaError(f"{where} has the shape {shape}; its dimensions "
                                            f"must be positive, with at most one -1.")


class Schema:
    """A checked schema: its fields, blob fields and how rows are stored."""

    def __init__(self, content, desc=""):
        check_schema(content)
        self.fields = {name: dict(spec) for name, spec in content.items()}
        self.desc = desc
        self.names = sorted(self.fields)
        self.blob_fields = [n for n in self.names
                            if "shape" in self.fields[n] or self.fields[n]["type"] == "bytes"]
        self.raw_fields = [n for n in self.names if n not in self.blob_fields]
        # MindSpore (file version 3.0) compresses integer arrays when the schema has one
        self.compressed = any("shape" in s and s["type"] in ("int32", "int64")
                              for s in self.fields.values())

    def type_of(self, name):
        return self.fields[name]["type"]

    def shape_of(self, name):
        return self.fields[name].get("shape")

    def default_index_fields(self):
        """The fields MindSpore indexes when none are chosen: the scalar ones."""
        return list(self.raw_fields)

    def int_kind(self, name, compressed):
        kind = self.type_of(name)
        return np.dtype(kind) if compressed and kind in ("int32", "int64") else None

    # ---- writing ------------------------------------------------------------------------
    def _scalar(self, name, value, where):
        kind = self.type_of(name)
        if type(value) in _NUMPY_SCALARS:
            if _NUMPY_SCALARS[type(value)] != kind:
                raise MRMValidateDataError(f"{where}: field {name!r} is {kind} but the value "
                                           f"is a numpy {type(value).__name__}")
            value = value.item()
        elif type(value) is int:
            if kind not in _RANGES:
                raise MRMValidateDataError(f"{where}: field {name!r} is {kind} but the value "
                                           f"is an int")
        elif type(value) is float:
            if kind not in ("float32", "float64"):
                raise MRMValidateDataError(f"{where}: field {name!r} is {kind} but the value "
                                           f"is a float")
        elif type(value) is str:
            if kind != "string":
                raise MRMValidateDataError(f"{where}: field {name!r} is {kind} but the value "
                                           f"is a str")
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise MRMValidateDataError(f"{where}: field {name!r} holds a str that is not "
                                           f"valid Unicode") from None
        else:
            raise MRMValidateDataError(f"{where}: field {name!r} is {kind}; a "
                                       f"{type(value).__name__} cannot be stored there")
        if kind in _RANGES and not _RANGES[kind][0] <= value < _RANGES[kind][1]:
            raise MRMValidateDataError(f"{where}: field {name!r} is {kind} but {value} is out "
                                       f"of its range")
        return value

    def _blob_part(self, name, value, where):
        kind, shape = self.type_of(name), self.shape_of(name)
        if shape is None:
            if type(value) is not bytes:
                raise MRMValidateDataError(f"{where}: field {name!r} is bytes; a "
                                           f"{type(value).__name__} cannot be stored there")
            return value
        if not isinstance(value, np.ndarray):
            raise MRMValidateDataError(f"{where}: field {name!r} is a {kind} array; give a "
                                       f"numpy array, not a {type(value).__name__}")
        if str(value.dtype) != kind:
            raise MRMValidateDataError(f"{where}: field {name!r} is {kind} but the array is "
                                       f"{value.dtype}")
        fixed = int(np.prod([d for d in shape if d != -1]))
        if (value.size != fixed) if -1 not in shape else (value.size % fixed):
            raise MRMValidateDataError(f"{where}: field {name!r} has the shape {shape} but the "
                                       f"array's shape is {value.shape}")
        return np.ascontiguousarray(value).tobytes()

    def encode(self, row, where):
        """``(raw bytes, blob bytes, bytes saved by compression)`` of a row (a dict)."""
        if not isinstance(row, dict):
            raise MRMValidateDataError(f"{where} is a {type(row).__name__}, not a dict")
        missing = [n for n in self.names if n not in row]
        if missing:
            raise MRMValidateDataError(f"{where} has no field {missing[0]!r} (the schema's "
                                       f"fields: {self.names})")
        raw = {n: self._scalar(n, row[n], where) for n in self.raw_fields} or {"id": 0}
        parts = [self._blob_part(n, row[n], where) for n in self.blob_fields]
        kinds = [self.int_kind(n, self.compressed) for n in self.blob_fields]
        blob, saved = blobs.merge(parts, kinds)
        return msgpack.pack(raw), blob, saved

    # ---- reading ------------------------------------------------------------------------
    def decode_raw(self, data, where):
        """The scalar fields of a row from its MessagePack bytes."""
        try:
            raw = msgpack.unpack(data)
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        if not isinstance(raw, dict):
            raise ValueError(f"{where}: its scalar fields are not a map")
        for name in self.raw_fields:
            value = raw.get(name)
            kind = self.type_of(name)
            ok = (isinstance(value, str) if kind == "string" else
                  isinstance(value, int) and not isinstance(value, bool) if kind in _RANGES
                  else isinstance(value, (int, float)) and not isinstance(value, bool))
            if not ok:
                raise ValueError(f"{where}: field {name!r} ({kind}) holds {value!r}")
        return raw

    def decode_blob(self, data, compressed, where):
        """``{field: bytes or array}`` of the blob fields of a row."""
        if not self.blob_fields:
            return {}
        parts = blobs.split(data, len(self.blob_fields), where)
        values = {}
        for name, part in zip(self.blob_fields, parts):
            shape = self.shape_of(name)
            if shape is None:
                values[name] = bytes(part)
                continue
            kind = self.int_kind(name, compressed)
            if kind is not None:
                array = blobs.decompress_ints(part, kind, f"{where} field {name!r}")
            else:
                itemsize = np.dtype(self.type_of(name)).itemsize
                if len(part) % itemsize:
                    raise ValueError(f"{where}: field {name!r} holds {len(part)} bytes, not a "
                                     f"whole number of {self.type_of(name)}")
                array = np.frombuffer(part, self.type_of(name)).copy()
            try:
                values[name] = array.reshape(shape)
            except ValueError:
                raise ValueError(f"{where}: field {name!r} holds {array.size} elements, which "
                                 f"do not fit its shape {shape}") from None
        return values
