"""Memory-pool statistics: MindSpore's CPU build answers 0 for every counter.

tensorjit keeps tensors in NumPy arrays that Python frees, with no pool to reserve, cache or
empty, so the answers are MindSpore's CPU ones: a dictionary of zero counters, 0 bytes.
"""


def memory_stats():
    """The memory pool's state (zeros: no device pool on CPU)."""
    return {"total_reserved_memory": 0, "total_allocated_memory": 0, "total_idle_memory": 0,
            "total_eager_free_memory": 0, "max_reserved_memory": 0, "max_allocated_memory": 0,
            "common_mem_pool_stats": {"block_unit_size": 0, "block_counts": 0,
                                      "blocks_info": {}},
            "persistent_mem_pool_stats": {"block_counts": 0, "block_unit_size": 0,
                                          "blocks_info": {}}}


def memory_reserved():
    return memory_stats()["total_reserved_memory"]


def max_memory_reserved():
    return memory_stats()["max_reserved_memory"]


def memory_allocated():
    return memory_stats()["total_allocated_memory"]


def max_memory_allocated():
    return memory_stats()["max_allocated_memory"]


def empty_cache():
    """Release cached pool blocks (none are cached on CPU)."""


def reset_peak_memory_stats():
    """Reset the peak counters (they stay 0 on CPU)."""


def reset_max_memory_reserved():
    """Reset the reserved-memory peak (0 on CPU)."""


def reset_max_memory_allocated():
    """Reset the allocated-memory peak (0 on CPU)."""


def _format_size(size):
    # MindSpore's layout: switch unit once the value reaches 768 of the current one
    prefix, scaled = "B  ", size
    for unit in ("KB", "MB", "GB", "TB", "PB"):
        if scaled < 768 * 1024:
            break
        prefix, size, scaled = unit, size // 1024, scaled / 1024
    return f"{size:6d} {prefix}"


def memory_summary():
    """The pool's counters as MindSpore's text table."""
    stats = memory_stats()
    rows = [("total_reserved_memory", "Reserved memory"),
            ("total_allocated_memory", "Allocated memory"),
            ("total_idle_memory", "Idle memory"),
            ("total_eager_free_memory", "Eager free memory"),
            ("max_reserved_memory", "Max reserved memory"),
            ("max_allocated_memory", "Max allocated memory")]
    lines = ["=" * 45, " {:^43} ".format("Memory summary"), "=" * 45,
             " {:<20} | {:<20} ".format("Metric", "Data")]
    for key, label in rows:
        lines += ["-" * 45, " {:<20} | {:<20} ".format(label, _format_size(stats[key]))]
    lines.append("=" * 45)
    return "|" + "|\n|".join(lines) + "|\n"


def memory_replay(file_path):
    """Replay an Ascend memory pool's block trace (memory_block.csv): Ascend only.

    MindSpore's CPU build raises RuntimeError (no Ascend device context); so does tensorjit,
    which has no device memory pool to replay into."""
    raise RuntimeError(f"memory_replay({file_path!r}): replaying a memory_block.csv needs an "
                       f"Ascend device's memory pool; tensorjit runs on CPU, where MindSpore "
                       f"fails to create the Ascend device context too.")
