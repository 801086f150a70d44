"""Optimizers: cells that update parameters in place from their gradients."""
from .optimizer import Optimizer
from .sgd import SGD
from .momentum import Momentum
from .adam import Adam
from .adam_weight_decay import AdamWeightDecay, AdamW

__all__ = ["Optimizer", "SGD", "Momentum", "Adam", "AdamWeightDecay", "AdamW"]
