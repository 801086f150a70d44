"""Python's own errors, worded as the running CPython words them, for the places where a
capture does what the interpreter would (binding arguments, unpacking, reading an unbound
local): a program's error then has one message eagerly and in every capture mode.

Where the wording is CPython's business (argument binding, unpacking), the error is made by
CPython itself, on a stand-in that does nothing else."""
import functools
import sys
import types

_FILENAME = "<tensorjit python_errors>"      # (not user code: capture/user_code.py)


def unbound_local(name, reason=None):
    """``UnboundLocalError`` for reading local ``name`` before it is assigned; ``reason``
    (why it is unbound, e.g. assigned on one path of a tensor ``if``) becomes a note."""
    if sys.version_info >= (3, 11):
        error = UnboundLocalError(f"cannot access local variable {name!r} where it is not "
                                  f"associated with a value")
        if reason:
            error.add_note(f"{name!r} is not defined here: {reason}")
    else:
        error = UnboundLocalError(f"local variable {name!r} referenced before assignment")
    return error


def unbound_free(name):
    if sys.version_info >= (3, 11):
        return NameError(f"cannot access free variable {name!r} where it is not associated "
                         f"with a value in enclosing scope")
    return NameError(f"free variable {name!r} referenced before assignment in enclosing "
                     f"scope")


def binding_error(func, args, kwargs, fallback):
    """The TypeError CPython raises when ``func`` is called with ``args`` / ``kwargs``
    that do not fit its parameters (``fallback`` if, unexpectedly, they fit)."""
    try:
        stand_in = _stand_in(func.__code__)(func.__defaults__, func.__kwdefaults__)
        stand_in.__qualname__ = func.__qualname__     # (3.10 words its errors with it)
        stand_in(*args, **kwargs)
    except TypeError as error:
        return error
    return fallback


@functools.lru_cache(maxsize=256)
def _stand_in(code):
    """A function with ``code``'s parameters and names, whose body does nothing."""
    names = code.co_varnames
    n_pos, n_kw = code.co_argcount, code.co_kwonlyargcount
    params = list(names[:n_pos])
    if code.co_posonlyargcount:
        params.insert(code.co_posonlyargcount, "/")
    index = n_pos + n_kw
    if code.co_flags & 0x04:
        params.append("*" + names[index])
        index += 1
    elif n_kw:
        params.append("*")
    params += names[n_pos:n_pos + n_kw]
    if code.co_flags & 0x08:
        params.append("**" + names[index])
    namespace = {}
    exec(compile(f"def stand_in({', '.join(params)}):\n    pass\n", _FILENAME, "exec"),
         namespace)
    stub = namespace["stand_in"].__code__.replace(co_name=code.co_name)
    if sys.version_info >= (3, 11):
        stub = stub.replace(co_qualname=code.co_qualname)

    def make(defaults, kwdefaults):
        fn = types.FunctionType(stub, {}, code.co_name, defaults)
        fn.__kwdefaults__ = kwdefaults
        return fn
    return make


@functools.lru_cache(maxsize=64)
def _unpacker(count):
    targets = ", ".join(f"v{i}" for i in range(count))
    namespace = {}
    exec(compile(f"def unpack(values):\n    {targets}, = values\n", _FILENAME, "exec"),
         namespace)
    return namespace["unpack"]


def unpack_error(items, count):
    """The ValueError CPython raises unpacking ``items`` into ``count`` targets."""
    try:
        _unpacker(count)(items)
    except ValueError as error:
        return error
    return ValueError(f"not enough values to unpack (expected {count}, got {len(items)})")
