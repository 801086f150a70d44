"""Totals by name, as PyTorch's ``prof.key_averages().table(...)`` prints them: self and
total time, calls and average per operator, kernel or compile phase; optionally split by
input shapes or by the user's source line."""
import os

SORT_KEYS = {"self_cpu_time_total": "self_cpu_time_total", "cpu_time_total": "cpu_time_total",
             "cpu_time": "cpu_time", "count": "count",
             "self_cpu_memory_usage": "self_cpu_memory_usage",
             "cpu_memory_usage": "cpu_memory_usage"}


class Average:
    """The spans of one key (``FunctionEventAvg`` in PyTorch's terms). Times in us."""

    def __init__(self, key, category, input_shapes, line):
        self.key, self.category = key, category
        self.input_shapes, self.line = input_shapes, line
        self.count = 0
        self.cpu_time_total = self.self_cpu_time_total = 0.0
        self.cpu_memory_usage = self.self_cpu_memory_usage = 0

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    @property
    def stack(self):
        return [self.line] if self.line else []

    def add(self, event):
        self.count += 1
        self.cpu_time_total += event.duration
        self.self_cpu_time_total += event.self_time
        self.cpu_memory_usage += int(event.args.get("bytes", 0) or 0)
        self.self_cpu_memory_usage += int(event.args.get("bytes", 0) or 0)

    def __repr__(self):
        return (f"<Average key={self.key!r} count={self.count} "
                f"self_cpu_time_total={self.self_cpu_time_total:.1f}us>")


class EventList(list):
    """A list of ``Average`` rows with PyTorch's ``table`` and ``total_average``."""

    def table(self, sort_by=None, row_limit=100, max_name_column_width=55,
              max_src_column_width=75, header=None, top_level_events_only=False,
              max_shapes_column_width=80):
        return format_table(self, sort_by, row_limit, max_name_column_width,
                            max_src_column_width, header, max_shapes_column_width)

    def total_average(self):
        total = Average("Total", "", None, None)
        for row in self:
            total.count += row.count
            total.cpu_time_total += row.cpu_time_total
            total.self_cpu_time_total += row.self_cpu_time_total
        return total

    def __str__(self):
        return self.table()


def key_averages(recording, group_by_input_shape=False, group_by_stack_n=0):
    """One row per span name (and input shapes / source line when asked)."""
    rows = {}
    for event in recording.spans():
        if event.category == "step":
            continue
        shapes = _shapes(event) if group_by_input_shape else None
        line = event.args.get("line") if group_by_stack_n else None
        key = (event.name, shapes, line)
        row = rows.get(key)
        if row is None:
            row = rows[key] = Average(event.name, event.category, shapes, line)
        row.add(event)
    return EventList(rows.values())


def by_source_line(recording):
    """Kernel and op time per user source line (self time: a jitted call's own overhead
    is not a line's)."""
    rows = {}
    for event in recording.spans():
        if event.category not in ("kernel", "op", "collective"):
            continue
        lines = event.args.get("lines") or [event.args.get("line")]
        line = lines[0] or "(no source line)"
        row = rows.get(line)
        if row is None:
            row = rows[line] = Average(line, "line", None, None)
        row.add(event)
    return EventList(rows.values())


def _shapes(event):
    shapes = event.args.get("shapes")
    return str(shapes) if shapes else "[]"


def format_table(rows, sort_by, row_limit, name_width, src_width, header, shapes_width):
    attribute = SORT_KEYS.get(sort_by or "self_cpu_time_total")
    if attribute is None:
        raise ValueError(f"table: sort_by must be one of {sorted(SORT_KEYS)}, got {sort_by!r}")
    ordered = sorted(rows, key=lambda r: getattr(r, attribute), reverse=True)
    if row_limit is not None and row_limit >= 0:
        ordered = ordered[:row_limit]
    self_total = sum(r.self_cpu_time_total for r in rows) or 1.0
    with_shapes = any(r.input_shapes is not None for r in rows)
    with_source = any(r.line for r in rows)
    name_width = max([len("Name")] + [min(len(_short(r.key) if r.category == "line" else r.key),
                                          name_width) for r in ordered]) + 2
    columns = [("Name", name_width), ("Self CPU %", 12), ("Self CPU", 12),
               ("CPU total %", 12), ("CPU total", 12), ("CPU time avg", 12),
               ("# of Calls", 12)]
    if with_shapes:
        columns.append(("Input Shapes", shapes_width))
    if with_source:
        columns.append(("Source Location", src_width))
    rule = "  ".join("-" * width for _, width in columns)
    lines = [header] if header else []
    lines += [rule, "  ".join(f"{title:<{width}}" if i == 0 else f"{title:>{width}}"
                              for i, (title, width) in enumerate(columns)), rule]
    for r in ordered:
        name = _short(r.key) if r.category == "line" else r.key
        cells = [_clip(name, name_width - 2).ljust(name_width),
                 f"{100 * r.self_cpu_time_total / self_total:.2f}%".rjust(12),
                 time_text(r.self_cpu_time_total).rjust(12),
                 f"{100 * r.cpu_time_total / self_total:.2f}%".rjust(12),
                 time_text(r.cpu_time_total).rjust(12), time_text(r.cpu_time).rjust(12),
                 str(r.count).rjust(12)]
        if with_shapes:
            cells.append(_clip(r.input_shapes or "", shapes_width).rjust(shapes_width))
        if with_source:
            cells.append(_clip(_short(r.line), src_width).rjust(src_width))
        lines.append("  ".join(cells))
    lines += [rule, f"Self CPU time total: {time_text(self_total if rows else 0.0)}"]
    return "\n".join(lines) + "\n"


def time_text(us):
    """Microseconds as PyTorch's tables show them: ``1.234ms``."""
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


def _clip(text, width):
    return text if len(text) <= width else text[:max(width - 3, 0)] + "..."


def _short(line):
    """``dir/file.py:12`` rather than the whole path."""
    if not line:
        return ""
    path, _, number = line.rpartition(":")
    parts = path.split(os.sep)
    return f"{os.sep.join(parts[-2:])}:{number}"


PHASES = ("capture", "passes", "codegen", "numba compile", "numba load", "first run",
          "profiler's timed copy", "other")


def compile_breakdown(recording):
    """For each jitted call that compiled: its time split into phases (``PHASES``: self
    times of the spans inside it, so nothing counts twice and the phases add up to the
    call), with the compile's reason, mode, level and the capture's graph breaks."""
    calls = []
    spans = recording.spans()
    for call in spans:
        if call.category != "jit":
            continue
        inside = [e for e in spans if e.tid == call.tid and e is not call and
                  call.start <= e.start < call.end]
        compiles = [e for e in inside if e.category == "compile" and
                    e.name.startswith("compile ")]
        if not compiles:
            continue
        phases = dict.fromkeys(PHASES, 0.0)
        breaks = []
        for e in inside:
            phases[phase_of(e)] += e.self_time
            breaks += e.args.get("graph_breaks") or []
        phases["other"] += call.self_time        # dispatch around the compile
        args = compiles[0].args
        calls.append({"function": call.name, "reason": args.get("reason", ""),
                      "mode": args.get("mode", ""), "level": args.get("level", ""),
                      "start": call.start, "total": call.duration, "phases": phases,
                      "graph_breaks": breaks})
    return calls


def compile_outside_calls(recording):
    """Compile work on no jitted call's time: kernels compiled or loaded by a background
    thread, compiles while nothing was called."""
    spans = recording.spans()
    calls = [e for e in spans if e.category == "jit"]
    return [e for e in spans if e.category == "compile" and not any(
        c.tid == e.tid and c.start <= e.start < c.end for c in calls)]


def phase_of(event):
    """The compile phase a span's self time belongs to."""
    if event.category == "pass":
        return "passes"
    if event.category in ("kernel", "op", "collective"):
        return "first run"
    if event.category != "compile":
        return "other"
    name = event.name
    if name.startswith("codegen (timed copy"):
        return "profiler's timed copy"
    for phase in ("capture", "passes", "codegen", "numba compile", "numba load"):
        if name.startswith(phase):
            return phase
    return "other"               # the compile span's own bookkeeping
