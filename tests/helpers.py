"""Shared helpers of the conformance suite and the view properties.

A random legal match driver, the option sets every variant is tested under, and rule
facts computed *independently* of the core (from docs/rules.md and the full state): where every
card is, which cards a seat may see, the legal actions, trick winners and deal scores.
These are deliberately written again here rather than imported from ``whist.core``: a
test that reused the core's own helpers would agree with any bug in them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from whist import records
from whist.core.actions import Action, Bid, Bottom, ChooseTrump, Play, Resign, Take
from whist.core.components import (
    SECRET_CHOICES,
    STOCK,
    TABLE_PILES,
    SecretChoices,
    Stock,
    TablePiles,
)
from whist.core.errors import WhistError
from whist.core.match import Match
from whist.core.state import Deal, Phase
from whist.core.views import view_for
from whist.variants import new_match

# The stable error codes (core errors module). Clients translate them: never renamed.
STABLE_CODES = frozenset(
    {
        "not_your_turn",
        "must_follow_suit",
        "card_not_available",
        "wrong_phase",
        "already_decided",
        "invalid_bid",
        "invalid_seat",
        "match_over",
        "deal_in_progress",
        "no_deal_in_progress",
        "bad_dealer",
        "bad_deck",
        "bad_action",
    }
)

SUIT_LETTERS = "SHDC"
RANK_LETTERS = "23456789TJQKA"
CARD_TEXTS = tuple(r + s for s in SUIT_LETTERS for r in RANK_LETTERS)  # index = card int
TEXT_TO_CARD = {text: card for card, text in enumerate(CARD_TEXTS)}


def suit(card: int) -> int:
    return card // 13


def is_red(card: int) -> bool:
    return suit(card) in (1, 2)


def mask_cards(mask: int) -> set[int]:
    return {c for c in range(52) if mask >> c & 1}


# ---------------------------------------------------------------------- option sets
@dataclass(frozen=True)
class Case:
    """A variant name (key or alias) with options, as a host creates a match."""

    id: str
    name: str
    options: dict[str, Any] = field(default_factory=dict)
    # Stop after this many deals even if the match is not over (South Dakota scores can
    # wander below zero for a long time); None: play every match to its end.
    max_deals: int | None = None

    def new(self) -> Match:
        return new_match(self.name, self.options)

    @property
    def key(self) -> str:
        return self.new().variant.key

    def __repr__(self) -> str:
        return self.id


OPTION_SETS: list[Case] = [
    # German Whist
    Case("german-defaults", "german"),
    Case("german-tomannswhist", "tomannswhist"),
    Case("german-all26", "german", {"counted": "all26", "match": "target:5"}),
    Case(
        "german-all26-difference",
        "german",
        {"counted": "all26", "scoring": "difference", "match": "deals:3"},
    ),
    Case("german-free-stage1", "german", {"stage1_follow": False, "match": "target:5"}),
    Case("german-talon", "german", {"talon_discard": True, "match": "target:5"}),
    Case(
        "german-talon-free",
        "german",
        {"talon_discard": True, "stage1_follow": False, "match": "single"},
    ),
    Case("german-deals", "german", {"scoring": "deals", "match": "target:3"}),
    Case("german-single", "german", {"match": "single"}),
    Case("german-deals2", "german", {"match": "deals:2"}),
    # Plockwhist
    Case("plockwhist-none", "plockwhist", {"trump": "none", "target": 5}),
    Case("plockwhist-upcard", "plockwhist", {"trump": "upcard", "target": 5}),
    # Japanese Whist
    Case("japanese-after", "japanese", {"reveal": "after_trick", "target": 5}),
    Case("japanese-immediate", "japanese", {"reveal": "immediate", "target": 5}),
    Case("japanese-dealer-one", "japanese", {"tie": "dealer_one", "target": 3}),
    # Classic Whist
    Case("classic-5", "classic", {"target": 5}),
    Case("classic-1", "classic", {"target": 1}),
    # Minnesota Whist
    Case("minnesota-defaults", "minnesota"),
    Case("minnesota-fail-double", "minnesota", {"fail_double": True, "target": 5}),
    Case("minnesota-american", "minnesota", {"colours": "american", "target": 5}),
    Case("minnesota-south-dakota", "south_dakota", {"target": 2}, max_deals=12),
    # Swedish Whist
    Case("swedish-defaults", "swedish"),
    Case("swedish-button", "swedish", {"bid_input": "button", "match": "target:5"}),
    Case("swedish-spel-left", "swedish", {"spel_lead": "left", "match": "target:5"}),
    Case("swedish-simultaneous", "swedish", {"reveal": "simultaneous", "match": "target:5"}),
    Case("swedish-rounds1", "swedish", {"match": "rounds:1"}),
]

CASES_BY_ID = {case.id: case for case in OPTION_SETS}


def cases_of(key: str) -> list[Case]:
    return [case for case in OPTION_SETS if case.key == key]


# --------------------------------------------------------------------------- driver
@dataclass
class Step:
    """The state after one step: the match before its first deal (``kind`` "start"), a
    deal just started ("deal"), or an action just applied ("action")."""

    match: Match
    kind: str
    action: Action | None = None
    number: int = 0


def shuffled_deck(rng: random.Random) -> list[int]:
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


def drive(
    case: Case,
    seed: int,
    *,
    resign_rate: float = 0.0,
    max_actions: int | None = None,
    max_deals: int | None = None,
) -> Iterator[Step]:
    """Play a random legal match, yielding after every step.

    Decks are shuffled and the first dealer drawn from ``random.Random(seed)``; each action
    is a random legal action of a random seat among ``match.to_act()``. With
    ``resign_rate`` a random seat resigns instead with that probability per step.
    """
    rng = random.Random(seed)
    match = case.new()
    limit = max_deals if max_deals is not None else case.max_deals
    number = 0
    yield Step(match, "start", None, number)
    actions = 0
    while not match.over:
        number += 1
        if match.needs_deal:
            if limit is not None and len(match.deals) >= limit:
                return
            if resign_rate and match.deal is not None and rng.random() < 20 * resign_rate:
                # A resignation between deals (recorded at the end of the last deal).
                match.apply(Resign(rng.randrange(match.players)))
                yield Step(match, "action", match.log[-1][-1], number)
                return
            dealer = rng.randrange(match.players) if match.deal is None else None
            match.start_deal(shuffled_deck(rng), dealer)
            yield Step(match, "deal", None, number)
            continue
        if max_actions is not None and actions >= max_actions:
            return
        if len(match.deals) > 400:
            raise AssertionError(f"{case.id} seed {seed}: no end after 400 deals")
        action: Action
        if resign_rate and rng.random() < resign_rate:
            action = Resign(rng.randrange(match.players))
        else:
            seat = rng.choice(match.to_act())
            action = rng.choice(list(match.legal_actions(seat)))
        match.apply(action)
        actions += 1
        yield Step(match, "action", action, number)


def play_prefix(case: Case, seed: int, actions: int) -> Match:
    """The match after ``actions`` random legal actions (fewer if it ends first)."""
    match = case.new()
    for step in drive(case, seed, max_actions=actions):
        match = step.match
    return match


def fork(match: Match) -> Match:
    """A copy of ``match`` to play on without changing it."""
    return match.copy()


# ----------------------------------------------------------------- state snapshots
def snapshot(match: Match) -> str:
    """Everything observable: the record, every seat's view and the public view, scores."""
    parts: dict[str, Any] = {
        "record": records.to_json(match),
        "views": [view_for(match, s).to_json() for s in [*range(match.players), None]],
        "scores": list(match.scores),
        "over": match.over,
        "winner": match.winner,
        "resigned": match.resigned,
        "needs_deal": match.needs_deal,
        "to_act": list(match.to_act()),
    }
    return json.dumps(parts, sort_keys=True, default=str)


def replay_of(match: Match) -> Match:
    """The match rebuilt from its record (to_json -> JSON text -> loads -> replay)."""
    text = json.dumps(records.to_json(match))
    replayed, error = records.replay(records.loads(text))
    assert error is None, f"replay of a legal match stopped: {error}"
    return replayed


# ------------------------------------------------- a deal's mechanics, empty if absent
# The tests read every variant's deals the same way: a deal without a mechanic reads as
# one whose component is empty (no stock cards, no piles, nothing locked).
def stock_of(deal: Deal) -> Stock:
    part = deal.parts.get(STOCK)
    return part if isinstance(part, Stock) else Stock((True, True))


def piles_of(deal: Deal) -> TablePiles:
    part = deal.parts.get(TABLE_PILES)
    return part if isinstance(part, TablePiles) else TablePiles([], [])


def secret_choices(deal: Deal) -> SecretChoices:
    part = deal.parts.get(SECRET_CHOICES)
    return part if isinstance(part, SecretChoices) else SecretChoices()


# ------------------------------------------------------------- where every card is
def card_locations(match: Match) -> dict[int, list[tuple[Any, ...]]]:
    """Card -> every place it is found in the current deal (each must be exactly one)."""
    deal = match.deal
    assert deal is not None
    where: dict[int, list[tuple[Any, ...]]] = {c: [] for c in range(52)}
    for seat, hand in enumerate(deal.hands):
        for card in mask_cards(hand):
            where[card].append(("hand", seat))
    for seat, piles in enumerate(piles_of(deal).up):
        for pile, card in enumerate(piles):
            if card is not None:
                where[card].append(("up", seat, pile))
    for seat, piles in enumerate(piles_of(deal).down):
        for pile, card in enumerate(piles):
            if card is not None:
                where[card].append(("down", seat, pile))
    for i, card in enumerate(stock_of(deal).cards):
        where[card].append(("stock", i))
    if match.variant.key == "plockwhist" and deal.phase is Phase.BID:
        # Cards 12..51 are dealt only once the bidding is over.
        for card in deal.deck[12:]:
            where[card].append(("undealt",))
    for card in stock_of(deal).discards:
        where[card].append(("discard",))
    for card in deal.trick:
        where[card].append(("trick",))
    for k, trick in enumerate(deal.tricks):
        for card in trick.cards:
            where[card].append(("played", k))
    return where


def played_cards(deal: Deal) -> set[int]:
    cards = set(deal.trick)
    for trick in deal.tricks:
        cards.update(trick.cards)
    return cards


# ---------------------------------------------------------- what a seat may see
def visible_cards(match: Match, seat: int | None) -> set[int]:
    """Cards of the current deal ``seat`` may see now (docs/rules.md, What each seat may see);
    ``None``: a spectator.

    Own hand (not in Japanese trick 1, when nobody has looked at their hand), every card
    played this deal, every card that has lain face up (German/Plockwhist upcards, public
    discards, Japanese table cards), Classic's turned trump card, revealed bottom cards, and
    the German loser's offered stock card to the loser only. Derived from the deck, the
    action log and the completed tricks, not from the core's bookkeeping of what is shown.
    """
    deal = match.deal
    if deal is None:
        return set()
    key = match.variant.key
    seen = played_cards(deal)
    offer = None
    if key == "classic":
        seen.add(deal.deck[51])
    elif key in ("german", "plockwhist"):
        face_up, offer = stock_sightings(match)
        seen |= face_up
    elif key == "japanese":
        seen |= japanese_face_up(match)
    elif key == "swedish":
        seen.update(c for _s, c in revealed_from_log(match) if isinstance(c, int))
    if seat is not None:
        if not (key == "japanese" and not deal.tricks):
            seen |= mask_cards(deal.hands[seat])
        if offer is not None and offer[0] == seat:
            seen.add(offer[1])
    return seen


def stock_sightings(match: Match) -> tuple[set[int], tuple[int, int] | None]:
    """German Whist and Plockwhist: every stock card that has been face up (upcards and
    discards), and ``(seat, card)`` when a trick loser is deciding on its private offer.

    Replays the refill rules of docs/rules.md, German Whist on the deck and the action log: after
    each stage-1 trick the winner takes the face-up card, the loser the next one unseen, the next
    is turned; with ``talon_discard`` a take may discard (then the following card is taken
    unseen) while enough cards remain, and a single card left at the end is discarded.
    """
    deal = match.deal
    assert deal is not None
    deck = deal.deck
    log = [a for a in match.log[deal.index] if not isinstance(a, Resign)]
    talon = match.variant.key == "german" and bool(match.options["talon_discard"])
    pos = 0
    if match.variant.key == "plockwhist":
        while pos < len(log) and isinstance(log[pos], Bid):
            pos += 1
        bids = log[:pos]
        if not bids or not ((isinstance(bids[0], Bid) and bids[0].bid == "spel") or len(bids) == 2):
            return set(), None  # the stock is not dealt before the bidding ends
    nxt = 26  # deck index of the stock's top card
    seen = {deck[26]}
    plays = 0
    stage1 = True
    while pos < len(log):
        action = log[pos]
        pos += 1
        assert isinstance(action, Play), f"unexpected {action!r} during play"
        plays += 1
        if plays % 2 or not stage1:
            continue
        winner = deal.tricks[plays // 2 - 1].winner
        for seat, owed in ((winner, 2), (1 - winner, 1)):
            if talon and 52 - nxt >= owed + 1:
                if pos == len(log):  # the decision is pending
                    return seen, (seat, deck[nxt]) if seat != winner else None
                take = log[pos]
                pos += 1
                assert isinstance(take, Take) and take.seat == seat, f"expected a take: {take}"
                if not take.keep:
                    seen.add(deck[nxt])
                    nxt += 1
            nxt += 1
        if 52 - nxt == 1:
            seen.add(deck[nxt])
            nxt += 1
        if nxt == 52:
            stage1 = False
        else:
            seen.add(deck[nxt])
    return seen, None


def japanese_face_up(match: Match) -> set[int]:
    """Japanese Whist: the face-up table cards (deck 20..39, docs/rules.md, Japanese Whist) and each
    card beneath one that was played, once it is turned (after the trick, or at once with
    ``reveal: immediate``)."""
    deal = match.deal
    assert deal is not None
    deck = deal.deck
    forehand = (deal.dealer + 1) % 2
    ups = {forehand: deck[20:30], deal.dealer: deck[30:40]}
    downs = {forehand: deck[0:10], deal.dealer: deck[10:20]}
    completed = {c for trick in deal.tricks for c in trick.cards}
    immediate = match.options["reveal"] == "immediate"
    seen = set(deck[20:40])
    for seat in (0, 1):
        for pile in range(10):
            up = ups[seat][pile]
            if up in completed or (immediate and up in deal.trick):
                seen.add(downs[seat][pile])
    return seen


def revealed_from_log(match: Match) -> list[tuple[int, str | int]]:
    """Minnesota bids and Swedish bottom cards shown so far, in reveal order: none until all
    are locked, then from the dealer's left up to the first high/spel/red choice (all four
    with Swedish ``reveal: simultaneous``)."""
    deal = match.deal
    assert deal is not None
    n = match.players
    choices: dict[int, Action] = {
        a.seat: a for a in match.log[deal.index] if isinstance(a, (Bid, Bottom))
    }
    if len(choices) < n:
        return []
    simultaneous = match.variant.key == "swedish" and match.options["reveal"] == "simultaneous"
    shown: list[tuple[int, str | int]] = []
    for i in range(n):
        seat = (deal.dealer + 1 + i) % n
        action = choices[seat]
        if isinstance(action, Bottom):
            shown.append((seat, action.card))
            stops = is_red(action.card)
        else:
            assert isinstance(action, Bid)
            shown.append((seat, action.bid))
            stops = action.bid in ("high", "spel")
        if stops and not simultaneous:
            break
    return shown


def card_strings(obj: Any) -> set[str]:
    """Every card text found anywhere in a JSON value, in keys as well as values."""
    found: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item.upper() in TEXT_TO_CARD:
                found.add(item.upper())
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def string_paths(obj: Any, words: frozenset[str], path: str = "") -> list[str]:
    """Paths (``revealed[0].choice``) of every string in ``words`` inside a JSON value."""
    found: list[str] = []
    if isinstance(obj, str):
        if obj in words:
            found.append(path)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            if k in words:
                found.append(f"{path}.<key {k}>")
            found.extend(string_paths(v, words, f"{path}.{k}" if path else str(k)))
    elif isinstance(obj, list):
        for v in obj:
            found.extend(string_paths(v, words, f"{path}[*]"))
    return found


# ------------------------------------------------------------ independent rules
def available_cards(match: Match, seat: int) -> int:
    """Cards ``seat`` may play from, before following suit."""
    deal = match.deal
    assert deal is not None
    if match.variant.key == "japanese":
        table = 0
        for card in piles_of(deal).up[seat]:
            if card is not None:
                table |= 1 << card
        return table | deal.hands[seat] if deal.tricks else table
    return deal.hands[seat]


def must_follow_now(match: Match) -> bool:
    deal = match.deal
    assert deal is not None
    if match.variant.key == "german" and deal.stage == 1:
        return bool(match.options["stage1_follow"])
    return True


def expected_legal(match: Match, seat: int) -> set[Action]:
    """The legal actions of ``seat`` by docs/rules.md, from the full state."""
    deal = match.deal
    if match.over or deal is None or deal.complete:
        return set()
    key = match.variant.key
    if deal.phase is Phase.PLAY:
        if seat != (deal.leader + len(deal.trick)) % match.players:
            return set()
        avail = available_cards(match, seat)
        if deal.trick and must_follow_now(match):
            led = {c for c in mask_cards(avail) if suit(c) == suit(deal.trick[0])}
            if led:
                return {Play(seat, c) for c in led}
        return {Play(seat, c) for c in mask_cards(avail)}
    if deal.phase is Phase.BID:
        if key == "plockwhist":
            return {Bid(seat, "spel"), Bid(seat, "pass")} if seat == deal.turn else set()
        if seat in secret_choices(deal).locked:
            return set()
        if key == "minnesota":
            return {Bid(seat, "high"), Bid(seat, "low")}
        if match.options["bid_input"] == "button":
            return {Bid(seat, "spel"), Bid(seat, "pass")}
        return {Bottom(seat, c) for c in mask_cards(deal.hands[seat])}
    if deal.phase is Phase.TRUMP:
        return {ChooseTrump(seat, s) for s in range(4)} if seat == deal.turn else set()
    if deal.phase is Phase.TAKE:
        return {Take(seat, True), Take(seat, False)} if seat == deal.turn else set()
    return set()


def expected_trick_winner(leader: int, cards: tuple[int, ...], trump: int | None, n: int) -> int:
    """Highest trump if any trump was played, else the highest card of the led suit."""
    trumps = [c for c in cards if trump is not None and suit(c) == trump]
    pool = trumps or [c for c in cards if suit(c) == suit(cards[0])]
    best = max(pool)
    return (leader + cards.index(best)) % n


def counted_tricks(match: Match, deal: Deal) -> list[int]:
    """Tricks that score, per side (the seat in two-player games, the team in four)."""
    key = match.variant.key
    won = [0, 0]
    for trick in deal.tricks:
        if key == "plockwhist" and trick.stage != 2:
            continue
        if key == "german" and trick.stage != 2 and match.options["counted"] != "all26":
            continue
        won[trick.winner % 2] += 1
    return won


def _only(side: int, value: int) -> list[int]:
    points = [0, 0]
    points[side] = value
    return points


def expected_points(match: Match, deal: Deal) -> list[int]:
    """What a complete deal scores, by docs/rules.md."""
    key = match.variant.key
    opts = match.options
    won = counted_tricks(match, deal)
    if key == "classic":
        return [max(0, won[0] - 6), max(0, won[1] - 6)]
    if key == "german":
        if won[0] == won[1]:
            return [0, 0]
        w = 0 if won[0] > won[1] else 1
        if opts["scoring"] == "deals":
            return _only(w, 1)
        if opts["scoring"] == "difference":
            return _only(w, won[w] - won[1 - w])
        book = 13 if opts["counted"] == "all26" else 6
        return _only(w, max(0, won[w] - book))
    if key == "japanese":
        if won[0] == won[1]:
            return _only(deal.dealer, 1) if opts["tie"] == "dealer_one" else [0, 0]
        w = 0 if won[0] > won[1] else 1
        return _only(w, won[w] - 13)
    contract = deal.contract
    assert contract is not None
    if key == "plockwhist":
        if contract.mode == "spel":
            bidder = contract.seat
            assert bidder is not None
            if won[bidder] >= 7:
                return _only(bidder, won[bidder] - 6)
            return _only(1 - bidder, 2 * (won[1 - bidder] - 6))
        fewer = 0 if won[0] < won[1] else 1
        return _only(fewer, 7 - won[fewer])
    if key == "minnesota":
        south_dakota = opts["scoring"] == "south_dakota"
        if contract.mode == "high":
            assert contract.seat is not None
            team = contract.seat % 2
            if won[team] >= 7:
                return _only(team, won[team] - 6)
            if south_dakota:
                return _only(team, -(7 - won[team]))
            factor = 2 if opts["fail_double"] else 1
            return _only(1 - team, factor * (won[1 - team] - 6))
        fewer = 0 if won[0] < won[1] else 1
        if south_dakota:
            return _only(1 - fewer, -(won[1 - fewer] - 6))
        return _only(fewer, 7 - won[fewer])
    if key == "swedish":
        if contract.mode == "spel":
            assert contract.seat is not None
            team = contract.seat % 2
            if won[team] >= 7:
                return _only(team, won[team] - 6)
            return _only(1 - team, 2 * (won[1 - team] - 6))
        low = 0 if won[0] <= 6 else 1
        return _only(low, 7 - won[low])
    raise AssertionError(key)


def expected_match_end(match: Match) -> tuple[bool, int | None]:
    """(over, winner) after a complete deal, by the match option (resignations aside)."""
    scores = match.scores
    done = sum(d.complete for d in match.deals)
    best = None if scores[0] == scores[1] else (0 if scores[0] > scores[1] else 1)
    opts = match.options
    form = str(opts["match"]) if "match" in opts else f"target:{opts['target']}"
    kind, _, number = form.partition(":")
    if kind == "target":
        return (max(scores) >= int(number), best if max(scores) >= int(number) else None)
    if kind == "single":
        won = match.deals[0].won
        return True, None if won[0] == won[1] else (0 if won[0] > won[1] else 1)
    deals = int(number) * (match.players if kind == "rounds" else 1)
    return (done >= deals, best if done >= deals else None)


def expected_first_leader(match: Match, deal: Deal) -> int:
    """Who leads trick 1 once the bidding (if any) is over."""
    key = match.variant.key
    n = match.players
    dealer = deal.dealer
    if key in ("german", "plockwhist", "japanese", "classic"):
        return (dealer + 1) % n
    choices = {a.seat: a for a in match.log[deal.index] if isinstance(a, (Bid, Bottom))}
    order = [(dealer + 1 + i) % n for i in range(n)]
    for seat in order:
        choice = choices[seat]
        stops = (isinstance(choice, Bid) and choice.bid in ("high", "spel")) or (
            isinstance(choice, Bottom) and is_red(choice.card)
        )
        if stops:
            if key == "swedish" and match.options["spel_lead"] == "left":
                return (seat + 1) % n
            return (seat - 1) % n
    return (dealer + 1) % n


# ------------------------------------------------------------- refused actions
def illegal_candidates(match: Match, rng: random.Random, count: int) -> list[Action]:
    """A sample of actions that no seat may take now (never a resignation)."""
    n = match.players
    legal: set[Action] = set()
    for seat in match.to_act():
        legal.update(match.legal_actions(seat))
    pool: list[Action] = []
    deal = match.deal
    seats = list(range(n))
    # Near misses first: the right seat with a wrong card, the wrong seat with its own card.
    if deal is not None:
        for seat in match.to_act():
            near = mask_cards(deal.hands[seat]) | {
                c for piles in piles_of(deal).up[seat : seat + 1] for c in piles if c is not None
            }
            pool.extend(Play(seat, c) for c in sorted(near))
        for seat in seats:
            if seat not in match.to_act():
                pool.extend(Play(seat, c) for c in sorted(mask_cards(deal.hands[seat]))[:3])
    pool.extend(Play(rng.randrange(n), rng.randrange(52)) for _ in range(4))
    pool.append(Play(n, rng.randrange(52)))
    pool.append(Play(-1, rng.randrange(52)))
    pool.extend(Bid(rng.randrange(n), w) for w in ("high", "low", "spel", "pass", "grand"))
    pool.extend(Bid(s, w) for s in match.to_act() for w in ("high", "low", "spel", "pass"))
    pool.extend(Bottom(rng.randrange(n), rng.randrange(52)) for _ in range(2))
    pool.extend(Bottom(s, rng.randrange(52)) for s in match.to_act())
    pool.append(ChooseTrump(rng.randrange(n), rng.randrange(4)))
    pool.extend(Take(rng.randrange(n), keep) for keep in (True, False))
    pool.append(Bid(n + 1, "high"))
    candidates = list(dict.fromkeys(a for a in pool if a not in legal))
    near_misses = [a for a in candidates if isinstance(a, Play) and 0 <= a.seat < n][:count]
    others = [a for a in candidates if a not in near_misses]
    rng.shuffle(others)
    return (near_misses[: count // 2] + others)[:count]


def refuse(match: Match, action: Action) -> WhistError:
    """Apply an action that must be refused; return the error."""
    try:
        match.apply(action)
    except WhistError as exc:
        return exc
    raise AssertionError(f"{action!r} was accepted but is not among the legal actions")


def prefix_with_sightings(case: Case, seed: int, length: int) -> tuple[Match, list[set[int]]]:
    """A random prefix and, per seat, every card of the current deal it has ever seen."""
    match = case.new()
    seen: list[set[int]] = []
    index = None
    for step in drive(case, seed, max_actions=length):
        match = step.match
        deal = match.deal
        if deal is None:
            continue
        if deal.index != index:
            index = deal.index
            seen = [set() for _ in range(match.players)]
        for seat in range(match.players):
            seen[seat] |= visible_cards(match, seat)
    return match, seen
