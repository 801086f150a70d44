"""MindSpore's operator classes (``ops.MatMul(transpose_b=True)(x, y)``): constructed with
attributes, called with tensors. They are made by one factory from a table row -- the
class name, the function computing the op with the functional API, and the attributes
with their defaults -- so every class is the functional op it names, and behaves the same
eagerly and in every capture mode."""
import inspect

__all__ = ["OpPrimitive", "operator_class"]


class OpPrimitive:
    """Base of the generated operator classes (MindSpore's ``Primitive`` interface: a
    ``name``, the attributes in ``attrs`` and as instance attributes, ``add_prim_attr``)."""
    _attributes = {}          # attribute name -> default, in constructor order
    _compute = None           # function(*inputs, **attributes)
    _validate = None          # function(class name, attrs): raises on a wrong attribute

    def __init__(self, *args, **kwargs):
        signature = type(self).__signature__
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as exc:
            raise TypeError(f"{type(self).__name__}: {exc}") from None
        bound.apply_defaults()
        self.attrs = dict(bound.arguments)
        if type(self)._validate is not None:      # MindSpore checks attributes when made
            type(self)._validate(type(self).__name__, self.attrs)
        for key, value in self.attrs.items():
            object.__setattr__(self, key, value)
        self.instance_name = ""

    @property
    def name(self):
        return type(self).__name__

    def __setattr__(self, key, value):
        object.__setattr__(self, key, value)
        if key in type(self)._attributes:
            self.attrs[key] = value

    def add_prim_attr(self, name, value):
        """Set an attribute (MindSpore's way to configure a primitive after construction)."""
        setattr(self, name, value)
        self.attrs[name] = value
        return self

    def del_prim_attr(self, name):
        self.attrs.pop(name, None)
        return self

    def set_prim_instance_name(self, instance_name):
        self.instance_name = instance_name
        return self

    def init_prim_io_names(self, inputs, outputs):
        """Accepted for compatibility: the inputs are those of the call."""
        self.input_names, self.output_names = list(inputs), list(outputs)

    def shard(self, *args, **kwargs):
        return self         # parallel strategies do not apply on one CPU process

    def set_device(self, device_target):
        return self

    def recompute(self, mode=True):
        return self

    def __call__(self, *inputs, **kw_inputs):
        attributes = {k: self.attrs[k] for k in type(self)._attributes}
        return type(self)._compute(*inputs, **kw_inputs, **attributes)

    def __repr__(self):
        shown = ", ".join(f"{k}={v}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]" + (f"<{shown}>" if shown else "")


def operator_class(name, compute, attributes=None, doc=None):
    """A subclass of ``OpPrimitive`` named ``name``: ``name(**attributes)(*inputs)`` is
    ``compute(*inputs, **attributes)``."""
    attributes = dict(attributes or {})
    init_signature = inspect.Signature(
        [inspect.Parameter(k, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=v)
         for k, v in attributes.items()])
    namespace = {
        "_attributes": attributes,
        "_compute": staticmethod(compute),
        "_validate": staticmethod(compute.validate_attributes)
        if hasattr(compute, "validate_attributes") else None,
        "__signature__": init_signature,
        "__doc__": doc or _describe(name, compute, attributes),
        "__module__": "tensorjit.ops.operations",
        "__qualname__": name,
    }
    return type(name, (OpPrimitive,), namespace)


def _describe(name, compute, attributes):
    summary = (inspect.getdoc(compute) or "").split("\n\n")[0]
    attrs = ", ".join(f"{k}={v!r}" for k, v in attributes.items())
    return f"``{name}({attrs})``: {summary}" if summary else f"``{name}({attrs})``"
