"""Cluster mode: many `whist serve` nodes on one PostgreSQL and one Redis."""
