"""Developer tools: ``python -m tensorjit.tools.fuzz`` (differential fuzzing)."""
