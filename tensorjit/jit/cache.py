"""The compiled-graph cache: one per process, shared by every jitted callable, so jitting
the same lambda or closure again (same code, same captured values) finds its graphs.

Key: (function key, options, argument structure incl. static values, input dtypes); each
key holds a short list of entries told apart by input shapes (unless shape-generic) and by
the value guards inside their graphs. Bounded (least recently used goes first) and
thread-safe; concurrent first calls with one key compile once.
"""
import collections
import types
import weakref

from ..pytree import Identity, identities, static_key
from ..locks import ForkSafeLock

DEFAULT_MAX_ENTRIES = 1024


class _Bucket:
    """The entries of one key, found by their input shapes in constant time however many
    shapes were compiled (shape-generic entries under ``None``), and their order of use
    (oldest first) for eviction."""
    __slots__ = ("by_shapes", "order")

    def __init__(self):
        self.by_shapes = {}                          # shapes -> [Entry], most recent first
        self.order = collections.OrderedDict()      # id(entry) -> entry

    def __len__(self):
        return len(self.order)

    def add(self, entry):
        self.by_shapes.setdefault(entry.shapes, []).insert(0, entry)
        self.order[id(entry)] = entry

    def find(self, shapes):
        exact = self.by_shapes.get(shapes, ()) if shapes is not None else ()
        return list(exact) + list(self.by_shapes.get(None, ()))

    def promote(self, entry):
        entries = self.by_shapes.get(entry.shapes)
        if entries and entries[0] is not entry and entry in entries:
            entries.remove(entry)
            entries.insert(0, entry)
        if id(entry) in self.order:
            self.order.move_to_end(id(entry))

    def drop_oldest(self):
        _, entry = self.order.popitem(last=False)
        entries = self.by_shapes[entry.shapes]
        entries.remove(entry)
        if not entries:
            del self.by_shapes[entry.shapes]


class CompileCache:
    def __init__(self, max_entries=DEFAULT_MAX_ENTRIES):
        self.max_entries = max_entries
        self.buckets = collections.OrderedDict()     # key -> _Bucket, least recent first
        self.size = 0
        self.lock = ForkSafeLock(reentrant=True)
        self.compile_locks = {}
        # keys that mention an object (a Cell, a method's self) go when the object does
        self.keys_of_owner = {}                       # id(object) -> {key}
        self.owner_refs = {}                          # weakref -> id(object)

    def candidates(self, key, shapes):
        with self.lock:
            bucket = self.buckets.get(key)
            if not bucket:
                return []
            self.buckets.move_to_end(key)
            return bucket.find(shapes)

    def add(self, key, entry):
        with self.lock:
            bucket = self.buckets.get(key)
            if bucket is None:
                self._watch_owners(key)
                bucket = self.buckets[key] = _Bucket()
            bucket.add(entry)
            self.buckets.move_to_end(key)
            self.size += 1
            while self.size > self.max_entries and self.buckets:
                old_key, old_bucket = next(iter(self.buckets.items()))
                if old_key == key and len(self.buckets) == 1:
                    old_bucket.drop_oldest()  # only this key: drop its oldest entry
                    self.size -= 1
                    continue
                self._drop(old_key)

    def _drop(self, key):
        bucket = self.buckets.pop(key, None)
        if bucket is not None:
            self.size -= len(bucket)
        self.compile_locks.pop(key, None)

    def _watch_owners(self, key):
        for owner in identities(key):
            oid = id(owner)
            keys = self.keys_of_owner.get(oid)
            if keys is None:
                keys = self.keys_of_owner[oid] = set()
                self.owner_refs[weakref.ref(owner, self._owner_died)] = oid
            keys.add(key)

    def _owner_died(self, ref):
        with self.lock:
            oid = self.owner_refs.pop(ref, None)
            for key in self.keys_of_owner.pop(oid, ()):
                self._drop(key)

    def promote(self, key, entry):
        """Move an entry that just served a call to the front of its bucket."""
        with self.lock:
            bucket = self.buckets.get(key)
            if bucket:
                bucket.promote(entry)

    def compile_lock(self, key):
        with self.lock:
            lock = self.compile_locks.get(key)
            if lock is None:
                lock = self.compile_locks[key] = ForkSafeLock()
            return lock

    def clear(self):
        with self.lock:
            self.buckets.clear()
            self.compile_locks.clear()
            self.size = 0


CACHE = CompileCache()


def function_key(fn):
    """What makes two callables compile to the same graphs: the code, the globals it
    reads, its defaults and the values captured in its closure."""
    if isinstance(fn, types.MethodType):
        return ("method", function_key(fn.__func__), Identity(fn.__self__))
    if isinstance(fn, types.FunctionType):
        closure = tuple(static_key(c.cell_contents) if _cell_filled(c) else "<empty>"
                        for c in (fn.__closure__ or ()))
        defaults = tuple(static_key(d) for d in (fn.__defaults__ or ()))
        kwdefaults = tuple(sorted((k, repr(v)) for k, v in (fn.__kwdefaults__ or {}).items()))
        return ("function", fn.__code__, id(fn.__globals__), closure, defaults, kwdefaults)
    return ("object", Identity(fn))


def _cell_filled(cell):
    try:
        cell.cell_contents
        return True
    except ValueError:
        return False
