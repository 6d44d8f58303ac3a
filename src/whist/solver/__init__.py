"""Exact perfect-information ("double dummy") solver for whist-family trick taking.

    from whist.solver import solve
    solve(hands, trump, leader, trick, most=True)  # {card: tricks for the side to act}

Cards and hands use :mod:`whist.core.cards` (a card is ``suit * 13 + rank - 2``, a hand a
52-bit mask).  Four hands: seats ``s`` and ``s + 2`` are partners; two hands: each seat is its
own side.  ``most=True`` is ordinary whist (every side takes as many tricks as it can, the
same game a bridge double-dummy solver analyses); ``most=False`` is misère (Minnesota low,
Swedish nollspel, a Plockwhist pass: every side takes as few as it can).

The search itself is :mod:`whist.solver.kernel` (numba, cached on disk on first use);
:mod:`whist.solver.brute` is a slow plain-Python minimax with the same signature, the
reference the tests compare against.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "Position",
    "brute_solve",
    "check_position",
    "solve",
    "solve_value",
]

_FULL = (1 << 52) - 1
_TT_BUCKETS = 1 << 14  # x 32 entries x 5 int64: 21 MB
# A search of up to 8 tricks stores a few thousand entries: it uses only the table's first
# 2,048 buckets (2.6 MB), which then stay in the CPU's caches from one solve to the next
# (as MASTER solves world after world): 5-10% faster at 8 tricks, the same nodes.  Deeper
# searches need the whole table (at 10 tricks a quarter of it costs 15% more misère nodes).
_SMALL_SEARCH_TRICKS = 8
_SMALL_SEARCH_BUCKETS = 1 << 11


@dataclass(frozen=True)
class Position:
    """A checked position: what :func:`solve` takes, normalised.

    ``hands`` per seat, ``trump`` a suit or ``None``, ``leader`` the seat that led the
    current trick, ``trick`` its cards so far, ``blockers`` ``{down_card: up_card}``."""

    hands: tuple[int, ...]
    trump: int | None
    leader: int
    trick: tuple[int, ...]
    blockers: tuple[tuple[int, int], ...] = ()

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def to_act(self) -> int:
        """The seat to play next."""
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be won, the current one included."""
        return self.hands[self.to_act].bit_count()

    def blocked(self, hand: int) -> int:
        """Cards of ``hand`` that cannot be played yet (their up card is still in it)."""
        out = 0
        for down, up in self.blockers:
            if hand >> down & 1 and hand >> up & 1:
                out |= 1 << down
        return out

    def legal(self) -> list[int]:
        """The cards the seat to act may play, ascending."""
        return _legal_cards(self.hands[self.to_act], self.trick, self.blocked)


def _legal_cards(hand: int, trick: Sequence[int], blocked_of: object) -> list[int]:
    assert callable(blocked_of)
    playable: int = hand & ~int(blocked_of(hand))
    if trick:
        led = trick[0] // 13
        follow = playable & (0x1FFF << (13 * led))
        if follow:
            playable = follow
    return [c for c in range(52) if playable >> c & 1]


def check_position(
    hands: Sequence[int],
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    blockers: Mapping[int, int] | None = None,
) -> Position:
    """Validate a position; raise ``ValueError`` saying what is wrong."""
    players = len(hands)
    if players not in (2, 4):
        raise ValueError(f"need 2 or 4 hands, got {players}")
    seen = 0
    for seat, hand in enumerate(hands):
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0 or hand > _FULL:
            raise ValueError(f"hand {seat} is not a 52-bit card mask: {hand!r}")
        if seen & hand:
            raise ValueError(f"hand {seat} shares cards with another hand")
        seen |= hand
    if trump is not None and (
        not isinstance(trump, int) or isinstance(trump, bool) or not 0 <= trump < 4
    ):
        raise ValueError(f"trump must be a suit 0..3 or None, got {trump!r}")
    if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < players:
        raise ValueError(f"leader must be a seat 0..{players - 1}, got {leader!r}")
    cards = tuple(trick)
    if len(cards) >= players:
        raise ValueError(f"a trick in progress has at most {players - 1} cards, got {len(cards)}")
    table = 0
    for card in cards:
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
            raise ValueError(f"not a card: {card!r}")
        if (seen | table) >> card & 1:
            raise ValueError(f"card {card} on the table is also in a hand or played twice")
        table |= 1 << card
    pairs: list[tuple[int, int]] = []
    if blockers:
        owner = {c: s for s, h in enumerate(hands) for c in range(52) if h >> c & 1}
        for down, up in blockers.items():
            for card in (down, up):
                if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
                    raise ValueError(f"blocker card is not a card: {card!r}")
            if down == up:
                raise ValueError(f"card {down} cannot block itself")
            if down not in owner:
                continue  # already played: nothing left to block
            if up in owner and owner[up] != owner[down]:
                raise ValueError(f"blocked card {down} and its up card {up} are in different hands")
            if up in owner:
                pairs.append((down, up))
        # No cycles: every blocked card must become playable eventually.
        waits = dict(pairs)
        for start in waits:
            card, steps = start, 0
            while card in waits:
                card = waits[card]
                steps += 1
                if steps > len(waits):
                    raise ValueError(f"blockers form a cycle through card {start}")
    position = Position(tuple(hands), trump, leader, cards, tuple(sorted(pairs)))
    left = position.tricks_left
    if left == 0:
        raise ValueError("the seat to act has no cards: nothing left to solve")
    for i in range(players):
        seat = (leader + i) % players
        want = left - 1 if i < len(cards) else left
        if hands[seat].bit_count() != want:
            raise ValueError(
                f"hand {seat} holds {hands[seat].bit_count()} cards, expected {want} "
                f"({left} tricks left, {len(cards)} cards on the table)"
            )
    # The cards on the table must have been legal when played.
    if cards:
        led = cards[0] // 13
        for i, card in enumerate(cards[1:], start=1):
            seat = (leader + i) % players
            before = hands[seat] | (1 << card)
            if card // 13 != led:
                playable = before & ~position.blocked(before)
                if playable & (0x1FFF << (13 * led)):
                    raise ValueError(
                        f"seat {seat} played card {card} but could follow the led suit"
                    )
            elif position.blocked(before) >> card & 1:
                raise ValueError(f"seat {seat} played card {card} while it was blocked")
    if not position.legal():
        raise ValueError(f"seat {position.to_act} has no playable card")
    return position


class _Kernel:
    """The compiled kernel and its transposition table, loaded on first use."""

    def __init__(self) -> None:
        from whist.solver import kernel

        self.kernel = kernel
        self.tt = np.zeros((_TT_BUCKETS, kernel.TT_FIELDS, kernel.TT_WAYS), dtype=np.int64)
        self.gen = 0
        self.out = np.empty(52, dtype=np.int64)
        self.stats = np.zeros(40, dtype=np.int64)
        self.hands = np.zeros(4, dtype=np.int64)
        self.trick = np.zeros(4, dtype=np.int64)
        self.noblk = np.zeros((1, 2), dtype=np.int64)

    def next_gen(self) -> int:
        self.gen += 1
        if self.gen >= 1 << 30:
            self.tt[:] = 0
            self.gen = 1
        return self.gen


_state: _Kernel | None = None
# One table and one set of buffers per process: a solve holds them from start to finish
# (the kernel keeps the GIL, but filling the buffers and reading the answer do not).
_lock = threading.Lock()


def _kernel() -> _Kernel:
    global _state
    if _state is None:
        _state = _Kernel()
    return _state


def _run(
    position: Position, most: bool, every_card: bool, guess: int = -1
) -> tuple[int, dict[int, int]]:
    with _lock:
        return _run_locked(_kernel(), position, most, every_card, guess)


def _run_locked(
    k: _Kernel, position: Position, most: bool, every_card: bool, guess: int
) -> tuple[int, dict[int, int]]:
    """The side to act's tricks under best play and, if ``every_card``, each legal card's;
    ``guess`` the value expected (-1: none), where the search starts."""
    players = position.players
    hands = k.hands
    for i, h in enumerate(position.hands):
        hands[i] = h
    trick = k.trick
    for i, c in enumerate(position.trick):
        trick[i] = c
    blk = np.array(position.blockers, dtype=np.int64) if position.blockers else k.noblk
    out = k.out
    value = k.kernel.solve_kernel(
        hands[:players],
        trick,
        len(position.trick),
        players,
        -1 if position.trump is None else position.trump,
        position.leader,
        not most,
        blk,
        len(position.blockers),
        k.tt[:_SMALL_SEARCH_BUCKETS] if position.tricks_left <= _SMALL_SEARCH_TRICKS else k.tt,
        k.next_gen(),
        True,
        every_card,
        guess,
        out,
        k.stats,
    )
    if not every_card:
        return int(value), {}
    return int(value), {c: int(out[c]) for c in range(52) if out[c] >= 0}


def solve(
    hands: Sequence[int],
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    most: bool,
    blockers: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """For every legal card of the seat to act, the tricks its side wins from the current
    trick (included) to the end of the deal under best play by both sides.

    ``hands``: per seat (2 or 4) the cards still held (not those on the table); ``trump`` a
    suit 0..3 or ``None``; ``leader`` the seat that led the current trick and ``trick`` the
    cards played to it so far; ``most`` True to take as many tricks as possible, False for
    misère (as few as possible, for both sides); ``blockers`` ``{down_card: up_card}``: the
    down card cannot be played before the up card (same hand).  Raises ``ValueError`` on an
    impossible position."""
    return _run(check_position(hands, trump, leader, trick, blockers), most, True)[1]


def solve_value(
    hands: Sequence[int],
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    most: bool,
    blockers: Mapping[int, int] | None = None,
    guess: int | None = None,
) -> int:
    """The side to act's tricks under best play (its best card's value in :func:`solve`),
    found without valuing every card: a playout needs no more, at a fraction of the cost.
    ``guess``: an estimate of the value; a close one makes the search cheaper (any guess
    gives the same answer)."""
    position = check_position(hands, trump, leader, trick, blockers)
    start = -1 if guess is None else min(max(guess, 0), position.tricks_left)
    return _run(position, most, False, start)[0]


def brute_solve(
    hands: Sequence[int],
    trump: int | None,
    leader: int,
    trick: Sequence[int],
    most: bool,
    blockers: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """:func:`solve` by plain minimax in Python: slow, for checking the fast one."""
    from whist.solver.brute import brute

    return brute(check_position(hands, trump, leader, trick, blockers), most)
