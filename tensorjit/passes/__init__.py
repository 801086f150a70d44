"""Graph passes, one file each; pipeline.py chooses them per jit_level."""
