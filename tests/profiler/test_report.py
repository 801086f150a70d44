"""The HTML report (tensorjit/profiler/report.py) of a real recording: a jitted cell at O1
(fused kernels, each mapped to this file's lines) and an eager op. The page must be one
self-contained file, and must open in a real browser (headless Chromium) without console
errors, showing the kernels and the source lines."""
import copy
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import tensorjit as ms
from tensorjit import nn, ops, timeline
from tensorjit.autodiff import tape
from tensorjit.jit.cache import CACHE
from tensorjit.passes import fusion
from tensorjit.profiler import report
from tensorjit.profiler.recording import Recording

HERE = os.path.basename(__file__)


class TwoLayers(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(16, 32)
        self.fc2 = nn.Dense(32, 4)

    def construct(self, x):
        h = ops.relu(self.fc1(x))                        # line FIRST
        return ops.tanh(self.fc2(h)) * 2.0 + 1.0         # line SECOND


def _line_of(marker):
    with open(__file__) as f:
        for number, text in enumerate(f, 1):
            if text.rstrip().endswith(f"# line {marker}"):
                return f"{HERE}:{number}"
    raise AssertionError(marker)


FIRST, SECOND, EAGER = _line_of("FIRST"), _line_of("SECOND"), _line_of("EAGER")


@pytest.fixture(scope="module")
def recording():
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fusion, "MIN_ELEMENTS", 0)       # tiny shapes: fuse them anyway
        CACHE.clear()
        net = TwoLayers()
        step = ms.jit(net.construct, capture_mode="ast", jit_level="O1")
        x = ms.Tensor(np.random.default_rng(0).random((8, 16), dtype=np.float32))
        timeline.start(timeline.Recorder(record_shapes=True))
        tape.hold_fast_paths(1)
        try:
            for _ in range(3):
                step(x)
            ops.exp(x)                                   # line EAGER
            timeline.counter("buffers", live=4096)
            with timeline.span("<script>alert(1)</script>", "user"):   # user text: escaped
                timeline.counter("buffers", live=8192)
        finally:
            tape.hold_fast_paths(-1)
            recorded = timeline.stop()
        CACHE.clear()
    return Recording(recorded)


@pytest.fixture(scope="module")
def page(recording, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("report") / "profile.html")
    report.write_report(recording, path)
    with open(path, encoding="utf-8") as f:
        return path, f.read()


def test_self_contained_with_kernels_and_lines(page, recording):
    _, text = page
    # nothing is fetched: no script or stylesheet from the network
    assert not re.search(r"<(script|link|img)\b[^>]*\b(src|href)\s*=\s*[\"']?(https?:)?//",
                         text, re.I)
    plotly = pytest.importorskip("plotly.offline")
    assert text.count(plotly.get_plotlyjs()[:300]) == 1     # plotly.js inlined once
    assert text.count("Plotly.newPlot") == 2                 # the timeline, the memory curve
    names = {e.name for e in recording.spans("kernel")}
    assert any(name.startswith("fused[") for name in names), names
    for name in names:
        assert f"<code>{name}</code>" in text
    for line in (FIRST, SECOND, EAGER):
        assert line in text
    assert "h = ops.relu(self.fc1(x))" in text          # the source text of a line
    for label, graph in recording.graphs.items():
        assert label in text and len(graph["ir"]) >= 4
    # the compile breakdown: one compile, of this cell, at O1 with ast capture
    assert re.search(r"<td>TwoLayers.construct</td><td>first call</td><td>ast, O1</td>",
                     text)
    assert "<script>alert(1)" not in text and "&lt;script&gt;alert(1)" in text
    assert "Memory was not recorded" not in text and "buffers: live" in text


def test_memory_not_recorded_and_capped_timeline(recording, monkeypatch):
    quiet = copy.copy(recording)
    quiet.events = [e for e in recording.events if e.phase != "C"]
    monkeypatch.setattr(report, "MAX_SPANS", 5)
    text = report.render(quiet)
    assert "Memory was not recorded" in text
    assert f"draws the 5 longest of {len(quiet.spans()):,} spans" in text


def test_without_plotly(recording, monkeypatch):
    monkeypatch.setitem(sys.modules, "plotly", None)     # import plotly fails
    text = report.render(recording)
    assert "pip install plotly" in text and "Plotly.newPlot" not in text
    assert len(text) < 1_000_000
    assert FIRST in text and "fused[" in text and "buffers: live" in text


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def _browse(binary, page_path, profile_dir, *flags):
    """Run headless Chromium on the page; returns (stdout, stderr)."""
    done = subprocess.run(
        [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={profile_dir}", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=5000", *flags, "file://" + page_path],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


def test_opens_in_headless_chromium(page, recording, tmp_path):
    binary = _chromium()
    if binary is None:
        pytest.skip("no Chromium binary (chromium, chromium-browser, google-chrome) on PATH")
    path, _ = page
    dom, log = _browse(binary, path, tmp_path / "profile", "--dump-dom")
    # the page logs nothing: any console message (errors, uncaught exceptions) is a bug
    console = [line for line in log.splitlines() if "CONSOLE" in line]
    assert not console, console
    assert "main-svg" in dom                           # plotly drew the charts
    for name in {e.name for e in recording.spans("kernel")}:
        assert name in dom
    for line in (FIRST, SECOND, EAGER):
        assert line in dom
    shot = tmp_path / "shot.png"
    _browse(binary, path, tmp_path / "profile", f"--screenshot={shot}",
            "--window-size=1400,1800")
    with open(shot, "rb") as f:
        data = f.read()
    assert data.startswith(b"\x89PNG") and len(data) > 20_000
