"""Whist Club: the whist family of card games."""

from whist._compiled import use_sources_if_stale

__version__ = "0.1.0"

# Whether the rules core runs compiled (benchmarks report it; a test requires it).
CORE_COMPILED: bool = use_sources_if_stale()
