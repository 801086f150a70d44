"""``Model``: MindSpore's high-level training API. ``train`` / ``fit`` / ``eval`` /
``predict`` run a jitted step per batch (one compiled graph of forward, backward and the
optimizer update) and call the callbacks with MindSpore's run-context fields.

``dataset_sink_mode=True`` hands the step a whole epoch (or ``sink_size`` steps) of batches
from a queue a thread keeps filled, and calls the step hooks once per sink, as MindSpore
does on a device; the numbers are the same as without it.
"""
import numbers

from .. import nn
from .. import amp
from ..jit import jit
from ..dataset.workers import prefetch
from ..dataset import config as dataset_config
from .callbacks import CallbackList, CallbackParams, RunContext

__all__ = ["Model"]


def _positive_int(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value <= 0:
        raise ValueError(f"Model: '{name}' must be a positive int, got {value!r}")
    return int(value)


def _metrics(metrics):
    if metrics is None:
        return {}
    if isinstance(metrics, dict):
        items = metrics.items()
    elif isinstance(metrics, (set, list, tuple)):
        items = [(name, nn.metrics.get_metric_fn(name)) for name in metrics]
    else:
        raise TypeError(f"Model: 'metrics' must be a dict of Metrics or a set of names, got "
                        f"{type(metrics).__name__}")
    result = {}
    for name, metric in items:
        if not isinstance(metric, nn.Metric):
            raise TypeError(f"Model: metric {name!r} must be an nn.Metric, got "
                            f"{type(metric).__name__}")
        result[name] = metric
    return result


class Model:
    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None,
                 eval_indexes=None, amp_level="O0", boost_level="O0", loss_scale_manager=None,
                 jit_config=None, **kwargs):
        if not isinstance(network, nn.Cell):
            raise TypeError(f"Model: 'network' must be a Cell, got {type(network).__name__}")
        if optimizer is not None and not isinstance(optimizer, nn.Optimizer):
            raise TypeError(f"Model: 'optimizer' must be an nn.Optimizer, got "
                            f"{type(optimizer).__name__}")
        if amp_level not in amp.LEVELS:
            raise ValueError(f"Model: 'amp_level' must be one of {amp.LEVELS}, got {amp_level!r}")
        if eval_indexes is not None and (not isinstance(eval_indexes, (list, tuple))
                                         or len(eval_indexes) != 3):
            raise ValueError(f"Model: 'eval_indexes' must be 3 ints (loss, prediction, label), "
                             f"got {eval_indexes!r}")
        self._network, self._loss_fn, self._optimizer = network, loss_fn, optimizer
        self._amp_level, self._loss_scale_manager = amp_level, loss_scale_manager
        self._metric_fns = _metrics(metrics)
        if jit_config is False:
            self._jit_options = None                       # run eagerly
        elif jit_config is None or isinstance(jit_config, dict):
            self._jit_options = dict(jit_config or {})
        else:
            self._jit_options = {k: getattr(jit_config, k) for k in
                                 ("capture_mode", "jit_level", "backend") if hasattr(jit_config, k)}
        self._train_network = self._build_train_network()
        self._eval_network, self._eval_indexes = self._build_eval_network(eval_network,
                                                                          eval_indexes)
        self._compiled = {}

    # ---- the networks -------------------------------------------------------------------
    def _build_train_network(self):
        if self._optimizer is None:
            return self._network              # already a train step (or evaluation only)
        if self._amp_level != "O0" or self._loss_scale_manager is not None:
            kwargs = {} if self._loss_scale_manager is None else {
                "loss_scale_manager": self._loss_scale_manager}
            return amp.build_train_network(self._network, self._optimizer, self._loss_fn,
                                           level=self._amp_level, **kwargs)
        network = self._network
        if self._loss_fn is not None:
            network = nn.WithLossCell(network, self._loss_fn)
        return nn.TrainOneStepCell(network, self._optimizer)

    def _build_eval_network(self, eval_network, eval_indexes):
        if eval_network is not None:
            return eval_network, (list(eval_indexes) if eval_indexes is not None else None)
        if self._loss_fn is not None and self._metric_fns:
            return nn.WithEvalCell(self._network, self._loss_fn,
                                   add_cast_fp32=self._amp_level in ("O2", "O3")), [0, 1, 2]
        return self._network, None

    @property
    def train_network(self):
        return self._train_network

    @property
    def eval_network(self):
        return self._eval_network

    @property
    def predict_network(self):
        return self._network

    def _runner(self, network):
        if self._jit_options is None:
            return network
        if id(network) not in self._compiled:
            self._compiled[id(network)] = jit(network, **self._jit_options)
        return self._compiled[id(network)]

    # ---- training ---------------------------------------------------------------------
    def _params(self, epoch, dataset, callbacks, sink, batch_num, initial_epoch):
        return CallbackParams(
            train_network=self._train_network, network=self._network, epoch_num=epoch,
            batch_num=batch_num, cur_epoch_num=initial_epoch,
            cur_step_num=initial_epoch * batch_num, initial_step=initial_epoch * batch_num,
            optimizer=self._optimizer, loss_fn=self._loss_fn, train_dataset=dataset,
            parallel_mode="stand_alone", device_number=1, list_callback=callbacks.callbacks,
            mode="train", dataset_sink_mode=sink, last_save_ckpt_step=None,
            latest_ckpt_file=None, loss_scale_mananger=self._loss_scale_manager,
            train_dataset_element=None, net_outputs=None)

    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False,
              sink_size=-1, initial_epoch=0):
        """Train for ``epoch`` epochs over ``train_dataset`` (from ``initial_epoch``)."""
        self._run_training(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                           initial_epoch, None, 1, False)

    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1,
            initial_epoch=0):
        """``train`` plus an evaluation every ``valid_frequency`` epochs (an int, or a list
        of epoch numbers); callbacks see ``metrics`` and ``eval_results`` (with
        ``eval_loss``)."""
        if isinstance(valid_frequency, bool) or not isinstance(valid_frequency, (int, list)):
            raise ValueError(f"Model.fit: 'valid_frequency' must be an int or a list, got "
                             f"{valid_frequency!r}")
        self._run_training(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                           initial_epoch, valid_dataset, valid_frequency,
                           valid_dataset_sink_mode)

    def _run_training(self, epoch, dataset, callbacks, sink, sink_size, initial_epoch,
                      valid_dataset, valid_frequency, valid_sink):
        epoch = _positive_int(epoch, "epoch")
        if isinstance(initial_epoch, bool) or not isinstance(initial_epoch, int) or \
                not 0 <= initial_epoch < epoch:
            raise ValueError(f"Model.train: 'initial_epoch' must be in [0, epoch), got "
                             f"{initial_epoch!r}")
        if self._optimizer is None and not isinstance(self._train_network, nn.Cell):
            raise ValueError("Model.train needs an optimizer (or a train-step network)")
        if not isinstance(sink, bool):
            raise TypeError(f"Model.train: 'dataset_sink_mode' must be a bool, got {sink!r}")
        dataset_sink_mode = sink
        size = dataset.get_dataset_size()
        if not size:
            raise ValueError("Model.train: the training dataset is empty")
        if sink_size != -1:
            sink_size = _positive_int(sink_size, "sink_size")
        steps_per_epoch = sink_size if dataset_sink_mode and sink_size != -1 else size
        callbacks = CallbackList(callbacks)
        params = self._params(epoch, dataset, callbacks, dataset_sink_mode, steps_per_epoch,
                              initial_epoch)
        run_context = RunContext(params)
        step = self._runner(self._train_network)
        self._train_network.set_train(True)
        callbacks.on_train_begin(run_context)
        if dataset_sink_mode:
            # one endless queue of batches, refilled by a thread while the steps run
            batches = prefetch(_endless(dataset.create_tuple_iterator(num_epochs=-1)),
                               dataset_config.get_prefetch_size())
            epochs = _SinkEpochs(batches, steps_per_epoch)
        else:
            epochs = dataset.create_tuple_iterator(num_epochs=epoch - initial_epoch)
        try:
            for e in range(initial_epoch, epoch):
                params.cur_epoch_num = e + 1
                callbacks.on_train_epoch_begin(run_context)
                if dataset_sink_mode:
                    self._sink_epoch(step, epochs, params, callbacks, run_context)
                else:
                    self._epoch(step, epochs, params, callbacks, run_context)
                if valid_dataset is not None and self._validate_now(e + 1, epoch,
                                                                    valid_frequency):
                    self._eval_in_fit(valid_dataset, params, valid_sink)
                    self._train_network.set_train(True)
                callbacks.on_train_epoch_end(run_context)
                if run_context.get_stop_requested():
                    break
            callbacks.on_train_end(run_context)
        finally:
            if dataset_sink_mode:
                epochs.close()
            else:
                epochs.stop()

    def _epoch(self, step, iterator, params, callbacks, run_context):
        for data in iterator:
            params.train_dataset_element = data
            callbacks.on_train_step_begin(run_context)
            params.net_outputs = step(*data)
            params.cur_step_num += 1
            callbacks.on_train_step_end(run_context)
            if run_context.get_stop_requested():
                iterator.stop()
                return

    def _sink_epoch(self, step, epochs, params, callbacks, run_context):
        callbacks.on_train_step_begin(run_context)
        outputs = None
        for data in epochs.next_epoch():
            outputs = step(*data)
            params.cur_step_num += 1
        params.net_outputs = outputs
        callbacks.on_train_step_end(run_context)

    @staticmethod
    def _validate_now(epoch, last, frequency):
        if isinstance(frequency, list):
            return epoch in frequency
        return epoch % frequency == 0 or epoch == last

    def _eval_in_fit(self, valid_dataset, params, sink):
        metrics, eval_loss = self._evaluate(valid_dataset, CallbackList(None), sink,
                                            want_loss=True)
        params.metrics = metrics
        params.eval_results = dict(metrics)
        if eval_loss is not None:
            params.eval_results["eval_loss"] = eval_loss

    # ---- evaluation and prediction ----------------------------------------------------
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """{metric name: value} over ``valid_dataset``."""
        if not self._metric_fns:
            raise ValueError("Model.eval needs metrics: Model(..., metrics={'accuracy'})")
        metrics, _ = self._evaluate(valid_dataset, CallbackList(callbacks), dataset_sink_mode)
        return metrics

    def _update_metrics(self, outputs):
        outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
        for metric in self._metric_fns.values():
            if metric.indexes is not None:
                # the metric picks its inputs (``rearrange_inputs``), as in MindSpore
                metric.update(*outputs)
            elif self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, nn.metrics.Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _evaluate(self, dataset, callbacks, sink, want_loss=False):
        params = CallbackParams(
            eval_network=self._eval_network, network=self._network, valid_dataset=dataset,
            batch_num=dataset.get_dataset_size(), cur_step_num=0, mode="eval",
            dataset_sink_mode=sink, list_callback=callbacks.callbacks,
            metrics=None, net_outputs=None, eval_dataset_element=None, cur_epoch_num=1)
        run_context = RunContext(params)
        for metric in self._metric_fns.values():
            metric.clear()
        loss_metric = nn.metrics.Loss() if want_loss and self._eval_indexes else None
        evaluate = self._runner(self._eval_network)
        self._eval_network.set_train(False)
        callbacks.on_eval_begin(run_context)
        callbacks.on_eval_epoch_begin(run_context)
        iterator = dataset.create_tuple_iterator(num_epochs=1)
        for data in iterator:
            params.eval_dataset_element = data
            callbacks.on_eval_step_begin(run_context)
            outputs = evaluate(*data)
            params.net_outputs = outputs
            self._update_metrics(outputs)
            if loss_metric is not None:
                loss_metric.update(outputs[self._eval_indexes[0]])
            params.cur_step_num += 1
            callbacks.on_eval_step_end(run_context)
            if run_context.get_stop_requested():
                iterator.stop()
                break
        metrics = {name: metric.eval() for name, metric in self._metric_fns.items()}
        params.metrics = metrics
        callbacks.on_eval_epoch_end(run_context)
        callbacks.on_eval_end(run_context)
        return metrics, (loss_metric.eval() if loss_metric is not None and
                         loss_metric._total_num else None)

    def predict(self, *predict_data, backend=None):
        """The network's outputs for ``predict_data`` (inference mode, compiled)."""
        self._network.set_train(False)
        return self._runner(self._network)(*predict_data)


def _endless(iterator):
    """The dataset's epochs one after the other (each loop over the iterator is one)."""
    while True:
        yield from iterator


class _SinkEpochs:
    """Batches for sink-mode epochs from one queue (each epoch ``steps`` batches)."""

    def __init__(self, batches, steps):
        self.batches, self.steps = batches, steps

    def next_epoch(self):
        for _ in range(self.steps):
            yield next(self.batches)

    def close(self):
        self.batches.close()
