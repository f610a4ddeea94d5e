"""A play-by-email Diplomacy judge."""
