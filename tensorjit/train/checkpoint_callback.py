"""``ModelCheckpoint`` + ``CheckpointConfig``: save the training network every K steps (or
seconds), keep the last N files, and once more at the end; files are
``<prefix>-<epoch>_<step in epoch>.ckpt`` in ``directory``, written by
``checkpoint.save_checkpoint`` (atomic)."""
import numbers
import os
import re
import time

from ..checkpoint import save_checkpoint
from ..checkpoint.api import wait_async_saves
from .callbacks import Callback

__all__ = ["CheckpointConfig", "ModelCheckpoint"]


def _non_negative_int(value, name):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise ValueError(f"CheckpointConfig: '{name}' must be an int >= 0, got {value!r}")
    return int(value)


class CheckpointConfig:
    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False,
                 saved_network=None, append_info=None, enc_key=None, enc_mode="AES-GCM",
                 exception_save=False, crc_check=False, format="ckpt", **kwargs):
        self.save_checkpoint_steps = _non_negative_int(save_checkpoint_steps,
                                                       "save_checkpoint_steps")
        self.save_checkpoint_seconds = _non_negative_int(save_checkpoint_seconds,
                                                         "save_checkpoint_seconds")
        self.keep_checkpoint_max = _non_negative_int(keep_checkpoint_max, "keep_checkpoint_max")
        self.keep_checkpoint_per_n_minutes = _non_negative_int(keep_checkpoint_per_n_minutes,
                                                               "keep_checkpoint_per_n_minutes")
        if not (self.save_checkpoint_steps or self.save_checkpoint_seconds
                or self.keep_checkpoint_max or self.keep_checkpoint_per_n_minutes):
            raise ValueError("CheckpointConfig: 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and "
                             "'keep_checkpoint_per_n_minutes' cannot all be 0 or None")
        if self.save_checkpoint_steps:                 # steps win over seconds
            self.save_checkpoint_seconds = None
        if self.keep_checkpoint_max:
            self.keep_checkpoint_per_n_minutes = None
        elif not self.keep_checkpoint_per_n_minutes:
            self.keep_checkpoint_max = 1
        if format not in ("ckpt", "safetensors"):
            raise ValueError(f"CheckpointConfig: 'format' must be 'ckpt' or 'safetensors', got "
                             f"{format!r}")
        self.integrated_save, self.async_save = integrated_save, bool(async_save)
        self.saved_network, self.enc_key, self.enc_mode = saved_network, enc_key, enc_mode
        self.exception_save, self.crc_check, self.format = exception_save, crc_check, format
        append_info = list(append_info or [])
        self.append_dict = {}
        for item in append_info:
            if item in ("epoch_num", "step_num"):
                self.append_dict[item] = 0
            elif isinstance(item, dict):
                self.append_dict.update(item)
            else:
                raise ValueError(f"CheckpointConfig: 'append_info' holds 'epoch_num', 'step_num' "
                                 f"or dicts, got {item!r}")

    def get_checkpoint_policy(self):
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes}


class ModelCheckpoint(Callback):
    def __init__(self, prefix="CKP", directory=None, config=None):
        if config is None:
            config = CheckpointConfig()
        if not isinstance(config, CheckpointConfig):
            raise TypeError(f"ModelCheckpoint: 'config' must be a CheckpointConfig, got "
                            f"{type(config).__name__}")
        if not isinstance(prefix, str) or not prefix or "/" in prefix:
            raise ValueError(f"ModelCheckpoint: 'prefix' must be a non-empty str without '/', "
                             f"got {prefix!r}")
        self._config = config
        self._directory = os.path.realpath(directory if directory is not None else os.getcwd())
        os.makedirs(self._directory, exist_ok=True)
        self._prefix = self._free_prefix(prefix)
        self._last_triggered_step = 0
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._files = []
        self._latest_ckpt_file_name = ""

    def _free_prefix(self, prefix):
        """MindSpore's rule: if files of ``prefix`` exist already, use ``prefix_1``, ..."""
        existing = os.listdir(self._directory)
        if not any(f.startswith(prefix + "-") for f in existing):
            return prefix
        k = 1
        while any(f.startswith(f"{prefix}_{k}-") for f in existing):
            k += 1
        return f"{prefix}_{k}"

    @property
    def latest_ckpt_file_name(self):
        return self._latest_ckpt_file_name

    def step_end(self, run_context):
        self._save(run_context.original_args(), force=False)

    def end(self, run_context):
        self._save(run_context.original_args(), force=True)
        if self._config.async_save:
            wait_async_saves()

    # the eval hooks of the old names must not save
    def on_eval_step_end(self, run_context):
        pass

    def on_eval_end(self, run_context):
        pass

    def _due(self, params, force):
        if force:
            return True
        if self._config.save_checkpoint_steps:
            return params.cur_step_num >= self._last_triggered_step + \
                self._config.save_checkpoint_steps
        if self._config.save_checkpoint_seconds:
            now = time.time()
            if now - self._last_time > self._config.save_checkpoint_seconds:
                self._last_time = now
                return True
        return False

    def _save(self, params, force):
        if params.cur_step_num == self._last_triggered_step or not self._due(params, force):
            return
        step_in_epoch = (params.cur_step_num - 1) % params.batch_num + 1
        name = f"{self._prefix}-{params.cur_epoch_num}_{step_in_epoch}.{self._config.format}"
        self._drop_old_files()
        path = os.path.join(self._directory, name)
        self._last_triggered_step = params.cur_step_num
        append = dict(self._config.append_dict)
        if "epoch_num" in append:
            append["epoch_num"] = params.cur_epoch_num
        if "step_num" in append:
            append["step_num"] = params.cur_step_num
        network = self._config.saved_network or params.train_network
        save_checkpoint(network, path, async_save=self._config.async_save,
                        append_dict=append or None, crc_check=self._config.crc_check,
                        format=self._config.format)
        if path in self._files:
            self._files.remove(path)
        self._files.append(path)
        self._latest_ckpt_file_name = path
        params["latest_ckpt_file"] = path
        params["last_save_ckpt_step"] = params.cur_step_num

    def _drop_old_files(self):
        """Keep at most ``keep_checkpoint_max`` files of this prefix (counting the one about
        to be written), or one per ``keep_checkpoint_per_n_minutes``."""
        pattern = re.compile(re.escape(self._prefix) + r"-\d+_\d+\." + re.escape(
            self._config.format) + "$")
        ours = [f for f in self._files if os.path.exists(f) and pattern.search(f)]
        self._files = ours
        keep_max = self._config.keep_checkpoint_max
        if keep_max:
            while len(self._files) >= keep_max:
                os.remove(self._files.pop(0))
        elif self._config.keep_checkpoint_per_n_minutes:
            now = time.time()
            if now - self._last_time_for_keep < self._config.keep_checkpoint_per_n_minutes * 60:
                if self._files:
                    os.remove(self._files.pop())          # keep one per interval
            else:
                self._last_time_for_keep = now
