"""Bytecode's own guard: a run-time value (from Python called during the call) keeps what
the graph was built for. The other guards are the shared vocabulary of capture/guards.py."""
from ..guards import Guard, same_value, short


class SlotGuard(Guard):
    """A run-time value keeps the type -- and for arrays the shape and dtype -- the graph
    was built for; ``exact`` also pins its value."""
    __slots__ = ("slot", "kind", "shape", "dtype", "value", "exact")

    def __init__(self, slot, value, exact=False, why=""):
        self.slot, self.kind, self.exact = slot, type(value), exact
        self.shape = getattr(value, "shape", None) if not isinstance(value, (int, float)) else None
        self.dtype = getattr(value, "dtype", None)
        self.value = value
        what = f"equals {short(value)}" if exact else f"is a {self.kind.__name__}" + (
            f" {self.dtype}{list(self.shape)}" if self.shape is not None else "")
        self.label = f"run-time value{' (' + why + ')' if why else ''}"
        self.description = f"{self.label} {what}"

    def check(self, env=None):
        value = env[self.slot]
        if type(value) is not self.kind:
            return False
        if self.shape is not None and (tuple(value.shape) != tuple(self.shape)
                                       or value.dtype != self.dtype):
            return False
        return same_value(value, self.value) if self.exact else True
