"""The bots (``whist.bots``): they decide from their seat's view alone, and always legally.

1. No peeking. At random mid-match positions (bids, bottom cards, trump choice, talon
   decisions and card play, in the first and a later deal) a second full state is built
   that gives the acting seat S the same view: the cards S never saw are redistributed
   among the other hands, the hidden stock and the face-down piles, and Minnesota and
   Swedish choices not yet revealed are changed. Both views must be equal, and every level,
   given the same seed, must choose the same legal action in both.
2. Every level chooses a legal action at every decision of random matches of every option
   set, in every seat.
3. The bots package never imports the match driver, the full state, the variants or the
   records: what a bot knows comes through the view it is passed.
"""

from __future__ import annotations

import ast
import functools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import (
    CARD_TEXTS,
    CASES_BY_ID,
    OPTION_SETS,
    Case,
    card_locations,
    drive,
    played_cards,
    shuffled_deck,
    suit,
    visible_cards,
)
from whist.bots import LEVELS, make_bot
from whist.core.actions import Action, Bid, Bottom, Resign, action_to_json
from whist.core.errors import WhistError
from whist.core.match import Match
from whist.core.views import View, view_for

BUDGET = 1.0
# MASTER sizes its search to the budget; a tiny one keeps these tests quick and still runs
# every part of it (with its fewest worlds per decision).
BUDGETS = {"master": 0.0001}


def budget_of(level: str) -> float:
    return BUDGETS.get(level, BUDGET)


BOTS = Path(__file__).resolve().parent.parent / "src" / "whist" / "bots"

# Every variant, and option sets that add decisions or hidden places: the German talon,
# Plockwhist's upcard, Japanese reveal timing, Swedish bids by button, South Dakota.
TWIN_CASES = [
    CASES_BY_ID[key]
    for key in (
        "classic-5",
        "german-defaults",
        "german-talon",
        "german-free-stage1",
        "plockwhist-none",
        "plockwhist-upcard",
        "japanese-after",
        "japanese-immediate",
        "minnesota-defaults",
        "minnesota-south-dakota",
        "swedish-defaults",
        "swedish-button",
    )
]
TWIN_SEEDS = tuple(range(101, 117))
TWIN_DEALS = 3  # positions are taken from the first deal and the next two
DECISION_RATE = 0.6  # share of non-play decisions (bid, bottom, trump, talon) examined
DECISIONS_PER_DEAL = 4
PLAYS_PER_DEAL = 6  # card-play positions examined per deal, about evenly spread
ATTEMPTS = 24  # redistributions tried per position before it is skipped
MIN_TWINS = 40  # per option set


# ------------------------------------------------------------------ building twins
@dataclass(frozen=True)
class Twin:
    """Seat ``seat`` of two different full states, with the views it gets in each."""

    label: str  # where: option set, helpers.drive seed and step number, deal, seat
    seat: int
    kind: str  # the kind of decision: play, bid, bottom, trump, take
    view: View
    other: View
    moved: int  # hidden cards now in a different place
    reshaped: bool  # some place now holds a different number of cards of some suit
    changed: int  # unrevealed bids or bottom cards changed
    how: str  # the second state's deck and changed choices (for a failure report)


def positions(case: Case, seed: int) -> Iterator[tuple[Match, int, set[int], int]]:
    """Random legal prefixes: (match, seat to act, cards that seat has seen this deal,
    action number). The match is live: use it before asking for the next position."""
    rng = random.Random(f"positions:{case.id}:{seed}")
    seen: list[set[int]] = []
    index: int | None = None
    decisions = 0
    for step in drive(case, seed, max_deals=TWIN_DEALS):
        match = step.match
        deal = match.deal
        if deal is None:
            continue
        if deal.index != index:
            index, decisions = deal.index, 0
            seen = [set() for _ in range(match.players)]
        for seat in range(match.players):
            seen[seat] |= visible_cards(match, seat)
        to_act = match.to_act()
        if match.over or deal.complete or not to_act:
            continue
        seat = rng.choice(to_act)
        kind = match.legal_actions(seat)[0].kind
        if kind == "play":
            pick = rng.random() < PLAYS_PER_DEAL / 52
        else:
            pick = decisions < DECISIONS_PER_DEAL and rng.random() < DECISION_RATE
            decisions += pick
        if pick:
            yield match, seat, set(seen[seat]), step.number


def rebuild(
    match: Match, deck: list[int], change: dict[int, str], rng: random.Random
) -> tuple[Match, list[str]] | None:
    """``match`` played again with the current deal's deck replaced and the current deal's
    actions numbered in ``change`` re-chosen among the acting seat's legal bids ("bid") or
    bottom cards ("bottom"). None if an action is no longer legal."""
    again = Match(match.variant, match.options)
    last = len(match.deals) - 1
    notes: list[str] = []
    try:
        for k, (deal, actions) in enumerate(zip(match.deals, match.log, strict=True)):
            again.start_deal(deck if k == last else list(deal.deck), deal.dealer)
            for i, action in enumerate(actions):
                if k == last and i in change:
                    action = rechoose(again, action, change[i], rng)
                    notes.append(f"action {i}: {action_to_json(action)}")
                again.apply(action)
    except WhistError:
        return None
    return again, notes


def rechoose(match: Match, action: Action, kind: str, rng: random.Random) -> Action:
    """Another legal bid or bottom card of ``action.seat`` (possibly the same one)."""
    legal = [a for a in match.legal_actions(action.seat) if a.kind == kind]
    return rng.choice(legal) if legal else action


def unrevealed_choices(match: Match) -> dict[int, str]:
    """Minnesota and Swedish bids and bottom cards of the current deal not (yet) revealed:
    action number -> kind."""
    deal = match.deal
    assert deal is not None
    if not match.variant.secret_simultaneous:
        return {}
    revealed = {seat for seat, _ in deal.revealed}
    return {
        i: a.kind
        for i, a in enumerate(match.log[deal.index])
        if isinstance(a, Bid | Bottom) and a.seat not in revealed
    }


def suit_shapes(match: Match, cards: list[int]) -> Counter[tuple[object, int]]:
    """How many of ``cards`` each place holds, per suit."""
    where = card_locations(match)
    shape: Counter[tuple[object, int]] = Counter()
    for card in cards:
        for place in where[card]:
            shape[(place[:2], suit(card))] += 1
    return shape


def redistributed(
    match: Match, seat: int, seen: set[int], rng: random.Random
) -> tuple[Match, int, bool, int, str] | str:
    """A second state in which ``seat`` has seen exactly the same: the cards it never saw
    (none of them played) permuted among their places in the deck, unrevealed choices
    re-chosen. First a free shuffle of those cards, then (when earlier plays forbid it, a
    player having shown a void) shuffles within each suit, finally swaps of two cards.
    Returns (state, cards moved, suit shape changed, choices changed, description), or why
    there is none: "known" (the seat can tell where every card is, e.g. the other hand in
    German Whist's stage 2) or "stuck" (no redistribution tried kept every earlier action
    legal)."""
    deal = match.deal
    assert deal is not None
    gone = played_cards(deal)
    hidden = [c for c in range(52) if c not in seen and c not in gone]
    slots = [deal.deck.index(c) for c in hidden]
    change = unrevealed_choices(match)
    before = card_locations(match)
    if len({tuple(before[c]) for c in hidden}) < 2 and not change:
        return "known"
    for attempt in range(ATTEMPTS):
        order = list(hidden)
        if attempt < ATTEMPTS // 2:
            rng.shuffle(order)  # free
        elif attempt < ATTEMPTS - 4:
            for s in range(4):  # within each suit
                members = [i for i, c in enumerate(hidden) if suit(c) == s]
                cards = [hidden[i] for i in members]
                rng.shuffle(cards)
                for i, card in zip(members, cards, strict=True):
                    order[i] = card
        elif len(order) >= 2:
            i, j = rng.sample(range(len(order)), 2)  # one swap
            order[i], order[j] = order[j], order[i]
        deck = list(deal.deck)
        for slot, card in zip(slots, order, strict=True):
            deck[slot] = card
        built = rebuild(match, deck, change, rng)
        if built is None:
            continue
        twin, notes = built
        after = card_locations(twin)
        moved = sum(1 for c in hidden if after[c] != before[c])
        changed = sum(1 for i in change if twin.log[deal.index][i] != match.log[deal.index][i])
        if not moved and not changed:
            continue
        reshaped = suit_shapes(twin, hidden) != suit_shapes(match, hidden)
        how = "deck " + " ".join(CARD_TEXTS[c] for c in deck)
        return twin, moved, reshaped, changed, "; ".join([how, *notes])
    return "stuck"


@functools.cache
def twins(case_id: str) -> tuple[tuple[Twin, ...], Counter[str]]:
    """The twins of an option set's positions, and how many positions had none and why."""
    case = CASES_BY_ID[case_id]
    found: list[Twin] = []
    missing: Counter[str] = Counter()
    for seed in TWIN_SEEDS:
        for match, seat, seen, number in positions(case, seed):
            rng = random.Random(f"twin:{case.id}:{seed}:{number}")
            result = redistributed(match, seat, seen, rng)
            if isinstance(result, str):
                missing[result] += 1
                continue
            twin, moved, reshaped, changed, how = result
            found.append(
                Twin(
                    label=f"{case.id}, drive(seed={seed}) step {number} (deal "
                    f"{len(match.deals)}), seat {seat}",
                    seat=seat,
                    kind=match.legal_actions(seat)[0].kind,
                    view=view_for(match, seat),
                    other=view_for(twin, seat),
                    moved=moved,
                    reshaped=reshaped,
                    changed=changed,
                    how=how,
                )
            )
    return tuple(found), missing


def decision_kinds(case: Case) -> set[str]:
    """The non-play decisions an option set has."""
    key = case.key
    kinds = {
        "minnesota": {"bid"},
        "swedish": {"bid" if case.options.get("bid_input") == "button" else "bottom"},
        "plockwhist": {"bid"},
        "japanese": {"trump"},
        "german": {"take"} if case.options.get("talon_discard") else set(),
    }
    return kinds.get(key, set())


TWIN_IDS = [case.id for case in TWIN_CASES]


# ------------------------------------------------------------------------- no peeking
@pytest.mark.parametrize("case", TWIN_CASES, ids=TWIN_IDS)
def test_twins_differ_in_hidden_things_and_give_the_same_view(case: Case) -> None:
    found, missing = twins(case.id)
    assert len(found) >= MIN_TWINS, f"only {len(found)} twins ({dict(missing)})"
    assert missing["stuck"] <= 0.1 * len(found), f"{len(found)} twins, {dict(missing)}"
    kinds = {t.kind for t in found}
    assert "play" in kinds
    assert decision_kinds(case) <= kinds, f"no twin at {decision_kinds(case) - kinds}"
    assert sum(t.moved > 0 for t in found) >= 0.8 * len(found)
    # Not only cards of a suit trading places: hands of other shapes too.
    assert sum(t.reshaped for t in found) >= 0.3 * len(found)
    if case.key in ("minnesota", "swedish"):
        assert any(t.changed for t in found), "no unrevealed choice was ever changed"
    for t in found:
        assert t.view.to_json() == t.other.to_json(), f"{t.label}: the views differ ({t.how})"
        assert t.view == t.other, t.label


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", TWIN_CASES, ids=TWIN_IDS)
def test_a_bot_chooses_the_same_in_states_its_seat_cannot_tell_apart(
    case: Case, level: str
) -> None:
    found, _ = twins(case.id)
    assert found
    for n, t in enumerate(found):
        if t.view != t.other:
            continue  # reported by the test above
        seed = 1000 + n
        first = make_bot(level).choose(t.view, random.Random(seed), budget_of(level))
        second = make_bot(level).choose(t.other, random.Random(seed), budget_of(level))
        where = f"{level} at {t.label}, bot seed {seed}"
        assert first in t.view.legal, f"{where}: illegal {first!r}"
        assert first == second, f"{where}: {first!r} here, {second!r} in the twin ({t.how})"


# ------------------------------------------------------------------- legal everywhere
SMOKE_DEALS = 2


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", OPTION_SETS, ids=[case.id for case in OPTION_SETS])
def test_every_level_chooses_a_legal_action_at_every_decision(case: Case, level: str) -> None:
    rng = random.Random(f"smoke:{case.id}:{level}")
    bot_rng = random.Random(f"bots:{case.id}:{level}")
    bots = [make_bot(level) for _ in range(case.new().players)]
    match = case.new()
    decisions = 0
    while not match.over:
        if match.needs_deal:
            if len(match.deals) >= SMOKE_DEALS:
                break
            dealer = rng.randrange(match.players) if match.deal is None else None
            match.start_deal(shuffled_deck(rng), dealer)
            continue
        seat = rng.choice(match.to_act())
        view = view_for(match, seat)
        action = bots[seat].choose(view, bot_rng, budget_of(level))
        where = f"{level} in {case.id}, deal {len(match.deals)}, seat {seat}"
        assert not isinstance(action, Resign), f"{where}: resigned"
        assert action in view.legal, f"{where}: {action!r} is not legal ({view.phase})"
        match.apply(action)
        decisions += 1
    assert decisions >= 13 * match.players, f"only {decisions} decisions"


# ------------------------------------------------------------------------- the layers
FORBIDDEN = ("whist.core.match", "whist.core.state", "whist.variants", "whist.records")
PACKAGE = ("whist", "bots")  # the package the files checked live in


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, as dotted names (relative imports resolved against
    ``whist.bots``; ``from whist.core import state`` counts as ``whist.core.state``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(PACKAGE[: len(PACKAGE) + 1 - node.level])
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def forbidden(name: str) -> bool:
    return any(name == f or name.startswith(f + ".") for f in FORBIDDEN)


BOT_FILES = sorted(BOTS.glob("*.py"))


@pytest.mark.parametrize("path", BOT_FILES, ids=lambda p: p.name)
def test_bots_never_import_the_match_state_variants_or_records(path: Path) -> None:
    bad = sorted(name for name in imported_modules(path) if forbidden(name))
    assert not bad, f"bots/{path.name} imports {bad}"


def test_the_import_check_catches_every_form(tmp_path: Path) -> None:
    assert len(BOT_FILES) >= 5
    for line in (
        "import whist.core.match",
        "from whist.core.state import Deal",
        "from whist.core import state",
        "from whist import variants",
        "from whist.variants.german import German",
        "import whist.records as r",
        "from ..records import loads",
        "from .. import variants",
    ):
        probe = tmp_path / "probe.py"
        probe.write_text(f"if True:\n    {line}\n", encoding="utf-8")
        assert any(forbidden(n) for n in imported_modules(probe)), line
    probe.write_text("from whist.core.views import View\nfrom . import knowledge\n")
    assert not any(forbidden(n) for n in imported_modules(probe))


MASTER = BOTS.parent / "master"
# Only these MASTER modules may use the rules engine: to build matches from a view and a guess of
# the hidden cards, to play such a match on (the stock-phase search), and to score a deal; every
# other MASTER module obeys the bots' rule.
MASTER_BUILDERS = {"determinize.py", "playout.py", "scoring.py"}


@pytest.mark.parametrize("path", sorted(MASTER.glob("*.py")), ids=lambda p: p.name)
def test_master_uses_the_rules_engine_only_to_determinize_and_score(path: Path) -> None:
    names = imported_modules(path)
    assert not any(n.startswith(("whist.records", "whist.server", "whist.store")) for n in names)
    if path.name not in MASTER_BUILDERS:
        bad = sorted(name for name in names if forbidden(name))
        assert not bad, f"master/{path.name} imports {bad}"
