"""``train.Model``: train (either dataset_sink_mode) gives the losses and weights of a
hand-written jitted loop; callbacks see MindSpore's run-context fields in MindSpore's order;
ModelCheckpoint keeps the last N files; EarlyStopping / History / fit; eval and predict."""
import os

import numpy as np
import pytest

import tensorjit as ms
import tensorjit.dataset as ds
from tensorjit import nn, Tensor
from tensorjit.train import (Model, Callback, LossMonitor, TimeMonitor, ModelCheckpoint,
                             CheckpointConfig, EarlyStopping, History, LambdaCallback)

from matrix import CAPTURE_MODES


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 16)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(16, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def data(n=48, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 6)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int32) + (x[:, 1] > 0.5).astype(np.int32)
    return x, y


def dataset(batch=8, seed=0):
    x, y = data(seed=seed)
    return ds.NumpySlicesDataset({"data": x, "label": y}, shuffle=False).batch(batch)


def parts():
    ms.set_seed(0)
    net = Net()
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    optimizer = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    return net, loss_fn, optimizer


def hand_written_loop(epochs, mode):
    net, loss_fn, optimizer = parts()

    def forward(x, y):
        return loss_fn(net(x), y)
    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    @ms.jit(capture_mode=mode)
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss
    net.set_train()
    x, y = data()
    losses = []
    for _ in range(epochs):
        for k in range(0, len(x), 8):
            losses.append(float(train_step(Tensor(x[k:k + 8]), Tensor(y[k:k + 8])).asnumpy()))
    return losses, net


class Record(Callback):
    def __init__(self):
        self.events, self.losses, self.fields = [], [], []

    def on_train_begin(self, rc):
        self.events.append("begin")

    def on_train_epoch_begin(self, rc):
        self.events.append(f"epoch_begin {rc.original_args().cur_epoch_num}")

    def on_train_step_begin(self, rc):
        self.events.append("step_begin")

    def on_train_step_end(self, rc):
        p = rc.original_args()
        self.events.append(f"step_end {p.cur_step_num}")
        self.losses.append(float(p.net_outputs.asnumpy()))
        self.fields.append((p.cur_epoch_num, p.cur_step_num, p.batch_num, p.epoch_num))

    def on_train_epoch_end(self, rc):
        self.events.append(f"epoch_end {rc.original_args().cur_epoch_num}")

    def on_train_end(self, rc):
        self.events.append("end")


@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_train_equals_a_hand_written_jitted_loop(mode):
    expected_losses, expected_net = hand_written_loop(2, mode)
    net, loss_fn, optimizer = parts()
    model = Model(net, loss_fn, optimizer, jit_config={"capture_mode": mode})
    record = Record()
    model.train(2, dataset(), callbacks=[record])
    np.testing.assert_allclose(record.losses, expected_losses, rtol=1e-5, atol=1e-6)
    for a, b in zip(net.get_parameters(), expected_net.get_parameters()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
    assert record.losses[-1] < record.losses[0]
    assert record.events[:3] == ["begin", "epoch_begin 1", "step_begin"]
    assert record.events[-2:] == ["epoch_end 2", "end"]
    assert record.fields[0] == (1, 1, 6, 2) and record.fields[-1] == (2, 12, 6, 2)


@pytest.mark.parametrize("sink_size", [-1, 3])
def test_sink_mode_gives_the_same_numbers(sink_size):
    expected_losses, expected_net = hand_written_loop(2, "ast")
    net, loss_fn, optimizer = parts()
    model = Model(net, loss_fn, optimizer)
    record = Record()
    epochs = 2 if sink_size == -1 else 4                # 4 sinks of 3 steps = 2 epochs
    model.train(epochs, dataset(), callbacks=[record], dataset_sink_mode=True,
                sink_size=sink_size)
    steps = 6 if sink_size == -1 else 3
    # one step hook per sink, holding its last loss
    assert [f[1] for f in record.fields] == [steps * (k + 1) for k in range(epochs)]
    np.testing.assert_allclose(record.losses, expected_losses[steps - 1::steps], rtol=1e-5,
                               atol=1e-6)
    for a, b in zip(net.get_parameters(), expected_net.get_parameters()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)


def test_request_stop_and_lambda_callbacks():
    net, loss_fn, optimizer = parts()
    seen = []

    def stop_at_three(rc):
        seen.append(rc.original_args().cur_step_num)
        if rc.original_args().cur_step_num == 3:
            rc.request_stop()
    Model(net, loss_fn, optimizer).train(5, dataset(),
                                         callbacks=LambdaCallback(on_train_step_end=stop_at_three))
    assert seen == [1, 2, 3]


def test_loss_monitor_and_time_monitor_print(capsys):
    net, loss_fn, optimizer = parts()
    Model(net, loss_fn, optimizer).train(1, dataset(), callbacks=[LossMonitor(2), TimeMonitor()])
    out = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in out[:3]] == [
        "epoch: 1 step: 2", "epoch: 1 step: 4", "epoch: 1 step: 6"]
    assert out[3].startswith("Train epoch time: ") and "per step time" in out[3]


def test_loss_monitor_stops_on_nan():
    net, loss_fn, _ = parts()
    optimizer = nn.SGD(net.trainable_params(), learning_rate=1e30)
    with pytest.raises(ValueError, match="loss is NAN or INF"):
        Model(net, loss_fn, optimizer).train(3, dataset(), callbacks=[LossMonitor()])


def test_model_checkpoint_keeps_the_last_files(tmp_path):
    net, loss_fn, optimizer = parts()
    config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2,
                              append_info=["epoch_num"])
    checkpoint = ModelCheckpoint(prefix="net", directory=str(tmp_path), config=config)
    Model(net, loss_fn, optimizer).train(2, dataset(), callbacks=[checkpoint])
    assert sorted(os.listdir(tmp_path)) == ["net-2_4.ckpt", "net-2_6.ckpt"]
    saved = ms.load_checkpoint(str(tmp_path / "net-2_6.ckpt"))
    for p in net.get_parameters():
        np.testing.assert_array_equal(saved[p.name].asnumpy(), p.asnumpy())
    assert int(saved["epoch_num"].asnumpy()) == 2
    assert "moments.fc1.weight" in saved                    # the train network's state
    assert checkpoint.latest_ckpt_file_name.endswith("net-2_6.ckpt")
    again = ModelCheckpoint(prefix="net", directory=str(tmp_path), config=config)
    Model(net, loss_fn, optimizer).train(1, dataset(), callbacks=[again])
    assert "net_1-1_6.ckpt" in os.listdir(tmp_path)         # MindSpore's renaming


def test_fit_with_early_stopping_and_history():
    net, loss_fn, _ = parts()
    optimizer = nn.SGD(net.trainable_params(), learning_rate=0.0)   # never improves
    model = Model(net, loss_fn, optimizer, metrics={"accuracy"})
    history, stop = History(), EarlyStopping(monitor="eval_loss", patience=2)
    record = Record()
    model.fit(10, dataset(), dataset(seed=1), callbacks=[history, stop, record])
    assert history.epoch["epoch"] == [1, 2, 3] and stop.stopped_epoch == 3
    assert len(history.history["accuracy"]) == 3 and len(history.history["net_output"]) == 3


def test_eval_and_predict():
    net, loss_fn, optimizer = parts()
    metrics = {"acc": nn.Accuracy(), "loss": ms.train.Loss(),
               "acc2": ms.train.Accuracy().set_indexes([1, 2])}
    model = Model(net, loss_fn, optimizer, metrics=metrics)
    model.train(3, dataset())
    result = model.eval(dataset(seed=2))
    x, y = data(seed=2)
    logits = net(Tensor(x)).asnumpy()
    assert result["acc"] == pytest.approx(np.mean(logits.argmax(1) == y)) == result["acc2"]
    losses = [float(loss_fn(net(Tensor(x[k:k + 8])), Tensor(y[k:k + 8])).asnumpy())
              for k in range(0, 48, 8)]
    assert result["loss"] == pytest.approx(np.mean(losses), rel=1e-5)
    np.testing.assert_allclose(model.predict(Tensor(x)).asnumpy(), logits, rtol=1e-5)
    with pytest.raises(ValueError, match="needs metrics"):
        Model(net, loss_fn, optimizer).eval(dataset())


def test_model_with_amp_level_trains():
    net, loss_fn, optimizer = parts()
    record = Record()
    Model(net, loss_fn, optimizer, amp_level="O3").train(3, dataset(), callbacks=[record])
    assert record.losses[-1] < record.losses[0]


def test_bad_arguments():
    net, loss_fn, optimizer = parts()
    with pytest.raises(ValueError, match="'epoch' must be a positive int"):
        Model(net, loss_fn, optimizer).train(0, dataset())
    with pytest.raises(TypeError, match="must be Callback instances"):
        Model(net, loss_fn, optimizer).train(1, dataset(), callbacks=[print])
    with pytest.raises(ValueError, match="amp_level"):
        Model(net, loss_fn, optimizer, amp_level="O9")


@pytest.mark.parametrize("mode", CAPTURE_MODES)
def test_switching_train_and_eval_reuses_the_graphs(mode):
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(6, 4), nn.BatchNorm1d(4), nn.Dense(4, 2)])
    forward = ms.jit(net, capture_mode=mode)
    x = Tensor(data()[0][:8])
    for _ in range(3):
        for training in (True, False):
            net.set_train(training)
            out = forward(x)
            state = {p.name: p.asnumpy().copy() for p in net.get_parameters()}
            net.set_train(training)
            expected = net(x)              # eager, same mode (moves BN statistics again)
            for p in net.get_parameters():
                p.set_data(Tensor(state[p.name]))
            np.testing.assert_allclose(out.asnumpy(), expected.asnumpy(), rtol=1e-5,
                                       atol=1e-6)
    assert forward._tj_jit.compile_count == 2          # one graph per mode, reused


def test_fit_compiles_each_step_once():
    net, loss_fn, optimizer = parts()
    model = Model(net, loss_fn, optimizer, metrics={"accuracy"})
    model.fit(3, dataset(), dataset(seed=1))
    assert model._compiled[id(model.train_network)]._tj_jit.compile_count == 1
    assert model._compiled[id(model.eval_network)]._tj_jit.compile_count == 1
