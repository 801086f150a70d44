"""MindSpore's ``GradOperation`` (``mindspore.ops.composite.GradOperation``): a
higher-order function turning a function or Cell into its gradient function.

    GradOperation(get_all=False, get_by_list=False, sens_param=False)(fn, weights)(*args)

What the gradient function returns (MindSpore 2.10's graph mode, checked against it by
tests/conformance):

* neither flag: the gradient of the first positional argument (``()`` when that argument
  holds no tensor);
* ``get_all``: a tuple with the gradient of every positional argument that holds tensors
  (Python numbers and other values are skipped); a tuple / list / dict argument gets a
  gradient of the same structure;
* ``get_by_list``: the gradients of ``weights`` -- a tuple for a ParameterTuple, list or
  tuple, the bare gradient for one Parameter; without ``weights``, a Cell's
  ``trainable_params()`` (a function then has none: ``()``);
* both: ``(input gradients, weight gradients)``;
* ``sens_param``: the last positional argument is the sensitivity (the output's
  cotangent; a tuple of them for several outputs), cast to each output's dtype.

Every tensor the function returns (in tuples, lists, dict values) is differentiated with
sensitivity one; other outputs contribute nothing. Integer and bool tensors follow
``transforms.differentiate``'s rule (gradients in the input's dtype)."""
from ..tensor import Parameter
from .transforms import (differentiate, differentiable, normalize_weights, fn_name,
                         takes_sensitivity)


def _flag(name, value):
    if not isinstance(value, bool):
        raise TypeError(f"For 'GradOperation', the '{name}' should be bool, but got "
                        f"{type(value).__name__}")
    return value


class GradOperation:
    """``GradOperation(get_all=False, get_by_list=False, sens_param=False)``: see the
    module's documentation."""

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        self.get_all = _flag("get_all", get_all)
        self.get_by_list = _flag("get_by_list", get_by_list)
        self.sens_param = _flag("sens_param", sens_param)

    def __repr__(self):
        return (f"GradOperation(get_all={self.get_all}, get_by_list={self.get_by_list}, "
                f"sens_param={self.sens_param})")

    def __call__(self, fn, weights=None):
        if not callable(fn):
            raise TypeError(f"GradOperation: the function to differentiate must be callable, "
                            f"got {type(fn).__name__}")
        op = self

        def gradient_fn(*args, **kwargs):
            return op._gradients(fn, weights, args, kwargs)

        gradient_fn.__wrapped__ = fn
        gradient_fn._tj_rebuild = lambda inner: op(inner, weights)
        gradient_fn.__name__ = gradient_fn.__qualname__ = f"grad_of_{fn_name(fn)}"
        return takes_sensitivity(gradient_fn) if self.sens_param else gradient_fn

    def _weights(self, fn, weights):
        """(the weights to differentiate, whether the result is one bare gradient)."""
        if not self.get_by_list:
            return None, False
        if weights is None:
            trainable = getattr(fn, "trainable_params", None)
            return (tuple(trainable()) if callable(trainable) else ()), False
        return normalize_weights(weights), isinstance(weights, Parameter)

    def _gradients(self, fn, weights, args, kwargs):
        name = f"GradOperation of {fn_name(fn)}"
        sens = None
        if self.sens_param:
            if not args:
                raise TypeError(f"{name}: sens_param=True needs the sensitivity as the last "
                                f"positional argument, got no arguments")
            args, sens = args[:-1], args[-1]
        weights, bare_weight = self._weights(fn, weights)
        if self.get_all:
            positions = tuple(i for i, a in enumerate(args) if differentiable(a))
        else:
            positions = (0,) if args and differentiable(args[0]) else ()
        _, arg_grads, weight_grads = differentiate(
            fn, args, kwargs, positions, weights, name, sens=sens, sens_given=self.sens_param)
        if self.get_all:
            inputs = tuple(arg_grads)
        else:
            inputs = arg_grads[0] if arg_grads else ()
        if not self.get_by_list:
            return inputs
        weight_grads = weight_grads[0] if bare_weight else tuple(weight_grads)
        return (inputs, weight_grads) if self.get_all else weight_grads
