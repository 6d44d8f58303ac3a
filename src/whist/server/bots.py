"""Bots think in worker processes so that the server never blocks on them."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from random import Random
from typing import Any

from whist.bots import make_bot
from whist.bots.medium import MediumBot
from whist.core.actions import action_to_json
from whist.core.views import View

log = logging.getLogger("whist.bots")


def choose(level: str, view: View, seed: str, budget: float) -> dict[str, Any]:
    """Runs in a worker process: the bot's action as record JSON."""
    return action_to_json(make_bot(level).choose(view, Random(seed), budget))


def safe_move(view: View, seed: str) -> dict[str, Any]:
    """A sensible legal move at once (MEDIUM's), for a bot that overran its budget."""
    return action_to_json(MediumBot().choose(view, Random(seed), 0.0))


class BotPool:
    def __init__(self, workers: int, budget: float) -> None:
        self.budget = budget
        self.executor: concurrent.futures.Executor | None = (
            concurrent.futures.ProcessPoolExecutor(max_workers=workers) if workers > 0 else None
        )

    async def think(self, level: str, view: View, seed: str) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self.executor, choose, level, view, seed, self.budget)
        try:
            return await asyncio.wait_for(future, timeout=self.budget + 0.5)
        except TimeoutError:
            log.warning(
                "a %s bot overran its %.1f s budget: playing a safe move", level, self.budget
            )
            return safe_move(view, seed)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
