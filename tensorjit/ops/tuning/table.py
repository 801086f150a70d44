"""The tuning table: what was measured on this machine, kept beside the kernel cache.

One JSON file per machine fingerprint (``machine.py``) in ``<cache>/tuning/``:

    {"format": 1, "machine": {...fingerprint...},
     "entries": {"conv.forward": {"<shape key>": {"choice": "winograd4",
                                                  "seconds": {"winograd4": 0.0031, ...},
                                                  "note": "..."}}}}

Reading it never runs code (plain JSON, checked field by field before use). A file that is
not such a table, or names another machine, is damaged: it is measured again, with one
warning, and rewritten. Writes are atomic (``files.write_atomically``), the file is 0600,
and entries another process wrote meanwhile are kept (merged on write). When the cache
directory is unusable or the write fails (read-only, full disk), the choices live in memory
for this process, with one warning.
"""
import json
import math
import os
import threading
import warnings

from ...files import cache_directory, write_atomically
from . import machine

FORMAT = 1
MAX_BYTES = 8 << 20          # a table is a few KB; a larger file is not read


class Damaged(ValueError):
    """The file is not a tuning table of this machine."""


class Table:
    """The entries measured on this machine, in memory and on disk."""

    def __init__(self):
        self._lock = threading.RLock()
        self._entries = None         # {problem: {key: entry}}, loaded on first use
        self._warned = set()

    def path(self):
        directory = cache_directory("tuning", "tuning table",
                                    "choices are measured again in each process")
        return None if directory is None else os.path.join(directory, machine.digest() + ".json")

    def get(self, problem, key):
        with self._lock:
            return self._loaded().get(problem, {}).get(key)

    def put(self, problem, key, entry):
        """Record ``entry`` and write the table (merged with the file's other entries)."""
        check_entry(entry)
        with self._lock:
            self._loaded().setdefault(problem, {})[key] = entry
            self._save()

    def entries(self):
        """[(problem, key, entry)] in a stable order."""
        with self._lock:
            loaded = self._loaded()
            return [(p, k, loaded[p][k]) for p in sorted(loaded) for k in sorted(loaded[p])]

    def forget(self):
        """Drop what is in memory (the next use reads the file again)."""
        with self._lock:
            self._entries = None

    def _loaded(self):
        if self._entries is None:
            self._entries = self._read(warn=True)
        return self._entries

    def _read(self, warn):
        path = self.path()
        if path is None or not os.path.exists(path):
            return {}
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                raise Damaged(f"larger than {MAX_BYTES} bytes")
            return parse(data)
        except (OSError, Damaged) as exc:
            if warn:
                self._warn(f"tensorjit: the tuning table {path} is damaged or unreadable "
                           f"({exc}); its choices are measured again")
            return {}

    def _save(self):
        path = self.path()
        if path is None:
            return
        merged = self._read(warn=False)
        for problem, entries in self._entries.items():
            merged.setdefault(problem, {}).update(entries)
        text = json.dumps({"format": FORMAT, "machine": machine.fingerprint(),
                           "entries": merged}, indent=1, sort_keys=True)
        try:
            write_atomically(path, lambda f: f.write(text), binary=False, mode=0o600)
        except OSError as exc:
            self._warn(f"tensorjit: cannot write the tuning table {path} ({exc}); the "
                       f"choices measured now hold for this process only")

    def _warn(self, message):
        if message not in self._warned:
            self._warned.add(message)
            warnings.warn(message, RuntimeWarning, stacklevel=5)


def parse(data):
    """The entries of a table file's bytes; ``Damaged`` if they are not a table of this
    machine in this format."""
    try:
        table = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise Damaged(f"not JSON: {exc}") from None
    if not isinstance(table, dict) or table.get("format") != FORMAT:
        raise Damaged(f"not a format-{FORMAT} tuning table")
    if table.get("machine") != json.loads(json.dumps(machine.fingerprint())):
        raise Damaged("measured on another machine or with other libraries")
    entries = table.get("entries")
    if not isinstance(entries, dict):
        raise Damaged("no entries")
    for problem, keyed in entries.items():
        if not isinstance(keyed, dict):
            raise Damaged(f"entries of {problem!r} are not a mapping")
        for key, entry in keyed.items():
            try:
                check_entry(entry)
            except ValueError as exc:
                raise Damaged(f"{problem} {key}: {exc}") from None
    return entries


def check_entry(entry):
    """An entry is {"choice": name, "seconds": {name: seconds or reason}, "note": text}."""
    if not isinstance(entry, dict) or set(entry) != {"choice", "seconds", "note"}:
        raise ValueError("an entry has the fields choice, seconds and note")
    if not isinstance(entry["choice"], str) or not isinstance(entry["note"], str):
        raise ValueError("choice and note are text")
    seconds = entry["seconds"]
    if not isinstance(seconds, dict):
        raise ValueError("seconds is a mapping")
    for name, value in seconds.items():
        ok = isinstance(value, str) or (isinstance(value, float) and math.isfinite(value)
                                        and value >= 0)
        if not isinstance(name, str) or not ok:
            raise ValueError(f"the time of {name!r} is neither seconds nor a reason")
