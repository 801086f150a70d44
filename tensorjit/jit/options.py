"""Validation of ``jit``'s arguments, up front, with errors that list the valid values."""
from ..passes.pipeline import LEVELS
from ..backend import BACKENDS
from ..capture.bytecode.versions import check_version

CAPTURE_MODES = ("ast", "bytecode", "trace")
# option name -> allowed values (None: any bool)
OPTIONS = {
    "exec_order": ("bfs", "dfs"),
    "disable_format_transform": None,
    "infer_boost": ("on", "off"),
    "ge_options": dict,
}


class JitOptions:
    __slots__ = ("capture_mode", "jit_level", "backend", "fullgraph", "dynamic",
                 "static_argnums", "static_argnames", "options")

    def key(self):
        return (self.capture_mode, self.jit_level, self.backend, self.fullgraph,
                self.dynamic, self.static_argnums, self.static_argnames,
                tuple(sorted((k, repr(v)) for k, v in self.options.items())))


def _choice(name, value, allowed):
    if value not in allowed:
        raise ValueError(f"jit: {name} must be one of {', '.join(repr(a) for a in allowed)}; "
                         f"got {value!r}")
    return value


def _tuple_of(kind, name, value, plural):
    """None, one ``kind`` or a sequence of them, as a tuple."""
    if value is None:
        return ()
    values = (value,) if isinstance(value, kind) else tuple(value)
    if not all(isinstance(v, kind) for v in values):
        raise ValueError(f"jit: {name} must be {plural}, got {value!r}")
    return values


def _dynamic(value):
    """``dynamic``: None (automatic), or MindSpore's 0 / 1 (also False / True)."""
    if value is None:
        return None
    if type(value) in (bool, int) and value in (0, 1):
        return bool(value)
    raise ValueError(f"jit: dynamic must be None (automatic), 0 / False (static shapes) or "
                     f"1 / True (dynamic shapes), got {value!r}")


def validate(capture_mode, jit_level, backend, fullgraph, dynamic, static_argnums,
             static_argnames, options):
    opts = JitOptions()
    opts.capture_mode = _choice("capture_mode", capture_mode, CAPTURE_MODES)
    if capture_mode == "bytecode":
        check_version()      # a clear error now, not at the first call
    opts.jit_level = _choice("jit_level", jit_level, LEVELS)
    backend = backend or "ms_backend"
    opts.backend = _choice("backend", backend, BACKENDS)
    if not isinstance(fullgraph, bool):
        raise ValueError(f"jit: fullgraph must be True or False, got {fullgraph!r}")
    opts.fullgraph, opts.dynamic = fullgraph, _dynamic(dynamic)
    opts.static_argnums = _tuple_of(int, "static_argnums", static_argnums, "ints")
    opts.static_argnames = _tuple_of(str, "static_argnames", static_argnames, "strings")
    for name, value in options.items():
        if name not in OPTIONS:
            raise ValueError(f"jit: unknown option {name!r}; valid options are "
                             f"{', '.join(sorted(OPTIONS))}")
        allowed = OPTIONS[name]
        if allowed is None:
            if not isinstance(value, bool):
                raise ValueError(f"jit: option {name} must be True or False, got {value!r}")
        elif allowed is dict:
            if not isinstance(value, dict):
                raise ValueError(f"jit: option {name} must be a dict, got {value!r}")
        else:
            _choice(f"option {name}", value, allowed)
    opts.options = dict(options)
    return opts
