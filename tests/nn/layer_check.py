"""One check for a layer, forward and backward, against three references:

* PyTorch's equivalent module with the same weights (when PyTorch is installed),
* central finite differences of the layer's own eager forward (always: gradients of
  a weighted sum of the outputs with respect to float inputs and parameters, along
  random directions), and a NumPy formula for the forward pass where the test gives one,
* eager mode for every capture mode and level: one jitted function per configuration
  returns the outputs and the gradients, and both must equal the eager ones.

Everything runs in float64 with tiny shapes.
"""
import numpy as np

import tensorjit as ms
from tensorjit import Tensor

try:
    import torch
except ImportError:      # the finite-difference, formula and eager checks still run
    torch = None

CONFIGS = [(mode, level) for mode in ("trace", "ast", "bytecode") for level in ("O0", "O1")]


def flat(value):
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flat(v)]
    return [value]


def _numpy(value):
    if torch is not None and isinstance(value, torch.Tensor):
        return value.detach().numpy()
    return value.asnumpy() if isinstance(value, Tensor) else np.asarray(value)


class LayerCheck:
    """``cell``: the tensorjit layer (float64); ``inputs``: NumPy arrays (float64 ones are
    differentiated) or other call arguments; ``kwargs``: keyword arguments of the call."""

    def __init__(self, cell, inputs, kwargs=None, seed=0):
        self.cell, self.kwargs = cell, dict(kwargs or {})
        self.inputs = [Tensor(a) if isinstance(a, np.ndarray) else a for a in inputs]
        self.float_positions = tuple(i for i, a in enumerate(inputs) if isinstance(
            a, np.ndarray) and a.dtype == np.float64)
        self.params = [p for p in cell.trainable_params()]
        self.outputs = [o for o in flat(cell(*self.inputs, **self.kwargs))]
        rng = np.random.default_rng(seed)
        self.weights = [rng.standard_normal(tuple(o.shape)) for o in self.outputs]
        self.grads = self._grad_fn()(*self.inputs)

    # ---- the differentiated objective --------------------------------------------------
    def loss(self, *inputs):
        outs = flat(self.cell(*inputs, **self.kwargs))
        total = None
        for o, w in zip(outs, self.weights):
            if not ms.dtype.is_float(o.dtype):
                continue
            term = (o * Tensor(w)).sum()
            total = term if total is None else total + term
        return total

    def _grad_fn(self):
        positions = self.float_positions or None
        return ms.grad(self.loss, grad_position=positions, weights=self.params)

    def _split_grads(self, grads):
        if self.float_positions:
            input_grads, param_grads = grads
        else:
            input_grads, param_grads = (), grads
        return list(input_grads), list(param_grads)

    # ---- references --------------------------------------------------------------------
    def against_formula(self, expected, rtol=1e-9, atol=1e-10):
        for got, want in zip(self.outputs, flat(expected)):
            np.testing.assert_allclose(got.asnumpy(), want, rtol=rtol, atol=atol)

    def against_finite_differences(self, directions=2, eps=1e-6, rtol=1e-6):
        """<gradient, d> against (L(x + eps d) - L(x - eps d)) / 2 eps for random d over
        every float input and parameter together."""
        rng = np.random.default_rng(1)
        input_grads, param_grads = self._split_grads(self.grads)
        leaves = [self.inputs[i] for i in self.float_positions] + self.params
        grads = input_grads + param_grads
        base = [leaf.asnumpy().copy() for leaf in leaves]
        for _ in range(directions):
            dirs = [rng.standard_normal(b.shape) for b in base]
            analytic = sum(float((g.asnumpy() * d).sum()) for g, d in zip(grads, dirs))

            def objective(e):
                shifted = [Tensor(b + e * d) for b, d in zip(base, dirs)]
                inputs = list(self.inputs)
                for i, pos in enumerate(self.float_positions):
                    inputs[pos] = shifted[i]
                for p, value in zip(self.params, shifted[len(self.float_positions):]):
                    p.set_data(value)
                try:
                    return float(self.loss(*inputs).asnumpy())
                finally:
                    for p, b in zip(self.params, base[len(self.float_positions):]):
                        p.set_data(Tensor(b))

            numeric = (objective(eps) - objective(-eps)) / (2 * eps)
            assert abs(numeric - analytic) <= rtol * (1 + abs(numeric)), (numeric, analytic)

    def against_torch(self, module, torch_inputs=None, param_map=None, kwargs=None,
                      rtol=1e-9, atol=1e-10, outputs=None):
        """``module``: the PyTorch module; ``param_map``: tensorjit parameter name ->
        PyTorch parameter name (default: the same names); its weights are set from ours
        (reshaped where the layouts differ only by unit axes, as Conv1d's).
        ``torch_inputs`` adapts the inputs (a function of the list); ``outputs`` picks
        PyTorch's outputs to compare (a function of its result)."""
        if torch is None:
            return
        named = dict(module.named_parameters())
        param_map = param_map or {p.name: p.name for p in self.params}
        with torch.no_grad():
            for p in self.params:
                target = named[param_map[p.name]]
                target.copy_(torch.tensor(p.asnumpy()).reshape(target.shape))
        t_inputs = [torch.tensor(a.asnumpy(), requires_grad=i in self.float_positions)
                    if isinstance(a, Tensor) else a for i, a in enumerate(self.inputs)]
        leaves = [t_inputs[i] for i in self.float_positions]
        if torch_inputs is not None:
            t_inputs = torch_inputs(t_inputs)
        result = module(*t_inputs, **(kwargs or {}))
        t_outs = flat(outputs(result) if outputs else result)
        assert len(t_outs) == len(self.outputs)
        loss = 0
        for got, want, w in zip(self.outputs, t_outs, self.weights):
            np.testing.assert_allclose(got.asnumpy(), _numpy(want), rtol=rtol, atol=atol)
            if want.dtype.is_floating_point:
                loss = loss + (want * torch.tensor(w)).sum()
        loss.backward()
        input_grads, param_grads = self._split_grads(self.grads)
        for g, leaf in zip(input_grads, leaves):
            np.testing.assert_allclose(g.asnumpy(), _numpy(leaf.grad), rtol=rtol, atol=atol)
        for g, p in zip(param_grads, self.params):
            want = _numpy(named[param_map[p.name]].grad).reshape(tuple(p.shape))
            np.testing.assert_allclose(g.asnumpy(), want, rtol=rtol, atol=atol, err_msg=p.name)

    def in_every_mode(self, configs=CONFIGS, rtol=1e-10, atol=1e-12):
        """Jitted outputs and gradients equal eager ones in every capture mode and level."""
        grad_fn = self._grad_fn()
        cell, kwargs = self.cell, self.kwargs

        def step(*inputs):
            return cell(*inputs, **kwargs), grad_fn(*inputs)

        expected = [t.asnumpy() for t in flat(self.outputs) + flat(self.grads)]
        for mode, level in configs:
            jitted = ms.jit(step, capture_mode=mode, jit_level=level)
            for _ in range(2):            # the capture, then the compiled program
                outs, grads = jitted(*self.inputs)
            got = [t.asnumpy() for t in flat(outs) + flat(grads)]
            assert len(got) == len(expected), (mode, level)
            for g, e in zip(got, expected):
                np.testing.assert_allclose(g, e, rtol=rtol, atol=atol, err_msg=f"{mode} {level}")
