"""The game's web pages: one more door into the mail commands (see docs/architecture.md)."""
