"""Errors of ast capture."""
import linecache


class JitSyntaxError(SyntaxError):
    """A construct ast mode cannot put into a graph, met with ``fullgraph=True``.

    Like a ``SyntaxError`` it carries the user's file and line (``filename``, ``lineno``,
    ``text``), so tracebacks show the offending source line."""

    def __init__(self, construct, filename, lineno, detail=""):
        where = f"{filename}:{lineno}" if filename else "<unknown>"
        message = (f"jit(capture_mode='ast', fullgraph=True): {construct} is not supported "
                   f"in a graph, at {where}")
        if detail:
            message += f" ({detail})"
        message += (". Rewrite it, move it out of the jitted function, or use "
                    "fullgraph=False to run that statement as Python (JIT fallback)")
        text = linecache.getline(filename, lineno) if filename and lineno else None
        super().__init__(message, (filename, lineno, None, text))
        self.construct = construct
        self.location = where


class SourceUnavailableError(RuntimeError):
    """ast mode needs the source of a function and cannot get it."""

    def __init__(self, name, why=""):
        detail = f" ({why})" if why else ""
        super().__init__(
            f"jit(capture_mode='ast') needs the Python source of {name!r}, which is not "
            f"available{detail}: functions typed into an interactive session or created by "
            f"exec()/eval() have no source file. Put it in a .py file, or use "
            f"capture_mode='trace' or capture_mode='bytecode', which work without source.")


class Unsupported(Exception):
    """Raised inside a capture by a construct that cannot enter a graph. With
    ``fullgraph=False`` the enclosing top-level statement runs as Python instead."""

    def __init__(self, construct, location, detail=""):
        super().__init__(f"{construct} at {location}" + (f" ({detail})" if detail else ""))
        self.construct = construct
        self.location = location
        self.detail = detail
