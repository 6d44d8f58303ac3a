"""Computer players. ``make_bot(level)`` gives a bot of level easy, medium, hard or master
(``whist.master``, which builds on the bots here)."""

from __future__ import annotations

from whist.bots.base import Bot

LEVELS = ("easy", "medium", "hard", "master")
# Variants of MASTER for measuring it (bench/ladder.py, whist tournament), not for tables:
# plain PIMC (uniform worlds, no inference, ties to the first best card; HARD's stock play,
# bids, bottom cards and talon choices) and MASTER with inference everywhere.
STUDY_LEVELS = ("pimc", "master-inference")


def make_bot(level: str) -> Bot:
    key = level.lower()
    if key == "easy":
        from whist.bots.easy import EasyBot

        return EasyBot()
    if key == "medium":
        from whist.bots.medium import MediumBot

        return MediumBot()
    if key == "hard":
        from whist.bots.hard import HardBot

        return HardBot()
    if key in ("master", *STUDY_LEVELS):
        from whist.master.bot import MasterBot

        if key == "pimc":
            return MasterBot(
                inference=False,
                level=key,
                playout_search=False,
                hard_ties=False,
                playout_decisions=False,
            )
        inference = {"master": None, "master-inference": True}[key]
        return MasterBot(inference=inference, level=key)
    raise ValueError(f"unknown bot level {level!r}; choose one of " + ", ".join(LEVELS))
