"""Training wrappers: ``WithLossCell`` (network + loss) and ``TrainOneStepCell``
(forward, backward and optimizer update as one call)."""
import numbers

from .. import ops
from ..autodiff import value_and_grad
from .cell import Cell
from .optim.optimizer import Optimizer
from .parallel import DistributedGradReducer, data_parallel_group_size

__all__ = ["WithLossCell", "WithEvalCell", "TrainOneStepCell"]


class WithLossCell(Cell):
    """``loss_fn(backbone(data), label)``."""

    def __init__(self, backbone, loss_fn):
        # No prefix: the backbone's parameter names stay as they are.
        super().__init__(auto_prefix=False)
        if not isinstance(backbone, Cell):
            raise TypeError(f"WithLossCell: 'backbone' must be a Cell, got "
                            f"{type(backbone).__name__}")
        if not callable(loss_fn):
            raise TypeError(f"WithLossCell: 'loss_fn' must be callable, got "
                            f"{type(loss_fn).__name__}")
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self):
        return self._backbone


class WithEvalCell(Cell):
    """``(loss, outputs, label)`` of ``network(data)`` (what ``Model.eval`` feeds its
    metrics); the loss is that of ``loss_fn`` (outputs cast to float32 with
    ``add_cast_fp32``)."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = bool(add_cast_fp32)

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = ops.cast(label, "float32")
            outputs = ops.cast(outputs, "float32")
        return self._loss_fn(outputs, label), outputs, label


class TrainOneStepCell(Cell):
    """One training step: the loss of ``network(*inputs)``, its gradients with respect to
    ``optimizer.parameters`` (scaled by ``sens``; reduced across ranks under
    ``ParallelMode.DATA_PARALLEL``), and the optimizer update. Returns the
    loss (and the gradients with ``return_grad=True``)."""

    def __init__(self, network, optimizer, sens=1.0, return_grad=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, Cell):
            raise TypeError(f"TrainOneStepCell: 'network' must be a Cell, got "
                            f"{type(network).__name__}")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"TrainOneStepCell: 'optimizer' must be an nn.Optimizer, got "
                            f"{type(optimizer).__name__}")
        sens = 1.0 if sens is None else sens
        if isinstance(sens, bool) or not isinstance(sens, numbers.Real):
            raise TypeError(f"TrainOneStepCell: 'sens' must be a number, got {sens!r}")
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.sens = float(sens)
        self.return_grad = bool(return_grad)
        self.grad_fn = value_and_grad(self.network, None, self.weights)
        # MindSpore: under DATA_PARALLEL the step reduces gradients across ranks
        self.reducer_flag = data_parallel_group_size() > 1
        self.grad_reducer = DistributedGradReducer(self.weights) if self.reducer_flag else None

    def construct(self, *inputs):
        loss, grads = self.grad_fn(*inputs)
        if self.sens != 1.0:
            # The gradient of (sens * loss): the sensitivity scales every gradient.
            grads = tuple(ops.mul(g, self.sens) for g in grads)
        if self.reducer_flag:
            grads = self.grad_reducer(grads)
        loss = ops.depend(loss, self.optimizer(grads))
        if self.return_grad:
            return loss, grads
        return loss
