"""A recording as a Chrome trace (the JSON trace event format that Perfetto,
chrome://tracing and TensorBoard's trace viewer load): complete events ``X``, instants
``i``, counters ``C``, and metadata ``M`` naming the process and its threads."""
import json

from ..files import write_atomically, default_mode


def trace_events(recording):
    pid = recording.pid
    events = [{"ph": "M", "name": "process_name", "pid": pid, "tid": 0,
               "args": {"name": recording.process_name}}]
    for tid, name in sorted(recording.thread_names.items()):
        events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid,
                       "args": {"name": name}})
    for e in recording.events:
        item = {"ph": e.phase, "name": e.name, "cat": e.category, "pid": pid, "tid": e.tid,
                "ts": round(e.start, 3)}
        if e.phase == "X":
            item["dur"] = round(e.duration, 3)
        elif e.phase == "i":
            item["s"] = "t"
        if e.args:
            item["args"] = _plain(e.args)
        events.append(item)
    return events


def chrome_trace(recording):
    # clock_origin_us: where this trace's zero is on the machine's monotonic clock, which
    # every process shares, so the traces of several ranks can be merged onto one axis
    return {"traceEvents": trace_events(recording), "displayTimeUnit": "ms",
            "otherData": {"producer": "tensorjit.profiler", **recording.options,
                          "clock_origin_us": recording.origin}}


def merge_traces(paths, out):
    """One trace holding the processes of several (MPI ranks of one machine: each rank
    writes its own), on a common time axis."""
    traces = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            try:
                trace = json.load(f)
            except ValueError as exc:
                raise ValueError(f"{path}: not a JSON trace ({exc})") from None
        if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
            raise ValueError(f"{path}: not a Chrome trace (no traceEvents list)")
        traces.append(trace)
    origins = [t.get("otherData", {}).get("clock_origin_us") for t in traces]
    known = [o for o in origins if isinstance(o, (int, float))]
    first = min(known) if known else 0.0
    events = []
    for trace, origin in zip(traces, origins):
        shift = origin - first if isinstance(origin, (int, float)) else 0.0
        for e in trace["traceEvents"]:
            if "ts" in e and isinstance(e["ts"], (int, float)):
                e = dict(e, ts=round(e["ts"] + shift, 3))
            events.append(e)
    merged = {"traceEvents": events, "displayTimeUnit": "ms",
              "otherData": {"producer": "tensorjit.profiler", "merged": list(map(str, paths)),
                            "clock_origin_us": first}}
    text = json.dumps(merged, separators=(",", ":"))
    write_atomically(out, lambda f: f.write(text.encode("utf-8")), mode=default_mode())
    return out


def write_chrome_trace(recording, path):
    """Write the trace to ``path`` whole or not at all."""
    text = json.dumps(chrome_trace(recording), separators=(",", ":"))
    write_atomically(path, lambda f: f.write(text.encode("utf-8")), mode=default_mode())
    return path


def _plain(args):
    """JSON-safe arguments (shapes, numbers, strings; anything else as its text)."""
    out = {}
    for key, value in args.items():
        if value is None or isinstance(value, (bool, int, float, str)):
            out[key] = value
        elif isinstance(value, (list, tuple)):
            out[key] = [v if isinstance(v, (bool, int, float, str, list)) else str(v)
                        for v in value]
        else:
            out[key] = str(value)
    return out
