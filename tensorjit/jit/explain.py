"""``explain(fn)(*args)``: what compiling ``fn`` did for these arguments -- the graphs,
graph breaks with their reasons and source lines, fallbacks, guards and recompilations,
and the kernel choices this machine's measurements made (ops/tuning)."""
from ..capture.breaks import KINDS, grouped
from ..ops import tuning


class Explanation:
    def __init__(self, jit_function, entry, result):
        self.jit_function = jit_function
        self.entry = entry
        self.result = result
        info = entry.info
        self.capture_mode = info.mode
        self.graph_count = info.graph_count
        self.breaks = list(info.breaks)
        self.break_count = len(self.breaks)
        self.fallbacks = list(info.fallbacks)
        self.guards = list(info.guards) + [g.description for g in entry.python_guards]
        self.compilations = [(e.reason, e.seconds) for e in jit_function.events]
        self.recompile_count = max(0, jit_function.compile_count - 1)
        self.shape_generic = entry.shapes is None

    def __str__(self):
        jf = self.jit_function
        opts = jf.opts
        lines = [f"explain {jf.name}: capture_mode={opts.capture_mode}, "
                 f"jit_level={opts.jit_level}, backend={opts.backend}",
                 f"  graphs for this call: {self.graph_count} "
                 f"({self.entry.graph.count_nodes()} nodes"
                 f"{', reused for any input shapes' if self.shape_generic else ''})"]
        if self.breaks:
            lines.append(f"  graph breaks: {self.break_count}")
            lines += _grouped_lines(self.breaks)
        else:
            lines.append("  graph breaks: none")
        if self.fallbacks:
            lines.append(f"  statements run as Python (fallback): {len(self.fallbacks)}")
            lines += _grouped_lines(self.fallbacks)
        if self.guards:
            lines.append(f"  guards on values ({len(self.guards)}):")
            lines += [f"    - {g}" for g in self.guards]
        else:
            lines.append("  guards on values: none (input types, shapes and dtypes only)")
        memory = getattr(self.entry.graph, "memory", None)
        if memory:
            from ..passes.schedule import format_bytes
            lines.append(f"  exec_order: {memory['exec_order']}, estimated peak memory of "
                         f"intermediates: {format_bytes(memory['peak_bytes'])}")
        total = self.recompile_count + 1
        shown = len(self.compilations)
        lines.append(f"  compilations: {total} (recompilations: {self.recompile_count})"
                     f"{f'; the latest {shown}:' if shown < total else ''}")
        lines += [f"    #{total - shown + i + 1} {reason} ({seconds * 1e3:.1f} ms)"
                  for i, (reason, seconds) in enumerate(self.compilations)]
        lines += _choice_lines(tuning.consulted())
        return "\n".join(lines)

    __repr__ = __str__


def _choice_lines(decisions):
    """The machine-dependent kernel choices taken so far in this process, and why."""
    if not decisions:
        return []
    lines = [f"  kernel choices on this machine ({len(decisions)}; python -m tensorjit.tune "
             f"lists them all):"]
    for d in decisions:
        timed = sorted((t, n) for n, t in d.seconds.items() if isinstance(t, float))
        measured = ", ".join(f"{n} {t * 1e3:.3g} ms" for t, n in timed)
        lines.append(f"    - {d.problem} {d.key}: {d.choice} ({d.how}"
                     + (f"; {measured}" if measured else "") + ")")
    return lines


def _grouped_lines(records):
    """Breaks or fallbacks grouped by kind, each kind with its hint once."""
    lines = []
    for kind, group in grouped(records).items():
        if kind is not None:
            lines.append(f"    {kind} ({len(group)}): {KINDS[kind][0]}")
            lines.append(f"      hint: {KINDS[kind][1]}")
        lines += [f"      - {reason} at {source}" for reason, source in group]
    return lines


def explain(fn, **jit_options):
    """``explain(fn)(*args)`` runs ``fn`` jitted (``fn`` may already be jitted, else
    ``jit_options`` apply) and returns an ``Explanation``; ``print`` it to read it."""
    from . import jit
    jitted = fn if getattr(fn, "_tj_jit", None) is not None and not jit_options else jit(fn, **jit_options)
    jit_function = jitted._tj_jit

    def explained(*args, **kwargs):
        result = jit_function.call(args, kwargs)
        return Explanation(jit_function, jit_function.last_entry, result)
    return explained
