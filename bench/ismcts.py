"""MASTER against OpenSpiel's ISMCTS bot at equal thinking time (issue 6, point 6).

Our variants are registered as OpenSpiel Python games (``python_whist_classic``,
``python_whist_german``; any variant whose decisions in play are card plays and German
talon takes works, see ``register``). A game state wraps a ``whist.core`` ``Match``:

* the initial state deals the deck by 52 chance actions (uniform over the cards left), then
  starts the deal with our rules; a state can also be built from a match (``WhistState``);
* actions: a card play is the card (0..51), German ``talon_discard`` keep/discard are
  52/53 (``ACTIONS``); the deal ends the game;
* ``returns``: the deal's point difference from our scoring (``deal.points``), own side
  minus the other (partners share it), so the game is zero-sum and every seat maximizes
  exactly what the duplicate tournament measures;
* ``information_state_string(p)``: the fields of ``view_for(match, p)`` about the deal in
  progress (``INFO_FIELDS``), nothing else, so it holds only what seat p may see;
* ``resample_from_infostate(p, sampler)``: a new state whose hidden cards are one world of
  ``whist.bots.sampler.sample_worlds`` (uniform over the worlds consistent with p's view)
  laid out by ``whist.master.determinize`` — the same sampler MASTER uses.

``IsmctsBot`` (level ``ismcts``) plays our ``Bot`` protocol with OpenSpiel's Python
``ismcts.ISMCTSBot``: ``RandomRolloutEvaluator`` (``ROLLOUTS`` random rollout per leaf),
UCT with ``UCT_C`` = 2.0 (OpenSpiel's MCTS examples' default), a new world every simulation
(``max_world_samples`` unlimited), final policy the most visited action. ISMCTSBot counts
simulations; ``TimedISMCTSBot`` instead simulates until the decision's time budget less
``margin(budget)`` is spent (at least ``MIN_SIMULATIONS``).

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/ismcts.py --variants german,classic --deals 40 --budget 0.2
    .venv/bin/python bench/ismcts.py --quick --variants german --budget 0.02   # smoke test

Prints one JSON object (progress bars on stderr). Without open_spiel it prints a note and
exits 0. Only this file imports pyspiel.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/ladder.py, run or imported

import whist
from ladder import pair_report
from whist.bots import make_bot
from whist.bots.base import Bot
from whist.bots.sampler import sample_worlds
from whist.core.actions import Action, Play, Take
from whist.core.cards import cards_in
from whist.core.match import Match
from whist.core.state import Phase
from whist.core.views import View, view_for
from whist.master.determinize import determinize, hidden_of
from whist.tournament import run_tournament
from whist.variants import VARIANTS, new_match, resolve

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
except ImportError as exc:  # open_spiel is the optional "bench" extra
    SPIEL_ERROR: str | None = str(exc)
    _Game: Any = object
    _State: Any = object
    _ISMCTSBot: Any = object
else:
    SPIEL_ERROR = None
    _Game, _State, _ISMCTSBot = pyspiel.Game, pyspiel.State, ismcts.ISMCTSBot

PLAY_VARIANTS = ("classic", "german")  # registered at import
UCT_C = 2.0
ROLLOUTS = 1  # random rollouts per evaluated leaf
MIN_SIMULATIONS = 2  # the root needs one visited child for a final policy
TAKE_KEEP, TAKE_DISCARD = 52, 53
ACTIONS = 54  # 52 cards, then German talon keep/discard
MAX_UTILITY = 26.0  # German, difference scoring with all 26 tricks counted
QUICK_DEALS = 1
# The View fields about the deal in progress. Not: variant/options/players (the game's),
# history (earlier deals: not rebuilt by determinize), the end of the match, and legal
# (follows from hand and trick).
INFO_FIELDS = tuple(
    f.name
    for f in dataclasses.fields(View)
    if f.name
    not in ("variant", "options", "players", "history", "over", "winner", "resigned", "legal")
)
SIMULATIONS: list[int] = []  # simulations per searched decision, in this process


def margin(budget: float) -> float:
    """Time left at the end of a search for one simulation past the check and the rest."""
    return 0.005 + 0.05 * budget


def game_name(variant: str) -> str:
    return f"python_whist_{variant}"


def to_action(seat: int, action_id: int) -> Action:
    if action_id < 52:
        return Play(seat, action_id)
    if action_id in (TAKE_KEEP, TAKE_DISCARD):
        return Take(seat, action_id == TAKE_KEEP)
    raise ValueError(f"no whist action {action_id}")


def action_id(action: Action) -> int:
    if isinstance(action, Play):
        return action.card
    if isinstance(action, Take):
        return TAKE_KEEP if action.keep else TAKE_DISCARD
    raise ValueError(f"{action!r}: only card plays and talon takes are OpenSpiel actions")


def info_string(view: View) -> str:
    return repr(tuple(getattr(view, name) for name in INFO_FIELDS))


# ----------------------------------------------------------------------- the game
class WhistGame(_Game):  # type: ignore[misc]
    """One variant with its default options; parameter ``dealer`` (default 0). A subclass
    per variant sets ``variant`` (``register``)."""

    variant = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(game_type(self.variant), game_info(self.variant), params or {})
        self.dealer = int((params or {}).get("dealer", 0))

    def new_initial_state(self) -> WhistState:
        return WhistState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer()


class _Observer:
    """For OpenSpiel's C++ side: the information state string, no tensor."""

    def __init__(self) -> None:
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: WhistState, player: int) -> None:
        pass

    def string_from(self, state: WhistState, player: int) -> str:
        return state.information_state_string(player)


class WhistState(_State):  # type: ignore[misc]
    """A deal of ``game``'s variant: being dealt (``match`` None) or ``match``'s current
    deal. ``rng`` draws the worlds of ``resample_from_infostate`` (shared with clones)."""

    def __init__(self, game: WhistGame, match: Match | None = None, rng: Random | None = None):
        super().__init__(game)
        self._game = game
        self.match = match
        self.deck: list[int] = []
        self.rng = rng if rng is not None else Random()
        self._views: dict[int, View] = {}
        self._keys: dict[int, str] = {}
        self._player: int | None = None

    # ------------------------------------------------------------ OpenSpiel API
    def current_player(self) -> int:
        player = self._player  # OpenSpiel asks several times per action: kept until the next
        if player is None:
            match = self.match
            if match is None:
                player = int(pyspiel.PlayerId.CHANCE)
            elif self.is_terminal():
                player = int(pyspiel.PlayerId.TERMINAL)
            else:
                seat = match.next_seat()
                assert seat is not None
                player = seat
            self._player = player
        return player

    def is_terminal(self) -> bool:
        match = self.match
        return match is not None and (match.over or match.deal is None or match.deal.complete)

    def _legal_actions(self, player: int) -> list[int]:
        match = self.match
        assert match is not None and match.deal is not None
        deal = match.deal
        if deal.phase is Phase.PLAY:  # the hot path: the cards as the rules engine allows
            return list(cards_in(match.legal_mask(deal, player))) if deal.turn == player else []
        return sorted(action_id(a) for a in match.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(52)).difference(self.deck))
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        self._views.clear()
        self._keys.clear()
        self._player = None
        if self.match is None:
            self.deck.append(int(action))
            if len(self.deck) == 52:
                match = new_match(self._game.variant, {})
                match.start_deal(self.deck, self._game.dealer)
                self.match = match
            return
        seat = self.current_player()
        self._player = None
        self.match.apply(to_action(seat, int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{action}"
        return repr(to_action(player, action))

    def returns(self) -> list[float]:
        players = self._game.num_players()
        if not self.is_terminal():
            return [0.0] * players
        assert self.match is not None and self.match.deal is not None
        points = self.match.deal.points
        return [float(points[s % 2] - points[1 - s % 2]) for s in range(players)]

    def view(self, player: int) -> View:
        """``view_for(match, player)``, kept until the next action (so the sampler's cache
        of the last view works across simulations)."""
        view = self._views.get(player)
        if view is None:
            assert self.match is not None
            view = self._views[player] = view_for(self.match, player)
        return view

    def information_state_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        key = self._keys.get(player)
        if key is None:
            if self.match is None:
                key = f"dealing {len(self.deck)}"  # face down: nobody has seen a card
            else:
                key = info_string(self.view(player))
            self._keys[player] = key
        return key

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> WhistState:
        """Same information state for ``player_id``; the cards it cannot see drawn anew."""
        if self.match is None:
            return self.clone()
        view = self.view(player_id)
        world = sample_worlds(view, self.rng, 1)[0]
        match = determinize(view, hidden_of(view, world, self.rng))
        return WhistState(self._game, match, self.rng)

    def clone(self) -> WhistState:
        state = WhistState(self._game, None if self.match is None else self.match.copy(), self.rng)
        state.deck = list(self.deck)
        return state

    def __deepcopy__(self, memo: dict[int, Any]) -> WhistState:
        return self.clone()

    def __str__(self) -> str:
        if self.match is None:
            return f"dealing {self.deck}"
        return info_string(view_for(self.match, None))


def game_type(variant: str) -> Any:
    players = resolve(variant, {})[0].players
    return pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"Python Whist Club {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"dealer": 0},
    )


def game_info(variant: str) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=ACTIONS,
        max_chance_outcomes=52,
        num_players=resolve(variant, {})[0].players,
        min_utility=-MAX_UTILITY,
        max_utility=MAX_UTILITY,
        utility_sum=0.0,
        max_game_length=52 + 52 + 26,  # deal, plays, talon takes
    )


def register(variant: str) -> str:
    """Register ``variant`` as ``python_whist_<variant>`` (once); its short name."""
    name = game_name(variant)
    if name not in pyspiel.registered_names():
        # A class, not a closure: OpenSpiel keeps the creator until after the interpreter
        # is gone, and freeing a function then aborts Python at exit.
        game = type(f"WhistGame_{variant}", (WhistGame,), {"variant": variant})
        pyspiel.register_game(game_type(variant), game)
    return name


_GAMES: dict[str, Any] = {}


def load(variant: str) -> WhistGame:
    game = _GAMES.get(variant)
    if game is None:
        game = _GAMES[variant] = pyspiel.load_game(register(variant))
    return game  # type: ignore[no-any-return]


if SPIEL_ERROR is None:
    for _variant in PLAY_VARIANTS:
        register(_variant)


# ------------------------------------------------------------------------ the bot
class TimedISMCTSBot(_ISMCTSBot):  # type: ignore[misc]
    """``ismcts.ISMCTSBot`` searching until ``deadline`` (``time.perf_counter``) instead of
    for a number of simulations; ``run_search`` is the original's loop with that stop."""

    def __init__(self, *args: Any, deadline: float, **kwargs: Any) -> None:
        super().__init__(*args, max_simulations=0, **kwargs)
        self.deadline = deadline
        self.simulations = 0

    def run_search(self, state: WhistState) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        clock = time.perf_counter
        done = 0
        while done < MIN_SIMULATIONS or clock() < self.deadline:
            sampled = self.sample_root_state(state)
            assert root_key == self.get_state_key(sampled)
            self.run_simulation(sampled)
            done += 1
        self.simulations = done
        return self.get_final_policy(state, self._root_node)  # type: ignore[no-any-return]


class IsmctsBot:
    """Our ``Bot`` protocol on OpenSpiel's ISMCTS, for the whole time budget."""

    level = "ismcts"

    def __init__(
        self,
        uct_c: float = UCT_C,
        rollouts: int = ROLLOUTS,
        max_world_samples: int = -1,  # ismcts.UNLIMITED_NUM_WORLD_SAMPLES
    ) -> None:
        if SPIEL_ERROR is not None:
            raise RuntimeError(f"open_spiel not importable ({SPIEL_ERROR})")
        self.uct_c = uct_c
        self.rollouts = rollouts
        self.max_world_samples = max_world_samples

    def choose(self, view: View, rng: Random, budget: float) -> Action:
        start = time.perf_counter()
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        assert view.seat is not None
        game = load(view.variant)
        worlds = Random(rng.getrandbits(64))
        numbers = np.random.RandomState(rng.getrandbits(32))
        world = sample_worlds(view, worlds, 1)[0]
        state = WhistState(game, determinize(view, hidden_of(view, world, worlds)), worlds)
        bot = TimedISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=numbers),
            self.uct_c,
            deadline=start + budget - margin(budget),
            max_world_samples=self.max_world_samples,
            random_state=numbers,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        action = to_action(view.seat, int(bot.step(state)))
        SIMULATIONS.append(bot.simulations)
        return action


def factory(level: str) -> Bot:
    """``IsmctsBot`` for ``ismcts``, ``make_bot`` otherwise (a module-level function)."""
    if level.lower() == "ismcts":
        return IsmctsBot()
    return make_bot(level)


# ------------------------------------------------------------------- command line
def _spiel_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel")
    except PackageNotFoundError:
        return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--variants", default=",".join(PLAY_VARIANTS), help="comma-separated")
    parser.add_argument("--deals", type=int, default=40, help="duplicate deals per variant")
    parser.add_argument("--workers", type=int, default=1, help="processes per tournament")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=0.2, help="seconds per decision")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_DEALS} deal: smoke test")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown or not variants:
        parser.error(f"--variants: unknown {', '.join(unknown)}; known: {', '.join(VARIANTS)}")
    deals = QUICK_DEALS if args.quick else args.deals
    if deals < 1 or args.workers < 1 or not args.budget > 0:
        parser.error("--deals and --workers must be at least 1, --budget above 0")
    if SPIEL_ERROR is not None:
        note = f"open_spiel not importable ({SPIEL_ERROR}); pip install -e '.[bench]'"
        print(json.dumps({"available": False, "note": note}))
        return 0

    start = time.perf_counter()
    load_before = os.getloadavg() if hasattr(os, "getloadavg") else None
    per_variant: dict[str, dict[str, Any]] = {}
    for variant in variants:
        SIMULATIONS.clear()
        result = run_tournament(
            variant,
            {},
            "master",
            "ismcts",
            deals,
            seed=args.seed,
            workers=args.workers,
            progress=not args.quiet,
            budget=args.budget,
            factory=factory,
        )
        report = pair_report(result)
        report["deals"] = result.deals
        if SIMULATIONS:  # only what this process searched (all of it with --workers 1)
            report["ismcts_simulations"] = {
                "mean": round(statistics.fmean(SIMULATIONS), 1),
                "median": statistics.median(SIMULATIONS),
                "min": min(SIMULATIONS),
            }
        per_variant[variant] = report
        print(
            f"[ismcts] {variant} master vs ismcts: mean {report['mean']:+.3f}, "
            f"95% CI [{report['ci_low']}, {report['ci_high']}], holds {report['holds']}",
            file=sys.stderr,
            flush=True,
        )
    output = {
        "available": True,
        "open_spiel": _spiel_version(),
        "a": "master",
        "b": "ismcts",
        "deals": deals,
        "budget": args.budget,
        "seed": args.seed,
        "workers": args.workers,
        "quick": args.quick,
        "ismcts": {
            "uct_c": UCT_C,
            "evaluator": f"RandomRolloutEvaluator(n_rollouts={ROLLOUTS})",
            "final_policy": "MAX_VISIT_COUNT",
            "max_world_samples": "unlimited (a new world every simulation)",
            "stop": f"time: budget - ({margin(args.budget):.4f} s)",
        },
        "whist_src": str(Path(whist.__file__).resolve().parent),
        "variants": per_variant,
        "all_hold": all(report["holds"] for report in per_variant.values()),
        "elapsed_s": round(time.perf_counter() - start, 3),
        "load_before": load_before,
        "load_after": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "cpus": os.cpu_count(),
    }
    print(json.dumps(output, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
