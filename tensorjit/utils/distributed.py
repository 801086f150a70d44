"""Helpers for distributed training: communication order check and graceful exit."""
import warnings

from .. import ops
from ..communication import get_group_size
from ..tensor import Tensor

_order = {"collecting": False}


def comm_exec_order_check(action):
    """'start' collecting communication operators' execution order, 'end' to check it.

    tensorjit runs collectives in program order on every rank, so the recorded order is that
    of the script and the check passes; misuse is reported as MindSpore reports it."""
    if not isinstance(action, str):
        raise TypeError("The 'action' parameter must be a string.")
    if action == "start":
        if _order["collecting"]:
            warnings.warn("The 'start' action cannot be called twice.")
            return
        _order["collecting"] = True
    elif action == "end":
        if not _order["collecting"]:
            warnings.warn("The 'end' action cannot be called before the 'start' action.")
            return
        _order["collecting"] = False
    else:
        raise ValueError("Invalid action. Please use 'start' or 'end'.")


class ExitByRequest:
    """Graceful exit: every rank agrees to stop once all ranks have asked to."""

    def __init__(self):
        self.group_size = get_group_size()
        self.is_distributed = self.group_size > 1
        self.all_reduce = ops.AllReduce()

    def exit_by_request(self, grad, init_value, exit_value):
        """Set ``exit_value`` to whether all ranks' ``init_value`` flags are 1; return grad."""
        if self.is_distributed:
            total = self.all_reduce(init_value)
            agreed = ops.ReduceAll(keep_dims=False)(ops.equal(total, Tensor([self.group_size])))
            grad = ops.depend(grad, ops.assign(exit_value, agreed))
        return grad
