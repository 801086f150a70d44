"""Reverse-mode autodiff: a tape of primitive calls transposed with the VJP rules
(``tape.py``), the user-facing transforms (``transforms.py``), and primitives defined by a
closed graph, differentiated through that graph (``closed_graph.py``)."""
from .tape import Tape, no_grad, watch_tapes
from .transforms import grad, value_and_grad, vjp
from .grad_operation import GradOperation
from .closed_graph import bind_graph, graph_primitive

__all__ = ["Tape", "no_grad", "watch_tapes", "grad", "value_and_grad", "vjp", "GradOperation",
           "bind_graph", "graph_primitive"]
