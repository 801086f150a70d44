"""``tensorjit.train``: ``Model`` (train / fit / eval / predict with a jitted step),
callbacks, metrics, checkpoints and loss scale managers under MindSpore's names. It sits at
the top of the layers: ``Model`` compiles its steps with ``jit``."""
from .model import Model
from .callbacks import (Callback, RunContext, LossMonitor, TimeMonitor, History, EarlyStopping,
                        LambdaCallback, LearningRateScheduler)
from .checkpoint_callback import CheckpointConfig, ModelCheckpoint
from ..nn.metrics import (Metric, Accuracy, Loss, Precision, Recall, Fbeta, F1, MAE, MSE,
                          TopKCategoricalAccuracy, Top1CategoricalAccuracy,
                          Top5CategoricalAccuracy, get_metric_fn, names)
from ..nn import metrics
from ..checkpoint import save_checkpoint, load_checkpoint, load_param_into_net
from ..amp import (LossScaleManager, FixedLossScaleManager, DynamicLossScaleManager,
                   build_train_network)
from . import callbacks
from . import summary
from .summary import SummaryRecord

__all__ = ["Model", "Callback", "RunContext", "LossMonitor", "TimeMonitor", "History",
           "EarlyStopping", "LambdaCallback", "LearningRateScheduler", "CheckpointConfig",
           "ModelCheckpoint", "Metric", "Accuracy", "Loss", "Precision", "Recall", "Fbeta", "F1",
           "MAE", "MSE", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy",
           "Top5CategoricalAccuracy", "get_metric_fn", "names", "metrics", "save_checkpoint",
           "load_checkpoint", "load_param_into_net", "LossScaleManager", "FixedLossScaleManager",
           "DynamicLossScaleManager", "build_train_network", "callbacks", "summary",
           "SummaryRecord"]
