"""Interpreter frames, their frozen snapshots, and which code objects can be followed."""
import dis

from .values import freeze, thaw
from .versions import unsupported_opcode_reason, instruction_line, qualname, initial_cells

_scan_cache = {}


def unsupported_reason(code, handlers):
    """Why the interpreter cannot follow ``code`` (None if it can): an opcode it does not
    follow (versions.UNSUPPORTED_OPCODES) or has no handler for."""
    reason = _scan_cache.get(code)
    if reason is not None or code in _scan_cache:
        return reason
    reason = None
    if code.co_flags & (0x20 | 0x80 | 0x100 | 0x200):
        reason = "a generator or coroutine"
    else:
        for inst in dis.get_instructions(code):
            reason = unsupported_opcode_reason(inst.opname)
            if reason is None and not hasattr(handlers, inst.opname):
                reason = f"the opcode {inst.opname}"
            if reason is not None:
                break
    _scan_cache[code] = reason
    return reason


_instruction_cache = {}


def instructions_of(code):
    cached = _instruction_cache.get(code)
    if cached is None:
        insts = list(dis.get_instructions(code))
        index_of = {inst.offset: i for i, inst in enumerate(insts)}
        cached = _instruction_cache[code] = (insts, index_of)
    return cached


class Frame:
    """One function activation being interpreted."""
    __slots__ = ("code", "insts", "index_of", "globals", "func", "locals", "cells", "stack",
                 "ip", "kw_names")

    def __init__(self, code, fn_globals, func, locals_, cells=None, stack=None, ip=0):
        self.code = code
        self.insts, self.index_of = instructions_of(code)
        self.globals = fn_globals
        self.func = func
        self.locals = locals_
        self.cells = cells if cells is not None else {}
        self.stack = stack if stack is not None else []
        self.ip = ip
        self.kw_names = None

    def jump(self, offset):
        self.ip = self.index_of[offset]

    def location(self):
        return f"{self.code.co_filename}:{self.line()}"

    def line(self):
        """The line of the instruction being interpreted."""
        index = min(max(self.ip - 1, 0), len(self.insts) - 1)
        for inst in reversed(self.insts[:index + 1]):
            line = instruction_line(inst)
            if line:
                return line
        return self.code.co_firstlineno


class FrameSnapshot:
    """Frozen frames (outermost first) from which execution can resume."""
    __slots__ = ("frames",)

    def __init__(self, frames):
        self.frames = frames        # [(code, globals, func, locals, cells, stack, ip)]

    def with_top(self, ip=None, push=()):
        """A copy whose innermost frame resumes at ``ip`` with ``push`` on its stack."""
        frames = list(self.frames)
        code, g, func, locals_, cells, stack, old_ip = frames[-1]
        frames[-1] = (code, g, func, locals_, cells, list(stack) + list(push),
                      old_ip if ip is None else ip)
        return FrameSnapshot(frames)


def freeze_frames(frames, export, owned, weak_ids=frozenset()):
    memo = {}
    frozen = []
    for f in frames:
        frozen.append((f.code, f.globals, f.func,
                       {k: freeze(v, export, owned, memo, weak_ids) for k, v in f.locals.items()},
                       {k: freeze(c, export, owned, memo, weak_ids) for k, c in f.cells.items()},
                       [freeze(v, export, owned, memo, weak_ids) for v in f.stack], f.ip))
    return FrameSnapshot(frozen), memo


def thaw_frames(snapshot, resolve, owned):
    memo = {}
    frames = []
    for code, g, func, locals_, cells, stack, ip in snapshot.frames:
        frames.append(Frame(code, g, func,
                            {k: thaw(v, resolve, owned, memo) for k, v in locals_.items()},
                            {k: thaw(c, resolve, owned, memo) for k, c in cells.items()},
                            [thaw(v, resolve, owned, memo) for v in stack], ip))
    return frames


def initial_frame(func, args, kwargs):
    """A frame at the start of ``func`` called with ``args`` and ``kwargs``."""
    code = func.__code__
    locals_ = bind_arguments(func, args, kwargs)
    cells = initial_cells(code, locals_)
    if func.__closure__:
        cells.update(zip(code.co_freevars, func.__closure__))
    return Frame(code, func.__globals__, func, locals_, cells)


def bind_arguments(func, args, kwargs):
    """Map call arguments to ``func``'s parameters as CPython would (raising its errors)."""
    code = func.__code__
    sig_args = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    positional = code.co_varnames[:code.co_argcount]
    kwonly = code.co_varnames[code.co_argcount:code.co_argcount + code.co_kwonlyargcount]
    has_varargs = bool(code.co_flags & 0x04)
    has_varkw = bool(code.co_flags & 0x08)
    name = qualname(code, func)
    locals_ = {}
    posonly = code.co_posonlyargcount
    if len(args) > len(positional) and not has_varargs:
        raise TypeError(f"{name}() takes {len(positional)} positional arguments but "
                        f"{len(args)} were given")
    for pname, value in zip(positional, args):
        locals_[pname] = value
    extra_kw = {}
    for key, value in kwargs.items():
        if key in positional[posonly:] or key in kwonly:
            if key in locals_:
                raise TypeError(f"{name}() got multiple values for argument {key!r}")
            locals_[key] = value
        elif has_varkw:
            extra_kw[key] = value
        else:
            raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
    defaults = func.__defaults__ or ()
    first_default = len(positional) - len(defaults)
    for i, pname in enumerate(positional):
        if pname not in locals_:
            if i >= first_default:
                locals_[pname] = defaults[i - first_default]
            else:
                raise TypeError(f"{name}() missing required positional argument {pname!r}")
    kwdefaults = func.__kwdefaults__ or {}
    for pname in kwonly:
        if pname not in locals_:
            if pname in kwdefaults:
                locals_[pname] = kwdefaults[pname]
            else:
                raise TypeError(f"{name}() missing required keyword-only argument {pname!r}")
    index = len(sig_args)
    if has_varargs:
        locals_[code.co_varnames[index]] = tuple(args[len(positional):])
        index += 1
    if has_varkw:
        locals_[code.co_varnames[index]] = extra_kw
    assert all(k in locals_ for k in sig_args)
    return locals_


def packed_arguments(code, locals_, cells=None):
    """The *args tuple and **kwargs dict a call created (fresh on every call). Up to 3.10
    one an inner function captures (a comprehension over ``args``) lives in its cell."""
    index = code.co_argcount + code.co_kwonlyargcount
    packed = []
    for flag in (0x04, 0x08):
        if code.co_flags & flag:
            name = code.co_varnames[index]
            packed.append(locals_[name] if name in locals_ else cells[name].cell_contents)
            index += 1
    return packed
