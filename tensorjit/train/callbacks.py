"""Callbacks of ``Model.train`` / ``eval`` / ``fit`` with MindSpore's hooks and run-context
fields: ``Callback``, ``RunContext``, ``LossMonitor``, ``TimeMonitor``, ``History``,
``EarlyStopping``, ``LambdaCallback``, ``LearningRateScheduler``; checkpoints are in
``checkpoint_callback.py``."""
import copy
import time

import numpy as np

from ..tensor import Tensor

__all__ = ["Callback", "RunContext", "CallbackParams", "CallbackList", "LossMonitor",
           "TimeMonitor", "History", "EarlyStopping", "LambdaCallback",
           "LearningRateScheduler", "loss_value"]


class CallbackParams(dict):
    """The fields a callback reads (``cb_params.cur_step_num``), a dict with attributes."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"callback parameters have no field {name!r} (fields: "
                                 f"{sorted(self)})") from None

    def __setattr__(self, name, value):
        self[name] = value


class RunContext:
    """What a callback is given: ``original_args()`` (the fields) and ``request_stop()``."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"RunContext: original_args must be a dict, got "
                            f"{type(original_args).__name__}")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        return self._original_args

    def request_stop(self):
        self._stop_requested = True

    def get_stop_requested(self):
        return self._stop_requested


class Callback:
    """Base class; override the hooks you need. The old names (``begin``, ``epoch_begin``,
    ``step_begin``, ``step_end``, ``epoch_end``, ``end``) serve both training and evaluation,
    as in MindSpore."""

    def begin(self, run_context):
        pass

    def epoch_begin(self, run_context):
        pass

    def epoch_end(self, run_context):
        pass

    def step_begin(self, run_context):
        pass

    def step_end(self, run_context):
        pass

    def end(self, run_context):
        pass

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None


class CallbackList:
    """Calls one hook on every callback, in order."""

    def __init__(self, callbacks):
        if callbacks is None:
            callbacks = []
        elif isinstance(callbacks, Callback):
            callbacks = [callbacks]
        callbacks = list(callbacks)
        for cb in callbacks:
            if not isinstance(cb, Callback):
                raise TypeError(f"callbacks must be Callback instances, got {type(cb).__name__}")
        self.callbacks = callbacks

    def __getattr__(self, hook):
        if not hook.startswith("on_"):
            raise AttributeError(hook)

        def call(run_context):
            for cb in self.callbacks:
                getattr(cb, hook)(run_context)
        return call


def loss_value(outputs):
    """The loss as a float from a step's outputs (a Tensor, or a tuple whose first item
    is the loss)."""
    if isinstance(outputs, (tuple, list)) and outputs and isinstance(outputs[0], Tensor):
        outputs = outputs[0]
    if isinstance(outputs, Tensor):
        return float(np.mean(outputs.asnumpy()))
    return outputs


class LossMonitor(Callback):
    """Prints ``epoch: E step: S, loss is L`` every ``per_print_times`` steps (0: never);
    a NaN or infinite loss stops training with a ValueError."""

    def __init__(self, per_print_times=1):
        if isinstance(per_print_times, bool) or not isinstance(per_print_times, int) or \
                per_print_times < 0:
            raise ValueError(f"LossMonitor: 'per_print_times' must be an int >= 0, got "
                             f"{per_print_times!r}")
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def on_train_begin(self, run_context):
        self._last_print_time = 0

    def step_end(self, run_context):
        params = run_context.original_args()
        epoch = params.get("cur_epoch_num", 1)
        loss = loss_value(params.net_outputs)
        step_in_epoch = (params.cur_step_num - 1) % params.batch_num + 1
        if isinstance(loss, float) and not np.isfinite(loss):
            raise ValueError(f"In epoch: {epoch} step: {step_in_epoch}, loss is NAN or INF, "
                             f"training process cannot continue, terminating training.")
        if self._per_print_times and \
                params.cur_step_num - self._last_print_time >= self._per_print_times:
            self._last_print_time = params.cur_step_num
            print(f"epoch: {epoch} step: {step_in_epoch}, loss is {loss}", flush=True)

    def on_train_epoch_end(self, run_context):
        params = run_context.original_args()
        metrics = params.get("metrics")
        if metrics:
            print(f"Eval result: epoch {params.cur_epoch_num}, metrics: {metrics}", flush=True)


class TimeMonitor(Callback):
    """Prints each epoch's time and time per step."""

    def __init__(self, data_size=None, data_time=False):
        if data_size is not None and (not isinstance(data_size, int) or data_size <= 0):
            raise ValueError(f"TimeMonitor: 'data_size' must be a positive int, got {data_size!r}")
        self.data_size = data_size
        self.data_time = bool(data_time)
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self._step_end_time = None

    def epoch_begin(self, run_context):
        self.epoch_time = time.time()
        self.data_time_sum = 0.0
        self._step_end_time = self.epoch_time

    def on_train_step_begin(self, run_context):
        if self.data_time and self._step_end_time is not None:
            self.data_time_sum += time.time() - self._step_end_time

    def on_train_step_end(self, run_context):
        self._step_end_time = time.time()

    def epoch_end(self, run_context):
        elapsed = (time.time() - self.epoch_time) * 1000
        params = run_context.original_args()
        steps = params.get("batch_num") or self.data_size or 1
        log = (f"{params.get('mode', '').title()} epoch time: {elapsed:5.3f} ms, per step "
               f"time: {elapsed / steps:5.3f} ms")
        if self.data_time:
            log += f" (data time: {self.data_time_sum * 1000 / steps:5.3f} ms)"
        print(log, flush=True)


class History(Callback):
    """``history.history``: per epoch, the mean of the step's outputs (``net_output``) and
    the evaluation metrics of ``fit``; ``history.epoch``: ``{"epoch": [1, 2, ...]}``."""

    def __init__(self):
        self.history = {}
        self.epoch = None

    def begin(self, run_context):
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context):
        params = run_context.original_args()
        self.epoch["epoch"].append(params.get("cur_epoch_num", 1))
        entry = {"net_output": loss_value(params.net_outputs)}
        entry.update(params.get("metrics") or {})
        for key, value in entry.items():
            self.history.setdefault(key, []).append(value)


_SMALLER_IS_BETTER = ("mae", "mse", "loss", "eval_loss", "perplexity")


class EarlyStopping(Callback):
    """Stops training (``run_context.request_stop()``) when ``monitor`` ("loss", the train
    loss, or an evaluation result of ``fit`` such as "eval_loss" or "accuracy") has not
    improved by ``min_delta`` for ``patience`` epochs; ``restore_best_weights`` loads the
    best epoch's parameters back."""

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False,
                 mode="auto", baseline=None, restore_best_weights=False):
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"EarlyStopping: 'mode' must be 'auto', 'min' or 'max', got "
                             f"{mode!r}")
        self.monitor, self.patience, self.verbose = monitor, int(patience), bool(verbose)
        self.baseline, self.restore_best_weights = baseline, bool(restore_best_weights)
        smaller = mode == "min" or (mode == "auto" and monitor in _SMALLER_IS_BETTER)
        self.min_delta = -abs(min_delta) if smaller else abs(min_delta)
        self._better = (lambda a, b: a - self.min_delta < b) if smaller else \
            (lambda a, b: a - self.min_delta > b)
        self._initial = np.inf if smaller else -np.inf
        self.wait, self.stopped_epoch, self.best, self.best_weights = 0, 0, self._initial, None

    def on_train_begin(self, run_context):
        self.wait, self.stopped_epoch, self.best, self.best_weights = 0, 0, self._initial, None

    def _current(self, params):
        if self.monitor == "loss":
            value = loss_value(params.get("net_outputs"))
        else:
            value = (params.get("eval_results") or {}).get(self.monitor)
        return None if value is None else float(value)

    def on_train_epoch_end(self, run_context):
        params = run_context.original_args()
        current = self._current(params)
        if current is None:
            return
        network = params.train_network
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = _snapshot(network)
        self.wait += 1
        if self._better(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights = _snapshot(network)
            if self.baseline is None or self._better(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = params.cur_epoch_num
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                for param in network.get_parameters():
                    if param.name in self.best_weights:
                        param.set_data(Tensor(self.best_weights[param.name]))

    def on_train_end(self, run_context):
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch:05d}: early stopping")


def _snapshot(network):
    return {p.name: copy.deepcopy(p.asnumpy()) for p in network.get_parameters()}


class LambdaCallback(Callback):
    """A callback from functions: ``LambdaCallback(on_train_step_end=fn, ...)``."""

    HOOKS = ("on_train_begin", "on_train_epoch_begin", "on_train_step_begin",
             "on_train_step_end", "on_train_epoch_end", "on_train_end", "on_eval_begin",
             "on_eval_epoch_begin", "on_eval_step_begin", "on_eval_step_end",
             "on_eval_epoch_end", "on_eval_end")

    def __init__(self, **hooks):
        unknown = set(hooks) - set(self.HOOKS)
        if unknown:
            raise ValueError(f"LambdaCallback: unknown hooks {sorted(unknown)}")
        for name, fn in hooks.items():
            if fn is not None:
                setattr(self, name, fn)


class LearningRateScheduler(Callback):
    """After each step, sets the optimizer's learning rate to
    ``learning_rate_function(lr, cur_step_num)``."""

    def __init__(self, learning_rate_function):
        if not callable(learning_rate_function):
            raise TypeError("LearningRateScheduler: 'learning_rate_function' must be callable")
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context):
        params = run_context.original_args()
        lr_param = params.optimizer.learning_rate
        if not isinstance(lr_param, Tensor) or lr_param.ndim != 0:
            raise TypeError("LearningRateScheduler needs an optimizer with a fixed learning rate "
                            "(a number or 0-d Parameter)")
        lr = float(lr_param.asnumpy())
        new = self.learning_rate_function(lr, params.cur_step_num)
        if new != lr:
            lr_param.set_data(Tensor(np.float32(new)))
