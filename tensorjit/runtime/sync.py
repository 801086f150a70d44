"""``synchronize``: wait for the work launched so far.

tensorjit's kernels run synchronously on the calling thread, so when this is reached every
launched kernel has finished; nothing is queued to wait for.
"""


def synchronize():
    """Block until all launched work is done (already true on tensorjit's CPU backend)."""
