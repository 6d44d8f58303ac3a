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
from whist.core.views import View, view_for
from whist.variants import new_match

log = logging.getLogger("whist.bots")


def choose(level: str, view: View, seed: str, budget: float) -> dict[str, Any]:
    """Runs in a worker process: the bot's action as record JSON."""
    return action_to_json(make_bot(level).choose(view, Random(seed), budget))


def safe_move(view: View, seed: str) -> dict[str, Any]:
    """A sensible legal move at once (MEDIUM's), for a bot that overran its budget."""
    return action_to_json(MediumBot().choose(view, Random(seed), 0.0))


def warm_up() -> None:
    """Runs in each worker process as it starts. A first MASTER decision would otherwise
    also pay for loading the solvers (numba's cached kernel, DDS): about 0.7 s more, and
    over its budget it would play MEDIUM's safe move instead."""
    try:
        from whist.solver import solve

        solve([1, 2, 4, 8], None, 0, [], True)
        match = new_match("classic")
        match.start_deal(list(range(52)), dealer=0)
        for _ in range(5):  # into trick 2: a position with a real choice
            match.apply(match.legal_actions()[0])
        make_bot("master").choose(view_for(match, match.next_seat()), Random(0), 0.05)
    except Exception:  # only a head start: a failure here must not break the pool
        log.exception("warming up a bot worker failed")


class BotPool:
    def __init__(self, workers: int, budget: float) -> None:
        self.budget = budget
        self.executor: concurrent.futures.Executor | None = None
        self.warming: list[concurrent.futures.Future[int]] = []
        if workers > 0:
            self.executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers, initializer=warm_up
            )
            # Start the workers (and their warm-up) now, before the first bot must move.
            self.warming = [self.executor.submit(int) for _ in range(workers)]

    async def think(self, level: str, view: View, seed: str) -> dict[str, Any]:
        if self.warming:  # once, and not on the bot's clock
            await asyncio.gather(*map(asyncio.wrap_future, self.warming))
            self.warming = []
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
