"""MindSpore's other decorators around ``jit``: ``ms_function`` (its name before 2.0),
``jit_class`` (user classes a graph may read) and ``lazy_inline`` (an Ascend compile-time
hint). Each keeps MindSpore's checks and effects on the user's objects; none changes what a
graph computes."""
import functools
import inspect
import warnings


def ms_function(fn=None, input_signature=None, hash_args=None, jit_config=None):
    """``mindspore.ms_function``: ``jit`` under the name MindSpore 1.x gave it (2.0 deprecated
    it, 2.10 removed it; old tutorials still use it). ``input_signature``, ``hash_args`` and
    ``jit_config`` are accepted and have no effect here: tensorjit compiles per input shapes
    and dtypes, and recompiles when a closure's value changes."""
    from . import jit
    warnings.warn("'ms_function' is MindSpore 1.x's name of 'jit': use tensorjit.jit",
                  DeprecationWarning, stacklevel=2)
    if input_signature is not None or hash_args is not None or jit_config is not None:
        warnings.warn("ms_function: input_signature, hash_args and jit_config have no effect "
                      "in tensorjit (graphs are compiled per input shapes and dtypes)",
                      stacklevel=2)
    return jit if fn is None else jit(fn)


def jit_class(cls):
    """``mindspore.jit_class``: marks a user class whose objects a compiled graph may read.
    tensorjit's captures read any object's attributes and call its methods, so the mark
    only records the intent, with MindSpore's checks: a class, and not a Cell."""
    from ..nn import Cell
    if not inspect.isclass(cls):
        raise TypeError(f"jit_class: decorates a class, got {type(cls).__name__} {cls!r}")
    if issubclass(cls, Cell):
        raise TypeError(f"jit_class: {cls.__name__} is an nn.Cell, which graphs read "
                        "without the decorator; jit_class is for other user classes")
    cls.__ms_class__ = True
    return cls


def lazy_inline(fn=None, attrs=None, policy=None):
    """``mindspore.lazy_inline``: on a Cell's ``__init__``, stores the arguments named in
    ``attrs`` as attributes of the cell, as MindSpore does. Its purpose there, compiling a
    repeated block once on Ascend, is what tensorjit's kernel cache does for every repeated
    block, so it changes nothing else."""
    if policy not in (None, "front"):
        raise ValueError(f"lazy_inline: policy must be None or 'front', got {policy!r}")
    if isinstance(attrs, str):
        attrs = [attrs]
    elif attrs is not None and not (isinstance(attrs, (list, tuple))
                                    and all(isinstance(a, str) for a in attrs)):
        raise TypeError(f"lazy_inline: attrs must be a string or a list of strings, "
                        f"got {attrs!r}")

    def decorate(init):
        if not callable(init):
            raise TypeError(f"lazy_inline: decorates a Cell's __init__, got {init!r}")
        signature = inspect.signature(init)

        @functools.wraps(init)
        def wrapped(self, *args, **kwargs):
            init(self, *args, **kwargs)
            if attrs:
                bound = signature.bind(self, *args, **kwargs)
                bound.apply_defaults()
                for name in attrs:
                    if name not in bound.arguments:
                        raise ValueError(f"lazy_inline: {name!r} is not an argument of "
                                         f"{type(self).__name__}.__init__")
                    setattr(self, name, bound.arguments[name])
        return wrapped

    return decorate if fn is None else decorate(fn)
