"""The on-disk cache of compiled kernels.

Sources and Numba's cache files live in a per-user directory (``$TENSORJIT_CACHE_DIR``,
else ``$XDG_CACHE_HOME/tensorjit``, else ``~/.cache/tensorjit``) created with mode 0700;
writes are atomic (temp file + ``os.replace``); a directory that is not owned by the user
or is writable by others is not used (kernels compile in memory, with a warning); a
corrupted entry is recompiled with a warning.
"""
import importlib.util
import os
import stat
import sys
import tempfile
import warnings

from .config import STATS


def cache_dir():
    """The per-user kernel directory, created mode 0700; None if it is unsafe/unusable."""
    root = os.environ.get("TENSORJIT_CACHE_DIR")
    if not root:
        xdg = os.environ.get("XDG_CACHE_HOME")
        root = os.path.join(xdg if xdg else os.path.join(os.path.expanduser("~"), ".cache"),
                            "tensorjit")
    path = os.path.join(root, "kernels")
    try:
        os.makedirs(root, mode=0o700, exist_ok=True)
        os.makedirs(path, mode=0o700, exist_ok=True)
    except OSError as exc:
        _warn_once(f"tensorjit: cannot create the kernel cache {path!r} ({exc}); fused "
                   f"kernels are compiled in memory")
        return None
    for p in (root, path):
        if not _safe_dir(p):
            _warn_once(f"tensorjit: not using the kernel cache {p!r}: it is not owned by "
                       f"this user or is writable by others")
            return None
    return path


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
        warnings.warn(message, RuntimeWarning, stacklevel=3)


def _atomic_write(path, text):
    directory = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".py")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


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


def load_module(directory, stem, source, fresh=False):
    """Import the kernel module from the cache directory (writing it if absent/corrupt)."""
    path = os.path.join(directory, stem + ".py")
    text = None
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        pass
    if text != source:
        if text is not None:
            warnings.warn(f"tensorjit: kernel cache entry {path} is corrupted; recompiling",
                          RuntimeWarning, stacklevel=4)
            STATS["recovered"] += 1
        purge(directory, stem)
        _atomic_write(path, source)
    name = f"_tensorjit_kernel_{stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module        # Numba's cache records the defining module's name
    spec.loader.exec_module(module)
    return module.kernel


def memory_module(source):
    namespace = {"__name__": "_tensorjit_kernel_mem"}
    source = source.replace("os.environ.get('TENSORJIT_NUMBA_NOCACHE') != '1'", "False")
    exec(compile(source, "<tensorjit fused kernel>", "exec"), namespace)
    return namespace["kernel"]
