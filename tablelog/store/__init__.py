"""The append-only log store (format in docs/FORMAT.md)."""
