"""Files tensorjit writes: whole or not at all, and in a cache directory only its user
controls.

``write_atomically(path, write)`` lets ``write(f)`` fill a temporary file in the same
directory, then renames it over ``path``: a reader sees the old file or the new one, never
half of one, and a failed write leaves nothing behind. Every file tensorjit writes goes
through it (checkpoints, the kernel cache's sources, the tuning table).

``cache_directory(name)`` is a subdirectory of the per-user cache (``$TENSORJIT_CACHE_DIR``,
else ``$XDG_CACHE_HOME/tensorjit``, else ``~/.cache/tensorjit``), created mode 0700, or None
when it is unsafe or unusable: an existing directory must be the user's and writable by
nobody else; a new one is only made in a directory that is the user's, writable by nobody
else, or sticky like /tmp, so that nobody else can swap what is created there.
"""
import os
import stat
import tempfile
import warnings


def write_atomically(path, write, *, binary=True, mode=None, sync=False):
    """Write ``path`` through ``write(f)``. ``mode``: the file's permission bits (else the
    temporary file's 0600); ``sync``: flush to the disk before the rename."""
    directory = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                               dir=directory)
    try:
        with os.fdopen(fd, "wb" if binary else "w") as f:
            write(f)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def default_mode():
    """The permission bits a new file gets from the process's umask (0666 & ~umask),
    read without changing the umask (changing it, even briefly, races other threads)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return 0o666 & ~int(line.split()[1], 8)
    except OSError:
        pass
    return 0o644          # (no /proc: the usual umask 022)


def cache_root():
    """The per-user cache directory's path (not created here)."""
    root = os.environ.get("TENSORJIT_CACHE_DIR")
    if not root:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = os.path.join(xdg if xdg else os.path.join(os.path.expanduser("~"), ".cache"),
                            "tensorjit")
    return os.path.realpath(root)


def cache_directory(name, label, fallback):
    """``<cache root>/<name>``, created mode 0700; None (with one warning naming the
    ``label`` and what happens instead, ``fallback``) if it is unsafe or cannot be made.
    Everything is checked before anything is created; symbolic links are resolved first."""
    root = cache_root()
    path = os.path.join(root, name)
    parent = _existing_ancestor(root)
    if parent == root and not _safe_dir(root):
        _warn_once(f"tensorjit: not using the {label} {root!r}: it is not owned by this "
                   f"user or is writable by others; {fallback}")
        return None
    if parent != root and not _safe_parent(parent):
        _warn_once(f"tensorjit: not creating the {label} in {parent!r}: another user can "
                   f"write there; {fallback}")
        return None
    try:
        for p in (root, path):
            if not os.path.isdir(p):
                os.makedirs(p, mode=0o700, exist_ok=True)
                os.chmod(p, 0o700)            # whatever the umask
    except OSError as exc:
        _warn_once(f"tensorjit: cannot create the {label} {path!r} ({exc}); {fallback}")
        return None
    for p in (root, path):
        if not _safe_dir(p):
            _warn_once(f"tensorjit: not using the {label} {p!r}: it is not owned by this "
                       f"user or is writable by others; {fallback}")
            return None
    return path


def _existing_ancestor(path):
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return path


def _safe_parent(path):
    try:
        st = os.stat(path)
    except OSError:
        return False
    if not hasattr(os, "getuid") or st.st_uid == os.getuid():
        return True
    return bool(st.st_mode & stat.S_ISVTX) or not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _safe_dir(path):
    try:
        st = os.stat(path)
    except OSError:
        return False
    if not stat.S_ISDIR(st.st_mode):
        return False
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


_warned = set()


def _warn_once(message):
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, RuntimeWarning, stacklevel=4)
