"""Neural-network cells (filled in by the nn module)."""
