"""A small progress bar for long benchmark runs (no dependency).

It draws on stderr only when stderr is a terminal (or when forced), so logs and pipes stay
clean. The benchmark updates it *between* timed chunks, never inside a timed loop."""
import sys
import time


class ProgressBar:
    def __init__(self, total, enabled=None, stream=None, width=28):
        self.stream = stream or sys.stderr
        if enabled is None:
            enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.enabled = enabled
        self.total = max(int(total), 1)
        self.done = 0
        self.width = width
        self.label = ""
        self.start = time.perf_counter()
        self._last_len = 0

    def set_label(self, label):
        self.label = label
        self.draw()

    def advance(self, amount=1.0):
        self.done = min(self.done + amount, self.total)
        self.draw()

    def draw(self):
        if not self.enabled:
            return
        frac = self.done / self.total
        filled = int(round(frac * self.width))
        elapsed = time.perf_counter() - self.start
        text = (f"\r[{'#' * filled}{'.' * (self.width - filled)}] {frac * 100:5.1f}% "
                f"{elapsed:6.1f}s  {self.label}")[:160]
        pad = max(self._last_len - len(text), 0)
        self.stream.write(text + " " * pad)
        self.stream.flush()
        self._last_len = len(text)

    def close(self):
        if self.enabled and self._last_len:
            self.stream.write("\r" + " " * self._last_len + "\r")
            self.stream.flush()
            self._last_len = 0

    def write(self, line):
        """Print a line without tearing the bar."""
        self.close()
        print(line, flush=True)
        self.draw()
