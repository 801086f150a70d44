"""Two ranks on this machine (a second process is the reference): collectives against
NumPy formulas in every capture mode and level, the data-parallel example against one
process on the global batch, and mismatched shapes."""
import os

from conftest import needs_mpi, mpirun_command, launcher_command, WORKERS

pytestmark = needs_mpi
EXAMPLE = os.path.join("examples", "data_parallel.py")


def test_collectives_forward_and_backward_in_every_mode(job):
    code, out, _ = job(launcher_command(2, os.path.join(WORKERS, "collectives.py"))).wait(600)
    assert code == 0, out[-6000:]
    assert "rank 0: 144 checks passed" in out and "rank 1: 144 checks passed" in out, out


def _example_ok(code, out):
    assert code == 0, out[-6000:]
    for rank in (0, 1):
        line = next(l for l in out.splitlines() if l.startswith(f"rank {rank}/2: weights"))
        assert "identical on all ranks: True" in line and line.endswith("OK"), line


def test_example_under_plain_mpirun(job):
    _example_ok(*job(mpirun_command(2, EXAMPLE, "--check")).wait(600)[:2])


def test_example_under_the_launcher_with_train_one_step_at_o1(job):
    cmd = launcher_command(2, EXAMPLE, "--check", "--loop", "train_one_step",
                           "--capture-mode", "bytecode", "--jit-level", "O1")
    _example_ok(*job(cmd).wait(600)[:2])


def test_example_plain_loop_reduces_in_the_optimizer(job):
    cmd = launcher_command(2, EXAMPLE, "--check", "--loop", "plain", "--capture-mode", "trace")
    _example_ok(*job(cmd).wait(600)[:2])


def test_mismatched_shapes_name_every_rank(job, scratch):
    cmd = launcher_command(2, os.path.join(WORKERS, "faults.py"), "mismatch", str(scratch))
    code, out, _ = job(cmd).wait(300)
    assert code != 0
    assert "collectives do not match" in out, out[-4000:]
    assert "rank 0: all_reduce #1 (float32, op=sum, shape (2, 3))" in out, out[-4000:]
    assert "rank 1: all_reduce #1 (float32, op=sum, shape (3, 3))" in out, out[-4000:]


def test_each_rank_profiles_its_collectives_and_waits(job, scratch):
    import json
    import subprocess
    import sys
    code, out, _ = job(launcher_command(2, os.path.join(WORKERS, "profiled.py"),
                                        str(scratch))).wait(600)
    assert code == 0, out[-4000:]
    waits = {}
    for rank in (0, 1):
        with open(scratch / f"rank{rank}.json") as f:
            events = json.load(f)["traceEvents"]
        (process,) = [e for e in events if e["ph"] == "M" and e["name"] == "process_name"]
        assert process["args"]["name"].startswith(f"rank {rank} "), process
        # the graph's all-reduce runs as a non-blocking start and a wait (overlap pass)
        comms = [e for e in events if e["ph"] == "X" and e["cat"] == "collective"]
        assert {e["name"] for e in comms} == {"all_reduce_start", "all_reduce_wait"}, comms
        waits[rank] = sorted(e["dur"] for e in comms if e["name"] == "all_reduce_wait")
        assert len(waits[rank]) == 3
    # rank 0 waited for the late rank 1 (microseconds; the median of the 3 steps)
    assert waits[0][1] > 30_000 > waits[1][1], waits
    # one trace for both ranks, on one time axis: each rank's waits end together
    merged = scratch / "both.json"
    proc = subprocess.run([sys.executable, "-m", "tensorjit.profile", "merge", str(merged),
                           str(scratch / "rank0.json"), str(scratch / "rank1.json")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    with open(merged) as f:
        events = json.load(f)["traceEvents"]
    names = {e["args"]["name"][:6] for e in events if e.get("name") == "process_name"}
    assert names == {"rank 0", "rank 1"}
    ends = {}
    for e in events:
        if e.get("name") == "all_reduce_wait":
            ends.setdefault(e["pid"], []).append(e["ts"] + e["dur"])
    first, second = (sorted(v) for v in ends.values())
    assert all(abs(a - b) < 20_000 for a, b in zip(first, second)), (first, second)


def test_data_parallel_benchmark_row(job):
    import sys
    cmd = [sys.executable, "-m", "tensorjit.bench", "data_parallel", "--size", "tiny",
           "--steps", "1", "--warmup", "1", "--rounds", "1"]
    code, out, _ = job(cmd).wait(600)
    assert code == 0, out[-4000:]
    rows = [l for l in out.splitlines() if l.startswith(("| 1 |", "| 2 |"))]
    assert len(rows) == 2, out
    assert rows[0].split("|")[5].strip() == "0.0%"       # one rank never waits on others


def test_example_runs_as_one_process_without_mpirun(job):
    import sys
    code, out, _ = job([sys.executable, EXAMPLE, "--check", "--steps", "3"]).wait(300)
    assert code == 0, out[-4000:]
    assert "rank 0/1: weights identical on all ranks: True" in out, out


def test_datasets_shard_by_rank_and_rank_0_writes_the_checkpoint(job, scratch):
    """Under DATA_PARALLEL a dataset given no shard reads this rank's (an explicit one
    wins); save_checkpoint writes once, on rank 0, and every rank loads rank 0's values."""
    cmd = launcher_command(2, os.path.join(WORKERS, "data_and_checkpoints.py"), str(scratch))
    code, out, _ = job(cmd).wait(300)
    assert code == 0, out[-4000:]
    assert "rank 0: rows [0, 2, 4, 6, 8] generated [0, 2, 4, 6, 8] all [0, 1, 2, 3, 4, 5, 6, " \
           "7, 8, 9] explicit 10" in out, out
    assert "rank 1: rows [1, 3, 5, 7, 9] generated [1, 3, 5, 7, 9]" in out, out
    for rank, own in ((0, True), (1, False)):
        assert f"rank {rank}: files ['net.ckpt'] loaded equal on all ranks: True equal to " \
               f"own: {own}" in out, out
