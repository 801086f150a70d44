"""``python -m tensorjit.profile script.py [args]``: run a script under the profiler, then
print where its time went and write the Chrome trace and the HTML report.

    python -m tensorjit.profile train.py --epochs 1
    python -m tensorjit.profile --memory --shapes -o prof_out train.py
    python -m tensorjit.profile merge all.json rank0.json rank1.json   # ranks on one axis
"""
import argparse
import os
import runpy
import sys
import traceback

from .profiler import profile
from .profiler import chrome, output, summary


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["merge"]:
        return merge(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m tensorjit.profile",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", default="./profile_data",
                        help="directory for the trace, report and tables (default: "
                             "./profile_data)")
    parser.add_argument("--memory", action="store_true", help="record memory over time")
    parser.add_argument("--shapes", action="store_true", help="record input shapes")
    parser.add_argument("--sort", default="self_cpu_time_total",
                        choices=sorted(summary.SORT_KEYS), help="table order")
    parser.add_argument("--rows", type=int, default=25, help="table rows")
    parser.add_argument("script", help="the Python script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    options = parser.parse_args(argv)
    if not os.path.isfile(options.script):
        parser.error(f"no such script: {options.script}")
    saved_argv, saved_path = sys.argv, list(sys.path)
    sys.argv = [options.script] + options.args
    sys.path.insert(0, os.path.dirname(os.path.abspath(options.script)))
    status = 0
    session = profile(record_shapes=options.shapes, profile_memory=options.memory)
    try:
        with session:
            runpy.run_path(options.script, run_name="__main__")
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except (Exception, KeyboardInterrupt):      # the script's own error: what ran is kept
        traceback.print_exc()
        status = 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
    if session.recording is None:
        print("tensorjit.profile: nothing was recorded", file=sys.stderr)
        return status or 1
    print(session.key_averages().table(sort_by=options.sort, row_limit=options.rows))
    print(session.by_source_line().table(row_limit=min(options.rows, 15)))
    folder = output.write_all(session.recording, os.path.abspath(options.output),
                              os.path.splitext(os.path.basename(options.script))[0])
    print(f"trace (Perfetto / chrome://tracing): {os.path.join(folder, 'trace_view.json')}")
    print(f"report: {os.path.join(folder, 'report.html')}")
    return status


def merge(argv):
    parser = argparse.ArgumentParser(prog="python -m tensorjit.profile merge",
                                     description="merge Chrome traces (one per MPI rank) "
                                                 "into one, on a common time axis")
    parser.add_argument("out")
    parser.add_argument("traces", nargs="+")
    options = parser.parse_args(argv)
    try:
        chrome.merge_traces(options.traces, options.out)
    except (OSError, ValueError) as exc:
        parser.error(str(exc))
    print(f"merged {len(options.traces)} traces into {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
