"""Table entries: sampling (placeholder while written)."""
