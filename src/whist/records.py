"""``whist-record/1``: read, validate, replay and write match records (docs/record-format.md).

Reading separates two kinds of trouble, as the format requires: a *malformed record*
(not JSON, bad format/variant/option/card/deck/dealer) raises ``RecordError`` naming the
field; an *illegal action* is found only by replaying and stops the replay at that action,
keeping everything before it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from whist.core.actions import Action, action_from_json, action_to_json
from whist.core.cards import Card, card_text, parse_card
from whist.core.components import TABLE_PILES
from whist.core.errors import DEAL_IN_PROGRESS, MATCH_OVER, WhistError
from whist.core.match import Match
from whist.core.options import OptionError, Options
from whist.core.variant import Variant

FORMAT = "whist-record/1"


class RecordError(Exception):
    """A malformed record. ``field`` names where, e.g. ``deals[0].deck``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


@dataclass
class DealRecord:
    dealer: int
    deck: tuple[Card, ...]
    # Parsed actions; an action that is malformed (but names no bad card and has a seat) is
    # kept as the error it raises, so that replay stops there with exit status 1.
    actions: list[Action | WhistError] = field(default_factory=list)
    # A seat's download rebuilds the cards its seat never saw (``reconstructed``): from
    # this action on every card in play is where the real deal had it; None: never within
    # the record. A real deck (no ``reconstructed``): 0.
    known_from: int | None = 0


@dataclass
class Record:
    variant: Variant
    options: Options
    players: list[str] | None
    deals: list[DealRecord]


@dataclass
class ReplayError:
    deal: int
    action: int
    code: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "action": self.action,
            "code": self.code,
            "message": self.message,
        }


# --------------------------------------------------------------------------- reading
def loads(text: str | bytes) -> Record:
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise RecordError("record", f"not valid JSON ({exc})") from None
    except RecursionError:
        raise RecordError("record", "not valid JSON (nested too deeply)") from None
    return parse(data)


def parse(data: Any) -> Record:
    from whist.variants import resolve

    if not isinstance(data, dict):
        raise RecordError("record", "a record is a JSON object")
    if "format" not in data:
        raise RecordError("format", f'missing; it must be "{FORMAT}"')
    if data["format"] != FORMAT:
        raise RecordError("format", f'must be "{FORMAT}", not {data["format"]!r}')
    if "variant" not in data:
        raise RecordError("variant", "missing")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("options", "must be an object")
    try:
        variant, resolved = resolve(data["variant"], options)
    except OptionError as exc:
        raise RecordError(f"options.{exc.option}", exc.message) from None
    except WhistError as exc:
        raise RecordError("variant", exc.message) from None
    players = data.get("players")
    if players is not None and not (
        isinstance(players, list)
        and len(players) == variant.players
        and all(isinstance(p, str) for p in players)
    ):
        raise RecordError("players", f"must be {variant.players} names, one per seat")
    deals_data = data.get("deals", [])
    if not isinstance(deals_data, list):
        raise RecordError("deals", "must be a list")
    deals = [_parse_deal(k, d, variant.players) for k, d in enumerate(deals_data)]
    for k, deal in enumerate(deals[1:], start=1):
        expected = (deals[0].dealer + k) % variant.players
        if deal.dealer != expected:
            raise RecordError(
                f"deals[{k}].dealer", f"must be {expected}: the deal passes clockwise"
            )
    return Record(variant, resolved, players, deals)


def _parse_deal(k: int, data: Any, players: int) -> DealRecord:
    where = f"deals[{k}]"
    if not isinstance(data, dict):
        raise RecordError(where, "a deal is a JSON object")
    dealer = data.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < players:
        raise RecordError(f"{where}.dealer", f"must be a seat 0..{players - 1}")
    deck_data = data.get("deck")
    if not isinstance(deck_data, list):
        raise RecordError(f"{where}.deck", "must be a list of 52 cards")
    deck: list[Card] = []
    for i, text in enumerate(deck_data):
        try:
            deck.append(parse_card(text))
        except ValueError:
            raise RecordError(f"{where}.deck[{i}]", f"{text!r} is not a card") from None
    if len(deck) != 52 or len(set(deck)) != 52:
        raise RecordError(
            f"{where}.deck",
            f"must be 52 distinct cards (got {len(deck)}, {len(set(deck))} distinct)",
        )
    actions_data = data.get("actions", [])
    if not isinstance(actions_data, list):
        raise RecordError(f"{where}.actions", "must be a list")
    actions: list[Action | WhistError] = []
    for i, item in enumerate(actions_data):
        _check_seat(f"{where}.actions[{i}]", item, players)
        try:
            actions.append(action_from_json(item))
        except ValueError as exc:
            kind = next((key for key in item if key != "seat"), "action")
            raise RecordError(f"{where}.actions[{i}].{kind}", str(exc)) from None
        except WhistError as exc:
            actions.append(exc)
    known_from = _known_from(where, data.get("reconstructed"), len(actions))
    return DealRecord(dealer, tuple(deck), actions, known_from)


def _known_from(where: str, data: Any, actions: int) -> int | None:
    """The optional ``reconstructed`` field of a deal: ``{"known_from": i}`` (the first
    action from which every card in play is known; null: none)."""
    if data is None:
        return 0
    where = f"{where}.reconstructed"
    if not isinstance(data, dict) or "known_from" not in data:
        raise RecordError(where, 'must be an object {"known_from": action index or null}')
    value = data["known_from"]
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= actions:  # type(): a bool is no index
        raise RecordError(f"{where}.known_from", f"must be null or an action index 0..{actions}")
    return value


def _check_seat(where: str, item: Any, players: int) -> None:
    """Who acts is part of the record's shape, like the dealer: an action object without a
    seat 0..players-1 makes the record malformed. What the seat does (its kind and value)
    is judged by the rules when replayed."""
    if not isinstance(item, dict):
        return  # not an action at all: refused when replayed, as docs/record-format.md says
    if "seat" not in item:
        raise RecordError(f"{where}.seat", f"missing; it must be a seat 0..{players - 1}")
    seat = item["seat"]
    if type(seat) is not int or not 0 <= seat < players:  # type(): a bool is no seat
        raise RecordError(f"{where}.seat", f"must be a seat 0..{players - 1}")


# ---------------------------------------------------------------------------- replay
def replay(record: Record) -> tuple[Match, ReplayError | None]:
    """Apply every deal and action; stop at the first one the rules refuse."""
    match = Match(record.variant, record.options)
    for k, deal in enumerate(record.deals):
        if k > 0 and not match.needs_deal:
            if match.over:
                return match, ReplayError(k, 0, MATCH_OVER, "a deal listed after the match ended")
            return match, ReplayError(
                k, 0, DEAL_IN_PROGRESS, "a deal listed after an unfinished deal"
            )
        match.start_deal(deal.deck, deal.dealer)
        for i, action in enumerate(deal.actions):
            if isinstance(action, WhistError):
                return match, ReplayError(k, i, action.code, action.message)
            try:
                match.apply(action)
            except WhistError as exc:
                return match, ReplayError(k, i, exc.code, f"seat {action.seat}: {exc.message}")
    return match, None


# ---------------------------------------------------------------------------- writing
def to_json(match: Match, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of ``match`` so far, finished or not (all options written out)."""
    document: dict[str, Any] = {
        "format": FORMAT,
        "variant": match.variant.key,
        "options": dict(match.options),
    }
    if players is not None:
        document["players"] = list(players)
    document["deals"] = [
        {
            "dealer": deal.dealer,
            "deck": [card_text(c) for c in deal.deck],
            "actions": [action_to_json(a) for a in actions],
        }
        for deal, actions in zip(match.deals, match.log, strict=True)
    ]
    return document


def dumps(match: Match, players: Sequence[str] | None = None) -> str:
    return json.dumps(to_json(match, players), indent=1) + "\n"


# ------------------------------------------------------------------ replay document
def replay_document(
    match: Match,
    error: ReplayError | None = None,
    seat: int | None = None,
    spectator: bool = False,
) -> dict[str, Any]:
    """The document ``whist replay`` prints (docs/record-format.md). With ``seat``, only what that
    seat may know: its hand is added to the deal in progress, and legal actions appear only
    when it is that seat's turn. Everything seat-specific comes from its view. With
    ``spectator``, only what everyone may know: no hand and no legal actions (they would
    name the cards of the seat to act)."""
    from whist.core.actions import action_sort_key
    from whist.core.views import view_for

    variant = match.variant
    view = view_for(match, seat)
    deals: list[dict[str, Any]] = []
    running = [0, 0]
    for deal in match.deals:
        running = [running[0] + deal.points[0], running[1] + deal.points[1]]
        item: dict[str, Any] = {
            "dealer": deal.dealer,
            "trump": None if deal.trump is None else "SHDC"[deal.trump],
            "contract": None if deal.contract is None else deal.contract.to_json(),
            "tricks": [
                {"leader": t.leader, "cards": [card_text(c) for c in t.cards], "winner": t.winner}
                for t in deal.tricks
            ],
            "counted_tricks": list(deal.won),
            "points": list(deal.points),
            "score": running,
            "complete": deal.complete,
        }
        if not deal.complete and not match.over:
            # The deal in progress: what is public on the table now.
            item["trick"] = {"leader": deal.leader, "cards": [card_text(c) for c in deal.trick]}
            item["revealed"] = [
                {"seat": s, "choice": c if isinstance(c, str) else card_text(c)}
                for s, c in deal.revealed
            ]
            if view.upcard is not None:
                item["upcard"] = card_text(view.upcard)
            if seat is not None:
                item["hand"] = sorted(card_text(c) for c in _cards(view.hand))
                if variant.facts.has(TABLE_PILES):
                    item["table"] = sorted(card_text(c) for c in _cards(view.table_cards))
        deals.append(item)
    document: dict[str, Any] = {
        "variant": variant.key,
        "options": dict(match.options),
        "deals": deals,
        "match": {"over": match.over, "winner": match.winner},
    }
    next_seat = match.next_seat()
    if match.over or next_seat is None:
        document["next"] = None
    else:
        nxt: dict[str, Any] = {"seat": next_seat}
        if (seat is None and not spectator) or seat == next_seat:
            legal = sorted(match.legal_actions(next_seat), key=action_sort_key)
            nxt["legal"] = [action_to_json(a) for a in legal]
        document["next"] = nxt
    if error is not None:
        document["error"] = error.to_json()
    return document


def _cards(mask: int) -> list[Card]:
    from whist.core.cards import cards_in

    return list(cards_in(mask))
