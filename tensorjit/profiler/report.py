"""A recording as one HTML page: a timeline of every thread, the top kernels, time by source
line, the compile-time breakdown, each graph's IR with the time of each node, and the memory
curve.

The page is one self-contained file: nothing is fetched when it opens (it is often opened
from a remote machine's disk, or offline). Plotly draws the two charts, which gives zoom and
hover for free; plotly.js is inlined once, in the head, and every chart uses it. Plotly is
optional: without it the page keeps every table and says how to get the charts. The tables
are plain HTML (html_page.py), user text (names, source lines, IR) escaped,
with a few lines of script to sort them by a click on a column.
"""
import collections
import linecache
import numbers

from .. import files
from . import summary
from .summary import PHASES, time_text
from .html_page import (Html, Num, table, figure, more, percent, amount, shortened, esc, STYLE,
                        SORT_SCRIPT, PAGE)

MAX_SPANS = 20_000       # the timeline draws the longest spans only: bounds the page's size
MAX_INSTANTS = 2_000
TABLE_ROWS = 50          # rows per ranked table unless write_report is told otherwise
KERNELS = ("kernel", "collective")
COLORS = {"jit": "#4c78a8", "kernel": "#f58518", "collective": "#e45756", "op": "#54a24b",
          "compile": "#b279a2", "pass": "#d6a5c9", "cache": "#9d755d", "dataset": "#72b7b2",
          "user": "#eeca3b", "step": "#bab0ac"}


def write_report(recording, path, table_rows=None):
    """Write the report of ``recording`` (a ``Recording``) to ``path``; ``table_rows``:
    how many rows the ranked tables show (default 50)."""
    text = render(recording, table_rows)
    files.write_atomically(path, lambda f: f.write(text.encode("utf-8")),
                           mode=files.default_mode())
    return path


def render(recording, table_rows=None):
    """The report's HTML text."""
    rows = table_rows or TABLE_ROWS
    plotly = _plotly()
    sections = [("overview", "Overview", _overview(recording)),
                ("timeline", "Timeline", _timeline(recording, plotly)),
                ("kernels", "Top kernels and eager ops", _top_kernels(recording, rows)),
                ("lines", "Time by source line", _by_line(recording, rows)),
                ("compile", "Compile time", _compile(recording, rows)),
                ("graphs", "Graphs", _graphs(recording)),
                ("memory", "Memory", _memory(recording, plotly))]
    nav = " · ".join(f'<a href="#{key}">{title}</a>' for key, title, _ in sections)
    body = "\n".join(f'<section id="{key}"><h2>{title}</h2>\n{content}</section>'
                     for key, title, content in sections)
    script = f"<script>{plotly.offline.get_plotlyjs()}</script>" if plotly else ""
    return PAGE.format(title=esc(f"tensorjit profile: {recording.process_name}"),
                        style=STYLE, plotlyjs=script, nav=nav, body=body, sort=SORT_SCRIPT)


def _plotly():
    """plotly (with graph_objects and offline loaded), or None when it is not installed."""
    try:
        import plotly.graph_objects  # noqa: F401
        import plotly.offline  # noqa: F401
        import plotly
    except ImportError:
        return None
    return plotly


_NO_PLOTLY = ('<p class="note">Charts need plotly: <code>pip install plotly</code>, then '
              'write the report again.</p>')


# ---- the sections ----------------------------------------------------------------------

def _overview(rec):
    spans = rec.spans()
    by_category = collections.defaultdict(lambda: [0, 0.0])
    for e in spans:
        by_category[e.category][0] += 1
        by_category[e.category][1] += e.self_time
    facts = [("process", rec.process_name), ("recorded", time_text(rec.duration)),
             ("events", f"{len(rec.events):,}"),
             ("threads", ", ".join(sorted(set(rec.thread_names.values())))),
             ("options", ", ".join(f"{k}={v}" for k, v in rec.options.items()))]
    facts += sorted(rec.metadata.items())                    # add_metadata(...)
    if rec.steps:
        lengths = [end - start for _, start, end in rec.steps]
        facts.append(("steps", f"{len(lengths)}, {time_text(sum(lengths) / len(lengths))} "
                               f"on average"))
    listing = "".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in facts)
    listed = table(["category", "spans", "self time", "% of recorded time"],
                   [[c, Num(n, f"{n:,}"), Num(t, time_text(t)), percent(t, rec.duration)]
                    for c, (n, t) in sorted(by_category.items(), key=lambda i: -i[1][1])])
    return (f'<table class="facts">{listing}</table>'
            '<p>Self time is a span\'s time minus the time of the spans nested in it, so the '
            'self times of one thread add up to its busy time. Several threads can be busy '
            'at once, so the column can exceed 100%.</p>' + listed)


def _timeline(rec, plotly):
    spans = rec.spans()
    if not spans:
        return "<p>No spans were recorded.</p>"
    note = ""
    if len(spans) > MAX_SPANS:
        note = (f'<p class="note">The timeline draws the {MAX_SPANS:,} longest of '
                f'{len(spans):,} spans (to keep this file small); the tables count them '
                'all.</p>')
        spans = sorted(spans, key=lambda e: -e.duration)[:MAX_SPANS]
    if plotly is None:
        return note + _NO_PLOTLY
    go = plotly.graph_objects
    lane_of, lanes = _lanes(rec, spans)
    fig = go.Figure()
    by_category = collections.defaultdict(list)
    for e in spans:
        by_category[e.category].append(e)
    for category, events in sorted(by_category.items(), key=lambda i: _order(i[0])):
        fig.add_trace(go.Bar(
            orientation="h", name=category, marker_color=COLORS.get(category, "#888"),
            y=[lane_of[e.tid, e.depth] for e in events],
            base=[e.start / 1e3 for e in events], x=[e.duration / 1e3 for e in events],
            hovertext=[_hover(e) for e in events], hoverinfo="text"))
    instants = [e for e in rec.events if e.phase == "i"][:MAX_INSTANTS]
    if instants:
        fig.add_trace(go.Scatter(
            mode="markers", name="instants", marker={"symbol": "x-thin-open", "size": 10,
                                                     "color": "#333"},
            x=[e.start / 1e3 for e in instants],
            y=[lane_of.get((e.tid, 0), lanes[0]) for e in instants],
            hovertext=[_hover(e) for e in instants], hoverinfo="text"))
    for number, start, end in rec.steps[:500]:    # shaded, every other one darker
        fig.add_vrect(x0=start / 1e3, x1=end / 1e3, fillcolor="#888", line_width=0,
                      opacity=0.12 if number % 2 else 0.05, layer="below")
    # overlay: the bars of different categories share a lane instead of splitting it
    fig.update_layout(barmode="overlay", template="plotly_white", hovermode="closest",
                      height=140 + 26 * len(lanes), margin={"l": 10, "r": 10, "t": 30, "b": 40},
                      legend={"orientation": "h", "y": 1.02, "yanchor": "bottom"},
                      xaxis={"title": "ms since the profiler started"},
                      yaxis={"categoryorder": "array", "categoryarray": lanes,
                             "autorange": "reversed", "fixedrange": True})
    return (note + '<p>One lane per thread and nesting depth (0 outermost). Drag to zoom '
            'in on a time range, double-click to zoom out, hover a span for its name, '
            'duration and source line; click a category in the legend to hide it.</p>'
            + figure(fig))


def _order(category):
    return list(COLORS).index(category) if category in COLORS else len(COLORS)


def _lanes(rec, spans):
    """{(tid, depth): lane label} and the labels in order: threads by their first span,
    each thread's depths from the outermost."""
    first = {}
    depths = collections.defaultdict(set)
    for e in spans:
        first[e.tid] = min(first.get(e.tid, e.start), e.start)
        depths[e.tid].add(e.depth)
    names = collections.Counter(rec.thread_names.get(t, str(t)) for t in first)
    lane_of, lanes = {}, []
    for tid in sorted(first, key=lambda t: (rec.thread_names.get(t) != "main", first[t])):
        name = rec.thread_names.get(tid, str(tid))
        if names[name] > 1:
            name = f"{name} ({tid})"       # two threads of one name keep their own lanes
        for depth in sorted(depths[tid]):
            lane_of[tid, depth] = f"{esc(name)} · {depth}"
            lanes.append(lane_of[tid, depth])
    return lane_of, lanes


def _hover(e):
    """A span's hover text, in plotly's small HTML subset (so user text is escaped)."""
    parts = [f"<b>{esc(e.name)}</b>", f"{e.category} · {time_text(e.duration)}"
             + (f" (self {time_text(e.self_time)})" if e.self_time < e.duration else "")]
    args = e.args
    for key in ("line", "ir", "reason", "function", "guard"):
        if args.get(key):
            parts.append(esc(shortened(str(args[key]), 120)))
    if args.get("shapes"):
        parts.append("shapes " + esc(shortened(str(args["shapes"]), 120)))
    return "<br>".join(parts)


def _top_kernels(rec, rows):
    groups = {}
    for e in rec.spans():
        if e.category in KERNELS or e.category == "op":
            kind = "eager op" if e.category == "op" else e.category
            group = groups.setdefault((e.name, kind), _Group())
            group.add(e, e.self_time, _lines(e))
    if not groups:
        return "<p>No kernels or eager ops ran while recording.</p>"
    everything = sum(g.self_time for g in groups.values())
    ranked = sorted(groups.items(), key=lambda i: -i[1].self_time)
    listed = table(
        ["kernel", "kind", "calls", "self time", "total time", "average", "% of self time",
         "source lines"],
        [[Html(f"<code>{esc(name)}</code>"), kind, Num(g.calls, f"{g.calls:,}"),
          Num(g.self_time, time_text(g.self_time)), Num(g.total, time_text(g.total)),
          Num(g.total / g.calls, time_text(g.total / g.calls)), percent(g.self_time, everything),
          _lines_cell(g.lines)]
         for (name, kind), g in ranked[:rows]])
    return (more(len(ranked), rows) +
            '<p>Grouped by name; <code>fused[a,b,...]</code> is one compiled kernel running '
            'the listed primitives in one loop. Self time excludes the spans nested in a '
            'call, total time includes them. Source lines are ordered by the time they got.'
            '</p>' + listed)


def _by_line(rec, rows):
    lines = {}
    for e in rec.spans():
        if e.category in KERNELS or e.category == "op":
            where = _lines(e) or [None]
            for line in where:     # a kernel of several lines shares its time equally
                lines.setdefault(line, _Group()).add(e, e.self_time / len(where), [e.name])
    if not lines:
        return "<p>No kernels or eager ops ran while recording.</p>"
    everything = sum(g.self_time for g in lines.values())
    ranked = sorted(lines.items(), key=lambda i: -i[1].self_time)
    listed = table(
        ["source line", "code", "self time", "%", "kernel calls", "kernels"],
        [[Html(f"<code>{esc(line)}</code>") if line else "(no source line)",
          Html(f"<code>{esc(_source_text(line))}</code>"),
          Num(g.self_time, time_text(g.self_time)), percent(g.self_time, everything),
          Num(g.calls, f"{g.calls:,}"), _lines_cell(g.lines, 4)]
         for line, g in ranked[:rows]])
    return (more(len(ranked), rows) +
            '<p>The self time of every kernel and eager op, by the line of your code it came '
            'from. A fused kernel made of several lines shares its time equally among '
            'them.</p>' + listed)


def _compile(rec, rows):
    """Each compiling call's time split by phase (``summary.compile_breakdown``: the phases
    of a row add up to the call), compile work outside calls, the passes, cache events."""
    compiles = summary.compile_breakdown(rec)
    loose = summary.compile_outside_calls(rec)
    if not compiles and not loose:
        return "<p>Nothing was compiled while recording (every call hit the cache).</p>"
    html_parts = []
    if compiles:
        sums = dict.fromkeys(PHASES, 0.0)
        for call in compiles:
            for phase, t in call["phases"].items():
                sums[phase] += t
        total = sum(call["total"] for call in compiles)
        html_parts += [
            f"<p>{len(compiles)} compiling call(s), {time_text(total)} in all. <i>first run</i> "
            "is the graph's first call, which runs inside its compile; <i>profiler's timed "
            "copy</i> is the profiler's own work (absent without it); <i>other</i> is what is "
            "left (dispatch, guards, cache bookkeeping).</p>",
            table(["phase", "time", "% of compile time"],
                   [[p, Num(sums[p], time_text(sums[p])), percent(sums[p], total)]
                    for p in PHASES]),
            "<h3>Each compile</h3>", more(len(compiles), rows),
            table(["function", "reason", "capture, level", "at", "total"] + list(PHASES)
                   + ["graph breaks"],
                   [[call["function"], str(call["reason"]),
                     f"{call['mode']}, {call['level']}",
                     Num(call["start"], time_text(call["start"])),
                     Num(call["total"], time_text(call["total"]))]
                    + [Num(call["phases"][p], time_text(call["phases"][p])) for p in PHASES]
                    + [_breaks(call["graph_breaks"])]
                    for call in compiles[:rows]])]
    if loose:
        html_parts += [
            "<h3>Compile work outside a call</h3>",
            "<p>Kernels compiled or loaded by a background thread while the program ran on "
            "(their NumPy code runs meanwhile).</p>",
            more(len(loose), rows),
            table(["what", "thread", "at", "time"],
                   [[e.name, rec.thread_names.get(e.tid, str(e.tid)),
                     Num(e.start, time_text(e.start)), Num(e.duration, time_text(e.duration))]
                    for e in loose[:rows]])]
    passes = {}
    for e in rec.spans("pass"):
        passes.setdefault(e.name, _Group()).add(e, e.self_time, [])
    if passes:
        ranked = sorted(passes.items(), key=lambda i: -i[1].total)
        html_parts += ["<h3>Passes</h3>", table(
            ["pass", "runs", "total time", "average"],
            [[Html(f"<code>{esc(name)}</code>"), Num(g.calls, str(g.calls)),
              Num(g.total, time_text(g.total)),
              Num(g.total / g.calls, time_text(g.total / g.calls))]
             for name, g in ranked[:rows]])]
    cache = [e for e in rec.events if e.category == "cache"]
    if cache:
        html_parts += ["<h3>Cache events</h3>", more(len(cache), rows), table(
            ["at", "event", "details"],
            [[Num(e.start, time_text(e.start)), e.name,
              "; ".join(f"{k}: {v}" for k, v in e.args.items())] for e in cache[:rows]])]
    return "\n".join(html_parts)


def _breaks(found):
    """The graph breaks a capture reported, as a count (the list on hover)."""
    return Html(f'<span title="{esc(chr(10).join(map(str, found)))}">{len(found)}</span>')


def _graphs(rec):
    if not rec.graphs:
        return "<p>No compiled graph ran while recording.</p>"
    nodes, kernels = collections.defaultdict(dict), {}
    for e in rec.spans():
        if e.category in KERNELS and "graph" in e.args:
            group = nodes[e.args["graph"]].setdefault(e.args.get("node"), _Group())
            group.add(e, e.duration, _lines(e))
            kernels[e.args["graph"], e.args.get("node")] = e.name   # (says what a fused runs)
    parts = ["<p>Each graph that ran, as compiled (after the passes): one row per node, "
             "with the time of the kernel it became. Sort a table by a click on its header."
             "</p>"]
    ordered = sorted(rec.graphs.items(),
                     key=lambda i: -sum(g.total for g in nodes[i[0]].values()))
    for label, graph in ordered:
        stats = nodes[label]
        spent = sum(g.total for g in stats.values())
        rows = []
        for index, ir in enumerate(graph.get("ir") or []):
            g = stats.get(index)
            calls, total = (g.calls, g.total) if g else (0, 0.0)
            rows.append([Num(index, str(index)), Html(f"<code>{esc(ir.strip())}</code>"),
                         Html(f"<code>{esc(kernels.get((label, index), ''))}</code>"),
                         Num(calls, f"{calls:,}"), Num(total, time_text(total)),
                         Num(total / calls if calls else 0, time_text(total / calls)
                              if calls else "-"),
                         percent(total, spent), _lines_cell(g.lines if g else {})])
        parts += [f"<h3><code>{esc(label)}</code></h3>",
                  f"<p>{len(rows)} nodes, {time_text(spent)} of kernel time.</p>",
                  table(["node", "IR", "kernel", "calls", "total time", "average",
                          "% of graph", "source lines"], rows, css="sort ir"),
                  "<details><summary>whole IR</summary><pre>"
                  f"{esc(graph.get('text', ''))}</pre></details>",
                  "<details><summary>generated code</summary><pre>"
                  f"{esc(graph.get('source', ''))}</pre></details>"]
    return "\n".join(parts)


def _memory(rec, plotly):
    series = collections.defaultdict(lambda: ([], []))
    for e in rec.events:
        if e.phase == "C":
            for key, value in e.args.items():
                if not isinstance(value, numbers.Real):
                    continue
                label = e.name if key == e.name else f"{e.name}: {key}"
                series[label][0].append(e.start / 1e3)
                series[label][1].append(value)
    if not series:
        return ("<p>Memory was not recorded: profile with <code>profile_memory=True</code> "
                "to get the curve.</p>")
    peaks = table(["series", "samples", "peak", "last"],
                   [[label, Num(len(ys), f"{len(ys):,}"), Num(max(ys), amount(max(ys))),
                     Num(ys[-1], amount(ys[-1]))] for label, (_, ys) in series.items()])
    if plotly is None:
        return _NO_PLOTLY + peaks
    go = plotly.graph_objects
    fig = go.Figure([go.Scatter(x=xs, y=ys, name=esc(label), mode="lines",
                                line={"shape": "hv"}) for label, (xs, ys) in series.items()])
    fig.update_layout(template="plotly_white", height=380, hovermode="x unified",
                      margin={"l": 10, "r": 10, "t": 30, "b": 40},
                      xaxis={"title": "ms since the profiler started"},
                      yaxis={"tickformat": "~s", "rangemode": "tozero"})
    return figure(fig) + peaks


# ---- helpers ---------------------------------------------------------------------------

class _Group:
    """Calls, self and total time of a group of spans, and the time of each source line
    (or other label) they carry."""
    __slots__ = ("calls", "self_time", "total", "lines")

    def __init__(self):
        self.calls, self.self_time, self.total = 0, 0.0, 0.0
        self.lines = collections.Counter()

    def add(self, e, self_time, labels):
        self.calls += 1
        self.self_time += self_time
        self.total += e.duration
        for label in labels:
            self.lines[label] += self_time / len(labels)


def _lines(e):
    lines = e.args.get("lines") or ([e.args["line"]] if e.args.get("line") else [])
    return [line for line in lines if line]


def _lines_cell(counter, shown=3):
    """The most timed labels first; the rest in the cell's tooltip."""
    if not counter:
        return "-"
    ranked = [label for label, _ in counter.most_common()]
    text = ", ".join(ranked[:shown]) + (f" (+{len(ranked) - shown} more)"
                                        if len(ranked) > shown else "")
    return Html(f'<span title="{esc(chr(10).join(ranked))}">{esc(text)}</span>')


def _source_text(line):
    """The text of ``path:lineno`` from its file, if it can be read."""
    if not line:
        return ""
    path, _, number = line.rpartition(":")
    return linecache.getline(path, int(number)).strip() if number.isdigit() else ""
