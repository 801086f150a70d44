"""Timing candidates against each other: alternated rounds, medians.

A shared machine changes speed from one moment to the next, so candidates are never timed
one after the other in blocks; each round runs every candidate once, in an order that
rotates, and each candidate's figure is its median over the rounds. A candidate that raises
is out (its error is the reason), and one that is much slower than the best after its first
timed call is not timed further: it cannot win, and it would cost the most time."""
import os
import statistics
import time

HOPELESS = 3.0        # slower than the best by this factor after one round: not timed again


def alternate(runners, rounds=3, warmup=1, settle=0.0, prime=False):
    """{name: median seconds, or the text of the exception it raised} for each of
    ``runners`` ({name: callable of no argument}). ``warmup`` untimed calls each first
    (buffers, caches, thread pools); ``settle`` seconds of sleep before each call, for
    candidates whose thread pools keep spinning after a call (a BLAS beside another), and
    with ``prime`` an untimed call right before each timed one (to wake its threads)."""
    results, samples = {}, {name: [] for name in runners}
    live = list(runners)
    for _ in range(warmup):
        for name in list(live):
            try:
                runners[name]()
            except Exception as exc:       # a candidate that fails here is not chosen
                results[name] = f"{type(exc).__name__}: {exc}"
                live.remove(name)
    for r in range(rounds):
        order = live[r % len(live):] + live[:r % len(live)] if live else []
        for name in order:
            if settle:
                time.sleep(settle)
            start = time.perf_counter()
            try:
                if prime:
                    runners[name]()
                    start = time.perf_counter()
                runners[name]()
            except Exception as exc:
                results[name] = f"{type(exc).__name__}: {exc}"
                live.remove(name)
                continue
            samples[name].append(time.perf_counter() - start)
        if r == 0 and live:
            best = min(samples[name][0] for name in live)
            live = [name for name in live if samples[name][0] <= HOPELESS * best]
    for name, values in samples.items():
        if name not in results and values:
            results[name] = statistics.median(values)
    return results


MARGIN = 0.03       # the preferred candidate stays unless another beats it by more


def fastest(results, prefer=None):
    """The name with the smallest time in ``alternate``'s results, or None; ``prefer``
    (the caller's default) wins a near tie, so that noise does not flip a choice."""
    timed = {name: t for name, t in results.items() if isinstance(t, float)}
    if not timed:
        return None
    best = min(timed, key=timed.get)
    if prefer in timed and timed[prefer] <= timed[best] * (1 + MARGIN):
        return prefer
    return best


class OtherLoad:
    """How busy other processes kept the CPUs while a measurement ran (a context manager):
    ``cpus`` is their average use in CPUs (0.0 quiet; None where the system does not say).
    Timings taken beside other work rank candidates by luck, so a choice measured then is
    not kept for later processes."""

    def __enter__(self):
        self._start = (system_busy_seconds(), own_cpu_seconds(), time.monotonic())
        self.cpus = None
        return self

    def __exit__(self, *exc):
        system, own, wall = system_busy_seconds(), own_cpu_seconds(), time.monotonic()
        if system is not None and self._start[0] is not None and wall > self._start[2]:
            others = (system - self._start[0]) - (own - self._start[1])
            self.cpus = max(0.0, others / (wall - self._start[2]))
        return False


def own_cpu_seconds():
    t = os.times()
    return t.user + t.system


def system_busy_seconds():
    """CPU seconds spent by every process so far (Linux's /proc/stat), or None."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(v) for v in fields[1:9]]       # user nice system idle iowait irq softirq steal
    busy = sum(ticks) - ticks[3] - ticks[4]
    return busy / os.sysconf("SC_CLK_TCK")
