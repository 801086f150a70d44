"""MindSpore's ``Profiler`` class (``mindspore.Profiler``): recording starts when it is made
(``start_profile=True``) or at ``start()``; ``analyse()`` (after ``stop()``, or stopping
first) writes everything under ``output_path``."""
import os
import socket

from .session import profile


class Profiler(profile):
    def __init__(self, output_path="./data", profiler_level=None, activities=None,
                 schedule=None, on_trace_ready=None, profile_memory=False, with_stack=False,
                 start_profile=True, data_process=False, parallel_strategy=False,
                 hbm_ddr=False, pcie=False, sync_enable=True, record_shapes=False,
                 **kwargs):
        if not isinstance(output_path, (str, os.PathLike)):
            raise TypeError(f"Profiler: output_path must be a path, got {output_path!r}")
        if profiler_level is not None:
            kwargs["profiler_level"] = profiler_level
        super().__init__(activities=activities, with_stack=with_stack,
                         profile_memory=profile_memory, data_process=data_process,
                         parallel_strategy=parallel_strategy, start_profile=start_profile,
                         hbm_ddr=hbm_ddr, pcie=pcie, sync_enable=sync_enable,
                         record_shapes=record_shapes, schedule=schedule,
                         on_trace_ready=on_trace_ready, **kwargs)
        self.output_path = os.path.abspath(os.fspath(output_path))
        self.output_folder = None      # where analyse() wrote the latest recording
        if start_profile:
            self.start()

    def analyse(self, offline_path=None, pretty=False, step_list=None, mode="sync"):
        """Stop if still recording, and write the trace, report and tables."""
        from . import output
        self.stop()
        self.output_folder = output.write_all(
            self._latest(), os.fspath(offline_path) if offline_path else self.output_path,
            f"{socket.gethostname()}_{os.getpid()}")
        return self.output_folder

    def op_analyse(self, op_name, device_id=None):
        """The calls of one operator / kernel by name: {name: [durations in us]}."""
        names = [op_name] if isinstance(op_name, str) else list(op_name)
        return {name: [e.duration for e in self._latest().spans() if e.name == name]
                for name in names}

    @staticmethod
    def offline_analyse(path, pretty=False, step_list=None, data_simplification=True):
        raise RuntimeError("Profiler.offline_analyse: tensorjit analyses while it records; "
                           "the results are already under the output path")
