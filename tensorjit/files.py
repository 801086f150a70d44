"""Writing a file whole or not at all: the one helper every file tensorjit writes goes
through (checkpoints, the kernel cache's sources).

``write_atomically(path, write)`` lets ``write(f)`` fill a temporary file in the same
directory, then renames it over ``path``: a reader sees the old file or the new one, never
half of one, and a failed write leaves nothing behind.
"""
import os
import tempfile


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
