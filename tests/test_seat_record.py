"""A player's download of a match (whist-record/1) holds only what that seat may know,
and still replays to exactly the views that seat had."""

from __future__ import annotations

import random

import pytest

from helpers import OPTION_SETS, Case, card_locations, played_cards, prefix_with_sightings
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
            deck = list(deal.deck)
            i, j = deck.index(a), deck.index(b)
            deck[i], deck[j] = deck[j], deck[i]
            doc = records.to_json(m1)
            doc["deals"][-1]["deck"] = [card_text(c) for c in deck]
            m2, error = records.replay(records.parse(doc))
            if error is not None:
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
