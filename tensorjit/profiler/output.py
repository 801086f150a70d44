"""A recording written to disk as MindSpore lays out its profiler output:
``<directory>/<worker>_<time>_ascend_ms/ASCEND_PROFILER_OUTPUT/`` holding the Chrome trace
(``trace_view.json``), the HTML report, the operator and kernel tables (CSV) and the
summary table as text."""
import csv
import io
import os
import time

from ..files import write_atomically, default_mode
from .chrome import write_chrome_trace
from . import summary


def write_all(recording, directory, worker):
    stamp = time.strftime("%Y%m%d%H%M%S") + f"{int(time.time() * 1000) % 1000:03d}"
    folder = os.path.join(directory, f"{worker}_{stamp}_ascend_ms", "ASCEND_PROFILER_OUTPUT")
    os.makedirs(folder, exist_ok=True)
    write_chrome_trace(recording, os.path.join(folder, "trace_view.json"))
    _write_text(os.path.join(folder, "op_statistic.csv"), _statistics_csv(recording))
    _write_text(os.path.join(folder, "kernel_details.csv"), _kernels_csv(recording))
    rows = summary.key_averages(recording)
    _write_text(os.path.join(folder, "summary.txt"),
                rows.table(sort_by="self_cpu_time_total", row_limit=50) + "\n" +
                summary.by_source_line(recording).table(row_limit=30))
    from .report import write_report
    write_report(recording, os.path.join(folder, "report.html"))
    return folder


def _write_text(path, text):
    write_atomically(path, lambda f: f.write(text.encode("utf-8")), mode=default_mode())


def _statistics_csv(recording):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["Name", "Category", "Count", "Total Time(us)", "Self Time(us)",
                     "Avg Time(us)", "Source Location"])
    for row in sorted(summary.key_averages(recording, group_by_stack_n=1),
                      key=lambda r: -r.self_cpu_time_total):
        writer.writerow([row.key, row.category, row.count, f"{row.cpu_time_total:.3f}",
                         f"{row.self_cpu_time_total:.3f}", f"{row.cpu_time:.3f}",
                         row.line or ""])
    return out.getvalue()


def _kernels_csv(recording):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["Step", "Name", "Type", "Start Time(us)", "Duration(us)", "Thread",
                     "Graph", "IR", "Source Location", "Input Shapes", "Output Bytes"])
    for e in recording.spans():
        if e.category not in ("kernel", "collective", "op"):
            continue
        writer.writerow(["" if e.step is None else e.step, e.name, e.category,
                         f"{e.start:.3f}", f"{e.duration:.3f}",
                         recording.thread_names.get(e.tid, e.tid), e.args.get("graph", ""),
                         e.args.get("ir", ""), e.args.get("line") or "",
                         e.args.get("shapes", ""), e.args.get("bytes", "")])
    return out.getvalue()
