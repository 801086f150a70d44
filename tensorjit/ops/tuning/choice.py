"""A choice between kernels that depends on the machine, made by measuring them.

A module with several ways to compute the same thing declares one ``Choice`` per decision
(which BLAS runs the products, which algorithm runs a convolution of a given shape) and asks
it, with the candidates that apply, which one to run. The answer comes from, in order:

1. the override: the choice's environment variable names a candidate;
2. ``TENSORJIT_TUNE=0``: the module's built-in default (no measuring, no table);
3. the tuning table, if this machine measured that key before;
4. measuring the candidates now (the module's ``measure`` callable), recorded in the table.

A measurement taken while other processes kept the CPUs busy ranks the candidates by luck:
its choice serves this process (a choice never changes within a process, so results stay
reproducible) and the next process measures again; only a measurement on a quiet machine
goes into the table.
"""
import collections
import os
import threading

from . import timing
from .table import Table

TABLE = Table()
_consulted = collections.OrderedDict()     # (problem, key) -> Decision, in this process
_lock = threading.RLock()

Decision = collections.namedtuple("Decision", "problem key choice how seconds")
BUSY_CPUS = 0.3         # other processes' average use (CPUs) above which a timing is luck


def mode():
    """``TENSORJIT_TUNE``: "on" (default: measure what the table lacks), "off" (built-in
    defaults only) or "refresh" (measure again, replacing the table's entries)."""
    value = os.environ.get("TENSORJIT_TUNE", "1").strip().lower()
    if value in ("1", "on", "", "yes"):
        return "on"
    if value in ("0", "off", "no"):
        return "off"
    if value == "refresh":
        return "refresh"
    raise ValueError(f"TENSORJIT_TUNE={value!r}: expected 1 (measure once per machine, "
                     f"the default), 0 (built-in defaults, no measuring) or refresh")


class Choice:
    """One decision: ``problem`` names it in the table; ``names`` are all its candidates;
    ``env`` the variables (most specific first) that override it."""

    def __init__(self, problem, names, env, doc):
        self.problem, self.names, self.env, self.doc = problem, tuple(names), tuple(env), doc
        self._refreshed = set()
        self._this_process = {}       # key -> choice measured beside other work

    def override(self):
        """(variable, candidate) the environment forces, or None."""
        for variable in self.env:
            value = os.environ.get(variable, "").strip()
            if value and value.lower() != "auto":
                if value not in self.names:
                    raise ValueError(f"{variable}={value!r} is not a choice for "
                                     f"{self.problem}: expected one of "
                                     f"{', '.join(self.names)} or auto")
                return variable, value
        return None

    def __call__(self, key, candidates, measure, default):
        """The candidate to run for ``key`` (text naming the shape class). ``candidates``:
        the names that apply here, in the module's order of preference; ``measure(names)``
        -> {name: seconds or reason}; ``default``: the built-in answer."""
        forced = self.override()
        if forced and forced[1] in candidates:
            return self._note(key, forced[1], f"set by {forced[0]}", {})
        if len(candidates) == 1:
            return candidates[0]
        if mode() == "off":
            return self._note(key, default, "built-in default (TENSORJIT_TUNE=0)", {})
        with _lock:
            entry = TABLE.get(self.problem, key)
            fresh = mode() == "refresh" and key not in self._refreshed
            if entry is not None and entry["choice"] in candidates and not fresh:
                return self._note(key, entry["choice"], "from the tuning table",
                                  entry["seconds"])
            if self._this_process.get(key) in candidates:
                return self._this_process[key]
            with timing.OtherLoad() as load:
                seconds = measure(list(candidates))
            choice = timing.fastest(seconds, prefer=default) or default
            if load.cpus is not None and load.cpus > BUSY_CPUS:
                self._this_process[key] = choice
                return self._note(key, choice, f"measured beside other work ({load.cpus:.1f} "
                                  f"CPUs busy): kept for this process only", seconds)
            note = "measured" if timing.fastest(seconds) else "nothing ran: built-in default"
            TABLE.put(self.problem, key, {"choice": choice, "seconds": seconds, "note": note})
            self._refreshed.add(key)
            return self._note(key, choice, "measured now", seconds)

    def record(self, key, choice, how, seconds):
        """Record a choice made without measuring in this process (e.g. a probe failed)."""
        return self._note(key, choice, how, seconds)

    def _note(self, key, choice, how, seconds):
        with _lock:
            _consulted[(self.problem, key)] = Decision(self.problem, key, choice, how,
                                                       dict(seconds))
        return choice


def consulted():
    """The decisions this process has taken, in the order first taken."""
    with _lock:
        return list(_consulted.values())
