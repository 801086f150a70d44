"""``grad``, ``value_and_grad`` and ``vjp`` (MindSpore / JAX conventions) on the tape."""
from .. import dtype as dt
from ..tensor import Tensor, Parameter
from .. import ops
from .tape import Tape, _push_tape, _alias


def _flatten_tensors(value, out):
    if isinstance(value, Tensor):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _flatten_tensors(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _flatten_tensors(v, out)
    return out


def _normalize_positions(grad_position, nargs, fn_name):
    if grad_position is None:
        return None
    positions = (grad_position,) if isinstance(grad_position, int) else tuple(grad_position)
    for p in positions:
        if not isinstance(p, int) or not -nargs <= p < nargs:
            raise ValueError(f"grad of {fn_name}: grad_position {grad_position} is out of range "
                             f"for {nargs} positional argument(s)")
    return tuple(p % nargs for p in positions)


def _normalize_weights(weights):
    if weights is None:
        return None
    if isinstance(weights, Parameter) or isinstance(weights, Tensor):
        return (weights,)
    weights = tuple(weights)
    for w in weights:
        if not isinstance(w, Tensor):
            raise TypeError(f"weights must be Parameters, got {type(w).__name__}")
    return weights


def _fn_name(fn):
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


def _value_and_grad_call(fn, grad_position, weights, has_aux, args, kwargs):
    name = _fn_name(fn)
    positions = _normalize_positions(grad_position, len(args), name)
    weights = _normalize_weights(weights)
    if positions is None and weights is None:
        raise ValueError(f"grad of {name}: grad_position and weights cannot both be None")
    tape = Tape()
    args = list(args)
    arg_nodes = []
    for p in positions or ():
        arg = args[p]
        if not isinstance(arg, Tensor):
            raise TypeError(f"grad of {name}: argument {p} is a {type(arg).__name__}, not a "
                            f"Tensor, so it cannot be differentiated")
        if any(args[q] is arg for q in range(len(args)) if q != p) or \
                tape.node_of(arg) is not None:
            arg = _alias(arg)          # the same tensor at two positions: two inputs
            args[p] = arg
        arg_nodes.append(tape.watch(arg))
    weight_nodes = [tape.node_of(w) if tape.node_of(w) is not None else tape.watch(w)
                    for w in weights or ()]

    with _push_tape(tape):
        output = fn(*args, **kwargs)

    differentiated = split_aux(output, name)[0] if has_aux else output
    seeds = {}
    for out in _flatten_tensors(differentiated, []):
        node = tape.node_of(out)
        if node is not None and dt.is_float(out.dtype):
            seed = ops.ones_like(out)
            seeds[node] = seed if node not in seeds else ops.add(seeds[node], seed)
    cts = tape.backward(seeds)

    def gradient(node, like):
        g = cts.get(node)
        return g if g is not None else ops.zeros_like(like)

    arg_grads = None
    if positions is not None:
        grads = tuple(gradient(n, args[p]) for n, p in zip(arg_nodes, positions))
        arg_grads = grads[0] if isinstance(grad_position, int) else grads
    weight_grads = None
    if weights is not None:
        weight_grads = tuple(gradient(n, w) for n, w in zip(weight_nodes, weights))
    if arg_grads is not None and weight_grads is not None:
        grads = (arg_grads, weight_grads)
    else:
        grads = arg_grads if arg_grads is not None else weight_grads
    return output, grads


def value_and_grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function returning ``(fn(*args), gradients)`` (MindSpore conventions).

    A non-scalar output is differentiated as the sum of its elements (sensitivity 1);
    ``grad_position=None`` with ``weights`` gives the weight gradients only.
    """
    def value_and_grad_fn(*args, **kwargs):
        return _value_and_grad_call(fn, grad_position, weights, has_aux, args, kwargs)
    value_and_grad_fn.__wrapped__ = fn
    value_and_grad_fn._tj_rebuild = lambda inner: value_and_grad(inner, grad_position, weights,
                                                                 has_aux)
    return value_and_grad_fn


def grad(fn, grad_position=0, weights=None, has_aux=False, return_ids=False):
    """A function returning the gradients of ``fn``. With ``has_aux`` it returns
    ``(gradients, aux)`` where ``aux`` is the tuple of the outputs after the first, however
    many there are (MindSpore: ``grads, (z,) = grad(fn, has_aux=True)(x)``)."""
    def grad_fn(*args, **kwargs):
        output, grads = _value_and_grad_call(fn, grad_position, weights, has_aux, args, kwargs)
        return (grads, output[1:]) if has_aux else grads
    grad_fn.__wrapped__ = fn
    grad_fn._tj_rebuild = lambda inner: grad(inner, grad_position, weights, has_aux)
    return grad_fn


def vjp(fn, *inputs, weights=None, has_aux=False):
    """MindSpore's ``vjp``: returns ``(outputs, vjp_fn)`` -- with ``has_aux``,
    ``(first output, vjp_fn, aux)`` -- where ``vjp_fn(*cotangents)`` (one per output tensor)
    gives the tuple of input gradients, or ``(input gradients, weight gradients)`` when
    ``weights`` are given. The forward pass runs once; each ``vjp_fn`` call replays the tape
    (under an enclosing tape the replay is recorded too, so it can be differentiated)."""
    name = _fn_name(fn)
    weights = _normalize_weights(weights)
    tape = Tape()
    for i, x in enumerate(inputs):
        if not isinstance(x, Tensor):
            raise TypeError(f"vjp of {name}: input {i} is a {type(x).__name__}, not a Tensor")
    # the inputs themselves (an enclosing tape knows them: higher-order derivatives), one
    # alias per repeated tensor so that each position is an input of its own
    inputs = [_alias(x) if any(x is y for y in inputs[:i]) else x
              for i, x in enumerate(inputs)]
    nodes = [tape.watch(x) for x in inputs]
    weight_nodes = [tape.node_of(w) if tape.node_of(w) is not None else tape.watch(w)
                    for w in weights or ()]
    with _push_tape(tape):
        output = fn(*inputs)
    aux = None
    if has_aux:
        output, aux = split_aux(output, f"vjp of {name}")
    outs = _flatten_tensors(output, [])

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
