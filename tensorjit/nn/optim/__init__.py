"""Optimizers: cells that update parameters in place from their gradients."""
from .optimizer import Optimizer
from .sgd import SGD
from .momentum import Momentum
from .adam import Adam

__all__ = ["Optimizer", "SGD", "Momentum", "Adam"]
