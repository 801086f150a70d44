"""The on-disk cache of compiled kernels.

Sources and Numba's cache files live in the per-user cache directory (``files.py``:
``$TENSORJIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/tensorjit``, else ``~/.cache/tensorjit``),
subdirectory ``kernels``, created with mode 0700; writes are atomic (temp file +
``os.replace``); files are 0600 and directories 0700 whatever the umask; a directory that is not owned by the user or is writable by others, or would be
created where others can write, is not used, and one that cannot be written (read-only,
disk full) is not either: kernels then compile in memory, with one warning. A corrupted
entry is recompiled with a warning.
"""
import os
import sys
import types
import warnings

from ...files import cache_directory, write_atomically
from .config import STATS


def cache_dir():
    """The per-user kernel directory (``files.cache_directory``), or None if it is unsafe
    or unusable."""
    return cache_directory("kernels", "kernel cache", "fused kernels are compiled in memory")


_warned = set()


def warn_once(message):
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, RuntimeWarning, stacklevel=3)


def purge(directory, stem):
    pycache = os.path.join(directory, "__pycache__")
    if os.path.isdir(pycache):
        for name in os.listdir(pycache):
            if name.startswith(stem + "."):
                try:
                    os.unlink(os.path.join(pycache, name))
                except OSError:
                    pass


_modules = {}          # digest -> dispatcher


def index_path(directory, stem, source):
    """Where Numba writes the cache index of ``source``'s ``kernel`` for this Python: named
    by the module, the function and its first line (the ``@njit`` decorator's)."""
    line = next((k for k, text in enumerate(source.splitlines(), 1)
                 if text.startswith("@njit")), 0)
    tag = f"py{sys.version_info[0]}{sys.version_info[1]}"
    return os.path.join(directory, "__pycache__", f"{stem}.kernel-{line}.{tag}.nbi")


def load_module(directory, stem, source, fresh=False):
    """The kernel from the cache directory (its source written there if absent or
    corrupt). The source is compiled here, never from a ``.pyc``: a stale or damaged
    bytecode file cannot break the next process. Raises OSError if the directory cannot
    be written (the caller compiles in memory)."""
    path = os.path.join(directory, stem + ".py")
    text = None
    try:
        with open(path) as f:
            text = f.read()
    except (OSError, UnicodeDecodeError):
        pass
    if text != source:
        if text is not None:
            warnings.warn(f"tensorjit: kernel cache entry {path} is corrupted; recompiling",
                          RuntimeWarning, stacklevel=4)
            STATS["recovered"] += 1
        purge(directory, stem)
        write_atomically(path, lambda f: f.write(source), binary=False)
    name = f"_tensorjit_kernel_{stem}"
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module        # Numba's cache records the defining module's name
    exec(compile(source, path, "exec", dont_inherit=True), module.__dict__)
    return module.kernel


def private_files(directory, stem):
    """Make the files Numba cached for ``stem`` readable by this user only (Numba creates
    them as the umask says; under umask 000 they would be 0666)."""
    pycache = os.path.join(directory, "__pycache__")
    try:
        if os.path.isdir(pycache):
            os.chmod(pycache, 0o700)
            for name in os.listdir(pycache):
                if name.startswith(stem + "."):
                    os.chmod(os.path.join(pycache, name), 0o600)
    except OSError:
        pass


def memory_module(source):
    namespace = {"__name__": "_tensorjit_kernel_mem"}
    source = source.replace("os.environ.get('TENSORJIT_NUMBA_NOCACHE') != '1'", "False")
    exec(compile(source, "<tensorjit fused kernel>", "exec"), namespace)
    return namespace["kernel"]
