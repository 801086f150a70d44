"""A MindRecord shard file's header and pages.

The file starts with an 8-byte little-endian length and that many bytes of JSON (the
header), in a region of ``header_size`` bytes; page ``p`` starts at ``header_size + p *
page_size``. Pages are BLOB_DATA (each row's blob as an 8-byte little-endian length and the
bytes) or RAW_DATA (each row's scalar fields the same way, as MessagePack); a raw page
lists its row groups (the blob page whose rows it holds, ``page_type_id``, and where in the
raw page they start). The JSON is written exactly as MindSpore writes it: these keys in
this order, nested objects with sorted keys, no spaces.
"""
import json
import os

from .schema import Schema

__all__ = ["Page", "Header", "VERSION", "read_header", "MIN_HEADER_SIZE", "MAX_HEADER_SIZE",
           "MIN_PAGE_SIZE", "MAX_PAGE_SIZE", "DEFAULT_HEADER_SIZE", "DEFAULT_PAGE_SIZE"]

VERSION = "3.0"
READABLE_VERSIONS = ("2.0", "3.0")      # 2.0: integer arrays are not compressed
MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
DEFAULT_HEADER_SIZE, DEFAULT_PAGE_SIZE = 1 << 24, 1 << 25
RAW, BLOB = "RAW_DATA", "BLOB_DATA"


def _dump(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


class Page:
    """One page of a shard: where it is, what it holds, how many bytes are used."""

    __slots__ = ("page_id", "shard_id", "page_type", "page_type_id", "start_row_id",
                 "end_row_id", "row_groups", "page_size")

    def __init__(self, page_id, shard_id, page_type, page_type_id, start_row_id=0,
                 end_row_id=0, row_groups=None, page_size=0):
        self.page_id, self.shard_id, self.page_type = page_id, shard_id, page_type
        self.page_type_id, self.start_row_id, self.end_row_id = (page_type_id, start_row_id,
                                                                 end_row_id)
        self.row_groups = [list(g) for g in row_groups or []]    # [group id, offset]
        self.page_size = page_size

    def to_json(self):
        groups = self.row_groups or [[0, 0]]        # (MindSpore writes an empty list so)
        return {"end_row_id": self.end_row_id, "page_id": self.page_id,
                "page_size": self.page_size, "page_type": self.page_type,
                "page_type_id": self.page_type_id,
                "row_group_ids": [{"id": g, "offset": o} for g, o in groups],
                "shard_id": self.shard_id, "start_row_id": self.start_row_id}


class Header:
    """What every shard's header holds (schema, index fields, sizes) and each shard's pages."""

    def __init__(self, schema, index_fields, shard_names, header_size=DEFAULT_HEADER_SIZE,
                 page_size=DEFAULT_PAGE_SIZE, compression_size=0, version=VERSION):
        self.schema = schema
        self.index_fields = list(index_fields)
        self.shard_names = list(shard_names)
        self.header_size, self.page_size = header_size, page_size
        self.compression_size = compression_size
        self.version = version
        self.pages = [[] for _ in shard_names]

    def page_offset(self, page):
        return self.header_size + page.page_id * self.page_size

    def serialize(self, shard_id):
        """The header bytes of shard ``shard_id`` (length prefix included)."""
        index = (_dump([{"index_field": f, "schema_id": 0} for f in self.index_fields])
                 if self.index_fields else "null")
        pages = _dump([p.to_json() for p in self.pages[shard_id]]) if self.pages[shard_id] \
            else "null"
        schema = _dump([{"blob_fields": self.schema.blob_fields, "desc": self.schema.desc,
                         "schema": self.schema.fields}])
        text = (f'{{"header_size":{self.header_size},"index_fields":{index},"page":{pages},'
                f'"page_size":{self.page_size},"compression_size":'
                f'{max(self.compression_size, 0)},"schema":{schema},"shard_addresses":'
                f'{_dump(self.shard_names)},"shard_id":{shard_id},"statistics":null,'
                f'"version":"{self.version}"}}').encode("utf-8")
        if len(text) + 8 > self.header_size:
            raise ValueError(f"the header ({len(text) + 8} bytes) does not fit in header_size "
                             f"{self.header_size}; raise it with set_header_size")
        return len(text).to_bytes(8, "little") + text

    def meta(self):
        """What must agree between the shards of one set."""
        return (self.header_size, self.page_size, self.compression_size, self.version,
                tuple(self.index_fields), _dump(self.schema.fields), self.schema.desc,
                tuple(self.schema.blob_fields))


def _need(condition, path, problem):
    if not condition:
        raise ValueError(f"{path} is not a valid MindRecord file: {problem}")


def _int(value):
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _parse_page(item, path, k):
    _need(isinstance(item, dict), path, f"page {k} of its header is not an object")
    keys = ("page_id", "shard_id", "page_type_id", "start_row_id", "end_row_id", "page_size")
    for key in keys:
        _need(_int(item.get(key)), path, f"page {k} has no valid {key!r}")
    _need(item.get("page_type") in (RAW, BLOB), path,
          f"page {k} has the unknown type {item.get('page_type')!r}")
    groups = item.get("row_group_ids")
    _need(isinstance(groups, list) and all(
        isinstance(g, dict) and _int(g.get("id")) and _int(g.get("offset")) for g in groups),
        path, f"page {k} has invalid row groups")
    _need(item["page_id"] == k, path, f"page {k} says it is page {item['page_id']}")
    _need(item["start_row_id"] <= item["end_row_id"], path, f"page {k} ends before it starts")
    return Page(item["page_id"], item["shard_id"], item["page_type"], item["page_type_id"],
                item["start_row_id"], item["end_row_id"],
                [[g["id"], g["offset"]] for g in groups], item["page_size"])


def read_header(path):
    """``(Header, this file's shard id, its pages)`` of the file at ``path``; ValueError
    naming the file and the problem if it is not a MindRecord file."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(8)
            _need(len(head) == 8, path, f"it has {size} bytes, fewer than a header's length")
            length = int.from_bytes(head, "little")
            _need(0 < length <= min(MAX_HEADER_SIZE, size - 8), path,
                  f"its header length {length} is impossible for a file of {size} bytes (it "
                  f"is truncated, not committed, or not a MindRecord file)")
            text = f.read(length)
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        raw = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValueError(f"{path} is not a valid MindRecord file: its header is not JSON") \
            from None
    _need(isinstance(raw, dict), path, "its header is not a JSON object")
    _need(raw.get("version") in READABLE_VERSIONS, path,
          f"its version {raw.get('version')!r} is not one of {READABLE_VERSIONS}")
    for key in ("header_size", "page_size", "shard_id"):
        _need(_int(raw.get(key)), path, f"its header has no valid {key!r}")
    _need(MIN_HEADER_SIZE <= raw["header_size"] <= MAX_HEADER_SIZE
          and MIN_PAGE_SIZE <= raw["page_size"] <= MAX_PAGE_SIZE, path,
          f"its header size {raw['header_size']} or page size {raw['page_size']} is out of "
          f"range")
    _need(length + 8 <= raw["header_size"], path, "its header is longer than its header size")
    schemas = raw.get("schema")
    _need(isinstance(schemas, list) and len(schemas) == 1 and isinstance(schemas[0], dict),
          path, "its header does not hold one schema")
    desc = schemas[0].get("desc")
    _need(isinstance(desc, str), path, "its schema has no description string")
    try:
        schema = Schema(schemas[0].get("schema"), desc)
    except ValueError as exc:
        raise ValueError(f"{path} is not a valid MindRecord file: its schema is invalid "
                         f"({exc})") from None
    _need(schemas[0].get("blob_fields") == schema.blob_fields, path,
          "its blob fields do not match its schema")
    index = raw.get("index_fields") or []
    _need(isinstance(index, list) and all(
        isinstance(i, dict) and i.get("schema_id") == 0 and i.get("index_field")
        in schema.raw_fields for i in index), path, "its index fields are invalid")
    names = raw.get("shard_addresses")
    _need(isinstance(names, list) and names and all(
        isinstance(n, str) and n and os.path.basename(n) == n for n in names), path,
        "its shard file names are invalid")
    compression = raw.get("compression_size", 0)
    _need(_int(compression), path, "its compression size is invalid")
    header = Header(schema, [i["index_field"] for i in index], names, raw["header_size"],
                    raw["page_size"], compression, raw["version"])
    pages = raw.get("page") or []
    _need(isinstance(pages, list), path, "its page list is invalid")
    parsed = [_parse_page(item, path, k) for k, item in enumerate(pages)]
    for page in parsed:
        _need(page.page_size <= header.page_size, path,
              f"page {page.page_id} claims {page.page_size} bytes, more than a page holds")
        _need(header.page_offset(page) + page.page_size <= size, path,
              f"page {page.page_id} runs past the end of the file ({size} bytes): it is "
              f"truncated")
    return header, raw["shard_id"], parsed
