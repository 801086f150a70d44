"""Why part of a function runs as Python: graph breaks (bytecode) and fallbacks (ast).

Each is a ``GraphBreak``: it reads as ``(reason, "file:line")`` and carries a *kind*, one of
``KINDS``, and a *hint* saying what the user can do, so ``explain`` groups breaks by kind
and says once per kind how to avoid them.
"""

TENSOR_VALUE = "tensor value"
PRINT = "print"
OPAQUE_CALL = "opaque call"
PYTHON_STATE = "Python state"
RUNTIME_DECISION = "run-time decision"
UNSUPPORTED_SYNTAX = "unsupported syntax"

KINDS = {
    TENSOR_VALUE: ("Python reads a tensor's value (bool, int, float, item, asnumpy, "
                   "formatting, an if/while on a tensor)",
                   "keep it a tensor (ops.where instead of if; capture_mode='ast' turns "
                   "tensor if/while/for into graph control flow), or pass the Python "
                   "value as a static argument"),
    PRINT: ("printing",
            "ops.print_ prints from inside the graph without a break"),
    OPAQUE_CALL: ("a call tensorjit cannot follow (C or third-party code given tensors, a "
                  "function chosen at run time)",
                  "do the tensor work with tensorjit ops, or move the call out of the "
                  "jitted function"),
    PYTHON_STATE: ("a write to Python state outside the function (globals, closure "
                   "variables, attributes or items of outside objects)",
                   "return the new value instead, or keep the state in a Parameter and "
                   "update it with assign_value"),
    RUNTIME_DECISION: ("a decision on a Python value computed while the function runs",
                       "pass the value as a tensor (or mutable()) so one graph serves every "
                       "value, or as a static argument"),
    UNSUPPORTED_SYNTAX: ("a construct the capture does not turn into a graph (try/except, "
                         "with, generators, ...)",
                         "move it out of the jitted function; fullgraph=True makes it an "
                         "error naming the construct"),
}


class GraphBreak(tuple):
    """``(reason, source)`` plus ``kind`` and ``hint``."""

    def __new__(cls, reason, source, kind):
        if kind not in KINDS:
            raise ValueError(f"unknown graph-break kind {kind!r}")
        record = super().__new__(cls, (reason, source))
        record.kind = kind
        return record

    @property
    def reason(self):
        return self[0]

    @property
    def source(self):
        return self[1]

    @property
    def hint(self):
        return KINDS[self.kind][1]


def grouped(breaks):
    """{kind: [GraphBreak]} in order of first appearance (plain tuples: kind None)."""
    groups = {}
    for record in breaks:
        groups.setdefault(getattr(record, "kind", None), []).append(record)
    return groups
