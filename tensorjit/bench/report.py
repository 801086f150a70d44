"""Printing the seed's tables, the peers and the ratios; the JSON file and the PNG chart."""
import json
import math

from .peers import DISPLAY, mindspore_row_spec

OK = "ok"


def fmt_time(seconds):
    if seconds is None or not math.isfinite(seconds):
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


def fmt_ratio(ratio):
    if ratio is None:
        return "-"
    if ratio >= 1:
        return f"{ratio:.2f}x (tensorjit {ratio:.2f}x faster)"
    return f"{ratio:.2f}x (tensorjit {1 / ratio:.2f}x slower)"


def best_row(rows, jitted_only=False):
    ok = [r for r in rows if r["status"] == OK and (not jitted_only or r["id"] != "eager")]
    return min(ok, key=lambda r: r["per_call_s"]) if ok else None


def check_cell(r):
    if r["status"] == OK:
        err = r.get("max_rel_err")
        text = "ok" if not err else f"ok ({err:.0e})"
        if r.get("compiles_while_timed"):
            text += f"; recompiled {r['compiles_while_timed']}x while timed"
        return text
    if r["status"] == "not available":
        return "not available"
    return f"{r['status']}: {r.get('error') or ''}".strip()


def _md_row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def prepare_cell(r):
    if r.get("prepare_cold_s") is not None:
        return f"{fmt_time(r['prepare_cold_s'])} cold / {fmt_time(r['prepare_s'])} warm"
    return fmt_time(r["prepare_s"])


def case_table(case):
    """The seed's table layout for one case, as Markdown."""
    n = case["iterations"]
    rows = [r for g in case["groups"] for r in g]
    best = best_row(rows)
    header = ["enable jit", "jit level", "capture mode", "backend", "fullgraph",
              "time to prepare", f"time to run {n} times", "per call", "check"]
    lines = [_md_row(header), _md_row(["---"] * len(header))]
    for gi, group in enumerate(case["groups"]):
        if gi:
            lines.append("|" * (len(header) + 1))
        for r in group:
            spec = r["row"]
            cells = _row_cells(spec)
            run = fmt_time(r["run_s"])
            if best is not None and r is best:
                run = f"**{run}**"
            if not spec["seed"]:
                cells[2] += " +"
            lines.append(_md_row(cells + [prepare_cell(r), run,
                                              fmt_time(r["per_call_s"]), check_cell(r)]))
    return "\n".join(lines)


def _row_cells(spec):
    if spec["capture_mode"] is None:
        return ["false", "-", "-", "-", "-"]
    return ["true", "-" if spec["backend"] == "GE" else spec["jit_level"],
            spec["capture_mode"], spec["backend"], "true" if spec["fullgraph"] else "false"]


def peer_variant(p):
    if p["peer"] != "mindspore":
        return p["variant"]
    if p["variant"] == "eager":
        return "PyNative (no jit)"
    spec = mindspore_row_spec(p["variant"])
    parts = [spec.capture_mode, "GE" if spec.backend == "GE" else spec.jit_level]
    if spec.fullgraph:
        parts.append("fullgraph")
    return f"mindspore.jit({', '.join(parts)})"


def peer_table(case):
    n = case["iterations"]
    rows = [r for g in case["groups"] for r in g]
    best = best_row(rows)
    header = ["peer", "version", "variant", "time to prepare", f"time to run {n} times",
              "per call", "vs tensorjit best", "check"]
    lines = [_md_row(header), _md_row(["---"] * len(header))]
    for p in case["peers"]:
        version = p["version"] or "not installed"
        if p["status"] == "not installed":
            lines.append(_md_row([DISPLAY[p["peer"]], "not installed", p["variant"], "-", "-",
                                  "-", "-", "-"]))
            continue
        ratio = None
        if best is not None and p["status"] == OK and p["per_call_s"]:
            ratio = p["per_call_s"] / best["per_call_s"]
        p["ratio_to_best"] = ratio
        run = fmt_time(p["run_s"])
        if p.get("extrapolated_from"):
            run = f"~{run} (from {p['extrapolated_from']} runs)"
        lines.append(_md_row([DISPLAY[p["peer"]], version, peer_variant(p),
                              fmt_time(p["prepare_s"]), run,
                              fmt_time(p["per_call_s"]), fmt_ratio(ratio), check_cell(p)]))
    return "\n".join(lines)


def case_text(case):
    rows = [r for g in case["groups"] for r in g]
    best = best_row(rows)
    parts = [f"### {case['title']}", "", case["description"], "", case_table(case), ""]
    if any(not r["row"]["seed"] for r in rows):
        parts += ["(+: a configuration not in seed 000's table for this workload)", ""]
    if case["peers"]:
        what = (f"tensorjit best = {best['id']}, {fmt_time(best['per_call_s'])} per call"
                if best else "no tensorjit row ran")
        parts += [f"Peers, same run, same inputs and weights ({what}; "
                  "ratio = peer per call / tensorjit best per call, above 1 = tensorjit "
                  "faster):", "", peer_table(case), ""]
    line = numpy_ratio_line(case)
    if line:
        parts += [line, ""]
    return "\n".join(parts)


def numpy_ratio_line(case):
    """Issue 3's printout: per call, raw NumPy vs eager and jitted tensorjit."""
    if case["workload"] != "simple":
        return None
    rows = {r["id"]: r for g in case["groups"] for r in g}
    numpy_row = next((p for p in case["peers"] if p["peer"] == "numpy" and p["status"] == OK),
                     None)
    if numpy_row is None:
        return None
    base = numpy_row["per_call_s"]
    parts = [f"raw NumPy {fmt_time(base)}"]
    eager = rows.get("eager")
    if eager and eager["status"] == OK:
        parts.append(f"tensorjit eager {fmt_time(eager['per_call_s'])} "
                     f"({eager['per_call_s'] / base:.2f}x)")
    trace = rows.get("trace.O0")
    if trace and trace["status"] == OK:
        parts.append(f"jit(trace, O0) {fmt_time(trace['per_call_s'])} "
                     f"({trace['per_call_s'] / base:.2f}x)")
    best = best_row(rows.values(), jitted_only=True)
    if best is not None and best["id"] != "trace.O0":
        parts.append(f"best jitted ({best['id']}) {fmt_time(best['per_call_s'])} "
                     f"({best['per_call_s'] / base:.2f}x)")
    text = "Per call, 2x3 a*b+c: " + " | ".join(parts)
    inter = case.get("interleaved")
    if inter:
        parts = [f"raw NumPy {fmt_time(inter['numpy'])}"]
        parts += [f"jit({k.replace('.', ', ')}) {fmt_time(v)} ({v / inter['numpy']:.2f}x)"
                  for k, v in inter.items() if k != "numpy"]
        text += ("\nSame, measured in alternation (best of 7 rounds, robust to background "
                 "load): " + " | ".join(parts))
        ratio = min(v for k, v in inter.items() if k != "numpy") / inter["numpy"]
        modes = {k: v for k, v in inter.items() if k.endswith(".O0")}
        if modes:
            slowest = max(modes, key=modes.get)
            worst = modes[slowest] / inter["numpy"]
            text += (f"\nslowest capture mode ({slowest}) / raw NumPy per call: {worst:.2f}x "
                     "(target: at most 1.5x)")
            case["slowest_mode_over_numpy"] = worst
        ten = case.get("ten_ops")
        if ten:
            slowest = max((k for k in ten if k != "numpy"), key=ten.get)
            worst = ten[slowest] / ten["numpy"]
            text += (f"\n10-op function on 2x3 tensors, per call: raw NumPy "
                     f"{fmt_time(ten['numpy'])}, slowest capture mode ({slowest}) "
                     f"{fmt_time(ten[slowest])} = {worst:.2f}x NumPy (target: at most 2x)")
            case["ten_ops_slowest_over_numpy"] = worst
    elif best is not None:
        ratio = best["per_call_s"] / base
    else:
        return text
    text += f"\njitted / raw NumPy per call: {ratio:.2f}x (target: at most 1.5x)"
    case["jitted_over_numpy"] = ratio
    return text


def summary_lines(cases):
    """One plain sentence per case: tensorjit's best against each installed peer."""
    lines = []
    for case in cases:
        rows = [r for g in case["groups"] for r in g]
        best = best_row(rows)
        if best is None:
            lines.append(f"- {case['title']}: no tensorjit row ran.")
            continue
        by_peer = {}
        for p in case["peers"]:
            if p["status"] == OK and p.get("per_call_s"):
                name = DISPLAY[p["peer"]] + ("" if p["peer"] != "torch.compile" else ".compile")
                if name not in by_peer or p["per_call_s"] < by_peer[name]["per_call_s"]:
                    by_peer[name] = p
        bits = []
        for name, p in by_peer.items():
            ratio = p["per_call_s"] / best["per_call_s"]
            verdict = (f"tensorjit {ratio:.2f}x faster" if ratio >= 1
                       else f"tensorjit {1 / ratio:.2f}x slower")
            bits.append(f"{name} best ({peer_variant(p)}) {fmt_time(p['per_call_s'])}: {verdict}")
        lines.append(f"- {case['title']}: tensorjit best {best['id']} "
                     f"{fmt_time(best['per_call_s'])} per call"
                     + ("; " + "; ".join(bits) if bits else "") + ".")
    return lines


OVERVIEW_COLUMNS = [("NumPy", lambda p: p["peer"] == "numpy"),
                    ("PyTorch eager", lambda p: p["peer"] == "torch"),
                    ("torch.compile", lambda p: p["peer"] == "torch.compile"),
                    ("JAX jit", lambda p: p["peer"] == "jax" and p["variant"] == "jax.jit"),
                    ("MindSpore (best row)", lambda p: p["peer"] == "mindspore")]


def overview_table(cases):
    """Per call, tensorjit's best row against each peer's best, one line per case; the
    ratio is peer / tensorjit (above 1: tensorjit faster)."""
    header = ["workload", "tensorjit best (row)"] + [name for name, _ in OVERVIEW_COLUMNS]
    lines = [_md_row(header), _md_row(["---"] * len(header))]
    for case in cases:
        rows = [r for g in case["groups"] for r in g]
        best = best_row(rows)
        cells = [case["title"], "-" if best is None else
                 f"{fmt_time(best['per_call_s'])} ({best['id']})"]
        for name, match in OVERVIEW_COLUMNS:
            candidates = [p for p in case["peers"] if match(p) and p["status"] == OK]
            if not candidates:
                absent = [p for p in case["peers"] if match(p)]
                cells.append("not installed" if absent and absent[0]["status"] == "not installed"
                             else "-")
                continue
            p = min(candidates, key=lambda p: p["per_call_s"])
            text = fmt_time(p["per_call_s"])
            if best is not None:
                text += f" ({p['per_call_s'] / best['per_call_s']:.2f}x)"
            cells.append(text)
        lines.append(_md_row(cells))
    return "\n".join(lines)


def write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=1, default=str)


def write_png(path, cases):
    """Time to prepare and time per run for every row and peer, log scale. Returns False
    when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    shown = [c for c in cases if any(r["status"] == OK for g in c["groups"] for r in g)]
    if not shown:
        return False
    heights = []
    for case in shown:
        n = sum(1 for g in case["groups"] for r in g if r["status"] == OK)
        n += sum(1 for p in case["peers"] if p["status"] == OK)
        heights.append(max(n, 2) * 0.32 + 1.0)
    fig, axes = plt.subplots(len(shown), 1, figsize=(10, sum(heights)),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, case in zip(axes[:, 0], shown):
        labels, prep, run = [], [], []
        for g in case["groups"]:
            for r in g:
                if r["status"] == OK:
                    labels.append(f"tensorjit {r['id']}")
                    prep.append(r["prepare_s"])
                    run.append(r["per_call_s"])
        for p in case["peers"]:
            if p["status"] == OK:
                labels.append(f"{DISPLAY[p['peer']]} {peer_variant(p)}")
                prep.append(p["prepare_s"])
                run.append(p["per_call_s"])
        ys = range(len(labels))
        ax.barh([y - 0.2 for y in ys], [max(v, 1e-9) for v in prep], height=0.4,
                label="time to prepare (first call)")
        ax.barh([y + 0.2 for y in ys], [max(v, 1e-9) for v in run], height=0.4,
                label="time per run")
        ax.set_yticks(list(ys))
        ax.set_yticklabels(labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xscale("log")
        ax.set_xlabel("seconds (log scale)")
        ax.set_title(case["title"], fontsize=10)
        ax.grid(axis="x", which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


# ---------------------------------------------------------------------------------------
# whole-model training (bench/training.py)

def fmt_bytes(n):
    return "-" if n is None else f"{n / 2 ** 20:.0f} MiB"


def _pair(cold, warm):
    if cold is None:
        return "-"
    return fmt_time(cold) + ("" if warm is None else f" / {fmt_time(warm)}")


def training_table(record):
    """Markdown: one line per row of a training record."""
    n = record["first_steps"]
    header = ["row", "per step (median)", "/ PyTorch eager", "/ tensorjit O0",
              "first step cold / warm", f"first {n} steps cold / warm", "peak RSS",
              f"losses vs eager (first {n})"]
    lines = [_md_row(header), _md_row(["---"] * len(header))]
    for r in record["rows"]:
        ratios = r["ratios"]
        steps = _pair(r["first_steps_s"], r["warm_first_steps_s"])
        if r["first_steps"] is not None and r["first_steps"] < n:
            steps += f" ({r['first_steps']} steps)"
        diff = r["loss_rel_diff"]
        check = "reference" if r["label"] == "tensorjit eager" else (
            "-" if diff is None else f"max rel. diff {diff:.1e}")
        if r["error"]:
            check = r["error"]
        lines.append(_md_row([
            r["label"], fmt_time(r["per_step_s"]),
            _fmt_x(ratios.get("PyTorch eager")), _fmt_x(ratios.get("tensorjit O0")),
            _pair(r["first_step_s"], r["warm_first_step_s"]), steps,
            fmt_bytes(r["peak_rss"]), check]))
    return "\n".join(lines)


def _fmt_x(value):
    return "-" if value is None else f"{value:.2f}x"


def training_summary(record):
    """Plain sentences: O1 against PyTorch eager and O0, and O1's cold start."""
    rows = {r["label"]: r for r in record["rows"]}
    lines = []
    for label in ("tensorjit O1", "tensorjit O0", "tensorjit GE"):
        r = rows.get(label)
        if r and r["per_step_s"] is not None:
            parts = [f"{label}: {fmt_time(r['per_step_s'])} per step"]
            if "PyTorch eager" in r["ratios"]:
                parts.append(f"{r['ratios']['PyTorch eager']:.2f}x PyTorch eager")
            if label != "tensorjit O0" and "tensorjit O0" in r["ratios"]:
                parts.append(f"{r['ratios']['tensorjit O0']:.2f}x O0")
            lines.append("- " + ", ".join(parts) + " (medians of per-round ratios; below "
                         "1 is faster)")
    o0, o1 = rows.get("tensorjit O0"), rows.get("tensorjit O1")
    if o0 and o1 and o0["first_steps_s"] and o1["first_steps_s"]:
        lines.append(
            f"- cold start: the first {o1['first_steps']} O1 steps with an empty kernel cache "
            f"took {fmt_time(o1['first_steps_s'])}, {o1['first_steps_s'] / o0['first_steps_s']:.2f}x "
            f"the first {o0['first_steps']} O0 steps ({fmt_time(o0['first_steps_s'])}; "
            "measured one after the other, not alternated)")
    return lines


def busy_table(record):
    """Markdown: each row's median step quiet and beside each background load (``--busy``),
    and the slowdown, that median over the quiet one."""
    scenarios = list(record["busy"]["scenarios"])
    header = ["row", "quiet step"]
    for scenario in scenarios:
        header += [f"beside {scenario}: paused / running", "slowdown"]
    lines = [_md_row(header), _md_row(["---"] * len(header))]
    for r in record["rows"]:
        if "busy" not in r or r["per_step_s"] is None:
            continue
        cells = [r["label"], fmt_time(r["per_step_s"])]
        for scenario in scenarios:
            beside = r["busy"].get(scenario)
            if beside is None:
                cells += ["-", "-"]
            elif beside["error"] and beside["per_step_s"] is None:
                cells += [beside["error"][:80], "-"]
            else:
                cells += [f"{fmt_time(beside.get('quiet_step_s'))} / "
                          f"{fmt_time(beside['per_step_s'])}", _fmt_x(beside["slowdown"])]
        lines.append(_md_row(cells))
    return "\n".join(lines)


def busy_summary(record):
    """One sentence per background load: what it was and each row's slowdown beside it."""
    part = record["busy"]
    lines = []
    for scenario, load in part["scenarios"].items():
        what = [load["description"]]
        info = load["load"] or {}
        if "blas" in info:
            what.append(f"{info['blas']} products, Numba on its "
                        f"{info.get('numba_threading_layer', '?')} layer with "
                        f"{info.get('numba_threads', '?')} threads")
        if load["error"]:
            lines.append(f"- beside {scenario} ({'; '.join(what)}): not measured, "
                         f"{load['error']}")
            continue
        if load["cores"] is not None:
            what.append(f"it kept {load['cores']:.2f} cores busy while measured")
        bits = []
        for r in record["rows"]:
            beside = (r.get("busy") or {}).get(scenario)
            if beside and beside["slowdown"] is not None:
                bits.append(f"{r['label']} {beside['slowdown']:.2f}x "
                            f"({fmt_time(beside.get('quiet_step_s'))} -> "
                            f"{fmt_time(beside['per_step_s'])})")
        lines.append(f"- beside {scenario} ({'; '.join(what)}), the step with the load "
                     f"running over the step with it paused, median of {part['rounds']} "
                     f"rounds: " + (", ".join(bits) or "no row ran") + ".")
    return lines


def write_training_png(path, record):
    """Per step (median of the rounds) and first step (cold, warm) per row, log scale."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in record["rows"] if r["per_step_s"] is not None]
    if not rows:
        return False
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(rows) + 1.5))
    ys = range(len(rows))
    series = [("per step (median of alternated rounds)", "per_step_s", -0.27),
              ("first step, cold cache", "first_step_s", 0.0),
              ("first step, warm cache", "warm_first_step_s", 0.27)]
    for name, key, offset in series:
        ax.barh([y + offset for y in ys], [r[key] or 0 for r in rows], height=0.27,
                label=name)
    ax.set_yticks(list(ys))
    ax.set_yticklabels([r["label"] for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("seconds (log scale)")
    ax.set_title(f"{record['model']}: {record['description']}", fontsize=10)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
