"""Batches made whole inside map workers (``dataset/batching.py``) and random operations
keyed by row (``dataset/row_key.py``): a pipeline gives the same batches with 1 worker,
2 threads or 2 forked processes; forked workers do not repeat each other's random draws;
user code runs only where its map allows; errors and early exits behave as before."""
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import tensorjit.dataset as ds
from tensorjit.dataset import transforms, vision, synthetic

from .threads import dataset_threads_end


def batches(dataset):
    return [[np.array(c) for c in row] for row in dataset.create_tuple_iterator(output_numpy=True)]


def images_dataset(seed=0, count=20):
    images, labels = synthetic.class_images(count, (12, 10, 3), 4, seed=seed)
    return ds.NumpySlicesDataset({"image": images, "label": labels.astype(np.int64)},
                                 shuffle=True)


def augmented(workers, processes, batch=6, drop_remainder=False, seed=11):
    ds.config.set_seed(seed)
    data = images_dataset()
    ops = [vision.RandomCrop(8, padding=1), vision.RandomHorizontalFlip(),
           vision.Rescale(1 / 255, 0.0), vision.HWC2CHW()]
    data = data.map(ops, "image", num_parallel_workers=workers,
                    python_multiprocessing=processes)
    data = data.map(transforms.TypeCast(np.int32), "label")
    return data.batch(batch, drop_remainder=drop_remainder)


def reference(batch, drop_remainder, seed=11):
    """The same batches by hand: each row's random draws depend on (epoch, position)."""
    ds.config.set_seed(seed)
    data = images_dataset()
    rows = [[np.array(c) for c in r] for r in data.create_tuple_iterator(output_numpy=True)]
    out = []
    for start in range(0, len(rows), batch):
        group = rows[start:start + batch]
        if len(group) < batch and drop_remainder:
            break
        out.append([np.stack([r[0] for r in group]), np.stack([r[1] for r in group])])
    return out


@pytest.mark.parametrize("drop_remainder", [False, True])
def test_one_worker_threads_and_processes_give_the_same_batches(drop_remainder):
    serial = batches(augmented(1, False, drop_remainder=drop_remainder))
    threads = augmented(2, False, drop_remainder=drop_remainder)
    processes = augmented(2, True, drop_remainder=drop_remainder)
    assert threads.in_workers is not None and processes.in_workers is not None
    assert len(serial) == (3 if drop_remainder else 4)
    for other in (batches(threads), batches(processes)):
        assert len(other) == len(serial)
        for a, b in zip(serial, other):
            np.testing.assert_array_equal(a[0], b[0])
            np.testing.assert_array_equal(a[1], b[1])
            assert a[0].dtype == b[0].dtype == np.float32 and b[1].dtype == np.int32
    # the un-augmented rows underneath are the source's, in the shuffled order
    plain = reference(6, drop_remainder)
    assert [b[1].tolist() for b in serial] == [p[1].tolist() for p in plain]
    assert serial[0][0].shape == (6, 3, 8, 8)


def test_forked_workers_and_epochs_do_not_repeat_random_draws():
    class Draw(transforms.RandomOp):
        def __call__(self, x):
            return np.array(self._integer(2 ** 40))
    ds.config.set_seed(4)
    data = ds.NumpySlicesDataset({"x": np.arange(64)}, shuffle=False)
    data = data.map(Draw(), "x", num_parallel_workers=2, python_multiprocessing=True).batch(8)
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    first = np.concatenate([b[0] for b in it])
    second = np.concatenate([b[0] for b in it])
    assert len(set(first.tolist())) == 64                  # no worker repeats another's draws
    assert len(set(first.tolist()) & set(second.tolist())) == 0      # new draws each epoch
    ds.config.set_seed(5489)


def test_random_draws_are_uniform_enough():
    class Coin(transforms.RandomOp):
        def __call__(self, x):
            return np.array([self._uniform(), self._integer(6)])
    ds.config.set_seed(0)
    data = ds.NumpySlicesDataset({"x": np.arange(6000)}, shuffle=False).map(Coin(), "x")
    draws = np.stack([r[0] for r in data.create_tuple_iterator(output_numpy=True)])
    assert 0 <= draws[:, 0].min() and draws[:, 0].max() < 1
    assert abs(draws[:, 0].mean() - 0.5) < 0.02
    counts = np.bincount(draws[:, 1].astype(int), minlength=6)
    assert counts.min() > 850 and counts.max() < 1150             # 1000 expected each
    ds.config.set_seed(5489)


def test_a_direct_call_keeps_its_own_seeded_sequence():
    ds.config.set_seed(3)
    first = [vision.RandomHorizontalFlip()._uniform() for _ in range(1)]
    ds.config.set_seed(3)
    again = [vision.RandomHorizontalFlip()._uniform() for _ in range(1)]
    assert first == again


def test_processes_make_whole_batches_outside_the_training_process():
    def where(x):
        return np.array([os.getpid(), int(x)])
    data = ds.NumpySlicesDataset({"x": np.arange(24)}, shuffle=False)
    data = data.map(where, "x", num_parallel_workers=2, python_multiprocessing=True).batch(4)
    rows = np.concatenate([b[0] for b in data.create_tuple_iterator(output_numpy=True)])
    assert rows[:, 1].tolist() == list(range(24))
    assert os.getpid() not in set(rows[:, 0].tolist())


def test_user_code_runs_only_where_its_map_allows():
    seen = []

    def record(x):                        # user code asking for no workers: runs here
        seen.append(int(x))
        return x
    data = ds.NumpySlicesDataset({"x": np.arange(12)}, shuffle=False)
    data = data.map(lambda x: x + 1, "x", num_parallel_workers=2, python_multiprocessing=True)
    kept = data.map(record, "x").batch(4)
    assert kept.in_workers is None
    assert np.concatenate([b[0] for b in batches(kept)]).tolist() == list(range(1, 13))
    assert seen == list(range(1, 13))
    # a thread map of user code stays in this process even beside a process map
    threads = ds.NumpySlicesDataset({"x": np.arange(12)}, shuffle=False)
    threads = threads.map(lambda x: x + 1, "x", num_parallel_workers=2,
                          python_multiprocessing=True)
    threads = threads.map(record, "x", num_parallel_workers=2).batch(4)
    assert threads.in_workers is None
    # threads only: user maps that asked for workers run in the batch's worker threads
    seen.clear()
    together = ds.NumpySlicesDataset({"x": np.arange(12)}, shuffle=False)
    together = together.map(record, "x", num_parallel_workers=2).project(["x"]).batch(4)
    assert together.in_workers is not None and not together.in_workers.processes
    assert np.concatenate([b[0] for b in batches(together)]).tolist() == list(range(12))
    assert set(seen) == set(range(12))       # (and maybe the next epoch's first, made ahead)


def test_a_generator_source_is_read_here_and_transformed_in_workers():
    def rows():
        for k in range(10):
            yield np.array(k), np.array(-k)
    data = ds.GeneratorDataset(rows, ["a", "b"])
    data = data.map(lambda a: a * 10, "a", num_parallel_workers=2,
                    python_multiprocessing=True).rename("b", "c").batch(3)
    assert data.in_workers is not None and not data.in_workers.reads_in_worker
    out = batches(data)
    assert data.get_col_names() == ["a", "c"]
    assert np.concatenate([b[0] for b in out]).tolist() == [10 * k for k in range(10)]
    assert np.concatenate([b[1] for b in out]).tolist() == [-k for k in range(10)]


@pytest.mark.parametrize("processes", [False, True])
def test_errors_in_a_worker_batch_reach_the_loop(processes):
    def bad(x):
        if int(x) == 7:
            raise ValueError("row seven is bad")
        return x
    data = ds.NumpySlicesDataset({"x": np.arange(12)}, shuffle=False)
    failing = data.map(bad, "x", num_parallel_workers=2, python_multiprocessing=processes)
    with pytest.raises(ValueError, match="operation bad failed on .*row seven is bad"):
        batches(failing.batch(4))
    ragged = data.map(lambda x: np.zeros(int(x) % 2 + 1), "x", num_parallel_workers=2,
                      python_multiprocessing=processes)
    with pytest.raises(ValueError, match="column 'x' has rows of different shapes"):
        batches(ragged.batch(4))


def test_breaking_out_of_worker_batches_stops_the_workers():
    data = ds.NumpySlicesDataset({"x": np.arange(20000)}, shuffle=False)
    data = data.map(lambda x: x + 1, "x", num_parallel_workers=2).batch(10)
    assert data.in_workers is not None
    for k, _ in enumerate(data.create_tuple_iterator()):
        if k == 3:
            break
    assert dataset_threads_end()


@pytest.mark.parametrize("processes", [False, True])
def test_workers_run_on_into_the_next_epoch(processes):
    """The next epoch's first batches are made while this epoch's last ones are used: the
    same batches as epoch by epoch from scratch, from one set of workers."""
    ds.config.set_seed(2)
    ops = [vision.RandomCrop(8, padding=1), vision.RandomHorizontalFlip()]
    data = images_dataset().map(ops, "image", num_parallel_workers=2,
                                python_multiprocessing=processes).batch(6)
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=3)
    epochs = [[b[0].copy() for b in it] for _ in range(3)]
    stream = data.in_workers.stream
    assert stream is None                                 # released after the last epoch
    for epoch in range(3):                                # each epoch again, from scratch
        fresh = data.create_tuple_iterator(output_numpy=True, num_epochs=epoch + 1)
        for _ in range(epoch):
            for _ in fresh:
                pass
        again = [b[0] for b in fresh]
        assert len(again) == len(epochs[epoch]) == 4
        for a, b in zip(again, epochs[epoch]):
            np.testing.assert_array_equal(a, b)
    assert not np.array_equal(epochs[0][0], epochs[1][0])   # a new shuffle and new draws
    ds.config.set_seed(5489)


def test_worker_batches_run_ahead_of_the_consumer():
    produced = []

    def record(x):
        produced.append(int(x))
        return x
    data = ds.NumpySlicesDataset({"x": np.arange(200)}, shuffle=False)
    data = data.map(record, "x", num_parallel_workers=2).batch(5)
    it = data.create_tuple_iterator(output_numpy=True)
    next(it)
    deadline = time.monotonic() + 10
    while len(produced) < 20 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(produced) >= 20               # 4 batches in flight beyond the one taken
    it.stop()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_forked_workers_end_when_the_training_process_dies(tmp_path):
    """A training process killed mid-epoch (here: ``os._exit``) leaves no workers behind."""
    script = tmp_path / "train.py"
    pids = tmp_path / "pids"
    script.write_text(f"""
import os, numpy as np
import tensorjit.dataset as ds
def pid(x):
    return np.array(os.getpid())
data = ds.NumpySlicesDataset({{"x": np.arange(400)}}, shuffle=False)
data = data.map(pid, "x", num_parallel_workers=2, python_multiprocessing=True).batch(4)
it = data.create_tuple_iterator(output_numpy=True)
seen = set()
for _ in range(20):
    seen.update(next(it)[0].tolist())
open({str(pids)!r}, "w").write(" ".join(map(str, seen)))
os._exit(0)
""")
    subprocess.run([sys.executable, str(script)], check=True, timeout=120)
    workers = [int(p) for p in pids.read_text().split()]
    assert len(workers) == 2

    def alive(pid):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        with open(f"/proc/{pid}/stat") as f:           # a zombie is not running
            return f.read().split(")")[-1].split()[0] != "Z"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(alive(p) for p in workers):
        time.sleep(0.05)
    assert not any(alive(p) for p in workers)


def test_a_worker_process_that_dies_is_named():
    def crash(x):
        if int(x) == 9:
            os._exit(3)
        return x
    data = ds.NumpySlicesDataset({"x": np.arange(40)}, shuffle=False)
    data = data.map(crash, "x", num_parallel_workers=2, python_multiprocessing=True).batch(4)
    with pytest.raises(RuntimeError, match=r"dataset worker process \d+ ended unexpectedly "
                                           r"\(exit code 3\)"):
        batches(data)
