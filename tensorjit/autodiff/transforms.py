"""``grad``, ``value_and_grad`` and ``vjp`` (MindSpore / JAX conventions) on the tape.

``differentiate`` is the one place a function is run on a tape and differentiated; the
transforms here and ``GradOperation`` (``grad_operation.py``) only choose what to
differentiate and how to shape the result.

Gradients of every dtype follow MindSpore: each output tensor is seeded with ones of its
own dtype (an int32 output with int32 ones, a bool output with True), the VJP rules run on
the values' own dtypes (integer arithmetic for integers, wrapping as NumPy does), and the
gradient reaching an input is cast to that input's dtype (``Tape.backward``): so
``grad(lambda x, y: x * y + x, grad_position=(0, 1))`` at int32 (3, 5) is int32 (6, 3), and
a bool input gets True where its gradient is non-zero. A cast's gradient is cast back to
the cast's input dtype (``cast(x, int32)`` of a float32 ``x`` passes 1.0 through; a float
gradient reaching an integer input is truncated, as MindSpore's Cast does).
"""
import inspect

from .. import dtype as dt
from ..state import state
from ..tensor import Tensor, Parameter
from .. import ops
from .tape import Tape, _push_tape, _alias


def tensor_leaves(value, out=None):
    """The tensors in ``value`` (nested tuples, lists and dict values), in order."""
    out = [] if out is None else out
    if isinstance(value, Tensor):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            tensor_leaves(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            tensor_leaves(v, out)
    elif hasattr(type(value), "_tj_flatten"):        # a sparse tensor: its values
        out.append(value._tj_flatten()[0][-1])
    return out


def map_tensors(value, fn, sparse_as_values=False):
    """``value`` rebuilt with ``fn(tensor)`` in place of each tensor (containers keep their
    type; other leaves stay). A sparse tensor's values alone are mapped (its indices do not
    differentiate); with ``sparse_as_values`` the result is ``fn(values)`` itself, the
    gradient MindSpore gives for a sparse argument."""
    if isinstance(value, Tensor):
        return fn(value)
    if hasattr(type(value), "_tj_flatten"):
        parts, aux = value._tj_flatten()
        new = fn(parts[-1])
        return new if sparse_as_values else type(value)._tj_unflatten(aux, parts[:-1] + (new,))
    if isinstance(value, (tuple, list)):
        items = [map_tensors(v, fn, sparse_as_values) for v in value]
        return type(value)(items) if type(value) in (tuple, list) else type(value)(*items)
    if isinstance(value, dict):
        return type(value)((k, map_tensors(v, fn, sparse_as_values)) for k, v in value.items())
    return value


def differentiable(value):
    """A Tensor, or a container holding at least one."""
    return bool(tensor_leaves(value))


def _normalize_positions(grad_position, nargs, fn_name):
    if grad_position is None:
        return None
    positions = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    for p in positions:
        if not isinstance(p, int) or not -nargs <= p < nargs:
            raise IndexError(f"grad of {fn_name}: grad_position {grad_position} is out of range "
                             f"for {nargs} positional argument(s)")
    return tuple(p % nargs for p in positions)


def normalize_weights(weights):
    if weights is None:
        return None
    if isinstance(weights, Parameter) or isinstance(weights, Tensor):
        return (weights,)
    weights = tuple(weights)
    for w in weights:
        if not isinstance(w, Tensor):
            raise TypeError(f"weights must be Parameters, got {type(w).__name__}")
    return weights


def fn_name(fn):
    return getattr(fn, "__qualname__", None) or type(fn).__name__


def split_aux(output, name):
    """``has_aux=True``: (the differentiated first output, the tuple of the others). As in
    MindSpore, the function must return a tuple of at least two outputs."""
    if not isinstance(output, tuple) or len(output) < 2:
        got = f"a tuple of {len(output)}" if isinstance(output, tuple) else type(output).__name__
        raise ValueError(f"{name}: has_aux=True needs the function to return a tuple of more "
                         f"than one output (output, aux...), got {got}")
    return output[0], output[1:]


def single_or_tuple(aux):
    """MindSpore's jvp / vjp / jacfwd / jacrev give one aux output bare, several as a tuple
    (``grad`` always gives the tuple)."""
    return aux[0] if len(aux) == 1 else aux


def watched_alias(t):
    """A new tensor object for ``t`` (the same tensor given twice is two inputs), which
    every active tape knows as ``t`` (so an enclosing gradient still reaches ``t``)."""
    alias = _alias(t)
    for tape in state.tapes:
        tape.alias(alias, t)
    return alias


def _seed(out, sens, name):
    """The cotangent an output starts with: ones of its dtype, or the given sensitivity
    converted to its dtype (MindSpore casts it; the shape must match)."""
    if sens is None:
        return ops.ones_like(out)
    if not isinstance(sens, Tensor):
        raise TypeError(f"{name}: the sensitivity for an output of shape {tuple(out.shape)} "
                        f"must be a Tensor, got {type(sens).__name__}")
    if tuple(sens.shape) != tuple(out.shape):
        raise ValueError(f"{name}: the sensitivity has shape {tuple(sens.shape)}, the output "
                         f"it is for has shape {tuple(out.shape)}")
    return ops.cast(sens, out.dtype) if sens.dtype != out.dtype else sens


def _sens_leaves(output, sens, name):
    """The sensitivities paired with the output's tensors (None: ones)."""
    outs = tensor_leaves(output)
    if sens is None:
        return outs, [None] * len(outs)
    if isinstance(output, Tensor):
        return outs, [sens]
    given = tensor_leaves(sens) if isinstance(sens, (tuple, list, dict)) else [sens]
    if len(given) != len(outs):
        raise ValueError(f"{name}: {len(given)} sensitivities for {len(outs)} output "
                         f"tensors")
    return outs, given


def differentiate(fn, args, kwargs, positions, weights, name, *, has_aux=False, sens=None,
                  sens_given=False):
    """Run ``fn(*args, **kwargs)`` on a tape and differentiate its tensor outputs (the
    first output only with ``has_aux``; seeded with ``sens`` if ``sens_given``).

    ``positions``: the positional arguments to differentiate, each a Tensor or a
    container of Tensors; ``weights``: Parameters (or None). Returns ``(output,
    [gradient per position, shaped like the argument], [gradient per weight])``."""
    tape = Tape()
    args = list(args)
    counts = {}
    for t in tensor_leaves(args) + tensor_leaves(list(kwargs.values())):
        counts[id(t)] = counts.get(id(t), 0) + 1
    arg_nodes = []

    def watch(t):
        if counts[id(t)] > 1 or tape.node_of(t) is not None:
            t = watched_alias(t)         # the same tensor at two places: two inputs
        arg_nodes.append(tape.watch(t))
        return t

    for p in positions:
        args[p] = map_tensors(args[p], watch)
    weight_nodes = [tape.node_of(w) if tape.node_of(w) is not None else tape.watch(w)
                    for w in weights or ()]

    with _push_tape(tape):
        output = fn(*args, **kwargs)

    differentiated = split_aux(output, name)[0] if has_aux else output
    outs, given = _sens_leaves(differentiated, sens if sens_given else None, name)
    seeds = {}
    for out, s in zip(outs, given):
        seed = _seed(out, s, name)
        node = tape.node_of(out)
        if node is not None:
            seeds[node] = seed if node not in seeds else ops.add(seeds[node], seed)
    cts = tape.backward(seeds)

    def gradient(node, like):
        g = cts.get(node)
        if g is None:
            return ops.zeros_like(like)
        return ops.cast(g, like.dtype) if g.dtype != like.dtype else g

    nodes = iter(arg_nodes)
    arg_grads = [map_tensors(args[p], lambda t: gradient(next(nodes), t), sparse_as_values=True)
                 for p in positions]
    weight_grads = [gradient(n, w) for n, w in zip(weight_nodes, weights or ())]
    return output, arg_grads, weight_grads


def _value_and_grad_call(fn, grad_position, weights, has_aux, args, kwargs, sens_param=False,
                         return_ids=False):
    name = fn_name(fn)
    sens = None
    if sens_param:             # MindSpore: the last positional argument seeds the outputs
        if not args:
            raise TypeError(f"grad of {name}: sens_param=True needs the sensitivity as the "
                            f"last positional argument")
        args, sens = args[:-1], args[-1]
    positions = _normalize_positions(grad_position, len(args), name)
    weights = normalize_weights(weights)
    if positions is None and weights is None:
        raise ValueError(f"grad of {name}: grad_position and weights cannot both be None")
    for p in positions or ():
        if not differentiable(args[p]):
            raise TypeError(f"grad of {name}: argument {p} is a {type(args[p]).__name__}, "
                            f"not a Tensor, so it cannot be differentiated")
    output, arg_grads, weight_grads = differentiate(
        fn, args, kwargs, positions or (), weights, f"grad of {name}", has_aux=has_aux,
        sens=sens, sens_given=sens_param)
    if return_ids:             # each gradient paired with its position / parameter name
        arg_grads = [(p, g) for p, g in zip(positions or (), arg_grads)]
        weight_grads = [(w.name, g) for w, g in zip(weights or (), weight_grads)]
    if positions is not None:
        arg_grads = arg_grads[0] if isinstance(grad_position, int) else tuple(arg_grads)
    else:
        arg_grads = None
    weight_grads = tuple(weight_grads) if weights is not None else None
    if arg_grads is not None and weight_grads is not None:
        grads = (arg_grads, weight_grads)
    else:
        grads = arg_grads if arg_grads is not None else weight_grads
    return output, grads


def takes_sensitivity(wrapper):
    """A wrapper whose callers pass one more positional argument than the wrapped function
    takes (``sens_param``): its signature stops at itself (``inspect.signature`` would
    otherwise follow ``__wrapped__`` and jit would bind the wrapped function's
    parameters)."""
    wrapper.__signature__ = inspect.Signature([
        inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
        inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)])
    return wrapper


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False,
                   sens_param=False):
    """A function returning ``(fn(*args), gradients)`` (MindSpore conventions).

    A non-scalar output is differentiated as the sum of its elements (sensitivity 1), or
    seeded with the last positional argument when ``sens_param``; ``grad_position=None``
    with ``weights`` gives the weight gradients only; ``return_ids`` pairs each gradient
    with its position (arguments) or name (weights).
    """
    def value_and_grad_fn(*args, **kwargs):
        return _value_and_grad_call(fn, grad_position, weights, has_aux, args, kwargs,
                                    sens_param, return_ids)
    value_and_grad_fn.__wrapped__ = fn
    value_and_grad_fn._tj_rebuild = lambda inner: value_and_grad(
        inner, grad_position, weights, has_aux, return_ids, sens_param)
    if sens_param:
        takes_sensitivity(value_and_grad_fn)
    return value_and_grad_fn


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False, sens_param=False):
    """A function returning the gradients of ``fn``. With ``has_aux`` it returns
    ``(gradients, aux)`` where ``aux`` is the tuple of the outputs after the first, however
    many there are (MindSpore: ``grads, (z,) = grad(fn, has_aux=True)(x)``)."""
    def grad_fn(*args, **kwargs):
        output, grads = _value_and_grad_call(fn, grad_position, weights, has_aux, args, kwargs,
                                             sens_param, return_ids)
        return (grads, output[1:]) if has_aux else grads
    grad_fn.__wrapped__ = fn
    grad_fn._tj_rebuild = lambda inner: grad(inner, grad_position, weights, has_aux, return_ids,
                                             sens_param)
    if sens_param:
        takes_sensitivity(grad_fn)
    return grad_fn


def vjp(fn, *inputs, weights=None, has_aux=False):
    """MindSpore's ``vjp``: returns ``(outputs, vjp_fn)`` -- with ``has_aux``,
    ``(first output, vjp_fn, aux)`` -- where ``vjp_fn(*cotangents)`` (one per output tensor)
    gives the tuple of input gradients, or ``(input gradients, weight gradients)`` when
    ``weights`` are given. The forward pass runs once; each ``vjp_fn`` call replays the tape
    (under an enclosing tape the replay is recorded too, so it can be differentiated)."""
    name = fn_name(fn)
    weights = normalize_weights(weights)
    tape = Tape()
    for i, x in enumerate(inputs):
        if not isinstance(x, Tensor):
            raise TypeError(f"vjp of {name}: input {i} is a {type(x).__name__}, not a Tensor")
    # the inputs themselves (an enclosing tape knows them: higher-order derivatives), one
    # alias per repeated tensor so that each position is an input of its own
    inputs = [watched_alias(x) if any(x is y for y in inputs[:i]) else x
              for i, x in enumerate(inputs)]
    nodes = [tape.watch(x) for x in inputs]
    weight_nodes = [tape.node_of(w) if tape.node_of(w) is not None else tape.watch(w)
                    for w in weights or ()]
    with _push_tape(tape):
        output = fn(*inputs)
    aux = None
    if has_aux:
        output, aux = split_aux(output, f"vjp of {name}")
    outs = tensor_leaves(output)

    def vjp_fn(*cotangents):
        if len(cotangents) != len(outs):
            raise ValueError(f"vjp of {name}: expected {len(outs)} cotangent(s), got "
                             f"{len(cotangents)}")
        seeds = {}
        for o, c in zip(outs, cotangents):
            node = tape.node_of(o)
            if node is not None:      # an output given twice gets both cotangents
                seed = ops.as_tensor(c, o.dtype)
                if tuple(seed.shape) != tuple(o.shape):
                    raise ValueError(f"vjp of {name}: a cotangent of shape "
                                     f"{tuple(seed.shape)} for an output of shape "
                                     f"{tuple(o.shape)}")
                seeds[node] = seed if node not in seeds else ops.add(seeds[node], seed)
        cts = tape.backward(seeds)

        def gradient(node, like):
            g = cts.get(node)
            return g if g is not None else ops.zeros_like(like)

        grads = tuple(gradient(n, x) for n, x in zip(nodes, inputs))
        if weights is None:
            return grads
        return grads, tuple(gradient(n, w) for n, w in zip(weight_nodes, weights))

    if has_aux:
        return output, vjp_fn, single_or_tuple(aux)
    return output, vjp_fn
