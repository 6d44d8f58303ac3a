"""whist-record/1 (docs/record-format.md): reading, validating, writing and the replay document,
including what ``--seat S`` may show."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import piles_of, stock_of
from whist import records
from whist.cli import main
from whist.core.actions import Bid, Bottom, Resign, action_to_json
from whist.core.cards import card_text, cards_in
from whist.core.match import Match
from whist.core.state import Phase
from whist.variants import new_match

FORMAT = "whist-record/1"
SORTED_DECK = tuple(r + s for s in "SHDC" for r in "23456789TJQKA")  # card i = SORTED_DECK[i]

# Defaults as docs/rules.md lists them (a project may add options, e.g. Minnesota's scoring).
RULES_DEFAULTS: dict[str, dict[str, Any]] = {
    "classic": {"target": 5},
    "german": {
        "counted": "last13",
        "stage1_follow": True,
        "scoring": "over_six",
        "match": "target:13",
        "talon_discard": False,
    },
    "plockwhist": {"trump": "none", "target": 13},
    "japanese": {"reveal": "after_trick", "tie": "none", "target": 13},
    "minnesota": {"fail_double": False, "colours": "european", "target": 13},
    "swedish": {
        "bid_input": "card",
        "spel_lead": "right",
        "reveal": "sequential",
        "match": "target:13",
    },
}

# Variants and option sets the random records cover.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("german", {}),
    ("german", {"talon_discard": True}),
    ("german", {"talon_discard": True, "counted": "all26", "stage1_follow": False}),
    ("tomannswhist", {}),
    ("plockwhist", {}),
    ("plockwhist", {"trump": "upcard"}),
    ("japanese", {}),
    ("japanese", {"reveal": "immediate", "tie": "dealer_one"}),
    ("minnesota", {"fail_double": True}),
    ("south_dakota", {}),
    ("swedish", {}),
    ("swedish", {"bid_input": "button", "spel_lead": "left"}),
    ("fyrmanswhist", {"reveal": "simultaneous"}),
]


# --------------------------------------------------------------------------- helpers
def record(
    variant: str, deals: list[dict[str, Any]], options: dict[str, Any] | None = None
) -> dict[str, Any]:
    rec: dict[str, Any] = {"format": FORMAT, "variant": variant, "deals": deals}
    if options is not None:
        rec["options"] = options
    return rec


def replay_doc(rec: dict[str, Any] | str, seat: int | None = None) -> dict[str, Any]:
    text = rec if isinstance(rec, str) else json.dumps(rec)
    match, error = records.replay(records.loads(text))
    assert error is None, error
    doc = records.replay_document(match, error, seat)
    json.dumps(doc)  # must be JSON
    return doc


def cli_doc(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], rec: dict[str, Any], *args: str
) -> tuple[int, dict[str, Any]]:
    """Run ``whist replay`` in this process; (exit status, the JSON printed)."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    status = main(["replay", str(path), *args])
    out = capsys.readouterr().out
    return status, json.loads(out)


def random_match(
    name: str, options: dict[str, Any], rng: random.Random, deals: int = 2, resign: bool = True
) -> Match:
    """A match played with random legal actions (random lock order for simultaneous
    choices), stopped at a random point of its last deal, maybe with a resignation."""
    m = new_match(name, options)
    dealer = rng.randrange(m.players)
    for k in range(deals):
        if m.over:
            break
        deck = list(range(52))
        rng.shuffle(deck)
        m.start_deal(deck, dealer if k == 0 else None)
        cut = rng.choice((rng.randrange(8), rng.randrange(70))) if k == deals - 1 else 10_000
        for _ in range(cut):
            if m.over or m.deal is None or m.deal.complete:
                break
            if resign and rng.random() < 0.002:
                m.apply(Resign(rng.randrange(m.players)))
                break
            seat = rng.choice(m.to_act())
            m.apply(rng.choice(list(m.legal_actions(seat))))
    return m


def random_records(count: int, seed: int) -> Iterator[tuple[str, dict[str, Any]]]:
    rng = random.Random(seed)
    for i in range(count):
        name, options = CONFIGS[i % len(CONFIGS)]
        m = random_match(name, options, rng, deals=rng.choice((1, 2)))
        rec = records.to_json(m)
        rec["variant"] = name  # keep the alias: the record must still replay the same
        rec["options"] = options
        yield name, rec


def first_deal(variant: str, actions: list[Any], dealer: int = 0, **options: Any) -> dict[str, Any]:
    """A one-deal record with the sorted deck (card i = SORTED_DECK[i])."""
    return record(
        variant, [{"dealer": dealer, "deck": list(SORTED_DECK), "actions": actions}], options
    )


CARD_RE = re.compile(r"(?<![0-9A-Za-z])[2-9TJQKA][SHDC](?![0-9A-Za-z])")


def strings_in(obj: Any) -> Iterator[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield key
            yield from strings_in(value)
    elif isinstance(obj, list):
        for item in obj:
            yield from strings_in(item)


def cards_named(doc: dict[str, Any]) -> set[str]:
    return {m for s in strings_in(doc) for m in CARD_RE.findall(s)}


def seen_by(rec: dict[str, Any], seat: int) -> set[str]:
    """Every card ``seat`` may have seen up to the end of ``rec`` (docs/rules.md, What each seat may
    see), worked out from the full state after each action: its own cards (Japanese: not before
    trick 1 is complete), played cards, face-up table cards, upcards, discards, the card it was
    offered privately, shown bottom cards and Classic's turned card."""
    parsed = records.loads(json.dumps(rec))
    m = Match(parsed.variant, parsed.options)
    seen: set[int] = set()

    def look() -> None:
        deal = m.deal
        assert deal is not None
        for trick in deal.tricks:
            seen.update(trick.cards)
        seen.update(deal.trick)
        if not (piles_of(deal).up and not deal.tricks):
            seen.update(cards_in(deal.hands[seat]))
        for ups in piles_of(deal).up:
            seen.update(c for c in ups if c is not None)
        if stock_of(deal).upcard_up and stock_of(deal).cards:
            seen.add(stock_of(deal).cards[0])
        seen.update(stock_of(deal).discards)
        if deal.phase is Phase.TAKE and deal.turn == seat and stock_of(deal).cards:
            seen.add(stock_of(deal).cards[0])
        seen.update(c for _, c in deal.revealed if isinstance(c, int))
        if m.variant.key == "classic":
            seen.add(deal.deck[51])  # the turned trump card

    for deal_record in parsed.deals:
        m.start_deal(deal_record.deck, deal_record.dealer)
        look()
        for action in deal_record.actions:
            assert not isinstance(action, Exception)
            m.apply(action)
            look()
    return {card_text(c) for c in seen}


# ============================================================== reading: variants/options
@pytest.mark.parametrize(
    ("alias", "key", "expected"),
    [
        ("tvamanswhist", "german", RULES_DEFAULTS["german"]),
        (
            "tomannswhist",
            "german",
            {**RULES_DEFAULTS["german"], "scoring": "difference", "match": "deals:4"},
        ),
        ("south_dakota", "minnesota", {**RULES_DEFAULTS["minnesota"], "target": 11}),
        ("fyrmanswhist", "swedish", RULES_DEFAULTS["swedish"]),
    ],
)
def test_alias_resolves_to_canonical_key_with_its_preset(
    alias: str, key: str, expected: dict[str, Any]
) -> None:
    doc = replay_doc(record(alias, []))
    assert doc["variant"] == key
    assert "preset" not in doc["options"]
    for name, value in expected.items():
        assert doc["options"][name] == value, name


def test_south_dakota_alias_scores_its_penalties() -> None:
    # The alias selects the preset's scoring, not only its target: in a low deal the team
    # taking >= 7 tricks loses points (the only place scores go negative).
    m = new_match("minnesota")
    m.start_deal(list(range(52)), 0)
    for seat in range(4):
        m.apply(Bid(seat, "low"))
    play_out(m)
    rec = records.to_json(m)
    rec["variant"] = "south_dakota"
    del rec["options"]
    deal = replay_doc(rec)["deals"][0]
    assert deal["complete"] and deal["contract"] == {"mode": "low"}
    more = 0 if deal["counted_tricks"][0] > 6 else 1
    assert deal["points"][more] == -(deal["counted_tricks"][more] - 6)
    assert deal["points"][1 - more] == 0
    assert replay_doc(records.to_json(m))["deals"][0]["points"][1 - more] > 0


def test_every_option_listed_with_defaults_and_no_preset() -> None:
    for key, defaults in RULES_DEFAULTS.items():
        doc = replay_doc(record(key, []))
        assert doc["variant"] == key
        assert "preset" not in doc["options"]
        for name, value in defaults.items():
            assert doc["options"][name] == value, (key, name)
    assert replay_doc(record("classic", []))["options"] == {"target": 5}
    assert replay_doc(record("german", []))["options"] == RULES_DEFAULTS["german"]


def test_preset_option_replaces_the_alias_preset() -> None:
    doc = replay_doc(record("tomannswhist", [], {"preset": "tvamanswhist"}))
    assert doc["variant"] == "german" and doc["options"] == RULES_DEFAULTS["german"]
    doc = replay_doc(record("german", [], {"preset": "tomannswhist"}))
    assert doc["options"]["scoring"] == "difference" and doc["options"]["match"] == "deals:4"
    doc = replay_doc(record("minnesota", [], {"preset": "south_dakota"}))
    assert doc["options"]["target"] == 11


def test_explicit_options_override_the_preset() -> None:
    doc = replay_doc(record("tomannswhist", [], {"match": "target:7"}))
    assert doc["options"]["scoring"] == "difference" and doc["options"]["match"] == "target:7"
    doc = replay_doc(record("german", [], {"preset": "tomannswhist", "scoring": "deals"}))
    assert doc["options"]["scoring"] == "deals" and doc["options"]["match"] == "deals:4"
    doc = replay_doc(record("south_dakota", [], {"target": 15}))
    assert doc["options"]["target"] == 15


@pytest.mark.parametrize(
    ("variant", "options", "field"),
    [
        ("german", {"colour": "red"}, "options.colour"),
        ("german", {"scoring": "points"}, "options.scoring"),
        ("german", {"match": "target:0"}, "options.match"),
        ("german", {"match": "rounds:2"}, "options.match"),
        ("swedish", {"match": "single"}, "options.match"),
        ("classic", {"target": 0}, "options.target"),
        ("classic", {"target": True}, "options.target"),
        ("german", {"stage1_follow": "maybe"}, "options.stage1_follow"),
        ("german", {"preset": "south_dakota"}, "options.preset"),
        ("classic", {"preset": "tomannswhist"}, "options.preset"),
    ],
)
def test_unknown_option_or_value_is_a_malformed_record(
    variant: str, options: dict[str, Any], field: str
) -> None:
    with pytest.raises(records.RecordError) as caught:
        records.loads(json.dumps(record(variant, [], options)))
    assert caught.value.field == field


def test_bad_option_value_names_its_own_field() -> None:
    rec = record("german", [], {"counted": "last13", "scoring": "counted"})
    with pytest.raises(records.RecordError) as caught:
        records.loads(json.dumps(rec))
    assert caught.value.field == "options.scoring"


@pytest.mark.parametrize(
    ("variant", "options", "name", "value"),
    [
        ("german", {"match": "target:1"}, "match", "target:1"),
        ("german", {"match": "deals:3"}, "match", "deals:3"),
        ("german", {"match": "single"}, "match", "single"),
        ("swedish", {"match": "rounds:2"}, "match", "rounds:2"),
        ("japanese", {"target": 40}, "target", 40),
        ("german", {"talon_discard": True}, "talon_discard", True),
    ],
)
def test_option_values_of_any_whole_number(
    variant: str, options: dict[str, Any], name: str, value: Any
) -> None:
    assert replay_doc(record(variant, [], options))["options"][name] == value


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda r: r.pop("format"), "format"),
        (lambda r: r.update(format="whist-record/2"), "format"),
        (lambda r: r.update(variant="bridge"), "variant"),
        (lambda r: r.update(variant="seven_houses"), "variant"),
        (lambda r: r["deals"][0]["deck"].__setitem__(3, "1S"), "deals[0].deck[3]"),
        (lambda r: r["deals"][0]["deck"].pop(), "deals[0].deck"),
        (lambda r: r["deals"][0]["deck"].__setitem__(3, "2S"), "deals[0].deck"),
        (lambda r: r["deals"][0].update(dealer=2), "deals[0].dealer"),
        (lambda r: r["deals"][0].update(dealer=-1), "deals[0].dealer"),
        (lambda r: r["deals"][0]["actions"].append({"seat": 1, "play": "XS"}), "play"),
        (lambda r: r["deals"][0]["actions"].append({"seat": 1, "play": "10S"}), "play"),
    ],
    ids=[
        "no-format",
        "wrong-format",
        "unknown-variant",
        "unavailable-variant",
        "bad-deck-card",
        "51-cards",
        "duplicate-card",
        "dealer-out-of-range",
        "negative-dealer",
        "bad-card-in-action",
        "ten-not-T",
    ],
)
def test_malformed_record_names_the_field(mutate: Any, field: str) -> None:
    rec = first_deal("german", [])
    mutate(rec)
    with pytest.raises(records.RecordError) as caught:
        records.loads(json.dumps(rec))
    assert caught.value.field == field or caught.value.field.endswith(f".{field}")
    assert field.split("[")[0].split(".")[0] in str(caught.value)


def test_later_dealer_must_follow_the_rotation() -> None:
    deals = [
        {"dealer": 3, "deck": list(SORTED_DECK), "actions": []},
        {"dealer": 1, "deck": list(SORTED_DECK), "actions": []},
    ]
    with pytest.raises(records.RecordError) as caught:
        records.loads(json.dumps(record("classic", deals)))
    assert caught.value.field == "deals[1].dealer"
    deals[1]["dealer"] = 0
    records.loads(json.dumps(record("classic", deals)))  # 3 -> 0 is the rotation


def test_lower_case_cards_are_accepted_and_written_upper_case() -> None:
    rng = random.Random(11)
    for name, options in CONFIGS:
        m = random_match(name, options, rng, resign=False)
        rec = records.to_json(m)
        low = json.loads(json.dumps(rec))
        for deal in low["deals"]:
            deal["deck"] = [c.lower() for c in deal["deck"]]
            for action in deal["actions"]:
                for kind in ("play", "bottom"):
                    if kind in action:
                        action[kind] = action[kind].lower()
        assert replay_doc(low) == replay_doc(rec)
        again, error = records.replay(records.loads(json.dumps(low)))
        assert error is None
        written = records.to_json(again)
        assert written == rec
        assert all(c == c.upper() for c in cards_named(written))
    mixed = first_deal("german", [{"seat": 1, "play": "aS"}, {"seat": 0, "play": "3s"}])
    mixed["deals"][0]["deck"] = [c[0] + c[1].lower() for c in SORTED_DECK]
    doc = replay_doc(mixed)
    assert doc["deals"][0]["tricks"] == [{"leader": 1, "cards": ["AS", "3S"], "winner": 1}]


def test_unknown_keys_at_top_level_and_in_deals_are_ignored() -> None:
    rec = first_deal("german", [{"seat": 1, "play": "AS"}])
    plain = replay_doc(rec)
    rec["event"] = "club night"
    rec["site"] = {"room": 3}
    rec["deals"][0]["comment"] = "nice lead"
    rec["deals"][0]["time"] = [1, 2]
    assert replay_doc(rec) == plain


def test_players_are_optional_and_written_back() -> None:
    rec = first_deal("german", [{"seat": 1, "play": "AS"}])
    rec["players"] = ["Ann", "Bo"]
    parsed = records.loads(json.dumps(rec))
    assert parsed.players == ["Ann", "Bo"]
    match, _ = records.replay(parsed)
    assert records.to_json(match, parsed.players)["players"] == ["Ann", "Bo"]


# ======================================================================== the document
def test_document_of_a_german_deal_in_progress() -> None:
    # Sorted deck, dealer 0: seat 1 holds 2S 4S .. AS 3H .. KH, seat 0 3S .. KS 2H .. AH;
    # 2D is turned (diamonds trump). Seat 1 leads AS, seat 0 follows 3S.
    rec = first_deal("german", [{"seat": 1, "play": "AS"}, {"seat": 0, "play": "3S"}])
    doc = replay_doc(rec)
    assert doc["variant"] == "german"
    assert doc["options"] == RULES_DEFAULTS["german"]
    (deal,) = doc["deals"]
    assert deal["dealer"] == 0 and deal["trump"] == "D" and deal["contract"] is None
    assert deal["tricks"] == [{"leader": 1, "cards": ["AS", "3S"], "winner": 1}]
    assert deal["counted_tricks"] == [0, 0] and deal["points"] == [0, 0]
    assert deal["score"] == [0, 0] and deal["complete"] is False
    assert doc["match"] == {"over": False, "winner": None}
    hand = ["2D", "2S", "3H", "4S", "5H", "6S", "7H", "8S", "9H", "JH", "KH", "QS", "TS"]
    assert doc["next"] == {"seat": 1, "legal": [{"seat": 1, "play": c} for c in hand]}
    assert "error" not in doc


def test_the_trick_in_progress_is_not_listed_and_follow_suit_limits_legal() -> None:
    rec = first_deal("german", [{"seat": 1, "play": "2S"}])
    doc = replay_doc(rec)
    assert doc["deals"][0]["tricks"] == []
    spades = ["3S", "5S", "7S", "9S", "JS", "KS"]
    assert doc["next"] == {"seat": 0, "legal": [{"seat": 0, "play": c} for c in spades]}


def play_out(m: Match) -> None:
    while m.deal is not None and not m.deal.complete and not m.over:
        m.apply(m.legal_actions()[0])


def test_complete_deals_points_running_score_and_next_null() -> None:
    rng = random.Random(3)
    m = new_match("classic")
    for k in range(2):
        deck = list(range(52))
        rng.shuffle(deck)
        m.start_deal(deck, 1 if k == 0 else None)
        play_out(m)
        if m.over:
            break
    doc = replay_doc(records.to_json(m))
    running = [0, 0]
    for deal, state in zip(doc["deals"], m.deals, strict=True):
        won = [sum(1 for t in deal["tricks"] if t["winner"] % 2 == side) for side in (0, 1)]
        assert deal["counted_tricks"] == won and sum(won) == 13
        assert len(deal["tricks"]) == 13 and deal["complete"] is True
        assert deal["points"] == [max(0, won[0] - 6), max(0, won[1] - 6)]
        running = [running[0] + deal["points"][0], running[1] + deal["points"][1]]
        assert deal["score"] == running
        assert deal["trump"] == "SHDC"[state.deck[51] // 13]
        assert "hand" not in deal
    assert doc["next"] is None  # the record stops right after a finished deal


def test_match_over_winner_and_no_next() -> None:
    m = new_match("german", {"match": "single"})
    m.start_deal(list(range(52)), 0)
    play_out(m)
    doc = replay_doc(records.to_json(m))
    won = doc["deals"][0]["counted_tricks"]
    assert doc["match"] == {"over": True, "winner": 0 if won[0] > won[1] else 1}
    assert doc["next"] is None


def test_resignation_ends_the_match_mid_deal() -> None:
    rec = first_deal("minnesota", [{"seat": 2, "bid": "low"}, {"seat": 1, "resign": True}])
    doc = replay_doc(rec)
    assert doc["match"] == {"over": True, "winner": 0}
    assert doc["next"] is None and doc["deals"][0]["complete"] is False
    assert doc["deals"][0]["points"] == [0, 0]


def test_empty_record_has_no_next() -> None:
    doc = replay_doc(record("swedish", []))
    assert doc["deals"] == [] and doc["next"] is None
    assert doc["match"] == {"over": False, "winner": None}


def test_next_for_simultaneous_bids_is_first_undecided_from_the_dealers_left() -> None:
    # Dealer 2: the order is 3, 0, 1, 2.
    doc = replay_doc(first_deal("minnesota", [], dealer=2))
    assert doc["next"]["seat"] == 3
    rec = first_deal("minnesota", [{"seat": 0, "bid": "high"}, {"seat": 3, "bid": "low"}], 2)
    doc = replay_doc(rec)
    assert doc["next"] == {
        "seat": 1,
        "legal": [{"seat": 1, "bid": "high"}, {"seat": 1, "bid": "low"}],
    }
    assert doc["deals"][0]["contract"] is None
    rec = first_deal("swedish", [{"seat": 3, "bottom": "JC"}], dealer=2)
    doc = replay_doc(rec)
    assert doc["next"]["seat"] == 0
    # Seat 0 holds every fourth card from card 1 (dealer 2): 3S 7S JS 2H 6H ...
    expected = [SORTED_DECK[i] for i in range(1, 52, 4)]
    legal = doc["next"]["legal"]
    assert legal == sorted(legal, key=json.dumps)
    assert sorted(a["bottom"] for a in legal) == sorted(expected)
    assert all(a["seat"] == 0 and set(a) == {"seat", "bottom"} for a in legal)


def test_next_for_german_take_and_japanese_trump() -> None:
    rec = first_deal(
        "german", [{"seat": 1, "play": "AS"}, {"seat": 0, "play": "3S"}], talon_discard=True
    )
    doc = replay_doc(rec)
    assert doc["next"] == {
        "seat": 1,
        "legal": [{"seat": 1, "take": "discard"}, {"seat": 1, "take": "keep"}],
    }
    doc = replay_doc(first_deal("japanese", [], dealer=1))
    assert doc["next"] == {"seat": 0, "legal": [{"seat": 0, "trump": s} for s in "CDHS"]}
    assert doc["deals"][0]["trump"] is None
    doc = replay_doc(first_deal("japanese", [{"seat": 0, "trump": "H"}], dealer=1))
    assert doc["deals"][0]["trump"] == "H"


def test_contract_shapes() -> None:
    rng = random.Random(7)
    shapes: set[str] = set()
    for name, options in (("minnesota", {}), ("swedish", {}), ("plockwhist", {})) * 12:
        m = random_match(name, options, rng, deals=1, resign=False)
        while m.deal is not None and m.deal.phase is not Phase.PLAY and not m.deal.complete:
            m.apply(rng.choice(list(m.legal_actions())))
        doc = replay_doc(records.to_json(m))
        contract = doc["deals"][0]["contract"]
        mode = contract["mode"]
        shapes.add(f"{name}:{mode}")
        expected_role = {
            ("minnesota", "high"): "grander",
            ("swedish", "spel"): "declarer",
            ("plockwhist", "spel"): "bidder",
        }.get((name, mode))
        allowed = {
            "minnesota": {"high", "low"},
            "swedish": {"spel", "noll"},
            "plockwhist": {"spel", "pass"},
        }[name]
        assert mode in allowed
        if expected_role is None:
            assert contract == {"mode": mode}
        else:
            assert m.deal is not None and m.deal.contract is not None
            assert contract == {"mode": mode, expected_role: m.deal.contract.seat}
    assert {"minnesota:high", "swedish:spel", "plockwhist:spel", "plockwhist:pass"} <= shapes
    for name in ("classic", "german", "japanese"):
        assert replay_doc(first_deal(name, []))["deals"][0]["contract"] is None


def test_contract_of_a_given_reveal() -> None:
    # Minnesota dealer 0: reveal order 1, 2, 3, 0; the first high (seat 2) is the grander.
    bids = [{"seat": s, "bid": b} for s, b in ((0, "high"), (3, "high"), (1, "low"), (2, "high"))]
    doc = replay_doc(first_deal("minnesota", bids))
    assert doc["deals"][0]["contract"] == {"mode": "high", "grander": 2}
    assert doc["next"]["seat"] == 1
    bids = [{"seat": s, "bid": "low"} for s in range(4)]
    assert replay_doc(first_deal("minnesota", bids))["deals"][0]["contract"] == {"mode": "low"}
    # Plockwhist: non-dealer 1 passes, dealer 0 says spel.
    bids = [{"seat": 1, "bid": "pass"}, {"seat": 0, "bid": "spel"}]
    doc = replay_doc(first_deal("plockwhist", bids))
    assert doc["deals"][0]["contract"] == {"mode": "spel", "bidder": 0}
    bids = [{"seat": 1, "bid": "pass"}, {"seat": 0, "bid": "pass"}]
    assert replay_doc(first_deal("plockwhist", bids))["deals"][0]["contract"] == {"mode": "pass"}
    # Swedish dealer 0, sorted deck: seat s holds cards i = s - 1 (mod 4): seat 1 2S 6S ..,
    # seat 2 3S 7S .., seat 3 4S 8S QS 3H .., seat 0 5S 9S ...
    bottoms = [(1, "2S"), (2, "3S"), (3, "3H"), (0, "5S")]
    acts = [{"seat": s, "bottom": c} for s, c in bottoms]
    doc = replay_doc(first_deal("swedish", acts))
    assert doc["deals"][0]["contract"] == {"mode": "spel", "declarer": 3}
    assert doc["next"]["seat"] == 2


def test_next_legal_sorted_by_json_text_and_matches_the_rules() -> None:
    for name, rec in random_records(42, seed=21):
        doc = replay_doc(rec)
        match, error = records.replay(records.loads(json.dumps(rec)))
        assert error is None
        if doc["next"] is None:
            assert match.over or match.needs_deal
            continue
        seat = doc["next"]["seat"]
        assert seat == match.next_seat()
        legal = doc["next"]["legal"]
        assert legal == sorted(legal, key=json.dumps), name
        assert legal == sorted(legal, key=lambda a: json.dumps(a, separators=(",", ":")))
        expected = sorted(json.dumps(action_to_json(a)) for a in match.legal_actions(seat))
        assert sorted(json.dumps(a) for a in legal) == expected


def test_counted_tricks_follow_the_options() -> None:
    rng = random.Random(8)
    for options, stage1_counts in (({}, False), ({"counted": "all26"}, True)):
        m = new_match("german", options)
        deck = list(range(52))
        rng.shuffle(deck)
        m.start_deal(deck, 0)
        play_out(m)
        deal = replay_doc(records.to_json(m))["deals"][0]
        tricks = deal["tricks"]
        assert len(tricks) == 26
        counted = tricks if stage1_counts else tricks[13:]
        assert deal["counted_tricks"] == [
            sum(1 for t in counted if t["winner"] == s) for s in (0, 1)
        ]


# ===================================================================== writing records
def test_written_record_round_trips() -> None:
    rng = random.Random(99)
    for name, options in CONFIGS:
        m = random_match(name, options, rng)
        text = records.dumps(m, None)
        rec = json.loads(text)
        assert rec["format"] == FORMAT
        assert rec["variant"] in RULES_DEFAULTS  # canonical key
        assert "preset" not in rec["options"]
        for deal in rec["deals"]:
            assert len(deal["deck"]) == 52 and all(c == c.upper() for c in deal["deck"])
        again, error = records.replay(records.loads(text))
        assert error is None
        assert records.replay_document(again) == records.replay_document(m)
        assert again.scores == m.scores and again.over == m.over


# ============================================================== errors found by replaying
@pytest.mark.parametrize(
    ("actions", "index", "code"),
    [
        ([{"seat": 1, "play": "3S"}], 0, "card_not_available"),
        ([{"seat": 0, "play": "3S"}], 0, "not_your_turn"),
        ([{"seat": 1, "play": "AS"}, {"seat": 0, "play": "2H"}], 1, "must_follow_suit"),
        ([{"seat": 1, "play": "AS", "bid": "high"}], 0, None),
        ([{"seat": 1}], 0, None),
        ([{"seat": 1, "play": "AS"}, {"seat": 0, "take": "keep"}], 1, None),
        ([{"seat": 1, "bid": "spel"}], 0, None),
        ([{"seat": 1, "resign": False}], 0, None),
        (["AS"], 0, None),
    ],
    ids=[
        "not-in-hand",
        "out-of-turn",
        "revoke",
        "two-kinds",
        "no-kind",
        "take-without-talon",
        "wrong-kind",
        "resign-false",
        "not-an-object",
    ],
)
def test_refused_action_stops_the_replay(actions: list[Any], index: int, code: str | None) -> None:
    rec = first_deal("german", actions)
    match, error = records.replay(records.loads(json.dumps(rec)))
    assert error is not None
    assert (error.deal, error.action) == (0, index)
    if code is not None:
        assert error.code == code
    assert error.message
    doc = records.replay_document(match, error)
    assert doc["error"] == {
        "deal": 0,
        "action": index,
        "code": error.code,
        "message": error.message,
    }
    assert len(match.log[0]) == index  # the document up to the last legal action


def test_seat_deciding_twice_is_an_error() -> None:
    acts = [{"seat": 1, "bid": "low"}, {"seat": 2, "bid": "low"}, {"seat": 1, "bid": "high"}]
    _, error = records.replay(records.loads(json.dumps(first_deal("minnesota", acts))))
    assert error is not None and (error.deal, error.action) == (0, 2)
    assert error.code == "already_decided"


def test_deal_after_an_unfinished_deal_is_an_error_at_its_action_zero() -> None:
    deals = [
        {"dealer": 0, "deck": list(SORTED_DECK), "actions": [{"seat": 1, "play": "AS"}]},
        {"dealer": 1, "deck": list(SORTED_DECK), "actions": []},
    ]
    match, error = records.replay(records.loads(json.dumps(record("german", deals))))
    assert error is not None and (error.deal, error.action) == (1, 0)
    doc = records.replay_document(match, error)
    assert len(doc["deals"]) == 1 and doc["deals"][0]["trick"]["cards"] == ["AS"]


def test_deal_after_the_match_ended_is_an_error_at_its_action_zero() -> None:
    m = new_match("german", {"match": "single"})
    m.start_deal(list(range(52)), 0)
    play_out(m)
    rec = records.to_json(m)
    rec["deals"].append({"dealer": 1, "deck": list(SORTED_DECK), "actions": []})
    match, error = records.replay(records.loads(json.dumps(rec)))
    assert error is not None and (error.deal, error.action) == (1, 0)
    doc = records.replay_document(match, error)
    assert doc["match"]["over"] is True and len(doc["deals"]) == 1
    resigned = first_deal("classic", [{"seat": 0, "resign": True}])
    resigned["deals"].append({"dealer": 1, "deck": list(SORTED_DECK), "actions": []})
    _, error = records.replay(records.loads(json.dumps(resigned)))
    assert error is not None and (error.deal, error.action) == (1, 0)


# ======================================================================== --seat views
def test_seat_view_adds_hand_to_the_deal_in_progress_only(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    m = new_match("classic")
    m.start_deal(list(range(52)), 0)
    play_out(m)
    m.start_deal(list(reversed(range(52))))
    for _ in range(6):
        m.apply(m.legal_actions()[0])
    rec = records.to_json(m)
    for seat in range(4):
        status, doc = cli_doc(tmp_path, capsys, rec, "--seat", str(seat))
        assert status == 0
        assert "hand" not in doc["deals"][0]
        hand = doc["deals"][1]["hand"]
        assert hand == sorted(card_text(c) for c in cards_in(m.deals[1].hands[seat]))
        if seat == doc["next"]["seat"]:
            assert doc["next"]["legal"]
        else:
            assert "legal" not in doc["next"]
    status, doc = cli_doc(tmp_path, capsys, rec)
    assert status == 0 and "legal" in doc["next"]


def test_japanese_seat_view_has_table_and_no_hand_before_trick_one() -> None:
    rec = first_deal("japanese", [{"seat": 1, "trump": "S"}])
    # Dealer 0: seat 1's face-up cards are cards 20..29, its hand cards 40, 42, ... 50.
    doc = replay_doc(rec, seat=1)
    deal = doc["deals"][0]
    assert deal["hand"] == []
    assert deal["table"] == sorted(SORTED_DECK[20:30])
    legal = doc["next"]["legal"]
    assert sorted(a["play"] for a in legal) == sorted(SORTED_DECK[20:30])
    doc0 = replay_doc(rec, seat=0)
    assert doc0["deals"][0]["table"] == sorted(SORTED_DECK[30:40])
    assert "legal" not in doc0["next"]
    # After trick 1 both hands are known to their owners.
    # Seat 1 leads 2D (card 26, pile 6), seat 0 follows 6D from its table; 8S (card 6)
    # under 2D is turned up when the trick is complete.
    plays = [{"seat": 1, "play": "2D"}, {"seat": 0, "play": "6D"}]
    rec = first_deal("japanese", [{"seat": 1, "trump": "S"}, *plays])
    deal = replay_doc(rec, seat=1)["deals"][0]
    assert deal["hand"] == sorted(SORTED_DECK[40:52:2])
    assert "2D" not in deal["table"] and "8S" in deal["table"]
    assert deal["tricks"] == [{"leader": 1, "cards": ["2D", "6D"], "winner": 0}]


def test_seat_view_names_no_card_the_seat_may_not_see() -> None:
    # docs/record-format.md: "nothing anywhere in the output ... names a card or bid S may not see".
    checked = 0
    for name, rec in random_records(84, seed=1234):
        players = records.loads(json.dumps(rec)).variant.players
        full = replay_doc(rec)
        for seat in range(players):
            doc = replay_doc(rec, seat)
            leaked = cards_named(doc) - seen_by(rec, seat)
            assert not leaked, (name, seat, sorted(leaked))
            in_progress = [d for d in doc["deals"] if "hand" in d]
            assert len(in_progress) <= 1
            if in_progress:
                assert in_progress[0] is doc["deals"][-1]
            if doc["next"] is not None:
                assert doc["next"]["seat"] == full["next"]["seat"]
                assert ("legal" in doc["next"]) == (doc["next"]["seat"] == seat)
            checked += 1
    assert checked > 200


def hidden_choice_variants(rng: random.Random) -> Iterator[tuple[dict[str, Any], int, int]]:
    """Minnesota/Swedish records with a secret choice of seat X that nobody has seen (not
    revealed yet, or after the first high/red): (record, X, index of that action)."""
    for _ in range(300):
        name, options = rng.choice(
            [("minnesota", {}), ("swedish", {}), ("swedish", {"bid_input": "button"})]
        )
        m = random_match(name, options, rng, deals=1, resign=False)
        deal = m.deal
        assert deal is not None
        revealed = {s for s, _ in deal.revealed}
        for i, action in enumerate(m.log[0]):
            if isinstance(action, Bid | Bottom) and action.seat not in revealed:
                yield records.to_json(m), action.seat, i


def test_seat_view_never_tells_an_unrevealed_bid_or_bottom_card() -> None:
    # Changing a choice nobody has seen must not change any other seat's document.
    rng = random.Random(77)
    checked = 0
    for rec, chooser, index in hidden_choice_variants(rng):
        action = rec["deals"][0]["actions"][index]
        other = json.loads(json.dumps(rec))
        if "bid" in action:
            other_bid = {"high": "low", "low": "high", "spel": "pass", "pass": "spel"}
            other["deals"][0]["actions"][index]["bid"] = other_bid[action["bid"]]
        else:
            hand = replay_doc(rec, chooser)["deals"][0].get("hand", [])
            red = action["bottom"][1] in "HD"
            same_colour = [c for c in hand if c != action["bottom"] and (c[1] in "HD") == red]
            if not same_colour:
                continue
            other["deals"][0]["actions"][index]["bottom"] = same_colour[0]
        before = replay_doc(rec)
        after = replay_doc(other)
        if before["deals"][0]["contract"] != after["deals"][0]["contract"]:
            continue  # the change matters to the reveal (a reveal still to come)
        for seat in range(4):
            if seat != chooser:
                assert replay_doc(rec, seat) == replay_doc(other, seat), (rec, chooser, seat)
        checked += 1
        if checked >= 60:
            break
    assert checked >= 30


def test_seat_view_of_german_hidden_draws() -> None:
    # Seat 0 loses trick 1 and draws card 27 (3D) unseen by seat 1.
    rec = first_deal("german", [{"seat": 1, "play": "AS"}, {"seat": 0, "play": "3S"}])
    doc1 = replay_doc(rec, seat=1)
    doc0 = replay_doc(rec, seat=0)
    assert "3D" not in cards_named(doc1)
    assert "3D" in doc0["deals"][0]["hand"]
    assert "2D" in doc1["deals"][0]["hand"]  # the upcard seat 1 took


def test_seat_view_of_bids_does_not_show_locked_bids() -> None:
    acts = [{"seat": 2, "bid": "high"}, {"seat": 3, "bid": "low"}]
    rec = first_deal("minnesota", acts)
    for seat in (0, 1):
        doc = replay_doc(rec, seat)
        assert doc["next"]["seat"] == 1
        doc["next"].pop("legal", None)  # seat 1's own choices
        text = json.dumps(doc)
        assert '"high"' not in text and '"low"' not in text
