"""RNN / LSTM / GRU and their cells against PyTorch (packed sequences for ``seq_length``),
a NumPy formula of each step, finite differences and every capture mode and level; and the
recurrence is one graph loop whatever the sequence length."""
import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor

from .layer_check import LayerCheck, torch

F64 = ms.float64


def rand(*shape, seed=0):
    return np.random.default_rng(seed + 7 * sum(shape)).standard_normal(shape)


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def numpy_step(kind, x, state, w_ih, w_hh, b_ih, b_hh):
    """One step, written from the equations."""
    gx, gh = x @ w_ih.T + b_ih, state[0] @ w_hh.T + b_hh
    if kind == "RNN":
        return (np.tanh(gx + gh),)
    if kind == "LSTM":
        i, f, g, o = np.split(gx + gh, 4, -1)
        c = sigmoid(f) * state[1] + sigmoid(i) * np.tanh(g)
        return sigmoid(o) * np.tanh(c), c
    r = sigmoid(gx[..., :state[0].shape[-1]] + gh[..., :state[0].shape[-1]])
    z = sigmoid(np.split(gx, 3, -1)[1] + np.split(gh, 3, -1)[1])
    n = np.tanh(np.split(gx, 3, -1)[2] + r * np.split(gh, 3, -1)[2])
    return ((1 - z) * n + z * state[0],)


def numpy_layer(kind, cell, x, lengths):
    """The whole bidirectional multi-layer network, batch first, with sequence lengths."""
    p = {q.name.split(".")[-1]: q.asnumpy() for q in cell.get_parameters()}
    batch, steps, _ = x.shape
    layer_in, finals = x, []
    for layer in range(cell.num_layers):
        outs = []
        for direction in range(cell.num_directions):
            sfx = f"_l{layer}" + ("_reverse" if direction else "")
            state = tuple(np.zeros((batch, cell.hidden_size))
                          for _ in range(2 if kind == "LSTM" else 1))
            ys = np.zeros((batch, steps, cell.hidden_size))
            order = range(steps - 1, -1, -1) if direction else range(steps)
            for t in order:
                new = numpy_step(kind, layer_in[:, t], state, p["weight_ih" + sfx],
                                 p["weight_hh" + sfx], p["bias_ih" + sfx], p["bias_hh" + sfx])
                inside = (t < lengths)[:, None]
                state = tuple(np.where(inside, n, s) for n, s in zip(new, state))
                ys[:, t] = np.where(inside, new[0], 0)
            outs.append(ys)
            finals.append(state)
        layer_in = np.concatenate(outs, -1)
    hs = np.stack([f[0] for f in finals])
    return (layer_in, (hs, np.stack([f[1] for f in finals]))) if kind == "LSTM" else (layer_in, hs)


class Packed(torch.nn.Module if torch is not None else object):
    """A PyTorch RNN run on packed sequences, padded back to the full length."""

    def __init__(self, rnn, lengths, steps):
        super().__init__()
        self.rnn, self.lengths, self.steps = rnn, lengths, steps

    def forward(self, x):
        packed = torch.nn.utils.rnn.pack_padded_sequence(x, self.lengths, batch_first=True,
                                                         enforce_sorted=False)
        out, state = self.rnn(packed)
        out, _ = torch.nn.utils.rnn.pad_packed_sequence(out, batch_first=True,
                                                        total_length=self.steps)
        return out, state


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
def test_bidirectional_two_layers_with_sequence_lengths(kind):
    cell = getattr(nn, kind)(3, 4, num_layers=2, bidirectional=True, batch_first=True,
                             dtype=F64)
    x, lengths = rand(3, 5, 3), np.array([5, 2, 4])
    check = LayerCheck(cell, [x], kwargs=dict(seq_length=Tensor(lengths.astype(np.int32))))
    check.against_formula(numpy_layer(kind, cell, x, lengths))
    if torch is not None:
        module = Packed(getattr(torch.nn, kind)(3, 4, 2, bidirectional=True,
                                                batch_first=True).double(), lengths, 5)
        check.against_torch(module, param_map={p.name: "rnn." + p.name
                                               for p in cell.get_parameters()})
    check.against_finite_differences()
    check.in_every_mode()


@pytest.mark.parametrize("kind,options", [
    ("RNN", dict(nonlinearity="relu")), ("LSTM", dict(has_bias=False)), ("GRU", {})])
def test_one_layer_time_major_with_initial_state(kind, options):
    cell = getattr(nn, kind)(3, 4, dtype=F64, **options)
    x = rand(6, 2, 3)
    h0 = rand(1, 2, 4, seed=1)
    hx = (Tensor(h0), Tensor(rand(1, 2, 4, seed=2))) if kind == "LSTM" else Tensor(h0)
    check = LayerCheck(cell, [x, hx])
    if torch is not None:
        t_options = {k: v for k, v in options.items() if k != "has_bias"}
        module = getattr(torch.nn, kind)(3, 4, bias=options.get("has_bias", True),
                                         **t_options).double()
        check.against_torch(module, torch_inputs=lambda ts: [
            ts[0], tuple(torch.tensor(h.asnumpy()) for h in hx) if kind == "LSTM"
            else torch.tensor(h0)])
    check.against_finite_differences()
    check.in_every_mode()


@pytest.mark.parametrize("kind", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cells(kind):
    cell = getattr(nn, kind)(3, 5, dtype=F64)
    x = rand(2, 3)
    state = (rand(2, 5, seed=3), rand(2, 5, seed=4)) if kind == "LSTMCell" else \
        (rand(2, 5, seed=3),)
    hx = tuple(Tensor(s) for s in state) if kind == "LSTMCell" else Tensor(state[0])
    check = LayerCheck(cell, [x, hx])
    p = {q.name: q.asnumpy() for q in cell.get_parameters()}
    check.against_formula(numpy_step(kind[:-4], x, state, p["weight_ih"], p["weight_hh"],
                                     p["bias_ih"], p["bias_hh"]))
    if torch is not None:
        module = getattr(torch.nn, kind)(3, 5).double()
        check.against_torch(module, torch_inputs=lambda ts: [
            ts[0], tuple(torch.tensor(s) for s in state) if kind == "LSTMCell"
            else torch.tensor(state[0])])
    check.against_finite_differences()
    check.in_every_mode()


def _loop_nodes(graph):
    return [n.prim.name for n in graph.nodes if n.prim.name in ("scan", "while_loop")]


@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_the_recurrence_is_one_graph_loop_forward_and_backward(mode):
    cell = nn.LSTM(3, 4, bidirectional=True, dtype=F64)
    weights = cell.trainable_params()

    def loss(x):
        out, (h, c) = cell(x)
        return (out * out).sum() + h.sum()

    train = ms.value_and_grad(loss, grad_position=0, weights=weights)
    sizes = {}
    for steps in (3, 40):
        x = Tensor(rand(steps, 2, 3))
        graph = ms.jit(train, capture_mode=mode).lower(x).graph
        loops = _loop_nodes(graph)
        # forward: one scan per direction; backward: per direction, the recording scan and
        # the reverse scan of the step's VJP
        assert loops.count("scan") == 6, loops
        sizes[steps] = len(graph.nodes)
    assert sizes[3] == sizes[40]         # nothing is unrolled per time step


def test_dropout_between_layers_only_in_training():
    ms.set_seed(0)
    cell = nn.GRU(3, 8, num_layers=3, dropout=0.5, dtype=F64)
    x = Tensor(rand(4, 2, 3))
    first, _ = cell(x)
    second, _ = cell(x)
    np.testing.assert_array_equal(first.asnumpy(), second.asnumpy())   # inference
    cell.set_train()
    a, _ = cell(x)
    b, _ = cell(x)
    assert not np.allclose(a.asnumpy(), b.asnumpy())


def test_parameters_names_and_errors():
    cell = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    names = [p.name for p in cell.get_parameters()]
    assert names[:4] == ["weight_ih_l0", "weight_ih_l0_reverse", "weight_ih_l1",
                         "weight_ih_l1_reverse"]
    assert len(names) == 16 and cell.w_hh_list[3].shape == (16, 4)
    bound = 1 / np.sqrt(4)
    assert all(np.abs(p.asnumpy()).max() <= bound for p in cell.get_parameters())

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.rnn = nn.GRU(3, 4)

    assert [p.name for p in Net().get_parameters()][0] == "rnn.weight_ih_l0"
    with pytest.raises(ValueError, match="LSTM: expected an input of shape"):
        cell(Tensor(np.zeros((2, 3, 5), np.float32)))
    with pytest.raises(ValueError, match="seq_length must have shape \\(3,\\)"):
        nn.GRU(3, 4)(Tensor(np.zeros((2, 3, 3), np.float32)), seq_length=Tensor([1, 2]))
    with pytest.raises(TypeError, match="LSTM: hx must be a tuple"):
        cell(Tensor(np.zeros((2, 3, 3), np.float32)), Tensor(np.zeros((4, 3, 4), np.float32)))
    with pytest.raises(ValueError, match="RNN: 'nonlinearity'"):
        nn.RNN(3, 4, nonlinearity="sigmoid")


@pytest.mark.parametrize("mode", ["trace", "ast", "bytecode"])
def test_sequence_lengths_are_data_one_compilation(mode):
    cell = nn.GRU(3, 4, bidirectional=True, batch_first=True, dtype=F64)
    jitted = ms.jit(lambda x, n: cell(x, seq_length=n)[0], capture_mode=mode)
    x = Tensor(rand(2, 6, 3))
    for lengths in ([6, 2], [3, 5], [1, 1]):
        n = Tensor(np.array(lengths, np.int32))
        np.testing.assert_allclose(jitted(x, n).asnumpy(), cell(x, seq_length=n)[0].asnumpy(),
                                   rtol=1e-12, atol=1e-12)
    assert "compilations: 1 (recompilations: 0)" in str(ms.explain(jitted)(x, n))
