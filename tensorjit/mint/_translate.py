"""One mechanism for mint's mechanical names: a MindSpore ``mint`` signature (PyTorch's
argument names) mapped onto a ``tensorjit`` function by renaming its arguments.

``translated(name, spec, target, rename, summary, example)`` builds a function whose
signature is ``spec``; a call binds its arguments to that signature (so a wrong argument is
a TypeError naming ``mint.<name>``) and calls ``target``: the leading parameters by
position, from the first renamed one (``dim`` -> ``axis``) on by keyword. An argument
renamed to ``None`` is accepted only at its default (PyTorch's ``generator=``,
``device=``): it has no meaning here.
"""
import inspect


def slice_along(x, dim, start, stop):
    """``x`` sliced to [start, stop) along ``dim`` (negative ``dim`` counts from the end)."""
    from .. import ops
    return ops.slice_axis(x, dim % x.ndim, start, stop)


def signature_of(spec):
    """The ``inspect.Signature`` written as a parameter list: ``"input, dim=None"``."""
    namespace = {}
    exec(f"def signature({spec}): pass", {}, namespace)    # the parameter list, parsed by Python
    return inspect.signature(namespace["signature"])


def bind(qualified, signature, args, kwargs):
    """The call's arguments by name, defaults filled in; a mismatch is a TypeError."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as error:
        raise TypeError(f"{qualified}{signature}: {error}") from None
    bound.apply_defaults()
    return bound.arguments


def document(function, qualified, spec, summary, example, target=None, rename=None):
    """A docstring from a table row: what it does, its signature, how it maps, an example."""
    lines = [summary, "", f"``{qualified}({spec})``" + (
        f" computes ``{target}``" if target else "") + "."]
    renamed = {k: v for k, v in (rename or {}).items() if k != v}
    if renamed:
        shown = ", ".join(f"``{k}`` -> ``{v}``" if v else f"``{k}`` (accepted only at its "
                          f"default: no meaning on CPU)" for k, v in renamed.items())
        lines.append(f"Arguments translated: {shown}.")
    lines += ["", ">>> import tensorjit as ms", ">>> from tensorjit import mint",
              f">>> out = {example}"]
    function.__doc__ = "\n".join(lines)
    return function


def translated(name, spec, target, rename=None, summary="", example=None, module="mint"):
    """``module.name`` with signature ``spec``, computed by ``target`` (see the module doc)."""
    signature = signature_of(spec)
    rename = dict(rename or {})
    qualified = f"{module}.{name}"
    dropped = {k: signature.parameters[k].default for k, v in rename.items() if v is None}
    # parameters the target takes in the same place: passed by position (the target's own
    # names may differ); renamed ones, and every one after them, by keyword
    by_position = set()
    for key, parameter in signature.parameters.items():
        if key in rename or parameter.kind is not parameter.POSITIONAL_OR_KEYWORD:
            break
        by_position.add(key)

    def function(*args, **kwargs):
        arguments = bind(qualified, signature, args, kwargs)
        positional, call = [], {}
        for key, value in arguments.items():
            if key in dropped:
                if value is not dropped[key]:
                    raise ValueError(f"{qualified}: {key}={value!r} is not supported "
                                     f"(only the default {dropped[key]!r})")
                continue
            if key in by_position and not call:
                positional.append(value)
            else:
                call[rename.get(key, key)] = value
        return target(*positional, **call)

    function.__name__ = function.__qualname__ = name
    function.__module__ = "tensorjit." + module
    function.__signature__ = signature
    target_name = getattr(target, "__name__", "")
    target_module = getattr(target, "__module__", "") or ""
    shown = f"ops.{target_name}" if target_module.startswith("tensorjit.ops") else None
    return document(function, qualified, spec, summary or f"PyTorch-style ``{name}``.",
                    example or f"{qualified}(ms.Tensor([0.5, 1.5]))", shown, rename)
