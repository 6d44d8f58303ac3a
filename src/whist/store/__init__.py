"""Storage: rows, never domain values or wire messages (converted explicitly)."""
