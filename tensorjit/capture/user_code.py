"""What counts as the user's code -- one answer for every capture mode.

  * *internal*: tensorjit's own code, except ``tensorjit.bench`` (its workloads are written
    the way users write models). Captures call it directly and it records primitives; its
    reads of shapes are bookkeeping, not decisions of the user's program.
  * *library*: the standard library and installed packages.
  * *user code*: everything else -- files of the user's project, and code typed into a
    REPL or made by ``exec`` (no real file). ast mode converts it, bytecode mode follows
    its bytecode, and error messages and IR notes name its file and line.
"""
import os
import sys
import sysconfig

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_USER_INSIDE_PACKAGE = os.path.join(_PACKAGE, "bench") + os.sep


def _library_prefixes():
    paths = sysconfig.get_paths()
    prefixes = {_PACKAGE + os.sep}
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        if paths.get(key):
            prefixes.add(os.path.abspath(paths[key]) + os.sep)
    for entry in sys.path:
        if entry.endswith(("site-packages", "dist-packages")):
            prefixes.add(os.path.abspath(entry) + os.sep)
    return tuple(sorted(prefixes))


_NOT_USER_PREFIXES = _library_prefixes()       # tensorjit itself and the libraries


def is_internal_module(name):
    """A module name inside tensorjit that is not user-style code."""
    name = name or ""
    return (name == "tensorjit" or name.startswith("tensorjit.")) and \
        not name.startswith("tensorjit.bench")


# absolute file name -> is it user code (asked for every frame of every recorded node)
_USER_FILES = {}


def is_user_file(filename):
    known = _USER_FILES.get(filename)
    if known is not None:
        return known
    if filename.startswith("<"):
        # typed into a REPL or made by exec(): user code whose source may be missing;
        # tensorjit's generated code names itself <tensorjit ...>
        return not filename.startswith("<tensorjit")
    path = os.path.abspath(filename)
    user = path.startswith(_USER_INSIDE_PACKAGE) or not path.startswith(_NOT_USER_PREFIXES)
    if os.path.isabs(filename):          # (a relative name depends on the directory)
        _USER_FILES[filename] = user
    return user


def is_user_code(obj):
    """Whether a function, code object or frame belongs to user code."""
    code = getattr(obj, "__code__", None) or getattr(obj, "f_code", None) or obj
    filename = getattr(code, "co_filename", None)
    return filename is not None and is_user_file(filename)


def user_frame(skip=1):
    """The innermost frame of user code on the current stack (None if there is none)."""
    frame = sys._getframe(skip)
    while frame is not None:
        if is_user_code(frame):
            return frame
        frame = frame.f_back
    return None
