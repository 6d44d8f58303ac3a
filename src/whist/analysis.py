"""Grading every card of a deal: what the card played was worth against the best card.

For each card played in card play, all cards known and both sides playing the deal's
objective (most tricks, or fewest in a low contract): the tricks the playing seat's side
takes from the trick in progress to the end of the deal with the card played (``played``)
and with the best card (``best``), exactly the values ``whist solve`` gives at that
position. Four-hand most-tricks positions go to DDS; misère and two-hand positions to our
solver. A play the solver cannot reach (German Whist and Plockwhist while the stock lasts,
Japanese Whist's first trick) is graded by an estimate from the playing seat's own view, as
MASTER judges its moves: the deal played on by HARD in sampled worlds and the rest
estimated (``exact: false``; its values are averages); so is a play whose exact solve
passes ``PLAY_BUDGET``. Plays are solved from the end of the deal backwards, the solver
keeping its table from one position to the next.

A record downloaded by one seat holds a rebuilt deck (``reconstructed``): only plays from
the moment every card in play is known are graded (``DealAnalysis.graded_from``).
"""

from __future__ import annotations

import contextlib
import math
import statistics
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import TYPE_CHECKING, Any

from whist.bots.knowledge import LOW_MODES
from whist.core.actions import Play
from whist.core.cards import Card, Hand, card_text, cards_in
from whist.core.components import TABLE_PILES, TablePiles
from whist.core.errors import WhistError
from whist.core.match import Match
from whist.core.rules import side_of
from whist.core.state import Contract, Deal, Phase
from whist.core.views import View, view_for
from whist.records import Record, replay

if TYPE_CHECKING:
    from whist.solver import Control

# An exact solve gets this many seconds of CPU time a play; past them the play is
# estimated instead (the first tricks of a four-hand misère deal, on this 2-core machine,
# often).
PLAY_BUDGET = 2.0
CPU_POLL_SECONDS = 0.02  # how often a solve's CPU time is read
# Plays graded side by side: ``whist analyse`` uses the cores it may run on, up to
# ``DEFAULT_THREADS`` (the hard plays are the first few of a deal: more threads add
# little); ``--threads`` asks for 1..MAX_THREADS.
DEFAULT_THREADS = 4
MAX_THREADS = 16
# Two hands with table piles (Japanese Whist) are solved from this many tricks left: one
# more costs 0.5-14 s a position (this 2-core machine), 15 at most 0.3 s.
PILES_EXACT = 15
ESTIMATE_WORLDS = 24  # sampled deals per estimated play (German stage 1: ~0.1 s a play)
ESTIMATE_ROLLOUTS = 400  # rollouts per card with table piles (~0.02 s a card)
# Estimates are averages over sampled deals: a card within this many tricks of the best
# is counted as good as the best (no tricks lost).
ESTIMATE_NOISE = 0.25


class CannotAnalyse(Exception):
    """The record is fine but holds nothing the analysis can grade (the message says why)."""


@dataclass
class Grade:
    """One card played: the side's tricks from the trick in progress to the end with it
    (``played``) and with the best card (``best``). Exact values are whole tricks;
    estimates are averages; a value cut short by a time limit is a ``(low, high)`` bound."""

    trick: int
    seat: int
    card: Card
    hand: Hand  # the seat's cards just before the play (Japanese: with its table cards)
    played: float | tuple[int, int]
    best: float | tuple[int, int]
    best_cards: list[Card]
    exact: bool

    @property
    def settled(self) -> bool:
        """Whether the grade is whole: not cut short by a time limit (with bounds)."""
        return not isinstance(self.played, tuple) and not isinstance(self.best, tuple)

    @property
    def lost(self) -> float:
        """Tricks the play cost its side: 0 while a bound leaves it open, and for a card
        as good as the best (an estimate not surely worse counts as one)."""
        if not self.settled:
            return 0.0
        if self.card in self.best_cards:
            return 0.0
        return abs(self.best - self.played)

    def to_json(self) -> dict[str, Any]:
        def value(v: float | tuple[int, int]) -> Any:
            if isinstance(v, tuple):
                return list(v)
            return int(v) if self.exact else round(v, 2)

        return {
            "trick": self.trick,
            "seat": self.seat,
            "card": card_text(self.card),
            "played": value(self.played),
            "best": value(self.best),
            "exact": self.exact,
            "best_cards": [card_text(c) for c in self.best_cards],
            "lost": int(self.lost) if self.exact else round(self.lost, 2),
            "hand": [card_text(c) for c in cards_in(self.hand)],
        }


@dataclass
class DealAnalysis:
    deal: int
    most: bool
    players: int
    trump: int | None
    hands: list[Hand]  # every seat's cards when card play began (or grading, if later)
    graded_from: int  # the first action of the deal graded (a rebuilt deck: where it is known)
    plays: list[Grade] = field(default_factory=list)
    finished: bool = True  # False: stopped before every play was graded

    def lost(self, exact: bool = True) -> dict[int, float]:
        """Per seat, the tricks lost by its exactly graded plays (``exact``) or by its
        estimated ones."""
        totals = {seat: 0.0 for seat in range(self.players)}
        for grade in self.plays:
            if grade.exact == exact:
                totals[grade.seat] += grade.lost
        return totals

    def to_json(self) -> dict[str, Any]:
        document: dict[str, Any] = {
            "deal": self.deal,
            "objective": "most" if self.most else "fewest",
            "players": self.players,
            "trump": None if self.trump is None else "SHDC"[self.trump],
            "graded_from": self.graded_from,
            "finished": self.finished,
            "hands": {
                str(seat): [card_text(c) for c in cards_in(hand)]
                for seat, hand in enumerate(self.hands)
            },
            "plays": [g.to_json() for g in self.plays],
            "lost": {str(seat): int(v) for seat, v in self.lost().items()},
        }
        if any(not g.exact for g in self.plays):
            document["estimated_lost"] = {
                str(seat): round(v, 2) for seat, v in self.lost(exact=False).items()
            }
        return document


@dataclass
class Progress:
    """Where an analysis is: for a progress line."""

    deal: int
    play: int  # plays graded so far in this deal
    plays: int  # plays to grade in this deal


class Limits:
    """When to stop: a deadline, or a stop asked from another thread (Ctrl-C). The thread
    that watches the analysis calls ``check`` now and then: past the deadline it stops the
    solve under way (the solver lets go of the interpreter while it searches)."""

    def __init__(self, seconds: float | None = None) -> None:
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.asked = False
        self._solving: list[Control] = []  # the solves under way (one a grading thread)
        self._guard = threading.Lock()

    def stop(self) -> None:
        self.asked = True
        with self._guard:
            solving = list(self._solving)
        for control in solving:
            control.stop()

    @contextlib.contextmanager
    def solving(self, control: Control) -> Iterator[None]:
        """``control``'s solve runs in the block: a stop reaches it (and one asked before
        it could be reached stops it at once)."""
        with self._guard:
            self._solving.append(control)
        if self.over:
            control.stop()
        try:
            yield
        finally:
            with self._guard:
                self._solving.remove(control)

    def under_way(self) -> tuple[int, int, int]:
        """Of the solves under way: their cards valued, their cards to value, and the
        positions they have searched."""
        with self._guard:
            solving = list(self._solving)
        return (
            sum(c.cards_done for c in solving),
            sum(c.cards_total for c in solving),
            sum(c.nodes for c in solving),
        )

    def check(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            self.stop()

    @property
    def over(self) -> bool:
        self.check()
        return self.asked


def default_threads() -> int:
    """Threads ``whist analyse`` grades plays with: the cores this process may use, at most
    ``DEFAULT_THREADS``."""
    from whist.solver import usable_cores

    return max(1, min(usable_cores(), DEFAULT_THREADS))


# ------------------------------------------------------------------------ entry points
def analyse_document(doc: dict[str, Any], deal: int | None = None) -> dict[str, Any]:
    """The analysis of a ``whist-record/1`` document (all deals, or deal ``deal``) as JSON:
    what the server's review job runs. Raises ``RecordError`` or ``CannotAnalyse``."""
    from whist.records import parse

    return to_json(analyse(parse(doc), deal))


def to_json(deals: Sequence[DealAnalysis]) -> dict[str, Any]:
    return {"deals": [d.to_json() for d in deals]}


def analyse(
    record: Record,
    only: int | None = None,
    limits: Limits | None = None,
    progress: Callable[[Progress], None] | None = None,
    threads: int = 1,
) -> list[DealAnalysis]:
    """Every deal of ``record`` that reached card play (or only deal ``only``), each card
    played graded. With ``limits``, stops when they are over: the deal being graded is
    returned cut short (``finished`` False) and later deals are left out. ``threads``:
    plays graded side by side (on as many cores; they share one solver table, up to 403 MB
    in four-hand misère)."""
    _, error = replay(record)
    if error is not None:
        raise CannotAnalyse(f"deal {error.deal} action {error.action} is refused: {error.message}")
    count = len(record.deals)
    if only is not None and not 0 <= only < count:
        raise CannotAnalyse(f"--deal {only}: the record has deals 0..{count - 1}")
    wanted = range(count) if only is None else [only]
    analyses: list[DealAnalysis] = []
    for index in wanted:
        known_from = record.deals[index].known_from
        if known_from is None:
            continue  # a rebuilt deck never fully known: nothing exact to say
        graded = _grade_deal(record, index, known_from, limits, progress, threads)
        if graded is not None:
            analyses.append(graded)
            if not graded.finished:
                break
    if not analyses:
        raise CannotAnalyse(_nothing_to_grade(record, only))
    return analyses


def _nothing_to_grade(record: Record, only: int | None) -> str:
    deals = record.deals if only is None else [record.deals[only]]
    if deals and all(d.known_from is None for d in deals):
        return (
            "the record's deck is partly rebuilt (a seat's download) and its hidden cards are "
            "never all known: no play can be graded exactly"
        )
    where = "the record" if only is None else f"deal {only}"
    return f"{where} has no card played in card play: nothing to grade"


@dataclass
class Position:
    """A play to grade: the deal just before it, the playing seat's view, the card."""

    deal: Deal
    view: View
    action: Play
    index: int  # of the action in the deal

    @property
    def solvable(self) -> bool:
        return exact_position(self.deal) is None and within_reach(self.deal)


def _grade_deal(
    record: Record,
    index: int,
    known_from: int,
    limits: Limits | None,
    progress: Callable[[Progress], None] | None,
    threads: int,
) -> DealAnalysis | None:
    match = Match(record.variant, record.options)
    for earlier in record.deals[:index]:
        match.start_deal(earlier.deck, earlier.dealer)
        for action in earlier.actions:
            assert not isinstance(action, WhistError)  # replay() has checked the record
            match.apply(action)
    source = record.deals[index]
    deal = match.start_deal(source.deck, source.dealer)
    positions: list[Position] = []
    first = known_from
    for i, action in enumerate(source.actions):
        assert not isinstance(action, WhistError)
        if isinstance(action, Play) and i >= known_from and deal.phase is Phase.PLAY:
            if not positions:
                first = i
            positions.append(Position(deal.copy(), view_for(match, action.seat), action, i))
        match.apply(action)
    if not positions:
        return None
    start = positions[0].deal
    analysis = DealAnalysis(
        index, most_tricks(start.contract), match.players, start.trump, _holdings(start)[0], first
    )
    # Exact plays from the end of the deal back to its start: the solver keeps its table
    # from one position to the next, and what it learns near the end serves the positions
    # before (at the start of a misère deal, about a tenth faster than in play order).
    order = sorted(range(len(positions)), key=lambda k: (not positions[k].solvable, -k))
    grades, analysis.finished = _grade_plays(positions, order, index, limits, progress, threads)
    analysis.plays = [grade for grade in grades if grade is not None]
    return analysis


def _grade_plays(
    positions: list[Position],
    order: list[int],
    deal: int,
    limits: Limits | None,
    progress: Callable[[Progress], None] | None,
    threads: int,
) -> tuple[list[Grade | None], bool]:
    """Each position's grade (None: not reached before a stop), taken in ``order`` by
    ``threads`` threads side by side (sharing one solver table, each with buffers of its
    own), and whether every one was graded in full (a stop that came after the last grade
    was taken, while another thread finished one, cuts nothing short). A play's value is
    taken as known when the next play is graded already (``_played_value``): in one thread
    always, with more only when the other thread got there first."""
    grades: list[Grade | None] = [None] * len(positions)
    lock = threading.Lock()  # guards the queue, the grades and the progress calls
    queue = iter(order)
    done = 0
    stopped = False

    def grade_some() -> None:
        nonlocal done, stopped
        while True:
            with lock:
                if stopped or (limits is not None and limits.over):
                    stopped = True
                    return
                k = next(queue, None)
                if k is None:
                    return
                if progress is not None:
                    progress(Progress(deal, done, len(positions)))
                known = None
                if k + 1 < len(positions):
                    known = _played_value(positions[k], positions[k + 1], grades[k + 1])
            # An estimate's draws depend on the play alone, not on which thread took what.
            grade = _grade(positions[k], Random(f"analyse:{deal}:{k}"), limits, known)
            with lock:
                grades[k] = grade
                done += 1

    failures: list[BaseException] = []
    from whist.solver import SharedTables, own_tables

    # the positions of one deal have much in common: what one thread's solves learn, the
    # other's find in the table
    shared = SharedTables()

    def in_own_tables() -> None:
        nonlocal stopped
        try:
            with own_tables(shared):
                grade_some()
        except BaseException as exc:  # raised again in the caller's thread
            with lock:
                failures.append(exc)
                stopped = True

    if threads <= 1:
        grade_some()  # in this thread, with the solver's shared table
    else:
        workers = [
            threading.Thread(target=in_own_tables, name=f"whist-grade-{n}", daemon=True)
            for n in range(min(threads, len(order)))
        ]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        if failures:
            raise failures[0]
    finished = all(grade is not None and grade.settled for grade in grades)
    if finished and progress is not None:
        progress(Progress(deal, len(positions), len(positions)))
    return grades, finished


def most_tricks(contract: Contract | None) -> bool:
    """Whether a deal played for ``contract`` is played for the most tricks (else fewest)."""
    return contract is None or contract.mode not in LOW_MODES


# ------------------------------------------------------------------------ one play
def exact_position(deal: Deal) -> str | None:
    """Why the solver cannot take this card-play position, or None if it can."""
    if deal.stage == 1:
        return (
            "the stock is not used up yet: the analysis covers two-player positions with no "
            "stock left"
        )
    if any(part.hides_hand(deal) for part in deal.parts.values()):
        return (
            "Japanese Whist trick 1 is played from the table before the hands are picked "
            "up: the analysis starts from trick 2"
        )
    return None


def solve_position(
    deal: Deal,
    limits: Limits | None = None,
    budget: float | None = None,
    graded: Card | None = None,
    known: int | None = None,
) -> dict[Card, tuple[int, int]]:
    """Every legal card of the seat to act with its side's tricks from the trick in
    progress to the end, all cards known, for the deal's objective, as ``(low, high)``:
    equal once solved; a stop through ``limits`` or past ``budget`` seconds leaves the
    bounds proved so far. Four-hand most tricks through DDS, the rest through our solver,
    which keeps its table from one position of a deal to the next. ``graded``: the card
    played, whose grade is wanted: our solver then values only it exactly and every other
    card only against the best (``whist.solver.solve_bounds``), and ``known``, if given, is
    that card's value, already known."""
    hands, blockers = _holdings(deal)
    most = most_tricks(deal.contract)
    if most and len(hands) == 4 and not blockers:
        from whist.solver.dds import dds_solve

        tricks = dds_solve(hands, deal.trump, deal.leader, deal.trick)
        return {c: (v, v) for c, v in tricks.items()}
    from whist.solver import Control, solve_bounds

    control = Control()
    watched = contextlib.nullcontext() if limits is None else limits.solving(control)
    with watched, stopped_after(control, budget):
        return solve_bounds(
            hands,
            deal.trump,
            deal.leader,
            deal.trick,
            most,
            blockers or None,
            control=control,
            keep_table=True,
            graded=graded,
            known=known,
        )


@contextlib.contextmanager
def stopped_after(control: Control, seconds: float | None) -> Iterator[None]:
    """Stop ``control``'s solve, run in this thread, once the thread has spent ``seconds``
    of CPU time in the block (wall-clock seconds where the system cannot say a thread's CPU
    time): a busy machine does not cut a solve short, so a deal's grades do not depend on
    what else the machine was doing."""
    if seconds is None:
        yield
        return
    try:
        clock = time.pthread_getcpuclockid(threading.get_ident())
        start = time.clock_gettime(clock)
    except (AttributeError, OSError):  # not a POSIX thread clock
        timer = threading.Timer(seconds, control.stop)
        timer.daemon = True  # never keeps a process alive
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
        return
    done = threading.Event()

    def watch() -> None:
        while not done.wait(CPU_POLL_SECONDS):
            try:
                used = time.clock_gettime(clock) - start
            except OSError:  # the solving thread has ended (a grading thread's last play)
                return
            if used >= seconds:
                control.stop()
                return

    threading.Thread(target=watch, name="whist-play-budget", daemon=True).start()
    try:
        yield
    finally:
        done.set()


def _played_value(position: Position, after: Position, grade: Grade | None) -> int | None:
    """The value of the card played at ``position`` when the exact grade of the next play
    (``after``, graded first: plays go from the end backwards) already says it: the
    position after a card is the next play's, whose best value it takes. Seen from the
    playing side, with the tricks won in between: the side's final count is the same."""
    if after.index != position.index + 1:
        return None
    if grade is None or not grade.exact or not isinstance(grade.best, int):
        return None
    before, later = position.deal, after.deal
    side = side_of(position.action.seat)
    later_side = side_of(after.action.seat)
    left = _holdings(later)[0][after.action.seat].bit_count()
    theirs = grade.best if later_side == side else left - grade.best
    return later.won[side] + theirs - before.won[side]


def _grade(
    position: Position, rng: Random, limits: Limits | None, known: int | None = None
) -> Grade:
    deal, action = position.deal, position.action
    most = most_tricks(deal.contract)
    hand = _holdings(deal)[0][action.seat]
    trick = len(deal.tricks)
    if position.solvable:
        values = solve_position(deal, limits, PLAY_BUDGET, action.card, known)
        played = values[action.card]
        bounds = values.values()
        best = max(hi for _, hi in bounds) if most else min(lo for lo, _ in bounds)
        best_cards = [c for c, (lo, hi) in values.items() if lo == hi == best]
        decided = all(  # every card the best, or surely worse
            lo == hi == best or (hi < best if most else lo > best) for lo, hi in bounds
        )
        if played[0] == played[1] and decided:
            return Grade(trick, action.seat, action.card, hand, played[0], best, best_cards, True)
        if limits is not None and limits.asked:  # the analysis is stopped: what is proved
            pick = max if most else min
            best_bounds = (
                pick(lo for lo, _ in values.values()),
                pick(hi for _, hi in values.values()),
            )
            return Grade(trick, action.seat, action.card, hand, played, best_bounds, [], True)
        # Past the play's budget: estimated like the plays the solver cannot reach.
    estimates, best_cards = estimate_plays(position.view, rng, most)
    return Grade(
        trick,
        action.seat,
        action.card,
        hand,
        estimates[action.card],
        estimates[best_cards[0]],
        best_cards,
        False,
    )


def within_reach(deal: Deal) -> bool:
    """Whether an exact solve of this position is worth trying: not a two-hand deal with
    table piles (Japanese Whist) and more than ``PILES_EXACT`` tricks left."""
    hands, blockers = _holdings(deal)
    return not blockers or max(h.bit_count() for h in hands) <= PILES_EXACT


def estimate_plays(view: View, rng: Random, most: bool) -> tuple[dict[Card, float], list[Card]]:
    """Every legal card's tricks for the seat's side from the trick in progress to the end
    (the tricks that count), averaged over deals drawn from what the seat has seen, as
    MASTER tries its cards where it cannot solve: with table piles by fast rollouts of the
    whole deal (``whist.bots.rollout``), else the card played and the deal played on by
    HARD to where the rest is estimated (a stock game's stage 2) or to its end. Also the
    cards as good as the best: the best and those not surely worse (averages differ by
    chance: within ``ESTIMATE_NOISE`` tricks, or two standard errors of the difference
    over the same deals)."""
    assert view.seat is not None
    cards = [a.card for a in view.legal if isinstance(a, Play)]
    sign = 1.0 if most else -1.0
    if view.facts.has(TABLE_PILES):
        from whist.bots.rollout import best_by_rollouts

        means = best_by_rollouts(view, cards, rng, ESTIMATE_ROLLOUTS)[1]
        top = max(cards, key=lambda c: sign * means[c])
        tied = [c for c in cards if sign * (means[top] - means[c]) <= ESTIMATE_NOISE]
        return means, [top] + [c for c in tied if c != top]
    from whist.bots.hard import HardBot
    from whist.bots.sampler import sample_worlds
    from whist.master.playout import choice_margins

    side = view.seat % 2
    before = view.won[side]
    plays = [Play(view.seat, card) for card in cards]

    def side_tricks(_view: View, won: Sequence[int], _contract: Contract | None) -> float:
        return float(won[side] - before)

    hard = HardBot()
    seen: list[dict[int, float]] = []
    for world in sample_worlds(view, rng, ESTIMATE_WORLDS):
        values = choice_margins(view, world, plays, rng, hard, False, outcome=side_tricks)
        assert values is not None  # no deadline given
        seen.append(values)
    means = {card: statistics.fmean(v[i] for v in seen) for i, card in enumerate(cards)}
    top = max(range(len(cards)), key=lambda i: sign * means[cards[i]])
    tied = [cards[top]]
    for i, card in enumerate(cards):
        if i == top:
            continue
        gaps = [sign * (v[top] - v[i]) for v in seen]
        error = statistics.stdev(gaps) / math.sqrt(len(gaps)) if len(gaps) > 1 else math.inf
        if statistics.fmean(gaps) <= max(ESTIMATE_NOISE, 2 * error):
            tied.append(card)
    return means, tied


def _holdings(deal: Deal) -> tuple[list[Hand], dict[Card, Card]]:
    """Every seat's unplayed cards; Japanese table cards with the face-down card of each
    pile blocked by the face-up card on it."""
    hands = list(deal.hands)
    blockers: dict[Card, Card] = {}
    piles = deal.parts.get(TABLE_PILES)
    if not isinstance(piles, TablePiles):
        return hands, blockers
    for seat, (ups, downs) in enumerate(zip(piles.up, piles.down, strict=True)):
        for up, down in zip(ups, downs, strict=True):
            for card in (up, down):
                if card is not None:
                    hands[seat] |= 1 << card
            if up is not None and down is not None:
                blockers[down] = up
    return hands, blockers
