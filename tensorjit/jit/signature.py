"""The jitted callable takes exactly the user function's parameters, so Python itself binds
arguments (and reports a wrong argument count in the user's terms) at no cost to us."""
import inspect


class CallSignature:
    def __init__(self, params_source, positional, varargs, kwonly, varkw, defaults):
        self.params_source = params_source   # "a, b=_tj_default_b, *args, **kwargs"
        self.positional = positional         # names bound positionally
        self.varargs = varargs
        self.kwonly = kwonly
        self.varkw = varkw
        self.defaults = defaults             # global name -> default value

    @property
    def simple_arity(self):
        """Number of parameters when they are all plain positional ones, else None."""
        if self.varargs or self.kwonly or self.varkw:
            return None
        return len(self.positional)

    def args_expr(self):
        parts = "".join(f"{n}, " for n in self.positional)
        expr = f"({parts})"
        return f"{expr} + {self.varargs}" if self.varargs else expr

    def kwargs_expr(self):
        items = ", ".join(f"{n!r}: {n}" for n in self.kwonly)
        if self.varkw:
            return "{" + items + (", " if items else "") + f"**{self.varkw}" + "}"
        return "{" + items + "}"


GENERIC = CallSignature("*args, **kwargs", [], "args", [], "kwargs", {})


def call_signature(target, drop_first=False):
    """The signature to give the jitted callable (``drop_first`` for unbound ``self``)."""
    try:
        sig = inspect.signature(target)
    except (TypeError, ValueError):
        return GENERIC
    params = list(sig.parameters.values())
    if drop_first and params:
        params = params[1:]
    parts, positional, kwonly, defaults = [], [], [], {}
    varargs = varkw = None
    saw_positional_only = False
    star_written = False
    for p in params:
        text = p.name
        if p.default is not inspect.Parameter.empty:
            gname = f"_tj_default_{p.name}"
            defaults[gname] = p.default
            text += f"={gname}"
        if p.kind is inspect.Parameter.POSITIONAL_ONLY:
            saw_positional_only = True
            positional.append(p.name)
            parts.append(text)
            continue
        if saw_positional_only:
            parts.append("/")
            saw_positional_only = False
        if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
            positional.append(p.name)
        elif p.kind is inspect.Parameter.VAR_POSITIONAL:
            varargs = p.name
            text = "*" + p.name
            star_written = True
        elif p.kind is inspect.Parameter.KEYWORD_ONLY:
            if not star_written:
                parts.append("*")
                star_written = True
            kwonly.append(p.name)
        elif p.kind is inspect.Parameter.VAR_KEYWORD:
            varkw = p.name
            text = "**" + p.name
        parts.append(text)
    if saw_positional_only:
        parts.append("/")
    names = set(positional) | set(kwonly) | {varargs, varkw}
    if any(n and n.startswith("_tj_") for n in names):
        return GENERIC
    return CallSignature(", ".join(parts), positional, varargs, kwonly, varkw, defaults)
