"""``ops.Custom(func="path/file.so:func", func_type="aot")`` on CPU: a compiled C / C++
function called through ``ctypes`` with MindSpore's documented signature

    int func(int nparam, void **params, int *ndims, int64_t **shapes, const char **dtypes,
             void *stream, void *extra)

``params`` holds the inputs, then the outputs (allocated here, C-contiguous, of the shapes
and dtypes ``out_shape`` / ``out_dtype`` give); a non-zero result is an error. A
``.cc`` / ``.cpp`` source is compiled first with the system's C++ compiler into the
per-user cache (keyed by the source's digest), as MindSpore compiles it into
``custom_kernel_meta``. ``stream`` and ``extra`` are NULL: MindSpore's CPU attributes and
workspaces (``extra``) are not offered.
"""
import ctypes
import hashlib
import os
import shutil
import subprocess
import weakref

import numpy as np

from ..files import cache_directory

__all__ = ["AotFunction"]
# each AotFunction's loaded C function (outside the object: captures watch its attributes)
_LOADED = weakref.WeakKeyDictionary()

_SOURCES = (".cc", ".cpp")
_CALL = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p),
                         ctypes.POINTER(ctypes.c_int),
                         ctypes.POINTER(ctypes.POINTER(ctypes.c_int64)),
                         ctypes.POINTER(ctypes.c_char_p), ctypes.c_void_p, ctypes.c_void_p)


def split_spec(spec):
    """``"dir/file.so:func"`` -> (path, function name), or None when malformed."""
    parts = spec.split(":")
    if len(parts) != 2 or not parts[0] or not parts[1]:
        return None
    return parts


def compile_source(path):
    """The shared library built from a C++ source file (cached by the source's digest)."""
    if not path.endswith(_SOURCES):
        raise ValueError(f"The source file must be a cc/cpp file, but get: {path}")
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:24]
    directory = cache_directory("custom_aot", "custom operator cache",
                                "the library is built in the current directory")
    directory = directory or os.path.abspath("custom_kernel_meta")
    os.makedirs(directory, exist_ok=True)
    library = os.path.join(directory, f"{os.path.basename(path)}.{digest}.so")
    if os.path.exists(library):
        return library
    compiler = shutil.which("g++") or shutil.which("c++") or shutil.which("clang++")
    if compiler is None:
        raise RuntimeError(f"Compilation error in compiling {path}: no C++ compiler "
                           f"(g++, c++, clang++) is installed")
    partial = library + f".{os.getpid()}.tmp"
    command = [compiler, "-std=c++17", "--shared", "-fPIC", "-O2",
               f"-I{os.path.dirname(path)}", "-o", partial, path]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"Compilation error in compiling {path}:\n"
                           f"{proc.stdout}{proc.stderr}")
    os.replace(partial, library)
    return library


class AotFunction:
    """The C function a ``Custom`` aot operator calls, loaded at its first call."""

    def __init__(self, spec):
        self.spec = spec
        self.path, self.name = split_spec(spec) or (None, spec)
        if self.path is not None and self.path.endswith(_SOURCES):
            self.path = compile_source(os.path.realpath(self.path))

    def _load(self):
        if self not in _LOADED:
            if self.path is None:
                raise RuntimeError(
                    f"For 'Custom' on CPU, user defined function path '{self.spec}' is "
                    f"illegal. Proper function path should follow the format of "
                    f"'dir_path/file_name:func_name'")
            path = os.path.realpath(self.path)
            if not os.path.isfile(path):
                raise RuntimeError(f"For 'Custom' on CPU, couldn't find the AOT binary "
                                   f"file: {self.path}")
            try:
                library = ctypes.CDLL(path)
                symbol = getattr(library, self.name)
            except (OSError, AttributeError) as exc:
                raise RuntimeError(f"For 'Custom' on CPU, cannot load the function "
                                   f"'{self.name}' from {path}: {exc}") from None
            _LOADED[self] = _CALL(ctypes.cast(symbol, ctypes.c_void_p).value)
        return _LOADED[self]

    def __call__(self, arrays, out_avals):
        """Run on input ``arrays``; returns the outputs (``out_avals``: ShapedArrays)."""
        function = self._load()
        inputs = [np.ascontiguousarray(a) for a in arrays]
        outputs = [np.empty(a.shape, a.dtype) for a in out_avals]
        every = inputs + outputs
        count = len(every)
        params = (ctypes.c_void_p * count)(*[a.ctypes.data for a in every])
        ndims = (ctypes.c_int * count)(*[a.ndim for a in every])
        dims = [(ctypes.c_int64 * max(a.ndim, 1))(*a.shape) for a in every]
        shapes = (ctypes.POINTER(ctypes.c_int64) * count)(
            *[ctypes.cast(d, ctypes.POINTER(ctypes.c_int64)) for d in dims])
        dtypes = (ctypes.c_char_p * count)(*[a.dtype.name.encode() for a in every])
        status = function(count, params, ndims, shapes, dtypes, None, None)
        if status != 0:
            raise RuntimeError(f"For 'Custom' on CPU, the aot function '{self.name}' of "
                               f"{self.path} returned {status} (0 means success)")
        return outputs
