"""A position to solve: checked once, normalised, with the legal-card rule; what the fast
solver (:mod:`whist.solver`) and the reference one (:mod:`whist.solver.brute`) share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

_FULL = (1 << 52) - 1


@dataclass(frozen=True)
class Position:
    """A checked position: what :func:`whist.solver.solve` takes, normalised.

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
