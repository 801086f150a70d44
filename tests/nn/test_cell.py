"""Cell: registration, MindSpore-style parameter names, traversal, modes, containers."""
from collections import OrderedDict

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, Tensor, Parameter


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, pad_mode="pad", padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.relu(self.bn1(self.conv1(x)))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 2)])
        self.head = nn.SequentialCell([nn.Dense(2, 3), nn.ReLU(), nn.Dense(3, 1)])
        self.scale = Parameter(Tensor(np.ones(1, np.float32)))

    def construct(self, x):
        return x


def test_parameter_names_follow_the_attribute_path():
    net = Net()
    names = [name for name, _ in net.parameters_and_names()]
    assert names == ["scale",
                     "block.conv1.weight",
                     "block.bn1.moving_mean", "block.bn1.moving_variance",
                     "block.bn1.gamma", "block.bn1.beta",
                     "layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias",
                     "head.0.weight", "head.0.bias", "head.2.weight", "head.2.bias"]
    # Parameter.name is set to the same dotted path (MindSpore's auto_prefix).
    assert [p.name for _, p in net.parameters_and_names()] == names
    assert net.block.conv1.weight.name == "block.conv1.weight"
    assert Block().bn1.gamma.name == "bn1.gamma"


def test_trainable_and_untrainable_params():
    net = Net()
    trainable = [p.name for p in net.trainable_params()]
    assert "block.bn1.moving_mean" not in trainable
    assert trainable[:4] == ["scale", "block.conv1.weight", "block.bn1.gamma", "block.bn1.beta"]
    assert [p.name for p in net.untrainable_params()] == ["block.bn1.moving_mean",
                                                           "block.bn1.moving_variance"]
    assert all(p.requires_grad for p in net.trainable_params())
    assert list(net.parameters_dict()) == [p.name for p in net.get_parameters()]


def test_shared_parameter_is_listed_once():
    class Tied(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(3, 3)
            self.b = nn.Dense(3, 3)
            self.b.weight = self.a.weight      # tie the weights

        def construct(self, x):
            return self.b(self.a(x))

    net = Tied()
    params = net.trainable_params()
    assert len(params) == 3                    # a.weight, a.bias, b.bias
    assert sum(p is net.a.weight for p in params) == 1
    assert net.b.weight is net.a.weight


def test_shared_child_cell_is_traversed_once():
    class Twice(nn.Cell):
        def __init__(self):
            super().__init__(auto_prefix=False)
            self.first = nn.Dense(2, 2)
            self.second = self.first

        def construct(self, x):
            return self.second(self.first(x))

    net = Twice()
    assert len(list(net.cells_and_names())) == 2
    assert len(net.trainable_params()) == 2


def test_set_train_is_recursive_and_returns_self():
    net = Net()
    assert net.training is False and net.block.bn1.training is False   # MindSpore default
    assert net.set_train() is net
    assert all(cell.training for _, cell in net.cells_and_names())
    net.set_train(False)
    assert not any(cell.training for _, cell in net.cells_and_names())
    assert net.set_grad() is net


def test_cells_name_cells_and_cells_and_names():
    net = Net()
    assert list(net.name_cells()) == ["block", "layers", "head"]
    assert net.cells() == [net.block, net.layers, net.head]
    names = [name for name, _ in net.cells_and_names()]
    assert names[:5] == ["", "block", "block.conv1", "block.bn1", "block.relu"]
    assert "head.2" in names and "layers.1" in names


def test_getattr_delattr_and_errors():
    net = Net()
    assert isinstance(net.block, Block)
    assert isinstance(net.scale, Parameter)
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        net.missing
    del net.scale
    assert "scale" not in [n for n, _ in net.parameters_and_names()]
    del net.head
    assert "head" not in net.name_cells()
    with pytest.raises(AttributeError):
        net.head


def test_assigning_none_and_replacing_a_plain_attribute():
    class Lazy(nn.Cell):
        def __init__(self):
            super().__init__()
            self.extra = None                    # plain attribute first
            self.extra = nn.Dense(2, 2)          # then a cell under the same name

        def construct(self, x):
            return x

    cell = Lazy()
    assert [p.name for p in cell.get_parameters()] == ["extra.weight", "extra.bias"]
    cell.extra = None
    assert cell.extra is None and cell.trainable_params() == []


def test_assigning_a_tensor_to_a_parameter_attribute_writes_the_parameter():
    dense = nn.Dense(2, 3)
    weight = dense.weight
    dense.weight = Tensor(np.full((3, 2), 5.0, np.float32))
    assert dense.weight is weight
    np.testing.assert_array_equal(weight.asnumpy(), np.full((3, 2), 5.0))
    with pytest.raises(TypeError, match="Parameter"):
        dense.weight = "not a tensor"


def test_missing_super_init_is_reported():
    class Broken(nn.Cell):
        def __init__(self):
            self.dense = nn.Dense(2, 2)

    with pytest.raises(AttributeError, match="super\\(\\).__init__"):
        Broken()


def test_insert_param_to_cell():
    cell = nn.Cell()
    p = Parameter(Tensor(np.zeros(2, np.float32)))
    cell.insert_param_to_cell("w", p)
    assert cell.w is p and p.name == "w"
    with pytest.raises(KeyError):
        cell.insert_param_to_cell("a.b", Parameter(Tensor(np.zeros(1, np.float32))))
    with pytest.raises(TypeError):
        cell.insert_param_to_cell("v", Tensor(np.zeros(1, np.float32)))
    named = Parameter(Tensor(np.zeros(1, np.float32)), name="given")
    cell.insert_param_to_cell("u", named)
    assert named.name == "given"          # a user-given name is kept


def test_late_children_get_the_full_prefix():
    net = Net()
    net.layers.append(nn.Dense(2, 2))
    assert net.layers[2].weight.name == "layers.2.weight"
    net.block.extra = nn.Dense(2, 2)
    assert net.block.extra.bias.name == "block.extra.bias"


def test_call_goes_through_run_construct(monkeypatch):
    calls = []
    original = nn.Cell._run_construct

    def spy(self, *args, **kwargs):
        calls.append(type(self).__name__)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(nn.Cell, "_run_construct", spy)
    seq = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    seq(Tensor(np.ones((1, 2), np.float32)))
    assert calls == ["SequentialCell", "Dense", "ReLU"]


def test_construct_must_be_defined():
    with pytest.raises(NotImplementedError, match="construct"):
        nn.Cell()(1)


def test_to_float_casts_inputs():
    class Probe(nn.Cell):
        def construct(self, x):
            self.seen = x.dtype
            return x

    outer = nn.SequentialCell([Probe()])
    outer.to_float(ms.float16)
    outer(Tensor(np.ones(2, np.float32)))
    assert outer[0].seen == ms.float16
    with pytest.raises(ValueError):
        outer.to_float(ms.int32)


def test_deepcopy_and_pickle_keep_structure_and_names(rng):
    import copy
    import pickle
    net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2)])
    x = Tensor(rng.standard_normal((2, 3)).astype(np.float32))
    for clone in (copy.deepcopy(net), pickle.loads(pickle.dumps(net))):
        assert [p.name for p in clone.get_parameters()] == [p.name for p in net.get_parameters()]
        assert clone[0].weight is not net[0].weight
        np.testing.assert_array_equal(clone(x).asnumpy(), net(x).asnumpy())


def test_repr_lists_children():
    text = repr(Net())
    assert text.startswith("Net<")
    assert "(block): Block<" in text and "(conv1): Conv2d<" in text
    assert "(layers): CellList<" in text and "(0): Dense<input_channels=4" in text


# ---- containers -------------------------------------------------------------------------

def test_sequential_cell_runs_in_order_and_indexes(rng):
    d1, d2 = nn.Dense(3, 4), nn.Dense(4, 2)
    seq = nn.SequentialCell(d1, nn.ReLU(), d2)
    x = rng.standard_normal((5, 3)).astype(np.float32)
    h = np.maximum(x @ d1.weight.asnumpy().T + d1.bias.asnumpy(), 0)
    expected = h @ d2.weight.asnumpy().T + d2.bias.asnumpy()
    np.testing.assert_allclose(seq(Tensor(x)).asnumpy(), expected, rtol=1e-5, atol=1e-6)
    assert len(seq) == 3 and seq[0] is d1 and seq[-1] is d2
    sub = seq[1:]
    assert isinstance(sub, nn.SequentialCell) and len(sub) == 2 and sub[1] is d2
    assert d2.weight.name == "2.weight"          # slicing does not rename
    seq.append(nn.ReLU())
    assert len(seq) == 4


def test_sequential_cell_from_ordered_dict():
    seq = nn.SequentialCell(OrderedDict([("fc", nn.Dense(2, 3)), ("act", nn.ReLU())]))
    assert [n for n, _ in seq.parameters_and_names()] == ["fc.weight", "fc.bias"]
    assert list(seq.name_cells()) == ["fc", "act"]
    with pytest.raises(TypeError, match="SequentialCell"):
        nn.SequentialCell([nn.ReLU(), "relu"])


def test_cell_list_operations():
    cells = nn.CellList([nn.Dense(2, 2)])
    cells.append(nn.Dense(2, 3))
    cells.extend([nn.Dense(3, 3)])
    cells.insert(0, nn.Dense(1, 2))
    assert len(cells) == 4
    assert [c.in_channels for c in cells] == [1, 2, 2, 3]
    assert [p.name for p in cells.get_parameters()][::2] == [
        "0.weight", "1.weight", "2.weight", "3.weight"]
    del cells[1]
    assert [c.in_channels for c in cells] == [1, 2, 3]
    assert [p.name for p in cells.get_parameters()][::2] == ["0.weight", "1.weight", "2.weight"]
    cells[0] = nn.Dense(5, 5)
    assert cells[0].in_channels == 5 and cells[0].weight.name == "0.weight"
    with pytest.raises(IndexError):
        cells[7]
    with pytest.raises(NotImplementedError):
        cells(1)


def test_cell_list_inside_a_cell_renames_on_insert():
    net = Net()
    net.layers.insert(1, nn.Dense(4, 4))
    assert [p.name for p in net.layers.get_parameters()][::2] == [
        "layers.0.weight", "layers.1.weight", "layers.2.weight"]


def test_cell_dict():
    cells = nn.CellDict({"a": nn.Dense(2, 2)})
    cells["b"] = nn.ReLU()
    assert list(cells) == ["a", "b"] and "a" in cells and len(cells) == 2
    assert cells["a"].weight.name == "a.weight"
    cells.pop("b")
    assert list(cells.keys()) == ["a"]
