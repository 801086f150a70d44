"""tensorjit: a Python tensor framework with a just-in-time compiler (MindSpore API)."""
from . import dtype
from .dtype import (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
                    float32, float64, bfloat16, half, single, double)
from .tensor import Tensor, Parameter
from . import ops
from .ops import set_seed
from .autodiff import grad, value_and_grad, vjp, no_grad
from . import nn
from . import numpy   # mindspore.numpy (import tensorjit.numpy as mnp)
from . import mint
from .checkpoint import save_checkpoint, load_checkpoint, load_param_into_net
from . import dataset
from . import mindrecord   # mindspore.mindrecord (MindRecord files)
from . import amp
from . import train
from .train import SummaryRecord   # mindspore.SummaryRecord
# mindspore exports train's names at the top too (``from mindspore import Model, LossMonitor``)
from .train import (Model, Callback, RunContext, LossMonitor, TimeMonitor, ModelCheckpoint,
                    CheckpointConfig, EarlyStopping, History, LambdaCallback,
                    LearningRateScheduler, Metric, Accuracy, Loss, Precision, Recall, F1, MAE,
                    MSE, TopKCategoricalAccuracy, get_metric_fn, FixedLossScaleManager,
                    DynamicLossScaleManager, LossScaleManager, build_train_network)
from .jit import jit, make_ir, explain, mutable, JitSyntaxError, ms_function, jit_class, lazy_inline
from .functional import vmap, jvp, jacfwd, jacrev, hessian
from . import context
from .context import set_context, get_context, set_device, GRAPH_MODE, PYNATIVE_MODE
from .context import (ParallelMode, set_auto_parallel_context, get_auto_parallel_context,
                      reset_auto_parallel_context)
# MindSpore's import paths: mindspore.common, ops.functional / ops.composite, ms.tensor()
from . import common
from .ops import functional, composite
from .nn import ParameterTuple
from .ops.random import get_seed
from .ops.compat import is_tensor
from .ops.sparse import COOTensor, CSRTensor, RowTensor, RowTensorInner, SparseTensor
from . import profiler
from . import runtime   # mindspore.runtime (runtime settings, memory statistics)
from . import utils     # mindspore.utils (health checks, DLPack, dry run)
from .deploy import export, load       # (mindspore.export / mindspore.load)
from .profiler import Profiler
from .tensor import tensor  # noqa: E402  (the function; the module stays tensorjit.tensor)
# MindSpore's ops namespace holds the function transforms too (ops.grad, ops.vmap, ...);
# they live above ops (autodiff, functional), so this facade puts them there
from .autodiff import GradOperation
from .functional import linearize, derivative
for _name, _transform in dict(
        grad=grad, value_and_grad=value_and_grad, vjp=vjp, jvp=jvp, jacfwd=jacfwd,
        jacrev=jacrev, vmap=vmap, linearize=linearize, derivative=derivative,
        GradOperation=GradOperation).items():
    setattr(ops, _name, _transform)
del _name, _transform

__version__ = "0.1.0"
