"""MASTER: Perfect Information Monte Carlo over sampled worlds, solved exactly.

This package sits above the bots: it samples what a seat cannot see (``whist.bots.sampler``),
turns each guess into a position or a playable match (``determinize``) and asks the exact
solver (``whist.solver``). It may build matches from the rules core, but only from a view
and a guess — it is never handed the real match (tests/test_bots.py checks its imports).
"""
