"""The rows of seed 000's tables, and the extra configurations we also measure.

A row is one ``jit`` configuration (or eager execution). Its id is what ``--rows`` matches:
``eager``, ``ast.O0``, ``bytecode.GE``, ``ast.O1.fullgraph``, ...
"""
from dataclasses import dataclass, asdict

CAPTURE_MODES = ("ast", "bytecode", "trace")


@dataclass(frozen=True)
class RowSpec:
    capture_mode: str = None        # None: eager (no jit)
    jit_level: str = "O0"
    backend: str = "ms_backend"     # "ms_backend" | "GE"
    fullgraph: bool = False
    seed: bool = True               # is the row in seed 000's table for this workload?

    @property
    def eager(self):
        return self.capture_mode is None

    @property
    def id(self):
        if self.eager:
            return "eager"
        parts = [self.capture_mode, "GE" if self.backend == "GE" else self.jit_level]
        if self.fullgraph:
            parts.append("fullgraph")
        return ".".join(parts)

    def jit_kwargs(self):
        """The arguments of ``jit`` for this row, written as the seed writes them (GE rows
        give ``backend="GE"`` and keep the default level)."""
        kwargs = {"capture_mode": self.capture_mode}
        if self.backend == "GE":
            kwargs["backend"] = "GE"
        else:
            kwargs["jit_level"] = self.jit_level
        if self.fullgraph:
            kwargs["fullgraph"] = True
        return kwargs

    def cells(self):
        """The seed table's first five columns."""
        if self.eager:
            return ["false", "-", "-", "-", "-"]
        return ["true", "-" if self.backend == "GE" else self.jit_level, self.capture_mode,
                self.backend, "true" if self.fullgraph else "false"]

    def to_json(self):
        d = asdict(self)
        d["id"] = self.id
        return d

    @classmethod
    def from_json(cls, d):
        return cls(d["capture_mode"], d["jit_level"], d["backend"], d["fullgraph"], d["seed"])


EAGER = RowSpec()


def _mode_rows(mode, fullgraph=False, seed=True):
    return [RowSpec(mode, "O0", "ms_backend", fullgraph, seed),
            RowSpec(mode, "O1", "ms_backend", fullgraph, seed),
            RowSpec(mode, "O0", "GE", fullgraph, seed)]


def simple_rows():
    """Seed 000's simple-function table: eager; ast, bytecode, trace x O0/O1/GE; ast
    fullgraph x O0/O1/GE. Each group is one block of the printed table."""
    return [[EAGER], _mode_rows("ast"), _mode_rows("bytecode"), _mode_rows("trace"),
            _mode_rows("ast", fullgraph=True)]


def block_rows():
    """The conv and attention tables: the seed's eager, ast O0, ast O1, then (not in the
    seed) ast GE and bytecode / trace x O0/O1/GE."""
    ast = _mode_rows("ast")
    ast[2] = RowSpec("ast", "O0", "GE", False, seed=False)
    return [[EAGER] + ast, _mode_rows("bytecode", seed=False),
            _mode_rows("trace", seed=False)]


def rows_for(workload):
    return simple_rows() if workload == "simple" else block_rows()


def select(groups, selector):
    """Keep the rows ``selector`` names; eager always stays (it is the reference).

    ``selector``: "all" (default), "seed" (only seed 000's rows), or comma-separated tokens,
    each matching a row id exactly (``trace.O1``) or one of its parts (``O1``, ``GE``,
    ``bytecode``, ``fullgraph``)."""
    if selector in (None, "", "all"):
        return [list(g) for g in groups]
    tokens = [t.strip() for t in selector.split(",") if t.strip()]
    out = []
    for group in groups:
        kept = [r for r in group if r.eager or _matches(r, tokens)]
        if kept:
            out.append(kept)
    return out


def _matches(row, tokens):
    parts = set(row.id.split("."))
    for token in tokens:
        if token == "seed" and row.seed:
            return True
        if token == row.id or token in parts:
            return True
    return False


def known_tokens():
    tokens = {"all", "seed", "eager", "fullgraph", "GE", "O0", "O1"} | set(CAPTURE_MODES)
    for workload in ("simple", "conv"):
        for group in rows_for(workload):
            tokens |= {r.id for r in group}
    return tokens
