"""``mindspore.utils.dryrun``: simulate a run without executing on devices.

``set_simulation`` sets ``MS_SIMULATION_LEVEL=1``, MindSpore's switch, which its launch
tooling and scripts read back.
"""
import os


def set_simulation():
    """Mark this process as a dry run (``MS_SIMULATION_LEVEL=1``)."""
    os.environ["MS_SIMULATION_LEVEL"] = "1"
