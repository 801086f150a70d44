"""dataset.config's pipeline settings (MindSpore 2.10's defaults, checks and error types)
and Cifar100Dataset reading CIFAR-100's binary format (coarse label, fine label, then the
channel-major image; MindSpore 2.10 reads the same bytes into the same columns)."""
import numpy as np
import pytest

import tensorjit.dataset as ds
from tensorjit.dataset import config
from tensorjit.dataset.synthetic import write_cifar100

DEFAULTS = {"auto_num_workers": False, "auto_offload": False, "autotune_interval": 0,
            "callback_timeout": 60, "debug_mode": False, "dynamic_shape": False,
            "enable_autotune": False, "enable_shared_mem": True, "enable_watchdog": True,
            "error_samples_mode": config.ErrorSamplesMode.RETURN, "fast_recovery": True,
            "iterator_mode": {"do_copy": False, "parallel_convert": False},
            "monitor_sampling_interval": 1000, "multiprocessing_start_method": "fork",
            "multiprocessing_timeout_interval": 300, "numa_enable": False,
            "video_backend": "CPU"}

# (setter, a valid value, [(invalid value, error type)]), as MindSpore 2.10 answers
CASES = [
    ("auto_num_workers", True, [(1, TypeError)]), ("auto_offload", True, [(1, TypeError)]),
    ("autotune_interval", 3, [(-1, ValueError), (1.5, TypeError)]),
    ("callback_timeout", 30, [(0, ValueError), (1.5, TypeError)]),
    ("dynamic_shape", True, [(1, TypeError)]), ("enable_shared_mem", False, [(1, TypeError)]),
    ("enable_watchdog", False, [(1, TypeError)]), ("fast_recovery", False, [(1, TypeError)]),
    ("monitor_sampling_interval", 2000, [(0, ValueError), (1.5, TypeError)]),
    ("multiprocessing_start_method", "spawn", [("x", ValueError)]),
    ("multiprocessing_timeout_interval", 600, [(0, ValueError), (-1, ValueError),
                                               (1.5, TypeError)]),
    ("numa_enable", True, [(1, TypeError)]), ("video_backend", "Ascend", [("x", ValueError)]),
    ("error_samples_mode", config.ErrorSamplesMode.SKIP, [("x", TypeError)]),
]


@pytest.fixture
def restore_settings():
    saved = dict(config._SETTINGS)
    yield
    config._SETTINGS.clear()
    config._SETTINGS.update(saved)


def test_config_settings_follow_mindspore(restore_settings):
    for name, value in DEFAULTS.items():
        assert getattr(config, f"get_{name}")() == value, name
    for name, valid, invalid in CASES:
        setter, getter = getattr(config, f"set_{name}"), getattr(config, f"get_{name}")
        setter(valid)
        assert getter() == valid
        for value, error in invalid:
            with pytest.raises(error):
                setter(value)
        assert getter() == valid
    config.set_enable_autotune(True, "/tmp/autotune")
    assert config.get_enable_autotune() is True
    config.set_debug_mode(True)
    assert config.get_debug_mode() is True
    config.set_iterator_mode(do_copy=True)
    assert config.get_iterator_mode() == {"do_copy": True, "parallel_convert": False}
    config.set_sending_batches(-1)
    for call, error in [(lambda: config.set_enable_autotune(1), TypeError),
                        (lambda: config.set_enable_autotune(True, 5), TypeError),
                        (lambda: config.set_debug_mode(1), TypeError),
                        (lambda: config.set_debug_mode(True, 5), TypeError),
                        (lambda: config.set_iterator_mode(1), TypeError),
                        (lambda: config.set_sending_batches(1.5), TypeError)]:
        with pytest.raises(error):
            call()


def test_cifar100_reads_the_binary_format(tmp_path):
    write_cifar100(tmp_path, train=6, test=3)
    records = np.fromfile(tmp_path / "train.bin", np.uint8).reshape(6, 3074)
    data = ds.Cifar100Dataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "coarse_label", "fine_label"]
    assert data.get_dataset_size() == 6
    rows = list(data.create_dict_iterator(output_numpy=True))
    for row, record in zip(rows, records):
        assert row["image"].shape == (32, 32, 3) and row["image"].dtype == np.uint8
        np.testing.assert_array_equal(row["image"],
                                      record[2:].reshape(3, 32, 32).transpose(1, 2, 0))
        assert row["coarse_label"].dtype == np.uint32 and row["fine_label"].dtype == np.uint32
        assert (int(row["coarse_label"]), int(row["fine_label"])) == tuple(record[:2])
    assert ds.Cifar100Dataset(str(tmp_path)).get_dataset_size() == 9
    assert ds.Cifar100Dataset(str(tmp_path), usage="test", num_shards=2,
                              shard_id=1).get_dataset_size() == 2
    with pytest.raises(ValueError, match="usage"):
        ds.Cifar100Dataset(str(tmp_path), usage="x")
    (tmp_path / "test.bin").write_bytes(b"\0" * 100)
    with pytest.raises(ValueError, match="truncated"):
        ds.Cifar100Dataset(str(tmp_path), usage="test")
