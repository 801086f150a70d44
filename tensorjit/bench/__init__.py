"""Benchmarks: the seed workloads (``workloads``) and, later, the benchmark runner."""
