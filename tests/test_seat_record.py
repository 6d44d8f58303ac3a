"""A player's download of a match (whist-record/1) holds only what that seat may know,
and still replays to exactly the views that seat had."""

from __future__ import annotations

import random

import pytest

from helpers import (
    OPTION_SETS,
    Case,
    card_locations,
    drive,
    mask_cards,
    played_cards,
    prefix_with_sightings,
    visible_cards,
)
from whist import records
from whist.core.actions import Bid, Bottom, action_to_json
from whist.core.cards import card_text
from whist.core.match import Match
from whist.core.views import view_for
from whist.seat_record import seat_record

CASES = [case for case in OPTION_SETS if case.key != "minnesota" or "target" not in case.options]


def replay_doc(doc: dict[str, object]) -> Match:
    match, error = records.replay(records.parse(doc))
    assert error is None, error
    return match


def swapped(match: Match, a: int, b: int) -> Match | None:
    """``match`` with cards ``a`` and ``b`` trading places in the current deal's deck, the
    same actions replayed; None when that makes one of them illegal."""
    deck = list(match.deals[-1].deck)
    i, j = deck.index(a), deck.index(b)
    deck[i], deck[j] = deck[j], deck[i]
    doc = records.to_json(match)
    doc["deals"][-1]["deck"] = [card_text(c) for c in deck]
    twin, error = records.replay(records.parse(doc))
    return None if error is not None else twin


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_download_replays_to_the_same_views_for_its_seat(case: Case) -> None:
    for seed in range(3):
        match, _ = prefix_with_sightings(case, seed, random.Random(seed).randrange(30, 400))
        for seat in range(match.players):
            mine = replay_doc(seat_record(match, seat))
            assert view_for(mine, seat) == view_for(match, seat)
            assert (mine.scores, mine.over, mine.winner) == (match.scores, match.over, match.winner)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_download_does_not_depend_on_cards_the_seat_never_saw(case: Case) -> None:
    """Two matches that differ only in where two unseen cards lie give the same download."""
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        m1, seen = prefix_with_sightings(case, seed, rng.randrange(5, 120))
        deal = m1.deal
        if deal is None or deal.complete or m1.over:
            continue
        seat = rng.randrange(m1.players)
        where = card_locations(m1)
        hidden = [c for c in range(52) if c not in seen[seat] and c not in played_cards(deal)]
        pairs = [
            (a, b) for i, a in enumerate(hidden) for b in hidden[i + 1 :] if where[a] != where[b]
        ]
        rng.shuffle(pairs)
        for a, b in pairs[:5]:
            m2 = swapped(m1, a, b)
            if m2 is None:
                continue  # the swap made an earlier action illegal: not an equal-view twin
            assert seat_record(m1, seat) == seat_record(m2, seat)
            checked += 1
            break
    assert checked >= 2, "too few twins to compare"


@pytest.mark.parametrize("key", ["minnesota", "swedish"])
def test_unrevealed_bids_are_not_in_any_download(key: str) -> None:
    hidden_bids = 0
    for seed in range(20):
        case = next(c for c in OPTION_SETS if c.key == key and not c.options)
        match, _ = prefix_with_sightings(case, seed, 8)
        deal = match.deal
        if deal is None or not deal.revealed:
            continue
        revealed = {s for s, _ in deal.revealed}
        actions = match.log[deal.index]
        secret = [a for a in actions if isinstance(a, Bid | Bottom) and a.seat not in revealed]
        hidden_bids += len(secret)
        for seat in range(4):
            shown = seat_record(match, seat)["deals"][-1]["actions"]
            for action in secret:
                stand_in = next(a for a in shown if a["seat"] == action.seat)
                # The same stand-in whatever was chosen, even in the chooser's own download.
                if key == "minnesota":
                    assert stand_in == {"seat": action.seat, "bid": "low"}
                else:
                    assert "bottom" in stand_in
                    assert stand_in != action_to_json(action) or action.card == min(
                        c for c in range(52) if card_text(c) == stand_in["bottom"]
                    )
    assert hidden_bids > 0


# Matches of more than one deal: leaving is seen in the deal after.
LONG = [c for c in CASES if c.options.get("match") != "single" and c.options.get("target") != 1]


@pytest.mark.parametrize("case", LONG, ids=[c.id for c in LONG])
def test_after_leaving_the_download_shows_nothing_of_the_seats_later_hands(case: Case) -> None:
    """A player who left the seat (or whose seat a bot took over) during deal d keeps what it
    saw until then; its download of the later deal, whose hand only the bot saw, is the same
    whichever cards that hand holds. Without the cut it would name them."""
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        m1 = case.new()
        for step in drive(case, seed, max_actions=rng.randrange(20, 500)):
            m1 = step.match
        deal = m1.deal
        if deal is None or deal.index == 0 or deal.complete or m1.over:
            continue
        seat = rng.randrange(m1.players)
        left_at = (deal.index - 1, rng.randrange(len(m1.log[deal.index - 1]) + 1))
        where = card_locations(m1)
        public = visible_cards(m1, None)
        mine = [c for c in mask_cards(deal.hands[seat]) if c not in public]
        others = [c for c in range(52) if c not in public and ("hand", seat) not in where[c]]
        if not mine or not others:
            continue
        for a, b in [(rng.choice(mine), rng.choice(others)) for _ in range(8)]:
            m2 = swapped(m1, a, b)
            if m2 is None:
                continue  # the swap made an earlier action illegal: not a twin
            if seat_record(m1, seat) == seat_record(m2, seat):
                continue  # the seat would not have seen these cards either (Japanese trick 1)
            assert seat_record(m1, seat, until=left_at) == seat_record(m2, seat, until=left_at)
            # What it saw before leaving is still its own: the earlier deals are unchanged.
            earlier = seat_record(m1, seat, until=left_at)["deals"][: deal.index - 1]
            assert earlier == seat_record(m1, seat)["deals"][: deal.index - 1]
            checked += 1
            break
    assert checked >= 2, "too few twins to compare"
