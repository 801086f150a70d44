"""tensorjit.dataset: sources, readers of generated MNIST / CIFAR-10 files, pipeline
operations with the behaviour MindSpore 2.10 shows (recorded below), iterators, and workers
that really run ahead of the consumer and stop with it."""
import os
import threading
import time

import numpy as np
import pytest

import tensorjit as ms
import tensorjit.dataset as ds
from tensorjit.dataset import synthetic

from .threads import dataset_threads_end


@pytest.fixture
def mnist_dir(tmp_path):
    return synthetic.write_mnist(str(tmp_path / "mnist"), train=50, test=20)


def column(dataset, k=0):
    return [row[k] for row in dataset.create_tuple_iterator(output_numpy=True)]


# ---- readers ---------------------------------------------------------------------------

def test_mnist_reads_the_idx_files(mnist_dir):
    images, labels = synthetic.class_images(50, (28, 28), seed=0)
    train = ds.MnistDataset(mnist_dir, usage="train", shuffle=False)
    assert train.get_col_names() == ["image", "label"] and train.get_dataset_size() == 50
    rows = list(train.create_tuple_iterator(output_numpy=True))
    assert rows[0][0].shape == (28, 28, 1) and rows[0][0].dtype == np.uint8
    assert rows[0][1].shape == () and rows[0][1].dtype == np.uint32
    np.testing.assert_array_equal(np.stack([r[0][..., 0] for r in rows]), images)
    np.testing.assert_array_equal([int(r[1]) for r in rows], labels)
    assert ds.MnistDataset(mnist_dir, usage="test").get_dataset_size() == 20
    assert ds.MnistDataset(mnist_dir).get_dataset_size() == 70
    assert ds.MnistDataset(mnist_dir, num_samples=7).get_dataset_size() == 7


def test_cifar10_reads_the_binary_batches(tmp_path):
    directory = synthetic.write_cifar10(str(tmp_path / "cifar"), per_batch=8, batches=2, test=4)
    data = ds.Cifar10Dataset(directory, usage="train", shuffle=False)
    assert data.get_dataset_size() == 16
    rows = list(data.create_tuple_iterator(output_numpy=True))
    images, labels = synthetic.class_images(8, (3, 32, 32), seed=0)
    assert rows[0][0].shape == (32, 32, 3) and rows[0][1].dtype == np.uint32
    np.testing.assert_array_equal(rows[3][0], images[3].transpose(1, 2, 0))
    assert int(rows[3][1]) == labels[3]
    assert ds.Cifar10Dataset(directory, usage="test").get_dataset_size() == 4


def test_damaged_files_give_clear_errors(tmp_path, mnist_dir):
    path = os.path.join(mnist_dir, "train-images-idx3-ubyte")
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:-10])
    with pytest.raises(ValueError, match="truncated or damaged"):
        ds.MnistDataset(mnist_dir, usage="train")
    with open(path, "wb") as f:
        f.write(b"GIF89a not an idx file")
    with pytest.raises(ValueError, match="not an IDX file"):
        ds.MnistDataset(mnist_dir, usage="train")
    with pytest.raises(ValueError, match="has no train-images"):
        ds.MnistDataset(str(tmp_path), usage="train")
    (tmp_path / "data_batch_1.bin").write_bytes(b"\x00" * 3000)
    with pytest.raises(ValueError, match="not a whole number of 3073-byte records"):
        ds.Cifar10Dataset(str(tmp_path), usage="train")
    with pytest.raises(ValueError, match="'usage' must be one of"):
        ds.MnistDataset(mnist_dir, usage="validation")


# ---- sources and sampling --------------------------------------------------------------

def test_shards_follow_mindspore():
    # MindSpore 2.10: NumpySlicesDataset(list(range(10)), shuffle=False, num_shards=3, ...)
    recorded = {0: [0, 3, 6, 9], 1: [1, 4, 7, 0], 2: [2, 5, 8, 1]}
    for k, expected in recorded.items():
        data = ds.NumpySlicesDataset(list(range(10)), shuffle=False, num_shards=3, shard_id=k)
        assert [int(v) for v in column(data)] == expected and data.get_dataset_size() == 4


def test_shuffled_shards_partition_the_data_every_epoch():
    shards = [ds.NumpySlicesDataset(list(range(12)), shuffle=True, num_shards=3, shard_id=k)
              .create_tuple_iterator(output_numpy=True, num_epochs=2) for k in range(3)]
    orders = []
    for _ in range(2):
        rows = [[int(r[0]) for r in it] for it in shards]
        assert sorted(sum(rows, [])) == list(range(12))
        orders.append(rows)
    assert orders[0] != orders[1]                      # a new order each epoch


def test_shuffle_is_seeded():
    ds.config.set_seed(7)
    first = column(ds.NumpySlicesDataset(list(range(20))))
    again = column(ds.NumpySlicesDataset(list(range(20))))
    assert first == again and sorted(int(v) for v in first) == list(range(20))
    assert [int(v) for v in first] != list(range(20))
    buffered = column(ds.NumpySlicesDataset(list(range(20)), shuffle=False).shuffle(4))
    assert sorted(int(v) for v in buffered) == list(range(20))
    ds.config.set_seed(5489)


def test_generator_sources():
    def gen():
        for i in range(5):
            yield np.array([i, i + 1], np.float32), i, 0.5 * i
    data = ds.GeneratorDataset(gen, column_names=["a", "b", "c"])
    row = next(iter(data.create_tuple_iterator()))
    assert isinstance(row, list) and all(isinstance(t, ms.Tensor) for t in row)
    assert [t.dtype for t in row] == [ms.float32, ms.int64, ms.float64]      # as MindSpore
    assert data.get_dataset_size() == 5

    class Source:
        def __getitem__(self, i):
            return np.full((2,), i, np.int32), np.array(i % 2)

        def __len__(self):
            return 6
    random_access = ds.GeneratorDataset(Source(), ["x", "y"], shuffle=False)
    assert [int(v[0]) for v in column(random_access)] == list(range(6))
    iterable = ds.GeneratorDataset([(np.ones(2), 1)] * 3, ["x", "y"])
    assert iterable.get_dataset_size() == 3
    with pytest.raises(ValueError, match="cannot be shuffled"):
        ds.GeneratorDataset(gen, ["a", "b", "c"], shuffle=True)
    with pytest.raises(ValueError, match="row 0 has 3 values for the 2 columns"):
        list(ds.GeneratorDataset(gen, ["a", "b"]).create_tuple_iterator())
    typed = ds.GeneratorDataset(Source(), ["x", "y"], column_types=[ms.float16, ms.int32])
    assert typed.output_types() == [np.float16, np.int32]


def test_numpy_slices_columns_and_types():
    # MindSpore 2.10: column names and types
    data = ds.NumpySlicesDataset({"a": np.arange(4), "b": np.ones((4, 2))}, shuffle=False)
    assert data.get_col_names() == ["a", "b"] and data.output_types() == [np.int64, np.float64]
    data = ds.NumpySlicesDataset(([1.0, 2.0], [3, 4]), shuffle=False)
    assert data.get_col_names() == ["column_0", "column_1"]
    assert data.output_types() == [np.float64, np.int64]
    data = ds.NumpySlicesDataset([[1.0, 2.0], [3, 4]], shuffle=False)
    assert data.output_shapes() == [[2]]


# ---- pipeline operations ---------------------------------------------------------------

class Source:
    def __getitem__(self, i):
        return np.full((2,), i, np.int32), np.array(i % 2)

    def __len__(self):
        return 6


def source():
    return ds.GeneratorDataset(Source(), ["x", "y"], shuffle=False)


def test_batch_repeat_take_skip_sizes():
    assert source().batch(4).get_dataset_size() == 2
    assert source().batch(4, drop_remainder=True).get_dataset_size() == 1
    assert source().batch(2).repeat(3).get_dataset_size() == 9
    batch = next(iter(source().batch(4).create_tuple_iterator(output_numpy=True)))
    assert batch[0].shape == (4, 2) and batch[1].shape == (4,)
    data = source().take(4).skip(1)                    # MindSpore: 3 rows, 1 2 3
    assert data.get_dataset_size() == 3
    assert [int(v[0]) for v in column(data)] == [1, 2, 3]
    repeated = column(source().repeat(2))
    assert [int(v[0]) for v in repeated] == list(range(6)) * 2
    assert source().batch(4).get_batch_size() == 4 and source().repeat(2).get_repeat_count() == 2


def test_map_column_layout_follows_mindspore():
    data = source().map(lambda x: x * 2, input_columns="x").map(
        lambda y: (y, y + 1), input_columns="y", output_columns=["y1", "y2"])
    assert data.get_col_names() == ["y1", "y2", "x"]           # recorded from MindSpore
    row = next(iter(data.create_dict_iterator(output_numpy=True)))
    assert int(row["y1"]) == 0 and int(row["y2"]) == 1 and row["x"].tolist() == [0, 0]
    assert source().map(lambda y: y * 3, input_columns="y",
                        output_columns="z").get_col_names() == ["x", "z"]
    assert source().project(["y"]).rename(["y"], ["z"]).get_col_names() == ["z"]
    with pytest.raises(ValueError, match=r"input columns \['w'\] are not among"):
        source().map(lambda w: w, input_columns="w")


def test_per_batch_map():
    def halve(xs, info):
        return [x // 2 for x in xs],
    data = source().batch(3, per_batch_map=halve, input_columns=["x"])
    first = next(iter(data.create_tuple_iterator(output_numpy=True)))
    assert data.get_col_names() == ["x", "y"]
    np.testing.assert_array_equal(first[0], np.array([[0, 0], [0, 0], [1, 1]]))


def test_batch_of_unequal_shapes_says_which_column():
    data = ds.GeneratorDataset(lambda: iter([(np.ones(2),), (np.ones(3),)]), ["v"]).batch(2)
    with pytest.raises(ValueError, match="column 'v' has rows of different shapes"):
        list(data.create_tuple_iterator())


def test_iterators_and_epochs():
    it = source().batch(4).create_tuple_iterator(num_epochs=2)
    assert len(list(it)) == 2 and len(list(it)) == 2
    with pytest.raises(RuntimeError, match="all 2 epoch"):
        list(it)
    it = source().create_tuple_iterator(columns=["y"], output_numpy=True)
    assert all(len(row) == 1 and row[0].shape == () for row in it)
    assert len(list(source())) == 6                     # iterating the dataset itself


# ---- workers -----------------------------------------------------------------------------

@pytest.mark.parametrize("processes", [False, True])
def test_parallel_map_keeps_order_and_values(processes):
    def slow_square(x):
        time.sleep(0.001 * (int(x[0]) % 3))            # finish out of order
        return x * x
    data = ds.NumpySlicesDataset(np.arange(40).reshape(20, 2), shuffle=False)
    serial = column(data.map(slow_square))
    parallel = column(data.map(slow_square, num_parallel_workers=3,
                               python_multiprocessing=processes))
    np.testing.assert_array_equal(np.stack(parallel), np.stack(serial))


def test_two_workers_really_run_at_once():
    barrier = threading.Barrier(2, timeout=10)       # each call waits for another one

    def meet(x):
        barrier.wait()
        return x
    data = ds.NumpySlicesDataset(np.arange(8), shuffle=False).map(meet, num_parallel_workers=2)
    assert [int(v) for v in column(data)] == list(range(8))


def test_the_pipeline_runs_ahead_of_the_consumer(monkeypatch):
    monkeypatch.setitem(ds.config._SETTINGS, "prefetch_size", 16)
    produced = []

    def record(x):
        produced.append(int(x))
        return x
    data = ds.NumpySlicesDataset(np.arange(50), shuffle=False).map(record,
                                                                    num_parallel_workers=2)
    it = data.create_tuple_iterator(output_numpy=True)
    next(it)                                            # the consumer took one row ...
    deadline = time.monotonic() + 10
    while len(produced) < 8 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(produced) >= 8                           # ... the workers kept going
    it.stop()


def test_breaking_out_stops_the_workers():
    data = ds.NumpySlicesDataset(np.arange(10000), shuffle=False).map(
        lambda x: x + 1, num_parallel_workers=2)
    for k, _ in enumerate(data.create_tuple_iterator()):
        if k == 3:
            break
    assert dataset_threads_end()


def test_an_error_in_a_worker_reaches_the_loop():
    def bad(x):
        if int(x) == 5:
            raise ValueError("row five is bad")
        return x
    data = ds.NumpySlicesDataset(np.arange(10), shuffle=False).map(bad, num_parallel_workers=2)
    with pytest.raises(ValueError, match="operation bad failed on .*row five is bad"):
        list(data.create_tuple_iterator())
