"""Where a shard's rows go: the page layout MindSpore's writer produces, followed step by
step so that the same rows written the same way give the same bytes.

Rows arrive in batches (one ``write_raw_data`` call's share of a shard). A batch is cut into
row groups: a group fills one blob page, and its scalar records must fit one raw page. The
first group continues the last blob page (and the last raw page's last row group) when
there is one; each further group starts a new blob page. A raw page that cannot take the
continued group hands its last row group over to a new raw page first; a group that does not
fit the last raw page starts a new one. Page ids count up in the order pages are made, so
blob and raw pages interleave.
"""
from .header import BLOB, RAW, Page

__all__ = ["record", "ShardLayout", "scan_rows"]


def record(data):
    """A stored record: 8-byte little-endian length, then the bytes."""
    return len(data).to_bytes(8, "little") + data


class ShardLayout:
    """The pages of one shard file, written through ``file`` (opened r+b)."""

    def __init__(self, shard_id, pages, header_size, page_size, file):
        self.shard_id, self.pages = shard_id, pages
        self.header_size, self.page_size = header_size, page_size
        self.file = file

    def _last(self, page_type):
        for page in reversed(self.pages):
            if page.page_type == page_type:
                return page
        return None

    def _write(self, page, offset, data):
        self.file.seek(self.header_size + page.page_id * self.page_size + offset)
        self.file.write(data)

    def _groups(self, blob_sizes, raw_sizes, last_blob, last_raw):
        n_blob = last_blob.page_size if last_blob else 0
        n_raw = (last_raw.page_size - last_raw.row_groups[-1][1]
                 if last_raw and last_raw.row_groups else 0)
        groups, start = [], 0
        for i, (b, r) in enumerate(zip(blob_sizes, raw_sizes)):
            if n_blob == 0 or n_blob + b > self.page_size or n_raw + r > self.page_size:
                groups.append((start, i))
                start, n_blob, n_raw = i, b, r
            else:
                n_blob, n_raw = n_blob + b, n_raw + r
        groups.append((start, len(blob_sizes)))
        return groups

    def add(self, blob_records, raw_records):
        """Place one batch of rows (their stored blob and raw records)."""
        if not blob_records:
            return
        limit = self.page_size
        too_big = [len(r) for r in blob_records + raw_records if len(r) > limit]
        if too_big:
            raise ValueError(f"a row needs {max(too_big)} bytes but a page holds {limit}; raise "
                             f"the page size with set_page_size")
        last_blob, last_raw = self._last(BLOB), self._last(RAW)
        groups = self._groups([len(r) for r in blob_records], [len(r) for r in raw_records],
                              last_blob, last_raw)
        first = groups[0]
        if first[0] < first[1]:                    # rows continuing the last blob page
            data = b"".join(blob_records[first[0]:first[1]])
            self._write(last_blob, last_blob.page_size, data)
            last_blob.page_size += len(data)
            last_blob.end_row_id += first[1] - first[0]
        type_id = last_blob.page_type_id if last_blob else -1
        row = last_blob.end_row_id if last_blob else 0
        for a, b in groups[1:]:
            data = b"".join(blob_records[a:b])
            type_id += 1
            page = Page(len(self.pages), self.shard_id, BLOB, type_id, row, row + b - a, [],
                        len(data))
            self.pages.append(page)
            self._write(page, 0, data)
            row += b - a
        raw_sizes = [len(r) for r in raw_records]
        if first[0] < first[1] and sum(raw_sizes[first[0]:first[1]]) + last_raw.page_size > limit:
            last_raw = self._move_last_group(last_raw)
        self._write_raw(groups, raw_records, raw_sizes, last_raw)

    def _move_last_group(self, last_raw):
        """Move the last row group of ``last_raw`` to a new raw page, which is returned."""
        group_id, offset = last_raw.row_groups[-1]
        size = last_raw.page_size - offset
        self.file.seek(self.header_size + last_raw.page_id * self.page_size + offset)
        data = self.file.read(size)
        last_raw.row_groups.pop()
        last_raw.page_size = offset
        new_id = last_raw.row_groups[-1][0] + 1 if last_raw.row_groups else group_id
        page = Page(len(self.pages), self.shard_id, RAW, last_raw.page_id + 1, 0, 0,
                    [[new_id, 0]], size)
        self.pages.append(page)
        self._write(page, 0, data)
        return page

    def _write_raw(self, groups, raw_records, raw_sizes, last_raw):
        last_group = last_raw.row_groups[-1][0] if last_raw and last_raw.row_groups else -1
        for i, (a, b) in enumerate(groups):
            if a == b:
                continue
            size = sum(raw_sizes[a:b])
            if last_raw is None or last_raw.page_size + size > self.page_size:
                # (MindSpore numbers a new raw page after the last raw page's page id)
                type_id = last_raw.page_id + 1 if last_raw else 0
                last_raw = Page(len(self.pages), self.shard_id, RAW, type_id)
                self.pages.append(last_raw)
            self._write(last_raw, last_raw.page_size, b"".join(raw_records[a:b]))
            if i > 0:
                last_group += 1
                last_raw.row_groups.append([last_group, last_raw.page_size])
            last_raw.page_size += size


def scan_rows(pages, header_size, page_size, read):
    """Every row of a shard as MindSpore's index generator finds it, in its order: per raw
    page, per row group, the rows of the group's blob page. ``read(offset, n)`` reads the
    shard file. Yields ``(row id, row group id, raw page id, raw start, raw end, blob page id,
    blob start, blob end, raw bytes)``."""
    blob_pages = {p.page_type_id: p for p in pages if p.page_type == BLOB}
    for raw_page in (p for p in pages if p.page_type == RAW):
        base = header_size + raw_page.page_id * page_size
        for group_id, offset in raw_page.row_groups:
            blob_page = blob_pages.get(group_id)
            if blob_page is None:
                raise ValueError(f"raw page {raw_page.page_id} names row group {group_id}, "
                                 f"which no blob page holds")
            blob_base = header_size + blob_page.page_id * page_size
            raw_pos, blob_pos = offset, 0
            for row_id in range(blob_page.start_row_id, blob_page.end_row_id):
                raw_len = int.from_bytes(read(base + raw_pos, 8), "little")
                raw = read(base + raw_pos + 8, raw_len)
                blob_len = int.from_bytes(read(blob_base + blob_pos, 8), "little")
                raw_end, blob_end = raw_pos + 8 + raw_len, blob_pos + 8 + blob_len
                if raw_end > raw_page.page_size or blob_end > blob_page.page_size:
                    raise ValueError(f"row {row_id} runs past the end of its page")
                yield (row_id, group_id, raw_page.page_id, raw_pos, raw_end,
                       blob_page.page_id, blob_pos, blob_end, raw)
                raw_pos, blob_pos = raw_end, blob_end
